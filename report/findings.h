/* findings.h — the Findings section that opens report.md: every
 * comparison the report's inputs allow, one line each, ordered by
 * practical importance (docs/report.md "Findings").
 *
 * F1  What is compared: each table's groups, per split (ConTest: load),
 *     per measure (analyze/compare.h C1-C3, the numbers `benchlog compare`
 *     prints), but only groups of one mail thread (analyze/table_stats.h
 *     by_source) or one plain file with each other — unrelated posts are not a baseline and a candidate —
 *     unless the user names --baseline or gives --compare-all: the
 *     source is a grouping key of one collector, whose groups are
 *     compared and dropped as each input is read (analyze/compare.h C5),
 *     so an input's first group, not another input's, is its baseline.
 * F2  Order, by practical importance: significant changes (better,
 *     worse, higher, lower) first, then the other tested ones (no
 *     detectable change), then the untested: differences of averages that
 *     allow no test, too few runs, no test; negligible changes last;
 *     within each, the larger |change| first.
 * F3  Where nothing can be compared, one sentence per table says why; for
 *     two groups of different sources it gives the difference of their
 *     means per measure, untested.
 * F4  The full table lists the first BL_FINDINGS_SHOWN comparisons and
 *     counts the rest by verdict; findings.csv in the report folder holds
 *     every one, in the same order. A comparison with no values on a side
 *     is not a finding (nothing was compared).
 * F5  The section opens with the rows that changed (D13 rule 13.5), then
 *     counts the other rows by verdict, then gives every row in a table
 *     inside a <details> block (closed in report.html). The plain-words
 *     answer above it is report/headline.h's.
 * F7  A question is named where a person can find it: a mail thread by
 *     its subject (at most 48 characters, then "…") and the Message-ID
 *     and date of its first message read, “zram: Implement multi-page
 *     write-back” (ab12…@example.org, 2024-11-05); a message with no
 *     thread subject by its Message-ID; a plain file by its name. The
 *     Findings rows name it when the rows come from more than one file
 *     or thread; findings.csv has it in source, thread and
 *     first_message.
 */
#ifndef BL_REPORT_FINDINGS_H
#define BL_REPORT_FINDINGS_H

#include <stdio.h>
#include "analyze/compare.h"

#define BL_FINDINGS_SHOWN 100

/* F7: where row w's question comes from, as Markdown inline text. */
void bl_report_fput_where(FILE *md, const struct bl_cmp_row *w);
/* F4, F2: drop the rows with no values on a side, and order the rest
 * (in place). Before bl_report_findings, the headline and the CSV. */
void bl_report_findings_order(struct bl_cmp_rows *rows);
/* Write "## Findings" to md (F5): the rows that changed, the rest
 * counted, every row in a <details> table. rows ordered by
 * bl_report_findings_order; it may hold no comparison (then only the
 * sentences of F3, or one saying nothing was comparable). */
void bl_report_findings(FILE *md, const struct bl_cmp_rows *rows, double confidence);
/* F4: every finding as CSV (libcsv quoting), after bl_report_findings has
 * ordered them: table, by (the split), source, thread, column,
 * baseline, candidate, base_n, cand_n, base_mean, cand_mean, pct_change,
 * pct_lo, pct_hi, p, p_holm, p_bh, tests, detectable_pct, verdict, note,
 * p_adj, pct_lo_unadj, pct_hi_unadj, first_message (F7).
 * 0 or -BL_EIO. */
int bl_report_findings_csv(FILE *f, const struct bl_cmp_rows *rows);
/* F6: the same rows, columns and numbers as the table `findings` of the
 * existing SQLite database path (report.sqlite): numbers REAL (NULL when
 * empty; the double findings.csv's text reads back as), text TEXT, in one
 * transaction. 0, or -BL_EIO with *why (a static string). */
int bl_report_findings_sqlite(const char *path, const struct bl_cmp_rows *rows, const char **why);

#endif

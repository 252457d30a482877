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
 *     compared and dropped as each input is read (analyze/compare.h C8),
 *     so an input's first group, not another input's, is its baseline.
 *     A mail message that holds two groups or more of a table (records
 *     not quoted, not copies) is its own unit for that table: its groups
 *     are compared with each other only, as a post's own experiment;
 *     the records of messages that hold one group of it are compared
 *     across the thread (docs/statistics.md D18; families, D12, follow
 *     the unit).
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
 *     every one (F8's order). A comparison with no values on a side is
 *     not a finding (nothing was compared).
 * F5  The section opens with the rows that changed (D13 rule 13.5), then
 *     counts the other rows by verdict, then gives every row in a table
 *     inside a <details> block (closed in report.html). The plain-words
 *     answer above it is report/headline.h's.
 * F6  report.sqlite's table `findings` has findings.csv's rows and
 *     columns: numbers REAL (NULL when empty; the double the CSV's text
 *     reads back as), base_n, cand_n and tests INTEGER, text TEXT.
 * F7  A question is named where a person can find it: a mail thread by
 *     its subject (at most 48 characters, then "…") and the Message-ID
 *     and date of its first message read (of those whose records it
 *     compares across the thread), “zram: Implement multi-page
 *     write-back” (ab12…@example.org, 2024-11-05), or of the message
 *     when it is its own unit (F1); a message with no thread subject by
 *     its Message-ID; a plain file by its name. The Findings rows name
 *     it when the rows come from more than one file, thread or unit;
 *     findings.csv has it in source, thread and first_message.
 * F8  Bounded, whatever the number of rows: the rows come in batches
 *     (one input's, as the report drains it, analyze/compare.h C8; then
 *     the analyses' own), and each row is written to findings.csv as its
 *     batch is taken. findings.csv's order is therefore the order read:
 *     input by input (the analyses' rows, vmstat and latency, last), each
 *     batch in F2's order. Memory keeps only the first
 *     BL_FINDINGS_SHOWN rows in F2's order over all batches (ties: the
 *     order read), the count of rows by verdict, and the
 *     BL_HEADLINE_SHOWN questions the headline names
 *     (report/headline.h), each with at most BL_HEADLINE_CHANGES rows.
 *     Each row goes to report.sqlite's findings table as it goes to
 *     findings.csv, so both hold the same rows in the same order.
 */
#ifndef BL_REPORT_FINDINGS_H
#define BL_REPORT_FINDINGS_H

#include <stdio.h>
#include "analyze/compare.h"
#include "report/headline.h"

struct bl_sink;

#define BL_FINDINGS_SHOWN 100

/* A row and its place in the stream (F8: F2's ties). */
struct bl_finding {
	struct bl_cmp_row w;
	unsigned long long seq;
};
/* F8: what the Findings keep of the rows taken. Zero it, then
 * bl_findings_begin. */
struct bl_findings {
	struct bl_finding *top;      /* F2's first BL_FINDINGS_SHOWN, in order; owned */
	size_t ntop;
	struct bl_cmp_skip *skip;    /* F3's sentences, moved from the batches */
	size_t nskip;
	unsigned long long n;        /* rows taken (F4: with values on both sides) */
	unsigned long long tests;    /* m of D12, summed over the families */
	unsigned long long seq;
	unsigned long long count[BL_V_NO_TEST + 1];   /* rows by verdict */
	bool several;                /* F7: from more than one file or thread */
	bool geo;                    /* a row compares geometric means (D6a) */
	const char *src0, *mid0, *ref0;   /* the first row's source, message_id and thread_ref */
	struct bl_question q[BL_HEADLINE_SHOWN];   /* H2's first, in order */
	size_t nq_kept;
	unsigned long long nq, nq_changed;   /* questions, those with a change */
	FILE *csv;                   /* findings.csv, open until bl_findings_end */
	const struct bl_sink *db;    /* report.sqlite's sink (F6); not owned */
	int dbtab;                   /* its findings table */
	int err;                     /* the first write's errno, 0 */
	bool tmp_failed;             /* that write was a temporary file's (a spill read back) */
};

/* One field of the report's CSV files (findings.csv, skipped.csv,
 * inputs.csv) as the tables' text is written (bl_csv_write_text of
 * tables/table.h); then ',' or, when last, the line end. s NULL: empty.
 * 0 or -1 (a write failed). */
int bl_report_csv_field(FILE *f, const char *s, bool last);
/* F7: where row w's question comes from, as Markdown inline text. */
void bl_report_fput_where(FILE *md, const struct bl_cmp_row *w);
/* F8: findings.csv created at path with its header line, and F6's
 * table in db, the sink of report.sqlite (tables/sqlite.h), which must
 * outlive f. 0 or -BL_EIO (f->err the errno of findings.csv; 0 when
 * the table could not be made). */
int bl_findings_begin(struct bl_findings *f, const char *path, const struct bl_sink *db);
/* F8: take every row of rows (judged: C3) and its sentences: F4's
 * rows dropped, the rest ordered (F2) and written to findings.csv,
 * counted, and kept when among the first. rows is left with no row and
 * no sentence (its own list stays). 0, or -BL_EIO (f->err: the errno). */
int bl_findings_take(struct bl_findings *f, struct bl_cmp_rows *rows);
/* findings.csv closed. 0 or -BL_EIO (f->err). */
int bl_findings_end(struct bl_findings *f);
void bl_findings_release(struct bl_findings *f);   /* closes, frees */
/* Write "## Findings" to md (F5): the rows that changed, the rest
 * counted, every kept row in a <details> table; f may hold no
 * comparison (then only the sentences of F3, or one saying nothing was
 * comparable). */
void bl_report_findings(FILE *md, const struct bl_findings *f, double confidence);

#endif

/* headline.h — the paragraphs that open report.md: the answer in plain
 * words, one paragraph per question, before any table (docs/report.md
 * "The answer first"; issue 37 item 4, after hyperfine's summary).
 *
 * H1  A question is a family of docs/statistics.md D12: one baseline ->
 *     candidate pair of one table within one source
 *     (bl_cmp_family_key). Its paragraph names both sides, the table,
 *     the source and the runs, then each measure that changed (D13 rule
 *     13.5) with the size of the change and its interval, then how many
 *     other measures showed no change, were negligible or were not
 *     tested:
 *       "Tweaked tunables vs Default tunables (ConTest,
 *       001_07df0cd7d9b0f35d.txt, 3 runs each): read_load time_s 27 %
 *       shorter (95 % simultaneous CI 4.5–48 %). Of the other 47
 *       measures: no change detected in 29, negligible in 15, 3 not
 *       tested."
 *     No method names and no p-values: those are in the Findings table
 *     and its footnotes. The numbers are the rows' own (analyze/compare.h
 *     bl_cmp), printed by compare.h's rounding for people (2-3
 *     significant digits, no exponent).
 * H2  Order: the rows' order (findings.h F2), so questions with a change
 *     come first, the largest change first. At most BL_HEADLINE_SHOWN
 *     paragraphs, and at most BL_HEADLINE_CHANGES changed measures in
 *     one; one more sentence counts the rest.
 */
#ifndef BL_REPORT_HEADLINE_H
#define BL_REPORT_HEADLINE_H

#include <stdbool.h>
#include <stdio.h>
#include "analyze/compare.h"

#define BL_HEADLINE_SHOWN 8
#define BL_HEADLINE_CHANGES 5

/* H1: one question as the Findings keep it (report/findings.h F8). */
struct bl_question {
	/* row[0]: its first row in F2's order; when it changed, rows
	 * 0..min(changed, BL_HEADLINE_CHANGES)-1 are its changed rows, in
	 * order. Owned (report/findings.c). */
	struct bl_cmp_row row[BL_HEADLINE_CHANGES];
	size_t nrow;
	unsigned long long seq;      /* row[0]'s place in the stream */
	size_t n, changed, no_change, negligible, averages, untested;
};
struct bl_findings;
/* Write H1's paragraphs for the questions f kept to md; nothing when f
 * has no comparison. conf: the confidence of the report (0.95). */
void bl_report_headline(FILE *md, const struct bl_findings *f, double conf);

#endif

/* compare.h — baseline against candidates, column by column, in the
 * spirit of ministat and Go's benchstat (docs/stats.md "compare").
 *
 * C1  Sets. The rows of each table are grouped (analyze/table_stats.h T2)
 *     by the --by columns and, last, the compared column (R5: `group`).
 *     Each distinct value of the compared column is a set; the baseline is
 *     --baseline's value or the first set seen; every other set is a
 *     candidate. Sets are compared within each --by block (contest: per
 *     load, R3), never across blocks.
 * C2  Per column and candidate: both summaries (n, mean +- the conf CI of
 *     the mean D5, median D3), difference d = mean_c - mean_b and
 *     100 d / mean_b with the CI of the test (D6 Welch, default; D7
 *     pooled with --test student, as ministat), the two-sided p-value.
 * C3  Verdict, at alpha = 1 - conf:
 *       "~"               p >= alpha: no significant difference;
 *       "-27.4% better"   significant, signed % change, and "better" or
 *                         "worse" by R1 (analyze/table_stats.h); no word when
 *                         the column's direction is not stated;
 *       "?"               no test possible; the note says why:
 *         - a side has no values;
 *         - R2 tables (means only) with fewer than 3 rows a side:
 *           "averages alone (no per-run data) allow no test";
 *         - fewer than 3 values on a side (bl_test_power_too_low, D7):
 *           too few to detect any difference — also a warning;
 *         - the test is undefined (ttest note: zero variance…).
 *     R2 tables with 3 or more rows a side are tested, with the note that
 *     each value is already a mean of runs.
 */
#ifndef BL_COMPARE_H
#define BL_COMPARE_H

#include <stdbool.h>
#include <stdio.h>
#include "analyze/outtab.h"
#include "analyze/stats.h"
#include "analyze/table_stats.h"

enum bl_cmp_test { BL_CMP_WELCH = 0, BL_CMP_STUDENT };

struct bl_cmp {
	struct bl_ttest t;    /* filled when tested */
	bool tested;          /* a test ran and t.ok */
	double diff, pct;     /* always, when both sides have values (pct NaN when mean_b = 0) */
	char verdict[48];     /* C3 */
	const char *note;     /* static text or NULL */
	bool low_power;       /* bl_test_power_too_low */
	bool means_only;      /* R2 with too few rows */
};

/* C2/C3 for one pair of summaries. means: the table holds means (R2).
 * Returns 0 or -BL_EUSAGE (NULL, conf not in (0,1)). */
int bl_compare_pair(const struct bl_welford *base, const struct bl_welford *cand,
		    double conf, enum bl_cmp_test test, bool means, int better,
		    struct bl_cmp *out);

struct bl_compare_opts {
	const char *baseline;   /* NULL = first set */
	double confidence;      /* (0,1), default 0.95 */
	enum bl_cmp_test test;
	enum bl_tabfmt fmt;
};

/* What bl_compare_write did, for the exit status and warnings. */
struct bl_compare_counts {
	unsigned long rows;          /* candidate rows written */
	unsigned long significant;
	unsigned long untestable;    /* "?" */
	unsigned long low_power;
	unsigned long means_only;
	unsigned long tables;        /* tables compared */
	unsigned long no_baseline;   /* tables where --baseline was not found */
	unsigned long one_set;       /* tables with a single set: nothing to compare */
};

/* Compare every table of ts (grouped as C1 says) and write the result.
 * Problems with the baseline are reported on diag. 0 or -BL_EIO. */
int bl_compare_write(struct bl_tstats *ts, FILE *f, FILE *diag,
		     const struct bl_compare_opts *o, struct bl_compare_counts *counts);

#endif

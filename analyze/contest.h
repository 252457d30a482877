/* contest.h — the "contest" analysis (analyze/contest.c): ConTest runs
 * summarised per group and load, laid out as `contest -r` did, and groups
 * compared load by load. The analysis itself is bl_analysis_contest in
 * analyze/registry.c; these accessors let report/ and the tests read the
 * numbers without parsing text.
 *
 * Definitions (analyze/stats.h D1, D2, D6 for the statistics):
 *   C1  A cell is (group, load): every `contest` record of that group and
 *       load (quoted records only with include_quoted). Per cell and
 *       measure: n, mean, sample sd (n - 1), min, max (bl_welford).
 *   C2  Ratio (ConTest's own column, README v0.61): the cell's mean Time
 *       divided by the mean Time of the same group's no-load cell (load
 *       "noload" or "no_load"). NaN when the group has no no-load run
 *       (contest -r printed "inf" there; benchlog prints "-"). The chart's
 *       ratio panel draws these (its cells' ratio, analyze/chart.h).
 *   C3  Comparison: baseline = the group named opts->baseline, else the
 *       first group. The section does not test the groups itself: each
 *       load and measure is a row of the report's Findings and of
 *       `benchlog compare -t contest` (analyze/compare.h, docs/statistics.md
 *       D12, D13), compared within one file or mail thread, one number in
 *       one place; the section says where.
 *
 * Memory: per cell one bl_welford per measure; report rows read back are
 * kept up to BL_CONTEST_MAX_REPORT_ROWS (more are counted, not kept).
 * At most the first 64 groups and loads (CT_KEEP in contest.c), for
 * every command; the records of the others are counted, not kept, and
 * so are their names (the first 4,096 of each kind; past them the
 * headline says "more than"), so the headline counts every load, group
 * and run seen.
 */
#ifndef BL_ANALYZE_CONTEST_H
#define BL_ANALYZE_CONTEST_H

#include <stdbool.h>
#include <stddef.h>
#include "analyze/stats.h"

enum bl_contest_measure {
	BL_CM_TIME,        /* time_s, s */
	BL_CM_CPU,         /* cpu_pct, % */
	BL_CM_LOAD_RUNS,   /* load_runs */
	BL_CM_LOAD_CPU,    /* load_cpu_pct, % */
	BL_CM_MAJOR,       /* major_faults */
	BL_CM_MINOR,       /* minor_faults */
	BL_CM_N
};

#define BL_CONTEST_MAX_REPORT_ROWS 10000

/* The analysis state (the void * of bl_analysis_contest's functions). */
struct bl_contest;

/* C1: the cell's accumulator for measure m of group g and load l (groups,
 * and loads over all groups, in order of first appearance; a group's runs
 * are the highest run number of its records); NULL when g, l or m is out
 * of range or the cell has no value of that measure. */
const struct bl_welford *bl_contest_cell(const struct bl_contest *c, size_t g, size_t l,
					 enum bl_contest_measure m);
/* C2. */
double bl_contest_ratio(const struct bl_contest *c, size_t g, size_t l);
/* C3: the baseline group's index; *found (may be NULL) is false when
 * opts->baseline names no group (the first group is used then). */
size_t bl_contest_baseline(const struct bl_contest *c, bool *found);

#endif

/* colinfo.h — what benchlog knows about a column beyond its schema: which
 * direction is "better", which tables hold means rather than runs, and by
 * which column a table's rows must be split before they are compared.
 * Used by `benchlog stats` and `benchlog compare` (docs/stats.md).
 *
 * R1  Direction of "better", first match wins:
 *     a. the per-table list in colinfo.c (the table definition's word:
 *        e.g. contest.cpu_pct higher, contest_report.ratio lower);
 *     b. name rules, higher is better: a name ending in _per_s, _ops or
 *        _mbps, or containing "throughput", "bandwidth" or "allocated"
 *        (mtest01's bytes_allocated: more memory obtained);
 *     c. name rules, lower is better: a name ending in _s, _ms, _us, _ns
 *        (durations) or _faults (page faults), or containing "latency";
 *     d. otherwise not stated: changes are shown without "better"/"worse".
 *     Names are compared case-insensitively.
 *
 * R2  Tables of means: every row is already the mean of several runs and
 *     carries no spread (chkmmt's `averages`, `contest -r`'s
 *     `contest_report`). A t-test on them would treat each mean as one
 *     observation; with fewer than 3 rows a side none is possible at all,
 *     and compare says so instead of printing "?" alone.
 *
 * R3  Split column: rows of `contest` and `contest_report` measure a
 *     different workload per `load`, so statistics and comparisons are
 *     made per load unless the user names the grouping (-g / --by).
 *
 * R4  Provenance numbers: `line`, `run` and `quoted` are where a value came
 *     from, not measurements: never chosen as default statistics columns
 *     (nor the runs column of R2).
 *
 * R5  Compared column: what tells the compared sets apart. `group` (the
 *     label before the data: kernel name, heading, file stem), except in
 *     `contest_report`, whose rows name their kernel in `kernel`.
 *
 * R6  Measures: the default statistics columns are the numeric columns
 *     that measure the run. Not measures, first match wins:
 *     a. the per-table list in colinfo.c: positions and settings a table
 *        defines (vmstat `t_s`; mtest01 `target_bytes`, `target_pct`;
 *        latency_series `buckets`, `binned`, `total`, `footer_total`,
 *        `status_cycles`, `overflow_cycles_omitted`: how long the run
 *        was, not how it went; latency `count`: a weight). When the table
 *        is not known (NULL, or a name benchlog has no table for, e.g. a
 *        CSV of benchlog's filed as "csv"), a column on any table's list
 *        is not a measure (benchlog's column names mean one thing);
 *     b. name rules for identifiers, positions and settings: `series`,
 *        `sample`, `since_boot`, `thread`, `tid`, `priority`,
 *        `exit_status`, `page_size_bytes`, a name ending in `_line` (an
 *        input line) or `_code` (exit status or signal number), or
 *        containing `interval` or `limit` (tool settings: vmstat delay,
 *        cyclictest -i and -h).
 *     Names are compared case-insensitively. R4's provenance numbers are
 *     not measures either. A column may still be named explicitly (-c).
 *
 * R7  Histogram tables: rows of `latency` are histogram buckets weighted
 *     by `count` (several series and units mixed): one row is not one
 *     sample, so per-row statistics mean nothing. `benchlog stats` and
 *     `compare` leave such tables out (docs/stats.md); `benchlog summary`
 *     reads them (analyze/latency.h).
 */
#ifndef BL_COLINFO_H
#define BL_COLINFO_H

#include <stdbool.h>

enum bl_better {
	BL_BETTER_UNSTATED = 0,
	BL_BETTER_LOWER = -1,
	BL_BETTER_HIGHER = 1,
};

/* R1 for column `column` of table `table` (may be NULL or "" when
 * unknown, e.g. a foreign CSV). Never fails. */
enum bl_better bl_col_better(const char *table, const char *column);
/* "lower", "higher" or "" (R1). */
const char *bl_better_name(enum bl_better b);
/* R2: true when table's rows are means; *runs_col (may be NULL) gets the
 * column holding how many runs each mean covers (NULL when none). */
bool bl_table_holds_means(const char *table, const char **runs_col);
/* R3: the column to split table's rows by, or NULL. */
const char *bl_table_split_column(const char *table);
/* R4 */
bool bl_col_is_provenance_number(const char *column);
/* R6: false for identifiers, positions and settings of table (NULL or an
 * unknown name: any table's list applies). Never fails. */
bool bl_col_is_measure(const char *table, const char *column);
/* R7 */
bool bl_table_holds_histogram(const char *table);
/* R5: "group" or the table's own column. */
const char *bl_table_group_column(const char *table);

#endif

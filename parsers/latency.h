/* latency.h — the latency tables (parsers/latency.c, FORMATS.md §5):
 * `latency`, one row per bucket, overflow count or sample, and
 * `latency_series`, one row per series; their columns are documented in
 * their definitions (docs/csv.md). A series is one distribution: the whole
 * int_resp_timer-style histogram, one cyclictest thread (T0, T1, ...), or
 * one plain list of samples.
 *
 * Runs: every series run (one timer histogram, one cyclictest invocation
 * with all its threads, one list) starts a new run in the run family
 * BL_RUN_FAMILY_MTEST (parsers/tables.h) and marks BL_RUN_BIT_LATENCY, so
 * the shell `time` block printed after it (parsers/timeshort.c joins the
 * same family) gets the same group and run. After the series and its time
 * block the run is closed, so a later mtest01 result starts a run of its own.
 */
#ifndef BL_PARSERS_LATENCY_H
#define BL_PARSERS_LATENCY_H

#include "core/record.h"

extern const struct bl_table_def bl_table_latency;
enum bl_latency_col {
	LAT_SERIES, LAT_KIND, LAT_UNIT, LAT_LATENCY_S, LAT_LATENCY_US, LAT_COUNT,
	LAT_NCOLS
};

extern const struct bl_table_def bl_table_latency_series;
enum bl_latency_series_col {
	LS_SERIES, LS_TOOL, LS_UNIT, LS_COMMAND, LS_LAST_LINE,
	LS_BUCKETS, LS_BINNED, LS_OVERFLOW, LS_TOTAL, LS_HIST_LIMIT_US,
	LS_THREAD, LS_TID, LS_PRIORITY, LS_INTERVAL_US,
	LS_STATUS_CYCLES, LS_STATUS_MIN_US, LS_STATUS_ACT_US, LS_STATUS_AVG_US,
	LS_STATUS_MAX_US, LS_SMIS,
	LS_FOOTER_TOTAL, LS_FOOTER_MIN_US, LS_FOOTER_AVG_US, LS_FOOTER_MAX_US,
	LS_OVERFLOW_CYCLES, LS_OVERFLOW_CYCLES_OMITTED,
	LS_TIME_LINE,
	LS_ROWS_ELIDED,
	LS_PERIOD_S, LS_PERIOD_LINE, LS_PERIOD_FROM,
	LS_NCOLS
};

/* Run-family bit of a latency series (family BL_RUN_FAMILY_MTEST). */
#define BL_RUN_BIT_LATENCY 4ull

#endif

/* tables.h — the table definitions other modules refer to by symbol
 * (summary, report, plots). Each is defined in the parser file named. */
#ifndef BL_TABLES_H
#define BL_TABLES_H

#include "core/record.h"

/* parsers/timev.c — one row per timing block, any timing tool. */
extern const struct bl_table_def bl_table_time;
enum bl_time_col {
	TIME_FORMAT, TIME_COMMAND, TIME_STATUS, TIME_STATUS_CODE,
	TIME_USER_S, TIME_SYS_S, TIME_CPU_PCT, TIME_ELAPSED_S,
	TIME_AVG_SHARED_TEXT_KIB, TIME_AVG_UNSHARED_DATA_KIB, TIME_AVG_STACK_KIB,
	TIME_AVG_TOTAL_KIB, TIME_MAX_RSS_KIB, TIME_AVG_RSS_KIB,
	TIME_MAJOR_FAULTS, TIME_MINOR_FAULTS, TIME_VOLUNTARY_CS, TIME_INVOLUNTARY_CS,
	TIME_SWAPS, TIME_FS_INPUTS, TIME_FS_OUTPUTS, TIME_SOCKET_SENT,
	TIME_SOCKET_RECEIVED, TIME_SIGNALS, TIME_PAGE_SIZE_BYTES, TIME_EXIT_STATUS,
	TIME_NCOLS
};
/* Run family shared by mtest01 results and the time blocks that go with
 * them (bits below); see bl_run_join() in core/ctx.h. */
#define BL_RUN_FAMILY_MTEST "mtest"
#define BL_RUN_BIT_TIME 1ull
#define BL_RUN_BIT_MTEST01 2ull

/* parsers/mtest01.c */
extern const struct bl_table_def bl_table_mtest01;
enum bl_mtest01_col {
	MT_GENERATION, MT_RESULT, MT_BYTES_ALLOCATED, MT_TARGET_BYTES, MT_TARGET_PCT,
	MT_MESSAGE, MT_NCOLS
};

/* parsers/averages.c — chkmmt's "Averages for N mtest01 runs" blocks. */
extern const struct bl_table_def bl_table_averages;
enum bl_avg_col {
	AVG_RUNS, AVG_BYTES_ALLOCATED, AVG_USER_S, AVG_SYS_S, AVG_ELAPSED_S,
	AVG_CPU_PCT, AVG_MAJOR_FAULTS, AVG_MINOR_FAULTS, AVG_NCOLS
};

#endif

/* contest.h — the ConTest tables (parsers/contest.c) for the modules that
 * read them by symbol (analyze/contest.c, report/). Formats: docs/formats.md
 * "ConTest"; columns: their definitions in contest.c (docs/csv.md).
 */
#ifndef BL_PARSERS_CONTEST_H
#define BL_PARSERS_CONTEST_H

#include "core/record.h"

/* One row per per-load log line, every generation. */
extern const struct bl_table_def bl_table_contest;
enum bl_contest_col {
	CT_LOAD, CT_TIME_S, CT_CPU_PCT, CT_LOAD_RUNS, CT_LOAD_CPU_PCT,
	CT_MAJOR_FAULTS, CT_MINOR_FAULTS, CT_NOTE,
	CT_NCOLS
};

/* One row per kernel row of a `contest -r` report block (2002, 2003 and
 * 2004 layouts) or of a hand-made table with a "Kernel … Time … CPU"
 * header. Columns are read by the header's text. */
extern const struct bl_table_def bl_table_contest_report;
enum bl_contest_report_col {
	CR_LOAD, CR_KERNEL, CR_RUNS, CR_TIME_S, CR_CPU_PCT, CR_LOADS,
	CR_LOAD_CPU_PCT, CR_RATIO, CR_CPU_PLUS_LCPU_PCT,
	CR_NCOLS
};

/* Run family of the contest table (core/ctx.h bl_run_join): a run is one
 * pass through the loads; it ends when a load comes again in the group. */
#define BL_RUN_FAMILY_CONTEST "contest"

#endif

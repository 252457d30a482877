/* contest.h — the ConTest tables (parsers/contest.c) for the modules that
 * read them by symbol (analyze/contest.c, report/).
 *
 * Formats: ../shared/FORMATS.md §4 and docs/formats.md "ConTest".
 * Columns: docs/csv.md "contest" and "contest_report".
 */
#ifndef BL_PARSERS_CONTEST_H
#define BL_PARSERS_CONTEST_H

#include "core/record.h"

/* One row per per-load log line ("noload Time: 18.82  CPU: 171%  LoadRuns: 0
 * LoadCPU%: 0  Major Faults: 368526  Minor Faults: 181377"), every
 * generation; a column the line's generation does not print is empty. */
extern const struct bl_table_def bl_table_contest;
enum bl_contest_col {
	CT_LOAD,          /* load name as printed: "noload", "process_load", … */
	CT_TIME_S,        /* Time: wall-clock seconds of the kernel compile */
	CT_CPU_PCT,       /* CPU: % of one CPU the compile got (> 100 on SMP) */
	CT_LOAD_RUNS,     /* LoadRuns: times the load completed (Nov 2002 on) */
	CT_LOAD_CPU_PCT,  /* LoadCPU%: % of CPU the load got ("0" has no %) */
	CT_MAJOR_FAULTS,  /* Major Faults: of the compile */
	CT_MINOR_FAULTS,  /* Minor Faults: of the compile */
	CT_NOTE,          /* following note lines ("Was writing number 4 of a
			     112Mb sized io_load file after 90 seconds"),
			     joined with "; " */
	CT_NCOLS
};

/* One row per kernel row of a `contest -r` report block, both layouts
 * (2002 "2.4.18 [3]  150.8 49 2 8 2.06", 2003 "2.6.0-test4  1  80  93.8
 * 0.0  0.0  1.00"), the 2004 CPU+LCPU% column, and hand-made tables with a
 * "Kernel … Time … CPU" header. Columns are read by the header's text. */
extern const struct bl_table_def bl_table_contest_report;
enum bl_contest_report_col {
	CR_LOAD,          /* the block's "<load>:" title, as written; empty when none */
	CR_KERNEL,        /* Kernel column */
	CR_RUNS,          /* [runs]: "[3]" (2002) or a bare "3" (2003) */
	CR_TIME_S,        /* Time, s: mean of the runs */
	CR_CPU_PCT,       /* CPU% (or CPU in hand-made tables), % */
	CR_LOADS,         /* Loads: mean LoadRuns (integer 2002, decimal 2003) */
	CR_LOAD_CPU_PCT,  /* LCPU%, % */
	CR_RATIO,         /* Ratio: Time / the no-load Time; inf as printed */
	CR_CPU_PLUS_LCPU_PCT, /* CPU+LCPU% (2004 third-party reports), % */
	CR_NCOLS
};

/* Run family of the contest table (core/ctx.h bl_run_join): a run is one
 * pass through the loads; it ends when a load comes again in the group. */
#define BL_RUN_FAMILY_CONTEST "contest"

#endif

/* report.h — `benchlog report`: one pass over a pile of logs, written out
 * as data, a summary and charts in one folder.
 *
 * The folder (docs/report.md describes it for users):
 *   csv/<table>.csv   every table that got rows (core/record.h layout)
 *   skipped.csv       every input line not used, as ranges of lines: a
 *                     run of one reason in one message or file, or a run
 *                     of consecutive messages that gave no record (their
 *                     reasons with their lines); columns source,
 *                     first_line, last_line, lines, reason, message_id,
 *                     last_message_id, messages, text (docs/report.md).
 *                     The ranges and the used lines are every line once.
 *   plots/            each analysis's charts: <name>.png, <name>.svg, the
 *                     gnuplot script <name>.gp and its data <name>-N.dat
 *   findings.csv      every comparison of the Findings (report/findings.h)
 *   report.md         the written report: Findings, counts per input, one section per
 *                     analysis with data (registry order, analyze/registry.c)
 *                     showing its charts, the tables found
 *   report.html       report.md rendered (report/html.h), charts embedded
 *   .benchlog-report  marker: the folder may be replaced by the next run
 *
 * Everything in the folder depends only on the inputs and options, never
 * on -j (the number of charts drawn at a time), the time or the output
 * folder's name.
 *
 * Atomicity: the folder is built as "<dir>.tmp-XXXXXX" beside <dir> and
 * swapped in at the end (report/outdir.h); an error or an interruption
 * removes the temporary folder and leaves an earlier report untouched.
 */
#ifndef BL_REPORT_H
#define BL_REPORT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "core/ctx.h"
#include "core/pool.h"

struct bl_report_opts {
	const struct bl_opts *parse;       /* parse options (quiet unused here) */
	struct bl_analysis_opts an;        /* analysis options; .parse is
					      set here */
	const char *dir;                   /* output folder */
	struct bl_pool *pool;              /* -j's workers (core/pool.h): the
					      gnuplot runs; owned by the caller;
					      NULL: all on the calling thread */
	bool progress;                     /* progress line on stderr (parsers/pass.h) */
	volatile sig_atomic_t *stop;       /* set by a signal handler; may be NULL */
	FILE *diag;                        /* warnings and notes (stderr) */
	char *const *inputs;               /* as the user gave them: named in the report */
	size_t ninputs;
	bool compare_all;                  /* Findings (report/findings.h F1):
					      compare groups across sources too */
	const struct bl_band *bands;       /* --negligible (analyze/compare.h) */
	size_t nbands;
	unsigned gp_timeout_s;             /* a gnuplot run's (plot/plot.h
					      struct bl_gp_limits), 0: default */
	bool spreadsheet_safe;             /* csv/'s text cells (tables/table.h) */
};

struct bl_report_result {
	unsigned long inputs;              /* files read (after folder expansion) */
	unsigned long lines, used, skipped, records, warnings;
	unsigned long input_errors;        /* inputs missing, unreadable or corrupt */
	size_t sections;                   /* analyses that had something to say */
	size_t charts;                     /* charts listed in the report */
	bool gnuplot_missing;              /* charts left as scripts and data */
	bool chart_failed;                 /* some chart could not be drawn:
					      the report is not written */
};

/* Build the report. Returns 0 when the folder was written (inputs that
 * could not be read are counted in res->input_errors: the caller exits 1);
 * -BL_EINTR when *stop was set (nothing changed on disk);
 * -BL_EUSAGE for an unusable output folder or option (message on diag);
 * -BL_EFORMAT with --strict when an input was malformed or unreadable (the
 * report is not written); -BL_EIO when writing failed or a chart could not
 * be drawn (res->chart_failed; message on diag, the report not written). */
int bl_report_build(const struct bl_report_opts *o, struct bl_report_result *res);

#endif

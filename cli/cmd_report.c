/* cmd_report.c — `benchlog report [-o DIR] [-j N] [-q] [OPTIONS] INPUT…`:
 * every input parsed in one pass, and one folder written with the
 * tables, the skipped lines, a summary in Markdown and HTML, and the
 * charts, -j of them drawn at a time (report/report.h). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyze/analysis.h"
#include "cli/analysis_opts.h"
#include "cli/cli.h"
#include "core/pool.h"
#include "core/escape.h"
#include "core/util.h"
#include "report/report.h"
#include "tables/table.h"

enum { OPT_BASELINE = OPT_CLI_LAST + 1, OPT_RANGE, OPT_COMPARE_ALL, OPT_NEGLIGIBLE };

static const struct cli_opt opts[] = {
	{ 'o', "output", "DIR", "the report folder (default benchlog-report); built\n"
	  "beside DIR and swapped in when complete" },
	{ 'j', "jobs", "N", "draw N charts at a time, each gnuplot run a job on a worker\n"
	  "thread (like make -j; -j1 starts no thread; default: the number of\n"
	  "processors, at most 8); the report is the same for any N" },
	{ 'q', "quiet", NULL, "errors and warnings only: no progress line,\n"
	  "accounting summary, notes or \"wrote\" lines" },
	{ OPT_BASELINE, "baseline", "GROUP", "the group the others are compared with (in Findings:\n"
	  "across every source)" },
	{ OPT_COMPARE_ALL, "compare-all", NULL, "Findings compare groups of unrelated sources too (by\n"
	  "default only groups of one mail thread or one file; a\n"
	  "message with two groups or more: those with each other)" },
	{ OPT_NEGLIGIBLE, "negligible", "[COLUMN=]X%", "in Findings, changes within +-X% are negligible\n"
	  "(default 1%; repeat for several columns)" },
	{ OPT_RANGE, "range", NULL, "contest error bars show min-max, not sd" },
	{ OPT_QUOTED, "quoted", "include|exclude", "use records quoted in mail replies (default exclude)" },
	{ OPT_SPREADSHEET_SAFE, "spreadsheet-safe", NULL, "CSV text cells beginning with = + - @ TAB or CR get a '\n"
	  "in front (docs/csv.md)" },
	{ 0, NULL, NULL, NULL },
};
static const struct cli_opt *const parts[] = { opts, cli_analysis_opts, cli_common_opts, NULL };
static const char notes[] =
	"DIR gets report.html (self-contained: charts embedded) and report.md,\n"
	"findings.csv (every comparison of the Findings), csv/<table>.csv and the\n"
	"same tables in report.sqlite, skipped.csv (every line not used, with the\n"
	"reason), inputs.csv (with more than 25 inputs: each one's counts) and\n"
	"plots/ (PNG and SVG charts with their gnuplot scripts and data). The folder\n"
	"is replaced only if benchlog made it. Progress is shown on a terminal when\n"
	"the work takes more than a second. On SIGINT, SIGTERM, SIGHUP, SIGQUIT,\n"
	"SIGUSR1 or SIGALRM the run stops, an earlier report is left as it was,\n"
	"and the exit status is 128 + the signal (130 for SIGINT, 143 for SIGTERM).\n"
	"\nMemory stays bounded whatever the number of things in the input: the\n"
	"report holds at most 4096 latency series (1024 a group), 64 ConTest loads\n"
	"and groups and 25 vmstat series in full (more are counted; their rows are\n"
	"in csv/) and the first 100 comparisons of the Findings (every one waits\n"
	"in a temporary file, 48 bytes of it in memory, until its family is\n"
	"adjusted, and goes to findings.csv), and report.md lists at most 25\n"
	"groups, series, loads or threads a section and 50 events, stutter\n"
	"intervals and iterations a vmstat series, saying how many are not shown\n"
	"(docs/report.md, \"Bounded\").\n";


int cmd_report(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	struct bl_opts o;
	cli_opts_init(&o);
	struct bl_report_opts ro;
	memset(&ro, 0, sizeof ro);
	ro.dir = "benchlog-report";
	ro.an.confidence = 0.95;
	ro.an.target_s = NAN;
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = nproc < 1 ? 1 : nproc > 8 ? 8 : (unsigned)nproc;
	struct bl_band *bands = NULL;
	int status = 0;
	int c;
	optind = 1;
	while ((c = cli_getopt("report", argc, argv, gt.shortopts, gt.lo)) != -1) {
		int r = cli_common_opt("report", c, optarg, &o);
		if (r == 0)
			r = cli_analysis_opt(c, optarg, "report", &ro.an);
		if (r < 0)
			{ status = EXIT_USAGE; goto done; }
		if (r)
			continue;
		switch (c) {
		case 'o':
			ro.dir = optarg;
			break;
		case 'j': {
			long long n;
			if (bl_parse_ll(optarg, (size_t)-1, &n) || n < 1 || n > 256) {
				cli_usage_error("report", "-j takes a number of jobs from 1 to 256, not \"%s\"", optarg);
				{ status = EXIT_USAGE; goto done; }
			}
			jobs = (unsigned)n;
			break;
		}
		case 'q': o.quiet = true; break;
		case OPT_BASELINE: ro.an.baseline = optarg; break;
		case OPT_RANGE: ro.an.range_bars = true; break;
		case OPT_COMPARE_ALL: ro.compare_all = true; break;
		case OPT_NEGLIGIBLE:
			/* analyze/compare.h D13; optarg is argv's, ours to split */
			bands = bl_xrealloc(bands, (ro.nbands + 1) * sizeof *bands);
			if (bl_band_parse(optarg, &bands[ro.nbands])) {
				cli_usage_error("report", "--negligible takes COLUMN=PERCENT%% or PERCENT%%, not \"%s\"", optarg);
				status = EXIT_USAGE;
				goto done;
			}
			ro.bands = bands;
			ro.nbands++;
			break;
		case OPT_QUOTED:
			if (cli_quoted_opt("report", optarg, &ro.an.include_quoted))
				{ status = EXIT_USAGE; goto done; }
			break;
		case OPT_SPREADSHEET_SAFE: ro.spreadsheet_safe = true; break;
		case OPT_HELP: cli_opts_help("report", parts, notes); goto done;
		default: cli_option_error("report", gt.lo, argv); { status = EXIT_USAGE; goto done; }
		}
	}
	ro.parse = &o;
	ro.inputs = argv + optind;
	ro.ninputs = (size_t)(argc - optind);
	ro.progress = !o.quiet && isatty(STDERR_FILENO);
	ro.diag = stderr;
	ro.stop = cli_catch_stops();
	ro.gp_timeout_s = cli_gp_timeout();

	struct bl_report_result res;
	ro.pool = bl_pool_new(jobs, ro.stop);
	int rc = bl_report_build(&ro, &res);
	bl_pool_free(ro.pool);
	if (rc == -BL_EINTR) {
		cli_err("benchlog report: interrupted; %s left as it was\n", ro.dir);
		status = cli_stop_status();
	} else if (rc == -BL_EUSAGE) {
		status = EXIT_USAGE;
	} else if (rc) {
		status = EXIT_DATA;
	} else {
		size_t len = strlen(ro.dir);
		while (len > 1 && ro.dir[len - 1] == '/')
			len--;
		/* stdout is for data: the note goes to stderr, and -q silences it */
		if (!o.quiet)
			bl_term_printf(stderr, "report written to %.*s/report.html\n", (int)len, ro.dir);
		if (res.records == 0) {
			/* the same status as summary, stats and compare (docs/errors.md) */
			fprintf(stderr, "benchlog report: no records found in the input (the report says so)\n");
			status = EXIT_DATA;
		} else {
			status = res.input_errors ? EXIT_DATA : 0;
		}
	}
done:
	free(bands);
	return status;
}

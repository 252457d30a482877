/* cmd_plot.c — `benchlog plot KIND [-o DIR] [--term png|svg|dumb] INPUT…`:
 * parse the inputs and draw one analysis's charts (the .gp script and data
 * file are kept beside each image). KIND: swpd (vmstat), contest, latency,
 * runs. */
#include <unistd.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "analyze/analysis.h"
#include "cli/analysis_opts.h"
#include "cli/cli.h"
#include "core/strmap.h"
#include "core/util.h"
#include "plot/plot.h"

static const struct { const char *kind; const char *analysis; } kinds[] = {
	{ "swpd", "vmstat" },
	{ "vmstat", "vmstat" },
	{ "contest", "contest" },
	{ "latency", "latency" },
	{ "runs", "runs" },
};

enum { OPT_TERM = OPT_CLI_LAST + 1, OPT_BASELINE, OPT_RANGE };

static const struct cli_opt opts[] = {
	{ 'o', "output", "DIR", "where charts go (default: the current folder)" },
	{ OPT_TERM, "term", "png,svg,dumb", "one or more, comma-separated (default png,svg)" },
	{ OPT_BASELINE, "baseline", "GROUP", "the group the others are compared with" },
	{ OPT_RANGE, "range", NULL, "contest error bars show min-max, not sd" },
	{ OPT_QUOTED, "quoted", "include|exclude", "use records quoted in mail replies (default exclude)" },
	{ 'q', "quiet", NULL, "errors and warnings only: no progress line,\n"
	  "accounting summary, notes or \"wrote\" lines" },
	{ 0, NULL, NULL, NULL },
};
static const struct cli_opt *const parts[] = { opts, cli_analysis_opts, cli_common_opts, NULL };
static const char notes[] =
	"KIND is swpd (vmstat swap and stutter), contest, latency or runs.\n";


/* --term LIST: png, svg, dumb, comma-separated, into *terms; -1 with a
 * usage error said for anything else or an empty list. */
static int term_opt(const char *arg, unsigned *terms)
{
	*terms = 0;
	char *list = bl_xstrdup(arg), *save = NULL;
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (strcmp(t, "png") == 0) *terms |= BL_PLOT_PNG;
		else if (strcmp(t, "svg") == 0) *terms |= BL_PLOT_SVG;
		else if (strcmp(t, "dumb") == 0) *terms |= BL_PLOT_DUMB;
		else {
			/* t points into list: tell before freeing */
			cli_usage_error("plot", "--term takes png, svg, dumb, not \"%s\"", t);
			free(list);
			return -1;
		}
	}
	free(list);
	if (!*terms) {
		cli_usage_error("plot", "--term takes png, svg, dumb, not \"%s\"", arg);
		return -1;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cli_opts_help("plot", parts, notes);
		return 0;
	}
	if (argc < 2) {
		cli_usage_error("plot", "which chart? swpd, contest, latency or runs");
		return EXIT_USAGE;
	}
	const char *analysis = NULL;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(argv[1], kinds[i].kind) == 0)
			analysis = kinds[i].analysis;
	const struct bl_analysis *an = analysis ? bl_analysis_find(analysis) : NULL;
	if (!an) {
		cli_usage_error("plot", "unknown chart \"%s\" (swpd, contest, latency, runs)", argv[1]);
		return EXIT_USAGE;
	}
	/* The options follow the chart kind; getopt names argv[0] ("benchlog
	 * plot") in its messages, so it stays first. */
	const char *kind = argv[1];
	argv[1] = argv[0];
	argc--;
	argv++;
	struct bl_opts o;
	cli_opts_init(&o);
	struct bl_analysis_opts ao;
	memset(&ao, 0, sizeof ao);
	ao.target_s = NAN;
	ao.diag = stderr;
	struct bl_chart_opts co = { ".", BL_PLOT_PNG | BL_PLOT_SVG, false, { 0, NULL } };
	bool range = false;
	int c;
	optind = 1;
	while ((c = cli_getopt("plot", argc, argv, gt.shortopts, gt.lo)) != -1) {
		int r = cli_common_opt("plot", c, optarg, &o);
		if (r == 0)
			r = cli_analysis_opt(c, optarg, "plot", &ao);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (c) {
		case 'o': co.dir = optarg; break;
		case 'q': o.quiet = true; break;
		case OPT_BASELINE: ao.baseline = optarg; break;
		case OPT_RANGE: range = true; break;
		case OPT_QUOTED:
			if (cli_quoted_opt("plot", optarg, &ao.include_quoted))
				return EXIT_USAGE;
			break;
		case OPT_TERM:
			if (term_opt(optarg, &co.terms))
				return EXIT_USAGE;
			break;
		case OPT_HELP: cli_opts_help("plot", parts, notes); return 0;
		default: cli_option_error("plot", gt.lo, argv); return EXIT_USAGE;
		}
	}
	ao.parse = &o;
	ao.range_bars = range;
	if (bl_mkdir_p(co.dir) != 0) {
		cli_err("benchlog plot: cannot create %s: %s\n", co.dir, strerror(errno));
		return EXIT_DATA;
	}
	/* A stop signal ends gnuplot's process group too, and nothing is
	 * written after benchlog exits (plot.h, struct bl_gp_limits). */
	co.gp = (struct bl_gp_limits){ cli_gp_timeout(), cli_catch_stops() };
	o.progress = !o.quiet && isatty(STDERR_FILENO);
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &o);
	void *st = an->create(&ao);
	struct bl_sink s = { an->record, NULL, NULL, st, false };
	bl_ctx_add_sink(&ctx, &s);
	/* the analysis's -BL_EIO is a temporary file's (analysis.h): said
	 * below, not as "cannot write output" */
	ctx.sinks_tell_io = true;
	struct bl_groups groups = { .baseline = ao.baseline };   /* --baseline is a group of the input */
	struct bl_sink gs = bl_groups_sink(&groups);
	bl_ctx_add_sink(&ctx, &gs);
	int status = cli_run_pass(&ctx, argv + optind, argc - optind, true);
	int bad_baseline = cli_interrupted() ? 0 : bl_groups_check(stderr, "plot", &groups);
	bl_groups_release(&groups);
	if (cli_interrupted()) {
		/* nothing drawn from half the input */
	} else if (ctx.error == -BL_EIO) {
		/* the analysis's temporary file stopped the pass: the rest of
		 * the input was not read, so nothing is drawn */
		bl_tmp_say(stderr, "plot", ctx.error_errno);
		status = EXIT_DATA;
	} else if (bad_baseline) {
		status = EXIT_USAGE;
	} else if (!an->has_data(st)) {
		cli_err("benchlog plot: no %s data in the input\n", kind);
		if (!status)
			status = EXIT_DATA;
	} else if (an->charts) {
		struct bl_chart *ch = NULL;
		size_t nch = 0;
		int rc = bl_analysis_draw(an, st, &co, &ch, &nch, stderr, stdout);
		int e = errno;   /* why charts() failed (EFBIG, ENOSPC), or 0 */
		if (cli_interrupted()) {
			cli_err("benchlog: interrupted\n");
			status = cli_stop_status();
			nch = 0;
		} else if (rc == -BL_ENOTFOUND) {
			cli_err("benchlog plot: gnuplot not found: scripts and data written to %s; "
					"render with: cd %s && gnuplot <name>.gp\n", co.dir, co.dir);
		} else if (rc < 0) {
			cli_err("benchlog plot: the %s charts could not be drawn: %s\n", kind, bl_chart_why(rc, e));
			status = EXIT_DATA;
		} else if (nch == 0) {
			/* e.g. only chkmmt averages: means without the runs to chart */
			cli_err("benchlog plot: the input has %s data but nothing this chart can draw%s%s\n",
				kind, an->chart_needs ? ": it needs " : "",
				an->chart_needs ? an->chart_needs : "");
			if (!status)
				status = EXIT_DATA;
		}
		for (size_t i = 0; i < nch && !cli_interrupted() && !o.quiet; i++)
			cli_err("benchlog plot: wrote %s/%s%s%s (script %s.gp, data %s-N.dat): %s\n",
				co.dir, ch[i].name,
				co.terms & BL_PLOT_PNG ? ".png" : "",
				co.terms & BL_PLOT_SVG ? (co.terms & BL_PLOT_PNG ? " and .svg" : ".svg") : "",
				ch[i].name, ch[i].name, ch[i].title);
		bl_charts_free(ch, nch);
	}
	an->destroy(st);
	bl_ctx_release(&ctx);
	return status;
}

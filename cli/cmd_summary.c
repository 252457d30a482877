/* cmd_summary.c — `benchlog summary`: every analysis's section as text:
 * chkmmt-style averages of mtest01/time runs, and the sections of the other
 * formats found (see analyze/analysis.h). */
#include <unistd.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analysis.h"
#include "cli/analysis_opts.h"
#include "cli/cli.h"
#include "core/strmap.h"
#include "core/util.h"

enum { OPT_SUM_BASELINE = OPT_CLI_LAST + 1 };

static const struct cli_opt opts[] = {
	{ 'q', "quiet", NULL, "errors and warnings only: no progress line,\n"
	  "accounting summary, notes or \"wrote\" lines" },
	{ OPT_QUOTED, "quoted", "include|exclude", "use records quoted in mail replies (default exclude)" },
	{ OPT_SUM_BASELINE, "baseline", "GROUP", "the group the others are compared with (default: the first)" },
	{ 0, NULL, NULL, NULL },
};
static const struct cli_opt *const parts[] = { opts, cli_analysis_opts, cli_common_opts, NULL };
static const char notes[] =
	"For each group (kernel label, heading or file stem), prints what the\n"
	"chkmmt script prints for the mtest01 + time -v runs found, in its layout\n"
	"and precision, then n, mean, sample standard deviation, min and max;\n"
	"then a section for each other format found.\n"
	"\n"
	"Memory stays bounded whatever the number of groups, runs, captures or\n"
	"files: 256 groups are held in memory; the rest of the runs analysis's\n"
	"data (accumulators, group names, chart points, averages blocks), every\n"
	"group's run number and the inputs' paths stay in memory up to 256 KiB\n"
	"a kind, then go to temporary files in $TMPDIR (else /tmp), as each\n"
	"vmstat capture does once it is over; removed at once; when one cannot\n"
	"be written, exit 1 and nothing is printed.\n";


int cmd_summary(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	struct bl_opts o;
	cli_opts_init(&o);
	struct bl_analysis_opts ao;
	memset(&ao, 0, sizeof ao);
	ao.target_s = NAN;
	int c;
	optind = 1;
	while ((c = cli_getopt("summary", argc, argv, gt.shortopts, gt.lo)) != -1) {
		int r = cli_common_opt("summary", c, optarg, &o);
		if (r == 0)
			r = cli_analysis_opt(c, optarg, "summary", &ao);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (c) {
		case 'q': o.quiet = true; break;
		case OPT_QUOTED:
			if (cli_quoted_opt("summary", optarg, &ao.include_quoted))
				return EXIT_USAGE;
			break;
		case OPT_SUM_BASELINE: ao.baseline = optarg; break;
		case OPT_HELP: cli_opts_help("summary", parts, notes); return 0;
		default: cli_option_error("summary", gt.lo, argv); return EXIT_USAGE;
		}
	}
	ao.parse = &o;
	o.progress = !o.quiet && isatty(STDERR_FILENO);
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &o);
	size_t na = 0;
	while (bl_analyses[na])
		na++;
	void **st = bl_xcalloc(na + 1, sizeof *st);
	for (size_t i = 0; i < na; i++) {
		st[i] = bl_analyses[i]->create(&ao);
		struct bl_sink s = { bl_analyses[i]->record, NULL, NULL, st[i], false };
		bl_ctx_add_sink(&ctx, &s);
	}
	/* An analysis whose temporary file fails stops the pass with -BL_EIO;
	 * its finish() below says which file, so the pass does not call it
	 * "output". */
	ctx.sinks_tell_io = true;
	struct bl_groups groups = { .baseline = ao.baseline };   /* --baseline is a group of the input */
	struct bl_sink gs = bl_groups_sink(&groups);
	bl_ctx_add_sink(&ctx, &gs);
	int status = cli_run_pass(&ctx, argv + optind, argc - optind, true);
	if (status == 0 && bl_groups_check(stderr, "summary", &groups))
		status = EXIT_USAGE;
	bool bad_baseline = status == EXIT_USAGE;
	/* Temporary files are complete before anything is printed: one that
	 * could not be written (ENOSPC) gives no summary rather than a
	 * truncated one. */
	bool failed = bad_baseline;
	if (!failed && ctx.error == -BL_EIO && ctx.error_path) {   /* the run numbers' store (core/ctx.h) */
		cli_err("benchlog summary: cannot write %s: %s\n", ctx.error_path, strerror(ctx.error_errno));
		failed = true;
	}
	if (!failed && !cli_interrupted() && bl_analyses_finish(st, na) < 0) {
		bl_tmp_say(stderr, "summary", errno);
		failed = true;
	}
	bool any = false;
	for (size_t i = 0; i < na && !cli_interrupted() && !failed; i++) {
		if (!bl_analyses[i]->has_data(st[i]))
			continue;
		if (any)
			putchar('\n');
		printf("== %s ==\n\n", bl_analyses[i]->title);
		if (bl_analyses[i]->write(st[i], stdout, BL_DOC_TEXT, NULL, 0) < 0 && !ferror(stdout)) {
			/* a temporary file could not be read back; a failed
			 * stdout is cli_close_stdout's to report */
			cli_err("benchlog summary: cannot read back a temporary file: %s\n", strerror(errno));
			failed = true;
			break;
		}
		any = true;
	}
	if (bad_baseline) {
		/* nothing printed: the usage error above says why */
	} else if (failed) {
		status = EXIT_DATA;
	} else if (!any && status == 0) {
		/* as plot, stats and compare do: an empty result is not success */
		cli_err("benchlog summary: nothing to summarise in the input\n");
		status = EXIT_DATA;
	}
	for (size_t i = 0; i < na; i++)
		bl_analyses[i]->destroy(st[i]);
	free(st);
	bl_ctx_release(&ctx);
	bl_groups_release(&groups);
	return status;
}

/* analysis_opts.c — --target, --late and the --baseline check (cli/analysis_opts.h). */
#include <stdio.h>
#include <string.h>
#include "analyze/latency.h"
#include "cli/analysis_opts.h"
#include "cli/cli.h"
#include "core/escape.h"

const struct cli_opt cli_analysis_opts[] = {
	{ OPT_TARGET, "target", "DURATION", "latency target, e.g. 0.2s or 50us (default: the\n"
	  "stated period, 0 for cyclictest, else the median)" },
	{ OPT_LATE, "late", "LIST", "lateness thresholds, e.g. 10ms,50ms,100ms (default\n"
	  "10/50/100 ms, or 10/50/100 us for us/ns series)" },
	{ 0, NULL, NULL, NULL },
};

int cli_analysis_opt(int c, const char *arg, const char *cmd, struct bl_analysis_opts *ao)
{
	static double late[CLI_MAX_LATE];
	double d;
	size_t n;
	switch (c) {
	case OPT_TARGET:
		if (bl_parse_duration(arg, &d) != 0) {
			cli_usage_error(cmd, "--target takes a duration such as 0.2s, 200ms or 50us, not \"%s\"", arg);
			return -1;
		}
		ao->target_s = d;
		return 1;
	case OPT_LATE:
		if (bl_parse_duration_list(arg, late, CLI_MAX_LATE, &n) != 0) {
			cli_usage_error(cmd, "--late takes up to %d comma-separated durations such as "
					"10ms,50ms,100ms, not \"%s\"", CLI_MAX_LATE, arg);
			return -1;
		}
		ao->late_s = late;
		ao->nlate = n;
		return 1;
	}
	return 0;
}

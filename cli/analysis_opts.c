/* analysis_opts.c — --target, --late and the --baseline check (cli/analysis_opts.h). */
#include <stdio.h>
#include <string.h>
#include "analyze/latency.h"
#include "cli/analysis_opts.h"
#include "cli/cli.h"
#include "core/escape.h"
#include "core/strmap.h"

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

static int group_record(void *ud, const struct bl_record *r)
{
	struct cli_groups *g = ud;
	const char *name = r->group ? r->group : "";
	if (g->baseline && !g->found && strcmp(name, g->baseline) == 0)
		g->found = true;
	if (g->m.n < CLI_GROUPS_LISTED)
		bl_strmap_get(&g->m, name, NULL);
	else if (!g->more && bl_strmap_find(&g->m, name) < 0)
		g->more = true;
	return 0;
}

struct bl_sink cli_groups_sink(struct cli_groups *g)
{
	return (struct bl_sink){ group_record, NULL, NULL, g, false };
}

int cli_check_baseline(const char *cmd, const struct cli_groups *g)
{
	if (!g->baseline || g->m.n == 0 || g->found)
		return 0;
	bl_term_printf(stderr, "benchlog %s: --baseline: no group \"%s\"; there are:", cmd, g->baseline);
	for (size_t i = 0; i < g->m.n; i++)
		bl_term_printf(stderr, "%s \"%s\"", i ? "," : "", bl_strmap_key(&g->m, i));
	fputs(g->more ? ", and more\n" : "\n", stderr);
	return EXIT_USAGE;
}

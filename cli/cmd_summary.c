/* cmd_summary.c — `benchlog summary`: per group, the averages the seed's
 * chkmmt script prints (its layout and precision), then n, standard
 * deviation, min and max of each field.
 *
 * chkmmt's arithmetic, reproduced: each field's values are summed in input
 * order and divided by the number of runs ("allocated" lines; time blocks
 * when a group has no mtest01 lines). Perl prints the bytes, CPU and fault
 * averages with print (%.15g) and the three times with %.3f.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/stats.h"
#include "cli/cli.h"
#include "core/util.h"
#include "parsers/parser.h"
#include "parsers/tables.h"

enum { F_BYTES, F_USER, F_SYS, F_ELAPSED, F_CPU, F_MAJOR, F_MINOR, NF };

static const struct {
	const char *label;   /* chkmmt's label */
	const char *name;    /* column name */
	bool fixed3;         /* printf "%.3f" in chkmmt */
	const char *suffix;
} fields[NF] = {
	{ "bytes allocated", "bytes_allocated", false, "" },
	{ "User time (seconds)", "user_s", true, "" },
	{ "System time (seconds)", "sys_s", true, "" },
	{ "Elapsed (wall clock) time", "elapsed_s", true, "" },
	{ "Percent of CPU this job got", "cpu_pct", false, "%" },
	{ "Major (requiring I/O) page faults", "major_faults", false, "" },
	{ "Minor (reclaiming a frame) faults", "minor_faults", false, "" },
};

struct group_acc {
	char *name;
	unsigned long mtest_runs, time_runs;
	double sum[NF];
	struct bl_welford w[NF];
	unsigned long averages_blocks;
};

struct summary {
	struct group_acc *g;
	size_t n;
};

static struct group_acc *group(struct summary *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->g[i].name, name) == 0)
			return &s->g[i];
	s->g = bl_xrealloc(s->g, (s->n + 1) * sizeof *s->g);
	struct group_acc *g = &s->g[s->n++];
	memset(g, 0, sizeof *g);
	g->name = bl_xstrdup(name);
	for (int f = 0; f < NF; f++)
		bl_welford_init(&g->w[f]);
	return g;
}

static void add(struct group_acc *g, int f, const struct bl_val *v)
{
	double d;
	if (v->t == BL_NUM)
		d = v->u.d;
	else if (v->t == BL_INT)
		d = (double)v->u.i;
	else
		return;
	g->sum[f] += d;
	bl_welford_add(&g->w[f], d);
}

static int sum_record(void *ud, const struct bl_record *r)
{
	struct summary *s = ud;
	if (r->quoted)
		return 0;  /* quoted copies repeat numbers already counted */
	if (r->table == &bl_table_mtest01) {
		if (r->v[MT_BYTES_ALLOCATED].t == BL_NULL)
			return 0;
		struct group_acc *g = group(s, r->group);
		g->mtest_runs++;
		add(g, F_BYTES, &r->v[MT_BYTES_ALLOCATED]);
	} else if (r->table == &bl_table_time) {
		struct group_acc *g = group(s, r->group);
		g->time_runs++;
		add(g, F_USER, &r->v[TIME_USER_S]);
		add(g, F_SYS, &r->v[TIME_SYS_S]);
		add(g, F_ELAPSED, &r->v[TIME_ELAPSED_S]);
		add(g, F_CPU, &r->v[TIME_CPU_PCT]);
		add(g, F_MAJOR, &r->v[TIME_MAJOR_FAULTS]);
		add(g, F_MINOR, &r->v[TIME_MINOR_FAULTS]);
	}
	return 0;
}

static void print_num(double v)
{
	if (isnan(v))
		printf("%12s", "-");
	else
		printf("%12.6g", v);
}

static void print_group(const struct group_acc *g)
{
	unsigned long runs = g->mtest_runs ? g->mtest_runs : g->time_runs;
	if (runs == 0)
		return;
	printf("%s\n", g->name);
	printf("Averages for %lu mtest01 runs\n", runs);
	for (int f = 0; f < NF; f++) {
		if (g->w[f].n == 0)
			continue;
		double avg = g->sum[f] / (double)runs;
		if (fields[f].fixed3)
			printf("%s: %.3f%s\n", fields[f].label, avg, fields[f].suffix);
		else
			printf("%s: %.15g%s\n", fields[f].label, avg, fields[f].suffix);
	}
	if (g->mtest_runs && g->time_runs && g->mtest_runs != g->time_runs)
		printf("note: %lu mtest01 results but %lu time blocks; averages divide by %lu as chkmmt does\n",
		       g->mtest_runs, g->time_runs, runs);
	printf("%-18s %6s %12s %12s %12s %12s\n", "field", "n", "mean", "sd", "min", "max");
	for (int f = 0; f < NF; f++) {
		const struct bl_welford *w = &g->w[f];
		if (w->n == 0)
			continue;
		printf("%-18s %6llu ", fields[f].name, w->n);
		print_num(bl_welford_mean(w));
		putchar(' ');
		print_num(bl_welford_sd(w));
		putchar(' ');
		print_num(w->min);
		putchar(' ');
		print_num(w->max);
		putchar('\n');
	}
	putchar('\n');
}

static const char help[] =
	"  -q, --quiet           no line-accounting summary on stderr\n"
	CLI_COMMON_HELP
	"\nFor each group (kernel label, heading or file stem), prints what the\n"
	"chkmmt script prints for the mtest01 + time -v runs found, in its layout\n"
	"and precision, then n, mean, sample standard deviation, min and max.\n"
	"Quoted copies (mail replies) are left out.\n";

int cmd_summary(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "quiet", no_argument, NULL, 'q' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct bl_opts o;
	bl_opts_init(&o);
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		int r = cli_common_opt(c, optarg, &o);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (c) {
		case 'q': o.quiet = true; break;
		case OPT_HELP: cli_help("summary", help); return 0;
		default: cli_usage_error("summary", "unknown option"); return EXIT_USAGE;
		}
	}
	struct summary s = { NULL, 0 };
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &o);
	struct bl_sink sink = { sum_record, NULL, NULL, &s };
	bl_ctx_add_sink(&ctx, &sink);
	int st = cli_run_pass(&ctx, argv + optind, argc - optind, true);
	size_t printed = 0;
	for (size_t i = 0; i < s.n; i++) {
		print_group(&s.g[i]);
		printed++;
	}
	if (!printed && st == 0)
		fprintf(stderr, "benchlog summary: no mtest01 or time runs found\n");
	for (size_t i = 0; i < s.n; i++)
		free(s.g[i].name);
	free(s.g);
	bl_ctx_release(&ctx);
	return st;
}

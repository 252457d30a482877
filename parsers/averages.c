/* averages.c — the chkmmt Perl script's summary block (seed 000;
 * docs/formats.md, "chkmmt averages") into the `averages` table. The seven
 * lines after the heading belong to the block (this parser is active, so
 * it is asked before the time -v parser, whose labels two of them share):
 * they are averages, never runs. A block cut short is emitted with what it
 * has and a warning.
 */
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "parsers/parser.h"
#include "parsers/tables.h"

static const struct bl_col_def avg_cols[AVG_NCOLS] = {
	[AVG_RUNS] = { "runs", BL_INT, "N of `Averages for N mtest01 runs`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[AVG_BYTES_ALLOCATED] = { "bytes_allocated", BL_NUM, "`bytes allocated:` mean, bytes", "bytes", BL_ROLE_MEASURE, BL_BETTER_HIGHER },
	[AVG_USER_S] = { "user_s", BL_NUM, "`User time (seconds):` mean, s", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[AVG_SYS_S] = { "sys_s", BL_NUM, "`System time (seconds):` mean, s", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[AVG_ELAPSED_S] = { "elapsed_s", BL_NUM, "`Elapsed (wall clock) time:` mean, s", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[AVG_CPU_PCT] = { "cpu_pct", BL_NUM, "`Percent of CPU this job got:` mean, %", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[AVG_MAJOR_FAULTS] = { "major_faults", BL_NUM, "`Major (requiring I/O) page faults:` mean", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[AVG_MINOR_FAULTS] = { "minor_faults", BL_NUM, "`Minor (reclaiming a frame) faults:` mean", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
};

const struct bl_table_def bl_table_averages = {
	"averages", "chkmmt summary blocks (\"Averages for N mtest01 runs\"): means only, no per-run data",
	AVG_NCOLS, avg_cols,
	"Parser: parsers/averages.c; format: docs/formats.md, \"chkmmt averages\".\n\n"
	"- A summary, never runs: `run` is empty, and its `User time (seconds):` lines are not "
	"`time` rows. Averages alone allow no statistical test (`benchlog compare` says so).",
	.group_col = "group", .runs_col = "runs",
};

static const struct { const char *label; int col; } avg_labels[] = {
	{ "bytes allocated:", AVG_BYTES_ALLOCATED },
	{ "User time (seconds):", AVG_USER_S },
	{ "System time (seconds):", AVG_SYS_S },
	{ "Elapsed (wall clock) time:", AVG_ELAPSED_S },
	{ "Percent of CPU this job got:", AVG_CPU_PCT },
	{ "Major (requiring I/O) page faults:", AVG_MAJOR_FAULTS },
	{ "Minor (reclaiming a frame) faults:", AVG_MINOR_FAULTS },
};
#define NAVG (sizeof avg_labels / sizeof avg_labels[0])

struct averages {
	bool open;
	unsigned seen;
	struct bl_record rec;
	struct bl_held first;     /* the heading, for the warning */
};

static void avg_emit(struct averages *a, struct bl_ctx *ctx, bool cut)
{
	if (!a->open)
		return;
	if (cut && a->seen != (1u << NAVG) - 1)
		bl_warn(ctx, &a->first.ln, "incomplete averages block",
			"averages block has %d of its %zu lines", __builtin_popcount(a->seen), NAVG);
	bl_emit(ctx, &a->rec);
	bl_held_clear(&a->first);
	a->open = false;
}

static enum bl_verdict avg_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct averages *a = st;
	(void)flags;
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	static const char head[] = "Averages for ";
	if (bl_startswith(s, n, head)) {
		const char *tok[5];
		size_t tl[5];
		long long runs;
		if (bl_split_blanks(s, n, tok, tl, 5) == 5 && bl_parse_ll(tok[2], tl[2], &runs) == 0 &&
		    tl[4] == 4 && memcmp(tok[4], "runs", 4) == 0) {
			avg_emit(a, ctx, true);
			bl_record_init(&a->rec, &bl_table_averages, ln);
			bl_set_int(&a->rec, AVG_RUNS, runs);
			bl_held_set(&a->first, ln);
			a->open = true;
			a->seen = 0;
			return BL_USED;
		}
		return BL_NO;
	}
	if (!a->open)
		return BL_NO;
	for (size_t i = 0; i < NAVG; i++) {
		size_t ll = strlen(avg_labels[i].label);
		if (!bl_startswith(s, n, avg_labels[i].label) || (a->seen & (1u << i)))
			continue;
		const char *v = s + ll;
		size_t vl = n - ll;
		bl_trim(&v, &vl);
		if (vl && v[vl - 1] == '%')
			vl--;
		double d;
		if (bl_parse_double(v, vl, &d))
			return bl_reject(ctx, ln, "bad averages value", "averages: cannot read \"%.*s\"",
					 (int)(n > 60 ? 60 : n), s);
		bl_set_num(&a->rec, avg_labels[i].col, d);
		a->seen |= 1u << i;
		if (a->seen == (1u << NAVG) - 1)
			avg_emit(a, ctx, false);
		return BL_USED;
	}
	avg_emit(a, ctx, true);
	return BL_NO;
}

static void avg_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	(void)ln;
	avg_emit(st, ctx, true);
}

static void avg_release(void *st)
{
	struct averages *a = st;
	bl_held_clear(&a->first);
}

static const struct bl_table_def *const avg_tables[] = { &bl_table_averages, NULL };

const struct bl_parser bl_parser_averages = {
	.name = "averages",
	.summary = "chkmmt \"Averages for N mtest01 runs\" summary blocks",
	.tables = avg_tables,
	.state_size = sizeof(struct averages),
	.line = avg_line,
	.yield = avg_flush,
	.flush = avg_flush,
	.release = avg_release,
};

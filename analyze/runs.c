/* runs.c — mtest01 + time runs: per group, the averages the seed's chkmmt
 * script prints (its layout and precision), then n, mean, standard
 * deviation, min and max of each field; and the per-run chart.
 *
 * chkmmt's arithmetic, reproduced: each field's values are summed in input
 * order and divided by the number of runs ("allocated" lines). A group of
 * time blocks without mtest01 results ("timed runs") averages each field
 * over the blocks that have it. Perl prints the
 * bytes, CPU and fault averages with print (%.15g) and the three times with
 * printf "%.3f". Differences from chkmmt, on purpose: h:mm:ss elapsed
 * times are read correctly (chkmmt splits on ':' and takes hours for
 * minutes), "?%" CPU is unknown rather than 0, and kbytes allocations are
 * normalised to bytes.
 *
 * Memory (analysis.h), the same for every command, whatever the number of
 * groups, runs or averages blocks: at most RUNS_CACHE groups (accumulator
 * and name) in memory, direct-mapped by their index; every group's
 * accumulator, its name, the index from name hash to group, the chart's
 * points and the averages blocks' text are stores that stay in memory up
 * to a stated size (BL_STORE_MEM, core/store.h) and move to an unlinked temporary file
 * past it. About 1.5 MiB in all; a folder of small logs may
 * have a group per file, tens of thousands of them (issues 10, 34).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "analyze/analysis.h"
#include "analyze/outtab.h"
#include "core/store.h"
#include "analyze/stats.h"
#include "core/util.h"
#include "parsers/latency.h"
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

/* A group's accumulator: fixed size, stored as it is. */
struct group_acc {
	long long name_off;          /* its name in runs.index.keys */
	size_t name_len;
	long max_point_run;          /* the largest run with a chart point */
	unsigned long mtest_runs, time_runs;
	unsigned long failed_runs;   /* time blocks of a failed command, left out (D3c) */
	/* Time blocks whose command is unknown: from how many messages
	 * (counted as the message changes from one such block to the next),
	 * and a hash of the last one's Message-ID. */
	unsigned long unknown_cmd_msgs;
	uint64_t unknown_cmd_last;
	double sum[NF];
	struct bl_welford w[NF];
};

/* A chart point: group index, run, and its three values (NaN: none). */
struct rpoint {
	size_t gi;
	long run;
	double elapsed_s, cpu_pct, bytes_allocated;
};

#define RUNS_CACHE 256          /* groups in memory */
#define PT_WINDOW 1024          /* the last points, where a run's second record finds its point */
#define LAT_RING 16             /* the last latency series (group, run) */

struct slot {
	size_t gi;                   /* SIZE_MAX: empty */
	char *name;
	struct group_acc a;
};

struct runs {
	struct bl_analysis_opts o;
	int err;                     /* errno of the first temporary-file failure, 0 = none */
	struct slot slot[RUNS_CACHE];   /* group gi in slot gi % RUNS_CACHE */
	size_t n;                    /* groups */
	struct slot *last;           /* of the last record */
	struct bl_store accs;        /* group i's accumulator at i * sizeof (struct group_acc) */
	struct bl_index index;       /* name -> group index; the names, in index.keys */
	struct bl_store pts;         /* the chart's points, in order made */
	size_t npts;
	struct rpoint win[PT_WINDOW];   /* the last nwin points, npts - nwin .. npts - 1 */
	size_t nwin;
	size_t chart_groups_left_out;
	/* averages blocks (chkmmt output read back): shown as they were
	 * printed, they are means of runs the input does not hold; their text
	 * waits in a temporary file */
	struct bl_spool avg_spool;
	unsigned long navg;
	/* (group hash, run) of the last latency series: the shell time block
	 * after a timer histogram times that loop, it is not an mtest01 run */
	struct lat { uint64_t h; long run; } lat[LAT_RING];
	size_t nlat;
};

static void *runs_create(const struct bl_analysis_opts *o)
{
	struct runs *r = bl_xcalloc(1, sizeof *r);
	r->o = *o;
	for (size_t k = 0; k < RUNS_CACHE; k++)
		r->slot[k].gi = SIZE_MAX;
	return r;
}

/* -BL_EIO with errno of the first failure. */
static int failed(struct runs *s, int e)
{
	if (!s->err)
		s->err = e ? e : EIO;
	errno = s->err;
	return -BL_EIO;
}

/* n bytes of p into t at off. 0 or -BL_EIO. */
static int st_put(struct runs *s, struct bl_store *t, size_t off, const void *p, size_t n)
{
	if (s->err)
		return failed(s, s->err);
	return bl_store_put(t, off, p, n) < 0 ? failed(s, errno) : 0;
}

/* n bytes of t at off into p. 0 or -BL_EIO. */
static int st_get(struct runs *s, struct bl_store *t, size_t off, void *p, size_t n)
{
	if (s->err)
		return failed(s, s->err);
	return bl_store_get(t, off, p, n) < 0 ? failed(s, errno) : 0;
}

/* Group gi in its slot, read back when another group had it. NULL on a
 * temporary-file failure. */
static struct slot *group_at(struct runs *s, size_t gi)
{
	struct slot *k = &s->slot[gi % RUNS_CACHE];
	if (k->gi == gi)
		return k;
	if (k->gi != SIZE_MAX && st_put(s, &s->accs, k->gi * sizeof k->a, &k->a, sizeof k->a) < 0)
		return NULL;
	free(k->name);
	k->name = NULL;
	k->gi = SIZE_MAX;
	if (st_get(s, &s->accs, gi * sizeof k->a, &k->a, sizeof k->a) < 0)
		return NULL;
	k->name = bl_xmalloc(k->a.name_len + 1);
	if (st_get(s, &s->index.keys, (size_t)k->a.name_off, k->name, k->a.name_len) < 0)
		return NULL;
	k->name[k->a.name_len] = '\0';
	k->gi = gi;
	return k;
}

/* The group called name, made on first use. NULL on a temporary-file
 * failure. */
static struct slot *group(struct runs *s, const char *name)
{
	if (s->last && s->last->gi != SIZE_MAX && strcmp(s->last->name, name) == 0)
		return s->last;
	size_t len = strlen(name), gi, off;
	bool added;
	if (s->err || bl_index_find(&s->index, name, len, &gi, &off, &added) < 0) {
		failed(s, s->err ? s->err : errno);
		return NULL;
	}
	if (!added)
		return s->last = group_at(s, gi);
	struct slot *k = &s->slot[gi % RUNS_CACHE];
	if (k->gi != SIZE_MAX && st_put(s, &s->accs, k->gi * sizeof k->a, &k->a, sizeof k->a) < 0)
		return NULL;
	s->n++;
	free(k->name);
	k->name = bl_xstrdup(name);
	k->gi = gi;
	memset(&k->a, 0, sizeof k->a);
	k->a.name_off = (long long)off;
	k->a.name_len = len;
	for (int f = 0; f < NF; f++)
		bl_welford_init(&k->a.w[f]);
	return s->last = k;
}

/* chkmmt adds an Elapsed time to its total in two steps, minutes x 60
 * and then the seconds, each addition rounded. The time table keeps
 * e = fl(60 m + s); m = floor(e / 60) and s, the shortest decimal of at
 * most 9 places (time -v prints 2) with fl(60 m + s) = e, are what was
 * printed, so the total comes out bit for bit as the script's. */
static void add_elapsed(double *sum, double e)
{
	double m = floor(e / 60.0), rest = e - 60.0 * m, scale = 1.0;

	if (!(m >= 1.0 && m < 1e12)) {
		*sum += e;              /* m = 0: the script adds 0, then e */
		return;
	}
	for (int k = 0; k <= 9; k++, scale *= 10.0) {
		/* N / 10^k is correctly rounded: the double strtod gives */
		double sec = round(rest * scale) / scale;
		if (60.0 * m + sec == e) {
			rest = sec;
			break;
		}
	}
	*sum += 60.0 * m;
	*sum += rest;
}

static void add(struct group_acc *g, int f, const struct bl_val *v)
{
	double d;
	if (!bl_val_num(v, &d))
		return;
	if (f == F_ELAPSED)
		add_elapsed(&g->sum[f], d);
	else
		g->sum[f] += d;
	bl_welford_add(&g->w[f], d);
}

/* Set one value of the chart point of (group k, run), made on first use.
 * A run above the group's largest so far is new without a search; an
 * older one is looked for among the last PT_WINDOW / 2 points or more
 * (the records of one run come together: mtest01's result and its time
 * block). The older half of the window goes to the store when it is
 * full: one write for 512 points (a write a point made summary of 200 MB
 * of mtest01 logs 7 % slower). 0 or -BL_EIO. */
static int point(struct runs *s, struct slot *k, long run, int which, double d)
{
	struct rpoint *p = NULL;
	if (run <= k->a.max_point_run) {
		for (size_t j = s->nwin; j > 0 && !p; j--)
			if (s->win[j - 1].run == run && s->win[j - 1].gi == k->gi)
				p = &s->win[j - 1];
	} else {
		k->a.max_point_run = run;
	}
	if (!p) {
		if (s->nwin == PT_WINDOW) {
			size_t h = PT_WINDOW / 2;
			if (st_put(s, &s->pts, (s->npts - s->nwin) * sizeof *p, s->win, h * sizeof *p) < 0)
				return -BL_EIO;
			memmove(s->win, s->win + h, (PT_WINDOW - h) * sizeof *p);
			s->nwin -= h;
		}
		p = &s->win[s->nwin++];
		*p = (struct rpoint){ k->gi, run, NAN, NAN, NAN };
		s->npts++;
	}
	*(which == 0 ? &p->elapsed_s : which == 1 ? &p->cpu_pct : &p->bytes_allocated) = d;
	return 0;
}

/* A time block after a latency series of its group and run times that
 * loop. */
static bool after_latency(const struct runs *s, const struct bl_record *r)
{
	uint64_t h = bl_hash64(r->group, strlen(r->group));
	for (size_t i = 0; i < s->nlat && i < LAT_RING; i++)
		if (s->lat[i].run == r->run && s->lat[i].h == h)
			return true;
	return false;
}

/* One averages block, as chkmmt printed it. */
static void write_avg_block(FILE *f, const char *group, long long runs, const double v[NF])
{
	bl_fput_md_code(f, group);   /* a code block's line, or a terminal's */
	fprintf(f, "\nAverages for %lld mtest01 runs\n", runs);
	for (int k = 0; k < NF; k++) {
		if (isnan(v[k]))
			continue;
		if (fields[k].fixed3)
			fprintf(f, "%s: %.3f%s\n", fields[k].label, v[k], fields[k].suffix);
		else
			fprintf(f, "%s: %.15g%s\n", fields[k].label, v[k], fields[k].suffix);
	}
}

/* An averages block: its text to the temporary file at once. */
static int avg_record(struct runs *s, const struct bl_record *r)
{
	static const int col[NF] = { AVG_BYTES_ALLOCATED, AVG_USER_S, AVG_SYS_S, AVG_ELAPSED_S,
				     AVG_CPU_PCT, AVG_MAJOR_FAULTS, AVG_MINOR_FAULTS };
	double v[NF];
	for (int k = 0; k < NF; k++)
		v[k] = bl_val_nan(&r->v[col[k]]);
	s->navg++;
	if (s->err)
		return failed(s, s->err);
	FILE *f = bl_spool_append(&s->avg_spool, NULL);
	if (f)
		write_avg_block(f, r->group, r->v[AVG_RUNS].t == BL_INT ? r->v[AVG_RUNS].u.i : 0, v);
	return bl_spool_check(&s->avg_spool, f != NULL) < 0 ? failed(s, errno) : 0;
}

/* A time block: into its group ("group [command]" for a command other
 * than mtest01). */
static int time_record(struct runs *s, const struct bl_record *r)
{
	if (after_latency(s, r))
		return 0;
	/* Averages only over comparable runs: time blocks of different
	 * commands in one group are averaged apart ("group [command]"),
	 * but for mtest01's own, which pair with the group's results. */
	const char *cmd = r->v[TIME_COMMAND].t == BL_STR ? r->v[TIME_COMMAND].u.s : NULL;
	char *key = cmd && *cmd && !strstr(cmd, "mtest01") ? bl_xasprintf("%s [%s]", r->group, cmd) : NULL;
	struct slot *k = group(s, key ? key : r->group);
	free(key);
	if (!k)
		return failed(s, s->err);
	struct group_acc *g = &k->a;
	if (bl_record_failed(r)) {   /* D3c: not a measurement */
		g->failed_runs++;
		return 0;
	}
	if (!cmd || !*cmd) {
		const char *mid = r->msg && r->msg->message_id ? r->msg->message_id : "";
		uint64_t h = bl_hash64(mid, strlen(mid)) | 1;   /* 0: none yet */
		if (h != g->unknown_cmd_last)
			g->unknown_cmd_msgs++;
		g->unknown_cmd_last = h;
	}
	g->time_runs++;
	add(g, F_USER, &r->v[TIME_USER_S]);
	add(g, F_SYS, &r->v[TIME_SYS_S]);
	add(g, F_ELAPSED, &r->v[TIME_ELAPSED_S]);
	add(g, F_CPU, &r->v[TIME_CPU_PCT]);
	add(g, F_MAJOR, &r->v[TIME_MAJOR_FAULTS]);
	add(g, F_MINOR, &r->v[TIME_MINOR_FAULTS]);
	double e, c;
	bool he = bl_val_num(&r->v[TIME_ELAPSED_S], &e), hc = bl_val_num(&r->v[TIME_CPU_PCT], &c);
	if (!he && !hc)
		return point(s, k, r->run, 0, NAN);
	if (he && point(s, k, r->run, 0, e) < 0)
		return -BL_EIO;
	return hc ? point(s, k, r->run, 1, c) : 0;
}

static int runs_record(void *st, const struct bl_record *r)
{
	struct runs *s = st;
	if (r->quoted && !s->o.include_quoted)
		return 0;
	if (r->table == &bl_table_averages)
		return avg_record(s, r);
	if (r->table == &bl_table_latency_series) {
		s->lat[s->nlat++ % LAT_RING] = (struct lat){ bl_hash64(r->group, strlen(r->group)), r->run };
		return 0;
	}
	if (r->table == &bl_table_time)
		return time_record(s, r);
	if (r->table != &bl_table_mtest01 || r->v[MT_BYTES_ALLOCATED].t == BL_NULL)
		return 0;
	struct slot *k = group(s, r->group);
	if (!k)
		return failed(s, s->err);
	k->a.mtest_runs++;
	add(&k->a, F_BYTES, &r->v[MT_BYTES_ALLOCATED]);
	double d;
	return bl_val_num(&r->v[MT_BYTES_ALLOCATED], &d) ? point(s, k, r->run, 2, d) : 0;
}

static bool runs_has_data(void *st)
{
	struct runs *s = st;
	return s->n > 0 || s->navg > 0;
}

/* benchlog's own table after chkmmt's averages: numbers as every text
 * table shows them (bl_outtab_num: 29390380, not 2.93904e+07), "-" for
 * none */
static void num(FILE *f, double v, int width)
{
	char b[48];
	fprintf(f, "%*s", width, isnan(v) ? "-" : bl_outtab_num(b, sizeof b, v, BL_TAB_TEXT));
}

/* D3c: the failed runs a group left out, said under its averages. */
static void failed_note(FILE *f, const struct group_acc *g, enum bl_doc_format fmt)
{
	if (!g->failed_runs)
		return;
	fprintf(f, "note: %s left out, whose status or exit_status says the command failed: "
		"not a measurement (D3c; %s in the time table)\n%s", BL_COUNT(g->failed_runs, "failed run"),
		g->failed_runs == 1 ? "its row stays" : "their rows stay", fmt == BL_DOC_MD ? "\n" : "");
}

/* The count an mtest01 group's time sums are divided by: its mtest01
 * runs, as chkmmt divides, less the runs whose time block failed (D3c),
 * at least 1. */
static unsigned long time_divisor(const struct group_acc *g)
{
	return g->mtest_runs > g->failed_runs ? g->mtest_runs - g->failed_runs : 1;
}

static void write_group(FILE *f, const char *name, const struct group_acc *g, enum bl_doc_format fmt)
{
	unsigned long runs = g->mtest_runs ? g->mtest_runs : g->time_runs;
	if (fmt == BL_DOC_MD) {
		fputs("#### ", f);
		bl_fput_md_inline(f, name);
		fputs(runs ? "\n\n```\n" : "\n\n", f);
	}
	if (!runs) {   /* failed runs only */
		if (fmt != BL_DOC_MD) {
			bl_fput_md_code(f, name);
			fputc('\n', f);
		}
		failed_note(f, g, fmt);
		if (fmt != BL_DOC_MD)
			fputc('\n', f);
		return;
	}
	bl_fput_md_code(f, name);   /* a code block's line, or a terminal's */
	fputc('\n', f);
	/* chkmmt's heading; a group of time blocks without mtest01 results is
	 * not mtest01 runs and says so */
	fprintf(f, "Averages for %lu %sruns\n", runs, g->mtest_runs ? "mtest01 " : "timed ");
	for (int k = 0; k < NF; k++) {
		if (g->w[k].n == 0)
			continue;
		/* chkmmt divides every sum by the number of mtest01 runs; a
		 * group of time blocks alone has no such count, so each field
		 * is averaged over the blocks that have it. A failed run's time
		 * block is left out (D3c), and so is it from the time fields'
		 * count of runs. */
		double avg = g->sum[k] / (double)(!g->mtest_runs ? g->w[k].n : k == F_BYTES ? runs
						  : time_divisor(g));
		if (fields[k].fixed3)
			fprintf(f, "%s: %.3f%s\n", fields[k].label, avg, fields[k].suffix);
		else if (g->mtest_runs)   /* chkmmt's print: Perl's %.15g */
			fprintf(f, "%s: %.15g%s\n", fields[k].label, avg, fields[k].suffix);
		else
			fprintf(f, "%s: %.2f%s\n", fields[k].label, avg, fields[k].suffix);
	}
	if (fmt == BL_DOC_MD)
		fprintf(f, "```\n\n");
	if (g->unknown_cmd_msgs > 1)
		fprintf(f, "note: the timed command is not known and these runs come from %lu messages: "
			"they may not be runs of one experiment\n%s", g->unknown_cmd_msgs, fmt == BL_DOC_MD ? "\n" : "");
	failed_note(f, g, fmt);
	if (g->mtest_runs && g->time_runs && g->mtest_runs != g->time_runs + g->failed_runs)
		fprintf(f, "note: %lu mtest01 results but %lu time blocks; averages divide by %lu as chkmmt does\n%s",
			g->mtest_runs, g->time_runs + g->failed_runs, time_divisor(g), fmt == BL_DOC_MD ? "\n" : "");
	/* Timed runs: a field some blocks lack (bash's `time` and `time -p`
	 * print three times only) is averaged over fewer runs than the
	 * heading counts; say over how many. */
	bool fewer = false;
	for (int k = 0; k < NF && !g->mtest_runs; k++) {
		if (g->w[k].n == 0 || g->w[k].n >= runs)
			continue;
		fprintf(f, "%s %s %llu", fewer ? "," : "note: averaged over the runs that have it:",
			fields[k].name, g->w[k].n);
		fewer = true;
	}
	if (fewer)
		fprintf(f, " of %lu runs\n%s", runs, fmt == BL_DOC_MD ? "\n" : "");
	bool md = fmt == BL_DOC_MD;
	if (md)
		fprintf(f, "| field | n | mean | sd | min | max |\n|---|--:|--:|--:|--:|--:|\n");
	else
		fprintf(f, "%-18s %6s %12s %12s %12s %12s\n", "field", "n", "mean", "sd", "min", "max");
	for (int k = 0; k < NF; k++) {
		const struct bl_welford *w = &g->w[k];
		if (w->n == 0)
			continue;
		if (md)
			fprintf(f, "| %s | %llu |", fields[k].name, w->n);
		else
			fprintf(f, "%-18s %6llu", fields[k].name, w->n);
		const double v[4] = { bl_welford_mean(w), bl_welford_sd(w), w->min, w->max };
		for (int i = 0; i < 4; i++) {
			fputc(' ', f);
			num(f, v[i], md ? 0 : 12);   /* Markdown: cells as wide as they are */
			if (md)
				fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static int runs_finish(void *st)
{
	struct runs *s = st;
	errno = 0;
	if (!s->err && s->avg_spool.f && bl_spool_check(&s->avg_spool, fflush(s->avg_spool.f) == 0) < 0)
		return failed(s, errno);
	return s->err ? failed(s, s->err) : 0;
}

/* chkmmt's own output found in the input, in its layout. */
static int write_avg_blocks(struct runs *s, FILE *f, enum bl_doc_format fmt)
{
	if (fmt == BL_DOC_MD) {
		bl_md_details_open(f, "chkmmt averages blocks found in the input");
		fprintf(f, "Averages blocks found in the input (chkmmt output: means of runs the input "
			   "does not hold, so they allow no statistical test):\n\n```\n");
	}
	else
		fprintf(f, "averages blocks found in the input (chkmmt output; no per-run data, no test possible):\n\n");
	if (runs_finish(s) < 0 || bl_spool_copy(&s->avg_spool, f) < 0)
		return -BL_EIO;
	fprintf(f, fmt == BL_DOC_MD ? "```\n\n" : "\n");
	if (fmt == BL_DOC_MD)
		bl_md_details_close(f);
	return 0;
}

static int runs_write(void *st, FILE *f, enum bl_doc_format fmt, const struct bl_chart *charts, size_t nch)
{
	struct runs *s = st;
	if (fmt == BL_DOC_MD) {
		fprintf(f, "Averages computed from the per-run mtest01 and time records, laid out as the "
			   "chkmmt script prints them (sum / mtest01 runs; for time blocks without mtest01 "
			   "results, each field over the blocks that have it; times to 3 decimals), then "
			   "the sample standard deviation (n - 1) and range of each field.\n\n");
	}
	size_t shown = fmt == BL_DOC_MD && s->n > BL_MD_SHOWN ? BL_MD_SHOWN : s->n;
	for (size_t i = 0; i < shown; i++) {
		const struct slot *k = group_at(s, i);
		if (!k)
			return -BL_EIO;
		write_group(f, k->name, &k->a, fmt);
	}
	if (shown < s->n)
		fprintf(f, "The first %zu groups of %zu are shown; every run of all of them is in "
			   "[csv/mtest01.csv](csv/mtest01.csv) and [csv/time.csv](csv/time.csv), and "
			   "`benchlog summary` on the same inputs prints every group's averages.\n\n",
			shown, s->n);
	if (s->navg && write_avg_blocks(s, f, fmt) < 0)
		return -BL_EIO;
	if (s->chart_groups_left_out && fmt == BL_DOC_MD)
		fprintf(f, "The chart shows the %d groups with the most runs; %zu more are %s.\n\n",
			BL_RUNS_CHART_GROUPS, s->chart_groups_left_out,
			shown < s->n ? "not drawn" : "in the tables above");
	if (fmt == BL_DOC_MD)
		bl_charts_md(f, charts, nch);
	return ferror(f) ? -BL_EIO : 0;
}

/* Points [i, i + m) into p: the store's, then the window's. 0 or -BL_EIO. */
static int points_get(struct runs *s, size_t i, struct rpoint *p, size_t m)
{
	size_t old = s->npts - s->nwin, n = i >= old ? 0 : old - i < m ? old - i : m;
	if (n && st_get(s, &s->pts, i * sizeof *p, p, n * sizeof *p) < 0)
		return -BL_EIO;
	if (m > n)   /* then i + n >= old */
		memcpy(p + n, s->win + (i + n - old), (m - n) * sizeof *p);
	return 0;
}

#define PT_CHUNK 4096   /* points read back at a time */

/* The runs chart's groups: at most BL_RUNS_CHART_GROUPS, those with the
 * most runs that have a value (ties: the first met), kept in the order
 * they were met; the first BL_RUNS_PLOT_MAX of their points into *out
 * (*keep of them, heap; *all: how many they have), pointing to their
 * names, name[group index] (the caller frees them). The points are read
 * back PT_CHUNK at a time, twice: memory holds the points drawn and 24
 * bytes a group, not every point (issue 34). Returns the number of
 * groups with a value, or SIZE_MAX on a temporary-file failure; has[]
 * says which measures some drawn run has. */
static size_t chart_groups(struct runs *s, struct bl_run_point **out, size_t *keep, size_t *all, bool has[3],
			   char **name, size_t *cnt)
{
	size_t *first = bl_xmalloc((s->n + 1) * sizeof *first);
	struct rpoint *buf = bl_xmalloc(PT_CHUNK * sizeof *buf);
	size_t ng = 0;
	*out = NULL;
	*keep = *all = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i0 = 0; ng != SIZE_MAX && i0 < s->npts; i0 += PT_CHUNK) {
			size_t m = s->npts - i0 < PT_CHUNK ? s->npts - i0 : PT_CHUNK;
			if (points_get(s, i0, buf, m) < 0)
				ng = SIZE_MAX;
			/* A run whose values could not be read (a time block with
			 * a damaged value and nothing else) has nothing to draw and
			 * takes no group's place. */
			for (size_t j = 0; ng != SIZE_MAX && j < m; j++) {
				const struct rpoint *p = &buf[j];
				if ((isnan(p->elapsed_s) && isnan(p->cpu_pct) && isnan(p->bytes_allocated)) ||
				    (pass == 0 && cnt[p->gi]++) || (pass == 1 && !name[p->gi]) ||
				    (pass == 1 && *keep == BL_RUNS_PLOT_MAX))
					continue;
				if (pass == 0) {
					first[p->gi] = i0 + j;
					ng++;
					continue;
				}
				(*out)[(*keep)++] = (struct bl_run_point){ name[p->gi], p->run, p->elapsed_s,
									   p->cpu_pct, p->bytes_allocated };
				has[0] |= !isnan(p->elapsed_s);
				has[1] |= !isnan(p->cpu_pct);
				has[2] |= !isnan(p->bytes_allocated);
			}
		}
		/* the BL_RUNS_CHART_GROUPS largest counts, first met on ties */
		for (size_t k = 0; pass == 0 && ng != SIZE_MAX && k < BL_RUNS_CHART_GROUPS && k < ng; k++) {
			size_t best = SIZE_MAX;
			for (size_t g = 0; g < s->n; g++)
				if (cnt[g] && !name[g] && (best == SIZE_MAX || cnt[g] > cnt[best] ||
							   (cnt[g] == cnt[best] && first[g] < first[best])))
					best = g;
			const struct slot *sl = group_at(s, best);
			name[best] = bl_xstrdup(sl ? sl->name : "");
			*all += cnt[best];
		}
		if (pass == 0)
			*out = bl_xcalloc(*all < BL_RUNS_PLOT_MAX ? *all + 1 : BL_RUNS_PLOT_MAX, sizeof **out);
	}
	free(buf);
	free(first);
	return ng;
}

/* The drawn groups' runs and means (bl_runs_total), for a chart that
 * draws the first BL_RUNS_PLOT_MAX of their cnt[] runs: the numbers of
 * the section (bl_welford_mean). NULL on a temporary-file failure. */
static struct bl_runs_total *chart_totals(struct runs *s, char **name, const size_t *cnt, size_t *n)
{
	static const int f[3] = { F_ELAPSED, F_CPU, F_BYTES };
	struct bl_runs_total *t = bl_xcalloc(BL_RUNS_CHART_GROUPS, sizeof *t);
	*n = 0;
	for (size_t g = 0; g < s->n; g++) {
		const struct slot *sl = name[g] ? group_at(s, g) : NULL;
		if (name[g] && !sl) {
			free(t);
			return NULL;
		}
		if (!sl)
			continue;
		t[*n] = (struct bl_runs_total){ name[g], cnt[g], { NAN, NAN, NAN } };
		for (int m = 0; m < 3; m++)
			if (sl->a.w[f[m]].n)
				t[*n].mean[m] = bl_welford_mean(&sl->a.w[f[m]]);
		++*n;
	}
	return t;
}

static int runs_charts(void *st, struct bl_chart_spec **specs, size_t *nspecs)
{
	struct runs *s = st;
	if (s->npts == 0)
		return 0;
	struct bl_run_point *out;
	char **name = bl_xcalloc(s->n + 1, sizeof *name);
	size_t keep, all;
	bool has[3] = { false, false, false };
	size_t *cnt = bl_xcalloc(s->n + 1, sizeof *cnt), nt = 0;
	size_t ng = chart_groups(s, &out, &keep, &all, has, name, cnt);
	struct bl_runs_total *tot = ng != SIZE_MAX && keep < all ? chart_totals(s, name, cnt, &nt) : NULL;
	free(cnt);
	if (ng == SIZE_MAX || (keep < all && !tot)) {
		for (size_t g = 0; g < s->n; g++)
			free(name[g]);
		free(name);
		free(out);
		return -BL_EIO;
	}
	size_t drawn = ng < BL_RUNS_CHART_GROUPS ? ng : BL_RUNS_CHART_GROUPS;
	s->chart_groups_left_out = ng - drawn;
	/* No run with a value: no chart, which the caller reports as such,
	 * rather than the plot library's refusal. */
	if (keep == 0) {
		free(out);
		free(tot);
		free(name);
		return 0;
	}
	/* The title names what is drawn: the measures the runs have, and
	 * how many of the groups. */
	static const char *const what[3] = { "wall-clock time", "CPU", "allocation" };
	const char *w[3] = { "", "", "" };
	int nw = 0;
	for (int m = 0; m < 3; m++)
		if (has[m])
			w[nw++] = what[m];
	char *measures = nw == 1 ? bl_xasprintf("%s", w[0])
		       : nw == 2 ? bl_xasprintf("%s and %s", w[0], w[1])
		       : bl_xasprintf("%s, %s and %s", w[0], w[1], w[2]);
	char *groups = drawn < ng ? bl_xasprintf("the %zu groups with the most runs, of %zu", drawn, ng)
		     : bl_xasprintf("%zu group%s", ng, ng == 1 ? "" : "s");
	char more[96] = "";
	if (keep < all)
		snprintf(more, sizeof more, "; the first %d of their %zu runs, every run in the tables",
			 BL_RUNS_PLOT_MAX, all);
	char *title = *more ? bl_xasprintf("Runs: %s per run, %s, the first %d runs", measures, groups, BL_RUNS_PLOT_MAX)
			    : bl_xasprintf("Runs: %s per run, %s", measures, groups);
	char *caption = bl_xasprintf("%s per run, by group (%s%s%s)", measures, groups,
				     drawn < ng ? "; the others are in the tables" : "", more);
	struct bl_chart_spec *sp = bl_chart_spec_add(specs, nspecs, BL_CHART_RUNS, "runs", title, caption);
	free(measures);
	free(groups);
	free(title);
	free(caption);
	for (size_t g = 0; g < s->n; g++)
		if (name[g])
			bl_chart_spec_own(sp, name[g]);
	free(name);
	bl_chart_spec_own(sp, out);
	if (tot)
		bl_chart_spec_own(sp, tot);
	sp->in.runs = (struct bl_runs_plot){ out, keep, tot, nt };
	return 0;
}

static void runs_destroy(void *st)
{
	struct runs *s = st;
	for (size_t k = 0; k < RUNS_CACHE; k++)
		free(s->slot[k].name);
	bl_store_release(&s->accs);
	bl_index_release(&s->index);
	bl_store_release(&s->pts);
	bl_spool_release(&s->avg_spool);
	free(s);
}

const struct bl_analysis bl_analysis_runs = {
	.name = "runs",
	.title = "mtest01 and time runs",
	.create = runs_create,
	.record = runs_record,
	.has_data = runs_has_data,
	.finish = runs_finish,
	.write = runs_write,
	.charts = runs_charts,
	.chart_needs = "one point per run: bytes_allocated of an mtest01 result or elapsed_s, "
		       "cpu_pct of a time block (tables mtest01, time); chkmmt averages blocks are "
		       "means without their runs, a time block after a latency histogram times "
		       "that loop, and a failed command's time block is not a measurement (D3c)",
	.destroy = runs_destroy,
};

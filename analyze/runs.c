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
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/escape.h"
#include "analyze/analysis.h"
#include "analyze/spool.h"
#include "analyze/stats.h"
#include "core/strmap.h"
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

struct group_acc {
	const char *name;            /* owned by runs.names */
	long max_point_run;          /* the largest run with a chart point */
	unsigned long mtest_runs, time_runs;
	/* Time blocks whose command is unknown: from how many messages
	 * (counted as the message changes from one such block to the next),
	 * and a hash of the last one's Message-ID. */
	unsigned long unknown_cmd_msgs;
	uint64_t unknown_cmd_last;
	double sum[NF];
	struct bl_welford w[NF];
};

/* The groups' accumulators: the last GROUP_CACHE groups used are in
 * memory, the others in a temporary file, group i at i * sizeof (struct
 * group_acc). A folder of small logs may have tens of thousands of
 * groups, one a file (issue 10: summary under 16 MiB whatever the input
 * size); records of a group mostly come together, so the file is read
 * seldom. */
#define GROUP_CACHE 4096

struct runs {
	struct bl_analysis_opts o;
	struct group_acc *cache;     /* slots, at most GROUP_CACHE */
	size_t *slot_group;          /* the group in each slot */
	size_t ncache, capcache, hand;   /* slots used, allocated; next to reuse */
	int32_t *slot_of;            /* per group: its slot, -1 = in the file */
	size_t n, cap;               /* groups; room in slot_of */
	FILE *spill;                 /* groups out of the cache, or NULL */
	int spill_err;               /* errno of its first failure, 0 = none */
	struct bl_strmap names;      /* group names (a folder of small logs has thousands) */
	size_t last;                 /* index of the last group looked up */
	struct bl_run_point *pts;    /* keep_samples only */
	size_t npts, cappts;
	size_t chart_groups_left_out;
	/* averages blocks (chkmmt output read back): shown as they were
	 * printed, they are means of runs the input does not hold */
	struct avg_block {
		char *group;
		long long runs;
		double v[NF];
	} *avg;
	size_t navg, capavg;
	/* stream_text (summary): the blocks are printed as they come, into
	 * this temporary file, not kept (a log of averages blocks alone
	 * would otherwise grow memory with its size, issue 10) */
	FILE *avg_spool;
	int avg_err;             /* errno of its first failure, 0 = none */
	/* (group, run) of latency series: the shell time block after a timer
	 * histogram times that loop, it is not an mtest01 run */
	struct { char *group; long run; } *lat;
	size_t nlat, caplat;
};

static void *runs_create(const struct bl_analysis_opts *o)
{
	struct runs *r = bl_xcalloc(1, sizeof *r);
	r->o = *o;
	return r;
}

/* Write group i's accumulator *g to the spill file (out) or read it from
 * there, at i * sizeof *g. 0, or -1 with s->spill_err set (a short read:
 * EIO). */
static int spill_io(struct runs *s, size_t i, struct group_acc *g, bool out)
{
	char *p = (char *)g;
	size_t left = sizeof *g;
	off_t off = (off_t)(i * sizeof *g);
	while (left) {
		ssize_t r = out ? pwrite(fileno(s->spill), p, left, off) : pread(fileno(s->spill), p, left, off);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			s->spill_err = r < 0 && errno ? errno : EIO;
			return -1;
		}
		p += r;
		off += r;
		left -= (size_t)r;
	}
	return 0;
}

/* A slot for group i: a free one, else the next in turn, whose group
 * is written to the spill file first. NULL (and s->spill_err set) when
 * that write fails. */
static struct group_acc *take_slot(struct runs *s, size_t i)
{
	size_t k;
	if (s->ncache < GROUP_CACHE) {
		if (s->ncache == s->capcache) {
			s->capcache = s->capcache ? 2 * s->capcache : 16;
			s->cache = bl_xrealloc(s->cache, s->capcache * sizeof *s->cache);
			s->slot_group = bl_xrealloc(s->slot_group, s->capcache * sizeof *s->slot_group);
		}
		k = s->ncache++;
	} else {
		k = s->hand;
		s->hand = (s->hand + 1) % GROUP_CACHE;
		size_t old = s->slot_group[k];
		errno = 0;
		if (!s->spill_err && !s->spill && !(s->spill = bl_spool_open()))
			s->spill_err = errno ? errno : EIO;
		if (s->spill_err)
			return NULL;
		if (spill_io(s, old, &s->cache[k], true) < 0)
			return NULL;
		s->slot_of[old] = -1;
	}
	s->slot_group[k] = i;
	s->slot_of[i] = (int32_t)k;
	return &s->cache[k];
}

/* Group i (i < s->n), read back from the spill file when it is not in the
 * cache. NULL (and s->spill_err set) on a read or write failure. */
static struct group_acc *group_at(struct runs *s, size_t i)
{
	if (s->slot_of[i] >= 0)
		return &s->cache[s->slot_of[i]];
	struct group_acc *g = take_slot(s, i);
	if (!g)
		return NULL;
	if (spill_io(s, i, g, false) < 0) {
		s->slot_of[i] = -1;
		return NULL;
	}
	return g;
}

/* The accumulator of the group called name, made on first use. NULL (and
 * s->spill_err set) when the spill file fails. */
static struct group_acc *group(struct runs *s, const char *name)
{
	if (s->last < s->n && s->slot_of[s->last] >= 0 &&
	    strcmp(s->cache[s->slot_of[s->last]].name, name) == 0)
		return &s->cache[s->slot_of[s->last]];
	bool added;
	s->last = bl_strmap_get(&s->names, name, &added);
	if (!added)
		return group_at(s, s->last);
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->slot_of = bl_xrealloc(s->slot_of, s->cap * sizeof *s->slot_of);
	}
	s->n++;
	struct group_acc *g = take_slot(s, s->last);
	if (!g)
		return NULL;
	memset(g, 0, sizeof *g);
	g->name = bl_strmap_key(&s->names, s->last);
	for (int f = 0; f < NF; f++)
		bl_welford_init(&g->w[f]);
	return g;
}

static bool val(const struct bl_val *v, double *d)
{
	if (v->t == BL_NUM)
		*d = v->u.d;
	else if (v->t == BL_INT)
		*d = (double)v->u.i;
	else
		return false;
	return true;
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
	if (!val(v, &d))
		return;
	if (f == F_ELAPSED)
		add_elapsed(&g->sum[f], d);
	else
		g->sum[f] += d;
	bl_welford_add(&g->w[f], d);
}

/* The chart point of (group, run), created on first use. A run above the
 * group's largest so far is new without a search (runs count up: the
 * search over every point made a report of N runs take N^2 steps). */
static struct bl_run_point *point(struct runs *s, struct group_acc *g, long run)
{
	if (run <= g->max_point_run) {
		for (size_t i = s->npts; i > 0; i--) {
			struct bl_run_point *p = &s->pts[i - 1];
			if (p->run == run && strcmp(p->group, g->name) == 0)
				return p;
		}
	} else {
		g->max_point_run = run;
	}
	if (s->npts == s->cappts) {
		s->cappts = s->cappts ? 2 * s->cappts : 64;
		s->pts = bl_xrealloc(s->pts, s->cappts * sizeof *s->pts);
	}
	struct bl_run_point *p = &s->pts[s->npts++];
	p->group = g->name;
	p->run = run;
	p->elapsed_s = p->cpu_pct = p->bytes_allocated = NAN;
	return p;
}

static int spool_avg(struct runs *s, const struct avg_block *a);

/* -BL_EIO with errno as it was when the spill file failed. */
static int spill_failed(const struct runs *s)
{
	errno = s->spill_err ? s->spill_err : EIO;
	return -BL_EIO;
}

static int runs_record(void *st, const struct bl_record *r)
{
	struct runs *s = st;
	if (r->quoted && !s->o.include_quoted)
		return 0;
	if (r->table == &bl_table_averages) {
		static const int col[NF] = { AVG_BYTES_ALLOCATED, AVG_USER_S, AVG_SYS_S, AVG_ELAPSED_S,
					     AVG_CPU_PCT, AVG_MAJOR_FAULTS, AVG_MINOR_FAULTS };
		struct avg_block one, *a = &one;
		if (!s->o.stream_text) {
			s->avg = bl_xgrow(s->avg, &s->capavg, s->navg + 1, sizeof *s->avg);
			a = &s->avg[s->navg];
		}
		s->navg++;
		a->group = s->o.stream_text ? (char *)r->group : bl_xstrdup(r->group);
		a->runs = r->v[AVG_RUNS].t == BL_INT ? r->v[AVG_RUNS].u.i : 0;
		for (int k = 0; k < NF; k++)
			if (!val(&r->v[col[k]], &a->v[k]))
				a->v[k] = NAN;
		if (s->o.stream_text)
			return spool_avg(s, a);
		return 0;
	}
	if (r->table == &bl_table_latency_series) {
		s->lat = bl_xgrow(s->lat, &s->caplat, s->nlat + 1, sizeof *s->lat);
		s->lat[s->nlat].group = bl_xstrdup(r->group);
		s->lat[s->nlat].run = r->run;
		s->nlat++;
		return 0;
	}
	struct group_acc *g;
	double d;
	if (r->table == &bl_table_mtest01) {
		if (r->v[MT_BYTES_ALLOCATED].t == BL_NULL)
			return 0;
		if (!(g = group(s, r->group)))
			return spill_failed(s);
		g->mtest_runs++;
		add(g, F_BYTES, &r->v[MT_BYTES_ALLOCATED]);
		if (s->o.keep_samples && val(&r->v[MT_BYTES_ALLOCATED], &d))
			point(s, g, r->run)->bytes_allocated = d;
	} else if (r->table == &bl_table_time) {
		for (size_t i = s->nlat; i > 0; i--)
			if (s->lat[i - 1].run == r->run && strcmp(s->lat[i - 1].group, r->group) == 0)
				return 0;
		/* Averages only over comparable runs: time blocks of different
		 * commands in one group are averaged apart ("group [command]"),
		 * but for mtest01's own, which pair with the group's results. */
		const char *cmd = r->v[TIME_COMMAND].t == BL_STR ? r->v[TIME_COMMAND].u.s : NULL;
		char *key = cmd && *cmd && !strstr(cmd, "mtest01") ? bl_xasprintf("%s [%s]", r->group, cmd) : NULL;
		g = group(s, key ? key : r->group);
		free(key);
		if (!g)
			return spill_failed(s);
		if (!cmd || !*cmd) {
			const char *mid = r->msg && r->msg->message_id ? r->msg->message_id : "";
			uint64_t h = (uint64_t)bl_hash_str(BL_HASH_INIT, mid) | 1;   /* 0: none yet */
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
		if (s->o.keep_samples) {
			struct bl_run_point *p = point(s, g, r->run);
			if (val(&r->v[TIME_ELAPSED_S], &d))
				p->elapsed_s = d;
			if (val(&r->v[TIME_CPU_PCT], &d))
				p->cpu_pct = d;
		}
	}
	return 0;
}

static bool runs_has_data(void *st)
{
	struct runs *s = st;
	return s->n > 0 || s->navg > 0;
}

/* One averages block, as chkmmt printed it. */
static void write_avg_block(FILE *f, const struct avg_block *a)
{
	bl_fput_md_code(f, a->group);   /* a code block's line, or a terminal's */
	fprintf(f, "\nAverages for %lld mtest01 runs\n", a->runs);
	for (int k = 0; k < NF; k++) {
		if (isnan(a->v[k]))
			continue;
		if (fields[k].fixed3)
			fprintf(f, "%s: %.3f%s\n", fields[k].label, a->v[k], fields[k].suffix);
		else
			fprintf(f, "%s: %.15g%s\n", fields[k].label, a->v[k], fields[k].suffix);
	}
}

/* stream_text: the block goes to the temporary file at once. */
static int spool_avg(struct runs *s, const struct avg_block *a)
{
	if (!s->avg_err && !s->avg_spool && !(s->avg_spool = bl_spool_open()))
		s->avg_err = errno ? errno : EIO;
	if (!s->avg_err) {
		errno = 0;
		write_avg_block(s->avg_spool, a);
		if (ferror(s->avg_spool))
			s->avg_err = errno ? errno : EIO;
	}
	errno = s->avg_err;
	return s->avg_err ? -BL_EIO : 0;
}

/* chkmmt's own output found in the input, in its layout. */
static void write_avg_blocks(const struct runs *s, FILE *f, enum bl_doc_format fmt)
{
	if (fmt == BL_DOC_MD) {
		bl_md_details_open(f, "chkmmt averages blocks found in the input");
		fprintf(f, "Averages blocks found in the input (chkmmt output: means of runs the input "
			   "does not hold, so they allow no statistical test):\n\n```\n");
	}
	else
		fprintf(f, "averages blocks found in the input (chkmmt output; no per-run data, no test possible):\n\n");
	for (size_t i = 0; i < s->navg; i++)
		write_avg_block(f, &s->avg[i]);
	fprintf(f, fmt == BL_DOC_MD ? "```\n\n" : "\n");
	if (fmt == BL_DOC_MD)
		bl_md_details_close(f);
}

static void num(FILE *f, double v, int width)
{
	if (isnan(v))
		fprintf(f, "%*s", width, "-");
	else
		fprintf(f, "%*.6g", width, v);
}

static int runs_finish(void *st)
{
	struct runs *s = st;
	if (s->spill_err)
		return spill_failed(s);
	errno = s->avg_err;
	if (!s->avg_err && s->avg_spool && fflush(s->avg_spool) != 0)
		s->avg_err = errno ? errno : EIO;
	return s->avg_err ? -BL_EIO : 0;
}

static void write_group(FILE *f, const struct group_acc *g, enum bl_doc_format fmt)
{
	unsigned long runs = g->mtest_runs ? g->mtest_runs : g->time_runs;
	if (fmt == BL_DOC_MD) {
		fputs("#### ", f);
		bl_fput_md_inline(f, g->name);
		fputs("\n\n```\n", f);
	}
	bl_fput_md_code(f, g->name);   /* a code block's line, or a terminal's */
	fputc('\n', f);
	/* chkmmt's heading; a group of time blocks without mtest01 results is
	 * not mtest01 runs and says so */
	fprintf(f, "Averages for %lu %sruns\n", runs, g->mtest_runs ? "mtest01 " : "timed ");
	for (int k = 0; k < NF; k++) {
		if (g->w[k].n == 0)
			continue;
		/* chkmmt divides every sum by the number of mtest01 runs; a
		 * group of time blocks alone has no such count, so each field
		 * is averaged over the blocks that have it */
		double avg = g->sum[k] / (double)(g->mtest_runs ? runs : g->w[k].n);
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
	if (g->mtest_runs && g->time_runs && g->mtest_runs != g->time_runs)
		fprintf(f, "note: %lu mtest01 results but %lu time blocks; averages divide by %lu as chkmmt does\n%s",
			g->mtest_runs, g->time_runs, runs, fmt == BL_DOC_MD ? "\n" : "");
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
	if (fmt == BL_DOC_MD) {
		fprintf(f, "| field | n | mean | sd | min | max |\n|---|--:|--:|--:|--:|--:|\n");
		for (int k = 0; k < NF; k++) {
			const struct bl_welford *w = &g->w[k];
			if (w->n == 0)
				continue;
			fprintf(f, "| %s | %llu | %.6g | ", fields[k].name, w->n, bl_welford_mean(w));
			if (w->n < 2)
				fprintf(f, "- |");
			else
				fprintf(f, "%.6g |", bl_welford_sd(w));
			fprintf(f, " %.6g | %.6g |\n", w->min, w->max);
		}
		fputc('\n', f);
		return;
	}
	fprintf(f, "%-18s %6s %12s %12s %12s %12s\n", "field", "n", "mean", "sd", "min", "max");
	for (int k = 0; k < NF; k++) {
		const struct bl_welford *w = &g->w[k];
		if (w->n == 0)
			continue;
		fprintf(f, "%-18s %6llu ", fields[k].name, w->n);
		num(f, bl_welford_mean(w), 12);
		fputc(' ', f);
		num(f, bl_welford_sd(w), 12);
		fputc(' ', f);
		num(f, w->min, 12);
		fputc(' ', f);
		num(f, w->max, 12);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static int runs_write(void *st, FILE *f, enum bl_doc_format fmt, const struct bl_chart *charts, size_t nch)
{
	struct runs *s = st;
	if (s->o.stream_text && fmt != BL_DOC_TEXT)
		return -BL_EUSAGE;
	if (fmt == BL_DOC_MD) {
		fprintf(f, "Averages computed from the per-run mtest01 and time records, laid out as the "
			   "chkmmt script prints them (sum / mtest01 runs; for time blocks without mtest01 "
			   "results, each field over the blocks that have it; times to 3 decimals), then "
			   "the sample standard deviation (n - 1) and range of each field.\n\n");
	}
	size_t shown = fmt == BL_DOC_MD && s->n > BL_MD_SHOWN ? BL_MD_SHOWN : s->n;
	for (size_t i = 0; i < shown; i++) {
		const struct group_acc *g = group_at(s, i);
		if (!g)
			return spill_failed(s);
		write_group(f, g, fmt);
	}
	if (shown < s->n)
		fprintf(f, "The first %zu groups of %zu are shown; every run of all of them is in "
			   "[csv/mtest01.csv](csv/mtest01.csv) and [csv/time.csv](csv/time.csv), and "
			   "`benchlog summary` on the same inputs prints every group's averages.\n\n",
			shown, s->n);
	if (s->avg_spool) {
		if (runs_finish(s) < 0)
			return -BL_EIO;
		fprintf(f, "averages blocks found in the input (chkmmt output; no per-run data, no test possible):\n\n");
		if (bl_spool_copy(s->avg_spool, f) < 0)
			return -BL_EIO;
		fputc('\n', f);
	} else if (s->navg) {
		write_avg_blocks(s, f, fmt);
	}
	if (s->chart_groups_left_out && fmt == BL_DOC_MD)
		fprintf(f, "The chart shows the %d groups with the most runs; %zu more are %s.\n\n",
			BL_RUNS_CHART_GROUPS, s->chart_groups_left_out,
			shown < s->n ? "not drawn" : "in the tables above");
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	for (size_t i = 0; i < nch && fmt == BL_DOC_MD; i++)
		fprintf(f, "Chart: %s (`%s`)\n\n![%s](plots/%s.png)\n\n", bl_esc_doc(&er, charts[i].title, true),
			charts[i].name, bl_esc_doc(&er, charts[i].title, true), charts[i].name);
	bl_esc_ring_release(&er);
	return ferror(f) ? -BL_EIO : 0;
}

/* The runs chart's groups: at most BL_RUNS_CHART_GROUPS, those with the
 * most runs that have a value (ties: the first met), kept in the order
 * they were met; their points appended to pts (*keep of them). Returns
 * the number of groups with a value; has[] says which measures some
 * drawn run has. */
static size_t chart_groups(const struct runs *s, struct bl_run_point *pts, size_t *keep, bool has[3])
{
	struct bl_strmap idx = BL_STRMAP_INIT;      /* group -> its index, in order met */
	size_t *cnt = bl_xcalloc(s->npts + 1, sizeof *cnt);
	size_t *slot = bl_xcalloc(s->npts + 1, sizeof *slot);
	for (size_t i = 0; i < s->npts; i++) {
		const struct bl_run_point *p = &s->pts[i];
		slot[i] = SIZE_MAX;
		/* A run whose values could not be read (a time block with a
		 * damaged value and nothing else) has nothing to draw and
		 * takes no group's place. */
		if (isnan(p->elapsed_s) && isnan(p->cpu_pct) && isnan(p->bytes_allocated))
			continue;
		slot[i] = bl_strmap_get(&idx, p->group, NULL);
		cnt[slot[i]]++;
	}
	size_t ng = idx.n;
	/* the BL_RUNS_CHART_GROUPS largest counts, first met on ties */
	bool *drawn = bl_xcalloc(ng + 1, sizeof *drawn);
	for (size_t k = 0; k < BL_RUNS_CHART_GROUPS && k < ng; k++) {
		size_t best = SIZE_MAX;
		for (size_t g = 0; g < ng; g++)
			if (!drawn[g] && (best == SIZE_MAX || cnt[g] > cnt[best]))
				best = g;
		drawn[best] = true;
	}
	*keep = 0;
	for (size_t i = 0; i < s->npts; i++)
		if (slot[i] != SIZE_MAX && drawn[slot[i]]) {
			pts[(*keep)++] = s->pts[i];
			has[0] |= !isnan(s->pts[i].elapsed_s);
			has[1] |= !isnan(s->pts[i].cpu_pct);
			has[2] |= !isnan(s->pts[i].bytes_allocated);
		}
	free(drawn);
	free(slot);
	free(cnt);
	bl_strmap_release(&idx);
	return ng;
}

static int runs_charts(void *st, struct bl_chart_spec **specs, size_t *nspecs)
{
	struct runs *s = st;
	if (s->npts == 0)
		return 0;
	struct bl_run_point *pts = bl_xcalloc(s->npts, sizeof *pts);
	size_t keep;
	bool has[3] = { false, false, false };
	size_t ng = chart_groups(s, pts, &keep, has);
	size_t drawn = ng < BL_RUNS_CHART_GROUPS ? ng : BL_RUNS_CHART_GROUPS;
	s->chart_groups_left_out = ng - drawn;
	/* No run with a value: no chart, which the caller reports as such,
	 * rather than the plot library's refusal. */
	if (keep == 0) {
		free(pts);
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
	char *title = bl_xasprintf("Runs: %s per run, %s", measures, groups);
	char *caption = bl_xasprintf("%s per run, by group (%s%s)", measures, groups,
				     drawn < ng ? "; the others are in the tables" : "");
	struct bl_chart_spec *sp = bl_chart_spec_add(specs, nspecs, BL_CHART_RUNS, "runs", title, caption);
	free(measures);
	free(groups);
	free(title);
	free(caption);
	sp->in.runs = (struct bl_runs_plot){ bl_chart_spec_own(sp, pts), keep };
	return 0;
}

static void runs_destroy(void *st)
{
	struct runs *s = st;
	free(s->cache);
	free(s->slot_group);
	free(s->slot_of);
	if (s->spill)
		fclose(s->spill);
	bl_strmap_release(&s->names);
	free(s->pts);
	for (size_t i = 0; i < s->nlat; i++)
		free(s->lat[i].group);
	free(s->lat);
	for (size_t i = 0; s->avg && i < s->navg; i++)   /* none kept with stream_text */
		free(s->avg[i].group);
	free(s->avg);
	if (s->avg_spool)
		fclose(s->avg_spool);
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
		       "means without their runs, and a time block after a latency histogram times "
		       "that loop",
	.destroy = runs_destroy,
};

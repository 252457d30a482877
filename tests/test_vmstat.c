/* test_vmstat.c — parsers/vmstat.c (V1-V12 of its header) and the "vmstat"
 * analysis (analyze/vmstat.h S1-S5, charts).
 *
 * Where expected values come from:
 *   - small inputs: typed by hand next to the input lines they come from;
 *   - seed 000: the rows are lines 35-99 of the seed (59 lines of 16
 *     numbers, counted with awk '$1 ~ /^[0-9]+$/ && NF == 16'); the column
 *     statistics are GNU datamash's (count, mean, sstdev, median, perc:95,
 *     min, max) over those lines, e.g. for swpd
 *     `datamash -W count 4 mean 4 sstdev 4 median 4 perc:95 4 min 4 max 4`
 *     (datamash's perc is type 7, like analyze/stats.h D3); events,
 *     intervals and iterations read off the text by hand (issue 3's
 *     "Must show");
 *   - realworld files: shared/realworld/LOG.md's hand-computed values;
 *   - golden CSVs of every layout: fixtures/vmstat/expect.pl (README there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/vmstat.h"
#include "analyze/vmstat_int.h"
#include "core/ctx.h"
#include "parsers/dispatch.h"
#include "tests/dispatch_text.h"
#include "core/util.h"
#include "parsers/vmstat.h"
#include "plot/plot.h"

extern const struct bl_analysis bl_analysis_vmstat;

/* ---- collecting sinks --------------------------------------------------- */

struct rec {
	const struct bl_table_def *t;
	unsigned long line;
	int quoted;
	char *group;
	struct bl_val v[VM_NCOLS];
};

struct recs {
	struct rec *r;
	size_t n;
};

static int rec_record(void *ud, const struct bl_record *r)
{
	struct recs *c = ud;
	c->r = bl_xrealloc(c->r, (c->n + 1) * sizeof *c->r);
	struct rec *x = &c->r[c->n++];
	memset(x, 0, sizeof *x);
	x->t = r->table;
	x->line = r->line;
	x->quoted = r->quoted;
	x->group = bl_xstrdup(r->group ? r->group : "");
	for (size_t i = 0; i < r->table->ncols && i < VM_NCOLS; i++) {
		x->v[i] = r->v[i];
		if (r->v[i].t == BL_STR)
			x->v[i].u.s = bl_xstrdup(r->v[i].u.s);
	}
	return 0;
}

static void recs_free(struct recs *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->r[i].group);
		for (size_t k = 0; k < VM_NCOLS; k++)
			if (c->r[i].v[k].t == BL_STR)
				free((char *)c->r[i].v[k].u.s);
	}
	free(c->r);
	memset(c, 0, sizeof *c);
}

static size_t only(const struct recs *c, const struct bl_table_def *t, const struct rec **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->r[i].t == t && n < max)
			out[n++] = &c->r[i];
	return n;
}

/* Skipped lines and their reasons. */
struct skips {
	unsigned long line[256];
	const char *reason[256];
	size_t n;
};

static void skip_cb(void *ud, const struct bl_line *ln, const char *reason, const char *note)
{
	(void)note;
	struct skips *s = ud;
	if (s->n < 256) {
		s->line[s->n] = ln->lineno;
		s->reason[s->n++] = reason;
	}
}

static bool skipped_as(const struct skips *s, unsigned long line, const char *reason)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->line[i] == line && strcmp(s->reason[i], reason) == 0)
			return true;
	return false;
}

struct run {
	struct recs recs;
	struct skips skips;
	struct bl_ctx ctx;
	void *an;
	char *diag;
	size_t diaglen;
	FILE *diagf;
};

static struct bl_analysis_opts aopts(const struct bl_opts *po)
{
	struct bl_analysis_opts o;
	memset(&o, 0, sizeof o);
	o.parse = po;
	o.confidence = 0.95;
	o.target_s = NAN;
	return o;
}

/* Parse text as the unit `source`. opt may be NULL (defaults). With ao,
 * the vmstat analysis gets the records too. */
static void parse_with(struct run *run, const char *source, const char *text, const struct bl_opts *opt,
		       const struct bl_analysis_opts *ao)
{
	memset(run, 0, sizeof *run);
	bl_ctx_init(&run->ctx, opt);
	run->diagf = open_memstream(&run->diag, &run->diaglen);
	run->ctx.diag = run->diagf;
	run->ctx.skip = (struct bl_skip_sink){ skip_cb, &run->skips };
	struct bl_sink s = { rec_record, NULL, NULL, &run->recs, true };
	bl_ctx_add_sink(&run->ctx, &s);
	if (ao) {
		run->an = bl_analysis_vmstat.create(ao);
		struct bl_sink a = { bl_analysis_vmstat.record, NULL, NULL, run->an, false };
		bl_ctx_add_sink(&run->ctx, &a);
	}
	assert_int_equal(bl_dispatch_open(&run->ctx), 0);
	bl_dispatch_begin_unit(&run->ctx, source, NULL);
	assert_int_equal(dispatch_text(&run->ctx, text, strlen(text), 1), 0);
	assert_int_equal(bl_dispatch_end_unit(&run->ctx), 0);
	bl_dispatch_close(&run->ctx);
	fflush(run->diagf);
	/* nothing lost: every line used or skipped */
	assert_int_equal(run->ctx.lines_used + run->ctx.lines_skipped, run->ctx.lines_total);
}

static void parse(struct run *run, const char *text)
{
	parse_with(run, "t.txt", text, NULL, NULL);
}

static void run_free(struct run *run)
{
	if (run->an)
		bl_analysis_vmstat.destroy(run->an);
	recs_free(&run->recs);
	bl_ctx_release(&run->ctx);
	fclose(run->diagf);
	free(run->diag);
}

static char *slurp(const char *rel)
{
	const char *top = getenv("BENCHLOG_TOP");
	char *path = bl_xasprintf("%s/%s", top && *top ? top : ".", rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (run from the top of the tree or set BENCHLOG_TOP)", path);
	struct bl_buf b = BL_BUF_INIT(0);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		bl_buf_add(&b, buf, n);
	fclose(f);
	free(path);
	if (!b.data)
		bl_buf_add(&b, "", 0);
	return b.data;
}

/* The memory columns and si/so are numbers in KiB (V6), the other
 * counters integers; for both, the value as an integer (a memory value
 * must then be a whole number of KiB). */
static long long iv(const struct rec *r, int c)
{
	if (c == VM_SWPD || c == VM_FREE || c == VM_BUFF || c == VM_CACHE || c == VM_INACT ||
	    c == VM_ACTIVE || c == VM_SI || c == VM_SO) {
		assert_int_equal(r->v[c].t, BL_NUM);
		assert_true(r->v[c].u.d == (double)(long long)r->v[c].u.d);
		return (long long)r->v[c].u.d;
	}
	assert_int_equal(r->v[c].t, BL_INT);
	return r->v[c].u.i;
}

static double nv(const struct rec *r, int c)
{
	assert_int_equal(r->v[c].t, BL_NUM);
	return r->v[c].u.d;
}

static const char *sv(const struct rec *r, int c)
{
	if (r->v[c].t != BL_STR)
		return NULL;
	return r->v[c].u.s;
}

#define SEED "fixtures/seeds/000_a7bf8587c1dba76c.txt"

/* ---- seed 000 (issue 3, "Must show") ------------------------------------ */

static void test_vmstat__seed000_series(void **state)
{
	(void)state;
	char *text = slurp(SEED);
	struct run run;
	parse_with(&run, "000.txt", text, NULL, NULL);
	const struct rec *r[128];
	size_t n = only(&run.recs, &bl_table_vmstat, r, 128);
	assert_int_equal(n, 59);                  /* lines 35-99 less 4 header lines, 2 prose */
	unsigned cols = 0;
	for (int c = 0; c < VM_NCOLS; c++)
		if (bl_vmstat_is_value_col(c) && r[0]->v[c].t != BL_NULL)
			cols++;
	assert_int_equal(cols, 16);               /* r b w swpd free buff cache si so bi bo in cs us sy id */
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(r[i]->group, "2.4.13-pre2aa1");
		assert_int_equal(iv(r[i], VM_SERIES), 1);
		assert_int_equal(iv(r[i], VM_SAMPLE), (long long)i);
		assert_int_equal(iv(r[i], VM_SINCE_BOOT), 0);  /* V4: the label line alone */
		assert_string_equal(sv(r[i], VM_LAYOUT), "2.x-w");
		assert_string_equal(sv(r[i], VM_MEM_UNIT), "KiB");
		assert_true(nv(r[i], VM_T_S) == (double)i);
	}
	assert_int_equal(r[0]->line, 35);
	assert_int_equal(iv(r[0], VM_SWPD), 554920);
	assert_int_equal(r[58]->line, 99);
	assert_int_equal(iv(r[58], VM_SWPD), 53588);

	const struct rec *e[8];
	assert_int_equal(only(&run.recs, &bl_table_events, e, 8), 2);
	assert_string_equal(sv(e[0], EV_TEXT), "Around here, mp3blaster begins to stutter.");
	assert_string_equal(sv(e[0], EV_KIND), "stutter_start");
	assert_int_equal(iv(r[iv(e[0], EV_SAMPLE)], VM_SWPD), 14696);
	assert_string_equal(sv(e[1], EV_TEXT), "At this point, mp3blaster is smooth again.");
	assert_string_equal(sv(e[1], EV_KIND), "stutter_end");
	assert_int_equal(iv(r[iv(e[1], EV_SAMPLE)], VM_SWPD), 294176);
	assert_string_equal(e[0]->group, "2.4.13-pre2aa1");

	/* V8: the prose after the last row is given back */
	assert_true(skipped_as(&run.skips, 100, "text after a vmstat table (no row followed)"));
	assert_true(skipped_as(&run.skips, 101, "text after a vmstat table (no row followed)"));
	run_free(&run);
	free(text);
}

static void expect_stat(void *an, int col, unsigned long long n, double mean, double sd, double min,
			double median, double p95, double max)
{
	struct bl_vm_colstat cs;
	assert_true(bl_vmstat_colstat(an, 0, col, &cs));
	assert_int_equal(cs.n, n);
	assert_true(fabs(cs.mean - mean) <= 1e-9 * fabs(mean) + 1e-12);
	assert_true(fabs(cs.sd - sd) <= 1e-9 * fabs(sd));
	assert_true(cs.min == min);
	assert_true(fabs(cs.median - median) <= 1e-9 * fabs(median));
	assert_true(fabs(cs.p95 - p95) <= 1e-9 * fabs(p95));
	assert_true(cs.max == max);
}

static void test_vmstat__seed000_analysis(void **state)
{
	(void)state;
	char *text = slurp(SEED);
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "000.txt", text, &po, &ao);
	assert_null(bl_vmstat_series(run.an, 1));   /* one series */
	const struct bl_vm_series_info *si = bl_vmstat_series(run.an, 0);
	assert_int_equal(si->rows, 59);
	assert_int_equal(si->ncols, 16);
	assert_int_equal(si->since_boot_left_out, 0);
	assert_string_equal(si->group, "2.4.13-pre2aa1");

	/* S2, against datamash (header comment) */
	expect_stat(run.an, VM_SWPD, 59, 380661.83050847, 246788.55603862, 13904, 413984, 707212.4, 738160);
	expect_stat(run.an, VM_R, 59, 1.0677966101695, 1.0482235675535, 0, 1, 3, 4);
	expect_stat(run.an, VM_FREE, 59, 19467.593220339, 75581.277490805, 1564, 2056, 66026.4, 460316);

	/* S3: one interval, samples 13 (swpd 14696) .. 30 (swpd 294176) */
	assert_int_equal(si->ninterval, 1);
	const struct bl_vm_interval *v = bl_vmstat_interval(run.an, 0, 0);
	assert_int_equal(v->start_sample, 13);
	assert_int_equal(v->end_sample, 30);
	assert_int_equal(v->n_inside, 17);        /* "the stutter interval spans 17 samples" */
	assert_true(v->duration_s == 17);
	assert_false(v->open_at_end);
	assert_true(v->at_start[BL_VM_SWPD] == 14696 && v->at_end[BL_VM_SWPD] == 294176);
	assert_true(v->at_start[BL_VM_SI] == 64 && v->at_end[BL_VM_SI] == 0);
	assert_true(v->at_start[BL_VM_SO] == 0 && v->at_end[BL_VM_SO] == 23420);
	assert_true(v->at_start[BL_VM_FREE] == 51576 && v->at_end[BL_VM_FREE] == 1628);
	assert_true(v->min_inside[BL_VM_SWPD] == 14696 && v->max_inside[BL_VM_SWPD] == 270624);

	/* S4: the collapses 738160 -> 14700 and 728748 -> 13904 */
	assert_int_equal(si->niteration, 3);
	const struct bl_vm_iteration *it1 = bl_vmstat_iteration(run.an, 0, 1);
	const struct bl_vm_iteration *it2 = bl_vmstat_iteration(run.an, 0, 2);
	assert_true(it1->collapse_from == 738160 && it1->swpd_first == 14700);
	assert_int_equal(it1->first_sample, 12);
	assert_true(it2->collapse_from == 728748 && it2->swpd_first == 13904);
	assert_int_equal(it2->first_sample, 54);
	assert_true(it1->swpd_peak == 728748);
	assert_true(it1->stutter_end_swpd == 294176);
	assert_int_equal(it1->stutter_end_sample, 30);
	assert_true(isnan(bl_vmstat_iteration(run.an, 0, 0)->stutter_end_swpd));
	assert_true(isnan(it2->stutter_end_swpd));

	/* text section names what the author read off by eye */
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	assert_int_equal(bl_analysis_vmstat.write(run.an, f, BL_DOC_TEXT, NULL, 0), 0);
	fclose(f);
	assert_non_null(strstr(out, "59 samples"));
	assert_non_null(strstr(out, "294176 (287.3 MiB) at sample 30"));
	assert_non_null(strstr(out, "2.4.13-pre2aa1           287.3 MiB"));
	free(out);
	f = open_memstream(&out, &outlen);
	assert_int_equal(bl_analysis_vmstat.write(run.an, f, BL_DOC_MD, NULL, 0), 0);
	fclose(f);
	assert_non_null(strstr(out, "| swpd | 59 | 380661.83 |"));
	assert_non_null(strstr(out, "| 2 | 12-53 | 738160 | 14700 | 728748 |"));
	free(out);
	run_free(&run);
	free(text);
}

/* ---- since-boot row (V4) ----------------------------------------------- */

static const char sb_text[] =
	"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"      /* 1 */
	" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"       /* 2 */
	" 0  0   1024 301120  20040 180220    0    0    31    12  110   150  3  1 95  1\n"      /* 3 */
	" 1  0   1024 301000  20040 180224    0    0     0    40  102   131  1  0 99  0\n";     /* 4 */

static void test_vmstat__since_boot_modes(void **state)
{
	(void)state;
	struct bl_opts po;
	const struct rec *r[8];
	struct run run;
	struct bl_vm_colstat cs;
	/* auto: marked, written, left out of the statistics */
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	parse_with(&run, "t.txt", sb_text, &po, &ao);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 2);
	assert_int_equal(iv(r[0], VM_SINCE_BOOT), 1);
	assert_int_equal(iv(r[1], VM_SINCE_BOOT), 0);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_BI, &cs));
	assert_int_equal(cs.n, 1);
	assert_true(cs.mean == 0);                /* row 4's bi; row 3's 31 left out */
	assert_int_equal(bl_vmstat_series(run.an, 0)->since_boot_left_out, 1);
	run_free(&run);
	/* keep: marked and counted */
	bl_opts_init(&po);
	po.since_boot = BL_SB_KEEP;
	ao = aopts(&po);
	parse_with(&run, "t.txt", sb_text, &po, &ao);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 2);
	assert_int_equal(iv(r[0], VM_SINCE_BOOT), 1);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_BI, &cs));
	assert_int_equal(cs.n, 2);
	assert_true(cs.mean == 15.5);             /* (31 + 0) / 2 */
	run_free(&run);
	/* drop: not written, skipped with its reason, sample 0 stays taken */
	bl_opts_init(&po);
	po.since_boot = BL_SB_DROP;
	parse_with(&run, "t.txt", sb_text, &po, NULL);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 1);
	assert_int_equal(r[0]->line, 4);
	assert_int_equal(iv(r[0], VM_SAMPLE), 1);
	assert_true(skipped_as(&run.skips, 3, "vmstat since-boot average (--since-boot drop)"));
	run_free(&run);
}

static void test_vmstat__since_boot_contexts(void **state)
{
	(void)state;
	/* V4: after prose (not a start), after a row (repetition), after
	 * "vmstat -y" (no since-boot line), label line alone */
	static const char text[] =
		"Some text before the table.\n"                                                          /* 1 */
		"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"      /* 2 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"       /* 3 */
		" 0  0   1024 301120  20040 180220    0    0    31    12  110   150  3  1 95  1\n"      /* 4 */
		"\n"                                                                                   /* 5 */
		"vmstat -y 1 2\n"                                                                      /* 6 */
		"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"      /* 7 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"       /* 8 */
		" 0  0   1024 301120  20040 180220    0    0    31    12  110   150  3  1 95  1\n"      /* 9 */
		"\n"                                                                                   /* 10 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"       /* 11 */
		" 0  0   1024 301120  20040 180220    0    0    31    12  110   150  3  1 95  1\n";     /* 12 */
	struct run run;
	parse(&run, text);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 3);
	assert_int_equal(iv(r[0], VM_SINCE_BOOT), 0);
	assert_int_equal(iv(r[1], VM_SINCE_BOOT), 0);
	assert_int_equal(iv(r[1], VM_SERIES), 2);  /* a command line ends a series (V3) */
	assert_int_equal(iv(r[2], VM_SINCE_BOOT), 0);
	assert_int_equal(iv(r[2], VM_SERIES), 2);  /* same layout, not a start: same capture */
	assert_int_equal(iv(r[2], VM_SAMPLE), 1);
	run_free(&run);
}

/* Headers that come back: each row takes the layout of the header above
 * it, also when a header of another layout came in between (the parser
 * keeps the last header it read to answer a repeated one). Values by hand:
 * row k of a header holds 20k+1, 20k+2, ... in its columns' order. */
static void test_vmstat__headers_come_back(void **state)
{
	(void)state;
	static const char text[] =
		"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"  /* 1 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"   /* 2 */
		" 1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16\n"                                 /* 3 */
		"   procs                      memory    swap          io     system         cpu\n" /* 4 */
		" r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"  /* 5 */
		"21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36\n"                                 /* 6 */
		"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"  /* 7 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"   /* 8 */
		"41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56\n"                                 /* 9 */
		"   procs                      memory    swap          io     system         cpu\n" /* 10 */
		" r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"  /* 11 */
		"61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76\n";                                /* 12 */
	static const int procps[] = { VM_R, VM_B, VM_SWPD, VM_FREE, VM_BUFF, VM_CACHE, VM_SI, VM_SO,
		VM_BI, VM_BO, VM_IN, VM_CS, VM_US, VM_SY, VM_ID, VM_WA };
	static const int old[] = { VM_R, VM_B, VM_W, VM_SWPD, VM_FREE, VM_BUFF, VM_CACHE, VM_SI,
		VM_SO, VM_BI, VM_BO, VM_IN, VM_CS, VM_US, VM_SY, VM_ID };
	struct run run;
	parse(&run, text);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 4);
	for (int k = 0; k < 4; k++) {
		const int *cols = k % 2 ? old : procps;
		assert_int_equal(r[k]->line, 3 + 3 * k);
		assert_int_equal(iv(r[k], VM_SERIES), k + 1);   /* each layout change: a new series */
		for (int i = 0; i < 16; i++)
			assert_int_equal(iv(r[k], cols[i]), 20 * k + i + 1);
		assert_int_equal(r[k]->v[k % 2 ? VM_WA : VM_W].t, BL_NULL);
	}
	run_free(&run);
}

/* ---- layouts and mail damage (V1, V2) ----------------------------------- */

static void test_vmstat__wrapped_header_and_rows(void **state)
{
	(void)state;
	static const char text[] =
		"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"   /* 1 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id\n"       /* 2 */
		"wa\n"                                                                              /* 3 */
		" 2  2      0 1137424 235064 456972    0    0   736   712 4303  8686 15  6 17\n"    /* 4 */
		"62\n"                                                                              /* 5 */
		" 0  1  14520 1120880 235080 461912    0    0    12\n"                              /* 6 */
		" 1  0  14520 1120760 235080 461920    0    0     0    80 1103  1402  3  1 95  1\n"; /* 7 */
	struct run run;
	parse(&run, text);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 2);
	assert_int_equal(r[0]->line, 4);
	assert_int_equal(iv(r[0], VM_WA), 62);     /* joined with line 5 */
	assert_int_equal(iv(r[0], VM_ID), 17);
	assert_int_equal(iv(r[1], VM_WA), 1);
	assert_true(skipped_as(&run.skips, 6, "incomplete vmstat row"));
	assert_non_null(strstr(run.diag, "t.txt:6: vmstat row has 9 of its 16 fields"));
	run_free(&run);
}

static void test_vmstat__timestamps(void **state)
{
	(void)state;
	/* -t across midnight: t_s from the stamps (2 s step at the end) */
	static const char t1[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n"
		" 1  0      0 23185836  11684 1362572    0    0  2391  3734  525 1249 15  6 78  1  0 2026-11-30 23:59:58\n"
		" 0  0      0 23185212  11684 1362576    0    0     0    12  301  388  0  0 100  0  0 2026-11-30 23:59:59\n"
		" 0  0      0 23185212  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2026-12-01 00:00:01\n";
	struct run run;
	parse(&run, t1);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 3);
	assert_true(nv(r[0], VM_T_S) == 0 && nv(r[1], VM_T_S) == 1 && nv(r[2], VM_T_S) == 3);
	assert_string_equal(sv(r[2], VM_TIMESTAMP), "2026-12-01 00:00:01");
	assert_string_equal(sv(r[2], VM_TZ), "UTC");
	assert_string_equal(sv(r[2], VM_LAYOUT), "3.3-st -t");
	run_free(&run);
	/* a leading time of day rolls over at midnight */
	static const char t2[] =
		"--time-- procs -----------memory---------- ---swap-- -----io---- --system-- -----cpu-----\n"
		"          r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		"23:59:55  2  0    376 141000624 945216 8464640    0    0     2   806 31414 37894  2  1 97  0  0\t\n"
		"00:00:00  5  0    376 140984384 945232 8465164    0    0     3   283 36567 40997  2  1 98  0  0\t\n";
	parse(&run, t2);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 2);
	assert_true(nv(r[0], VM_T_S) == 0 && nv(r[1], VM_T_S) == 5);
	assert_string_equal(sv(r[1], VM_LAYOUT), "3.3-st +time");
	run_free(&run);
	/* a date that is no day (February 30) makes no record; 2024's
	 * February 29 does. By hand: t_s 0, 86400, then 2024-03-01
	 * 00:00:00 is 86400 + 1 s after 2024-02-28 23:59:59 */
	static const char t3[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n"
		" 1  0      0 23185836  11684 1362572    0    0  2391  3734  525 1249 15  6 78  1  0 2024-02-28 23:59:59\n"
		" 0  0      0 23185212  11684 1362576    0    0     0    12  301  388  0  0 100  0  0 2024-02-29 23:59:59\n"
		" 0  0      0 23185212  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2024-02-30 00:00:00\n"
		" 0  0      0 23185212  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2024-03-01 00:00:00\n";
	parse(&run, t3);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 3);
	assert_true(nv(r[0], VM_T_S) == 0 && nv(r[1], VM_T_S) == 86400 && nv(r[2], VM_T_S) == 86401);
	run_free(&run);
}

static void test_vmstat__interval_and_unit(void **state)
{
	(void)state;
	static const char text[] =
		"$ vmstat -SM 5 3\n"
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		" 1  0     12  22637     11   1330    0    0  2402  3750  527 1255 15  6 78  1  0\n"
		" 0  0    300  22636     11   1330    0    2     0    64  402  611  1  0 99  0  0\n";
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "t.txt", text, &po, &ao);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 2);
	assert_true(nv(r[1], VM_T_S) == 5);        /* V5: the command line's delay */
	assert_string_equal(sv(r[1], VM_MEM_UNIT), "MiB");
	assert_true(nv(r[1], VM_SWPD) == 300 * 1024.0);   /* V6: 300 MiB in KiB */
	run_free(&run);
	/* V6: -S m is 10^6 bytes: 3 MB = 3,000,000 / 1024 KiB */
	parse_with(&run, "t.txt",
		   "$ vmstat -S m 1\n"
		   " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		   " 1  0      3  22637     11   1330    0    0  2402  3750  527 1255 15  6 78  1  0\n", &po, &ao);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 1);
	assert_string_equal(sv(r[0], VM_MEM_UNIT), "MB");
	assert_true(nv(r[0], VM_SWPD) == 2929.6875);
	run_free(&run);
	/* --interval given wins over the command line */
	bl_opts_init(&po);
	po.interval_s = 2;
	po.interval_given = true;
	parse_with(&run, "t.txt", text, &po, NULL);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 2);
	assert_true(nv(r[1], VM_T_S) == 2);
	run_free(&run);
}

static void test_vmstat__freebsd(void **state)
{
	(void)state;
	static const char text[] =
		"procs     memory       page                      disks       faults       cpu\n"
		"r b w     avm     fre  flt  re  pi  po    fr   sr ada0  cd0   in   sy   cs us sy id\n"
		"0 0 0    514M    7.0G  210   0   0   0   192   23    4    0  102  391  310  0  0 99\n";
	struct run run;
	parse(&run, text);
	const struct rec *r[4];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 4), 1);
	assert_int_equal(iv(r[0], VM_AVM), 514 * 1024);            /* 514 MiB in KiB */
	assert_int_equal(iv(r[0], VM_FREE), 7 * 1024 * 1024);
	assert_int_equal(iv(r[0], VM_SYS_CALLS), 391);              /* faults "sy" */
	assert_int_equal(iv(r[0], VM_SY), 0);                       /* cpu "sy" */
	assert_int_equal(iv(r[0], VM_IN), 102);
	assert_string_equal(sv(r[0], VM_DISKS), "ada0=4 cd0=0");
	assert_string_equal(sv(r[0], VM_LAYOUT), "freebsd");
	assert_int_equal(r[0]->v[VM_SWPD].t, BL_NULL);
	run_free(&run);
}

static void test_vmstat__nontable_modes(void **state)
{
	(void)state;
	static const char text[] =
		"     24684084 K total memory\n"          /* 1 -s */
		"         8649 forks\n"                   /* 2 -f */
		"           10 disks\n"                   /* 3 -D */
		"disk- ------------reads------------ ------------writes----------- -----IO------\n"  /* 4 -d */
		"sda   125937  20763 7813791   46262 216410 185513 19561802 1263714      0    372\n" /* 5 */
		"Cache                       Num  Total   Size  Pages\n"          /* 6 -m */
		"dentry                    97272  99204    192     21\n";         /* 7 */
	struct run run;
	parse(&run, text);
	assert_int_equal(run.recs.n, 0);
	assert_true(skipped_as(&run.skips, 1, "vmstat -s/-f counters (not the sample table)"));
	assert_true(skipped_as(&run.skips, 2, "vmstat -s/-f counters (not the sample table)"));
	assert_true(skipped_as(&run.skips, 3, "vmstat -D disk summary (not the sample table)"));
	/* -d is parsers/vmstatdisk.c's: a group line the label line does not follow */
	assert_true(skipped_as(&run.skips, 4, "vmstat -d group line without its label line"));
	assert_true(skipped_as(&run.skips, 7, "vmstat -m slab table (not the sample table)"));
	run_free(&run);
}

/* ---- events (V8, V9) ------------------------------------------------------ */

static void test_vmstat__events_and_labels(void **state)
{
	(void)state;
	static const char text[] =
		"procs                      memory    swap          io     system         cpu\n"      /* 1 */
		" r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"  /* 2 */
		" 2  1  1 512000   1800   1180   2300  10 9800   400  9800  490   700   3   7  90\n" /* 3 */
		"Here xmms starts to skip.\n"                                                       /* 4 */
		" 1  2  1 530000   2100   1180   2310  30 17000  300 17000  480   650   4   9  87\n" /* 5 */
		"PASS ... 1244659712 bytes allocated.\n"                                            /* 6 */
		" 0  3  1 548000   1700   1176   2300  12 18000  100 18000  470   640   2  10  88\n" /* 7 */
		"2.4.13-pre2aa1\n"                                                                  /* 8 */
		" 0  3  1 548000   1700   1176   2300  12 18000  100 18000  470   640   2  10  88\n" /* 9 */
		"Audio is choppy.\n";                                                               /* 10 */
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "t.txt", text, &po, &ao);
	const struct rec *r[8], *e[8];
	/* the PASS line is mtest01's (not swallowed as prose); the kernel line
	 * is the dispatcher's group label and ends the series, so line 9 has
	 * no header and is not a row */
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 3);
	assert_int_equal(only(&run.recs, &bl_table_events, e, 8), 1);
	assert_int_equal(e[0]->line, 4);
	assert_int_equal(iv(e[0], EV_SAMPLE), 1);
	assert_string_equal(sv(e[0], EV_KIND), "stutter_start");
	assert_true(skipped_as(&run.skips, 9, "vmstat row before any header"));   /* V13 */
	assert_true(skipped_as(&run.skips, 10, "no format recognised"));
	assert_string_equal(run.ctx.group, "2.4.13-pre2aa1");
	/* S3: open at the end of the series: the last row counts as inside */
	const struct bl_vm_interval *v = bl_vmstat_interval(run.an, 0, 0);
	assert_non_null(v);
	assert_true(v->open_at_end);
	assert_int_equal(v->start_sample, 1);
	assert_int_equal(v->end_sample, 2);
	assert_int_equal(v->n_inside, 2);
	assert_true(v->duration_s == 1);
	assert_true(bl_vmstat_iteration(run.an, 0, 0)->stutter_open);
	run_free(&run);
}

static void test_vmstat__custom_patterns(void **state)
{
	(void)state;
	static const char text[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		" 1  0  40960 102400  11684 362484    0  120   240   750  527 1255 15  6 78  1  0\n"
		"glitch here (it begins to stutter)\n"
		" 1  0  52224  98304  11684 362484    0 2800     0  3328   66   90  0  1 99  0  0\n"
		"all CLEAN\n"
		" 0  0  60000  97000  11684 362488    0 1900     0  1900   61   88  0  0 100  0  0\n";
	struct bl_opts po;
	bl_opts_init(&po);
	struct run run;
	parse_with(&run, "t.txt", text, &po, NULL);
	const struct rec *e[4];
	assert_int_equal(only(&run.recs, &bl_table_events, e, 4), 2);
	assert_string_equal(sv(e[0], EV_KIND), "stutter_start");   /* default: "begins to stutter" */
	assert_string_equal(sv(e[1], EV_KIND), "note");
	run_free(&run);
	po.stutter_start_re = "^glitch";
	po.stutter_end_re = "CLEAN";
	parse_with(&run, "t.txt", text, &po, NULL);
	assert_int_equal(only(&run.recs, &bl_table_events, e, 4), 2);
	assert_string_equal(sv(e[0], EV_KIND), "stutter_start");
	assert_string_equal(sv(e[1], EV_KIND), "stutter_end");
	run_free(&run);
	po.stutter_start_re = "nomatch";
	parse_with(&run, "t.txt", text, &po, NULL);
	assert_int_equal(only(&run.recs, &bl_table_events, e, 4), 2);
	assert_string_equal(sv(e[0], EV_KIND), "note");            /* the default was replaced */
	run_free(&run);
}

/* ---- realworld (shared/realworld/LOG.md) ------------------------------- */

static void test_vmstat__realworld_values(void **state)
{
	(void)state;
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct bl_vm_colstat cs;
	struct run run;
	const struct rec *r[256];

	/* 10: rows 8; max free 857256 (min 2172); max so 38332; max si 560;
	 * max b 53; max w 20; max cs 32640; one interjection */
	char *text = slurp("fixtures/vmstat/10-vmstat22-trailing-ws-interjection.txt");
	parse_with(&run, "10.txt", text, &po, &ao);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 256), 8);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_FREE, &cs) && cs.max == 857256 && cs.min == 2172);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_SO, &cs) && cs.max == 38332);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_SI, &cs) && cs.max == 560);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_B, &cs) && cs.max == 53);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_W, &cs) && cs.max == 20);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_CS, &cs) && cs.max == 32640);
	assert_int_equal(bl_vmstat_series(run.an, 0)->nevents, 1);
	run_free(&run);
	free(text);

	/* 18: rows 210; swpd constant 16592; max r 35; max cs 76994; rows with
	 * id = 100: 7; max bo 3410; first 09:03:09, last 09:06:39 */
	text = slurp("fixtures/vmstat/18-vmstat-t-timestamps-procps33.txt");
	parse_with(&run, "18.txt", text, &po, &ao);
	size_t n = only(&run.recs, &bl_table_vmstat, r, 256);
	assert_int_equal(n, 210);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_SWPD, &cs) && cs.min == 16592 && cs.max == 16592);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_R, &cs) && cs.max == 35);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_CS, &cs) && cs.max == 76994);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_BO, &cs) && cs.max == 3410);
	unsigned id100 = 0;
	for (size_t i = 0; i < n; i++)
		id100 += iv(r[i], VM_ID) == 100;
	assert_int_equal(id100, 7);
	assert_string_equal(sv(r[0], VM_TIMESTAMP), "2018-03-21 09:03:09");
	assert_string_equal(sv(r[n - 1], VM_TIMESTAMP), "2018-03-21 09:06:39");
	assert_true(nv(r[n - 1], VM_T_S) == 210);    /* 3 min 30 s; one second missing */
	run_free(&run);
	free(text);

	/* 21: 12 rows (3 x 4), 17 columns; row 1 free 6485 MB, in 24, cs 13,
	 * id 100; max cs 526 */
	text = slurp("fixtures/vmstat/21-vmstat-w-SM-markdown-repeated.txt");
	parse_with(&run, "21.txt", text, &po, NULL);
	n = only(&run.recs, &bl_table_vmstat, r, 256);
	assert_int_equal(n, 12);
	assert_int_equal(iv(r[0], VM_FREE), 6640640);    /* 6485 MiB x 1024 (V6) */
	assert_int_equal(iv(r[0], VM_IN), 24);
	assert_int_equal(iv(r[0], VM_CS), 13);
	assert_int_equal(iv(r[0], VM_ID), 100);
	long long maxcs = 0;
	for (size_t i = 0; i < n; i++)
		maxcs = iv(r[i], VM_CS) > maxcs ? iv(r[i], VM_CS) : maxcs;
	assert_int_equal(maxcs, 526);
	unsigned cols = 0;
	for (int c = 0; c < VM_NCOLS; c++)
		cols += bl_vmstat_is_value_col(c) && r[0]->v[c].t != BL_NULL;
	assert_int_equal(cols, 17);
	run_free(&run);
	free(text);

	/* 26: 11 complete rows + 1 truncated line; max free 141000624; min free
	 * 140776208; max cs 49628; max r 5 */
	text = slurp("fixtures/vmstat/26-exawatcher-vmstat-issue-excerpt-truncated.txt");
	parse_with(&run, "26.txt", text, &po, &ao);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 256), 11);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_FREE, &cs) && cs.max == 141000624 && cs.min == 140776208);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_CS, &cs) && cs.max == 49628);
	assert_true(bl_vmstat_colstat(run.an, 0, VM_R, &cs) && cs.max == 5);
	assert_true(skipped_as(&run.skips, 16, "incomplete vmstat row"));
	run_free(&run);
	free(text);

	/* 20: not a single table row */
	text = slurp("fixtures/vmstat/20-vmstat-s-repeated-nontabular.txt");
	parse_with(&run, "20.txt", text, &po, NULL);
	assert_int_equal(run.recs.n, 0);
	run_free(&run);
	free(text);
}

/* ---- charts -------------------------------------------------------------- */

static bool file_size(const char *dir, const char *name, long long *size)
{
	char *p = bl_xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ok = stat(p, &st) == 0;
	if (ok)
		*size = (long long)st.st_size;
	free(p);
	return ok;
}

static char *read_in(const char *dir, const char *name)
{
	char *p = bl_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "rb");
	free(p);
	if (!f)
		return NULL;
	struct bl_buf b = BL_BUF_INIT(0);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		bl_buf_add(&b, buf, n);
	fclose(f);
	return b.data;
}

static void rm_dir(const char *dir)
{
	static const char *const names[] = { "swpd.gp", "swpd-1.dat", "swpd.png", "swpd.svg",
		"swpd-stutter.gp", "swpd-stutter-1.dat", "swpd-stutter.png", "swpd-stutter.svg", NULL };
	for (size_t i = 0; names[i]; i++) {
		char *p = bl_xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/* The vmstat charts of run drawn as PNG into dir (a mkdtemp template,
 * filled in): gnuplot's result (0, or -BL_ENOTFOUND without it) and want
 * charts are checked. */
static void draw_png(struct run *run, char *dir, size_t want)
{
	assert_non_null(mkdtemp(dir));
	struct bl_chart_opts co = { dir, BL_PLOT_PNG, false, { 0, NULL } };
	struct bl_chart *ch = NULL;
	size_t nch = 0;
	int rc = bl_analysis_draw(&bl_analysis_vmstat, run->an, &co, &ch, &nch, stderr, NULL);
	assert_int_equal(rc, bl_gp_available() ? 0 : -BL_ENOTFOUND);
	assert_int_equal(nch, want);
	bl_charts_free(ch, nch);
}

static void test_vmstat__seed000_charts(void **state)
{
	(void)state;
	char *text = slurp(SEED);
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "000.txt", text, &po, &ao);
	char dir[] = "/tmp/test_vmstat.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct bl_chart_opts co = { dir, BL_PLOT_PNG | BL_PLOT_SVG, false, { 0, NULL } };
	struct bl_chart *ch = NULL;
	size_t nch = 0;
	int rc = bl_analysis_draw(&bl_analysis_vmstat, run.an, &co, &ch, &nch, stderr, NULL);
	bool have_gnuplot = bl_gp_available();
	assert_int_equal(rc, have_gnuplot ? 0 : -BL_ENOTFOUND);
	assert_int_equal(nch, 2);
	assert_string_equal(ch[0].name, "swpd");
	assert_string_equal(ch[1].name, "swpd-stutter");
	bl_charts_free(ch, nch);

	/* the time chart: the group's panel, the stutter shading from t = 13 to
	 * t = 30, both events with their text */
	char *gp = read_in(dir, "swpd.gp");
	assert_non_null(gp);
	assert_non_null(strstr(gp, "set title '2.4.13-pre2aa1' noenhanced"));
	assert_non_null(strstr(gp, "set object rect from 13, graph 0 to 30, graph 1"));
	assert_non_null(strstr(gp, "'Around here, mp3blaster begins to stutter.'"));
	assert_non_null(strstr(gp, "'At this point, mp3blaster is smooth again.'"));
	free(gp);
	/* the data: 59 samples, swpd in MiB (554920 KiB = 541.9140625 MiB) */
	char *dat = read_in(dir, "swpd-1.dat");
	assert_non_null(dat);
	size_t rows = 0;
	for (char *p = dat; p && *p;) {
		char *nl = strchr(p, '\n');
		if (*p != '#' && *p != '\n')
			rows++;
		p = nl ? nl + 1 : NULL;
	}
	assert_int_equal(rows, 59);
	assert_non_null(strstr(dat, "\n0 541.9140625 "));
	free(dat);
	/* the swpd-vs-stutter chart: no stutter above 280 MiB (the last
	 * stuttering sample, 270624 KiB = 264.3 MiB, is in the 260-280 bin) */
	gp = read_in(dir, "swpd-stutter.gp");
	assert_non_null(gp);
	assert_non_null(strstr(gp, "no stutter above 280 MiB"));
	free(gp);
	long long size = 0;
	if (have_gnuplot) {
		assert_true(file_size(dir, "swpd.png", &size));
		assert_true(size > 10000 && size < 2000000);
		assert_true(file_size(dir, "swpd-stutter.png", &size));
		assert_true(size > 5000 && size < 2000000);
		assert_true(file_size(dir, "swpd.svg", &size) && size > 5000);
		/* PNG header: width 1200 */
		char *png = read_in(dir, "swpd.png");
		assert_non_null(png);
		const unsigned char *u = (const unsigned char *)png;
		assert_memory_equal(u + 1, "PNG", 3);
		unsigned w = (unsigned)u[16] << 24 | (unsigned)u[17] << 16 | (unsigned)u[18] << 8 | u[19];
		assert_int_equal(w, 1200);
		free(png);
	}
	rm_dir(dir);
	run_free(&run);
	free(text);
}

/* V4: a header pair inside a series whose next row merely resembles a
 * re-paste stays vmstat's own repetition. a) An idle machine: every row,
 * the since-boot row included, has the same values, so the row under the
 * repeated header is the first row again but so was every row before it:
 * one series, samples 0 to 3, only the first marked since-boot. b) A -t
 * clock set back an hour right at a header repeat (a DST change): the
 * row is earlier than the rows above it but not the first row again (its
 * stamp and free memory differ): one series, t_s going back. */
static void test_vmstat__header_repeat_not_again(void **state)
{
	(void)state;
	static const char idle[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"   /* 1 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n"    /* 2 */
		" 0  0      0 500000  10000 200000    0    0     0     0    0    0  0  0 100  0\n"  /* 3 */
		" 0  0      0 500000  10000 200000    0    0     0     0    0    0  0  0 100  0\n"  /* 4 */
		" 0  0      0 500000  10000 200000    0    0     0     0    0    0  0  0 100  0\n"  /* 5 */
		"procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"   /* 6 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n"    /* 7 */
		" 0  0      0 500000  10000 200000    0    0     0     0    0    0  0  0 100  0\n"; /* 8 */
	struct run run;
	parse(&run, idle);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(iv(r[i], VM_SERIES), 1);
		assert_int_equal(iv(r[i], VM_SAMPLE), i);
		assert_int_equal(iv(r[i], VM_SINCE_BOOT), i == 0);
	}
	run_free(&run);

	static const char dst[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 CET\n"
		" 0  0  16592 11289720 1659092 16500420    0    0     0     2  500  600  1  0 99  0  0 2018-10-28 02:59:57\n"
		" 0  0  16592 11289620 1659092 16500420    0    0     0     2  500  600  1  0 99  0  0 2018-10-28 02:59:58\n"
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 CET\n"
		" 0  0  16592 11289420 1659092 16500420    0    0     0     2  500  600  1  0 99  0  0 2018-10-28 02:00:00\n"
		" 0  0  16592 11289320 1659092 16500420    0    0     0     2  500  600  1  0 99  0  0 2018-10-28 02:00:01\n";
	parse(&run, dst);
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(iv(r[i], VM_SERIES), 1);
		assert_int_equal(iv(r[i], VM_SAMPLE), i);
		assert_int_equal(iv(r[i], VM_SINCE_BOOT), i == 0);
	}
	/* 02:00:00 is 3597 s before 02:59:57 */
	assert_true(nv(r[2], VM_T_S) == -3597);
	run_free(&run);
}

/* V4, the evidence for a re-paste, case by case:
 * c) an idle machine logged hourly with a leading time of day, headers
 *    every 24 rows: the row under the header a day after the first is
 *    22:00:00 again with the same values, but the time of day runs on past
 *    midnight (22:00 + 24 h), so it is not the first row again: one series
 *    of 26 rows;
 * d) -t rows with a date: the capture (header pair, 3 rows), the same
 *    again under a label line alone, then under a full header pair: the
 *    date and time make each copy's first row proof on its own: 3 series
 *    of 3 rows, each first row since-boot;
 * e) the same without stamps: the copy under a label line alone stays in
 *    the first series (a label line alone marks nothing, and a row equal
 *    to the first one right under a header does not mark the capture as
 *    idle), the full copy is series 2: 6 rows, then 3. */
static void test_vmstat__repaste_evidence(void **state)
{
	(void)state;
	static const char h1[] = "procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n";
	static const char h2[] = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n";
	struct bl_buf b = BL_BUF_INIT(0);
	bl_buf_add(&b, h1, strlen(h1));
	bl_buf_add(&b, h2, strlen(h2));
	for (int i = 0; i < 25; i++) {
		if (i == 24) {
			bl_buf_add(&b, h1, strlen(h1));
			bl_buf_add(&b, h2, strlen(h2));
		}
		bl_buf_addf(&b, "%02d:00:00 0  0      0 500000  10000 200000    0    0     0     0   50   90  0  0 100  0\n",
			    (22 + i) % 24);
	}
	bl_buf_addf(&b, "23:00:00 0  0      0 500000  10000 200000    0    0     0     0   50   90  0  0 100  0\n");
	struct run run;
	parse(&run, b.data);
	const struct rec *r[32];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 32), 26);
	for (int i = 0; i < 26; i++) {
		assert_int_equal(iv(r[i], VM_SERIES), 1);
		assert_int_equal(iv(r[i], VM_SINCE_BOOT), i == 0);
	}
	assert_true(nv(r[24], VM_T_S) == 86400);
	run_free(&run);
	bl_buf_release(&b);

	static const char th1[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n";
	static const char th2[] =
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n";
	static const char trows[] =
		"1 0 0 400000 10000 200000 0 0 5 7 100 200 2 1 96 1 0 2024-01-01 23:59:50\n"
		"1 0 0 390675 10000 200000 0 0 97 8 361 220 2 1 96 1 0 2024-01-01 23:59:51\n"
		"0 0 0 390600 10000 200000 0 0 0 4 300 210 1 1 98 0 0 2024-01-01 23:59:52\n";
	static const char prows[] =
		" 1  0   1024 301120  20040 180220    0    0    31    12  110   150  3  1 95  1\n"
		" 0  0   1024 300000  20040 180220    0    0     0     4  101   140  1  0 99  0\n"
		" 0  0   1024 299000  20040 180220    0    0     0     0   99   130  0  0 100  0\n";
	for (int stamped = 1; stamped >= 0; stamped--) {
		const char *g = stamped ? th1 : h1, *l = stamped ? th2 : h2, *rows = stamped ? trows : prows;
		b = (struct bl_buf)BL_BUF_INIT(0);
		bl_buf_addf(&b, "%s%s%s%s%s%s%s%s", g, l, rows, l, rows, g, l, rows);
		parse(&run, b.data);
		assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 32), 9);
		for (int i = 0; i < 9; i++) {
			int series = stamped ? 1 + i / 3 : 1 + (i >= 6);
			int sample = stamped ? i % 3 : i < 6 ? i : i - 6;
			assert_int_equal(iv(r[i], VM_SERIES), series);
			assert_int_equal(iv(r[i], VM_SAMPLE), sample);
			assert_int_equal(iv(r[i], VM_SINCE_BOOT), sample == 0);
		}
		run_free(&run);
		bl_buf_release(&b);
	}
}

/* V4: the same capture pasted again right after its last row (a log cat
 * to itself) is a series of its own: the header pair after row 230 is
 * not vmstat's repetition, as the row under it (line 233, 09:03:09) is
 * the first row again, stamp and values. Values from LOG.md
 * (210 rows from 09:03:09 to 09:06:39) and the line count (230 lines a
 * copy, so the copy's since-boot row is line 230 + 3). */
static void test_vmstat__capture_again(void **state)
{
	(void)state;
	char *one = slurp("fixtures/vmstat/18-vmstat-t-timestamps-procps33.txt");
	/* the second paste's last row says cs 3325, not 3324: a capture
	 * again that is not a copy (an exact copy: capture_again_copy) */
	char *two = bl_xstrdup(one);
	char *cs = strstr(two, " 2987 3324 32 ");
	assert_non_null(cs);
	memcpy(cs, " 2987 3325 32 ", 14);
	char *text = bl_xasprintf("%s%s", one, two);
	free(two);
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "two.txt", text, &po, &ao);
	static const struct rec *r[512];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 512), 420);
	for (int k = 0; k < 2; k++) {
		const struct rec *first = r[210 * k], *last = r[210 * k + 209];
		assert_int_equal(first->line, 3 + 230 * k);
		assert_int_equal(iv(first, VM_SERIES), k + 1);
		assert_int_equal(iv(first, VM_SAMPLE), 0);
		assert_true(nv(first, VM_T_S) == 0);
		assert_int_equal(iv(first, VM_SINCE_BOOT), 1);
		assert_string_equal(sv(first, VM_TIMESTAMP), "2018-03-21 09:03:09");
		assert_int_equal(last->line, 230 + 230 * k);
		assert_int_equal(iv(last, VM_SERIES), k + 1);
		assert_int_equal(iv(last, VM_SAMPLE), 209);
		assert_true(nv(last, VM_T_S) == 210);
		assert_int_equal(iv(r[210 * k + 1], VM_SINCE_BOOT), 0);
	}
	assert_null(bl_vmstat_series(run.an, 2));   /* two series */
	assert_int_equal(bl_vmstat_series(run.an, 1)->first_line, 233);
	assert_int_equal(bl_vmstat_series(run.an, 1)->rows, 209);    /* since-boot row left out */
	assert_true(bl_vmstat_series(run.an, 1)->t_first_s == 1);
	assert_true(bl_vmstat_series(run.an, 1)->t_last_s == 210);

	/* The chart: the copy after the first on the time axis (its rows at
	 * t = 1..210 go to 211..420: one step after the first copy's last
	 * row, 210), with its start marked; not a failure */
	char dir[] = "/tmp/test_vmstat.XXXXXX";
	draw_png(&run, dir, 1);
	char *gp = read_in(dir, "swpd.gp");
	assert_non_null(gp);
	assert_non_null(strstr(gp, "set label 'capture 2: two.txt:233' at 211,"));
	assert_non_null(strstr(gp, "set xrange [1:420]"));
	free(gp);
	char *dat = read_in(dir, "swpd-1.dat");
	assert_non_null(dat);
	/* 16592 KiB = 16.203125 MiB; line 233 + 1: free 11288572 KiB */
	assert_non_null(strstr(dat, "\n210 16.203125 "));
	assert_non_null(strstr(dat, "\n211 16.203125 11023.99609375 "));
	assert_non_null(strstr(dat, "\n420 16.203125 "));
	free(dat);
	rm_dir(dir);
	run_free(&run);
	free(text);
	free(one);
}

/* The same capture pasted again exactly (`cat log log`): a new capture
 * ends a block (core/block.h B1), so the second paste is a copy of the
 * first and the analyses see one series of 209 rows (LOG.md: 210 rows,
 * the since-boot row left out). */
static void test_vmstat__capture_again_copy(void **state)
{
	(void)state;
	char *one = slurp("fixtures/vmstat/18-vmstat-t-timestamps-procps33.txt");
	char *text = bl_xasprintf("%s%s", one, one);
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "two.txt", text, &po, &ao);
	assert_null(bl_vmstat_series(run.an, 1));   /* one series */
	assert_int_equal(bl_vmstat_series(run.an, 0)->rows, 209);
	run_free(&run);
	free(text);
	free(one);
}

/* t_s that goes back inside a series (here a -t clock set back an hour,
 * with no header between) reaches the chart in time order: the rows from
 * the jump on are drawn after the ones before, one step (1 s) after the
 * last, with a mark and a warning naming the line; the stutter interval
 * across the jump ends at its row's place on the chart, not an hour
 * before its start. By hand: rows 4, 6, 7, 9 (row 3 is the since-boot
 * row, left out) have t_s 1, 2, -3600, -3599; on the chart 1, 2, then
 * -3600 + 3603 = 3 and 4; swpd 2048..5120 KiB = 2..5 MiB; the stutter
 * starts at row 6 (t 2) and ends at row 9 (chart t 4). */
static void test_vmstat__chart_time_back(void **state)
{
	(void)state;
	static const char text[] =
		"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n" /* 1 */
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n"  /* 2 */
		" 1  0   1024 1048576  11684 1362572    0    0  2391  3734  525 1249 15  6 78  1  0 2026-11-30 10:00:00\n" /* 3 */
		" 0  0   2048 1048576  11684 1362576    0    0     0    12  301  388  0  0 100  0  0 2026-11-30 10:00:01\n" /* 4 */
		"Around here, mp3blaster begins to stutter.\n"                                                          /* 5 */
		" 0  0   3072 1048576  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2026-11-30 10:00:02\n" /* 6 */
		" 0  0   4096 1048576  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2026-11-30 09:00:00\n" /* 7 */
		"At this point, mp3blaster is smooth again.\n"                                                          /* 8 */
		" 0  0   5120 1048576  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2026-11-30 09:00:01\n"; /* 9 */
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct run run;
	parse_with(&run, "t.txt", text, &po, &ao);
	const struct rec *r[8];
	assert_int_equal(only(&run.recs, &bl_table_vmstat, r, 8), 5);
	assert_int_equal(iv(r[4], VM_SERIES), 1);    /* no header: the same series */
	assert_true(nv(r[3], VM_T_S) == -3600 && nv(r[4], VM_T_S) == -3599);
	/* the summary's span: steps 1, then back (the step before: 1), then
	 * 1: 3 s for the 4 rows used, never t_last - t_first = -3600 */
	assert_int_equal(bl_vmstat_series(run.an, 0)->rows, 4);
	assert_true(bl_vmstat_series(run.an, 0)->span_s == 3);
	{
		/* vmstat -t 60: the step before a clock set back at the first
		 * row used is the series' own (sample 1 at t_s 60: 60 s), not
		 * 1 s: steps 60 (back), 60: 120 s */
		static const char t60[] =
			"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n"
			" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC\n"
			" 1  0   1024 1048576  11684 1362572    0    0  2391  3734  525 1249 15  6 78  1  0 2026-11-30 10:00:00\n"
			" 0  0   2048 1048576  11684 1362576    0    0     0    12  301  388  0  0 100  0  0 2026-11-30 10:01:00\n"
			" 0  0   3072 1048576  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2026-11-30 09:00:00\n"
			" 0  0   4096 1048576  11684 1362576    0    0     0     0  296  377  0  0 100  0  0 2026-11-30 09:01:00\n";
		struct run r60;
		parse_with(&r60, "t60.txt", t60, &po, &ao);
		assert_int_equal(bl_vmstat_series(r60.an, 0)->rows, 3);
		assert_true(bl_vmstat_series(r60.an, 0)->span_s == 120);
		run_free(&r60);
	}

	char dir[] = "/tmp/test_vmstat.XXXXXX";
	draw_png(&run, dir, 2);
	char *dat = read_in(dir, "swpd-1.dat");
	assert_non_null(dat);
	assert_non_null(strstr(dat, "\n1 2 1024 0 0\n2 3 1024 0 0\n3 4 1024 0 0\n4 5 1024 0 0\n"));
	free(dat);
	char *gp = read_in(dir, "swpd.gp");
	assert_non_null(gp);
	assert_non_null(strstr(gp, "set label 'time goes back: t.txt:7' at 3,"));
	assert_non_null(strstr(gp, "set object rect from 2, graph 0 to 4, graph 1"));
	free(gp);
	rm_dir(dir);
	run_free(&run);
}

/* compare reads the logs on either side of a CSV table in two passes of
 * one context: the second log's capture is one of its own, not the first
 * log's going on (get() in analyze/vmstat.c), and is numbered after it
 * (series 2: the `series` column is unique in the run). Iterations (S4) and the
 * Findings' per-iteration peaks (D18 b) by hand from the rows below:
 *   base: swpd 20000 40000 | 1000 3000 (40000 -> 1000 collapses):
 *         si peaks 30, 7; so peaks 60, 9
 *   cand: swpd 30000 60000 | 2000 50000 (60000 -> 2000 collapses):
 *         si peaks 70, 2; so peaks 300, 3
 * so "si, peak per iteration" is base n 2 mean (30 + 7) / 2 = 18.5 against
 * cand n 2 mean (70 + 2) / 2 = 36; so: (60 + 9) / 2 = 34.5 against
 * (300 + 3) / 2 = 151.5. */
static void pass_of(struct bl_ctx *ctx, const char *source, const char *text)
{
	assert_int_equal(bl_dispatch_open(ctx), 0);
	bl_dispatch_begin_unit(ctx, source, NULL);
	assert_int_equal(dispatch_text(ctx, text, strlen(text), 1), 0);
	assert_int_equal(bl_dispatch_end_unit(ctx), 0);
	bl_dispatch_close(ctx);
}

static void test_vmstat__ids_again_in_a_new_pass(void **state)
{
	(void)state;
	static const char *const label = " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n";
	static const char *const base[] = {
		" 0  0  20000  50000   1000  30000   10   20     0     0  100  200  1  1 98  0\n",
		" 0  0  40000  40000   1000  30000   30   60     0     0  100  200  1  1 98  0\n",
		" 0  0   1000  90000   1000  30000    5    0     0     0  100  200  1  1 98  0\n",
		" 0  0   3000  80000   1000  30000    7    9     0     0  100  200  1  1 98  0\n",
	};
	static const char *const cand[] = {
		" 0  0  30000  50000   1000  30000   50  100     0     0  100  200  1  1 98  0\n",
		" 0  0  60000  40000   1000  30000   70  300     0     0  100  200  1  1 98  0\n",
		" 0  0   2000  90000   1000  30000    1    2     0     0  100  200  1  1 98  0\n",
		" 0  0  50000  80000   1000  30000    2    3     0     0  100  200  1  1 98  0\n",
	};
	char *tb = bl_xasprintf("%s%s%s%s%s", label, base[0], base[1], base[2], base[3]);
	char *tc = bl_xasprintf("%s%s%s%s%s", label, cand[0], cand[1], cand[2], cand[3]);
	struct bl_opts po;
	bl_opts_init(&po);
	struct bl_analysis_opts ao = aopts(&po);
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &po);
	void *an = bl_analysis_vmstat.create(&ao);
	struct bl_sink sk = { bl_analysis_vmstat.record, NULL, NULL, an, false };
	bl_ctx_add_sink(&ctx, &sk);
	pass_of(&ctx, "base.txt", tb);
	pass_of(&ctx, "cand.txt", tc);
	assert_int_equal(bl_analysis_vmstat.finish(an), 0);

	const struct bl_vm_series_info *b = bl_vmstat_series(an, 0), *c = bl_vmstat_series(an, 1);
	assert_non_null(b);
	assert_non_null(c);
	assert_null(bl_vmstat_series(an, 2));
	assert_string_equal(b->group, "base");
	assert_string_equal(c->group, "cand");
	assert_int_equal(b->id, 1);
	assert_int_equal(c->id, 2);   /* numbered across passes (ctx->vmstat_series) */
	assert_int_equal(b->rows, 4);
	assert_int_equal(c->rows, 4);
	assert_int_equal(b->niteration, 2);
	assert_int_equal(c->niteration, 2);
	assert_true(bl_vmstat_iteration(an, 0, 1)->si_peak == 7);
	assert_true(bl_vmstat_iteration(an, 1, 0)->so_peak == 300);

	struct bl_compare_opts co = { NULL, 0.95, BL_CMP_WELCH, BL_TAB_TEXT, NULL, 0, false, 0 };
	struct bl_findings_opts fo = { &co, true, NULL, NULL, 0, false };
	struct bl_cmp_rows rows;
	memset(&rows, 0, sizeof rows);
	bl_analysis_vmstat.findings(an, &fo, &rows);
	int seen = 0;
	for (size_t i = 0; i < rows.n; i++) {
		const struct bl_cmp_row *w = &rows.row[i];
		if (strcmp(w->block, "peak per iteration") != 0)
			continue;
		assert_string_equal(w->baseline, "base");
		assert_string_equal(w->candidate, "cand");
		assert_int_equal(w->n_base, 2);
		assert_int_equal(w->n_cand, 2);
		if (strcmp(w->column, "si") == 0) {
			assert_true(w->mean_base == 18.5 && w->mean_cand == 36);
			seen |= 1;
		} else if (strcmp(w->column, "so") == 0) {
			assert_true(w->mean_base == 34.5 && w->mean_cand == 151.5);
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
	bl_compare_rows_free(&rows);
	bl_analysis_vmstat.destroy(an);
	bl_ctx_release(&ctx);
	free(tb);
	free(tc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat__seed000_series),
		cmocka_unit_test(test_vmstat__seed000_analysis),
		cmocka_unit_test(test_vmstat__since_boot_modes),
		cmocka_unit_test(test_vmstat__since_boot_contexts),
		cmocka_unit_test(test_vmstat__headers_come_back),
		cmocka_unit_test(test_vmstat__wrapped_header_and_rows),
		cmocka_unit_test(test_vmstat__timestamps),
		cmocka_unit_test(test_vmstat__interval_and_unit),
		cmocka_unit_test(test_vmstat__freebsd),
		cmocka_unit_test(test_vmstat__nontable_modes),
		cmocka_unit_test(test_vmstat__events_and_labels),
		cmocka_unit_test(test_vmstat__custom_patterns),
		cmocka_unit_test(test_vmstat__realworld_values),
		cmocka_unit_test(test_vmstat__seed000_charts),
		cmocka_unit_test(test_vmstat__header_repeat_not_again),
		cmocka_unit_test(test_vmstat__repaste_evidence),
		cmocka_unit_test(test_vmstat__capture_again),
		cmocka_unit_test(test_vmstat__capture_again_copy),
		cmocka_unit_test(test_vmstat__chart_time_back),
		cmocka_unit_test(test_vmstat__ids_again_in_a_new_pass),
	};
	return cmocka_run_group_tests_name("vmstat", tests, NULL, NULL);
}

/* test_contest.c — parsers/contest.c (Requirements 1-6 of its header) and
 * the "contest" analysis (analyze/contest.h C1-C3).
 *
 * Where expected values come from:
 *   - small inputs: typed by hand from the input line next to them;
 *   - seed 001: fixtures/contest/oracle.py (its own regex over the seed,
 *     Python's statistics module, Welch's test with mpmath's numerically
 *     integrated t distribution); the numbers below are its output;
 *   - realworld 01 and 03: the hand-computed values of shared/realworld/
 *     LOG.md (copied into fixtures/contest/README.md).
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
#include "analyze/contest.h"
#include "core/ctx.h"
#include "parsers/dispatch.h"
#include "tests/dispatch_text.h"
#include "core/util.h"
#include "parsers/contest.h"
#include "plot/plot.h"

/* ---- a collecting sink ------------------------------------------------ */

struct rec {
	const struct bl_table_def *t;
	unsigned long line;
	int quoted;
	char *group;
	long run;
	struct bl_val v[16];
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
	x->run = r->run;
	for (size_t i = 0; i < r->table->ncols && i < 16; i++) {
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
		for (size_t k = 0; k < 16; k++)
			if (c->r[i].v[k].t == BL_STR)
				free((char *)c->r[i].v[k].u.s);
	}
	free(c->r);
	memset(c, 0, sizeof *c);
}

/* Records of table t only, in order. */
static size_t only(const struct recs *c, const struct bl_table_def *t, const struct rec **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->r[i].t == t && n < max)
			out[n++] = &c->r[i];
	return n;
}

struct run {
	struct recs recs;
	struct bl_ctx ctx;
	struct bl_contest *an;        /* the analysis, when asked for */
	char *diag;
	size_t diaglen;
	FILE *diagf;
};

static struct bl_analysis_opts aopts(const char *baseline)
{
	struct bl_analysis_opts o;
	memset(&o, 0, sizeof o);
	o.confidence = 0.95;
	o.baseline = baseline;
	o.target_s = NAN;
	return o;
}

extern const struct bl_analysis bl_analysis_contest;

/* Parse text as the unit "t.txt" (a file stem of "t"); warnings go to
 * run->diag. With ao, the analysis gets the records too. */
static void parse_as(struct run *run, const char *source, const char *text,
		     const struct bl_analysis_opts *ao)
{
	memset(run, 0, sizeof *run);
	bl_ctx_init(&run->ctx, NULL);
	run->diagf = open_memstream(&run->diag, &run->diaglen);
	run->ctx.diag = run->diagf;
	struct bl_sink s = { rec_record, NULL, NULL, &run->recs, true };
	bl_ctx_add_sink(&run->ctx, &s);
	if (ao) {
		run->an = bl_analysis_contest.create(ao);
		struct bl_sink a = { bl_analysis_contest.record, NULL, NULL, run->an, false };
		bl_ctx_add_sink(&run->ctx, &a);
	}
	assert_int_equal(bl_dispatch_open(&run->ctx), 0);
	bl_dispatch_begin_unit(&run->ctx, source, NULL);
	assert_int_equal(dispatch_text(&run->ctx, text, strlen(text), 1), 0);
	assert_int_equal(bl_dispatch_end_unit(&run->ctx), 0);
	bl_dispatch_close(&run->ctx);
	fflush(run->diagf);
}

static void parse(struct run *run, const char *text)
{
	parse_as(run, "t.txt", text, NULL);
}

static void run_free(struct run *run)
{
	if (run->an)
		bl_analysis_contest.destroy(run->an);
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
	return b.data;
}

static double num(const struct rec *r, int col)
{
	if (r->v[col].t == BL_NUM)
		return r->v[col].u.d;
	if (r->v[col].t == BL_INT)
		return (double)r->v[col].u.i;
	return NAN;
}

static bool is_null(const struct rec *r, int col)
{
	return r->v[col].t == BL_NULL;
}

static const char *str(const struct rec *r, int col)
{
	return r->v[col].t == BL_STR ? r->v[col].u.s : NULL;
}

/* The seed-001 record noload, run 1 (seed line 9-10), every field. */
static void assert_seed_noload(const struct rec *r)
{
	assert_ptr_equal(r->t, &bl_table_contest);
	assert_string_equal(str(r, CT_LOAD), "noload");
	assert_true(num(r, CT_TIME_S) == 18.82);
	assert_true(num(r, CT_CPU_PCT) == 171);
	assert_int_equal(r->v[CT_LOAD_RUNS].t, BL_INT);
	assert_true(num(r, CT_LOAD_RUNS) == 0);
	assert_true(num(r, CT_LOAD_CPU_PCT) == 0);
	assert_true(num(r, CT_MAJOR_FAULTS) == 368526);
	assert_true(num(r, CT_MINOR_FAULTS) == 181377);
	assert_true(is_null(r, CT_NOTE));
}

/* ---- Requirement 1: log lines ------------------------------------------ */

static void test_contest__v034_line(void **state)
{
	(void)state;
	struct run run;
	/* FORMATS.md §4, v0.34 */
	parse(&run, "noload Time: 69.88  CPU: 99%  Major Faults: 247874  Minor Faults: 295941\n");
	assert_int_equal(run.recs.n, 1);
	const struct rec *r = &run.recs.r[0];
	assert_string_equal(str(r, CT_LOAD), "noload");
	assert_true(num(r, CT_TIME_S) == 69.88);
	assert_true(num(r, CT_CPU_PCT) == 99);
	assert_true(is_null(r, CT_LOAD_RUNS));
	assert_true(is_null(r, CT_LOAD_CPU_PCT));
	assert_true(num(r, CT_MAJOR_FAULTS) == 247874);
	assert_true(num(r, CT_MINOR_FAULTS) == 295941);
	assert_int_equal(r->line, 1);
	assert_string_equal(r->group, "t");
	assert_int_equal(r->run, 1);
	assert_int_equal(run.ctx.lines_used, 1);
	run_free(&run);
}

static void test_contest__loadcpu_with_and_without_percent(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "noload Time: 81.95  CPU: 98%  LoadRuns: 0  LoadCPU%: 0\n"
	      "process_load Time: 267.85  CPU: 29%  LoadRuns: 422  LoadCPU%: 70%\n");
	assert_int_equal(run.recs.n, 2);
	assert_true(num(&run.recs.r[0], CT_LOAD_CPU_PCT) == 0);
	assert_true(num(&run.recs.r[1], CT_LOAD_CPU_PCT) == 70);
	assert_true(num(&run.recs.r[1], CT_LOAD_RUNS) == 422);
	/* Nov 2002 variant: no fault counts */
	assert_true(is_null(&run.recs.r[0], CT_MAJOR_FAULTS));
	assert_true(is_null(&run.recs.r[1], CT_MINOR_FAULTS));
	assert_int_equal(run.ctx.lines_used, 2);
	assert_int_equal(bl_warn_total(&run.ctx), 0);
	run_free(&run);
}

static void test_contest__load_names(void **state)
{
	(void)state;
	static const char *const ok[] = {
		"noload", "no_load", "cacherun", "process_load", "ctar_load", "xtar_load", "io_load",
		"io_other", "io_halfmem", "io_fullmem", "read_load", "list_load", "mem_load",
		"dbench_load", "tarc_load", "x2_load",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char *t = bl_xasprintf("%s Time: 10.5  CPU: 50%%  LoadRuns: 1  LoadCPU%%: 5%%  "
				       "Major Faults: 1  Minor Faults: 2\n", ok[i]);
		struct run run;
		parse(&run, t);
		assert_int_equal(run.recs.n, 1);
		assert_string_equal(str(&run.recs.r[0], CT_LOAD), ok[i]);
		run_free(&run);
		free(t);
	}
	/* Not loads: capitals, no "_load", "Time" not second. */
	static const char *const no[] = {
		"Noload Time: 10.5  CPU: 50%\n", "compile Time: 10.5  CPU: 50%\n",
		"noload time: 10.5  CPU: 50%\n", "_load Time: 10.5  CPU: 50%\n",
		"noload Time is what we measured: 10.5\n",
	};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		struct run run;
		parse(&run, no[i]);
		assert_int_equal(run.recs.n, 0);
		assert_int_equal(run.ctx.lines_used, 0);
		run_free(&run);
	}
}

/* ---- Requirement 2: wrapping ------------------------------------------- */

/* The seed's first record cut at every token boundary (two and three
 * physical lines), with one or two spaces, trailing blanks on the broken
 * line or not: always the same record, every line used. */
static void test_contest__wrapped_anywhere(void **state)
{
	(void)state;
	static const char *const tok[] = {
		"noload", "Time:", "18.82", "CPU:", "171%", "LoadRuns:", "0", "LoadCPU%:", "0",
		"Major", "Faults:", "368526", "Minor", "Faults:", "181377",
	};
	const size_t nt = sizeof tok / sizeof tok[0];
	size_t cases = 0;
	for (int sp = 1; sp <= 2; sp++)
		for (int trail = 0; trail <= 1; trail++)
			for (size_t a = 2; a < nt; a++)
				for (size_t b = a; b < nt; b++) {
					struct bl_buf t = BL_BUF_INIT(0);
					for (size_t i = 0; i < nt; i++) {
						if (i == a || (b > a && i == b)) {
							bl_buf_add(&t, trail ? "  \n" : "\n", trail ? 3 : 1);
						} else if (i) {
							bl_buf_add(&t, "  ", (size_t)sp);
						}
						bl_buf_add(&t, tok[i], strlen(tok[i]));
					}
					bl_buf_add(&t, "\n", 1);
					struct run run;
					parse(&run, t.data);
					assert_int_equal(run.recs.n, 1);
					assert_seed_noload(&run.recs.r[0]);
					assert_int_equal(run.recs.r[0].line, 1);
					assert_int_equal(run.ctx.lines_used, b > a ? 3 : 2);
					assert_int_equal(run.ctx.lines_skipped, 0);
					assert_int_equal(bl_warn_total(&run.ctx), 0);
					run_free(&run);
					bl_buf_release(&t);
					cases++;
				}
	assert_int_equal(cases, 2 * 2 * (13 + 13 * 12 / 2));
}

/* A record without faults is complete when the next line does not go on
 * with it: a new record, a blank line, prose, a note, the end. */
static void test_contest__no_faults_record_ends_at_next_line(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "noload Time: 81.95  CPU: 98%  LoadRuns: 0  LoadCPU%: 0\n"           /* 1: record follows */
	      "io_load Time: 166.20  CPU: 49%  LoadRuns: 44  LoadCPU%: 23%\n"       /* 2: note follows */
	      "Was writing number 4 of a 112Mb sized io_load file after 90 seconds\n"
	      "read_load Time: 111.2  CPU: 79%  LoadRuns: 34  LoadCPU%: 14%\n"      /* 4: prose follows */
	      "That was all.\n"
	      "list_load Time: 96.7  CPU: 85%  LoadRuns: 0  LoadCPU%: 8%\n"         /* 6: blank follows */
	      "\n"
	      "mem_load Time: 126.3  CPU: 66%  LoadRuns: 77  LoadCPU%: 3%\n");      /* 8: the end */
	assert_int_equal(run.recs.n, 5);
	static const unsigned long lines[] = { 1, 2, 4, 6, 8 };
	static const double times[] = { 81.95, 166.20, 111.2, 96.7, 126.3 };
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(run.recs.r[i].line, lines[i]);
		assert_true(num(&run.recs.r[i], CT_TIME_S) == times[i]);
	}
	assert_string_equal(str(&run.recs.r[1], CT_NOTE),
			    "Was writing number 4 of a 112Mb sized io_load file after 90 seconds");
	assert_int_equal(run.ctx.lines_used, 6);
	assert_int_equal(run.ctx.lines_skipped, 2);   /* prose, blank */
	assert_int_equal(bl_warn_total(&run.ctx), 0);
	run_free(&run);
}

/* A record cut inside a field group is taken with a warning; one without
 * a Time value is skipped. */
static void test_contest__cut_records(void **state)
{
	(void)state;
	struct run run;
	parse(&run, "io_load Time: 90.00  CPU: 80%  Major Faults:\n\nlist_load Time:\n");
	assert_int_equal(run.recs.n, 1);
	assert_true(num(&run.recs.r[0], CT_TIME_S) == 90);
	assert_true(is_null(&run.recs.r[0], CT_MAJOR_FAULTS));
	assert_int_equal(bl_warn_total(&run.ctx), 2);
	assert_non_null(strstr(run.diag, "t.txt:1: contest: io_load record cut short after \"Faults:\""));
	assert_non_null(strstr(run.diag, "t.txt:3: contest: list_load record has no Time value"));
	assert_int_equal(run.ctx.lines_used, 1);
	assert_int_equal(run.ctx.lines_skipped, 2);
	run_free(&run);
}

/* A wrapped record whose continuation is not the rest of it. */
static void test_contest__continuation_that_is_not_ours(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "noload Time: 18.82  CPU: 171%  LoadRuns: 0  LoadCPU%: 0  Major Faults:\n"
	      "see the attached file\n"
	      "368526  Minor Faults: 181377\n");
	assert_int_equal(run.recs.n, 1);
	assert_true(is_null(&run.recs.r[0], CT_MAJOR_FAULTS));
	assert_int_equal(bl_warn_total(&run.ctx), 1);
	assert_int_equal(run.ctx.lines_used, 1);
	assert_int_equal(run.ctx.lines_skipped, 2);
	run_free(&run);
}

/* ---- Requirement 3: notes ---------------------------------------------- */

static void test_contest__notes(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "Was writing number 1 of a 112Mb sized io_load file after 10 seconds\n"
	      "io_halfmem Time: 81.26  CPU: 90%  Major Faults: 204019  Minor Faults: 255325\n"
	      "Was writing number 4 of a 112Mb sized io_load file after 90 seconds\n"
	      "Was writing number 5 of a 112Mb sized io_load \n"
	      "file after 95 seconds\n"
	      "mem_load Time: 95.00  CPU: 85%  Major Faults: 1  Minor Faults: 2\n");
	assert_int_equal(run.recs.n, 2);
	assert_string_equal(str(&run.recs.r[0], CT_NOTE),
			    "Was writing number 4 of a 112Mb sized io_load file after 90 seconds; "
			    "Was writing number 5 of a 112Mb sized io_load file after 95 seconds");
	assert_true(is_null(&run.recs.r[1], CT_NOTE));
	assert_int_equal(run.ctx.lines_used, 5);
	assert_int_equal(run.ctx.lines_skipped, 1);
	assert_int_equal(run.ctx.nskips, 1);
	assert_string_equal(run.ctx.skips[0].reason, "contest note without a record");
	run_free(&run);
}

/* ---- quoting, groups, runs (Requirement 4) ----------------------------- */

static void test_contest__quoting_groups_runs(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "> Default tunables\n"
	      "> noload Time: 18.82 CPU: 171% LoadRuns: 0 LoadCPU%: 0 Major Faults:\n"
	      "> 368526 Minor Faults: 181377\n"
	      "> > process_load Time: 25.12  CPU: 125%  LoadRuns: 18  LoadCPU%: 74%  \n"
	      "> > Major Faults: 368526  Minor Faults: 181375\n"
	      ">>noload Time: 18.67 CPU: 171% LoadRuns: 0 LoadCPU%: 0 Major Faults: 368527 Minor Faults: 181378\n"
	      "\n"
	      "2.5.52-mm2\n"
	      "noload Time: 18.56 CPU: 172% LoadRuns: 0 LoadCPU%: 0 Major Faults: 368528 Minor Faults: 181376\n"
	      "noload Time: 18.62 CPU: 172% LoadRuns: 0 LoadCPU%: 0 Major Faults: 368528 Minor Faults: 181384\n");
	assert_int_equal(run.recs.n, 5);
	static const int quoted[] = { 1, 2, 2, 0, 0 };
	static const char *const group[] = {
		"Default tunables", "Default tunables", "Default tunables", "2.5.52-mm2", "2.5.52-mm2",
	};
	static const long runs[] = { 1, 1, 2, 1, 2 };
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(run.recs.r[i].quoted, quoted[i]);
		assert_string_equal(run.recs.r[i].group, group[i]);
		assert_int_equal(run.recs.r[i].run, runs[i]);
	}
	assert_seed_noload(&run.recs.r[0]);
	run_free(&run);
}

/* ---- Requirement 5: report tables ---------------------------------------- */

static void test_contest__report_2002_and_2003(void **state)
{
	(void)state;
	struct run run;
	/* The FORMATS.md §4 samples, quoted as they are in replies. */
	parse(&run,
	      "> > xtar_load:\n"
	      "> > Kernel [runs]           Time    CPU%    Loads   LCPU%   Ratio\n"
	      "> > 2.4.18 [3]              150.8   49      2       8       2.06\n"
	      "> > 2.4.20-rc1aa1 [2]       41.0    49      0       0       inf\n"
	      "> >\n"
	      ">>no_load:\n"
	      ">>Kernel          [runs]  Time    CPU%    Loads   LCPU%   Ratio\n"
	      ">>2.6.0-test4          1  80      93.8    0.0     0.0     1.00\n"
	      ">>process_load:\n"
	      ">>Kernel          [runs]  Time    CPU%    Loads   LCPU%   Ratio\n"
	      ">>2.6.0-test4          2  108     69.4    64.0    28.7    1.35\n");
	const struct rec *r[8] = { 0 };
	assert_int_equal(only(&run.recs, &bl_table_contest_report, r, 8), 4);
	assert_int_equal(run.recs.n, 4);
	assert_string_equal(str(r[0], CR_LOAD), "xtar_load");
	assert_string_equal(str(r[0], CR_KERNEL), "2.4.18");
	assert_true(num(r[0], CR_RUNS) == 3);
	assert_true(num(r[0], CR_TIME_S) == 150.8);
	assert_true(num(r[0], CR_CPU_PCT) == 49);
	assert_true(num(r[0], CR_LOADS) == 2);
	assert_true(num(r[0], CR_LOAD_CPU_PCT) == 8);
	assert_true(num(r[0], CR_RATIO) == 2.06);
	assert_true(is_null(r[0], CR_CPU_PLUS_LCPU_PCT));
	assert_true(isinf(num(r[1], CR_RATIO)));
	assert_true(num(r[1], CR_RUNS) == 2);
	assert_string_equal(str(r[2], CR_LOAD), "no_load");
	assert_string_equal(str(r[2], CR_KERNEL), "2.6.0-test4");
	assert_true(num(r[2], CR_RUNS) == 1);
	assert_true(num(r[2], CR_TIME_S) == 80);
	assert_true(num(r[2], CR_CPU_PCT) == 93.8);
	assert_true(num(r[2], CR_RATIO) == 1);
	assert_string_equal(str(r[3], CR_LOAD), "process_load");
	assert_true(num(r[3], CR_LOADS) == 64);
	assert_true(num(r[3], CR_LOAD_CPU_PCT) == 28.7);
	assert_true(num(r[3], CR_RATIO) == 1.35);
	assert_int_equal(r[0]->quoted, 2);
	assert_int_equal(r[2]->quoted, 2);
	assert_int_equal(run.ctx.lines_used, 10);
	assert_int_equal(run.ctx.lines_skipped, 1);
	run_free(&run);
}

/* Keyed on the header text: columns in another order are read by name. */
static void test_contest__report_columns_by_header_text(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "io_load:\n"
	      "Kernel   Ratio  CPU+LCPU%  Time  CPU%\n"
	      "2.6.4    1.49   83.9       119   64.7\n");
	assert_int_equal(run.recs.n, 1);
	const struct rec *r = &run.recs.r[0];
	assert_true(is_null(r, CR_RUNS));
	assert_true(num(r, CR_RATIO) == 1.49);
	assert_true(num(r, CR_CPU_PLUS_LCPU_PCT) == 83.9);
	assert_true(num(r, CR_TIME_S) == 119);
	assert_true(num(r, CR_CPU_PCT) == 64.7);
	assert_true(is_null(r, CR_LOADS));
	run_free(&run);
}

/* A title no header follows is given back (bl_unuse); a header with an
 * unknown word is not a header. */
static void test_contest__title_without_table(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "mem_load:\n"
	      "Nothing to report.\n"
	      "io_load:\n"
	      "Kernel [runs] Time Swaps\n"
	      "ck5 [1] 100 7\n");
	assert_int_equal(run.recs.n, 0);
	assert_int_equal(run.ctx.lines_used, 0);
	assert_int_equal(run.ctx.lines_skipped, 5);
	run_free(&run);
}

/* ---- Requirement 6 --------------------------------------------------- */

static void test_contest__bad_values(void **state)
{
	(void)state;
	struct run run;
	parse(&run,
	      "noload Time: 1x.5  CPU: 99%  Major Faults: 247874  Minor Faults: 295941\n"
	      "noload Time: 70.1  CPU: 99%  Major Faults: 99999999999999999999  Minor Faults: 1\n"
	      "mem_load Time: 95.00  CPU: 85%  Major Faults: 1  Minor Faults: 2  (aborted)\n");
	assert_int_equal(run.recs.n, 1);
	assert_string_equal(str(&run.recs.r[0], CT_NOTE), "(aborted)");
	assert_non_null(strstr(run.diag, "t.txt:1: contest: Time value \"1x.5\" is not a number"));
	assert_non_null(strstr(run.diag, "t.txt:2: contest: Major Faults value \"99999999999999999999\" is out of range"));
	assert_non_null(strstr(run.diag, "t.txt:3: contest: text after the record kept in note: \"(aborted)\""));
	assert_int_equal(bl_warn_total(&run.ctx), 3);
	run_free(&run);
}

/* ---- real inputs ------------------------------------------------------ */

static void test_contest__seed001_records(void **state)
{
	(void)state;
	char *text = slurp("fixtures/seeds/001_07df0cd7d9b0f35d.txt");
	struct run run;
	parse_as(&run, "001_07df0cd7d9b0f35d.txt", text, NULL);
	const struct rec *r[64] = { 0 };
	size_t n = only(&run.recs, &bl_table_contest, r, 64);
	assert_int_equal(n, 48);
	assert_seed_noload(r[0]);
	for (size_t i = 0; i < 48; i++) {
		assert_string_equal(r[i]->group, i < 24 ? "Default tunables" : "Tweaked tunables");
		assert_int_equal(r[i]->run, (long)(i % 24) / 8 + 1);
		assert_int_equal(r[i]->quoted, 0);
	}
	assert_string_equal(str(r[47], CT_LOAD), "mem_load");
	assert_true(num(r[47], CT_TIME_S) == 51.10);
	run_free(&run);
	free(text);
}

/* shared/realworld/LOG.md, row 01. */
static void test_contest__realworld01_log_values(void **state)
{
	(void)state;
	char *text = slurp("fixtures/contest/01-contest-raw-wrapped-histogram-bashtime.txt");
	struct run run;
	parse_as(&run, "01.txt", text, NULL);
	const struct rec *r[64] = { 0 };
	size_t n = only(&run.recs, &bl_table_contest, r, 64);
	assert_int_equal(n, 48);
	assert_seed_noload(r[0]);
	double tmax = 0, lmax = 0;
	const char *tmax_load = NULL;
	for (size_t i = 0; i < n; i++) {
		if (num(r[i], CT_TIME_S) > tmax) {
			tmax = num(r[i], CT_TIME_S);
			tmax_load = str(r[i], CT_LOAD);
		}
		if (num(r[i], CT_LOAD_RUNS) > lmax)
			lmax = num(r[i], CT_LOAD_RUNS);
	}
	assert_true(tmax == 73.84);
	assert_string_equal(tmax_load, "ctar_load");
	assert_true(lmax == 1147);
	run_free(&run);
	free(text);
}

/* shared/realworld/LOG.md, row 03. */
static void test_contest__realworld03_log_values(void **state)
{
	(void)state;
	char *text = slurp("fixtures/contest/03-contest-old-format-tabs-wrapped.txt");
	struct run run;
	parse_as(&run, "03.txt", text, NULL);
	const struct rec *r[32] = { 0 };
	assert_int_equal(only(&run.recs, &bl_table_contest, r, 32), 10);
	assert_string_equal(r[0]->group, "WITH EXT2");
	assert_true(num(r[0], CT_TIME_S) == 259.47 && num(r[0], CT_CPU_PCT) == 99);
	assert_true(num(r[0], CT_MAJOR_FAULTS) == 770937 && num(r[0], CT_MINOR_FAULTS) == 1173705);
	assert_string_equal(str(r[1], CT_LOAD), "process_load");
	assert_true(num(r[1], CT_MINOR_FAULTS) == 1169516);
	assert_string_equal(r[7]->group, "WITH EXT3");
	assert_string_equal(str(r[7], CT_LOAD), "io_halfmem");
	assert_true(num(r[7], CT_TIME_S) == 461.74 && num(r[7], CT_CPU_PCT) == 57);
	size_t notes = 0;
	for (size_t i = 0; i < 10; i++)
		notes += str(r[i], CT_NOTE) != NULL;
	assert_int_equal(notes, 4);
	const struct rec *t[16] = { 0 };
	assert_int_equal(only(&run.recs, &bl_table_contest_report, t, 16), 8);
	assert_string_equal(str(t[6], CR_LOAD), "io full mem");
	run_free(&run);
	free(text);
}

/* ---- the analysis ------------------------------------------------------ */

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static char *write_section(struct bl_contest *c, enum bl_doc_format fmt)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_int_equal(bl_analysis_contest.write(c, f, fmt, NULL, 0), 0);
	fclose(f);
	return out;
}

/* Seed 001 against fixtures/contest/oracle.py. */
static void test_contest__seed001_statistics(void **state)
{
	(void)state;
	char *text = slurp("fixtures/seeds/001_07df0cd7d9b0f35d.txt");
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "001_07df0cd7d9b0f35d.txt", text, &ao);
	struct bl_contest *c = run.an;
	/* the seed: 2 settings, each run 3 times through 8 loads = 48 records */
	char *s = write_section(c, BL_DOC_TEXT);
	assert_non_null(strstr(s, "48 ConTest records of 8 loads in 2 groups "
				  "(Default tunables: 3 runs; Tweaked tunables: 3 runs)."));
	free(s);
	/* loads in the order the seed first lists them */
	size_t noload = 0, ctar = 2, rd = 5, mem = 7;

	/* oracle: Default tunables|noload|time_s|n=3|mean=18.6833333333|sd=0.130511813003|min=18.56|max=18.82 */
	const struct bl_welford *w = bl_contest_cell(c, 0, noload, BL_CM_TIME);
	assert_non_null(w);
	assert_int_equal(w->n, 3);
	NEAR(bl_welford_mean(w), 18.6833333333, 1e-9);
	NEAR(bl_welford_sd(w), 0.130511813003, 1e-11);
	assert_true(w->min == 18.56 && w->max == 18.82);
	/* oracle: Default tunables|mem_load|time_s|mean=44.7366666667 ratio=2.39446922391 */
	NEAR(bl_welford_mean(bl_contest_cell(c, 0, mem, BL_CM_TIME)), 44.7366666667, 1e-9);
	NEAR(bl_contest_ratio(c, 0, mem), 2.39446922391, 1e-10);
	NEAR(bl_contest_ratio(c, 0, noload), 1, 0);
	/* oracle: Default tunables|mem_load|minor_faults|mean=183013.666667 sd=1437.87…:
	 * (183364 + 184244 + 181433) / 3 by hand = 183013.667 */
	NEAR(bl_welford_mean(bl_contest_cell(c, 0, mem, BL_CM_MINOR)), 549041.0 / 3, 1e-6);
	/* cpu of default noload: (171 + 171 + 172) / 3 */
	NEAR(bl_welford_mean(bl_contest_cell(c, 0, noload, BL_CM_CPU)), 514.0 / 3, 1e-12);
	/* oracle: Tweaked tunables|read_load|time_s|mean=22.3433333333; Default 30.78 */
	NEAR(bl_welford_mean(bl_contest_cell(c, 1, rd, BL_CM_TIME)), 22.3433333333, 1e-9);
	NEAR(bl_welford_mean(bl_contest_cell(c, 0, rd, BL_CM_TIME)), 30.78, 1e-12);
	/* ctar_load in the tweaked runs spans 23.68 .. 73.84 */
	w = bl_contest_cell(c, 1, ctar, BL_CM_TIME);
	assert_true(w->min == 23.68 && w->max == 73.84);

	bool found;
	assert_int_equal(bl_contest_baseline(c, &found), 0);
	assert_true(found);
	run_free(&run);
	free(text);
}

/* The text section: contest -r rows (hand-rounded from the oracle's means:
 * noload 18.683 -> 18.7, CPU 171.33 -> 171, ratio 1.00; read_load tweaked
 * 22.343 -> 22.3, CPU (141+137+147)/3 = 141.67 -> 142, Loads
 * (312+517+424)/3 = 417.67 -> 418, LCPU (44+63+57)/3 = 54.67 -> 55, ratio
 * 1.19122 -> 1.19); the groups' comparison is the Findings' (C3). */
static void test_contest__seed001_text(void **state)
{
	(void)state;
	char *text = slurp("fixtures/seeds/001_07df0cd7d9b0f35d.txt");
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "001_07df0cd7d9b0f35d.txt", text, &ao);
	char *s = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(s, "noload:\nKernel [runs]           Time    CPU%    Loads   LCPU%   Ratio\n"
				  "Default tunables [3]    18.7    171     0       0       1.00\n"));
	assert_non_null(strstr(s, "Tweaked tunables [3]    22.3    142     418     55      1.19\n"));
	/* C3: no test of its own, no words of its own */
	assert_non_null(strstr(s, "Each group is compared with \"Default tunables\" (baseline)"));
	assert_null(strstr(s, "significant"));
	assert_null(strstr(s, "shorter"));
	assert_non_null(strstr(s, "noload         time_s           3       18.683        0.131        18.56        18.82    1.00\n"));
	free(s);
	s = write_section(run.an, BL_DOC_MD);
	assert_non_null(strstr(s, "are the rows of the Findings"));
	assert_null(strstr(s, "| read\\_load | 30.780"));
	assert_non_null(strstr(s, "```\nnoload:\n"));
	free(s);
	run_free(&run);
	free(text);
}

/* --baseline: the tweaked group as baseline is named so; an unknown name
 * falls back to the first group and says so. */
static void test_contest__baseline_option(void **state)
{
	(void)state;
	char *text = slurp("fixtures/seeds/001_07df0cd7d9b0f35d.txt");
	struct run run;
	struct bl_analysis_opts ao = aopts("Tweaked tunables");
	parse_as(&run, "001.txt", text, &ao);
	bool found;
	assert_int_equal(bl_contest_baseline(run.an, &found), 1);
	char *t = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(t, "compared with \"Tweaked tunables\" (baseline)"));
	free(t);
	run_free(&run);
	ao = aopts("2.6.0");
	parse_as(&run, "001.txt", text, &ao);
	assert_int_equal(bl_contest_baseline(run.an, &found), 0);
	assert_false(found);
	char *s = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(s, "No group is named \"2.6.0\"; the baseline is the first group."));
	free(s);
	run_free(&run);
	free(text);
}

/* A group without a no-load run has no ratio (C2). */
static void test_contest__too_few_runs(void **state)
{
	(void)state;
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "t.txt",
		 "A\n"
		 "noload Time: 10.0  CPU: 99%\n"
		 "noload Time: 10.2  CPU: 99%\n"
		 "B\n"
		 "noload Time: 20.0  CPU: 99%\n"
		 "noload Time: 20.4  CPU: 99%\n", &ao);
	char *s = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(s, "in 2 groups (A: 2 runs; B: 2 runs)."));
	free(s);
	run_free(&run);
	/* C2: a group without a no-load run has no ratio; contest -r shows "-". */
	parse_as(&run, "t.txt", "io_load Time: 30.0  CPU: 99%\n", &ao);
	assert_true(isnan(bl_contest_ratio(run.an, 0, 0)));
	s = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(s, "t [1]                   30.0    99      -       -       -\n"));
	free(s);
	run_free(&run);
}

/* Quoted records are left out of the analysis unless asked for. */
static void test_contest__quoted_left_out(void **state)
{
	(void)state;
	const char *t = "> noload Time: 10.0  CPU: 99%\nnoload Time: 12.0  CPU: 99%\n";
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "t.txt", t, &ao);
	const struct bl_welford *w = bl_contest_cell(run.an, 0, 0, BL_CM_TIME);
	assert_int_equal(w->n, 1);
	assert_true(w->mean == 12.0);
	char *s = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(s, "1 quoted record (mail replies) left out"));
	free(s);
	run_free(&run);
	ao.include_quoted = true;
	parse_as(&run, "t.txt", t, &ao);
	assert_int_equal(bl_contest_cell(run.an, 0, 0, BL_CM_TIME)->n, 2);
	run_free(&run);
}

/* Posted report tables alone still make a section. */
static void test_contest__report_rows_in_section(void **state)
{
	(void)state;
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "t.txt",
		 "xtar_load:\n"
		 "Kernel [runs]           Time    CPU%    Loads   LCPU%   Ratio\n"
		 "2.4.18 [3]              150.8   49      2       8       2.06\n"
		 "2.4.20-rc1aa1 [2]       41.0    49      0       0       inf\n", &ao);
	assert_true(bl_analysis_contest.has_data(run.an));
	char *s = write_section(run.an, BL_DOC_TEXT);
	assert_non_null(strstr(s, "xtar_load:\nKernel [runs]           Time    CPU%    Loads   LCPU%   Ratio\n"
				  "2.4.18 [3]              150.8   49      2       8       2.06\n"
				  "2.4.20-rc1aa1 [2]       41      49      0       0       inf\n"));
	free(s);
	run_free(&run);
}

/* The chart's ratios are C2's (one number, one place): the spec the
 * analysis hands plot/ carries bl_contest_ratio() per cell and the no-load
 * load's index, where plot/ found the load by name and divided again.
 * no_load comes second; by hand: A no_load (20 + 22) / 2 = 21, mem_load
 * (42 + 44) / 2 = 43: 43 / 21 = 2.0476190476; B no_load 10, mem_load 30:
 * 3; B has no io_load run (no ratio), A's io_load 31 / 21 = 1.4761904762. */
static void test_contest__chart_ratio_c2(void **state)
{
	(void)state;
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "t.txt",
		 "A\n"
		 "mem_load Time: 42.0  CPU: 99%\nno_load Time: 20.0  CPU: 99%\n"
		 "mem_load Time: 44.0  CPU: 99%\nno_load Time: 22.0  CPU: 99%\n"
		 "io_load Time: 31.0  CPU: 99%\n"
		 "B\n"
		 "mem_load Time: 30.0  CPU: 99%\nno_load Time: 10.0  CPU: 99%\n", &ao);
	struct bl_chart_spec *sp = NULL;
	size_t n = 0;
	assert_int_equal(bl_analysis_contest.charts(run.an, &sp, &n), 0);
	assert_int_equal(n, 1);
	const struct bl_contest_plot *in = &sp[0].in.contest;
	assert_int_equal(in->nloads, 3);
	assert_int_equal(in->ngroups, 2);
	assert_int_equal(in->baseline, 1);
	assert_string_equal(in->loads[in->baseline], "no_load");
	static const double want[3][2] = { { 43.0 / 21, 3 }, { 1, 1 }, { 31.0 / 21, NAN } };
	for (size_t l = 0; l < 3; l++)
		for (size_t g = 0; g < 2; g++) {
			double r = in->cells[l * 2 + g].ratio;
			if (isnan(want[l][g])) {
				assert_true(isnan(r) && isnan(bl_contest_ratio(run.an, g, l)));
				continue;
			}
			NEAR(r, want[l][g], 1e-12);
			assert_true(r == bl_contest_ratio(run.an, g, l));
		}
	bl_chart_specs_free(sp, n);
	run_free(&run);
}

/* The chart: script, data and image; the data file holds the means and
 * the sd bars of seed 001 (oracle: Default noload 18.6833 ± 0.1305). */
static void test_contest__chart(void **state)
{
	(void)state;
	if (!bl_gp_available())
		skip();
	char *text = slurp("fixtures/seeds/001_07df0cd7d9b0f35d.txt");
	struct run run;
	struct bl_analysis_opts ao = aopts(NULL);
	parse_as(&run, "001.txt", text, &ao);
	char dir[] = "/tmp/test_contest.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct bl_chart_opts co = { dir, BL_PLOT_PNG, false, { 0, NULL } };
	struct bl_chart *ch = NULL;
	size_t nch = 0;
	assert_int_equal(bl_analysis_draw(&bl_analysis_contest, run.an, &co, &ch, &nch, stderr, NULL), 0);
	assert_int_equal(nch, 1);
	assert_string_equal(ch[0].name, "contest");
	bl_charts_free(ch, nch);
	char *png = bl_xasprintf("%s/contest.png", dir);
	struct stat st;
	assert_int_equal(stat(png, &st), 0);
	assert_true(st.st_size > 10000);
	char *dat = bl_xasprintf("%s/contest-1.dat", dir);
	FILE *f = fopen(dat, "r");
	assert_non_null(f);
	char line[512];
	double x, m1, lo1, hi1;
	bool seen = false;
	while (fgets(line, sizeof line, f))
		if (line[0] != '#' && sscanf(line, "%lf %lf %lf %lf", &x, &m1, &lo1, &hi1) == 4 && x == 0) {
			NEAR(m1, 18.6833333333, 1e-6);
			NEAR(hi1 - m1, 0.130511813003, 1e-6);
			seen = true;
		}
	fclose(f);
	assert_true(seen);
	const char *names[] = { "contest.png", "contest.gp", "contest-1.dat", "contest-2.dat" };
	for (size_t i = 0; i < 4; i++) {
		char *p = bl_xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
	free(png);
	free(dat);
	run_free(&run);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contest__v034_line),
		cmocka_unit_test(test_contest__loadcpu_with_and_without_percent),
		cmocka_unit_test(test_contest__load_names),
		cmocka_unit_test(test_contest__wrapped_anywhere),
		cmocka_unit_test(test_contest__no_faults_record_ends_at_next_line),
		cmocka_unit_test(test_contest__cut_records),
		cmocka_unit_test(test_contest__continuation_that_is_not_ours),
		cmocka_unit_test(test_contest__notes),
		cmocka_unit_test(test_contest__quoting_groups_runs),
		cmocka_unit_test(test_contest__report_2002_and_2003),
		cmocka_unit_test(test_contest__report_columns_by_header_text),
		cmocka_unit_test(test_contest__title_without_table),
		cmocka_unit_test(test_contest__bad_values),
		cmocka_unit_test(test_contest__seed001_records),
		cmocka_unit_test(test_contest__realworld01_log_values),
		cmocka_unit_test(test_contest__realworld03_log_values),
		cmocka_unit_test(test_contest__seed001_statistics),
		cmocka_unit_test(test_contest__seed001_text),
		cmocka_unit_test(test_contest__baseline_option),
		cmocka_unit_test(test_contest__too_few_runs),
		cmocka_unit_test(test_contest__quoted_left_out),
		cmocka_unit_test(test_contest__report_rows_in_section),
		cmocka_unit_test(test_contest__chart_ratio_c2),
		cmocka_unit_test(test_contest__chart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

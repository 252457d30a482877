/* test_table_stats.c — analyze/table_stats.h, compare.h, the tables'
 * definitions (R1-R7) and
 * outtab.h against values worked out elsewhere.
 *
 * Where the expected values come from (never from this code):
 *   [ref.py]  tests/stats-oracle/ref.py (python3 + mpmath, the t CDF by
 *             numerical integration): `python3 tests/stats-oracle/ref.py`
 *             prints the Welch and pooled lines quoted below.
 *   [hand]    worked out in the comment next to the value.
 *   [merge]   the property itself: a merged result must equal the
 *             one-pass result (n, min, max exactly; mean, sd to 1e-12
 *             relative; percentiles within the sketch's stated 1%).
 * The seed 001 ConTest times are those of /work/shared/seeds/001 (copied to
 * fixtures/seeds/001_07df0cd7d9b0f35d.txt).
 * Command-level checks against datamash and ministat are in
 * tests/e2e/stats-*.sh.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze/compare.h"
#include "analyze/outtab.h"
#include "analyze/stats.h"
#include "analyze/table_stats.h"
#include "core/ctx.h"
#include "parsers/parser.h"
#include "parsers/pass.h"

static void near_rel(double got, double want, double rel, const char *what, int line)
{
	double lim = want == 0.0 ? rel : rel * fabs(want);
	if (!(fabs(got - want) <= lim)) {
		print_error("line %d: %s: got %.17g, want %.17g (rel %g)\n", line, what, got, want, rel);
		fail();
	}
}
#define NEAR(got, want, rel) near_rel((got), (want), (rel), #got, __LINE__)

/* A file with the given contents in TMPDIR; the caller unlinks and frees. */
static char *tmpfile_with(const char *suffix, const char *text)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path = bl_xasprintf("%s/bl-tstats-XXXXXX%s", dir, suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Read a whole stream into a new string. */
static char *slurp(FILE *f)
{
	rewind(f);
	size_t cap = 4096, n = 0;
	char *s = bl_xmalloc(cap);
	size_t r;
	while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			s = bl_xrealloc(s, cap *= 2);
	}
	s[n] = '\0';
	return s;
}

struct fixture {
	struct bl_opts o;
	struct bl_ctx ctx;
	struct bl_tstats_opts so;
	struct bl_tstats *ts;
};

static void fx_init(struct fixture *fx)
{
	memset(fx, 0, sizeof *fx);
	bl_opts_init(&fx->o);
	bl_ctx_init(&fx->ctx, &fx->o);
	fx->ctx.diag = NULL;   /* warnings are counted, not printed */
}

static void fx_start(struct fixture *fx)
{
	fx->ts = bl_tstats_new(&fx->so, &fx->ctx);
}

static void fx_release(struct fixture *fx)
{
	bl_tstats_free(fx->ts);
	bl_ctx_release(&fx->ctx);
}

/* Index of the group whose key values are the given ones, or -1. */
static long find_group(struct bl_tstats *ts, size_t t, const char *k0, const char *k1)
{
	for (size_t g = 0; g < bl_tstats_ngroups(ts, t); g++) {
		if (strcmp(bl_tstats_gval(ts, t, g, 0), k0) != 0)
			continue;
		if (k1 && strcmp(bl_tstats_gval(ts, t, g, 1), k1) != 0)
			continue;
		return (long)g;
	}
	return -1;
}

/* ---- R1-R7: what the tables' definitions say -------------------------------- */

static const struct bl_col_def *coldef(const char *table, const char *column)
{
	const struct bl_table_def *t = bl_table_find(table);
	assert_non_null(t);
	const struct bl_col_def *c = bl_table_coldef(t, column);
	if (!c)
		fail_msg("%s has no column %s", table, column);
	return c;
}

/* The ConTest word for cpu_pct and ratio (docs/stats.md R1), the means
 * tables, split and compared columns, as docs/stats.md states them. */
static void test_table_stats__definition_facts(void **state)
{
	(void)state;
	assert_int_equal(coldef("contest", "cpu_pct")->better, BL_BETTER_HIGHER);
	assert_int_equal(coldef("time", "cpu_pct")->better, BL_BETTER_NONE);
	assert_int_equal(coldef("contest_report", "ratio")->better, BL_BETTER_LOWER);
	assert_int_equal(coldef("time", "elapsed_s")->better, BL_BETTER_LOWER);
	assert_int_equal(coldef("time", "major_faults")->better, BL_BETTER_LOWER);
	assert_int_equal(coldef("mtest01", "bytes_allocated")->better, BL_BETTER_HIGHER);
	assert_string_equal(coldef("time", "elapsed_s")->unit, "s");
	assert_string_equal(coldef("latency_series", "footer_max_us")->unit, "us");
	assert_int_equal(coldef("vmstat", "series")->role, BL_ROLE_ID);
	assert_int_equal(coldef("events", "series")->role, BL_ROLE_ID);
	assert_string_equal(bl_table_find("averages")->runs_col, "runs");
	assert_string_equal(bl_table_find("contest_report")->runs_col, "runs");
	assert_null(bl_table_find("time")->runs_col);
	assert_string_equal(bl_table_find("contest")->split_col, "load");
	assert_string_equal(bl_table_find("contest_report")->split_col, "load");
	assert_string_equal(bl_table_find("time")->split_col, "command");   /* runs of different programs apart */
	assert_null(bl_table_find("vmstat")->split_col);
	assert_string_equal(bl_table_find("contest_report")->group_col, "kernel");
	assert_string_equal(bl_table_find("time")->group_col, "group");
	assert_string_equal(bl_table_find("latency")->weight_col, "count");
	assert_null(bl_table_find("latency_series")->weight_col);
	/* every definition is complete: a group column it has (or "group"),
	 * split, runs and weight columns it has, a direction only on measures */
	for (size_t i = 0; bl_parsers[i]; i++)
		for (const struct bl_table_def *const *t = bl_parsers[i]->tables; t && *t; t++) {
			const struct bl_table_def *d = *t;
			assert_non_null(d->group_col);
			assert_true(strcmp(d->group_col, "group") == 0 || bl_table_coldef(d, d->group_col));
			assert_true(!d->split_col || bl_table_coldef(d, d->split_col));
			assert_true(!d->runs_col || bl_table_coldef(d, d->runs_col));
			assert_true(!d->weight_col || bl_table_coldef(d, d->weight_col));
			for (size_t c = 0; c < d->ncols; c++) {
				assert_non_null(d->cols[c].unit);
				if (d->cols[c].role != BL_ROLE_MEASURE)
					assert_int_equal(d->cols[c].better, BL_BETTER_NONE);
				if (d->cols[c].type == BL_STR)
					assert_int_equal(d->cols[c].role, BL_ROLE_LABEL);
			}
		}
}

/* R6: the cases are the columns `benchlog formats --columns` describes as
 * identifiers, positions, settings or run lengths (read by hand from
 * that listing), and measures next to them that must stay. */
static void test_table_stats__definition_measures(void **state)
{
	(void)state;
	static const char *const not_measures[][2] = {
		{ "vmstat", "series" }, { "vmstat", "sample" }, { "vmstat", "t_s" },
		{ "vmstat", "since_boot" }, { "events", "series" }, { "events", "sample" },
		{ "latency_series", "tid" }, { "latency_series", "priority" },
		{ "latency_series", "last_line" }, { "latency_series", "time_line" },
		{ "latency_series", "thread" }, { "latency_series", "interval_us" },
		{ "latency_series", "hist_limit_us" }, { "latency_series", "buckets" },
		{ "latency_series", "binned" }, { "latency_series", "total" },
		{ "latency_series", "footer_total" }, { "latency_series", "status_cycles" },
		{ "time", "page_size_bytes" }, { "time", "exit_status" }, { "time", "status_code" },
		{ "mtest01", "target_bytes" }, { "mtest01", "target_pct" },
		{ "latency", "count" }, { "averages", "runs" }, { "contest_report", "runs" },
	};
	for (size_t i = 0; i < sizeof not_measures / sizeof not_measures[0]; i++)
		if (coldef(not_measures[i][0], not_measures[i][1])->role == BL_ROLE_MEASURE)
			fail_msg("%s.%s taken as a measure", not_measures[i][0], not_measures[i][1]);
	static const char *const measures[][2] = {
		{ "vmstat", "swpd" }, { "vmstat", "si" }, { "vmstat", "cs" },
		{ "time", "elapsed_s" }, { "time", "max_rss_kib" }, { "time", "swaps" },
		{ "contest", "time_s" }, { "contest", "load_runs" }, { "contest_report", "loads" },
		{ "latency_series", "status_max_us" }, { "latency_series", "footer_avg_us" },
		{ "latency_series", "overflow" }, { "latency_series", "smis" },
		{ "mtest01", "bytes_allocated" }, { "averages", "elapsed_s" },
		{ "contest", "cpu_pct" },
	};
	for (size_t i = 0; i < sizeof measures / sizeof measures[0]; i++)
		if (coldef(measures[i][0], measures[i][1])->role != BL_ROLE_MEASURE)
			fail_msg("%s.%s not taken as a measure", measures[i][0], measures[i][1]);
}

/* R1 for a foreign CSV's columns, which no definition covers: the guess
 * from the name. R1b before R1c: bytes_per_s ends in _s but is a
 * throughput. A column a benchlog CSV filed under its table has keeps
 * the definition's word (contest cpu_pct: higher). */
static void test_table_stats__better_guess(void **state)
{
	(void)state;
	struct fixture fx;
	fx_init(&fx);
	fx_start(&fx);
	char *p = tmpfile_with(".csv", "bytes_per_s,Throughput,wakeup_us,elapsed_s,major_faults,"
				       "max_latency,load_runs,status,cpu_pct\n1,2,3,4,5,6,7,8,9\n");
	assert_int_equal(bl_tstats_read_csv(fx.ts, p), 0);
	assert_int_equal(bl_tstats_ntables(fx.ts), 1);
	assert_null(bl_tstats_def(fx.ts, 0));
	static const struct { const char *col; enum bl_better b; } want[] = {
		{ "bytes_per_s", BL_BETTER_HIGHER }, { "Throughput", BL_BETTER_HIGHER },
		{ "wakeup_us", BL_BETTER_LOWER }, { "elapsed_s", BL_BETTER_LOWER },
		{ "major_faults", BL_BETTER_LOWER }, { "max_latency", BL_BETTER_LOWER },
		{ "load_runs", BL_BETTER_NONE }, { "status", BL_BETTER_NONE },
		{ "cpu_pct", BL_BETTER_NONE },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (bl_tstats_better(fx.ts, 0, want[i].col) != want[i].b)
			fail_msg("%s: direction %d", want[i].col, bl_tstats_better(fx.ts, 0, want[i].col));
	unlink(p);
	free(p);
	fx_release(&fx);
}

/* ---- outtab ---------------------------------------------------------------- */

static void test_table_stats__outtab_three_formats(void **state)
{
	(void)state;
	struct bl_outtab t;
	bl_outtab_init(&t);
	bl_outtab_col(&t, "group", false);
	bl_outtab_col(&t, "n", true);
	bl_outtab_col(&t, "note", false);
	bl_outtab_row(&t);
	bl_outtab_set(&t, 0, "Défaut, a|b");  /* 11 characters, 12 bytes */
	bl_outtab_set(&t, 1, "3");
	bl_outtab_set(&t, 2, "");
	bl_outtab_row(&t);
	bl_outtab_set(&t, 0, "x \"q\"");
	bl_outtab_set(&t, 2, "ok");          /* n never set: unknown */
	FILE *f = tmpfile();
	assert_non_null(f);
	/* [hand] widths 11 and 1; "" at the end of a row is not written */
	assert_int_equal(bl_outtab_write(&t, f, BL_TAB_TEXT), 0);
	char *s = slurp(f);
	assert_string_equal(s,
		"group        n  note\n"
		"Défaut, a|b  3\n"
		"x \"q\"        -  ok\n");
	free(s);
	fclose(f);
	/* [hand] RFC 4180: the comma and the quotes force quoting */
	f = tmpfile();
	assert_int_equal(bl_outtab_write(&t, f, BL_TAB_CSV), 0);
	s = slurp(f);
	assert_string_equal(s, "group,n,note\n\"Défaut, a|b\",3,\n\"x \"\"q\"\"\",,ok\n");
	free(s);
	fclose(f);
	f = tmpfile();
	assert_int_equal(bl_outtab_write(&t, f, BL_TAB_MD), 0);
	s = slurp(f);
	assert_string_equal(s,
		"| group | n | note |\n"
		"| --- | ---: | --- |\n"
		"| Défaut, a\\|b | 3 |  |\n"
		"| x \"q\" |  | ok |\n");
	free(s);
	fclose(f);
	bl_outtab_release(&t);
	bl_outtab_release(&t);   /* idempotent */
}

static void test_table_stats__outtab_numbers(void **state)
{
	(void)state;
	char b[48];
	/* [hand] six significant digits, trailing zeros dropped */
	assert_string_equal(bl_outtab_num(b, sizeof b, 18.683333333333334, BL_TAB_TEXT), "18.6833");
	assert_string_equal(bl_outtab_num(b, sizeof b, 30.78, BL_TAB_TEXT), "30.78");
	assert_string_equal(bl_outtab_num(b, sizeof b, 1253362892.8, BL_TAB_TEXT), "1253362893");
	assert_string_equal(bl_outtab_num(b, sizeof b, 0.0083881321377742, BL_TAB_TEXT), "0.00838813");
	assert_string_equal(bl_outtab_num(b, sizeof b, -0.0000001, BL_TAB_TEXT), "-1e-07");
	/* [hand] whole numbers of 13 to 15 digits in full (docs/formats.md,
	 * "Numbers"), not rounded to twelve: 123456789012000 was shown */
	assert_string_equal(bl_outtab_num(b, sizeof b, 123456789012345.0, BL_TAB_TEXT), "123456789012345");
	assert_string_equal(bl_outtab_num(b, sizeof b, 999999999999999.0, BL_TAB_TEXT), "999999999999999");
	assert_string_equal(bl_outtab_num(b, sizeof b, 1099511627776.0, BL_TAB_TEXT), "1099511627776");
	assert_string_equal(bl_outtab_num(b, sizeof b, 41152263004781.67, BL_TAB_TEXT), "41152263004782");
	assert_string_equal(bl_outtab_num(b, sizeof b, 0.0, BL_TAB_TEXT), "0");
	assert_string_equal(bl_outtab_num(b, sizeof b, NAN, BL_TAB_TEXT), "");
	/* CSV: a computed value to 12 significant digits (docs/statistics.md,
	 * N1; python3 f"{56.05/3:.12g}") */
	assert_string_equal(bl_outtab_num(b, sizeof b, 0.1, BL_TAB_CSV), "0.1");
	assert_string_equal(bl_outtab_num(b, sizeof b, 18.683333333333334, BL_TAB_CSV), "18.6833333333");
	enum bl_tabfmt fmt;
	assert_int_equal(bl_tabfmt_parse("md", &fmt), 0);
	assert_int_equal(fmt, BL_TAB_MD);
	assert_int_equal(bl_tabfmt_parse("html", &fmt), -BL_EUSAGE);
}

/* ---- histograms (stats.h additions) ---------------------------------------- */

static void test_table_stats__histogram_exact_edges(void **state)
{
	(void)state;
	struct bl_dist *d = bl_dist_new_exact(BL_DIST_EXACT_MAX, NULL);
	for (int i = 10; i >= 1; i--)
		bl_dist_add(d, i);
	/* [hand] [1,4) holds 1,2,3; [4,7) 4,5,6; [7,10] 7,8,9,10 */
	const double e[] = { 1, 4, 7, 10 };
	unsigned long long c[3];
	assert_int_equal(bl_dist_histogram(d, e, 3, c), 0);
	assert_int_equal(c[0], 3);
	assert_int_equal(c[1], 3);
	assert_int_equal(c[2], 4);
	/* values outside the edges are not counted: [2, 5] holds 2,3,4,5 */
	const double e2[] = { 2, 5 };
	assert_int_equal(bl_dist_histogram(d, e2, 1, c), 0);
	assert_int_equal(c[0], 4);
	/* one zero-width bin takes the equal values */
	const double e3[] = { 7, 7 };
	assert_int_equal(bl_dist_histogram(d, e3, 1, c), 0);
	assert_int_equal(c[0], 1);
	const double bad[] = { 3, 2 };
	assert_int_equal(bl_dist_histogram(d, bad, 1, c), -BL_EUSAGE);
	assert_int_equal(bl_dist_histogram(d, e, 0, c), -BL_EUSAGE);
	bl_dist_free(d);
}

static void test_table_stats__histogram_sketch_within_alpha(void **state)
{
	(void)state;
	/* 100000 values 0.001 .. 100 (beyond the exact size): a value can only
	 * change bins when it is within alpha = 1% of an inner edge */
	enum { N = 100000, B = 7 };
	struct bl_dist *d = bl_dist_new_exact(65536, NULL);   /* below N: the sketch */
	double *x = bl_xmalloc(N * sizeof *x);
	uint64_t s = 42;
	for (int i = 0; i < N; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		x[i] = 0.001 + 99.999 * (double)(s >> 11) / 9007199254740992.0;
		bl_dist_add(d, x[i]);
	}
	assert_false(bl_dist_is_exact(d));
	const struct bl_welford *w = bl_dist_welford(d);
	double e[B + 1];
	for (int i = 0; i <= B; i++)
		e[i] = w->min + (w->max - w->min) * i / B;
	e[B] = w->max;
	unsigned long long got[B], want[B] = {0};
	assert_int_equal(bl_dist_histogram(d, e, B, got), 0);
	unsigned long long near_edge = 0, total = 0;
	for (int i = 0; i < N; i++) {
		int b = 0;
		while (b < B - 1 && x[i] >= e[b + 1])
			b++;
		want[b]++;
		for (int k = 1; k < B; k++)
			if (fabs(x[i] - e[k]) <= 0.0101 * fabs(e[k]))
				near_edge++;
	}
	unsigned long long moved = 0;
	for (int b = 0; b < B; b++) {
		total += got[b];
		moved += got[b] > want[b] ? got[b] - want[b] : want[b] - got[b];
	}
	assert_int_equal(total, N);
	assert_true(moved <= 2 * near_edge);
	free(x);
	bl_dist_free(d);
}

/* ---- CSV input --------------------------------------------------------------- */

static void test_table_stats__csv_sniff(void **state)
{
	(void)state;
	char why[200];
	struct { const char *text; bool ok; const char *why; } cases[] = {
		{ "group,time_s\nA,1\n", true, "" },
		{ "\"name, quoted\",value\n", true, "" },
		{ "only\n1\n", true, "" },
		{ "a,,b\n", false, "header field 2 is empty" },
		{ "a,1.5\n", false, "header field 2 ('1.5') is a number" },
		{ "a,b,a\n", false, "column name 'a' appears twice" },
		{ "Here is my data:\n", true, "" },   /* one field: a header by the rule */
		{ "a,\"b\nc\n", false, NULL },         /* quote left open on line 1 */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *p = tmpfile_with(".csv", cases[i].text);
		bool ok = bl_csv_is_table(p, why, sizeof why);
		if (ok != cases[i].ok || (cases[i].why && strcmp(why, cases[i].why) != 0)) {
			print_error("case %zu: got %d (%s)\n", i, ok, why);
			fail();
		}
		unlink(p);
		free(p);
	}
	assert_false(bl_csv_is_table("-", why, sizeof why));
	assert_false(bl_csv_is_table("/nonexistent/x.csv", why, sizeof why));
}

static void test_table_stats__csv_foreign_quoted(void **state)
{
	(void)state;
	/* A spreadsheet export: quoted group names with commas, a text column
	 * with commas, doubled quotes and a line break, CR LF line ends, a
	 * blank line, blanks around a number. */
	char *p = tmpfile_with(".csv",
		"machine,\"note, free text\",secs\r\n"
		"\"box, A\",\"fast, \"\"really\"\"\",1.5\r\n"
		"\"box, A\",\"two\r\nlines\",2.5\r\n"
		"\r\n"
		"boxB,plain, 10 \r\n"
		"boxB,x,\r\n"          /* empty: missing, not a value */
		"boxB,y,12,extra\r\n"); /* wrong field count: skipped */
	struct fixture fx;
	fx_init(&fx);
	char *g[] = { (char *)"machine" };
	fx.so.gcols = g;
	fx.so.ngcols = 1;
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_csv(fx.ts, p), 0);
	assert_int_equal(bl_tstats_ntables(fx.ts), 1);
	assert_string_equal(bl_tstats_table(fx.ts, 0), "csv");   /* T5: stem is no table */
	/* [hand] "note, free text" is text: not listed; secs is */
	assert_int_equal(bl_tstats_ncols(fx.ts, 0), 1);
	assert_string_equal(bl_tstats_col(fx.ts, 0, 0), "secs");
	long c = bl_tstats_find_col(fx.ts, 0, "secs");
	long ga = find_group(fx.ts, 0, "box, A", NULL);
	long gb = find_group(fx.ts, 0, "boxB", NULL);
	assert_true(ga >= 0 && gb >= 0);
	struct bl_cellstat cs;
	double pct[1];
	const double p50 = 50;
	assert_true(bl_tstats_cell(fx.ts, 0, (size_t)ga, c, &p50, 1, BL_PCT_TYPE7, &cs, pct));
	/* [hand] 1.5 and 2.5: mean 2, sd sqrt(0.5) = 0.70710678118654757 */
	assert_int_equal(cs.w.n, 2);
	NEAR(bl_welford_mean(&cs.w), 2.0, 1e-15);
	NEAR(cs.sd, 0.70710678118654757, 1e-15);
	NEAR(pct[0], 2.0, 1e-15);
	assert_true(cs.exact);
	assert_true(bl_tstats_cell(fx.ts, 0, (size_t)gb, c, &p50, 1, BL_PCT_TYPE7, &cs, pct));
	assert_int_equal(cs.w.n, 1);       /* 10; the empty field is missing */
	NEAR(cs.w.min, 10.0, 0);
	assert_true(isnan(cs.sd));
	/* [hand] accounting: 8 physical lines; the blank one and the bad row
	 * skipped, one warning (field count) */
	assert_int_equal(fx.ctx.lines_total, 8);
	assert_int_equal(fx.ctx.lines_skipped, 2);
	assert_int_equal(fx.ctx.lines_used, 6);
	assert_int_equal(bl_warn_total(&fx.ctx), 1);
	fx_release(&fx);
	unlink(p);
	free(p);
}

static void test_table_stats__csv_benchlog_own_and_errors(void **state)
{
	(void)state;
	/* benchlog's own CSV (provenance columns first): line, run, quoted are
	 * not statistics (R4); the stem "contest" names the table (T5), which
	 * splits by load (R3) */
	char *dir = bl_xasprintf("%s/bl-tstats-dir-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	char *p = bl_xasprintf("%s/contest.csv", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("source,line,message_id,date,subject,quoted,group,run,load,time_s\n"
	      "s.txt,9,,,,0,K1,1,noload,18.82\n"
	      "s.txt,11,,,,0,K1,1,io_load,40\n"
	      "s.txt,13,,,,0,K1,2,noload,18.56\n"
	      "s.txt,15,,,,0,K1,2,io_load,\"4,5\"\n", f);   /* text in a number column */
	fclose(f);
	struct fixture fx;
	fx_init(&fx);
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_csv(fx.ts, p), 0);
	/* time_s holds a text value: left out of the defaults; nothing else is
	 * a statistic, so the table has no listed column (this header is an
	 * earlier version's, without group_source: still benchlog's own) */
	assert_int_equal(bl_tstats_ntables(fx.ts), 0);
	fx_release(&fx);
	/* the same with today's header: group_source is provenance too */
	char *p2 = bl_xasprintf("%s/contest2.csv", dir);
	f = fopen(p2, "w");
	assert_non_null(f);
	fputs("source,line,message_id,date,subject,quoted,group,group_source,run,load,time_s\n"
	      "s.txt,9,,,,0,K1,label,1,noload,18.82\n"
	      "s.txt,15,,,,0,K1,label,2,io_load,\"4,5\"\n", f);
	fclose(f);
	fx_init(&fx);
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_csv(fx.ts, p2), 0);
	assert_int_equal(bl_tstats_ntables(fx.ts), 0);
	fx_release(&fx);
	unlink(p2);
	free(p2);
	/* named with -c, its numbers are used and the text is a warning */
	fx_init(&fx);
	char *cols[] = { (char *)"time_s" };
	fx.so.cols = cols;
	fx.so.ncols = 1;
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_csv(fx.ts, p), 0);
	assert_int_equal(bl_tstats_ntables(fx.ts), 1);
	assert_string_equal(bl_tstats_table(fx.ts, 0), "contest");
	assert_int_equal(bl_tstats_ngcols(fx.ts, 0), 2);
	assert_string_equal(bl_tstats_gcol(fx.ts, 0, 0), "group");
	assert_string_equal(bl_tstats_gcol(fx.ts, 0, 1), "load");
	long g = find_group(fx.ts, 0, "K1", "io_load");
	struct bl_cellstat cs;
	assert_true(bl_tstats_cell(fx.ts, 0, (size_t)g, bl_tstats_find_col(fx.ts, 0, "time_s"),
				   NULL, 0, BL_PCT_TYPE7, &cs, NULL));
	assert_int_equal(cs.w.n, 1);
	assert_int_equal(bl_warn_total(&fx.ctx), 1);
	fx_release(&fx);
	/* -g naming a column the CSV lacks: an error for that input */
	fx_init(&fx);
	char *g2[] = { (char *)"kernel" };
	fx.so.gcols = g2;
	fx.so.ngcols = 1;
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_csv(fx.ts, p), -BL_EFORMAT);
	assert_int_equal(fx.ctx.input_errors, 1);
	fx_release(&fx);
	/* an unterminated quote at the end: the row is skipped with a warning */
	unlink(p);
	f = fopen(p, "w");
	fputs("group,v\nA,1\nA,\"2\n", f);
	fclose(f);
	fx_init(&fx);
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_csv(fx.ts, p), 0);
	assert_int_equal(bl_warn_total(&fx.ctx), 1);
	assert_int_equal(fx.ctx.lines_skipped, 1);
	fx_release(&fx);
	unlink(p);
	rmdir(dir);
	free(p);
	free(dir);
}

/* ---- partials (T6) ------------------------------------------------------------ */

/* Write rows to a CSV file with a header. */
static void write_rows(const char *path, const double *x, const int *grp, size_t from, size_t to)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("group,\"v, s\"\n", f);
	for (size_t i = from; i < to; i++)
		fprintf(f, "%s,%.17g\n", grp[i] ? "\"cand, b\"" : "base", x[i]);
	assert_int_equal(fclose(f), 0);
}

static void test_table_stats__merge_random_splits(void **state)
{
	(void)state;
	enum { N = 120000, K = 7 };
	double *x = bl_xmalloc(N * sizeof *x);
	int *grp = bl_xmalloc(N * sizeof *grp);
	uint64_t s = 7;
	for (size_t i = 0; i < N; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		double u = (double)(s >> 11) / 9007199254740992.0;
		grp[i] = (s >> 7) & 1;
		/* skewed, positive, 5 decades: latency-like */
		x[i] = grp[i] ? exp(12 * u - 4) : 1e3 + 1e4 * u * u;
	}
	/* random cut points */
	size_t cut[K + 1];
	cut[0] = 0;
	cut[K] = N;
	for (int k = 1; k < K; k++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		cut[k] = (size_t)((s >> 20) % N);
	}
	for (int a = 1; a < K; a++)   /* sort the inner cuts */
		for (int b = a; b > 1 && cut[b] < cut[b - 1]; b--) {
			size_t t = cut[b];
			cut[b] = cut[b - 1];
			cut[b - 1] = t;
		}
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *whole = bl_xasprintf("%s/bl-merge-%d-whole.csv", dir, (int)getpid());
	write_rows(whole, x, grp, 0, N);
	/* one pass over the whole */
	struct fixture one;
	fx_init(&one);
	fx_start(&one);
	assert_int_equal(bl_tstats_read_csv(one.ts, whole), 0);
	/* a partial per part, merged */
	char *parts[K];
	for (int k = 0; k < K; k++) {
		char *csv = bl_xasprintf("%s/bl-merge-%d-%d.csv", dir, (int)getpid(), k);
		parts[k] = bl_xasprintf("%s/bl-merge-%d-%d.blp", dir, (int)getpid(), k);
		write_rows(csv, x, grp, cut[k], cut[k + 1]);
		struct fixture fx;
		fx_init(&fx);
		fx_start(&fx);
		assert_int_equal(bl_tstats_read_csv(fx.ts, csv), 0);
		FILE *f = fopen(parts[k], "w");
		assert_int_equal(bl_tstats_write_partials(fx.ts, f), 0);
		assert_int_equal(fclose(f), 0);
		fx_release(&fx);
		unlink(csv);
		free(csv);
	}
	struct fixture m;
	fx_init(&m);
	fx_start(&m);
	for (int k = 0; k < K; k++)
		assert_int_equal(bl_tstats_read_partials(m.ts, parts[k]), 0);
	/* and the one-pass partial, read back alone: the same sketch */
	char *wp = bl_xasprintf("%s/bl-merge-%d-whole.blp", dir, (int)getpid());
	FILE *f = fopen(wp, "w");
	assert_int_equal(bl_tstats_write_partials(one.ts, f), 0);
	fclose(f);
	struct fixture w1;
	fx_init(&w1);
	fx_start(&w1);
	assert_int_equal(bl_tstats_read_partials(w1.ts, wp), 0);

	assert_int_equal(bl_tstats_ntables(m.ts), 1);
	assert_string_equal(bl_tstats_col(m.ts, 0, 0), "v, s");
	static const double p[] = { 1, 10, 25, 50, 75, 90, 95, 99, 99.9 };
	enum { NP = sizeof p / sizeof p[0] };
	for (int gi = 0; gi < 2; gi++) {
		const char *name = gi ? "cand, b" : "base";
		long g1 = find_group(one.ts, 0, name, NULL), g2 = find_group(m.ts, 0, name, NULL);
		long g3 = find_group(w1.ts, 0, name, NULL);
		assert_true(g1 >= 0 && g2 >= 0 && g3 >= 0);
		struct bl_cellstat a, b, c;
		double pa[NP], pb[NP], pc[NP];
		assert_true(bl_tstats_cell(one.ts, 0, (size_t)g1, bl_tstats_find_col(one.ts, 0, "v, s"), p, NP, BL_PCT_TYPE7, &a, pa));
		assert_true(bl_tstats_cell(m.ts, 0, (size_t)g2, bl_tstats_find_col(m.ts, 0, "v, s"), p, NP, BL_PCT_TYPE7, &b, pb));
		assert_true(bl_tstats_cell(w1.ts, 0, (size_t)g3, bl_tstats_find_col(w1.ts, 0, "v, s"), p, NP, BL_PCT_TYPE7, &c, pc));
		assert_true(a.exact);      /* about 60000 a group: exact in one pass */
		assert_false(b.exact);     /* merged: from the sketch */
		/* [merge] */
		assert_int_equal(b.w.n, a.w.n);
		assert_true(b.w.min == a.w.min && b.w.max == a.w.max);
		NEAR(bl_welford_mean(&b.w), bl_welford_mean(&a.w), 1e-12);
		NEAR(b.sd, a.sd, 1e-12);
		for (int i = 0; i < NP; i++) {
			NEAR(pb[i], pa[i], 0.01);          /* D11's stated error */
			assert_true(pb[i] == pc[i]);        /* the same sketch, exactly */
		}
	}
	fx_release(&one);
	fx_release(&m);
	fx_release(&w1);
	for (int k = 0; k < K; k++) {
		unlink(parts[k]);
		free(parts[k]);
	}
	unlink(whole);
	unlink(wp);
	free(whole);
	free(wp);
	free(x);
	free(grp);
}

static void test_table_stats__partial_file_errors(void **state)
{
	(void)state;
	static const struct { const char *text; unsigned long line; } bad[] = {
		{ "benchlog-partial 1\n", 1 },                              /* a bare D10 partial */
		{ "benchlog-stats-partials,1\ncell,A,v\n", 2 },              /* cell before table */
		{ "benchlog-stats-partials,1\ntable,t\ncolumns,v\n", 3 },     /* groups missing */
		{ "benchlog-stats-partials,1\ntable,t\ngroups,group\ncolumns,v\ncell,A,v\ncount 3\n", 6 },
		{ "benchlog-stats-partials,1\ntable,t\ngroups,group\ncolumns,v\ncell,A,B,v\n", 5 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *p = tmpfile_with(".blp", bad[i].text);
		struct fixture fx;
		fx_init(&fx);
		FILE *f = tmpfile();
		fx.ctx.diag = f;
		fx_start(&fx);
		assert_int_equal(bl_tstats_read_partials(fx.ts, p), -BL_EFORMAT);
		assert_int_equal(fx.ctx.input_errors, 1);
		/* the warning names path:line */
		char *want = bl_xasprintf("%s:%lu: ", p, bad[i].line);
		char *s = slurp(f);
		if (strncmp(s, want, strlen(want)) != 0) {
			print_error("case %zu: '%s' does not start with '%s'\n", i, s, want);
			fail();
		}
		free(s);
		fclose(f);
		fx.ctx.diag = NULL;
		fx_release(&fx);
		free(want);
		unlink(p);
		free(p);
	}
	/* group columns differing between files */
	char *a = tmpfile_with(".blp", "benchlog-stats-partials,1\ntable,t\ngroups,group\ncolumns,v\n");
	char *b = tmpfile_with(".blp", "benchlog-stats-partials,1\ntable,t\ngroups,kernel\ncolumns,v\n");
	struct fixture fx;
	fx_init(&fx);
	fx_start(&fx);
	assert_int_equal(bl_tstats_read_partials(fx.ts, a), 0);
	assert_int_equal(bl_tstats_read_partials(fx.ts, b), -BL_EFORMAT);
	fx_release(&fx);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}

/* ---- compare (C2, C3) ---------------------------------------------------------- */

static void welford_of(struct bl_welford *w, const double *x, size_t n)
{
	bl_welford_init(w);
	for (size_t i = 0; i < n; i++)
		bl_welford_add(w, x[i]);
}

/* C3 for a family of one test: p adjusted (bl_compare_adjust_p) into r. */
static void adjust_one(struct bl_cmp *r)
{
	double p = r->tested ? r->t.p : NAN, bonf, holm;
	bl_compare_adjust_p(&p, 1, &bonf, &holm);
	r->p_adj = bonf;
	r->p_holm = holm;
	r->p_bh = p;
}

/* C2 and a one-test family (C3): adjust, then judge. */
static void pair_judged(const struct bl_welford *b, const struct bl_welford *c, enum bl_cmp_test t,
			bool means, int better, struct bl_cmp *r)
{
	assert_int_equal(bl_compare_pair(b, c, 0.95, t, means, r), 0);
	adjust_one(r);
	bl_compare_judge(r, 0.05, 1.0, better, 1);
}

static void test_table_stats__compare_pair_seed001(void **state)
{
	(void)state;
	/* seed 001 ConTest times, default then tweaked tunables */
	static const double rd_b[] = { 31.20, 30.11, 31.03 }, rd_c[] = { 22.66, 23.11, 21.26 };
	static const double ct_b[] = { 32.73, 24.48, 68.20 }, ct_c[] = { 27.53, 73.84, 23.68 };
	struct bl_welford b, c;
	struct bl_cmp r;
	welford_of(&b, rd_b, 3);
	welford_of(&c, rd_c, 3);
	pair_judged(&b, &c, BL_CMP_WELCH, false, BL_BETTER_LOWER, &r);
	assert_true(r.tested);
	/* [ref.py] welch read_load: diff=-8.4366666666666674 p=0.00060889309738515917
	 * ci=[-10.40833968082114, -6.464993652512195] */
	NEAR(r.diff, -8.4366666666666674, 1e-12);
	NEAR(r.t.p, 0.00060889309738515917, 1e-6);
	NEAR(r.t.ci_lo, -10.40833968082114, 1e-6);
	NEAR(r.t.ci_hi, -6.464993652512195, 1e-6);
	/* [hand] 100 diff / 30.78 (python3: -27.409573316006068); one test:
	 * Holm's p is p */
	NEAR(r.pct, -27.409573316006068, 1e-12);
	assert_true(r.p_holm == r.t.p && r.p_bh == r.t.p);
	assert_string_equal(r.verdict, "better");
	assert_null(r.note);
	/* [ref.R] Fieller: [-33.315970443247537, -21.342283703625863] */
	NEAR(r.ci.pct_lo, -33.315970443247537, 1e-9);
	NEAR(r.ci.pct_hi, -21.342283703625863, 1e-9);
	/* higher is better for the same numbers: worse; no direction: lower */
	pair_judged(&b, &c, BL_CMP_WELCH, false, BL_BETTER_HIGHER, &r);
	assert_string_equal(r.verdict, "worse");
	pair_judged(&b, &c, BL_CMP_WELCH, false, BL_BETTER_NONE, &r);
	assert_string_equal(r.verdict, "lower");
	/* [ref.py] pooled read_load: p=0.00020557693749957 */
	pair_judged(&b, &c, BL_CMP_STUDENT, false, BL_BETTER_LOWER, &r);
	NEAR(r.t.p, 0.00020557693749957, 1e-6);
	/* [ref.py] welch ctar_load: p=0.99571616647265636 -> not significant;
	 * -0.3 % is inside the band but its CI is not: no detectable change */
	welford_of(&b, ct_b, 3);
	welford_of(&c, ct_c, 3);
	pair_judged(&b, &c, BL_CMP_WELCH, false, BL_BETTER_LOWER, &r);
	NEAR(r.t.p, 0.99571616647265636, 1e-6);
	assert_string_equal(r.verdict, "no change detected");
	assert_true(r.ci.pct_lo == -100.0 && r.ci.clipped);
}

/* D12, D13: read_load judged in its family of 48 (seed 001's ConTest
 * pair: 6 measures x 8 loads); the interval shown is the family's, the
 * unadjusted one is kept */
static void test_table_stats__compare_family_interval(void **state)
{
	(void)state;
	static const double rd_b[] = { 31.20, 30.11, 31.03 }, rd_c[] = { 22.66, 23.11, 21.26 };
	struct bl_welford b, c;
	struct bl_cmp r;
	welford_of(&b, rd_b, 3);
	welford_of(&c, rd_c, 3);
	assert_int_equal(bl_compare_pair(&b, &c, 0.95, BL_CMP_WELCH, false, &r), 0);
	/* a family of one p alone, judged as one of 48 */
	adjust_one(&r);
	r.p_adj = fmin(1.0, 48 * r.t.p);
	bl_compare_judge(&r, 0.05, 1.0, BL_BETTER_LOWER, 48);
	/* [ref.R] family48 p 0.00060889309738516048 bonferroni 0.029226868674487705;
	 * fieller at 1 - 0.05/48: lo -48.213851890602541 hi -4.4618589093415757 */
	NEAR(r.p_adj, 0.029226868674487705, 1e-6);
	NEAR(r.ci.pct_lo, -48.213851890602541, 1e-7);
	NEAR(r.ci.pct_hi, -4.4618589093415757, 1e-7);
	/* [ref.R] the unadjusted 95 % interval stays */
	NEAR(r.ci_raw.pct_lo, -33.315970443247537, 1e-9);
	NEAR(r.ci_raw.pct_hi, -21.342283703625863, 1e-9);
	assert_int_equal(r.kind, BL_V_BETTER);
	assert_string_equal(bl_cmp_verdict_words(r.kind, "time_s", r.pct), "faster");
	assert_string_equal(bl_cmp_verdict_words(BL_V_WORSE, "minor_faults", 3), "more faults");
	assert_string_equal(bl_cmp_verdict_words(BL_V_LOWER, "max_rss_kib", -3), "less memory");
	assert_string_equal(bl_cmp_verdict_words(BL_V_HIGHER, "load_runs", 3), "higher");
	assert_string_equal(bl_cmp_verdict_words(BL_V_NO_CHANGE, "time_s", 3), "no change detected");
	/* D16 when the two means are equal (an integer counter): the change
	 * detectable at 0.05 / 8 is still given.
	 * [ref.R] detect_equal pct 84.398831369862833 */
	welford_of(&b, (const double[]){ 10, 12, 14 }, 3);
	welford_of(&c, (const double[]){ 14, 10, 12 }, 3);
	assert_int_equal(bl_compare_pair(&b, &c, 0.95, BL_CMP_WELCH, false, &r), 0);
	adjust_one(&r);
	bl_compare_judge(&r, 0.05, 1.0, BL_BETTER_LOWER, 8);
	NEAR(r.detect_pct, 84.398831369862833, 1e-9);
	assert_int_equal(r.kind, BL_V_NO_CHANGE);
}

static void test_table_stats__compare_pair_no_test(void **state)
{
	(void)state;
	struct bl_welford b, c;
	struct bl_cmp r;
	/* seed 000's averages: one row each (elapsed 64.109 s and 49.513 s) */
	welford_of(&b, (const double[]){ 64.109 }, 1);
	welford_of(&c, (const double[]){ 49.513 }, 1);
	pair_judged(&b, &c, BL_CMP_WELCH, true, BL_BETTER_LOWER, &r);
	assert_false(r.tested);
	assert_true(r.means_only);
	assert_string_equal(r.verdict, "averages only, no test possible");
	assert_string_equal(r.note, "averages alone (no per-run data) allow no test");
	/* [hand] the change itself is still shown: 100 (49.513 - 64.109) / 64.109
	 * (python3: -22.76747414559578) */
	NEAR(r.pct, -22.76747414559578, 1e-12);
	/* runs: two against five is too few (D7's power rule) */
	welford_of(&b, (const double[]){ 1, 2 }, 2);
	welford_of(&c, (const double[]){ 5, 6, 7, 8, 9 }, 5);
	pair_judged(&b, &c, BL_CMP_WELCH, false, BL_BETTER_LOWER, &r);
	assert_true(r.low_power);
	assert_string_equal(r.verdict, "too few runs");
	/* an empty side */
	bl_welford_init(&b);
	pair_judged(&b, &c, BL_CMP_WELCH, false, BL_BETTER_LOWER, &r);
	assert_string_equal(r.note, "no baseline values here");
	assert_string_equal(r.verdict, "no test");
	assert_true(isnan(r.diff));
	/* means with enough rows are tested, with a caveat */
	welford_of(&b, (const double[]){ 1, 2, 3 }, 3);
	welford_of(&c, (const double[]){ 11, 12, 13 }, 3);
	pair_judged(&b, &c, BL_CMP_WELCH, true, BL_BETTER_LOWER, &r);
	assert_true(r.tested);
	assert_string_equal(r.note, "each value is already a mean of runs");
	/* [hand] +500% (mean 2 -> 12), lower is better */
	NEAR(r.pct, 500.0, 1e-12);
	assert_string_equal(r.verdict, "worse");
	assert_int_equal(bl_compare_pair(&b, &c, 1.0, BL_CMP_WELCH, false, &r), -BL_EUSAGE);
	/* the band (D13): --negligible time_s=2% beside a 5% default */
	struct bl_band bands[2];
	char a1[] = "5%", a2[] = "time_s=2%", bad[] = "=3%";
	assert_int_equal(bl_band_parse(a1, &bands[0]), 0);
	assert_int_equal(bl_band_parse(a2, &bands[1]), 0);
	assert_int_equal(bl_band_parse(bad, &bands[1]), -BL_EFORMAT);
	struct bl_compare_opts o = { NULL, 0.95, BL_CMP_WELCH, BL_TAB_TEXT, bands, 2, false, 0 };
	assert_true(bl_band_for(&o, "time_s") == 2.0 && bl_band_for(&o, "cpu_pct") == 5.0);
	assert_true(bl_band_for(NULL, "time_s") == 1.0);
}

/* ---- logs through the parse pass ---------------------------------------------- */

static void test_table_stats__seed001_through_parsers(void **state)
{
	(void)state;
	const char *seed = "fixtures/seeds/001_07df0cd7d9b0f35d.txt";
	if (access(seed, R_OK) != 0)
		skip();
	struct fixture fx;
	fx_init(&fx);
	fx.so.table = "contest";
	fx_start(&fx);
	struct bl_sink sink;
	bl_tstats_sink(fx.ts, &sink);
	bl_ctx_add_sink(&fx.ctx, &sink);
	char *in[] = { (char *)seed };
	assert_int_equal(bl_tstats_read_inputs(fx.ts, in, 1, false), 0);
	assert_int_equal(bl_tstats_ntables(fx.ts), 1);
	assert_string_equal(bl_tstats_gcol(fx.ts, 0, 0), "group");   /* R5, then R3 */
	assert_string_equal(bl_tstats_gcol(fx.ts, 0, 1), "load");
	assert_int_equal(bl_tstats_ngroups(fx.ts, 0), 16);           /* 2 sections x 8 loads */
	/* numeric columns of the contest table, in schema order */
	assert_int_equal(bl_tstats_ncols(fx.ts, 0), 6);
	assert_string_equal(bl_tstats_col(fx.ts, 0, 0), "time_s");
	long c = bl_tstats_find_col(fx.ts, 0, "time_s");
	long g = find_group(fx.ts, 0, "Default tunables", "noload");
	struct bl_cellstat cs;
	double med;
	const double p50 = 50;
	assert_true(bl_tstats_cell(fx.ts, 0, (size_t)g, c, &p50, 1, BL_PCT_TYPE7, &cs, &med));
	/* [hand] 18.82, 18.67, 18.56: mean 18.683333, sd 0.130512 (the issue:
	 * 18.683 s, sd 0.131; python3 statistics.stdev: 0.1305118130030133),
	 * median 18.67 */
	assert_int_equal(cs.w.n, 3);
	NEAR(bl_welford_mean(&cs.w), 18.683333333333333, 1e-12);
	NEAR(cs.sd, 0.1305118130030133, 1e-12);
	NEAR(med, 18.67, 1e-15);
	g = find_group(fx.ts, 0, "Default tunables", "mem_load");
	assert_true(bl_tstats_cell(fx.ts, 0, (size_t)g, c, NULL, 0, BL_PCT_TYPE7, &cs, NULL));
	/* [hand] (39.70 + 47.46 + 47.05) / 3 = 44.736667 */
	NEAR(bl_welford_mean(&cs.w), 44.736666666666667, 1e-12);
	fx_release(&fx);
}

/* ---- the vmstat since-boot row (T1, analyze/vmstat.h S1) --------------------- */

/* n, mean and min of column cs of group `group` in table 0. */
static void cs_stats(struct fixture *fx, const char *group, unsigned long long n, double mean, double min)
{
	assert_int_equal(bl_tstats_ntables(fx->ts), 1);
	long g = find_group(fx->ts, 0, group, NULL);
	assert_true(g >= 0);
	struct bl_cellstat cs;
	assert_true(bl_tstats_cell(fx->ts, 0, (size_t)g, bl_tstats_find_col(fx->ts, 0, "cs"),
				   NULL, 0, BL_PCT_TYPE7, &cs, NULL));
	assert_int_equal(cs.w.n, n);
	NEAR(bl_welford_mean(&cs.w), mean, 1e-15);
	NEAR(cs.w.min, min, 0);
}

/* The capture starts with both header lines, so its first row (cs 7) is
 * vmstat's average since boot, marked since_boot = 1. [hand] auto and
 * drop: cs 100, 200, 600: n 3, mean 300, min 100; keep: 7 too: n 4, mean
 * 907 / 4 = 226.75, min 7. The same rows read back from benchlog's CSV
 * (since_boot column) give the same numbers; a foreign CSV's since_boot
 * column is the user's and leaves nothing out. */
static void test_table_stats__vmstat_since_boot_row(void **state)
{
	(void)state;
	char *log = tmpfile_with(".txt",
		"procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n"
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"
		" 1  0      0 123456   7890 456789    0    0    50    60  300     7  1  2 97  0\n"
		" 1  0      0 123456   7890 456789    0    0     1     2   30   100  1  2 97  0\n"
		" 1  0      0 123456   7890 456789    0    0     1     2   30   200  1  2 97  0\n"
		" 1  0      0 123456   7890 456789    0    0     1     2   30   600  1  2 97  0\n");
	char *dir = bl_xasprintf("%s/bl-tstats-dir-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	char *csv = bl_xasprintf("%s/vmstat.csv", dir);
	char *foreign = bl_xasprintf("%s/mine.csv", dir);
	FILE *f = fopen(csv, "w");
	assert_non_null(f);
	fputs("source,line,message_id,date,subject,quoted,group,run,series,sample,since_boot,cs\n"
	      "v.txt,3,,,,0,v,,1,0,1,7\n"
	      "v.txt,4,,,,0,v,,1,1,0,100\n"
	      "v.txt,5,,,,0,v,,1,2,0,200\n"
	      "v.txt,6,,,,0,v,,1,3,0,600\n", f);
	fclose(f);
	f = fopen(foreign, "w");
	assert_non_null(f);
	fputs("group,since_boot,cs\nv,1,7\nv,0,100\nv,0,200\nv,0,600\n", f);
	fclose(f);
	char *group = bl_path_stem(log);
	const enum bl_since_boot modes[3] = { BL_SB_AUTO, BL_SB_KEEP, BL_SB_DROP };
	for (int m = 0; m < 3; m++) {
		bool keep = modes[m] == BL_SB_KEEP;
		for (int in = 0; in < 3; in++) {
			struct fixture fx;
			fx_init(&fx);
			fx.ctx.opt.since_boot = modes[m];
			char *cols[] = { (char *)"cs" };
			fx.so.cols = cols;
			fx.so.ncols = 1;
			if (in == 0)
				fx.so.table = "vmstat";
			fx_start(&fx);
			struct bl_sink sink;
			bl_tstats_sink(fx.ts, &sink);
			bl_ctx_add_sink(&fx.ctx, &sink);
			char *inputs[1] = { in == 0 ? log : in == 1 ? csv : foreign };
			assert_int_equal(bl_tstats_read_inputs(fx.ts, inputs, 1, false), 0);
			if (in == 2) {
				cs_stats(&fx, "v", 4, 226.75, 7);
				assert_int_equal(bl_tstats_since_boot_left_out(fx.ts), 0);
			} else if (in == 1 || modes[m] != BL_SB_DROP) {
				/* drop: the parser writes no since-boot row; a CSV row
				 * marked since_boot is left out as under auto */
				cs_stats(&fx, in == 0 ? group : "v", keep ? 4 : 3, keep ? 226.75 : 300, keep ? 7 : 100);
				assert_int_equal(bl_tstats_since_boot_left_out(fx.ts), keep ? 0 : 1);
			} else {
				cs_stats(&fx, group, 3, 300, 100);
				assert_int_equal(bl_tstats_since_boot_left_out(fx.ts), 0);
			}
			assert_int_equal(bl_warn_total(&fx.ctx), 0);
			fx_release(&fx);
		}
	}
	unlink(log);
	unlink(csv);
	unlink(foreign);
	rmdir(dir);
	free(group);
	free(log);
	free(csv);
	free(foreign);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_stats__definition_facts),
		cmocka_unit_test(test_table_stats__definition_measures),
		cmocka_unit_test(test_table_stats__better_guess),
		cmocka_unit_test(test_table_stats__outtab_three_formats),
		cmocka_unit_test(test_table_stats__outtab_numbers),
		cmocka_unit_test(test_table_stats__histogram_exact_edges),
		cmocka_unit_test(test_table_stats__histogram_sketch_within_alpha),
		cmocka_unit_test(test_table_stats__csv_sniff),
		cmocka_unit_test(test_table_stats__csv_foreign_quoted),
		cmocka_unit_test(test_table_stats__csv_benchlog_own_and_errors),
		cmocka_unit_test(test_table_stats__merge_random_splits),
		cmocka_unit_test(test_table_stats__partial_file_errors),
		cmocka_unit_test(test_table_stats__compare_pair_seed001),
		cmocka_unit_test(test_table_stats__compare_family_interval),
		cmocka_unit_test(test_table_stats__compare_pair_no_test),
		cmocka_unit_test(test_table_stats__seed001_through_parsers),
		cmocka_unit_test(test_table_stats__vmstat_since_boot_row),
	};
	return cmocka_run_group_tests_name("table_stats", tests, NULL, NULL);
}

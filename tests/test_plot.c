/* test_plot.c — plot/: quoting, the gnuplot runner, the five charts drawn
 * from the seed data, and the injection catalogue (plot.h Requirements).
 *
 * Every chart is rendered into a fresh mkdtemp() folder that is removed at
 * the end; set BENCHLOG_KEEP_PLOTS=1 to keep it (its path is printed) and
 * look at the images.
 *
 * Where the data and expected values come from:
 *  - SEED000_ROWS: the 59 vmstat rows of seeds/000_a7bf8587c1dba76c.txt
 *    (2.4.13-pre2aa1), typed in by awk from the seed (swpd, si, so, free),
 *    one row per second. The prose line "Around here, mp3blaster begins to
 *    stutter." stands before row 13 (swpd 14696), "At this point,
 *    mp3blaster is smooth again." before row 30 (swpd 294176).
 *  - Stutter seconds per 20 MiB bin: worked out by a separate python3
 *    script (floor(swpd/1024/20) per row, 1 s per row, the last row 1 s,
 *    overlap with [13, 30)); the rows 13..29 fall in bins 0..13.
 *  - ConTest cells: seeds/001 Time values, grouped by datamash
 *    (`datamash -s -g1,2 mean 3 sstdev 3 min 3 max 3`); ratios by awk as
 *    mean(load) / mean(noload) of the same group.
 *  - Latency: the 28 `seconds: count` lines of seeds/001; CDF and tail
 *    values summed by hand/python (213 samples <= 0.201 s, 776 <= 0.210 s).
 *  - Runs: seeds/001 mem_load Time and CPU of the three runs per group.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "plot/plot.h"

/* ---- helpers ------------------------------------------------------------ */

static char *g_dir; /* the test folder */

static char *path_in(const char *name)
{
	return bl_xasprintf("%s/%s", g_dir, name);
}

/* Whole file as a NUL-terminated heap string (NULL if missing). */
static char *slurp(const char *name, size_t *len)
{
	char *p = path_in(name);
	FILE *f = fopen(p, "rb");
	free(p);
	if (!f)
		return NULL;
	struct bl_buf b = BL_BUF_INIT(0);
	char tmp[8192];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		bl_buf_add(&b, tmp, n);
	fclose(f);
	if (len)
		*len = b.len;
	return b.data ? b.data : bl_xstrdup("");
}

static bool exists(const char *name)
{
	char *p = path_in(name);
	bool ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

/* PNG checks: signature, IHDR width/height (big-endian at bytes 16..23),
 * size above min_bytes (a chart with text and lines is tens of KB; an
 * empty canvas a few hundred bytes). */
static void assert_png(const char *name, unsigned w, unsigned h, size_t min_bytes)
{
	size_t len = 0;
	char *d = slurp(name, &len);
	assert_non_null(d);
	const unsigned char *u = (const unsigned char *)d;
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	assert_true(len > 24);
	assert_memory_equal(u, sig, 8);
	assert_memory_equal(u + 12, "IHDR", 4);
	unsigned pw = (unsigned)u[16] << 24 | (unsigned)u[17] << 16 | (unsigned)u[18] << 8 | u[19];
	unsigned ph = (unsigned)u[20] << 24 | (unsigned)u[21] << 16 | (unsigned)u[22] << 8 | u[23];
	assert_int_equal(pw, w);
	assert_int_equal(ph, h);
	if (len < min_bytes)
		fail_msg("%s: %zu bytes, expected at least %zu", name, len, min_bytes);
	free(d);
}

/* cmocka 1.1 has only a float comparison; values here need double. */
#define assert_near(a, b, eps) assert_near_at((a), (b), (eps), __FILE__, __LINE__)
static void assert_near_at(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %.17g is not within %g of %.17g", file, line, a, eps, b);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!hay || !strstr(hay, needle))
		fail_msg("expected to find [%s]", needle);
}

/* The numbers of the first data row (not '#') of a data file whose first
 * column equals key; '?' reads as NaN. Returns how many were stored. */
static size_t data_row(const char *dat, double key, double *vals, size_t max)
{
	const char *p = dat;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len && *p != '#') {
			const char *tok[16];
			size_t tl[16];
			size_t n = bl_split_blanks(p, len, tok, tl, 16);
			double first;
			if (n && n <= 16 && bl_parse_double(tok[0], tl[0], &first) == 0 &&
			    fabs(first - key) < 1e-12) {
				for (size_t i = 0; i < n && i < max; i++)
					if (bl_parse_double(tok[i], tl[i], &vals[i]) != 0)
						vals[i] = NAN;
				return n < max ? n : max;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	fail_msg("no data row starting with %g", key);
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int setup(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	char *tmpl = bl_xasprintf("%s/benchlog-test-plot.XXXXXX", t && *t ? t : "/tmp");
	g_dir = mkdtemp(tmpl);
	if (!g_dir) {
		free(tmpl);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("BENCHLOG_KEEP_PLOTS"))
		fprintf(stderr, "test_plot: kept %s\n", g_dir);
	else
		nftw(g_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(g_dir);
	g_dir = NULL;
	return 0;
}

static void opts_for(struct bl_plot_opts *o, const char *base, unsigned terms)
{
	*o = (struct bl_plot_opts){ 0 };
	o->out_dir = g_dir;
	o->basename = base;
	o->terms = terms;
}

/* ---- seed data ------------------------------------------------------------ */

/* t_s, swpd (KiB), si, so (KiB/s), free (KiB) — seeds/000 vmstat rows. */
static const struct bl_swpd_sample SEED000_ROWS[] = {
	{ 0, 554920, 44, 10092, 1564 },	{ 1, 565652, 16, 10248, 2288 },
	{ 2, 574848, 48, 9780, 1628 },	{ 3, 586608, 56, 10704, 1780 },
	{ 4, 603504, 0, 17536, 1784 },	{ 5, 621424, 0, 18152, 2552 },
	{ 6, 640880, 0, 18340, 2556 },	{ 7, 660848, 0, 20156, 2036 },
	{ 8, 678768, 0, 17356, 1788 },	{ 9, 696176, 0, 19416, 2540 },
	{ 10, 716144, 0, 18060, 1656 },	{ 11, 738160, 12, 23544, 2172 },
	{ 12, 14700, 284, 2048, 316844 }, { 13, 14696, 64, 0, 51576 },
	{ 14, 26728, 612, 16232, 3384 }, { 15, 39312, 248, 13516, 2512 },
	{ 16, 50420, 216, 11800, 1912 }, { 17, 66564, 288, 13844, 2568 },
	{ 18, 80204, 196, 16296, 2036 }, { 19, 97400, 236, 16848, 1784 },
	{ 20, 116720, 120, 19076, 1904 }, { 21, 134488, 152, 17124, 3060 },
	{ 22, 151236, 148, 17716, 3056 }, { 23, 168032, 100, 15928, 2560 },
	{ 24, 187324, 164, 20480, 1784 }, { 25, 200484, 152, 14752, 1784 },
	{ 26, 220224, 228, 18560, 3432 }, { 27, 236512, 116, 16384, 1640 },
	{ 28, 253836, 84, 15284, 3188 }, { 29, 270624, 104, 19536, 2052 },
	{ 30, 294176, 0, 23420, 1628 },	{ 31, 317728, 0, 23588, 3572 },
	{ 32, 335136, 0, 18080, 3584 },	{ 33, 356128, 0, 20244, 2040 },
	{ 34, 373024, 0, 17960, 1656 },	{ 35, 394528, 0, 19900, 1660 },
	{ 36, 413984, 0, 19924, 2056 },	{ 37, 433952, 0, 20488, 3620 },
	{ 38, 458528, 0, 24100, 1628 },	{ 39, 478496, 0, 21288, 3072 },
	{ 40, 499132, 0, 20172, 1852 },	{ 41, 520632, 4, 20524, 1648 },
	{ 42, 531272, 216, 11492, 2792 }, { 43, 539920, 52, 7864, 2144 },
	{ 44, 556728, 104, 18012, 1664 }, { 45, 573612, 32, 17096, 1784 },
	{ 46, 590508, 0, 16380, 1784 },	{ 47, 610988, 0, 20820, 1912 },
	{ 48, 629420, 0, 18148, 2412 },	{ 49, 650924, 0, 21452, 1744 },
	{ 50, 669868, 0, 19388, 1600 },	{ 51, 688300, 0, 16476, 2552 },
	{ 52, 706220, 0, 19212, 3032 },	{ 53, 728748, 0, 23644, 2548 },
	{ 54, 13904, 220, 6784, 460316 }, { 55, 13904, 0, 0, 196080 },
	{ 56, 20304, 116, 10740, 2796 }, { 57, 37960, 276, 17428, 1784 },
	{ 58, 53588, 248, 15076, 2208 },
};
#define SEED000_N (sizeof SEED000_ROWS / sizeof *SEED000_ROWS)

static const struct bl_plot_interval SEED000_STUTTER[] = { { 13, 30, false } };
static const struct bl_plot_event SEED000_EVENTS[] = {
	{ 13, "Around here, mp3blaster begins to stutter.", BL_PLOT_EV_PROBLEM },
	{ 30, "At this point, mp3blaster is smooth again.", BL_PLOT_EV_RECOVERED },
};

static struct bl_swpd_group seed000_group(void)
{
	struct bl_swpd_group g = {
		.name = "2.4.13-pre2aa1 (vmstat 1, one of 10 mtest01 iterations)",
		.samples = SEED000_ROWS, .nsamples = SEED000_N,
		.stutter = SEED000_STUTTER, .nstutter = 1,
		.events = SEED000_EVENTS, .nevents = 2,
	};
	return g;
}

static const char *const LOADS[] = { "noload", "process_load", "ctar_load", "xtar_load",
				     "io_load", "read_load", "list_load", "mem_load" };
static const char *const TUNABLES[] = { "Default tunables", "Tweaked tunables" };
/* mean, sd, min, max, n, ratio per (load, group): datamash over seeds/001,
 * the ratio (C2) by awk over its means. */
static const struct bl_contest_cell CONTEST_CELLS[] = {
	{ 18.683333333333, 0.13051181300301, 18.56, 18.82, 3, 1 },
	{ 18.756666666667, 0.17214335111567, 18.62, 18.95, 3, 1 },
	{ 23.95, 2.9729951227676, 20.57, 26.16, 3, 1.281891 },
	{ 27.45, 0.085440037453175, 27.37, 27.54, 3, 1.46348 },
	{ 41.803333333333, 23.2293700589, 24.48, 68.2, 3, 2.237467 },
	{ 41.683333333333, 27.914942832349, 23.68, 73.84, 3, 2.222321 },
	{ 30.27, 1.19816526406, 28.97, 31.33, 3, 1.620161 },
	{ 29.84, 4.0838339829136, 25.15, 32.61, 3, 1.590901 },
	{ 32.813333333333, 3.993649124965, 29.25, 37.13, 3, 1.756289 },
	{ 37.153333333333, 4.8059581077381, 33.4, 42.57, 3, 1.980807 },
	{ 30.78, 0.58642987645583, 30.11, 31.2, 3, 1.647458 },
	{ 22.343333333333, 0.96479704256042, 21.26, 23.11, 3, 1.191221 },
	{ 21.21, 1.5120846537149, 19.49, 22.33, 3, 1.135236 },
	{ 21.176666666667, 0.76794096995364, 20.29, 21.63, 3, 1.129021 },
	{ 44.736666666667, 4.3666959286551, 39.7, 47.46, 3, 2.394469 },
	{ 45.91, 4.6431993280496, 42.15, 51.1, 3, 2.447663 },
};

static const struct bl_bin SEED001_HIST[] = {
	{ 0.192, 1 }, { 0.199, 1 }, { 0.200, 10 }, { 0.201, 201 }, { 0.202, 53 },
	{ 0.203, 25 }, { 0.204, 22 }, { 0.205, 21 }, { 0.206, 34 }, { 0.207, 29 },
	{ 0.208, 29 }, { 0.209, 100 }, { 0.210, 250 }, { 0.211, 120 }, { 0.212, 35 },
	{ 0.213, 16 }, { 0.214, 17 }, { 0.215, 14 }, { 0.216, 9 }, { 0.217, 1 },
	{ 0.218, 3 }, { 0.219, 3 }, { 0.220, 1 }, { 0.222, 1 }, { 0.233, 1 },
	{ 0.303, 1 }, { 0.304, 1 }, { 0.385, 1 },
};
#define SEED001_NBINS (sizeof SEED001_HIST / sizeof *SEED001_HIST)

/* ---- quoting and names -------------------------------------------------- */

static void expect_quote(const char *in, size_t max, const char *want)
{
	struct bl_buf b = BL_BUF_INIT(0);
	assert_int_equal(bl_esc_gp(&b, in, max), 0);
	assert_string_equal(b.data, want);
	bl_buf_release(&b);
}

/* Requirement 1: expected strings written by hand. */
static void test_plot__quote(void **state)
{
	(void)state;
	expect_quote("plain", 0, "'plain'");
	expect_quote(NULL, 0, "''");
	expect_quote("", 0, "''");
	expect_quote("it's", 0, "'it''s'");
	/* A quote first or after a quote becomes U+2019 (plot.h, Req. 1). */
	expect_quote("''", 0, "'\xe2\x80\x99'''");
	expect_quote("'a''b'''", 0,
		     "'\xe2\x80\x99" "a''\xe2\x80\x99" "b''\xe2\x80\x99'''");
	expect_quote("a\nb\rc\td\x1b" "e\x7f", 0, "'a b c d e '");
	expect_quote("`id` $(id) @x \"q\" \\", 0, "'`id` $(id) @x \"q\" \\'");
	expect_quote("\xff" "a\xc3", 0, "'?a?'");          /* invalid UTF-8 */
	expect_quote("\xc0\xaf", 0, "'?" "?'");               /* overlong '/' */
	expect_quote("\xed\xa0\x80", 0, "'?" "?" "?'");          /* surrogate */
	expect_quote("25 \xc2\xb5s \xe2\x86\x92 \xf0\x9f\x98\x80", 0,
		      "'25 \xc2\xb5s \xe2\x86\x92 \xf0\x9f\x98\x80'");
	expect_quote("abcdefghij", 8, "'abcde...'");
	expect_quote("abcdefgh", 8, "'abcdefgh'");
	expect_quote("\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5", 4, "'\xc2\xb5...'");
	expect_quote("a'b'c'd'e'f", 6, "'a''b...'");

	struct bl_buf small = BL_BUF_INIT(4);
	assert_int_equal(bl_esc_gp(&small, "too long for four bytes", 0), -BL_ENOMEM);
	bl_buf_release(&small);
}

/* Requirement 3. */
static void test_plot__safe_name(void **state)
{
	(void)state;
	static const char *const good[] = { "swpd", "swpd-2.4.12aa1", "a_b+c", "X9" };
	static const char *const bad[] = { "", ".gp", "-x", "+x", "<cmd", "|cmd", "a/b",
					   "a b", "a'b", "a;b", "`x`", "$x", "..", "a\nb" };
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		assert_true(bl_gp_safe_name(good[i]));
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (bl_gp_safe_name(bad[i]))
			fail_msg("accepted [%s]", bad[i]);
	assert_false(bl_gp_safe_name(NULL));
	char longname[102];
	memset(longname, 'a', 101);
	longname[101] = '\0';
	assert_false(bl_gp_safe_name(longname));
	longname[100] = '\0';
	assert_true(bl_gp_safe_name(longname));
}

/* ---- the runner ------------------------------------------------------------ */

static void write_file(const char *name, const char *text)
{
	char *p = path_in(name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(p);
}

/* Requirement 5: stderr becomes the message; exit status is checked. */
static void test_plot__run_reports_gnuplot_error(void **state)
{
	(void)state;
	if (!bl_gp_available())
		skip();
	write_file("bad.gp", "print 1\nthis_is_not_a_command 42\n");
	char *err = NULL;
	assert_int_equal(bl_gp_run(g_dir, "bad.gp", NULL, NULL, NULL, &err), -BL_EIO);
	assert_non_null(err);
	assert_contains(err, "line 2");
	free(err);

	write_file("good.gp", "set print '-'\nprint 'hello from gnuplot'\n");
	struct bl_buf out = BL_BUF_INIT(1024);
	assert_int_equal(bl_gp_run(g_dir, "good.gp", NULL, &out, NULL, &err), 0);
	assert_null(err);
	assert_string_equal(out.data, "hello from gnuplot\n");
	bl_buf_release(&out);

	/* No shell: a script name that a shell would split is refused, and a
	 * missing script is gnuplot's error, not a crash. */
	assert_int_equal(bl_gp_run(g_dir, "good.gp; touch x", NULL, NULL, NULL, &err), -BL_EUSAGE);
	free(err);
	assert_int_equal(bl_gp_run(g_dir, "missing.gp", NULL, NULL, NULL, &err), -BL_EIO);
	assert_non_null(err);
	free(err);
	assert_int_equal(bl_gp_run("/nonexistent/benchlog", "good.gp", NULL, NULL, NULL, &err), -BL_ENOTFOUND);
	free(err);
}

/* Requirement 6: no gnuplot on PATH. */
static void test_plot__missing_gnuplot_still_writes_script(void **state)
{
	(void)state;
	char *old = getenv("PATH") ? bl_xstrdup(getenv("PATH")) : NULL;
	char *empty = path_in("empty-bin");
	assert_int_equal(mkdir(empty, 0755), 0);
	setenv("PATH", empty, 1);
	assert_false(bl_gp_available());

	char *err = NULL;
	assert_int_equal(bl_gp_run(g_dir, "x.gp", NULL, NULL, NULL, &err), -BL_ENOTFOUND);
	assert_contains(err, "gnuplot not found");
	free(err);

	struct bl_swpd_group g = seed000_group();
	struct bl_swpd_plot in = { .groups = &g, .ngroups = 1 };
	struct bl_plot_opts o;
	opts_for(&o, "nogp", BL_PLOT_PNG | BL_PLOT_DUMB);
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd(&in, &o, &r);
	if (old)
		setenv("PATH", old, 1);
	else
		unsetenv("PATH");
	free(old);
	free(empty);

	assert_int_equal(rc, BL_PLOT_NOT_RENDERED);
	assert_false(r.rendered);
	assert_string_equal(r.script, "nogp.gp");
	assert_contains(r.message, "gnuplot nogp.gp");
	assert_int_equal(r.nfiles, 2);
	assert_string_equal(r.files[0], "nogp.gp");
	assert_string_equal(r.files[1], "nogp-1.dat");
	assert_true(exists("nogp.gp"));
	assert_true(exists("nogp-1.dat"));
	assert_false(exists("nogp.png"));
	assert_null(r.preview);
	bl_plot_result_release(&r);
}

/* ---- a) swpd --------------------------------------------------------------- */

static void test_plot__swpd_seed000(void **state)
{
	(void)state;
	struct bl_swpd_group g[2];
	g[0] = seed000_group();
	/* Second panel: the same capture's second mtest01 iteration (rows
	 * 54..58, where swpd falls to 13904 again), moved to t = 0, to check
	 * the stacked layout with a shared x range. */
	struct bl_swpd_sample second[5];
	for (size_t i = 0; i < 5; i++) {
		second[i] = SEED000_ROWS[54 + i];
		second[i].t_s -= 54;
	}
	g[1] = (struct bl_swpd_group){ .name = "2.4.13-pre2aa1, next iteration",
				       .samples = second, .nsamples = 5 };
	struct bl_swpd_plot in = { .groups = g, .ngroups = 2 };
	struct bl_plot_opts o;
	opts_for(&o, "swpd", BL_PLOT_PNG | BL_PLOT_SVG | BL_PLOT_DUMB);
	o.title = "mtest01 -p80 -w with mp3blaster: 2.4.13-pre2aa1";
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd(&in, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	assert_true(r.rendered);

	char *gp = slurp("swpd.gp", NULL);
	assert_non_null(gp);
	/* Terminals, files and axis labels with units. */
	assert_contains(gp, "fmts = 'png svg dumb'");
	/* 40 px for the title, 400 + 160 per group (panel and free strip);
	 * dumb: 3 + 36 lines per group */
	assert_contains(gp, "set terminal pngcairo size 1200,1160 noenhanced");
	assert_contains(gp, "set output outdir.'swpd.png'");
	assert_contains(gp, "set terminal svg size 1200,1160 noenhanced");
	assert_contains(gp, "set terminal dumb size 120,75 noenhanced");
	assert_contains(gp, "set multiplot title "
			    "'mtest01 -p80 -w with mp3blaster: 2.4.13-pre2aa1' noenhanced");
	assert_contains(gp, "set title '2.4.13-pre2aa1 (vmstat 1, one of 10 mtest01 "
			    "iterations)' noenhanced");
	assert_contains(gp, "set ylabel 'swpd (MiB)'");
	assert_contains(gp, "set y2label 'si, so (KiB/s)'");
	assert_contains(gp, "set ylabel 'free (MiB)'");
	assert_contains(gp, "set xlabel 'Time (s)'");
	/* Panels this unlike (58 s against 4 s, swpd peaks 721 MiB against
	 * 52 MiB: more than 4x apart) keep their own ranges, else the second
	 * would be a flat line at the bottom of the first's scale. */
	assert_contains(gp, "set xrange [0:58]");
	assert_contains(gp, "set xrange [0:4]");
	/* Stutter from t=13 to t=30 shaded; both events drawn with text. */
	assert_contains(gp, "set object rect from 13, graph 0 to 30, graph 1 behind");
	assert_contains(gp, "set label 'Around here, mp3blaster begins to stutter.' at 13,");
	assert_contains(gp, "set label 'At this point, mp3blaster is smooth again.' at 30,");
	free(gp);

	/* Data file: t, swpd MiB (14696/1024 = 14.3515625), free MiB, si, so. */
	char *dat = slurp("swpd-1.dat", NULL);
	assert_contains(dat, "\n13 14.3515625 50.3671875 64 0\n");
	free(dat);

	assert_png("swpd.png", 1200, 1160, 20000);
	char *svg = slurp("swpd.svg", NULL);
	assert_contains(svg, "<svg");
	assert_contains(svg, "Around here, mp3blaster begins to stutter.");
	assert_contains(svg, "</svg>");
	free(svg);
	assert_non_null(r.preview);
	assert_true(strlen(r.preview) > 1000);
	assert_contains(r.preview, "Time (s)");
	char *txt = slurp("swpd.txt", NULL);
	assert_string_equal(txt, r.preview);
	free(txt);
	/* Script, 2 data files, png, svg, txt. */
	assert_int_equal(r.nfiles, 6);
	bl_plot_result_release(&r);
}

/* Free memory on an axis of its own: swpd of 16 MiB and free of 5.8 to
 * 10.8 GiB (rows of shared/realworld/18, vmstat -t on procps 3.3) both
 * readable. By hand: swpd 16592 KiB = 16.203125 MiB, x 1.05 = 17.01, the
 * next of 1, 1.2, 1.5, 2, ... x 10^k is 20; free at most 11289720 KiB =
 * 11025.1171875 MiB, x 1.05 = 11576.37, next 12000, in tics of 12000 / 4
 * = 3000; si and so all 0: the right axis 0..1.2. One group: 40 + 400 +
 * 160 = 600 px, the panel 400/600 of the height above the strip, 160/600
 * high, at the bottom. The stutter ([1, 2] and [2.5, open]) is shaded in
 * both, "stutter goes on" drawn once, in the panel. */
static void test_plot__swpd_free_own_axis(void **state)
{
	(void)state;
	const struct bl_swpd_sample s[4] = {
		{ 0, 16592, 0, 0, 11289720 }, { 1, 16592, 0, 0, 11288572 },
		{ 2, 16592, 0, 0, 6085656 }, { 3, 16592, 0, 0, 6104548 },
	};
	const struct bl_plot_interval iv[2] = { { 1, 2, false }, { 2.5, 2.5, true } };
	struct bl_swpd_group g = { .name = "18", .samples = s, .nsamples = 4, .stutter = iv,
				   .nstutter = 2 };
	struct bl_swpd_plot in = { .groups = &g, .ngroups = 1 };
	struct bl_plot_opts o;
	opts_for(&o, "fr", BL_PLOT_PNG);
	o.script_only = true;
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *gp = slurp("fr.gp", NULL);
	assert_contains(gp, "set terminal pngcairo size 1200,600 noenhanced");
	const char *panel = strstr(gp, "# Panel 1 of 1: swpd, si and so\n");
	const char *strip = strstr(gp, "# Panel 1 of 1: free memory\n");
	assert_non_null(panel);
	assert_non_null(strip);
	assert_true(panel < strip);
	/* the panel: swpd's scale, free only in the key */
	assert_contains(panel, "set origin 0,0.2666");
	assert_contains(panel, "set size 1,0.6666");
	assert_contains(panel, "set ylabel 'swpd (MiB)'");
	assert_contains(panel, "set yrange [0:20]\n");
	assert_contains(panel, "set y2range [0:1.2]\n");
	assert_contains(panel, "plot 'fr-1.dat' using 1:2 axes x1y1 with lines lw 2 ");
	assert_contains(panel, "NaN axes x1y1 with lines lw 1.5 lc rgb '#808080' title 'free (MiB, below)'");
	assert_true(strstr(panel, "using 1:3") == NULL || strstr(panel, "using 1:3") > strip);
	/* the strip: free's scale */
	assert_contains(strip, "set origin 0,0\n");
	assert_contains(strip, "set size 1,0.2666");
	assert_contains(strip, "set ylabel 'free (MiB)'");
	assert_contains(strip, "set yrange [0:12000]\n");
	assert_contains(strip, "set ytics 0,3000\n");
	assert_contains(strip, "set xlabel 'Time (s)'");
	assert_contains(strip, "plot 'fr-1.dat' using 1:3 axes x1y1 with lines lw 1.5 lc rgb '#808080' notitle");
	/* the stutter in both, its mark once */
	size_t n = 0;
	for (const char *p = gp; (p = strstr(p, "set object rect from 1, graph 0 to 2, graph 1")); p++)
		n++;
	assert_int_equal(n, 2);
	n = 0;
	for (const char *p = gp; (p = strstr(p, "set object rect from 2.5, graph 0 to 3, graph 1")); p++)
		n++;
	assert_int_equal(n, 2);
	n = 0;
	for (const char *p = gp; (p = strstr(p, "'stutter goes on' at 3,")); p++)
		n++;
	assert_int_equal(n, 1);
	assert_true(strstr(strip, "stutter goes on") == NULL);
	free(gp);
	char *dat = slurp("fr-1.dat", NULL);
	assert_contains(dat, "\n0 16.203125 11025.1171875 0 0\n");
	free(dat);
	bl_plot_result_release(&r);
}

/* Two panels alike in duration and swpd share their scales, but the free
 * memory strips only when their peaks are within a factor of 4 too. By
 * hand: A's free peaks at 11289720 KiB = 11025.1 MiB, x 1.05 = 11576 ->
 * 12000; B's at 256000 KiB = 250 MiB, x 1.05 = 262.5 -> 300 (2.5 x 100
 * is below it); C's at 6144000 KiB = 6000 MiB, within 4 of A's, so A and
 * C share 12000. */
static void test_plot__swpd_free_strips_own_scale(void **state)
{
	(void)state;
	const struct bl_swpd_sample a[2] = { { 0, 16592, 0, 0, 11289720 }, { 3, 16592, 0, 0, 6085656 } };
	const struct bl_swpd_sample b[2] = { { 0, 16592, 0, 0, 12000 }, { 3, 16592, 0, 0, 256000 } };
	const struct bl_swpd_sample c[2] = { { 0, 16592, 0, 0, 6144000 }, { 3, 16592, 0, 0, 100 } };
	struct bl_swpd_group g[2] = {
		{ .name = "A", .samples = a, .nsamples = 2 },
		{ .name = "B", .samples = b, .nsamples = 2 },
	};
	struct bl_swpd_plot in = { .groups = g, .ngroups = 2 };
	struct bl_plot_opts o;
	struct bl_plot_result r;
	for (int k = 0; k < 2; k++) {
		if (k == 1)
			g[1] = (struct bl_swpd_group){ .name = "C", .samples = c, .nsamples = 2 };
		opts_for(&o, k ? "fc" : "fb", BL_PLOT_PNG);
		o.script_only = true;
		r = (struct bl_plot_result){ 0 };
		int rc = bl_plot_swpd(&in, &o, &r);
		if (rc)
			fail_msg("rc %d: %s", rc, r.message ? r.message : "");
		char *gp = slurp(k ? "fc.gp" : "fb.gp", NULL);
		const char *p1 = strstr(gp, "# Panel 1 of 2: swpd, si and so\n");
		const char *s1 = strstr(gp, "# Panel 1 of 2: free memory\n");
		const char *p2 = strstr(gp, "# Panel 2 of 2: swpd, si and so\n");
		const char *s2 = strstr(gp, "# Panel 2 of 2: free memory\n");
		assert_non_null(p1);
		assert_non_null(s1);
		assert_non_null(p2);
		assert_non_null(s2);
		assert_true(p1 < s1 && s1 < p2 && p2 < s2);
		/* the panels: the same swpd scale (16.2 MiB x 1.05 -> 20) */
		assert_contains(p1, "set yrange [0:20]\n");
		assert_contains(p2, "set yrange [0:20]\n");
		/* the strips */
		const char *y1 = strstr(s1, "set yrange [");
		const char *y2 = strstr(s2, "set yrange [");
		assert_true(y1 && y1 < p2 && y2);
		assert_true(strncmp(y1, "set yrange [0:12000]\n", 21) == 0);
		if (k == 0)
			assert_true(strncmp(y2, "set yrange [0:300]\n", 19) == 0);
		else
			assert_true(strncmp(y2, "set yrange [0:12000]\n", 21) == 0);
		free(gp);
		bl_plot_result_release(&r);
	}
}

/* b) Expected bins from an independent python3 computation (file header). */
static void test_plot__stutter_bins_seed000(void **state)
{
	(void)state;
	struct bl_swpd_group g = seed000_group();
	struct bl_stutter_bin *b = NULL;
	size_t n = 0;
	assert_int_equal(bl_swpd_stutter_bins(&g, 20, &b, &n), 0);
	/* swpd 13904 KiB -> bin 0, 738160 KiB = 720.9 MiB -> bin 36. */
	assert_int_equal(n, 37);
	static const double obs[37] = { 5, 3, 2, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					1, 1, 1, 1, 1, 1, 2, 1, 3, 4, 2, 2, 2, 2, 3, 2, 1, 1 };
	static const double stu[14] = { 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1 };
	double tot_obs = 0, tot_stu = 0;
	for (size_t k = 0; k < n; k++) {
		assert_near(b[k].lo_mib, 20.0 * (double)k, 1e-9);
		assert_near(b[k].observed_s, obs[k], 1e-9);
		assert_near(b[k].stutter_s, k < 14 ? stu[k] : 0, 1e-9);
		tot_obs += b[k].observed_s;
		tot_stu += b[k].stutter_s;
	}
	/* 59 rows of 1 s; rows 13..29 inside the stutter. */
	assert_near(tot_obs, 59, 1e-9);
	assert_near(tot_stu, 17, 1e-9);
	free(b);

	/* Overlapping and open intervals count once; open runs to the end. */
	const struct bl_swpd_sample s[3] = { { 0, 1024, 0, 0, 0 }, { 2, 1024, 0, 0, 0 },
					     { 4, 40960, 0, 0, 0 } };
	const struct bl_plot_interval iv[3] = { { 1, 3, false }, { 2, 2.5, false },
						{ 4.5, 0, true } };
	struct bl_swpd_group h = { .name = "x", .samples = s, .nsamples = 3,
				   .stutter = iv, .nstutter = 3 };
	assert_int_equal(bl_swpd_stutter_bins(&h, 20, &b, &n), 0);
	/* bins 0 (1 MiB, t 0..4) and 2 (40 MiB, t 4..6 by the last step). */
	assert_int_equal(n, 3);
	assert_near(b[0].observed_s, 4, 1e-12);
	assert_near(b[0].stutter_s, 2, 1e-12);   /* [1,3) */
	assert_near(b[1].observed_s, 0, 1e-12);
	assert_near(b[2].observed_s, 2, 1e-12);
	assert_near(b[2].stutter_s, 1.5, 1e-12); /* [4.5,6) */
	free(b);

	const struct bl_swpd_sample back[2] = { { 5, 1, 0, 0, 0 }, { 4, 1, 0, 0, 0 } };
	h = (struct bl_swpd_group){ .samples = back, .nsamples = 2 };
	assert_int_equal(bl_swpd_stutter_bins(&h, 20, &b, &n), -BL_EUSAGE);
	assert_int_equal(bl_swpd_stutter_bins(&g, 0, &b, &n), -BL_EUSAGE);
	assert_null(b);
}

/* The min/max band of a long capture (plot.h, bl_plot_swpd). 20 samples
 * at t = 0..19 in an image 2 px wide (20 > 8 x 2: a band) over the x
 * range [0, 19] in 4 buckets (two per column) of 19/4 = 4.75 s: t 0..4,
 * 5..9, 10..14 and 15..19 (t 19 = x1 goes to the last bucket). Every
 * expected row is worked out by hand from the values in the table (MiB,
 * the samples holding 1024 times as many KiB):
 *
 *   bucket  t       swpd (MiB)        free (MiB)          si            so
 *   0       0..4    5 9 1 7 3         100 x5              0 0 0 0 50    NaN
 *   1       5..9    4 4 4 4 4         100 x5              0 x5          NaN
 *   2       10..14  2 NaN 8 0 8       100 x5              0 x5          NaN
 *   3       15..19  NaN x5            100 100 500 100 100 0 x5          NaN
 *
 *   minimum and maximum per bucket, NaN ignored, '?' when all are NaN,
 *   in a row at the bucket's first time and one at its last, one block
 *   per series (swpd, free, si, so; two blank lines between blocks):
 *   0: swpd 1 9, free 100 100, si 0 50; 1: swpd 4 4; 2: swpd 0 8;
 *   3: swpd ? ?, free 100 500. */
static void test_plot__swpd_band(void **state)
{
	(void)state;
	static const double sw[20] = { 5, 9, 1, 7, 3, 4, 4, 4, 4, 4, 2, NAN, 8, 0, 8,
				       NAN, NAN, NAN, NAN, NAN };
	struct bl_swpd_sample s[20];
	for (size_t i = 0; i < 20; i++) {
		s[i] = (struct bl_swpd_sample){ (double)i, 1024 * sw[i], 0, NAN, 1024 * 100 };
		if (i == 4)
			s[i].si_kibps = 50;
		if (i == 17)
			s[i].free_kib = 1024 * 500;
	}
	struct bl_swpd_group g = { .name = "a", .samples = s, .nsamples = 20 };
	struct bl_swpd_plot in = { .groups = &g, .ngroups = 1 };
	struct bl_plot_opts o;
	opts_for(&o, "band", BL_PLOT_PNG);
	o.width_px = 2;
	o.script_only = true;
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *d = slurp("band-1.dat", NULL);
	assert_contains(d, "# min/max band of 20 samples: per bucket of 1/4 of the x range");
	assert_contains(d, "# t_s min max, in 4 blocks (gnuplot's index 0-3): swpd_MiB, free_MiB, "
			   "si_KiB/s, so_KiB/s\n"
			   "0 1 9\n4 1 9\n5 4 4\n9 4 4\n10 0 8\n14 0 8\n15 ? ?\n19 ? ?\n\n\n"
			   "0 100 100\n4 100 100\n5 100 100\n9 100 100\n"
			   "10 100 100\n14 100 100\n15 100 500\n19 100 500\n\n\n"
			   "0 0 50\n4 0 50\n5 0 0\n9 0 0\n10 0 0\n14 0 0\n15 0 0\n19 0 0\n\n\n"
			   "0 ? ?\n4 ? ?\n5 ? ?\n9 ? ?\n10 ? ?\n14 ? ?\n15 ? ?\n19 ? ?\n");
	char *gp = slurp("band.gp", NULL);
	assert_contains(gp, "'band-1.dat' index 0 using 1:2:(0):($3-$2) axes x1y1 with vectors nohead");
	assert_contains(gp, "'band-1.dat' index 2 using 1:2:(0):($3-$2) axes x1y2 with vectors nohead");
	assert_contains(gp, "'band-1.dat' index 1 using 1:2:(0):($3-$2) axes x1y1 with vectors nohead");
	assert_contains(gp, "set datafile nofpe_trap\n");
	free(gp);
	free(d);
	bl_plot_result_release(&r);
}

/* Number of data rows (lines not starting with '#') in a data file. */
static size_t data_rows(const char *dat)
{
	size_t n = 0;
	for (const char *p = dat; p && *p;) {
		const char *eol = strchr(p, '\n');
		if (*p != '#' && *p != '\n')
			n++;
		p = eol ? eol + 1 : NULL;
	}
	return n;
}

/* The chart draws a band past 8 samples per pixel column: 100
 * samples at t = 0..99 in an image 10 px wide (80 is the limit) give 20
 * buckets (two per column) of 99/20 = 4.95 s, each with 4 or 5 samples,
 * so 2 rows each: 40 rows in each of the 4 series' blocks; the second panel's 40 samples (not more than
 * 80) are written as they are. Also:
 * overlapping stutter intervals are shaded once and "stutter goes on" is
 * drawn once per position, and an open interval with an end (the end of
 * its capture) stops there. */
static void test_plot__swpd_chart_band_and_stutter(void **state)
{
	(void)state;
	struct bl_swpd_sample s[100];
	for (size_t i = 0; i < 100; i++)
		s[i] = (struct bl_swpd_sample){ (double)i, 1024.0 * (double)(i % 7), 0, 0, 2048 };
	/* Three open intervals without a capture end: all run to the end of
	 * the panel (x1 = 99); one closed interval inside them. */
	const struct bl_plot_interval iv[4] = { { 20, 20, true }, { 50, 50, true },
						{ 60, 70, false }, { 80, NAN, true } };
	struct bl_swpd_group g[2] = {
		{ .name = "a", .samples = s, .nsamples = 100, .stutter = iv, .nstutter = 4 },
		{ .name = "b", .samples = s, .nsamples = 40 },
	};
	struct bl_swpd_plot in = { .groups = g, .ngroups = 2 };
	struct bl_plot_opts o;
	opts_for(&o, "env", BL_PLOT_PNG);
	o.width_px = 10;
	o.script_only = true;
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *d1 = slurp("env-1.dat", NULL), *d2 = slurp("env-2.dat", NULL);
	assert_contains(d1, "# min/max band of 100 samples: per bucket of 1/20 of the x range");
	assert_int_equal(data_rows(d1), 4 * 40);
	/* Bucket 0 = t 0..4 (t 4.95 starts the next): swpd i % 7 MiB, 0 to
	 * 4; bucket 1 = t 5..9: 5 6 0 1 2, 0 to 6; each in a row at its first
	 * and at its last time; free 2048 KiB = 2 MiB. */
	assert_contains(d1, "so_KiB/s\n0 0 4\n4 0 4\n5 0 6\n9 0 6\n");
	assert_contains(d1, "\n\n\n0 2 2\n4 2 2\n5 2 2\n9 2 2\n");
	assert_true(strstr(d2, "band") == NULL);
	assert_int_equal(data_rows(d2), 40);
	char *gp = slurp("env.gp", NULL);
	assert_contains(gp, "#   min/max band of 100 samples");
	assert_contains(gp, "'env-2.dat' using 1:2 axes x1y1 with lines");
	/* One rectangle 20..99 (in the panel, and again in its free-memory
	 * strip) and one label at 99 (the panel's), not three. */
	assert_contains(gp, "set object rect from 20, graph 0 to 99, graph 1 behind");
	const char *p = gp;
	size_t nrect = 0, nlab = 0;
	while ((p = strstr(p, "set object rect")) != NULL && ++nrect)
		p++;
	for (p = gp; (p = strstr(p, "stutter goes on' at 99,")) != NULL; p++)
		nlab++;
	assert_int_equal(nrect, 2);
	assert_int_equal(nlab, 1);
	free(gp);
	free(d1);
	free(d2);
	bl_plot_result_release(&r);

	/* Open intervals that say where their capture ended stop there. */
	const struct bl_plot_interval cap[2] = { { 20, 30, true }, { 50, 55, true } };
	g[0].stutter = cap;
	g[0].nstutter = 2;
	rc = bl_plot_swpd(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	gp = slurp("env.gp", NULL);
	assert_contains(gp, "set object rect from 20, graph 0 to 30, graph 1 behind");
	assert_contains(gp, "set object rect from 50, graph 0 to 55, graph 1 behind");
	assert_contains(gp, "set label 'stutter goes on' at 30,");
	assert_contains(gp, "set label 'stutter goes on' at 55,");
	free(gp);
	bl_plot_result_release(&r);

	/* A label is taken as a tenth of the panel wide (x 0..99: 9.9): the
	 * mark at 5 is nearer the left edge than that, so its label starts
	 * there (left, covering 5..14.9); 30's ends at 30 (20.1..30); 33's
	 * would cover 23.1..33, over 30's: left out. */
	const struct bl_plot_interval near[3] = { { 2, 5, true }, { 20, 30, true }, { 31, 33, true } };
	g[0].stutter = near;
	g[0].nstutter = 3;
	rc = bl_plot_swpd(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	gp = slurp("env.gp", NULL);
	assert_contains(gp, "set label 'stutter goes on' at 5, graph 0.04 left");
	assert_contains(gp, "set label 'stutter goes on' at 30, graph 0.04 right");
	assert_true(strstr(gp, "stutter goes on' at 33,") == NULL);
	free(gp);
	bl_plot_result_release(&r);

	/* The same rule in the stutter bins: samples of 1 s at 1 MiB, the
	 * interval [2, 4) open at its capture's end: 2 s of stutter. */
	const struct bl_swpd_sample one[6] = { { 0, 1024, 0, 0, 0 }, { 1, 1024, 0, 0, 0 },
		{ 2, 1024, 0, 0, 0 }, { 3, 1024, 0, 0, 0 }, { 4, 1024, 0, 0, 0 }, { 5, 1024, 0, 0, 0 } };
	const struct bl_plot_interval oc = { 2, 4, true };
	struct bl_swpd_group h = { .name = "x", .samples = one, .nsamples = 6,
				   .stutter = &oc, .nstutter = 1 };
	struct bl_stutter_bin *b = NULL;
	size_t nb = 0;
	assert_int_equal(bl_swpd_stutter_bins(&h, 20, &b, &nb), 0);
	assert_int_equal(nb, 1);
	assert_near(b[0].observed_s, 6, 1e-12);
	assert_near(b[0].stutter_s, 2, 1e-12);
	free(b);
}

static void test_plot__swpd_stutter_chart(void **state)
{
	(void)state;
	struct bl_swpd_group g = seed000_group();
	struct bl_swpd_plot in = { .groups = &g, .ngroups = 1, .bin_mib = 20 };
	struct bl_plot_opts o;
	opts_for(&o, "stutter", BL_PLOT_PNG | BL_PLOT_DUMB);
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd_stutter(&in, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *gp = slurp("stutter.gp", NULL);
	assert_contains(gp, "set xlabel 'swpd (MiB), bins of 20 MiB'");
	assert_contains(gp, "set ylabel 'Seconds'");
	/* The highest stuttering bin is 260-280 MiB (row 29, swpd 270624). */
	assert_contains(gp, "set arrow from 280, graph 0 to 280, graph 1");
	assert_contains(gp, "set label 'no stutter above 280 MiB' at 280,");
	/* One group: its name goes into the title, not the key. */
	assert_contains(gp, "set title 'Seconds of stutter per swpd range: 2.4.13-pre2aa1 "
			    "(vmstat 1, one of 10 mtest01 iterations)' noenhanced");
	assert_contains(gp, "title 'of which stuttering' noenhanced");
	free(gp);
	char *dat = slurp("stutter-1.dat", NULL);
	assert_contains(dat, "\n260 1 1\n280 1 0\n");
	free(dat);
	assert_png("stutter.png", 1200, 620, 10000);
	assert_non_null(r.preview);
	bl_plot_result_release(&r);
}

/* ---- c) ConTest ----------------------------------------------------------- */

static void test_plot__contest_seed001(void **state)
{
	(void)state;
	struct bl_contest_plot in = {
		.loads = LOADS, .nloads = 8, .groups = TUNABLES, .ngroups = 2,
		.cells = CONTEST_CELLS, .errbars = BL_ERRBAR_SD,
		.baseline = 0,
	};
	struct bl_plot_opts o;
	opts_for(&o, "contest", BL_PLOT_PNG | BL_PLOT_SVG);
	o.title = "ConTest, 2.5.52-mm2: default and tweaked VM tunables";
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_contest(&in, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *gp = slurp("contest.gp", NULL);
	assert_contains(gp, "'noload' 0, 'process_load' 1, 'ctar_load' 2");
	/* dumb has no colours: its key names each group's bar character */
	assert_contains(gp, "title ('Default tunables' . (fmt eq 'dumb' ? ' [*]' : '')) noenhanced");
	assert_contains(gp, "title ('Tweaked tunables' . (fmt eq 'dumb' ? ' [#]' : '')) noenhanced");
	assert_contains(gp, "set ylabel 'Time (s)' noenhanced");
	assert_contains(gp, "set style histogram errorbars");
	assert_contains(gp, "'contest-1.dat' using 2:3:4");
	assert_contains(gp, "'contest-1.dat' using 5:6:7");
	free(gp);

	/* Ratio rows: process_load .. mem_load, the cells' ratio as drawn
	 * (analyze/contest.h C2 makes them; awk over datamash means). */
	static const double want[7][2] = {
		{ 1.281891, 1.463480 }, { 2.237467, 2.222321 }, { 1.620161, 1.590901 },
		{ 1.756289, 1.980807 }, { 1.647458, 1.191221 }, { 1.135236, 1.129021 },
		{ 2.394469, 2.447663 },
	};
	char *dat = slurp("contest-2.dat", NULL);
	assert_non_null(dat);
	const char *p = dat;
	size_t row = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len && *p != '#') {
			const char *tok[4];
			size_t tl[4];
			assert_int_equal(bl_split_blanks(p, len, tok, tl, 4), 3);
			double v;
			assert_true(row < 7);
			for (int g = 0; g < 2; g++) {
				assert_int_equal(bl_parse_double(tok[1 + g], tl[1 + g], &v), 0);
				assert_near(v, want[row][g], 5e-7);
			}
			row++;
		}
		p += len + (eol ? 1 : 0);
	}
	assert_int_equal(row, 7);
	free(dat);
	/* Error bars are mean -/+ sd: noload Default 18.683333 -/+ 0.130512. */
	dat = slurp("contest-1.dat", NULL);
	double v[8];
	assert_int_equal(data_row(dat, 0, v, 8), 7);
	assert_near(v[1], 18.683333333333, 1e-12);
	assert_near(v[2], 18.683333333333 - 0.13051181300301, 1e-12);
	assert_near(v[3], 18.683333333333 + 0.13051181300301, 1e-12);
	assert_near(v[5], 18.756666666667 - 0.17214335111567, 1e-12);
	free(dat);
	assert_png("contest.png", 1200, 940, 20000);
	bl_plot_result_release(&r);

	/* Min-max bars, no baseline: one panel, no ratio file. */
	in.errbars = BL_ERRBAR_MINMAX;
	in.baseline = BL_CONTEST_BASELINE_NONE;
	opts_for(&o, "contest-minmax", BL_PLOT_PNG);
	rc = bl_plot_contest(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	assert_false(exists("contest-minmax-2.dat"));
	dat = slurp("contest-minmax-1.dat", NULL);
	assert_contains(dat, "\n2 41.803333333333 24.48 68.2 41.683333333333 23.68 73.84\n");
	free(dat);
	assert_png("contest-minmax.png", 1200, 540, 10000);
	bl_plot_result_release(&r);
}

/* ---- d) latency ----------------------------------------------------------- */

static void test_plot__latency_seed001(void **state)
{
	(void)state;
	/* Two series: the seed's histogram as posted, and the same counts
	 * shifted by +5 ms with 3 overflows, to check overlay and legend. */
	struct bl_bin shifted[SEED001_NBINS];
	for (size_t i = 0; i < SEED001_NBINS; i++) {
		shifted[i] = SEED001_HIST[SEED001_NBINS - 1 - i]; /* reversed order */
		shifted[i].value += 0.005;
	}
	struct bl_latency_series s[2] = {
		{ "2.5.52-mm2 under load (int_resp_timer.pl)", SEED001_HIST, SEED001_NBINS, 0, "s" },
		{ "same, +5 ms", shifted, SEED001_NBINS, 3, "s" },
	};
	struct bl_plot_mark marks[2] = {
		{ 0.2, NULL, BL_MARK_TARGET },
		{ 0.25, "threshold 250 ms", BL_MARK_THRESHOLD },
	};
	struct bl_latency_plot in = { s, 2, marks, 2 };
	struct bl_plot_opts o;
	opts_for(&o, "latency", BL_PLOT_PNG | BL_PLOT_DUMB);
	o.title = "Interactivity: 1000 sleeps of 0.2 s";
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_latency(&in, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *gp = slurp("latency.gp", NULL);
	assert_contains(gp, "set xlabel 'Latency (s)' noenhanced");
	assert_contains(gp, "title '2.5.52-mm2 under load (int_resp_timer.pl) (n=1000, "
			    "overflow 0)' noenhanced");
	assert_contains(gp, "title 'same, +5 ms (n=1003, overflow 3)' noenhanced");
	assert_contains(gp, "set label 1 'target 0.2 s' at 0.2,");
	assert_contains(gp, "set label 2 'threshold 250 ms' at 0.25,");
	assert_contains(gp, "set logscale y");
	free(gp);
	/* value count cdf tail: 213 of 1000 <= 0.201; 988 >= 0.201. */
	char *dat = slurp("latency-1.dat", NULL);
	assert_contains(dat, "\n0.201 201 0.213 0.988\n");
	assert_contains(dat, "\n0.21 250 0.776 0.474\n");
	assert_contains(dat, "\n0.385 1 1 0.001\n");
	free(dat);
	/* Sorted although given reversed; overflow keeps the CDF below 1. */
	dat = slurp("latency-2.dat", NULL);
	assert_contains(dat, "# value_s count cdf tail_P(X>=value)\n0.197 1 ");
	double v[4];
	/* Last bin 0.385 + 0.005: CDF 1000/1003, tail (1 + 3 overflow)/1003. */
	assert_int_equal(data_row(dat, 0.385 + 0.005, v, 4), 4);
	assert_near(v[2], 1000.0 / 1003.0, 1e-15);
	assert_near(v[3], 4.0 / 1003.0, 1e-15);
	free(dat);
	assert_png("latency.png", 1200, 1120, 20000);
	assert_contains(r.preview, "Latency (s)");
	bl_plot_result_release(&r);
}

/* Zero-count bins (cyclictest prints them) and vmstat without si/so
 * columns render without a single gnuplot warning. */
static void test_plot__no_warnings_on_gaps(void **state)
{
	(void)state;
	const struct bl_bin bins[4] = { { 1, 5 }, { 2, 0 }, { 3, 7 }, { 4, 0 } };
	struct bl_latency_series ls = { "cyclictest T:0", bins, 4, 0, "us" };
	struct bl_latency_plot lp = { &ls, 1, NULL, 0 };
	struct bl_plot_opts o;
	opts_for(&o, "gaps-latency", BL_PLOT_PNG);
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_latency(&lp, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc || r.message)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	/* 5 of 12 <= 1 us; tail at 4 us is 0 (left out of the log plot). */
	char *dat = slurp("gaps-latency-1.dat", NULL);
	double v[4];
	assert_int_equal(data_row(dat, 4, v, 4), 4);
	assert_near(v[2], 1, 0);
	assert_near(v[3], 0, 0);
	assert_int_equal(data_row(dat, 1, v, 4), 4);
	assert_near(v[2], 5.0 / 12.0, 1e-15);
	free(dat);

	struct bl_swpd_sample s[3] = { { 0, 100, NAN, NAN, 50 }, { 1, 200, NAN, NAN, 40 },
				       { 2, 300, NAN, NAN, NAN } };
	struct bl_swpd_group g[2] = { { .name = "no si/so", .samples = s, .nsamples = 3 },
				      { .name = "no samples" } };
	struct bl_swpd_plot sp = { .groups = g, .ngroups = 2 };
	opts_for(&o, "gaps-swpd", BL_PLOT_PNG);
	rc = bl_plot_swpd(&sp, &o, &r);
	if (rc || r.message)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *gp = slurp("gaps-swpd.gp", NULL);
	assert_contains(gp, "NaN axes x1y2 with lines lw 1.2 lc rgb '#009e73' title 'si (KiB/s)'");
	assert_contains(gp, "set label 'no samples'");
	free(gp);
	dat = slurp("gaps-swpd-1.dat", NULL);
	assert_contains(dat, "\n2 0.29296875 ? ? ?\n");
	free(dat);
	bl_plot_result_release(&r);
}

/* ---- e) runs -------------------------------------------------------------- */

static void test_plot__runs(void **state)
{
	(void)state;
	/* seeds/001 mem_load: Time and CPU of runs 1-3 per group. */
	const struct bl_run_point runs[] = {
		{ "Default tunables", 1, 39.70, 106, NAN },
		{ "Tweaked tunables", 1, 44.48, 96, NAN },
		{ "Default tunables", 2, 47.46, 102, NAN },
		{ "Tweaked tunables", 2, 42.15, 130, NAN },
		{ "Tweaked tunables", 3, 51.10, 130, NAN },
		{ "Default tunables", 3, 47.05, 88, NAN },
	};
	struct bl_runs_plot in = { runs, 6, NULL, 0 };
	struct bl_plot_opts o;
	opts_for(&o, "runs", BL_PLOT_PNG);
	o.title = "ConTest mem_load, 2.5.52-mm2";
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_runs(&in, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	char *gp = slurp("runs.gp", NULL);
	/* No allocation values: two panels. Means by hand: (39.70+47.46+47.05)/3
	 * = 44.7367, (44.48+42.15+51.10)/3 = 45.91; CPU (106+102+88)/3 = 98.6667
	 * and (96+130+130)/3 = 118.667: six digits, as the runs table shows a
	 * mean (bl_outtab_num). */
	assert_contains(gp, "set multiplot title 'ConTest mem_load, 2.5.52-mm2'");
	/* one legend below both panels, a line per group with its means */
	assert_contains(gp, "title 'Default tunables (3 runs): elapsed 44.7367 s, CPU 98.6667 %' noenhanced");
	assert_contains(gp, "title 'Tweaked tunables (3 runs): elapsed 45.91 s, CPU 118.667 %' noenhanced");
	assert_contains(gp, "set key at screen 0.01, screen LH left top Left reverse vertical samplen 2 maxrows 2");
	free(gp);
	/* Data sorted by run number within the group. */
	char *dat = slurp("runs-2.dat", NULL);
	assert_contains(dat, "\n1 44.48 96 ?\n2 42.15 130 ?\n3 51.1 130 ?\n");
	free(dat);
	/* two panels of 480 px beside a 120 px margin; 30 px of title, 400 of
	 * panels, the legend 20 + 17 px per group */
	assert_png("runs.png", 1080, 30 + 400 + 20 + 2 * 17, 10000);
	bl_plot_result_release(&r);

	/* Three panels: seeds/000 averages of 10 mtest01 runs per kernel,
	 * one point each (elapsed, CPU, bytes allocated). */
	const struct bl_run_point avg[] = {
		{ "2.4.12aa1", 1, 64.109, 7.5, 1253362892.8 },
		{ "2.4.13-pre2aa1", 1, 49.513, 9.7, 1245184000 },
	};
	in = (struct bl_runs_plot){ avg, 2, NULL, 0 };
	opts_for(&o, "runs3", BL_PLOT_PNG);
	rc = bl_plot_runs(&in, &o, &r);
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	gp = slurp("runs3.gp", NULL);
	/* 1245184000 / 2^20 = 1187.5 MiB; elapsed 49.513 s as read */
	assert_contains(gp, "title '2.4.13-pre2aa1 (1 run): elapsed 49.513 s, CPU 9.7 %, allocated 1187.5 MiB' noenhanced");
	free(gp);
	assert_png("runs3.png", 1560, 30 + 400 + 20 + 2 * 17, 10000);
	bl_plot_result_release(&r);
}

/* Defaults, a missing output folder, script_only, atomic writes. */
static void test_plot__files_and_defaults(void **state)
{
	(void)state;
	struct bl_swpd_group g = seed000_group();
	struct bl_swpd_plot in = { .groups = &g, .ngroups = 1 };
	struct bl_plot_opts o;
	o = (struct bl_plot_opts){ 0 };
	char *sub = path_in("new-folder");
	o.out_dir = sub; /* does not exist yet: created */
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	int rc = bl_plot_swpd_stutter(&in, &o, &r);
	if (rc == BL_PLOT_NOT_RENDERED)
		skip();
	if (rc)
		fail_msg("rc %d: %s", rc, r.message ? r.message : "");
	/* Default name and terms: PNG only. */
	assert_int_equal(r.nfiles, 3);
	assert_string_equal(r.files[0], "swpd-stutter.gp");
	assert_string_equal(r.files[1], "swpd-stutter-1.dat");
	assert_string_equal(r.files[2], "swpd-stutter.png");
	assert_true(exists("new-folder/swpd-stutter.png"));
	assert_false(exists("new-folder/swpd-stutter.svg"));
	assert_null(r.preview);

	o.basename = "only-script";
	o.script_only = true;
	assert_int_equal(bl_plot_swpd_stutter(&in, &o, &r), 0);
	assert_false(r.rendered);
	assert_int_equal(r.nfiles, 2);
	assert_false(exists("new-folder/only-script.png"));

	/* The script re-runs by hand (here through the runner). */
	char *err = NULL;
	assert_int_equal(bl_gp_run(sub, "only-script.gp", NULL, NULL, NULL, &err), 0);
	free(err);
	assert_true(exists("new-folder/only-script.png"));

	/* mkstemp temporaries were all renamed: no dot files left. */
	DIR *d = opendir(sub);
	assert_non_null(d);
	struct dirent *e;
	size_t n = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fail_msg("temporary file left: %s", e->d_name);
		n++;
	}
	closedir(d);
	assert_int_equal(n, 2 + 6); /* . .. and gp dat png twice */
	bl_plot_result_release(&r);
	free(sub);
}

/* ---- bad arguments ---------------------------------------------------------- */

static void test_plot__bad_arguments(void **state)
{
	(void)state;
	struct bl_swpd_group g = seed000_group();
	struct bl_swpd_plot in = { .groups = &g, .ngroups = 1 };
	struct bl_plot_opts o;
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };

	/* Requirement 3: a name gnuplot could read as a command is refused
	 * before any file is written. */
	static const char *const names[] = { "<touch x", "|touch x", "a/b", "-x", "a b" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		opts_for(&o, names[i], BL_PLOT_PNG);
		assert_int_equal(bl_plot_swpd(&in, &o, &r), -BL_EUSAGE);
		assert_non_null(r.message);
		assert_int_equal(r.nfiles, 0);
	}
	opts_for(&o, "badarg", 1u << 7);
	assert_int_equal(bl_plot_swpd(&in, &o, &r), -BL_EUSAGE);

	struct bl_swpd_sample s[2] = { { 0, 1, 1, 1, 1 }, { 1, INFINITY, 1, 1, 1 } };
	struct bl_swpd_group h = { .name = "x", .samples = s, .nsamples = 2 };
	in.groups = &h;
	opts_for(&o, "badarg", BL_PLOT_PNG);
	assert_int_equal(bl_plot_swpd(&in, &o, &r), -BL_ERANGE);
	s[1].swpd_kib = 1;
	s[1].t_s = -1;
	assert_int_equal(bl_plot_swpd(&in, &o, &r), -BL_EUSAGE);
	in.ngroups = 0;
	assert_int_equal(bl_plot_swpd(&in, &o, &r), -BL_EUSAGE);
	assert_int_equal(bl_plot_swpd(NULL, &o, &r), -BL_EUSAGE);
	assert_false(exists("badarg.gp"));

	const char *const units[2] = { "s", "us" };
	struct bl_latency_series ls[2] = { { "a", SEED001_HIST, 3, 0, units[0] },
					   { "b", SEED001_HIST, 3, 0, units[1] } };
	struct bl_latency_plot lp = { ls, 2, NULL, 0 };
	assert_int_equal(bl_plot_latency(&lp, &o, &r), -BL_EUSAGE);
	assert_contains(r.message, "unit");

	struct bl_contest_plot cp = { .loads = LOADS, .nloads = 8, .groups = TUNABLES,
				      .ngroups = 2, .cells = CONTEST_CELLS, .baseline = 8 };
	assert_int_equal(bl_plot_contest(&cp, &o, &r), -BL_EUSAGE);

	struct bl_run_point rp = { "x", -1, 1, 1, 1 };
	struct bl_runs_plot rr = { &rp, 1, NULL, 0 };
	assert_int_equal(bl_plot_runs(&rr, &o, &r), -BL_EUSAGE);
	bl_plot_result_release(&r);
	bl_plot_result_release(NULL);
}

/* ---- the injection catalogue (Requirements 1-4) ----------------------------- */

#define NPAY 14

struct payloads {
	char *text[NPAY];     /* the hostile strings */
	char *quoted[NPAY];   /* how the script must hold them (by hand) */
	char *sentinel[NPAY]; /* files that exist only if something ran */
};

static void make_payloads(struct payloads *p)
{
	for (int i = 0; i < NPAY; i++)
		p->sentinel[i] = bl_xasprintf("%s/pwned-%d", g_dir, i);
	char **s = p->sentinel;
#define PAY(i, txt, q) (p->text[i] = (txt), p->quoted[i] = (q))
	PAY(0, bl_xasprintf("`touch %s`", s[0]), bl_xasprintf("'`touch %s`'", s[0]));
	PAY(1, bl_xasprintf("$(touch %s)", s[1]), bl_xasprintf("'$(touch %s)'", s[1]));
	PAY(2, bl_xasprintf("'; system('touch %s'); x='", s[2]),
	    bl_xasprintf("'\xe2\x80\x99; system(''touch %s''); x='''", s[2]));
	PAY(3, bl_xasprintf("\"; system(\"touch %s\"); \"", s[3]),
	    bl_xasprintf("'\"; system(\"touch %s\"); \"'", s[3]));
	PAY(4, bl_xasprintf("line one\nsystem('touch %s')\n", s[4]),
	    bl_xasprintf("'line one system(''touch %s'') '", s[4]));
	PAY(5, bl_xasprintf("@GPVAL_TERM @fmts `touch %s`", s[5]),
	    bl_xasprintf("'@GPVAL_TERM @fmts `touch %s`'", s[5]));
	PAY(6, bl_xasprintf("<touch %s", s[6]), bl_xasprintf("'<touch %s'", s[6]));
	PAY(7, bl_xasprintf("|touch %s", s[7]), bl_xasprintf("'|touch %s'", s[7]));
	PAY(8, bl_xasprintf("\\`touch %s`\\", s[8]), bl_xasprintf("'\\`touch %s`\\'", s[8]));
	PAY(9, bl_xasprintf("\r`touch %s`\x1b[31m", s[9]),
	    bl_xasprintf("' `touch %s` [31m'", s[9]));
	PAY(10, bl_xasprintf("system('touch %s')", s[10]),
	    bl_xasprintf("'system(''touch %s'')'", s[10]));
	PAY(11, bl_xstrdup("a^2_b{c}&d~e @x"), bl_xstrdup("'a^2_b{c}&d~e @x'"));
	PAY(12, bl_xasprintf("x\" . system(\"touch %s\") . \"", s[12]),
	    bl_xasprintf("'x\" . system(\"touch %s\") . \"'", s[12]));
	PAY(13, bl_xasprintf("' . system('touch %s') . '", s[13]),
	    bl_xasprintf("'\xe2\x80\x99 . system(''touch %s'') . '''", s[13]));
#undef PAY
}

static void free_payloads(struct payloads *p)
{
	for (int i = 0; i < NPAY; i++) {
		free(p->text[i]);
		free(p->quoted[i]);
		free(p->sentinel[i]);
	}
}

static void assert_nothing_ran(const struct payloads *p)
{
	for (int i = 0; i < NPAY; i++)
		if (access(p->sentinel[i], F_OK) == 0)
			fail_msg("payload %d ran: %s exists", i, p->sentinel[i]);
}

static int render_ok(int rc, struct bl_plot_result *r)
{
	if (rc == BL_PLOT_NOT_RENDERED)
		return 1;
	if (rc)
		fail_msg("rc %d: %s", rc, r->message ? r->message : "");
	return 0;
}

static void test_plot__injection(void **state)
{
	(void)state;
	struct payloads p;
	make_payloads(&p);
	struct bl_plot_opts o;
	struct bl_plot_result r;
	r = (struct bl_plot_result){ 0 };
	bool skipped = false;

	/* a) group names, event text and the title. Event text is cut to 60
	 * characters, so the events carry the payloads that fit. */
	struct bl_swpd_group g[NPAY];
	struct bl_plot_event ev[NPAY];
	for (int i = 0; i < NPAY; i++) {
		ev[i] = (struct bl_plot_event){ (double)(i * 4), p.text[i], BL_PLOT_EV_NOTE };
		g[i] = (struct bl_swpd_group){ .name = p.text[i], .samples = SEED000_ROWS,
					       .nsamples = SEED000_N, .stutter = SEED000_STUTTER,
					       .nstutter = 1, .events = ev, .nevents = NPAY };
	}
	struct bl_swpd_plot sp = { .groups = g, .ngroups = NPAY, .bin_mib = 50 };
	opts_for(&o, "inj-swpd", BL_PLOT_PNG | BL_PLOT_SVG | BL_PLOT_DUMB);
	o.title = p.text[0];
	skipped |= render_ok(bl_plot_swpd(&sp, &o, &r), &r);
	char *gp = slurp("inj-swpd.gp", NULL);
	for (int i = 0; i < NPAY; i++) {
		char *want = bl_xasprintf("set title %s noenhanced", p.quoted[i]);
		assert_contains(gp, want);
		free(want);
	}
	assert_contains(gp, "set label '`touch ");
	free(gp);
	assert_nothing_ran(&p);
	if (!skipped) {
		/* The text reaches the image as written (SVG escapes only & < >). */
		char *svg = slurp("inj-swpd.svg", NULL);
		char *want = bl_xasprintf("`touch %s`", p.sentinel[0]);
		assert_contains(svg, want);
		free(want);
		want = bl_xasprintf("$(touch %s)", p.sentinel[1]);
		assert_contains(svg, want);
		free(want);
		assert_contains(svg, "@GPVAL_TERM @fmts");
		assert_contains(svg, "a^2_b{c}&amp;d~e @x");
		assert_contains(svg, "&lt;touch ");
		assert_contains(svg, "|touch ");
		free(svg);
		assert_contains(r.preview, "@GPVAL_TERM @fmts");
	}
	bl_plot_result_release(&r);

	/* b) the stutter chart's group names. */
	opts_for(&o, "inj-stutter", BL_PLOT_PNG);
	o.title = p.text[2];
	skipped |= render_ok(bl_plot_swpd_stutter(&sp, &o, &r), &r);
	gp = slurp("inj-stutter.gp", NULL);
	assert_contains(gp, p.quoted[2]);
	assert_contains(gp, "'`touch ");
	free(gp);
	assert_nothing_ran(&p);
	bl_plot_result_release(&r);

	/* c) load and group names, the value label. */
	const char *loads[NPAY], *groups[2] = { p.text[3], p.text[13] };
	struct bl_contest_cell cells[NPAY * 2];
	for (int i = 0; i < NPAY; i++) {
		loads[i] = p.text[i];
		cells[2 * i] = CONTEST_CELLS[(2 * i) % 16];
		cells[2 * i + 1] = CONTEST_CELLS[(2 * i + 1) % 16];
	}
	struct bl_contest_plot cp = { .loads = loads, .nloads = NPAY, .groups = groups,
				      .ngroups = 2, .cells = cells, .errbars = BL_ERRBAR_SD,
				      .baseline = 0, .value_label = p.text[12] };
	opts_for(&o, "inj-contest", BL_PLOT_PNG | BL_PLOT_SVG);
	o.title = p.text[4];
	skipped |= render_ok(bl_plot_contest(&cp, &o, &r), &r);
	gp = slurp("inj-contest.gp", NULL);
	/* Tic labels are cut to 40 characters: look for the first 20 bytes. */
	for (int i = 0; i < NPAY; i++) {
		char *want = bl_xstrndup(p.quoted[i], 20);
		assert_contains(gp, want);
		free(want);
	}
	assert_contains(gp, "'a^2_b{c}&d~e @x' 11, ");
	char *want = bl_xasprintf("set ylabel %s noenhanced", p.quoted[12]);
	assert_contains(gp, want);
	free(want);
	want = bl_xasprintf("set multiplot layout 2,1 title %s noenhanced", p.quoted[4]);
	assert_contains(gp, want);
	free(want);
	free(gp);
	assert_nothing_ran(&p);
	bl_plot_result_release(&r);

	/* d) series names, the unit, mark labels. */
	struct bl_latency_series ls[3] = {
		{ p.text[0], SEED001_HIST, SEED001_NBINS, 0, p.text[5] },
		{ p.text[6], SEED001_HIST + 3, 10, 1, p.text[5] },
		{ p.text[7], SEED001_HIST + 10, 5, 2, p.text[5] },
	};
	struct bl_plot_mark mk[3] = { { 0.2, p.text[8], BL_MARK_TARGET },
				      { 0.25, p.text[11], BL_MARK_THRESHOLD },
				      { 0.3, p.text[1], BL_MARK_THRESHOLD } };
	struct bl_latency_plot lp = { ls, 3, mk, 3 };
	opts_for(&o, "inj-latency", BL_PLOT_PNG | BL_PLOT_DUMB);
	o.title = p.text[9];
	skipped |= render_ok(bl_plot_latency(&lp, &o, &r), &r);
	gp = slurp("inj-latency.gp", NULL);
	assert_contains(gp, p.quoted[9]);
	assert_contains(gp, p.quoted[11]);
	want = bl_xasprintf("'Latency (@GPVAL_TERM @fmts `touch %s`)' noenhanced", p.sentinel[5]);
	assert_contains(gp, want);
	free(want);
	free(gp);
	/* The unit is no file name: the data file header falls back to "unit". */
	char *dat = slurp("inj-latency-1.dat", NULL);
	assert_contains(dat, "# value_unit count");
	free(dat);
	assert_nothing_ran(&p);
	bl_plot_result_release(&r);

	/* e) run group names. */
	struct bl_run_point rp[NPAY];
	for (int i = 0; i < NPAY; i++)
		rp[i] = (struct bl_run_point){ p.text[i], 1 + i % 3, 40.0 + i, 100.0 - i, 1e9 };
	struct bl_runs_plot rr = { rp, NPAY, NULL, 0 };
	opts_for(&o, "inj-runs", BL_PLOT_PNG);
	o.title = p.text[10];
	skipped |= render_ok(bl_plot_runs(&rr, &o, &r), &r);
	gp = slurp("inj-runs.gp", NULL);
	assert_contains(gp, p.quoted[10]);
	free(gp);
	assert_nothing_ran(&p);
	bl_plot_result_release(&r);

	/* Requirement 4: no data file holds any of the text. */
	static const char *const dats[] = { "inj-swpd-1.dat", "inj-stutter-1.dat",
					    "inj-contest-1.dat", "inj-latency-1.dat",
					    "inj-runs-1.dat" };
	for (size_t i = 0; i < sizeof dats / sizeof *dats; i++) {
		dat = slurp(dats[i], NULL);
		assert_non_null(dat);
		assert_null(strstr(dat, "touch"));
		assert_null(strchr(dat, '\''));
		free(dat);
	}
	free_payloads(&p);
	if (skipped)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot__quote),
		cmocka_unit_test(test_plot__safe_name),
		cmocka_unit_test(test_plot__run_reports_gnuplot_error),
		cmocka_unit_test(test_plot__missing_gnuplot_still_writes_script),
		cmocka_unit_test(test_plot__swpd_seed000),
		cmocka_unit_test(test_plot__swpd_free_own_axis),
		cmocka_unit_test(test_plot__swpd_free_strips_own_scale),
		cmocka_unit_test(test_plot__stutter_bins_seed000),
		cmocka_unit_test(test_plot__swpd_band),
		cmocka_unit_test(test_plot__swpd_chart_band_and_stutter),
		cmocka_unit_test(test_plot__swpd_stutter_chart),
		cmocka_unit_test(test_plot__contest_seed001),
		cmocka_unit_test(test_plot__latency_seed001),
		cmocka_unit_test(test_plot__no_warnings_on_gaps),
		cmocka_unit_test(test_plot__runs),
		cmocka_unit_test(test_plot__files_and_defaults),
		cmocka_unit_test(test_plot__bad_arguments),
		cmocka_unit_test(test_plot__injection),
	};
	return cmocka_run_group_tests_name("plot", tests, setup, teardown);
}

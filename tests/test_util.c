/* test_util.c — the number helpers' fast paths give exactly what the
 * general paths give. The expected values come from libc, independently of
 * benchlog's code: strtod(3) and strtoll(3) for reading, and for writing
 * the rule util.h states (the shortest of %.15g/%.16g/%.17g that strtod
 * reads back), computed here with snprintf. Inputs: hand-picked edge cases
 * and a fixed-seed pseudo-random sample of the shapes logs hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include "tables/table.h"
#include "core/util.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	/* xorshift64* (Vigna): fixed seed, same sequence on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

/* The rule of util.h, with libc only: %.12g when it reads back as v or
 * within 4 steps of nextafter() from it, else the shortest of %.15g,
 * %.16g and %.17g that reads back as v. */
static void ref_fmt(char *out, size_t n, double v)
{
	if (v == 0.0)
		v = 0.0;
	snprintf(out, n, "%.12g", v);
	double back = strtod(out, NULL), w = v;
	for (int k = 0; k < 4 && back != w; k++)
		w = nextafter(w, back);
	if (back == w) {
		snprintf(out, n, "%.15g", back);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(out, n, "%.*g", prec, v);
		if (prec == 17 || strtod(out, NULL) == v)
			return;
	}
}

static void check_fmt(double v)
{
	char got[40], want[40];
	bl_fmt_double(got, sizeof got, v);
	ref_fmt(want, sizeof want, v);
	if (strcmp(got, want) != 0)
		fail_msg("bl_fmt_double(%a) = \"%s\", want \"%s\"", v, got, want);
}

/* bl_xgrow: the array keeps what it held, has room for what was asked,
 * and is reallocated only when that is more than its capacity, which then
 * at least doubles (so appending n elements reallocates O(log n) times). */
static void test_util__xgrow_doubles(void **state)
{
	(void)state;
	long *v = NULL;
	size_t cap = 0, reallocs = 0;
	for (size_t n = 0; n < 100000; n++) {
		size_t before = cap;
		v = bl_xgrow(v, &cap, n + 1, sizeof *v);
		assert_true(cap >= n + 1);
		if (cap != before) {
			reallocs++;
			assert_true(cap >= 2 * before);
		}
		v[n] = (long)n * 7;
	}
	for (size_t n = 0; n < 100000; n++)
		assert_int_equal(v[n], (long)n * 7);
	assert_true(reallocs <= 15);          /* 8, 16, ... 131072: 15 steps */
	/* a jump past twice the capacity gets what was asked */
	v = bl_xgrow(v, &cap, 1000000, sizeof *v);
	assert_int_equal(cap, 1000000);
	assert_int_equal(v[99999], 99999L * 7);
	/* no change when it fits */
	long *same = bl_xgrow(v, &cap, 10, sizeof *v);
	assert_ptr_equal(same, v);
	assert_int_equal(cap, 1000000);
	free(v);
}

/* Numbers as written (docs/csv.md): the rounding of benchlog's own
 * arithmetic is not written, a digit of the input always is. Expected
 * texts worked out by hand (the %.17g text in the comment is what printf
 * shows of the double). */
static void test_util__fmt_double_no_float_artefacts(void **state)
{
	(void)state;
	static const struct { double v; const char *want; } cases[] = {
		{ 60 + 46.942, "106.942" },          /* 1m46.942s; 106.94200000000001 */
		{ 0.1 + 0.2, "0.3" },                /* 0.30000000000000004 */
		{ 1.1 * 1.1, "1.21" },               /* 1.2100000000000002 */
		{ (31.03 + 29.75 + 31.56) / 3, "30.78" },   /* 30.780000000000001 */
		{ 0.7 + 0.1, "0.8" },                /* 0.79999999999999993 */
		{ 23 - 1.1e-14, "23" },              /* 22.999999999999989, 3 steps below */
		{ 0.123456789012345, "0.123456789012345" },  /* 15 digits read in */
		{ 67.03 / 3, "22.343333333333334" }, /* no artefact: the shortest text */
		{ 2.0 / 3, "0.6666666666666666" },
		{ 0.1234567890123456, "0.1234567890123456" },  /* a 16th digit read in */
		{ 1e15 + 2, "1000000000000002" },
		{ 9007199254740993.0, "9007199254740992" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char got[40];
		bl_fmt_double(got, sizeof got, cases[i].v);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("bl_fmt_double(%.17g) = \"%s\", want \"%s\"", cases[i].v, got, cases[i].want);
		/* what SQLite stores reads the same */
		assert_true(bl_num_written(cases[i].v) == strtod(cases[i].want, NULL));
	}
}

/* A computed value (docs/statistics.md, D20): twelve significant digits,
 * trailing zeros dropped; whole digits from 10^12 on as bl_fmt_double
 * writes them. Expected texts: python3 f"{v:.12g}" (the first five are
 * the outputs the rule was made for), by hand for the rest. */
static void test_util__fmt_stat_twelve_digits(void **state)
{
	(void)state;
	static const struct { double v; const char *want; } cases[] = {
		{ 304781.9 - 306779.8, "-1997.9" },      /* -1997.899999999965 */
		{ -0.11999999999999744, "-0.12" },       /* a difference of two means */
		{ 66026.4000000002, "66026.4" },         /* an interpolated p95 */
		{ 27.839999999999975, "27.84" },         /* p99 */
		{ 1.0000000000291038, "1.00000000003" },
		{ 1.0 / 3, "0.333333333333" },
		{ 1e-5 / 3, "3.33333333333e-06" },
		{ 999999999999.4, "999999999999" },
		/* 12 digits would round it up to 10^12 ("1e+12"): every whole
		 * digit, as from 10^12 on and as the text tables write it */
		{ 999999999999.5, "1000000000000" },
		{ -999999999999.7, "-1000000000000" },
		/* from 10^12 to 10^15: every whole digit, no fraction (the
		 * 13th digit on is rounding, D20), a half to even as printf's
		 * %.0f and the text tables round it */
		{ 1099511627776.5, "1099511627776" },
		{ 1099511627777.5, "1099511627778" },
		{ 780864197253085.2, "780864197253085" },
		{ -780864197253085.7, "-780864197253086" },
		{ 999999999999999.6, "1000000000000000" },
		{ 123456789012345.0, "123456789012345" },
		{ 1234567890123456.5, "1234567890123456.5" },   /* from 10^15: bl_fmt_double's */
		{ 30.78, "30.78" },
		{ -0.0, "0" },
		{ INFINITY, "inf" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char got[40];
		bl_fmt_stat(got, sizeof got, cases[i].v);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("bl_fmt_stat(%.17g) = \"%s\", want \"%s\"", cases[i].v, got, cases[i].want);
	}
}

static void test_util__fmt_double_same_as_printf_rule(void **state)
{
	(void)state;
	static const double edge[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, 2.01, 64.109, 7.5, 1253362892.8, 306779.8,
		0.1, 0.2, 0.30000000000000004, 1e-4, 1.0001e-4, 9.9999e-5, 1e-5, 0.000123,
		999999999999999.0, 1e15, 1e15 + 2, -999999999999999.0, 123456789012345.6,
		12345678901234.56, 0.1234567, 1.000001, 1.0000001, 59.99, 3.14159265358979,
		1e300, -1e-300, 5e-324, 9007199254740993.0, 4503599627370497.5, 1.5e14,
		DBL_MAX_10_EXP, 86400.0 * 365, 0.05, 0.015, 100.0 / 3, 2.0 / 3, 1e21,
		/* digits rounded up into a new place, halves at 16 and 17
		 * digits, subnormals, the style of %g changing with the exponent */
		9.9999999999999995e-5, 0.99999999999999989, 9999999999999998.0, 1234567890123456.5,
		1.0000000000000002, 1e23, 9.999999999999999e22, 1.3580773062227149e-312, 2.5e-310,
		DBL_MIN, DBL_MAX, 1.2345678901234567e-5, 1.2345678901234567e16, 0.1 / 3,
	};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		check_fmt(edge[i]);
	for (int i = 0; i < 200000; i++) {
		uint64_t r = rng();
		double v;
		switch (i % 4) {
		case 0: /* n / 10^k, the shape of logged decimals */
			v = (double)(long long)(r % 100000000000ull) / pow(10, (double)((r >> 60) % 9));
			break;
		case 1: /* integers of every size up to 2^53 and beyond */
			v = (double)(r >> (r & 63));
			break;
		case 2: /* sums and quotients, as averages are */
			v = (double)(r % 1000000) / (double)(1 + (r >> 40) % 1000);
			break;
		default: { /* any finite bit pattern */
			memcpy(&v, &r, sizeof v);
			if (!isfinite(v))
				v = 1.0 / 3;
		}
		}
		check_fmt((r >> 63) ? -v : v);
	}
}

static void check_parse_double(const char *s)
{
	double got = NAN;
	int rc = bl_parse_double(s, strlen(s), &got);
	char *end;
	errno = 0;
	double want = strtod(s, &end);
	assert_int_equal(*end, '\0');
	assert_int_equal(rc, 0);
	if (memcmp(&got, &want, sizeof got) != 0)
		fail_msg("bl_parse_double(\"%s\") = %a, strtod says %a", s, got, want);
}

static void test_util__parse_double_same_as_strtod(void **state)
{
	(void)state;
	static const char *const edge[] = {
		"0", "-0", "+0", "0.0", "-0.0", "5.", ".5", "-.5", "2.01", "64.109",
		"000123.4500", "999999999999999", "9999999999999999", "0.000000000000001",
		"123456789012345", "1234567890123456", "12345678901234567890",
		"0.1234567890123456789", "1e5", "1.5E-3", "-7.25e+2", "3.14159265358979",
		"1253362892.8", "9007199254740993", "0.30000000000000004",
	};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		check_parse_double(edge[i]);
	char buf[64];
	for (int i = 0; i < 200000; i++) {
		uint64_t r = rng();
		int ndig = 1 + (int)(r % 19), dot = (int)((r >> 8) % (unsigned)(ndig + 2)) - 1;
		size_t o = 0;
		if ((r >> 16) % 4 == 0)
			buf[o++] = (r >> 20) & 1 ? '-' : '+';
		for (int d = 0; d < ndig; d++) {
			if (d == dot)
				buf[o++] = '.';
			buf[o++] = (char)('0' + (rng() % 10));
		}
		buf[o] = '\0';
		check_parse_double(buf);
	}
	double d;
	assert_int_equal(bl_parse_double(".", 1, &d), -BL_EFORMAT);
	assert_int_equal(bl_parse_double("-", 1, &d), -BL_EFORMAT);
	assert_int_equal(bl_parse_double("1.2.3", 5, &d), -BL_EFORMAT);
	assert_int_equal(bl_parse_double("12x", 3, &d), -BL_EFORMAT);
	assert_int_equal(bl_parse_double("nan", 3, &d), -BL_EFORMAT);
	assert_int_equal(bl_parse_double("1e999", 5, &d), -BL_ERANGE);
	assert_int_equal(bl_parse_double(" 2.5 ", 5, &d), 0);
	assert_true(d == 2.5);
}

static void test_util__parse_ll_same_as_strtoll(void **state)
{
	(void)state;
	char buf[40];
	for (int i = 0; i < 200000; i++) {
		uint64_t r = rng();
		int ndig = 1 + (int)(r % 20);
		size_t o = 0;
		if ((r >> 8) % 4 == 0)
			buf[o++] = (r >> 12) & 1 ? '-' : '+';
		for (int d = 0; d < ndig; d++)
			buf[o++] = (char)('0' + (rng() % 10));
		buf[o] = '\0';
		long long got = 0;
		int rc = bl_parse_ll(buf, o, &got);
		errno = 0;
		long long want = strtoll(buf, NULL, 10);
		if (errno == ERANGE || want > 999999999999999LL || want < -999999999999999LL) {
			assert_int_equal(rc, -BL_ERANGE);
		} else {
			assert_int_equal(rc, 0);
			if (got != want)
				fail_msg("bl_parse_ll(\"%s\") = %lld, strtoll says %lld", buf, got, want);
		}
	}
	long long v;
	assert_int_equal(bl_parse_ll("12a", 3, &v), -BL_EFORMAT);
	assert_int_equal(bl_parse_ll("1-2", 3, &v), -BL_EFORMAT);
	assert_int_equal(bl_parse_ll("", 0, &v), -BL_EFORMAT);
	assert_int_equal(bl_parse_ll("\t42 ", 4, &v), 0);
	assert_int_equal(v, 42);
	/* 15 digits at most (BL_INT_MAX), leading zeros aside */
	assert_int_equal(bl_parse_ll("999999999999999", 15, &v), 0);
	assert_int_equal(v, 999999999999999LL);
	assert_int_equal(bl_parse_ll("-999999999999999", 16, &v), 0);
	assert_int_equal(bl_parse_ll("1000000000000000", 16, &v), -BL_ERANGE);
	assert_int_equal(bl_parse_ll("-1000000000000000", 17, &v), -BL_ERANGE);
	assert_int_equal(bl_parse_ll("12345678901234567", 17, &v), -BL_ERANGE);
	assert_int_equal(bl_parse_ll("0000000000000000042", 19, &v), 0);
	assert_int_equal(v, 42);
}

/* The obvious byte loop, as the reference for bl_split_blanks. */
static size_t ref_split(const char *p, size_t len, const char **tok, size_t *tl, size_t max)
{
	size_t n = 0, i = 0;
	while (i < len) {
		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i == len)
			break;
		size_t b = i;
		while (i < len && p[i] != ' ' && p[i] != '\t')
			i++;
		if (n < max) {
			tok[n] = p + b;
			tl[n] = i - b;
		}
		n++;
	}
	return n;
}

static void test_util__split_blanks_same_as_byte_loop(void **state)
{
	(void)state;
	static const char alphabet[] = "  \t\t0123456789abc.-:\r\n";
	char line[300];
	for (int it = 0; it < 100000; it++) {
		uint64_t r = rng();
		size_t len = (size_t)(r % 260);
		unsigned blanks = 1 + (unsigned)((r >> 16) % 8);   /* blank density */
		for (size_t i = 0; i < len; i++) {
			uint64_t c = rng();
			line[i] = (c % 10) < blanks ? ((c >> 8) & 1 ? ' ' : '\t')
				: alphabet[4 + (c >> 16) % (sizeof alphabet - 5)];
		}
		size_t max = (size_t)((r >> 32) % 40);
		const char *t1[40], *t2[40];
		size_t l1[40], l2[40];
		size_t n1 = bl_split_blanks(line, len, t1, l1, max);
		size_t n2 = ref_split(line, len, t2, l2, max);
		assert_int_equal(n1, n2);
		for (size_t k = 0; k < n1 && k < max; k++) {
			assert_ptr_equal(t1[k], t2[k]);
			assert_int_equal(l1[k], l2[k]);
		}
	}
	const char *t[4];
	size_t l[4];
	assert_int_equal(bl_split_blanks("", 0, t, l, 4), 0);
	assert_int_equal(bl_split_blanks(" \t ", 3, t, l, 4), 0);
	assert_int_equal(bl_split_blanks(" 12  x\t", 7, t, l, 4), 2);
	assert_int_equal(l[0], 2);
	assert_int_equal(l[1], 1);
}

/* bl_scan_uints() of s, from a copy with BL_SCAN_ROOM readable bytes
 * after it (util.h) */
static long scan_padded(const char *s, long long *v, unsigned short *at, unsigned char *nd, size_t max,
			char *out)
{
	static char buf[256 + BL_SCAN_ROOM];
	size_t n = strlen(s);
	memset(buf, 0, sizeof buf);
	memcpy(buf, s, n);
	bool whole;
	return bl_scan_uints(buf, n, v, at, nd, max, out, &whole);
}

static void test_util__scan_uints_same_as_strtoll(void **state)
{
	(void)state;
	char line[2000], out[2000 + 1 + BL_SCAN_ROOM], want_out[2001];
	unsigned short at[64];
	unsigned char ndig[64];
	for (int it = 0; it < 200000; it++) {
		uint64_t r = rng();
		/* every other line short, with short numbers (a vmstat row) */
		bool short_line = it % 2;
		size_t ntok = (size_t)(r % (short_line ? 14 : 40));
		bool bad_wanted = (r >> 8) % 8 == 0;
		size_t o = 0, wo = 0;
		long long want[64];
		size_t want_at[64], want_nd[64];
		bool bad = false;
		size_t long_line = (r >> 12) % 16 == 0 ? (short_line ? 40 : 300) : 0;
		while (o < long_line)
			line[o++] = ' ';
		for (size_t k = 0; k < ntok; k++) {
			size_t blanks = (size_t)(rng() % 4) + (k > 0);
			for (size_t b = 0; b < blanks; b++)
				line[o++] = rng() % 3 ? ' ' : '\t';
			size_t nd = 1 + (size_t)(rng() % (short_line && rng() % 8 ? 7 : 20));
			size_t t0 = o;
			for (size_t d = 0; d < nd; d++)
				line[o++] = (char)('0' + rng() % 10);
			if (bad_wanted && rng() % 10 == 0) {
				line[t0 + rng() % nd] = "x-:.+/"[rng() % 6];
				bad = true;
			}
			if (nd > 15)
				bad = true;
			if (!bad) {
				char tmp[32];
				memcpy(tmp, line + t0, nd);
				tmp[nd] = '\0';
				want[k] = strtoll(tmp, NULL, 10);
				want_at[k] = wo;
				want_nd[k] = (line[t0] != '0' || nd == 1) && nd < 16 ? nd : 0;
				memcpy(want_out + wo, line + t0, nd);
				wo += nd;
				want_out[wo++] = ',';
			}
		}
		size_t trail = (size_t)(rng() % 3);
		for (size_t b = 0; b < trail; b++)
			line[o++] = ' ';
		line[o] = '\0';             /* the byte after a line (util.h) */
		size_t max = rng() % 2 ? ntok : (size_t)(rng() % 45);
		long long got[64];
		bool whole;
		long n = bl_scan_uints(line, o, got, at, ndig, max, out, &whole);
		if (bad || ntok > max) {
			if (n != -1)
				fail_msg("bl_scan_uints(\"%.*s\") = %ld, want -1", (int)o, line, n);
			continue;
		}
		if (n != (long)ntok)
			fail_msg("bl_scan_uints(\"%.*s\") = %ld, want %zu", (int)o, line, n, ntok);
		bool want_whole = true;
		for (size_t k = 0; k < ntok; k++)
			want_whole = want_whole && want_nd[k];
		if (whole != want_whole)
			fail_msg("bl_scan_uints(\"%.*s\"): whole %d, want %d", (int)o, line, whole, want_whole);
		for (size_t k = 0; k < ntok; k++)
			if (got[k] != want[k] || at[k] != want_at[k] || ndig[k] != want_nd[k])
				fail_msg("bl_scan_uints token %zu of \"%.*s\" = %lld at %u (%u digits), want %lld at %zu (%zu)",
					 k, (int)o, line, got[k], at[k], ndig[k], want[k], want_at[k], want_nd[k]);
		if (memcmp(out, want_out, wo) != 0)
			fail_msg("bl_scan_uints(\"%.*s\") wrote \"%.*s\", want \"%.*s\"", (int)o, line, (int)wo, out,
				 (int)wo, want_out);
	}
	long long v[4];
	assert_int_equal(scan_padded("", v, at, ndig, 4, out), 0);
	assert_int_equal(scan_padded(" 0  1 23\t", v, at, ndig, 4, out), 3);
	assert_int_equal(v[2], 23);
	assert_int_equal(scan_padded("12345678 999999999999999", v, at, ndig, 4, out), 2);
	assert_int_equal(v[0], 12345678);
	assert_int_equal(v[1], 999999999999999LL);
	/* 16 digits, even with leading zeros: the general path's (vmstat.c) */
	assert_int_equal(scan_padded("1 1000000000000000", v, at, ndig, 4, out), -1);
	assert_int_equal(scan_padded("1 0000000000000001", v, at, ndig, 4, out), -1);
	assert_int_equal(scan_padded("1 -2", v, at, ndig, 4, out), -1);
	assert_int_equal(scan_padded("1 2 3", v, at, ndig, 2, out), -1);
	/* the digits as written only where they are the value's own */
	assert_int_equal(scan_padded(" 007 0 10", v, at, ndig, 4, out), 3);
	assert_memory_equal(out, "007,0,10,", 9);
	assert_int_equal(at[0], 0);
	assert_int_equal(ndig[0], 0);
	assert_int_equal(at[1], 4);
	assert_int_equal(ndig[1], 1);
	assert_int_equal(at[2], 6);
	assert_int_equal(ndig[2], 2);
}

/* bl_csv_write_record's integers (tables/table.c writes them itself)
 * against libc's "%lld":
 * every value near a power of ten, both signs, the extremes, and random
 * values of every length; integral doubles below 10^15 take the same
 * path and must print as %.0f does. */
static void test_util__csv_integers_same_as_printf(void **state)
{
	(void)state;
	enum { NCOL = 40 };
	static struct bl_col_def cols[NCOL];
	for (size_t i = 0; i < NCOL; i++)
		cols[i] = (struct bl_col_def){ "x", i % 2 ? BL_NUM : BL_INT, "", "", BL_ROLE_MEASURE,
					       BL_BETTER_NONE };
	const struct bl_table_def t = { "ints", "", NCOL, cols, NULL, .group_col = "group" };
	long long vals[2000];
	size_t nv = 0;
	const long long edge[] = { 0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, LLONG_MAX, LLONG_MIN,
				   LLONG_MIN + 1, LLONG_MAX - 1 };
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
		vals[nv++] = edge[i];
		if (edge[i] != LLONG_MIN)
			vals[nv++] = -edge[i];
	}
	long long p10 = 1;
	for (int k = 0; k <= 18; k++) {
		vals[nv++] = p10 - 1;
		vals[nv++] = p10;
		vals[nv++] = p10 + 1;
		vals[nv++] = -p10;
		if (k < 18)
			p10 *= 10;
	}
	srand(7);
	while (nv < sizeof vals / sizeof vals[0]) {
		unsigned long long u = ((unsigned long long)rand() << 40) ^ ((unsigned long long)rand() << 20) ^
				       (unsigned long long)rand();
		int digits = 1 + rand() % 19;
		long long m = 1;
		for (int d = 1; d < digits; d++)
			m *= 10;
		long long x = (long long)(u % (unsigned long long)m);
		vals[nv++] = rand() % 2 ? x : -x;
	}
	struct bl_record r;
	memset(&r, 0, sizeof r);
	r.table = &t;
	r.source = "s";
	r.group = "g";
	for (size_t base = 0; base < nv; base += NCOL) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		assert_non_null(f);
		size_t n = nv - base < NCOL ? nv - base : NCOL;
		for (size_t i = 0; i < NCOL; i++) {
			long long x = vals[base + (i < n ? i : 0)];
			if (i % 2 && (x > 999999999999999LL || x < -999999999999999LL))
				x %= 1000000000000000LL;         /* integral doubles below 10^15 */
			if (i % 2)
				bl_set_num(&r, i, (double)x);
			else
				bl_set_int(&r, i, x);
		}
		assert_int_equal(bl_csv_write_record(f, &r), 0);
		fclose(f);
		/* s,0,,,,0,g,,,, then the columns */
		const char *p = buf;
		for (int skip = 0; skip < BL_PROV_COLS; skip++)
			p = strchr(p, ',') + 1;
		for (size_t i = 0; i < NCOL; i++) {
			char want[32];
			const struct bl_val *v = &r.v[i];
			if (v->t == BL_INT)
				snprintf(want, sizeof want, "%lld", v->u.i);
			else
				snprintf(want, sizeof want, "%.0f", v->u.d);
			size_t l = strcspn(p, ",\n");
			if (l != strlen(want) || memcmp(p, want, l) != 0)
				fail_msg("column %zu: wrote \"%.*s\", want \"%s\"", i, (int)l, p, want);
			p += l + 1;
		}
		free(buf);
	}
}

/* Text columns row after row through one writer (tables/table.c keeps
 * the provenance text of the last row and reuses it while it is the same):
 * a source or group that starts like the last one but goes on with a comma
 * or a quote, or stops short of it, or changes in place in the same
 * buffer, is still written by RFC 4180's rules. Expected rows by hand. */
/* docs/csv.md "Text": valid UTF-8 without \x or \\ as it is; any other
 * text with its backslashes doubled and each byte outside UTF-8 as \xHH,
 * so different texts give different cells (expected values by hand). */
static void test_util__text_cell_one_per_text(void **state)
{
	(void)state;
	static const struct { const char *in, *want; } v[] = {
		{ "plain", "plain" },
		{ "C:\\logs \xc2\xb5s", "C:\\logs \xc2\xb5s" },   /* a lone backslash, U+00B5 */
		{ "k\xff", "k\\xff" },
		{ "k\\xff", "k\\\\xff" },                       /* the text \xff itself */
		{ "k\xc0\xaf", "k\\xc0\\xaf" },                  /* overlong '/' */
		{ "k\xed\xa0\x80", "k\\xed\\xa0\\x80" },        /* a surrogate */
		{ "a\\\\b\xfe", "a\\\\\\\\b\\xfe" },
		{ "k\xef\xbf\xbd", "k\xef\xbf\xbd" },            /* U+FFFD is text */
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		char *fixed;
		const char *got = bl_utf8_clean(v[i].in, &fixed);
		if (strcmp(got, v[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, got, v[i].want);
		assert_true(fixed == NULL || got == fixed);
		free(fixed);
	}
}

static void test_util__csv_text_again_and_different(void **state)
{
	(void)state;
	static const struct bl_col_def cols[] = { { "t", BL_STR, "", "", BL_ROLE_LABEL, BL_BETTER_NONE } };
	const struct bl_table_def t = { "texts", "", 1, cols, NULL, .group_col = "group" };
	static const struct { const char *src, *grp, *col, *want; } rows[] = {
		{ "logs/2.4.10-ac12/vmstat.txt", "kernel 2.4.10", "text one",
		  "logs/2.4.10-ac12/vmstat.txt,7,,,,0,kernel 2.4.10,,,,text one\n" },
		{ "logs/2.4.10-ac12/vmstat.txt", "kernel 2.4.10", "text one",
		  "logs/2.4.10-ac12/vmstat.txt,7,,,,0,kernel 2.4.10,,,,text one\n" },
		{ "logs/2.4.10-ac12/vmstat.txt,2", "kernel 2.4.10\"b", "text one, two",
		  "\"logs/2.4.10-ac12/vmstat.txt,2\",7,,,,0,\"kernel 2.4.10\"\"b\",,,,\"text one, two\"\n" },
		{ "logs/2.4.10-ac12/vmstat.tx", "kernel 2.4.1", "text on",
		  "logs/2.4.10-ac12/vmstat.tx,7,,,,0,kernel 2.4.1,,,,text on\n" },
		{ "logs/2.4.10-ac12/vmstat.txt", "kernel 2.4.10\n", "text one\xff",
		  "logs/2.4.10-ac12/vmstat.txt,7,,,,0,\"kernel 2.4.10\n\",,,,text one\\xff\n" },
		{ "logs/2.4.10-ac12/vmstat.txt", "kernel 2.4.10", "text one",
		  "logs/2.4.10-ac12/vmstat.txt,7,,,,0,kernel 2.4.10,,,,text one\n" },
		{ "logs/2.4.10-ac12/vmstat.txt", "kernel 2.4.11", "text one",
		  "logs/2.4.10-ac12/vmstat.txt,7,,,,0,kernel 2.4.11,,,,text one\n" },
	};
	struct bl_record r;
	memset(&r, 0, sizeof r);
	r.table = &t;
	r.line = 7;
	char src[64], grp[64];          /* the same buffers, changed in place */
	char *buf = NULL;
	size_t len = 0, done = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct bl_csv_writer *w = bl_csv_writer_new(f);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		snprintf(src, sizeof src, "%s", rows[i].src);
		snprintf(grp, sizeof grp, "%s", rows[i].grp);
		r.source = src;
		r.group = grp;
		bl_set_str(&r, 0, rows[i].col);
		assert_int_equal(bl_csv_writer_record(w, &r), 0);
		assert_int_equal(bl_csv_writer_flush(w), 0);
		fflush(f);
		if (len - done != strlen(rows[i].want) || memcmp(buf + done, rows[i].want, len - done) != 0)
			fail_msg("row %zu: wrote \"%.*s\", want \"%s\"", i, (int)(len - done), buf + done,
				 rows[i].want);
		done = len;
	}
	bl_csv_writer_free(w);
	fclose(f);
	free(buf);
}

/* A program planted in the current folder is never found with PATH
 * unset (execvp(3) and the shell search the system's default folders
 * then, and so does bl_find_program); an explicit "." in PATH is the
 * user's choice and is searched. */
static void test_util__find_program_path_unset(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/benchlog-test-XXXXXX", cwd[4096];
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(tmpl), 0);
	FILE *f = fopen("benchlog-planted", "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod("benchlog-planted", 0755), 0);
	char *old = getenv("PATH") ? bl_xstrdup(getenv("PATH")) : NULL;
	unsetenv("PATH");
	char *planted = bl_find_program("benchlog-planted");
	char *sh = bl_find_program("sh");        /* /bin/sh on every POSIX system */
	setenv("PATH", ".", 1);
	char *dot = bl_find_program("benchlog-planted");
	if (old)
		setenv("PATH", old, 1);
	else
		unsetenv("PATH");
	free(old);
	assert_int_equal(unlink("benchlog-planted"), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rmdir(tmpl), 0);
	assert_null(planted);
	assert_non_null(sh);
	assert_true(sh[0] == '/');
	assert_non_null(dot);
	g_free(sh);
	g_free(dot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_util__xgrow_doubles),
		cmocka_unit_test(test_util__fmt_double_no_float_artefacts),
		cmocka_unit_test(test_util__fmt_stat_twelve_digits),
		cmocka_unit_test(test_util__fmt_double_same_as_printf_rule),
		cmocka_unit_test(test_util__parse_double_same_as_strtod),
		cmocka_unit_test(test_util__parse_ll_same_as_strtoll),
		cmocka_unit_test(test_util__split_blanks_same_as_byte_loop),
		cmocka_unit_test(test_util__scan_uints_same_as_strtoll),
		cmocka_unit_test(test_util__csv_integers_same_as_printf),
		cmocka_unit_test(test_util__csv_text_again_and_different),
		cmocka_unit_test(test_util__text_cell_one_per_text),
		cmocka_unit_test(test_util__find_program_path_unset),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}

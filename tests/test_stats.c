/* test_stats.c — analyze/stats.h against values worked out elsewhere.
 *
 * Where the expected values come from (never from this code):
 *   [datamash]  GNU datamash 1.7, whose perc/median/q1/q3 are Hyndman-Fan
 *               type 7 (checked: `printf '1\n2\n3\n4\n' | datamash perc:25 1`
 *               gives 1.75, perc:10 gives 1.3 = (n-1)p/100 interpolation).
 *   [ministat]  Debian ministat 20150715 (FreeBSD ministat, pooled Student t
 *               with a 3-decimal t table).
 *   [ref.py]    tests/stats-oracle/ref.py: python3 + mpmath, t CDF by
 *               numerical integration of the density (50 digits), U by
 *               midranks of the expanded samples, the Kolmogorov series
 *               summed directly. `python3 tests/stats-oracle/ref.py`.
 *   [hand]      worked out in the comment next to the value.
 * Data: ConTest times from /work/shared/seeds/001 (three runs per load,
 * default and tweaked VM tunables), the seed 001 latency histogram, and the
 * cyclictest histogram of realworld/24 (two threads, 60000 samples each).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| <= rel * |want| (rel itself when want is 0). */
static void near_rel(double got, double want, double rel, const char *what, int line)
{
	double err = fabs(got - want);
	double lim = rel * fabs(want);

	if (want == 0.0)
		lim = rel;
	if (!(err <= lim)) {
		print_error("line %d: %s: got %.17g, want %.17g (rel tol %g)\n",
			    line, what, got, want, rel);
		fail();
	}
}
#define NEAR_REL(got, want, rel) near_rel((got), (want), (rel), #got, __LINE__)

static void near_abs(double got, double want, double tol, const char *what, int line)
{
	if (!(fabs(got - want) <= tol)) {
		print_error("line %d: %s: got %.17g, want %.17g (abs tol %g)\n",
			    line, what, got, want, tol);
		fail();
	}
}
#define NEAR_ABS(got, want, tol) near_abs((got), (want), (tol), #got, __LINE__)

static struct bl_welford wf(const double *x, size_t n)
{
	struct bl_welford w;
	size_t i;

	bl_welford_init(&w);
	for (i = 0; i < n; i++)
		assert_int_equal(bl_welford_add(&w, x[i]), 0);
	return w;
}

/* x added to partial p as one value, the way `stats` makes a partial:
 * a bl_dist of it (D11) merged into p (D10). 0, or -BL_ERANGE for a
 * non-finite x, which p counts in rejected (D0). */
static int partial_add(struct bl_partial *p, double x)
{
	struct bl_dist *d = bl_dist_new_exact(1, NULL);
	struct bl_partial q;
	int rc = bl_dist_add(d, x);
	bl_partial_init(&q);
	bl_dist_to_partial(d, &q);
	bl_partial_merge(p, &q);
	bl_partial_release(&q);
	bl_dist_free(d);
	return rc;
}

/* Seed 001 ConTest wall-clock times (s), 3 runs each. */
static const double noload_def[] = { 18.82, 18.67, 18.56 };
static const double noload_tw[] = { 18.62, 18.70, 18.95 };
static const double read_def[] = { 31.20, 30.11, 31.03 };
static const double read_tw[] = { 22.66, 23.11, 21.26 };
static const double proc_def[] = { 25.12, 20.57, 26.16 };
static const double proc_tw[] = { 27.54, 27.37, 27.44 };
/* All 24 default-tunable times and all 24 tweaked ones, in file order. */
static const double all_def[] = {
	18.82, 25.12, 32.73, 30.51, 37.13, 31.20, 22.33, 39.70,
	18.67, 20.57, 24.48, 31.33, 32.06, 30.11, 19.49, 47.46,
	18.56, 26.16, 68.20, 28.97, 29.25, 31.03, 21.81, 47.05,
};
static const double all_tw[] = {
	18.62, 27.54, 27.53, 32.61, 42.57, 22.66, 21.63, 44.48,
	18.70, 27.37, 73.84, 25.15, 35.49, 23.11, 21.61, 42.15,
	18.95, 27.44, 23.68, 31.76, 33.40, 21.26, 20.29, 51.10,
};
static const double uneq_a[] = { 1.1, 2.3, 2.9, 4.0, 5.5, 6.1, 7.7 };
static const double uneq_b[] = { 3.0, 3.1, 3.3, 3.2, 2.9, 3.05, 3.15, 3.22, 3.08, 3.11, 2.98 };

/* Seed 001 histogram, the 28 `seconds: count` lines. */
static const struct bl_bin seed001[] = {
	{ 0.192, 1 }, { 0.199, 1 }, { 0.200, 10 }, { 0.201, 201 }, { 0.202, 53 },
	{ 0.203, 25 }, { 0.204, 22 }, { 0.205, 21 }, { 0.206, 34 }, { 0.207, 29 },
	{ 0.208, 29 }, { 0.209, 100 }, { 0.210, 250 }, { 0.211, 120 }, { 0.212, 35 },
	{ 0.213, 16 }, { 0.214, 17 }, { 0.215, 14 }, { 0.216, 9 }, { 0.217, 1 },
	{ 0.218, 3 }, { 0.219, 3 }, { 0.220, 1 }, { 0.222, 1 }, { 0.233, 1 },
	{ 0.303, 1 }, { 0.304, 1 }, { 0.385, 1 },
};

/* realworld/24 cyclictest -h 1000: latency (us), thread 0, thread 1. */
static const double cyc[][3] = {
	{ 10, 111, 5 }, { 11, 250, 48 }, { 12, 171, 25 }, { 13, 2, 2 },
	{ 14, 5528, 51245 }, { 15, 10738, 8519 }, { 16, 66, 73 }, { 17, 31732, 50 },
	{ 18, 11253, 15 }, { 19, 99, 4 }, { 20, 29, 3 }, { 21, 7, 0 }, { 22, 4, 0 },
	{ 23, 3, 3 }, { 24, 2, 3 }, { 25, 2, 1 }, { 26, 2, 1 }, { 27, 1, 2 }, { 31, 0, 1 },
};

/* Deterministic generator (splitmix64), same sequence on every libc. */
static uint64_t rng_state;
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static double rng_unit(void) /* (0,1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}
static double rng_normal(void)
{
	return sqrt(-2.0 * log(rng_unit())) * cos(2.0 * M_PI * rng_unit());
}

/* ---- D1, D2 ------------------------------------------------------------ */

static void test_stats__welford_matches_datamash(void **state)
{
	struct bl_welford w = wf(all_def, N_OF(all_def));

	(void)state;
	/* [datamash] datamash count 1 mean 1 sstdev 1 min 1 max 1 < all_def.txt
	 * -> 24 30.530833333333 11.400563264752 18.56 68.2 */
	assert_true(w.n == 24);
	NEAR_REL(bl_welford_mean(&w), 30.530833333333, 1e-12);
	NEAR_REL(bl_welford_sd(&w), 11.400563264752, 1e-12);
	assert_true(w.min == 18.56 && w.max == 68.2);

	/* [ministat] ministat -A rd_def rd_tw: Avg 30.78 / 22.343333,
	 * Stddev 0.58642988 / 0.96479704 (8 significant digits). */
	w = wf(read_def, 3);
	NEAR_REL(bl_welford_sd(&w), 0.58642988, 1e-8);
	w = wf(read_tw, 3);
	NEAR_REL(bl_welford_mean(&w), 22.343333, 1e-7);
	NEAR_REL(bl_welford_sd(&w), 0.96479704, 1e-8);
}

static void test_stats__welford_large_offset_stays_positive(void **state)
{
	/* ministat's sum-of-squares variance prints "-nan" for these
	 * (`printf '100000000.1\n100000000.2\n100000000.3\n' | ministat -n`);
	 * [datamash] sstdev gives 0.10000000000218. Welford in double carries
	 * the mean to 1 ulp (1.5e-8 at 1e8), which moves each deviation of
	 * ~0.1 by up to 1.5e-7 relative: D2 promises no better than
	 * eps * |mean| / sd, here 1e-7, so 1e-6. The shifted form (D2) gives
	 * the exact sd of the three doubles [exact.py]. */
	const double x[] = { 100000000.1, 100000000.2, 100000000.3 };
	struct bl_welford w = wf(x, 3);

	(void)state;
	NEAR_REL(bl_welford_sd(&w), 0.10000000000218, 1e-6);
	NEAR_REL(bl_welford_sd(&w), 0.10000000149011622, 1e-15);
}

/* D2 accuracy where a plain Welford update fails, against exact rational
 * arithmetic [exact.py]: `python3 tests/stats-oracle/exact.py`. The values
 * are read by bl_parse_double (D0: subnormals are numbers). */
static void welford_of_text(const char *const *t, size_t n, struct bl_welford *w)
{
	bl_welford_init(w);
	for (size_t i = 0; i < n; i++) {
		double d;
		assert_int_equal(bl_parse_double(t[i], (size_t)-1, &d), 0);
		assert_int_equal(bl_welford_add(w, d), 0);
	}
}

static void test_stats__welford_exact_references(void **state)
{
	static const char *const sub[] = { "1e-310", "2e-310", "3e-310", "5e-310", "2.5e-310" };
	static const char *const big[] = { "1.7e308", "1.6e308", "1.79e308", "1.0e308", "-1.5e308" };
	const char *off[12];
	char buf[12][24];
	struct bl_welford w, a, b;

	(void)state;
	welford_of_text(sub, N_OF(sub), &w);
	NEAR_REL(bl_welford_mean(&w), 2.699999999999996692e-310, 1e-12);
	NEAR_REL(bl_welford_sd(&w), 1.4832396974191272256e-310, 1e-12);
	welford_of_text(big, N_OF(big), &w);
	NEAR_REL(bl_welford_mean(&w), 9.1799999999999997495e+307, 1e-12);
	NEAR_REL(bl_welford_sd(&w), 1.3865857348177212417e+308, 1e-12);
	/* issue 37: D3 between -1.5e308 and 1e308 does not overflow. R:
	 * quantile(c(1.7e308, 1.6e308, 1.79e308, 1e308, -1.5e308), c(.01, .99),
	 * type = 7) = -1.4000000000000001e+308, 1.7864000000000001e+308; the
	 * 95 % half-width t_{.975,4} s / sqrt 5 = 2.7764451051977934 (R's qt)
	 * x 1.3865857348177212e308 / sqrt 5 = 1.721673587346076e308 (python3,
	 * s from exact fractions above), finite */
	{
		double x[] = { -1.5e308, 1.0e308, 1.6e308, 1.7e308, 1.79e308 };
		NEAR_REL(bl_percentile_sorted(x, 5, 1, BL_PCT_TYPE7), -1.4000000000000001e+308, 1e-12);
		NEAR_REL(bl_percentile_sorted(x, 5, 99, BL_PCT_TYPE7), 1.7864000000000001e+308, 1e-12);
		struct bl_dist *d = bl_dist_new_exact(BL_DIST_EXACT_MAX, NULL);
		for (size_t i = 0; i < 5; i++)
			assert_int_equal(bl_dist_add(d, x[i]), 0);
		NEAR_REL(bl_dist_percentile(d, 1, BL_PCT_TYPE7), -1.4000000000000001e+308, 1e-12);
		bl_dist_free(d);
		NEAR_REL(bl_ci_half(bl_welford_sd(&w), 5, 0.95), 1.721673587346076e308, 1e-12);
	}
	/* 1e15 + 0.1 k, k = 1..12, as parsed (ulp at 1e15 is 0.125) */
	for (int k = 1; k <= 12; k++) {
		snprintf(buf[k - 1], sizeof buf[0], "%lld.%d", 1000000000000000LL + k / 10, k % 10);
		off[k - 1] = buf[k - 1];
	}
	welford_of_text(off, 12, &w);
	NEAR_REL(bl_welford_mean(&w), 1000000000000000.6563, 1e-15);
	NEAR_REL(bl_welford_sd(&w), 0.36589320970618040303, 1e-12);
	/* the same data split and merged, in either order (D2 merge keeps
	 * the shift of the side merged into) */
	welford_of_text(off, 5, &a);
	welford_of_text(off + 5, 7, &b);
	bl_welford_merge(&a, &b);
	NEAR_REL(bl_welford_sd(&a), 0.36589320970618040303, 1e-12);
	welford_of_text(off, 5, &a);
	bl_welford_merge(&b, &a);
	NEAR_REL(bl_welford_sd(&b), 0.36589320970618040303, 1e-12);
	/* near DBL_MAX merged with subnormals: the scale rises */
	welford_of_text(sub, N_OF(sub), &a);
	welford_of_text(big, N_OF(big), &b);
	bl_welford_merge(&a, &b);
	assert_true(a.n == 10 && isfinite(bl_welford_sd(&a)));
	/* [hand] the subnormals move the mean of ten by 9.18e307 * 5 / 10 */
	NEAR_REL(bl_welford_mean(&a), 9.1799999999999997495e+307 / 2, 1e-12);
}

static void roundtrip(const struct bl_partial *p, struct bl_partial *q);

/* D10: partials of data with mean 1e9 and sd 1 merge, through the file
 * format, to the one-pass mean and sd within 1e-12 relative. */
static void test_stats__partial_merge_mean_1e9(void **state)
{
	enum { N = 100000 };
	static double x[N];
	struct bl_partial one, merged, part, back[2];

	(void)state;
	rng_state = 4242;
	for (size_t i = 0; i < N; i++)  /* uniform, sd 1: width sqrt(12) */
		x[i] = 1e9 + (rng_unit() - 0.5) * 3.4641016151377544;
	bl_partial_init(&one);
	bl_partial_init(&merged);
	bl_partial_init(&back[0]);
	bl_partial_init(&back[1]);
	for (size_t i = 0; i < N; i++)
		partial_add(&one, x[i]);
	for (size_t k = 0; k < 7; k++) {
		bl_partial_init(&part);
		for (size_t i = k * N / 7; i < (k + 1) * N / 7; i++)
			partial_add(&part, x[i]);
		roundtrip(&part, back);
		bl_partial_merge(&merged, &back[0]);
		bl_partial_release(&part);
	}
	assert_true(merged.w.n == N);
	NEAR_REL(merged.w.mean, one.w.mean, 1e-15);
	NEAR_REL(bl_welford_sd(&merged.w), bl_welford_sd(&one.w), 1e-12);
	NEAR_REL(bl_welford_sd(&one.w), 1.0, 0.01);
	bl_partial_release(&one);
	bl_partial_release(&merged);
	bl_partial_release(&back[0]);
	bl_partial_release(&back[1]);
}

static void test_stats__welford_edge_cases(void **state)
{
	struct bl_welford w, c;
	const double five[] = { 5, 5, 5, 5 };

	(void)state;
	bl_welford_init(&w);
	/* D1/D2: n = 0 */
	assert_true(isnan(bl_welford_mean(&w)) && isnan(bl_welford_var(&w)));
	assert_true(isnan(bl_welford_sd(&w)) && isnan(w.min) && isnan(w.max));
	/* D0: non-finite refused, nothing changes */
	assert_int_equal(bl_welford_add(&w, NAN), -BL_ERANGE);
	assert_int_equal(bl_welford_add(&w, INFINITY), -BL_ERANGE);
	assert_int_equal(bl_welford_add(&w, -INFINITY), -BL_ERANGE);
	assert_true(w.n == 0);
	/* n = 1: mean is the value, sd undefined */
	assert_int_equal(bl_welford_add(&w, 7.5), 0);
	assert_true(bl_welford_mean(&w) == 7.5 && isnan(bl_welford_sd(&w)));
	assert_true(w.min == 7.5 && w.max == 7.5);
	/* constant data: sd exactly 0 */
	w = wf(five, 4);
	assert_true(bl_welford_sd(&w) == 0.0);
	/* merge with itself doubles */
	w = wf(read_def, 3);
	c = w;
	bl_welford_merge(&c, &c);
	assert_true(c.n == 6);
	/* [hand] doubling a sample keeps the mean, M2 doubles: var = 2 M2 / 5 */
	NEAR_REL(bl_welford_var(&c), 2.0 * bl_welford_m2(&w) / 5.0, 1e-14);
}

/* ---- D3 ---------------------------------------------------------------- */

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* x[0..n) (finite) sorted ascending for bl_percentile_sorted; returns n */
static size_t sort_doubles(double *x, size_t n)
{
	qsort(x, n, sizeof *x, double_cmp);
	return n;
}

static void test_stats__percentile_type7_matches_datamash(void **state)
{
	double x[N_OF(all_def)];
	size_t n;
	/* [datamash] for p in 10 25 33 50 90 95 99 100; do datamash perc:$p 1
	 * < all_def.txt; done (datamash accepts p >= 1 only; p = 0 is the min) */
	const double want[][2] = {
		{ 0, 18.56 }, { 10, 19.021 }, { 25, 22.2 }, { 33, 24.8576 }, { 50, 29.68 },
		{ 90, 44.845 }, { 95, 47.3985 }, { 99, 63.4298 }, { 100, 68.2 },
	};
	size_t i;

	(void)state;
	memcpy(x, all_def, sizeof x);
	n = sort_doubles(x, N_OF(x));
	assert_int_equal(n, 24);
	for (i = 0; i < N_OF(want); i++)
		NEAR_REL(bl_percentile_sorted(x, n, want[i][0], BL_PCT_TYPE7), want[i][1], 1e-12);
	/* [datamash] `printf '1\n2\n3\n4\n' | datamash median 1 perc:25 1 perc:10 1`
	 * -> 2.5 1.75 1.3. ministat -A prints Median 3 for the same data
	 * (x[n/2], its old even-n bug). */
	{
		const double four[] = { 1, 2, 3, 4 };

		NEAR_REL(bl_percentile_sorted(four, 4, 50, BL_PCT_TYPE7), 2.5, 1e-15);
		NEAR_REL(bl_percentile_sorted(four, 4, 25, BL_PCT_TYPE7), 1.75, 1e-15);
		NEAR_REL(bl_percentile_sorted(four, 4, 10, BL_PCT_TYPE7), 1.3, 1e-15);
	}
}

static void test_stats__percentile_nearest_rank(void **state)
{
	/* [hand] r = ceil(n p / 100): n = 5, p = 5 -> r 1; 30 -> 2 (1.5);
	 * 40 -> 2; 50 -> 3 (2.5); 100 -> 5. n = 10, p = 25 -> 3 (2.5),
	 * 50 -> 5, 75 -> 8 (7.5), 0 -> 1. */
	const double a[] = { 15, 20, 35, 40, 50 };
	const double b[] = { 3, 6, 7, 8, 8, 10, 13, 15, 16, 20 };

	(void)state;
	assert_true(bl_percentile_sorted(a, 5, 5, BL_PCT_NEAREST_RANK) == 15);
	assert_true(bl_percentile_sorted(a, 5, 30, BL_PCT_NEAREST_RANK) == 20);
	assert_true(bl_percentile_sorted(a, 5, 40, BL_PCT_NEAREST_RANK) == 20);
	assert_true(bl_percentile_sorted(a, 5, 50, BL_PCT_NEAREST_RANK) == 35);
	assert_true(bl_percentile_sorted(a, 5, 100, BL_PCT_NEAREST_RANK) == 50);
	assert_true(bl_percentile_sorted(b, 10, 0, BL_PCT_NEAREST_RANK) == 3);
	assert_true(bl_percentile_sorted(b, 10, 25, BL_PCT_NEAREST_RANK) == 7);
	assert_true(bl_percentile_sorted(b, 10, 50, BL_PCT_NEAREST_RANK) == 8);
	assert_true(bl_percentile_sorted(b, 10, 75, BL_PCT_NEAREST_RANK) == 15);
	assert_true(bl_percentile_sorted(b, 10, 90, BL_PCT_NEAREST_RANK) == 16);
}

static void test_stats__percentile_edge_cases(void **state)
{
	const double one[] = { 4.25 };

	(void)state;
	assert_true(isnan(bl_percentile_sorted(one, 0, 50, BL_PCT_TYPE7)));
	assert_true(isnan(bl_percentile_sorted(NULL, 3, 50, BL_PCT_TYPE7)));
	assert_true(isnan(bl_percentile_sorted(one, 1, -1, BL_PCT_TYPE7)));
	assert_true(isnan(bl_percentile_sorted(one, 1, 100.5, BL_PCT_TYPE7)));
	assert_true(isnan(bl_percentile_sorted(one, 1, NAN, BL_PCT_TYPE7)));
	assert_true(bl_percentile_sorted(one, 1, 0, BL_PCT_TYPE7) == 4.25);
	assert_true(bl_percentile_sorted(one, 1, 73, BL_PCT_NEAREST_RANK) == 4.25);
}

/* ---- D4 ---------------------------------------------------------------- */

static void test_stats__seed001_histogram(void **state)
{
	struct bl_bins_stats s;
	struct bl_bin shuffled[N_OF(seed001)];
	bool lb = true;
	size_t i;
	/* [datamash] expand the 28 lines (awk: print the value count times) and
	 * `datamash count 1 min 1 max 1 mean 1 median 1 sstdev 1 perc:90 1
	 * perc:99 1` -> 1000 0.192 0.385 0.20774 0.209 0.0083881321377742
	 * 0.212 0.218. [hand] median: positions 499 and 500 (0-based) both fall
	 * in bucket 0.209, which holds positions 426..525. */
	(void)state;
	/* reverse order: the bins must not need to arrive sorted */
	for (i = 0; i < N_OF(seed001); i++)
		shuffled[i] = seed001[N_OF(seed001) - 1 - i];
	assert_int_equal(bl_bins_summary(shuffled, N_OF(shuffled), 0, &s), 0);
	assert_true(s.n == 1000 && s.n_binned == 1000 && s.overflow == 0);
	assert_true(s.min == 0.192 && s.max == 0.385 && !s.max_lower_bound);
	NEAR_REL(s.mean, 0.20774, 1e-12);
	NEAR_REL(s.mean_lb, 0.20774, 1e-12);
	NEAR_REL(s.sd, 0.0083881321377742, 1e-12);
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 50, BL_PCT_TYPE7, &lb), 0.209, 1e-15);
	assert_false(lb);
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 90, BL_PCT_TYPE7, NULL), 0.212, 1e-15);
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 99, BL_PCT_TYPE7, NULL), 0.218, 1e-15);
	/* [datamash] perc:1 perc:25 perc:75 perc:95 -> 0.2 0.202 0.21 0.214 */
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 1, BL_PCT_TYPE7, NULL), 0.2, 1e-15);
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 25, BL_PCT_TYPE7, NULL), 0.202, 1e-15);
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 75, BL_PCT_TYPE7, NULL), 0.21, 1e-15);
	NEAR_REL(bl_bins_percentile_rule(shuffled, N_OF(shuffled), 0, 95, BL_PCT_TYPE7, NULL), 0.214, 1e-15);
}

static void test_stats__bins_perl_string_order(void **state)
{
	/* Perl's sort(keys %h) puts "10.000" before "2.000". [hand] sample
	 * 2,2,2,10: mean 4, median 2, min 2, max 10; M2 = 3*4 + 36 = 48,
	 * sd = sqrt(48/3) = 4. */
	const struct bl_bin b[] = { { 10.0, 1 }, { 2.0, 3 } };
	struct bl_bins_stats s;

	(void)state;
	assert_int_equal(bl_bins_summary(b, 2, 0, &s), 0);
	assert_true(s.min == 2 && s.max == 10 && s.mean == 4 && s.sd == 4);
	assert_true(bl_bins_percentile_rule(b, 2, 0, 50, BL_PCT_TYPE7, NULL) == 2);
	/* [hand] type 7, p 90: h = 2.7 -> 2 + 0.7 * (10 - 2) = 7.6 */
	NEAR_REL(bl_bins_percentile_rule(b, 2, 0, 90, BL_PCT_TYPE7, NULL), 7.6, 1e-15);
}

static void test_stats__bins_overflow_lower_bound(void **state)
{
	/* [hand] 5 x 10, 3 x 20, 2 beyond 20: N = 10.
	 * p50: h = 4.5 -> x4 = 10, x5 = 20 -> 15, exact.
	 * p70: h = 6.3 -> x6 = x7 = 20 -> 20, exact.
	 * p80: h = 7.2 -> x7 = 20, x8 in overflow -> >= 20.
	 * p95: h = 8.55 -> x8 overflow -> >= 20.
	 * binned mean 110/8 = 13.75; mean_lb (110 + 2*20)/10 = 15. */
	const struct bl_bin b[] = { { 20, 3 }, { 10, 5 } };
	struct bl_bins_stats s;
	bool lb;

	(void)state;
	assert_int_equal(bl_bins_summary(b, 2, 2, &s), 0);
	assert_true(s.n == 10 && s.n_binned == 8 && s.overflow == 2);
	assert_true(s.mean == 13.75 && s.mean_lb == 15 && s.max == 20 && s.max_lower_bound);
	assert_true(bl_bins_percentile_rule(b, 2, 2, 50, BL_PCT_TYPE7, &lb) == 15 && !lb);
	assert_true(bl_bins_percentile_rule(b, 2, 2, 70, BL_PCT_TYPE7, &lb) == 20 && !lb);
	assert_true(bl_bins_percentile_rule(b, 2, 2, 80, BL_PCT_TYPE7, &lb) == 20 && lb);
	assert_true(bl_bins_percentile_rule(b, 2, 2, 95, BL_PCT_TYPE7, &lb) == 20 && lb);
	/* nearest rank p80: r = 8 -> x7 = 20, exact; p81: r = 9 -> overflow */
	assert_true(bl_bins_percentile_rule(b, 2, 2, 80, BL_PCT_NEAREST_RANK, &lb) == 20 && !lb);
	assert_true(bl_bins_percentile_rule(b, 2, 2, 81, BL_PCT_NEAREST_RANK, &lb) == 20 && lb);
	/* only overflow: nothing known */
	assert_int_equal(bl_bins_summary(NULL, 0, 4, &s), 0);
	assert_true(s.n == 4 && isnan(s.mean) && isnan(s.max));
	assert_true(isnan(bl_bins_percentile_rule(NULL, 0, 4, 50, BL_PCT_TYPE7, &lb)));
}

static void test_stats__bins_bad_input(void **state)
{
	const struct bl_bin neg[] = { { 1, 2 }, { 2, -1 } };
	const struct bl_bin nanv[] = { { NAN, 2 } };
	const struct bl_bin infc[] = { { 1, INFINITY } };
	const struct bl_bin zero[] = { { 1, 0 }, { 2, 0 } };
	struct bl_bins_stats s;

	(void)state;
	assert_int_equal(bl_bins_summary(neg, 2, 0, &s), -BL_ERANGE);
	assert_int_equal(bl_bins_summary(nanv, 1, 0, &s), -BL_ERANGE);
	assert_int_equal(bl_bins_summary(infc, 1, 0, &s), -BL_ERANGE);
	assert_int_equal(bl_bins_summary(zero, 2, -1, &s), -BL_ERANGE);
	assert_int_equal(bl_bins_summary(zero, 2, NAN, &s), -BL_ERANGE);
	assert_int_equal(bl_bins_summary(zero, 2, 0, NULL), -BL_EUSAGE);
	assert_true(isnan(bl_bins_percentile_rule(neg, 2, 0, 50, BL_PCT_TYPE7, NULL)));
	/* all counts zero: no observations, not an error */
	assert_int_equal(bl_bins_summary(zero, 2, 0, &s), 0);
	assert_true(s.n == 0 && isnan(s.mean) && isnan(s.sd) && isnan(s.min));
}

static void test_stats__bins_match_expanded_sample(void **state)
{
	/* D4: bins must give what D1-D3 give on the expanded sample. The
	 * expanded side is checked against datamash above; here random bins
	 * (fixed seed) cover unsorted input, repeated values and zero counts. */
	struct bl_bin b[40];
	double x[40 * 30];
	const double ps[] = { 0, 1, 5, 10, 25, 33, 50, 66.6, 75, 90, 95, 99, 100 };
	int round;

	(void)state;
	rng_state = 7;
	for (round = 0; round < 50; round++) {
		size_t nb = 1 + rng_next() % 40, i, k = 0, n;
		struct bl_bins_stats s;
		struct bl_welford w;

		for (i = 0; i < nb; i++) {
			/* values on a coarse grid so that repeats happen */
			b[i].value = (double)(int)(rng_next() % 25) * 0.125 - 1.0;
			b[i].count = (double)(rng_next() % 30);
			for (int c = 0; c < (int)b[i].count; c++)
				x[k++] = b[i].value;
		}
		assert_int_equal(bl_bins_summary(b, nb, 0, &s), 0);
		n = sort_doubles(x, k);
		assert_true(s.n == (double)n);
		if (n == 0)
			continue;
		w = wf(x, n);
		NEAR_REL(s.mean, w.mean, 1e-12);
		assert_true(s.min == x[0] && s.max == x[n - 1]);
		if (n > 1)
			NEAR_ABS(s.sd, bl_welford_sd(&w), 1e-12);
		for (i = 0; i < N_OF(ps); i++) {
			NEAR_ABS(bl_bins_percentile_rule(b, nb, 0, ps[i], BL_PCT_TYPE7, NULL),
				 bl_percentile_sorted(x, n, ps[i], BL_PCT_TYPE7), 1e-12);
			assert_true(bl_bins_percentile_rule(b, nb, 0, ps[i], BL_PCT_NEAREST_RANK, NULL) ==
				    bl_percentile_sorted(x, n, ps[i], BL_PCT_NEAREST_RANK));
		}
	}
}

/* ---- D5 ---------------------------------------------------------------- */

static void test_stats__ci_half(void **state)
{
	(void)state;
	/* [ref.py] t quantiles: conf .95 df 1 12.706204736174693, df 2
	 * 4.3026527297494618, df 9 2.262157162798205, df 999
	 * 1.9623414611334496; conf .99 df 9 3.2498355415921257 */
	NEAR_REL(bl_ci_half(1.0, 2, 0.95), 12.706204736174693 / sqrt(2.0), 1e-9);
	NEAR_REL(bl_ci_half(2.0, 3, 0.95), 2.0 * 4.3026527297494618 / sqrt(3.0), 1e-9);
	NEAR_REL(bl_ci_half(1.0, 10, 0.95), 2.262157162798205 / sqrt(10.0), 1e-9);
	NEAR_REL(bl_ci_half(3.0, 1000, 0.95), 3.0 * 1.9623414611334496 / sqrt(1000.0), 1e-9);
	NEAR_REL(bl_ci_half(1.0, 10, 0.99), 3.2498355415921257 / sqrt(10.0), 1e-9);
	assert_true(isnan(bl_ci_half(1.0, 1, 0.95)));
	assert_true(isnan(bl_ci_half(1.0, 0, 0.95)));
	assert_true(isnan(bl_ci_half(NAN, 5, 0.95)));
	assert_true(isnan(bl_ci_half(1.0, 5, 1.0)));
	assert_true(isnan(bl_ci_half(1.0, 5, 0.0)));
	assert_true(bl_ci_half(0.0, 5, 0.95) == 0.0);
}

/* ---- D6, D7 ------------------------------------------------------------ */

struct tref {
	const double *a, *b;
	size_t na, nb;
	double diff, t, df, p, lo, hi, sp;
};

static void check_ttest(const struct tref *r, bool pooled, int line)
{
	struct bl_welford a = wf(r->a, r->na), b = wf(r->b, r->nb);
	struct bl_ttest t;

	if (pooled)
		assert_int_equal(bl_student_pooled(&a, &b, 0.95, &t), 0);
	else
		assert_int_equal(bl_welch(&a, &b, 0.95, &t), 0);
	assert_int_equal(t.ok, 1);
	near_rel(t.diff, r->diff, 1e-12, "diff", line);
	near_rel(t.t, r->t, 1e-9, "t", line);
	near_rel(t.df, r->df, 1e-9, "df", line);
	near_abs(t.p, r->p, 1e-6, "p (1e-6)", line);
	near_rel(t.p, r->p, 1e-7, "p (relative)", line);
	near_rel(t.ci_lo, r->lo, 1e-9, "ci_lo", line);
	near_rel(t.ci_hi, r->hi, 1e-9, "ci_hi", line);
	near_rel(t.pct_change, 100.0 * r->diff / bl_welford_mean(&a), 1e-12, "pct", line);
	if (pooled)
		near_rel(t.pooled_sd, r->sp, 1e-12, "pooled sd", line);
}

static void test_stats__welch_matches_reference(void **state)
{
	/* [ref.py] lines "welch <name>: ..." */
	const struct tref r[] = {
		{ noload_def, noload_tw, 3, 3, 0.073333333333330586, 0.58797473220731198,
		  3.728213253798133, 0.59030711679297589, -0.28313682909586436, 0.42980349576252553, 0 },
		{ read_def, read_tw, 3, 3, -8.4366666666666674, -12.942609458094222,
		  3.3003260401320111, 0.00060889309738515917, -10.40833968082114, -6.464993652512195, 0 },
		{ proc_def, proc_tw, 3, 3, 3.5, 2.0382394552335851,
		  2.0033036509986463, 0.17818745703783351, -3.8767147651216144, 10.876714765121614, 0 },
		{ all_def, all_tw, 24, 24, 0.0083333333333364124, 0.0023747592921270281,
		  45.342439693616426, 0.99811563552266651, -7.0579394598065366, 7.0746061264732094, 0 },
		{ uneq_a, uneq_b, 7, 11, -1.1294805194805191, -1.2830911601525261,
		  6.0189414778209692, 0.24664821214504242, -3.2818079954641929, 1.0228469565031547, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < N_OF(r); i++)
		check_ttest(&r[i], false, (int)i);
}

static void test_stats__pooled_matches_reference(void **state)
{
	/* [ref.py] lines "pooled <name>: ..." */
	const struct tref r[] = {
		{ noload_def, noload_tw, 3, 3, 0.073333333333330586, 0.58797473220731198,
		  4, 0.58814207926635283, -0.27295021122785843, 0.4196168778945196, 0.15275252316519457 },
		{ read_def, read_tw, 3, 3, -8.4366666666666674, -12.942609458094222,
		  4, 0.00020557693749957, -10.246498134323514, -6.6268351990098205, 0.79835247019512994 },
		{ proc_def, proc_tw, 3, 3, 3.5, 2.0382394552335851,
		  4, 0.11116589735776214, -1.2676232756855507, 8.2676232756855507, 2.103092960380021 },
		{ all_def, all_tw, 24, 24, 0.0083333333333364124, 0.0023747592921270281,
		  46, 0.99811548703427432, -7.0551741331337845, 7.0718407998004573, 12.155974525584803 },
		{ uneq_a, uneq_b, 7, 11, -1.1294805194805191, -1.6358699770285102,
		  16, 0.12138330985515346, -2.5931614796037927, 0.33420044064275456, 1.4280357274805973 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < N_OF(r); i++)
		check_ttest(&r[i], true, 100 + (int)i);
}

static void test_stats__pooled_matches_ministat(void **state)
{
	struct bl_welford a, b;
	struct bl_ttest t;

	(void)state;
	/* [ministat] ministat -A rd_def rd_tw:
	 *   Difference at 95.0% confidence
	 *	-8.43667 +/- 1.80954
	 *	-27.4096% +/- 5.87895%
	 *	(Student's t, pooled s = 0.798352)
	 * ministat's t comes from a 3-decimal table (2.776 for df 4), so the
	 * half-width agrees to 3e-4; the rest is printed with %g. */
	a = wf(read_def, 3);
	b = wf(read_tw, 3);
	assert_int_equal(bl_student_pooled(&a, &b, 0.95, &t), 0);
	NEAR_REL(t.diff, -8.43667, 1e-6);
	NEAR_REL(t.pooled_sd, 0.798352, 1e-6);
	NEAR_REL(t.diff - t.ci_lo, 1.80954, 3e-4);
	NEAR_REL(t.pct_change, -27.4096, 1e-6);
	NEAR_REL(t.pct_hi - t.pct_change, 5.87895, 3e-4);
	assert_true(t.ok && t.p < 0.05 && t.diff < 0);
	/* ministat -A -c 80 / -c 90: difference at 80% (+/- 0.999289), 90%
	 * (+/- 1.38975) too. */
	assert_int_equal(bl_student_pooled(&a, &b, 0.80, &t), 0);
	NEAR_REL(t.diff - t.ci_lo, 0.999289, 3e-4);
	assert_true(t.ok && t.p < 0.20 && t.diff < 0);

	/* ministat -A no_def no_tw: "No difference proven at 95.0% confidence" */
	a = wf(noload_def, 3);
	b = wf(noload_tw, 3);
	assert_int_equal(bl_student_pooled(&a, &b, 0.95, &t), 0);
	assert_true(t.ok && !(t.p < 0.05));

	/* ministat -A -c 80 pr_def pr_tw: "Difference at 80.0% confidence,
	 * 3.5 +/- 2.63242, 14.6138% +/- 10.9913%, pooled s = 2.10309";
	 * ministat -A -c 90 pr_def pr_tw: "No difference proven at 90.0%". */
	a = wf(proc_def, 3);
	b = wf(proc_tw, 3);
	assert_int_equal(bl_student_pooled(&a, &b, 0.80, &t), 0);
	NEAR_REL(t.diff - t.ci_lo, 2.63242, 3e-4);
	NEAR_REL(t.pct_change, 14.6138, 1e-5);
	NEAR_REL(t.pooled_sd, 2.10309, 1e-5);
	assert_true(t.ok && t.p < 0.20 && t.diff > 0);
	assert_true(t.ok && !(t.p < 0.10));
}

static void test_stats__ttest_edge_cases(void **state)
{
	const double two[] = { 2, 2, 2 }, three[] = { 3, 3, 3 }, one[] = { 1 };
	struct bl_welford a, b, e;
	struct bl_ttest t;

	(void)state;
	/* D6: n < 2 on a side */
	a = wf(one, 1);
	b = wf(read_tw, 3);
	assert_int_equal(bl_welch(&a, &b, 0.95, &t), 0);
	assert_int_equal(t.ok, 0);
	assert_non_null(t.note);
	assert_true(isnan(t.p) && isnan(t.t));
	/* D7: 1 + 3 values is defined (df 2) */
	assert_int_equal(bl_student_pooled(&a, &b, 0.95, &t), 0);
	assert_int_equal(t.ok, 1);
	assert_true(t.df == 2);
	/* D7: 1 + 1 is not */
	b = wf(one, 1);
	assert_int_equal(bl_student_pooled(&a, &b, 0.95, &t), 0);
	assert_int_equal(t.ok, 0);
	/* empty side: diff undefined too */
	bl_welford_init(&e);
	assert_int_equal(bl_welch(&e, &b, 0.95, &t), 0);
	assert_true(t.ok == 0 && isnan(t.diff));
	/* D6: both constant and equal: t 0, p 1 */
	a = wf(two, 3);
	b = wf(two, 3);
	assert_int_equal(bl_welch(&a, &b, 0.95, &t), 0);
	assert_true(t.ok == 1 && t.t == 0 && t.p == 1 && isnan(t.df));
	assert_true(t.ok && !(t.p < 0.05));
	/* both constant, different: p 0, CI [1, 1], +50% */
	b = wf(three, 3);
	assert_int_equal(bl_welch(&a, &b, 0.95, &t), 0);
	assert_true(t.ok == 1 && isinf(t.t) && t.t > 0 && t.p == 0);
	assert_true(t.ci_lo == 1 && t.ci_hi == 1 && t.pct_change == 50);
	assert_true(t.ok && t.p < 0.05 && t.diff > 0);
	assert_int_equal(bl_student_pooled(&a, &b, 0.95, &t), 0);
	assert_true(t.ok == 1 && t.p == 0 && t.df == 4);
	/* bad arguments */
	assert_int_equal(bl_welch(&a, &b, 1.0, &t), -BL_EUSAGE);
	assert_int_equal(bl_welch(&a, &b, NAN, &t), -BL_EUSAGE);
	assert_int_equal(bl_welch(NULL, &b, 0.95, &t), -BL_EUSAGE);
	assert_int_equal(bl_student_pooled(&a, &b, 0.0, &t), -BL_EUSAGE);
	/* power rule: fewer than 3 on a side (ministat's minimum) */
	assert_true(bl_test_power_too_low(2, 10));
	assert_true(bl_test_power_too_low(10, 0));
	assert_false(bl_test_power_too_low(3, 3));
}

/* ---- D8, D9 ------------------------------------------------------------ */

/* D8 and D9 on raw samples: each value a bin of count 1 (NULL stays
 * NULL, for the usage checks). */
static void unit_bins(const double *x, size_t n, struct bl_bin *b)
{
	for (size_t i = 0; x && i < n && i < 64; i++)
		b[i] = (struct bl_bin){ x[i], 1.0 };
}

static int mannwhitney(const double *a, size_t na, const double *b, size_t nb, struct bl_utest *u)
{
	struct bl_bin ba[64], bb[64];
	unit_bins(a, na, ba);
	unit_bins(b, nb, bb);
	return bl_mannwhitney_bins(a ? ba : NULL, na, 0, b ? bb : NULL, nb, 0, u);
}

static int ks2(const double *a, size_t na, const double *b, size_t nb, struct bl_kstest *k)
{
	struct bl_bin ba[64], bb[64];
	unit_bins(a, na, ba);
	unit_bins(b, nb, bb);
	return bl_ks2_bins(a ? ba : NULL, na, 0, b ? bb : NULL, nb, 0, k);
}

static void test_stats__mannwhitney_matches_reference(void **state)
{
	const double ta[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
	const double tb[] = { 3, 3, 4, 4, 5, 5, 6, 7, 7 };
	struct bl_utest u;

	(void)state;
	/* [ref.py] mwu ties: u_cand=61.0 u_base=11.0 ties=180.0
	 * z=2.402083018393564 p=0.01630200829707018 */
	assert_int_equal(mannwhitney(ta, N_OF(ta), tb, N_OF(tb), &u), 0);
	assert_int_equal(u.ok, 1);
	assert_true(u.u_cand == 61 && u.u_base == 11 && u.u == 11 && u.tie_term == 180);
	NEAR_REL(u.z, 2.402083018393564, 1e-12);
	NEAR_REL(u.p, 0.01630200829707018, 1e-9);
	NEAR_REL(u.prob_superiority, 61.0 / 72.0, 1e-15);
	/* [hand] 2 / C(17, 8) = 2 / 24310 */
	NEAR_REL(u.p_exact_min, 2.0 / 24310.0, 1e-12);
	/* [ref.py] mwu all: u_cand=278.0 u_base=298.0 ties=0.0
	 * z=-0.1958866984750516 p=0.8446988486564181 */
	assert_int_equal(mannwhitney(all_def, 24, all_tw, 24, &u), 0);
	assert_true(u.u_cand == 278 && u.u_base == 298 && u.tie_term == 0);
	NEAR_REL(u.z, -0.1958866984750516, 1e-12);
	NEAR_REL(u.p, 0.8446988486564181, 1e-9);
	/* [ref.py] mwu uneq: u_cand=32.5 ties=6.0 z=-0.4983739794337415
	 * p=0.6182204734175784 */
	assert_int_equal(mannwhitney(uneq_a, 7, uneq_b, 11, &u), 0);
	assert_true(u.u_cand == 32.5 && u.tie_term == 6);
	NEAR_REL(u.z, -0.4983739794337415, 1e-12);
	NEAR_REL(u.p, 0.6182204734175784, 1e-9);
}

static void cyc_bins(struct bl_bin *b0, struct bl_bin *b1)
{
	size_t i;

	for (i = 0; i < N_OF(cyc); i++) {
		b0[i].value = b1[i].value = cyc[i][0];
		b0[i].count = cyc[i][1];
		b1[i].count = cyc[i][2];
	}
}

static void test_stats__mannwhitney_bins_cyclictest(void **state)
{
	struct bl_bin b0[N_OF(cyc)], b1[N_OF(cyc)];
	struct bl_bins_stats s;
	struct bl_utest u;
	struct bl_kstest k;

	(void)state;
	cyc_bins(b0, b1);
	/* [ref.py] cyc t0: n=60000 mean=16.5066 sd=1.3517224416373308;
	 * t1: mean=14.147 sd=0.4175650520292752 */
	assert_int_equal(bl_bins_summary(b0, N_OF(b0), 0, &s), 0);
	assert_true(s.n == 60000);
	NEAR_REL(s.mean, 16.5066, 1e-12);
	NEAR_REL(s.sd, 1.3517224416373308, 1e-11);
	assert_int_equal(bl_bins_summary(b1, N_OF(b1), 0, &s), 0);
	NEAR_REL(s.mean, 14.147, 1e-12);
	NEAR_REL(s.sd, 0.4175650520292752, 1e-11);
	/* [ref.py] mwu cyclictest: u_cand=271168754.5 u_base=3328831245.5
	 * ties=223663912160142.0 z=-273.09007833238974 p=0.0 (expanded) */
	assert_int_equal(bl_mannwhitney_bins(b0, N_OF(b0), 0, b1, N_OF(b1), 0, &u), 0);
	assert_true(u.n_base == 60000 && u.n_cand == 60000);
	assert_true(u.u_cand == 271168754.5 && u.u_base == 3328831245.5);
	assert_true(u.tie_term == 223663912160142.0);
	NEAR_REL(u.z, -273.09007833238974, 1e-11);
	assert_true(u.p < 1e-300);
	/* [ref.py] mwu cyclictest-ovf: thread 1's 31 us value as an overflow
	 * count (above thread 0's last bucket 27): same U, same z. */
	b1[N_OF(cyc) - 1].count = 0;
	assert_int_equal(bl_mannwhitney_bins(b0, N_OF(b0), 0, b1, N_OF(b1), 1, &u), 0);
	assert_true(u.u_cand == 271168754.5 && u.tie_term == 223663912160142.0);
	NEAR_REL(u.z, -273.09007833238974, 1e-11);
	/* thread 0 overflow would lie above 27 us, but thread 1 has a bin at
	 * 31 us: order unknown (D8) */
	b1[N_OF(cyc) - 1].count = 1;
	assert_int_equal(bl_mannwhitney_bins(b0, N_OF(b0), 3, b1, N_OF(b1), 0, &u), -BL_EFORMAT);
	assert_non_null(u.note);
	/* [ref.py] ks cyclictest: d=0.7543833333333334, p underflows */
	assert_int_equal(bl_ks2_bins(b0, N_OF(b0), 0, b1, N_OF(b1), 0, &k), 0);
	NEAR_REL(k.d, 0.7543833333333334, 1e-12);
	assert_true(k.d_signed < 0); /* thread 1 is faster: its CDF is higher */
	assert_true(k.p == 0);
}

static void test_stats__mannwhitney_both_overflow_tie(void **state)
{
	/* [hand] base {1, 1, O}, cand {1, O, O}, O = beyond bucket 1 (tied
	 * with each other). Pairs cand > base: cand 1 vs 1, 1 -> 1/2 + 1/2;
	 * each cand O beats two 1s and ties one O -> 2.5; total 1 + 5 = 6 of 9.
	 * Ties: group 1 has 3 values, group O has 3: 2 * (27 - 3) = 48. */
	const struct bl_bin a[] = { { 1, 2 } }, b[] = { { 1, 1 } };
	struct bl_utest u;

	(void)state;
	assert_int_equal(bl_mannwhitney_bins(a, 1, 1, b, 1, 2, &u), 0);
	assert_true(u.u_cand == 6 && u.u_base == 3 && u.tie_term == 48);
}

static void test_stats__mannwhitney_edge_cases(void **state)
{
	const double same[] = { 4, 4, 4 }, bad[] = { 1, NAN };
	struct bl_utest u;

	(void)state;
	assert_int_equal(mannwhitney(same, 3, NULL, 0, &u), 0);
	assert_int_equal(u.ok, 0);
	assert_non_null(u.note);
	assert_int_equal(mannwhitney(same, 3, same, 2, &u), 0);
	assert_true(u.ok == 1 && u.p == 1 && u.z == 0 && u.u_cand == 3);
	assert_int_equal(mannwhitney(bad, 2, same, 3, &u), -BL_ERANGE);
	assert_int_equal(mannwhitney(NULL, 2, same, 3, &u), -BL_EUSAGE);
	assert_int_equal(mannwhitney(same, 3, same, 3, NULL), -BL_EUSAGE);
}

static void test_stats__ks_matches_reference(void **state)
{
	const double ta[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
	const double tb[] = { 3, 3, 4, 4, 5, 5, 6, 7, 7 };
	const double same[] = { 4, 4, 4 };
	struct bl_kstest k;
	/* [ref.py] "kolmogorov q:" Q_KS at lambda = 0.3 ... 2.5 */
	const double q[][2] = {
		{ 0.3, 0.99999069419866543 }, { 0.5, 0.96394524366487509 },
		{ 0.8, 0.54414241157419815 }, { 1.0, 0.26999967167735452 },
		{ 1.18, 0.12345380942976568 }, { 1.5, 0.022217962616525129 },
		{ 2.5, 0.0000074533063441573416 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < N_OF(q); i++)
		NEAR_ABS(bl_kolmogorov_q(q[i][0]), q[i][1], 1e-12);
	assert_true(bl_kolmogorov_q(0) == 1 && bl_kolmogorov_q(50) == 0);
	/* [ref.py] ks ties: d=0.5277777777777778 p=0.12479846405904057 */
	assert_int_equal(ks2(ta, N_OF(ta), tb, N_OF(tb), &k), 0);
	NEAR_REL(k.d, 0.5277777777777778, 1e-12);
	NEAR_REL(k.p, 0.12479846405904057, 1e-9);
	/* [ref.py] ks all: d=0.20833333333333331 p=0.62160873031652611 */
	assert_int_equal(ks2(all_def, 24, all_tw, 24, &k), 0);
	NEAR_REL(k.d, 0.20833333333333331, 1e-12);
	NEAR_REL(k.p, 0.62160873031652611, 1e-9);
	/* [ref.py] ks uneq: d=0.5714285714285714 p=0.075171102697611564 */
	assert_int_equal(ks2(uneq_a, 7, uneq_b, 11, &k), 0);
	NEAR_REL(k.d, 0.5714285714285714, 1e-12);
	NEAR_REL(k.p, 0.075171102697611564, 1e-9);
	/* identical samples */
	assert_int_equal(ks2(same, 3, same, 3, &k), 0);
	assert_true(k.ok && k.d == 0 && k.p == 1);
	assert_int_equal(ks2(same, 3, NULL, 0, &k), 0);
	assert_int_equal(k.ok, 0);
}

/* ---- D10, D11 ---------------------------------------------------------- */

/* Latency-like sample: log-normal around 1 ms, plus zeros and negative
 * deltas when `signed_` is set. */
static void gen(double *x, size_t n, bool signed_)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x[i] = 1e-3 * exp(0.8 * rng_normal());
		if (signed_) {
			uint64_t r = rng_next() % 10;

			if (r == 0)
				x[i] = 0.0;
			else if (r < 4)
				x[i] = -x[i] * 50.0;
		}
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_sz(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Write p to memory and read it back into q (through the D10 text). */
static void roundtrip(const struct bl_partial *p, struct bl_partial *q)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	unsigned long line;
	char why[128];

	assert_non_null(f);
	assert_int_equal(bl_partial_write(f, p), 0);
	assert_int_equal(fclose(f), 0);
	f = fmemopen(text, len, "r");
	assert_non_null(f);
	assert_int_equal(bl_partial_read(f, q, &line, why, sizeof why), 0);
	assert_int_equal(bl_partial_read(f, q + 1, &line, why, sizeof why), 1); /* end */
	fclose(f);
	free(text);
}

static void test_stats__partial_merge_random_splits(void **state)
{
	enum { N = 120000 };
	const double ps[] = { 0, 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100 };
	double *x = malloc(N * sizeof *x), *sorted = malloc(N * sizeof *sorted);
	int round;

	(void)state;
	assert_non_null(x);
	assert_non_null(sorted);
	rng_state = 20240601;
	for (round = 0; round < 8; round++) {
		struct bl_partial one, merged, part, back[2];
		size_t cuts[17], k, nparts = 2 + rng_next() % 15, i;

		gen(x, N, round % 2 == 1);
		memcpy(sorted, x, N * sizeof *x);
		qsort(sorted, N, sizeof *sorted, cmp_d);
		bl_partial_init(&one);
		for (i = 0; i < N; i++)
			assert_int_equal(partial_add(&one, x[i]), 0);
		/* random cut points, sorted; parts may be empty */
		cuts[0] = 0;
		for (k = 1; k < nparts; k++)
			cuts[k] = rng_next() % (N + 1);
		cuts[nparts] = N;
		qsort(cuts + 1, nparts - 1, sizeof cuts[0], cmp_sz);
		bl_partial_init(&merged);
		bl_partial_init(&back[0]);
		bl_partial_init(&back[1]);
		for (k = 0; k < nparts; k++) {
			bl_partial_init(&part);
			for (i = cuts[k]; i < cuts[k + 1]; i++)
				partial_add(&part, x[i]);
			roundtrip(&part, back); /* each partial goes through the file format */
			bl_partial_merge(&merged, &back[0]);
			bl_partial_release(&part);
		}
		/* D10: n, min, max exact; mean, sd to 1e-12 of the one pass */
		assert_true(merged.w.n == N && one.w.n == N);
		assert_true(merged.w.min == sorted[0] && merged.w.max == sorted[N - 1]);
		assert_true(one.w.min == sorted[0] && one.w.max == sorted[N - 1]);
		NEAR_REL(merged.w.mean, one.w.mean, 1e-12);
		NEAR_REL(bl_welford_sd(&merged.w), bl_welford_sd(&one.w), 1e-12);
		NEAR_REL(merged.sum, one.sum, 1e-12);
		for (i = 0; i < N_OF(ps); i++) {
			double exact = bl_percentile_sorted(sorted, N, ps[i], BL_PCT_TYPE7);
			double est = bl_partial_percentile(&merged, ps[i], BL_PCT_TYPE7);
			double nr = bl_percentile_sorted(sorted, N, ps[i], BL_PCT_NEAREST_RANK);

			/* the sketch merges exactly: same estimate as one pass */
			assert_true(est == bl_partial_percentile(&one, ps[i], BL_PCT_TYPE7));
			/* D11: within alpha of the exact D3 value (same-sign data) */
			NEAR_REL(est, exact, BL_SKETCH_ALPHA * (1 + 1e-9));
			NEAR_REL(bl_partial_percentile(&merged, ps[i], BL_PCT_NEAREST_RANK), nr,
				 BL_SKETCH_ALPHA * (1 + 1e-9));
		}
		bl_partial_release(&one);
		bl_partial_release(&merged);
		bl_partial_release(&back[0]);
		bl_partial_release(&back[1]);
	}
	free(x);
	free(sorted);
}

static void test_stats__partial_format_by_hand(void **state)
{
	/* [hand] values 1, 2, 0, -1: sum 2, Welford mean 1, 1.5, 1, 0.5 and
	 * M2 0, 0.5, 2, 5 (all exact in binary); bucket of x > 0 is
	 * ceil(ln x / ln(1.01/0.99)) with ln(1.01/0.99) = 0.0200006667:
	 * 1 -> 0, 2 -> ceil(34.656) = 35; -1 -> neg 0; one zero; one NaN
	 * rejected. D2's shifted, scaled form: K = 1 (the first value); 2
	 * raises the scale to e = ilogb(2) = 1, so y = (x - 1) / 2 is 0, 0.5,
	 * -0.5, -1: Welford on y gives mean(y) 0, 0.25, 0, -0.25 and M2(y)
	 * 0, 0.125, 0.5, 1.25 (= 5 / 2^2). */
	const char *want =
		"benchlog-partial 2\n"
		"count 4\n"
		"rejected 1\n"
		"sum 2\n"
		"mean 0.5\n"
		"shift 1\n"
		"offset -0.25\n"
		"m2 1.25\n"
		"scale 1\n"
		"min -1\n"
		"max 2\n"
		"sketch 0.01 2048\n"
		"collapsed 0\n"
		"zero 1\n"
		"neg 0 1\n"
		"pos 0 1\n"
		"pos 35 1\n"
		"end\n";
	struct bl_partial p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	bl_partial_init(&p);
	assert_int_equal(partial_add(&p, 1), 0);
	assert_int_equal(partial_add(&p, 2), 0);
	assert_int_equal(partial_add(&p, NAN), -BL_ERANGE);
	assert_int_equal(partial_add(&p, 0), 0);
	assert_int_equal(partial_add(&p, -1), 0);
	assert_int_equal(bl_partial_write(f, &p), 0);
	fclose(f);
	assert_string_equal(text, want);
	free(text);
	/* D11 extremes are exact: p0 = min, p100 = max */
	assert_true(bl_partial_percentile(&p, 0, BL_PCT_TYPE7) == -1);
	assert_true(bl_partial_percentile(&p, 100, BL_PCT_TYPE7) == 2);
	/* [hand] p50: h = 1.5 between x1 = 0 and x2 = 1 (bucket 0 stands for
	 * 2 * gamma^0 / (gamma + 1) = 0.99) -> 0.495 */
	NEAR_REL(bl_partial_percentile(&p, 50, BL_PCT_TYPE7), 0.495, 1e-12);
	bl_partial_release(&p);
	bl_partial_release(&p); /* idempotent */
}

static void test_stats__partial_roundtrip_is_exact(void **state)
{
	struct bl_partial p, q[2], empty;
	double x[5000];
	size_t i;

	(void)state;
	rng_state = 99;
	gen(x, N_OF(x), true);
	bl_partial_init(&p);
	bl_partial_init(&q[0]);
	bl_partial_init(&q[1]);
	for (i = 0; i < N_OF(x); i++)
		partial_add(&p, x[i]);
	partial_add(&p, INFINITY);
	roundtrip(&p, q);
	assert_true(q[0].w.n == p.w.n && q[0].w.mean == p.w.mean && q[0].w.m2 == p.w.m2 &&
		    q[0].w.shift == p.w.shift && q[0].w.off == p.w.off && q[0].w.scale == p.w.scale);
	assert_true(q[0].w.min == p.w.min && q[0].w.max == p.w.max && q[0].sum == p.sum);
	assert_true(q[0].rejected == 1 && q[0].sk.zero == p.sk.zero);
	for (i = 0; i <= 100; i++)
		assert_true(bl_partial_percentile(&q[0], (double)i, BL_PCT_TYPE7) ==
			    bl_partial_percentile(&p, (double)i, BL_PCT_TYPE7));
	/* Finite inputs whose sums overflow: 1e308 twice and 1e200, -1e200.
	 * By hand: sum 2e308 > DBL_MAX = inf, written "inf" and read back as
	 * written; M2 of {1e200, -1e200} = 2e400 passes DBL_MAX, but D2 keeps
	 * it scaled: sd = sqrt(2e400) = 1.4142135623730951e200. */
	struct bl_partial big, neg;
	bl_partial_init(&big);
	bl_partial_init(&neg);
	partial_add(&big, 1e308);
	partial_add(&big, 1e308);
	partial_add(&neg, 1e200);
	partial_add(&neg, -1e200);
	assert_true(isinf(big.sum) && big.sum > 0 && isinf(bl_welford_m2(&neg.w)));
	NEAR_REL(bl_welford_sd(&neg.w), 1.4142135623730951e200, 1e-15);
	roundtrip(&big, q);
	assert_true(q[0].w.n == 2 && isinf(q[0].sum) && q[0].sum > 0 && q[0].w.mean == 1e308);
	roundtrip(&neg, q);
	assert_true(q[0].w.n == 2 && bl_welford_sd(&q[0].w) == bl_welford_sd(&neg.w) && q[0].sum == 0);
	bl_partial_release(&big);
	bl_partial_release(&neg);
	/* the empty partial round-trips too */
	bl_partial_init(&empty);
	roundtrip(&empty, q);
	assert_true(q[0].w.n == 0 && isnan(q[0].w.min) && q[0].rejected == 0);
	assert_true(isnan(bl_partial_percentile(&q[0], 50, BL_PCT_TYPE7)));
	bl_partial_release(&p);
	bl_partial_release(&q[0]);
	bl_partial_release(&q[1]);
}

struct bad_case {
	const char *text;
	int rc;
	unsigned long line;
	const char *why; /* substring */
};

static void test_stats__partial_read_errors(void **state)
{
	static char longline[400];
	const struct bad_case c[] = {
		{ "", 1, 0, "" },
		{ "\n\n", 1, 2, "" },
		{ "benchlog-partial 3\n", -BL_EFORMAT, 1, "version" },
		{ "benchlog-partal 1\n", -BL_EFORMAT, 1, "expected 'benchlog-partial 2'" },
		{ "benchlog-partial 2\ncount 1\nrejected 0\nsum 1\nmean 1\nshift 1\noffset 0\nm2 0\n"
		  "scale 2000\n", -BL_ERANGE, 9, "not an exponent" },
		{ "benchlog-partial 2\ncount 1\nrejected 0\nsum 1\nmean 1\nshift 1\noffset 0\nm2 0\n"
		  "scale 0\nmin 1\nmax 1\nsketch 0.01 2048\nzero 0\n", -BL_EFORMAT, 13,
		  "expected 'collapsed <n>'" },
		{ "benchlog-partial 2\ncount 1\nrejected 0\nsum 1\nmean 1\nshift 1\noffset 0\nm2 0\n"
		  "scale 0\nmin 1\nmax 1\nsketch 0.01 2048\ncollapsed 2\nzero 0\npos 0 1\nend\n",
		  -BL_EFORMAT, 16, "collapsed 2 is more than count 1" },
		{ "benchlog-partial 1\ncount x\n", -BL_EFORMAT, 2, "not a count" },
		{ "benchlog-partial 1\ncount -3\n", -BL_ERANGE, 2, "not a count" },
		{ "benchlog-partial 1\ncount 1\nrejected 0\nsum 1\nmean 1e999\n", -BL_ERANGE, 5,
		  "not a finite number" },
		{ "benchlog-partial 1\ncount 2\nrejected 0\nsum 1\nmean 0.5\nm2 -1\n", -BL_ERANGE, 6,
		  "negative" },
		{ "benchlog-partial 1\ncount 2\nrejected 0\nsum 1\nmean 5\nm2 1\nmin 0\nmax 1\n",
		  -BL_EFORMAT, 8, "not in order" },
		{ "benchlog-partial 1\ncount 0\nrejected 0\nsum 0\nsketch 0.02 2048\n",
		  -BL_EFORMAT, 5, "sketch parameters" },
		{ "benchlog-partial 1\ncount 2\nrejected 0\nsum 1\nmean 0.5\nm2 0.5\nmin 0\nmax 1\n"
		  "sketch 0.01 2048\nzero 1\npos 0 2\nend\n", -BL_EFORMAT, 12, "add up to 3" },
		{ "benchlog-partial 1\ncount 2\nrejected 0\nsum 2\nmean 1\nm2 0\nmin 1\nmax 1\n"
		  "sketch 0.01 2048\nzero 0\npos 0 1\npos 0 1\nend\n", -BL_EFORMAT, 12, "not above" },
		{ "benchlog-partial 1\ncount 2\nrejected 0\nsum 2\nmean 1\nm2 0\nmin 1\nmax 1\n"
		  "sketch 0.01 2048\nzero 0\npos 0 1\nneg 0 1\nend\n", -BL_EFORMAT, 12, "after 'pos'" },
		{ "benchlog-partial 1\ncount 1\nrejected 0\nsum 1\nmean 1\nm2 0\nmin 1\nmax 1\n"
		  "sketch 0.01 2048\nzero 0\npos 99999 1\nend\n", -BL_ERANGE, 11, "out of range" },
		{ "benchlog-partial 1\ncount 2\nrejected 0\nsum 1\nmean 1\nm2 0\nmin 1\nmax 1\n"
		  "sketch 0.01 2048\nzero 0\npos 0 1\npos 2048 1\nend\n", -BL_EFORMAT, 12, "span" },
		{ "benchlog-partial 1\ncount 1\nrejected 0\nsum 1\nmean 1\nm2 0\nmin 1\nmax 1\n"
		  "sketch 0.01 2048\nzero 0\npos 0 1\n", -BL_EFORMAT, 12, "end of input" },
		{ longline, -BL_ETOOLONG, 2, "longer" },
	};
	struct bl_partial p;
	size_t i;

	(void)state;
	memset(longline, 'x', sizeof longline - 1);
	memcpy(longline, "benchlog-partial 1\ncount 1", 26);
	bl_partial_init(&p);
	for (i = 0; i < N_OF(c); i++) {
		unsigned long line = 12345;
		char why[160] = "unset";
		FILE *f = fmemopen((void *)c[i].text, strlen(c[i].text) ? strlen(c[i].text) : 1, "r");
		int rc;

		assert_non_null(f);
		if (!strlen(c[i].text))
			fgetc(f); /* fmemopen needs size >= 1: consume the NUL */
		rc = bl_partial_read(f, &p, &line, why, sizeof why);
		fclose(f);
		if (rc != c[i].rc || line != c[i].line || !strstr(why, c[i].why)) {
			print_error("case %zu: rc %d line %lu why '%s'\n", i, rc, line, why);
			fail();
		}
		assert_true(p.w.n == 0); /* left empty on error */
	}
	/* D0: "nan" is refused too (bl_parse_double decides which code) */
	{
		const char *t = "benchlog-partial 1\ncount 1\nrejected 0\nsum nan\n";
		FILE *f = fmemopen((void *)t, strlen(t), "r");
		unsigned long line = 0;

		assert_non_null(f);
		assert_true(bl_partial_read(f, &p, &line, NULL, 0) < 0);
		assert_true(line == 4 && p.w.n == 0);
		fclose(f);
	}
	bl_partial_release(&p);
}

static void test_stats__sketch_error_bound_and_memory(void **state)
{
	enum { N = 200000 };
	double *x = malloc(N * sizeof *x);
	struct bl_partial p;
	size_t i;
	int pi;

	(void)state;
	assert_non_null(x);
	/* magnitudes over 12 decades, so the relative bound matters everywhere */
	rng_state = 5;
	for (i = 0; i < N; i++)
		x[i] = pow(10.0, -6.0 + 12.0 * rng_unit());
	bl_partial_init(&p);
	for (i = 0; i < N; i++)
		partial_add(&p, x[i]);
	qsort(x, N, sizeof *x, cmp_d);
	for (pi = 0; pi <= 1000; pi++) {
		double pct = pi / 10.0;

		NEAR_REL(bl_partial_percentile(&p, pct, BL_PCT_TYPE7),
			 bl_percentile_sorted(x, N, pct, BL_PCT_TYPE7), BL_SKETCH_ALPHA * (1 + 1e-9));
	}
	/* [hand] 12 decades / log10(gamma) = 12 / 0.0086861 ~ 1382 buckets */
	assert_true(p.sk.pos.len <= 1385 && p.sk.collapsed == 0);
	/* 600 decades: more than 2048 buckets would be needed; the lowest
	 * collapse, memory stays at 2048, the top keeps the bound. */
	bl_partial_release(&p);
	for (i = 0; i < N; i++)
		x[i] = pow(10.0, -300.0 + 600.0 * rng_unit());
	for (i = 0; i < N; i++)
		partial_add(&p, x[i]);
	qsort(x, N, sizeof *x, cmp_d);
	assert_true(p.sk.pos.len == BL_SKETCH_MAX_BUCKETS && p.sk.pos.cap <= BL_SKETCH_MAX_BUCKETS);
	assert_true(p.sk.collapsed > 0);
	/* [hand] buckets kept cover 2048 * 0.0086861 = 17.8 decades below the
	 * max (1e300), i.e. the top ~3% of a uniform 600-decade spread */
	for (pi = 980; pi <= 1000; pi++) {
		double pct = pi / 10.0;

		NEAR_REL(bl_partial_percentile(&p, pct, BL_PCT_TYPE7),
			 bl_percentile_sorted(x, N, pct, BL_PCT_TYPE7), BL_SKETCH_ALPHA * (1 + 1e-9));
	}
	bl_partial_release(&p);
	free(x);
}

/* D11: dists sharing a budget keep values while it has room; the one that
 * finds it used up turns to the sketch and gives its room back, and a freed
 * dist gives back all it took (counted by hand: capacities 4, 8, 16). */
static void test_stats__dist_shared_budget(void **state)
{
	size_t budget = 20;
	struct bl_dist *a = bl_dist_new_exact(BL_DIST_EXACT_MAX, &budget);
	struct bl_dist *b = bl_dist_new_exact(BL_DIST_EXACT_MAX, &budget);
	(void)state;
	for (int i = 0; i < 9; i++)
		bl_dist_add(a, i);          /* a's room: 4, 8, 16 */
	assert_true(bl_dist_is_exact(a));
	assert_int_equal(budget, 4);
	for (int i = 0; i < 5; i++)
		bl_dist_add(b, i);          /* b: 4, then 8 does not fit */
	assert_false(bl_dist_is_exact(b));
	assert_int_equal(budget, 4);
	assert_true(bl_dist_welford(b)->n == 5);
	assert_true(fabs(bl_dist_percentile(b, 100, BL_PCT_TYPE7) - 4) < 1e-12);
	bl_dist_free(a);
	assert_int_equal(budget, 20);
	bl_dist_free(b);
	/* D3a: each tail needs a value beyond the percentile */
	assert_true(bl_pct_supported(2, 50) && !bl_pct_supported(1, 50));
	assert_true(bl_pct_supported(10, 90) && !bl_pct_supported(9, 90));
	assert_true(bl_pct_supported(20, 95) && !bl_pct_supported(19, 95));
	assert_true(bl_pct_supported(100, 99) && !bl_pct_supported(99, 99));
	assert_true(bl_pct_supported(1000, 99.9) && !bl_pct_supported(999, 99.9));
	assert_true(bl_pct_supported(1, 0) && bl_pct_supported(1, 100));
	assert_true(bl_pct_supported(4, 25) && !bl_pct_supported(3, 25));
}

static void test_stats__dist_exact_then_sketch(void **state)
{
	enum { N = BL_DIST_EXACT_MAX + 5000 };
	double *x = malloc(N * sizeof *x), *s = malloc(N * sizeof *s);
	struct bl_dist *d = bl_dist_new_exact(BL_DIST_EXACT_MAX, NULL);
	struct bl_partial p;
	const double ps[] = { 0, 1, 10, 50, 90, 99, 99.9, 100 };
	size_t i;

	(void)state;
	assert_non_null(x);
	assert_non_null(s);
	/* empty: nothing to report */
	assert_true(isnan(bl_dist_percentile(d, 50, BL_PCT_TYPE7)));
	assert_true(bl_dist_welford(d)->n == 0 && bl_dist_is_exact(d));
	rng_state = 3;
	gen(x, N, false);
	for (i = 0; i < BL_DIST_EXACT_MAX; i++)
		assert_int_equal(bl_dist_add(d, x[i]), 0);
	assert_int_equal(bl_dist_add(d, NAN), -BL_ERANGE);
	assert_true(bl_dist_is_exact(d) && bl_dist_rejected(d) == 1);
	memcpy(s, x, BL_DIST_EXACT_MAX * sizeof *x);
	qsort(s, BL_DIST_EXACT_MAX, sizeof *s, cmp_d);
	/* exact mode: D3 on the samples, bit for bit */
	for (i = 0; i < N_OF(ps); i++)
		assert_true(bl_dist_percentile(d, ps[i], BL_PCT_TYPE7) ==
			    bl_percentile_sorted(s, BL_DIST_EXACT_MAX, ps[i], BL_PCT_TYPE7));
	for (i = BL_DIST_EXACT_MAX; i < N; i++)
		bl_dist_add(d, x[i]);
	assert_false(bl_dist_is_exact(d));
	assert_true(bl_dist_welford(d)->n == N);
	memcpy(s, x, N * sizeof *x);
	qsort(s, N, sizeof *s, cmp_d);
	for (i = 0; i < N_OF(ps); i++)
		NEAR_REL(bl_dist_percentile(d, ps[i], BL_PCT_TYPE7),
			 bl_percentile_sorted(s, N, ps[i], BL_PCT_TYPE7), BL_SKETCH_ALPHA * (1 + 1e-9));
	/* to_partial: same estimate as the dist itself */
	bl_partial_init(&p);
	bl_dist_to_partial(d, &p);
	assert_true(p.w.n == N);
	for (i = 0; i < N_OF(ps); i++)
		assert_true(bl_partial_percentile(&p, ps[i], BL_PCT_TYPE7) ==
			    bl_dist_percentile(d, ps[i], BL_PCT_TYPE7));
	bl_partial_release(&p);
	bl_dist_free(d);
	bl_dist_free(NULL);
	free(x);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats__welford_matches_datamash),
		cmocka_unit_test(test_stats__welford_large_offset_stays_positive),
		cmocka_unit_test(test_stats__welford_edge_cases),
		cmocka_unit_test(test_stats__welford_exact_references),
		cmocka_unit_test(test_stats__partial_merge_mean_1e9),
		cmocka_unit_test(test_stats__percentile_type7_matches_datamash),
		cmocka_unit_test(test_stats__percentile_nearest_rank),
		cmocka_unit_test(test_stats__percentile_edge_cases),
		cmocka_unit_test(test_stats__seed001_histogram),
		cmocka_unit_test(test_stats__bins_perl_string_order),
		cmocka_unit_test(test_stats__bins_overflow_lower_bound),
		cmocka_unit_test(test_stats__bins_bad_input),
		cmocka_unit_test(test_stats__bins_match_expanded_sample),
		cmocka_unit_test(test_stats__ci_half),
		cmocka_unit_test(test_stats__welch_matches_reference),
		cmocka_unit_test(test_stats__pooled_matches_reference),
		cmocka_unit_test(test_stats__pooled_matches_ministat),
		cmocka_unit_test(test_stats__ttest_edge_cases),
		cmocka_unit_test(test_stats__mannwhitney_matches_reference),
		cmocka_unit_test(test_stats__mannwhitney_bins_cyclictest),
		cmocka_unit_test(test_stats__mannwhitney_both_overflow_tie),
		cmocka_unit_test(test_stats__mannwhitney_edge_cases),
		cmocka_unit_test(test_stats__ks_matches_reference),
		cmocka_unit_test(test_stats__partial_merge_random_splits),
		cmocka_unit_test(test_stats__partial_format_by_hand),
		cmocka_unit_test(test_stats__partial_roundtrip_is_exact),
		cmocka_unit_test(test_stats__partial_read_errors),
		cmocka_unit_test(test_stats__sketch_error_bound_and_memory),
		cmocka_unit_test(test_stats__dist_exact_then_sketch),
		cmocka_unit_test(test_stats__dist_shared_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

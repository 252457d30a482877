/* test_infer.c — D12-D16 of analyze/stats.h against values worked out
 * elsewhere, never by this code:
 *   [R]      tests/stats-oracle/ref.R (`Rscript tests/stats-oracle/ref.R`):
 *            p.adjust(), Fieller's interval by uniroot() on the pivot
 *            (not the closed form used here), acf(), qt(), power.t.test();
 *   [numpy]  the lag-1 autocorrelation of seed 000's swpd series,
 *            np.sum(d[:-1] * d[1:]) / np.sum(d * d) with d = x - x.mean():
 *            0.8317283845502461; n_eff by rules 15.1-15.3 in R, with
 *            the AR(1) variance of the mean summed over the correlation
 *            matrix rather than by the closed form of rule 15.2;
 *   [hand]   worked out in the comment next to the value.
 * Data: seed 001's ConTest times (three runs per load), seed 000's vmstat
 * swpd column (59 one-second samples, KiB).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/compare.h"
#include "analyze/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void near_rel(double got, double want, double rel, const char *what, int line)
{
	double lim = want == 0.0 ? rel : rel * fabs(want);

	if (!(fabs(got - want) <= lim)) {
		print_error("line %d: %s: got %.17g, want %.17g (rel tol %g)\n", line, what, got, want, rel);
		fail();
	}
}
#define NEAR_REL(got, want, rel) near_rel((got), (want), (rel), #got, __LINE__)

static struct bl_welford wf(const double *x, size_t n)
{
	struct bl_welford w;

	bl_welford_init(&w);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(bl_welford_add(&w, x[i]), 0);
	return w;
}

static const double read_def[] = { 31.20, 30.11, 31.03 }, read_tw[] = { 22.66, 23.11, 21.26 };
static const double ctar_def[] = { 32.73, 24.48, 68.20 }, ctar_tw[] = { 27.53, 73.84, 23.68 };

static void test_infer__holm_and_bh_match_r(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.04, NAN, 0.5, 1, 0.0001, 0.2 };
	/* [R] p.adjust(p, "holm") and p.adjust(p, "BH"); NA stays NA, m = 9 */
	const double holm[] = { 0.07, 0.2, 0.18, 0.04, 0.2, NAN, 1, 1, 0.0009, 0.6 };
	const double bh[] = { 0.03, 0.06, 0.06, 0.0225, 0.06, NAN, 0.5625, 1, 0.0009,
			      0.25714285714285717299 };
	double out[N_OF(p)];

	(void)state;
	assert_int_equal(bl_p_holm(p, N_OF(p), out), 9);
	for (size_t i = 0; i < N_OF(p); i++) {
		if (isnan(holm[i]))
			assert_true(isnan(out[i]));
		else
			NEAR_REL(out[i], holm[i], 1e-14);
	}
	assert_int_equal(bl_p_bh(p, N_OF(p), out), 9);
	for (size_t i = 0; i < N_OF(p); i++) {
		if (isnan(bh[i]))
			assert_true(isnan(out[i]));
		else
			NEAR_REL(out[i], bh[i], 1e-14);
	}
	/* in place, and the empty family */
	double q[] = { 0.02, 0.01 };
	assert_int_equal(bl_p_holm(q, 2, q), 2);
	/* [hand] sorted 0.01, 0.02: 2 x 0.01 = 0.02, max(0.02, 1 x 0.02) = 0.02 */
	assert_true(q[0] == 0.02 && q[1] == 0.02);
	assert_int_equal(bl_p_bh(q, 0, q), 0);
}

static void test_infer__verdicts(void **state)
{
	(void)state;
	/* D13, in its order; better = -1: lower is better (times) */
	assert_int_equal(bl_judge(-27.4, NAN, NAN, 0.0006, 0.05, 1, -1, false, true), BL_V_AVERAGES_ONLY);
	assert_int_equal(bl_judge(-27.4, NAN, NAN, 0.0006, 0.05, 1, -1, true, false), BL_V_TOO_FEW);
	assert_int_equal(bl_judge(NAN, NAN, NAN, 0.0006, 0.05, 1, -1, false, false), BL_V_NO_TEST);
	/* D13 rule 4: seed 001's minor faults, +0.004 % with the interval
	 * [+0.002 %, +0.006 %] inside the band: negligible, significant or
	 * not; without an interval (a rank test) never negligible */
	assert_int_equal(bl_judge(0.004, 0.002, 0.006, 1e-6, 0.05, 1, -1, false, false), BL_V_NEGLIGIBLE);
	assert_int_equal(bl_judge(0.004, 0.002, 0.006, 1, 0.05, 1, -1, false, false), BL_V_NEGLIGIBLE);
	assert_int_equal(bl_judge(0.004, NAN, NAN, 1e-6, 0.05, 1, -1, false, false), BL_V_WORSE);
	/* inside the band, not significant: negligible only when the
	 * interval is inside too (noload +0.4 % [-1.5 %, +2.3 %] is not;
	 * ctar_load -0.3 % [-100 %, +984 %] is not) */
	assert_int_equal(bl_judge(0.4, -1.5, 2.3, 1, 0.05, 1, -1, false, false), BL_V_NO_CHANGE);
	assert_int_equal(bl_judge(-0.3, -100, 984, 1, 0.05, 1, -1, false, false), BL_V_NO_CHANGE);
	assert_int_equal(bl_judge(0.4, -0.5, 0.9, 1, 0.05, 1, -1, false, false), BL_V_NEGLIGIBLE);
	/* issue 37: +0.9 % [+0.48 %, +1.32 %] under a 1 % band is no longer
	 * negligible: the interval leaves the band and excludes 0 */
	assert_int_equal(bl_judge(0.9, 0.48, 1.32, 0.001, 0.05, 1, 0, false, false), BL_V_HIGHER);
	assert_int_equal(bl_judge(-27.4, NAN, NAN, 0.0006, 0.05, 1, -1, false, false), BL_V_BETTER);
	assert_int_equal(bl_judge(27.4, NAN, NAN, 0.0006, 0.05, 1, -1, false, false), BL_V_WORSE);
	assert_int_equal(bl_judge(27.4, NAN, NAN, 0.0006, 0.05, 1, +1, false, false), BL_V_BETTER);
	assert_int_equal(bl_judge(27.4, NAN, NAN, 0.0006, 0.05, 1, 0, false, false), BL_V_HIGHER);
	assert_int_equal(bl_judge(-27.4, NAN, NAN, 0.0006, 0.05, 1, 0, false, false), BL_V_LOWER);
	assert_int_equal(bl_judge(-27.4, NAN, NAN, 0.05, 0.05, 1, -1, false, false), BL_V_NO_CHANGE);
	/* read_load's family interval [-48.2 %, -4.5 %]: a 30 % band does
	 * not hold it (faster), a 50 % band does (negligible) */
	assert_int_equal(bl_judge(-27.4, -48.2, -4.5, 0.029, 0.05, 30, -1, false, false), BL_V_BETTER);
	assert_int_equal(bl_judge(-27.4, -48.2, -4.5, 0.029, 0.05, 50, -1, false, false), BL_V_NEGLIGIBLE);
	assert_string_equal(bl_verdict_kind_name(BL_V_NO_CHANGE), "no change detected");
	assert_string_equal(bl_verdict_kind_name(BL_V_AVERAGES_ONLY), "averages only, no test possible");
}

/* Fieller's interval from two summaries, as C2 makes it: through
 * analyze/compare.c's own bl_compare_pair (Welch, D6's df; nonneg from
 * the minima), so the glue under test is the code's, not a copy. */
static int fieller_welford(const struct bl_welford *base, const struct bl_welford *cand, double conf,
			   struct bl_ratio_ci *out)
{
	struct bl_cmp c;
	int rc = bl_compare_pair(base, cand, conf, BL_CMP_WELCH, false, &c);
	*out = c.ci_raw;
	return rc;
}

/* D15's r1 of x[0..n), by the streaming form the analyses use. */
static double lag1_r1(const double *x, size_t n)
{
	struct bl_lag1 l;
	struct bl_welford w;
	bl_lag1_init(&l);
	bl_welford_init(&w);
	for (size_t i = 0; i < n; i++) {
		bl_lag1_add(&l, x[i]);
		bl_welford_add(&w, x[i]);
	}
	return bl_lag1_r1(&l, &w);
}

static void test_infer__fieller_matches_r(void **state)
{
	struct bl_welford b, c;
	struct bl_ratio_ci r;

	(void)state;
	/* [R] read_load: -27.41 %, [-33.32 %, -21.34 %], Welch df 3.3003 */
	b = wf(read_def, 3);
	c = wf(read_tw, 3);
	assert_int_equal(fieller_welford(&b, &c, 0.95, &r), 0);
	assert_true(r.ok && r.bounded && !r.clipped);
	NEAR_REL(r.pct, -27.409573316006068, 1e-12);
	NEAR_REL(r.pct_lo, -33.315970443247537, 1e-9);
	NEAR_REL(r.pct_hi, -21.342283703625863, 1e-9);
	NEAR_REL(r.df, 3.3003260401320116, 1e-12);
	/* [R] ctar_load: Fieller gives [-109.04 %, +983.81 %]; every time is
	 * positive, so the ratio is >= 0 and the lower end is -100 % */
	b = wf(ctar_def, 3);
	c = wf(ctar_tw, 3);
	assert_int_equal(fieller_welford(&b, &c, 0.95, &r), 0);
	assert_true(r.ok && r.bounded && r.clipped);
	NEAR_REL(r.pct, -0.28705844828960397, 1e-12);
	assert_true(r.pct_lo == -100.0);
	NEAR_REL(r.pct_hi, 983.81236963953324, 1e-9);
	/* unclipped, the closed form meets R's root-finding at the lower end */
	assert_int_equal(bl_fieller(b.mean, bl_welford_var(&b) / 3, c.mean, bl_welford_var(&c) / 3,
				    r.df, 0.95, false, &r), 0);
	NEAR_REL(r.pct_lo, -109.04409017792447, 1e-9);
	/* [R] a negative baseline mean, the candidate 10 above: +20 %, CI
	 * [+15.74 %, +24.09 %] — the sign follows the difference */
	const double nb[] = { -52, -50, -48, -49, -51 }, nc[] = { -42, -40, -38, -39, -41 };
	b = wf(nb, 5);
	c = wf(nc, 5);
	assert_int_equal(fieller_welford(&b, &c, 0.95, &r), 0);
	assert_true(r.ok && r.bounded && !r.clipped);
	NEAR_REL(r.pct, 20.0, 1e-12);
	NEAR_REL(r.pct_lo, 15.735385243937284, 1e-9);
	NEAR_REL(r.pct_hi, 24.094268625379055, 1e-9);
	/* [hand] baseline 0.5 +- se 0.866 (values -1, 2, 0.5, sd 1.5): with
	 * t > 0.58, a = 0.25 - t^2 0.75 < 0, so no finite interval exists */
	const double zb[] = { -1, 2, 0.5 }, zc[] = { 1, 2, 3 };
	b = wf(zb, 3);
	c = wf(zc, 3);
	assert_int_equal(fieller_welford(&b, &c, 0.95, &r), 0);
	assert_true(r.ok && !r.bounded && isinf(r.pct_lo) && r.pct_lo < 0 && isinf(r.pct_hi));
	/* [hand] exact means give the point; a zero baseline mean: undefined */
	assert_int_equal(bl_fieller(10, 0, 12, 0, 4, 0.95, true, &r), 0);
	assert_true(r.ok && r.pct == 20.0 && r.pct_lo == 20.0 && r.pct_hi == 20.0);
	assert_int_equal(bl_fieller(0, 1, 12, 1, 4, 0.95, true, &r), 0);
	assert_true(!r.ok);
	assert_int_equal(bl_fieller(1, 1, 1, 1, 4, 0.95, true, NULL), -BL_EUSAGE);
}

/* Seed 000: vmstat swpd, KiB, one sample a second. */
static const double swpd[] = {
	554920, 565652, 574848, 586608, 603504, 621424, 640880, 660848, 678768, 696176,
	716144, 738160, 14700, 14696, 26728, 39312, 50420, 66564, 80204, 97400, 116720, 134488,
	151236, 168032, 187324, 200484, 220224, 236512, 253836, 270624, 294176, 317728, 335136,
	356128, 373024, 394528, 413984, 433952, 458528, 478496, 499132, 520632, 531272, 539920,
	556728, 573612, 590508, 610988, 629420, 650924, 669868, 688300, 706220, 728748, 13904,
	13904, 20304, 37960, 53588,
};

static void test_infer__autocorrelation_seed000_swpd(void **state)
{
	(void)state;
	assert_int_equal(N_OF(swpd), 59);
	double r1 = lag1_r1(swpd, N_OF(swpd));
	/* [numpy] and [R] acf() agree to 1e-15 */
	NEAR_REL(r1, 0.8317283845502461, 1e-12);
	NEAR_REL(r1, 0.83172838455024645, 1e-12);
	double ne = bl_n_eff(59, r1);
	/* [R] D15, rules 15.1-15.3 */
	NEAR_REL(ne, 2.9333024949580166, 1e-10);
	struct bl_welford w = wf(swpd, N_OF(swpd));
	/* [R] qt(0.975, n_eff - 1) * sd / sqrt(n_eff) */
	NEAR_REL(bl_ci_half_eff(bl_welford_sd(&w), ne, 0.95), 640942.33471006888, 1e-9);
	/* [hand] the naive CI (n = 59) is 4x narrower or more: t_58 = 2.0017,
	 * so ratio = 283607 / (2.0017 sd / sqrt 59) */
	assert_true(bl_ci_half_eff(bl_welford_sd(&w), ne, 0.95) > 4 * bl_ci_half(bl_welford_sd(&w), 59, 0.95));
	/* [R] D15 at other r1 and n */
	NEAR_REL(bl_n_eff(60, 0.3), 29.877708646213257, 1e-10);
	NEAR_REL(bl_n_eff(60, 0.8), 4.1559605617938269, 1e-10);
	NEAR_REL(bl_n_eff(600, 0.95), 12.896837636119173, 1e-10);
	NEAR_REL(bl_n_eff(60, -0.01), 59.163667589384751, 1e-10);
	/* [hand] bounds: phi = (60 0.94 + 1) / 57 >= 1 gives 2, phi <= 0 gives
	 * n, undefined r1 gives n */
	assert_true(bl_n_eff(60, 0.94) == 2.0);
	assert_true(bl_n_eff(59, 0.99) == 2.0);
	assert_true(bl_n_eff(59, -0.5) == 59.0);
	assert_true(bl_n_eff(59, NAN) == 59.0);
	/* [hand] r1 of 1, 2, 3: mean 2, deviations -1 0 1: (0 + 0) / 2 = 0 */
	assert_true(fabs(lag1_r1((const double[]){ 1, 2, 3 }, 3)) < 1e-15);
	/* [hand] alternating 1, -1, 1, -1: mean 0, num = -3, den = 4: -0.75 */
	NEAR_REL(lag1_r1((const double[]){ 1, -1, 1, -1 }, 4), -0.75, 1e-15);
	assert_true(isnan(lag1_r1((const double[]){ 5, 5, 5 }, 3)));
	assert_true(isnan(lag1_r1(swpd, 2)));
}

/* D6 with n_eff through bl_welch_moments, from b's and c's summaries */
static int welch_eff(const struct bl_welford *b, double neff_b, const struct bl_welford *c,
		     double neff_c, struct bl_ttest *out)
{
	return bl_welch_moments((double)b->n, bl_welford_mean(b), bl_welford_sd(b), neff_b, (double)c->n,
				bl_welford_mean(c), bl_welford_sd(c), neff_c, 0.95, out);
}

static void test_infer__welch_with_n_eff(void **state)
{
	struct bl_welford b = wf(read_def, 3), c = wf(read_tw, 3);
	struct bl_ttest t1, t2;

	(void)state;
	/* n_eff = n is Welch's test itself */
	assert_int_equal(bl_welch(&b, &c, 0.95, &t1), 0);
	assert_int_equal(welch_eff(&b, 3, &c, 3, &t2), 0);
	NEAR_REL(t2.p, t1.p, 1e-12);
	NEAR_REL(t2.df, t1.df, 1e-12);
	NEAR_REL(t2.se, t1.se, 1e-12);
	/* [hand] n_eff 2 a side: se^2 = (s_b^2 + s_c^2) / 2 = 1.5 x the n = 3
	 * value; df = (vb + vc)^2 / (vb^2 + vc^2) */
	assert_int_equal(welch_eff(&b, 2, &c, 2, &t2), 0);
	NEAR_REL(t2.se * t2.se, 1.5 * t1.se * t1.se, 1e-12);
	double vb = bl_welford_var(&b) / 2, vc = bl_welford_var(&c) / 2;
	NEAR_REL(t2.df, (vb + vc) * (vb + vc) / (vb * vb + vc * vc), 1e-12);
	assert_true(t2.p > t1.p);
	/* outside [2, n]: no test */
	assert_int_equal(welch_eff(&b, 4, &c, 3, &t2), 0);
	assert_true(!t2.ok);
}

static void test_infer__detectable_change(void **state)
{
	struct bl_welford b = wf(read_def, 3), c = wf(read_tw, 3);
	struct bl_ttest t;

	(void)state;
	assert_int_equal(bl_welch(&b, &c, 0.95, &t), 0);
	/* [R] read_load: se 0.65185, df 3.3003, (qt(.975) + qt(.8)) se = 2.6004 */
	NEAR_REL(t.se, 0.65185206228952786, 1e-12);
	NEAR_REL(bl_detectable_diff(t.se, t.df, 0.05, 0.8), 2.6004193294114244, 1e-10);
	/* [R] against the exact noncentral t of power.t.test(n, sd = 1,
	 * power = .8, strict = TRUE): 3.0709 vs 3.0353 at n = 3 (1.2 % low),
	 * 0.73563 vs 0.73576 at n = 30: D16's stated accuracy */
	double d3 = bl_detectable_diff(sqrt(2.0 / 3), 4, 0.05, 0.8);
	double d30 = bl_detectable_diff(sqrt(2.0 / 30), 58, 0.05, 0.8);
	NEAR_REL(d3, 3.0352522956141481, 1e-10);
	NEAR_REL(d3, 3.0709084053746429, 0.012);
	NEAR_REL(d30, 0.73562765821449116, 0.0002);
	/* power 0.5: t_{0.5} = 0, so the CI half-width: [R] qt(.975, 4) */
	NEAR_REL(bl_detectable_diff(1, 4, 0.05, 0.5), 2.7764451051977934, 1e-12);
	assert_true(isnan(bl_detectable_diff(1, 0, 0.05, 0.8)));
	assert_true(isnan(bl_detectable_diff(1, 4, 0.05, 1.0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_infer__holm_and_bh_match_r),
		cmocka_unit_test(test_infer__verdicts),
		cmocka_unit_test(test_infer__fieller_matches_r),
		cmocka_unit_test(test_infer__autocorrelation_seed000_swpd),
		cmocka_unit_test(test_infer__welch_with_n_eff),
		cmocka_unit_test(test_infer__detectable_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

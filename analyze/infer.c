/* infer.c — D12-D16 of analyze/stats.h: multiple-test adjustment,
 * verdicts with a negligible band, Fieller's CI of a relative change,
 * the effective sample size of an autocorrelated series, and the change
 * a test can detect. Pure computation, like stats.c. */
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/stats.h"
#include "analyze/stats_int.h"
#include "core/util.h"

/* ---- D12 ----------------------------------------------------------------- */

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);   /* stable: ties keep input order */
}

/* The defined p-values of p[0..n), sorted ascending; *m gets their number.
 * NaN positions of out are set to NaN. The caller frees the result. */
static struct pidx *sorted_p(const double *p, size_t n, double *out, size_t *m)
{
	struct pidx *s = bl_xmalloc((n ? n : 1) * sizeof *s);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(p[i]))
			out[i] = NAN;
		else
			s[k++] = (struct pidx){ p[i], i };
	}
	qsort(s, k, sizeof *s, cmp_pidx);
	*m = k;
	return s;
}

size_t bl_p_holm(const double *p, size_t n, double *out)
{
	size_t m;
	struct pidx *s = sorted_p(p, n, out, &m);
	double run = 0.0;

	/* D12: adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)), j 1-based */
	for (size_t j = 0; j < m; j++) {
		double a = fmin(1.0, (double)(m - j) * s[j].p);
		if (a > run)
			run = a;
		out[s[j].i] = run;
	}
	free(s);
	return m;
}

size_t bl_p_bh(const double *p, size_t n, double *out)
{
	size_t m;
	struct pidx *s = sorted_p(p, n, out, &m);
	double run = 1.0;

	/* D12: adj_(i) = min_{j >= i} min(1, m p_(j) / j), from the largest */
	for (size_t j = m; j-- > 0;) {
		double a = fmin(1.0, (double)m * s[j].p / (double)(j + 1));
		if (a < run)
			run = a;
		out[s[j].i] = run;
	}
	free(s);
	return m;
}

/* ---- D13 ----------------------------------------------------------------- */

enum bl_verdict_kind bl_judge(double pct, double ci_lo, double ci_hi, double p_adj,
			      double alpha, double band_pct, int better, bool too_few,
			      bool averages_only)
{
	if (averages_only)
		return BL_V_AVERAGES_ONLY;
	if (too_few)
		return BL_V_TOO_FEW;
	if (isnan(pct) || isnan(p_adj) || !(alpha > 0.0 && alpha < 1.0))
		return BL_V_NO_TEST;
	/* D13 rule 4: the whole interval inside the band (an equivalence
	 * test at the interval's level), whatever p is */
	if (isfinite(ci_lo) && isfinite(ci_hi) && ci_lo >= -band_pct && ci_hi <= band_pct)
		return BL_V_NEGLIGIBLE;
	/* D13 rule 6: not rejected, so the family's interval holds 0 (D14) */
	if (!(p_adj < alpha))
		return BL_V_NO_CHANGE;
	/* D13 rule 5 */
	if (better == 0)
		return pct > 0.0 ? BL_V_HIGHER : BL_V_LOWER;
	return (pct > 0.0) == (better > 0) ? BL_V_BETTER : BL_V_WORSE;
}

const char *bl_verdict_kind_name(enum bl_verdict_kind v)
{
	switch (v) {
	case BL_V_BETTER: return "better";
	case BL_V_WORSE: return "worse";
	case BL_V_HIGHER: return "higher";
	case BL_V_LOWER: return "lower";
	case BL_V_NEGLIGIBLE: return "negligible";
	case BL_V_NO_CHANGE: return "no change detected";
	case BL_V_TOO_FEW: return "too few runs";
	case BL_V_AVERAGES_ONLY: return "averages only, no test possible";
	case BL_V_NO_TEST: break;
	}
	return "no test";
}

/* ---- D14 ----------------------------------------------------------------- */

int bl_fieller(double mean_b, double var_mean_b, double mean_c, double var_mean_c,
	       double df, double conf, bool nonneg, struct bl_ratio_ci *out)
{
	double t, a, disc, r_lo, r_hi, sgn;

	if (out == NULL)
		return -BL_EUSAGE;
	*out = (struct bl_ratio_ci){ NAN, NAN, NAN, df, false, false, 0 };
	if (!isfinite(mean_b) || !isfinite(mean_c) || mean_b == 0.0 ||
	    !(var_mean_b >= 0.0) || !(var_mean_c >= 0.0) || !(conf > 0.0 && conf < 1.0))
		return 0;
	sgn = mean_b > 0.0 ? 1.0 : -1.0;
	out->pct = 100.0 * (mean_c - mean_b) / fabs(mean_b);
	out->ok = 1;
	if (var_mean_b == 0.0 && var_mean_c == 0.0) {
		/* both means exact: the interval is the point */
		out->pct_lo = out->pct_hi = out->pct;
		out->bounded = true;
		return 0;
	}
	if (!(df > 0.0)) {
		out->ok = 0;
		return 0;
	}
	t = gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, df);
	a = mean_b * mean_b - t * t * var_mean_b;
	if (!(a > 0.0)) {
		/* D14: unbounded; only the parameter space can bound it */
		out->pct_lo = -INFINITY;
		out->pct_hi = INFINITY;
	} else {
		/* a > 0 makes disc = a v_c + xbar_c^2 v_b >= 0 */
		disc = mean_b * mean_b * var_mean_c + mean_c * mean_c * var_mean_b -
		       t * t * var_mean_b * var_mean_c;
		if (disc < 0.0)
			disc = 0.0;
		r_lo = (mean_c * mean_b - t * sqrt(disc)) / a;
		r_hi = (mean_c * mean_b + t * sqrt(disc)) / a;
		out->bounded = true;
		/* change = sgn (rho - 1); a negative baseline swaps the ends */
		out->pct_lo = 100.0 * (sgn > 0 ? r_lo - 1.0 : 1.0 - r_hi);
		out->pct_hi = 100.0 * (sgn > 0 ? r_hi - 1.0 : 1.0 - r_lo);
	}
	if (nonneg && out->pct_lo < -100.0) {
		out->pct_lo = -100.0;   /* rho >= 0 when no value is negative */
		out->clipped = true;
	}
	return 0;
}

/* ---- D15 ----------------------------------------------------------------- */

void bl_lag1_init(struct bl_lag1 *l)
{
	*l = (struct bl_lag1){ 0, 0, 0, 0, 0, 0 };
}

void bl_lag1_add(struct bl_lag1 *l, double x)
{
	if (l->n == 0)
		l->k = x;
	double y = x - l->k;
	if (l->n == 0)
		l->first = y;
	else
		l->cross += l->prev * y;
	l->sum += y;
	l->prev = y;
	l->n++;
}

double bl_lag1_r1(const struct bl_lag1 *l, const struct bl_welford *w)
{
	if (l->n < 3 || w == NULL || w->n != l->n)
		return NAN;
	double m2 = bl_welford_m2(w);
	if (!(m2 > 0.0) || !isfinite(m2))
		return NAN;
	double n = (double)l->n, yb = l->sum / n;
	/* D15: sum_{t<n} (y_t - ybar)(y_{t+1} - ybar) expanded */
	double num = l->cross - yb * (2.0 * l->sum - l->first - l->prev) + (n - 1.0) * yb * yb;
	return num / m2;
}

double bl_n_eff(double n, double r1)
{
	double phi, f, e;

	if (isnan(r1) || !(n >= 3.0))
		return n;
	/* Rule 15.1: r1's small-sample bias corrected (Marriott & Pope 1954) */
	if (n * r1 + 1.0 <= 0.0)
		return n;
	if (n * r1 + 1.0 >= n - 3.0)
		return 2.0;
	phi = (n * r1 + 1.0) / (n - 3.0);
	/* Rule 15.2: f = n Var(xbar) / gamma0 of an AR(1) series of length n */
	f = (1.0 + phi) / (1.0 - phi) + 2.0 * phi * expm1(n * log(phi)) / (n * (1.0 - phi) * (1.0 - phi));
	/* Rule 15.3: E[s^2] = gamma0 (n - f) / (n - 1) */
	if (!(f < n))
		return 2.0;
	e = n * (n - f) / ((n - 1.0) * f);
	return e < 2.0 ? 2.0 : e > n ? n : e;
}

double bl_ci_half_eff(double sd, double n_eff, double conf)
{
	if (!(n_eff >= 2.0) || !(sd >= 0.0) || !isfinite(sd) || !(conf > 0.0 && conf < 1.0))
		return NAN;
	/* sd / sqrt(n_eff) first: t sd alone overflows for sd near DBL_MAX */
	return gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, n_eff - 1.0) * (sd / sqrt(n_eff));
}

/* ---- D16 ----------------------------------------------------------------- */

double bl_detectable_diff(double se, double df, double alpha, double power)
{
	if (!(se >= 0.0) || !isfinite(se) || !(df > 0.0) || !(alpha > 0.0 && alpha < 1.0) ||
	    !(power >= 0.5 && power < 1.0))
		return NAN;
	return (gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df) + gsl_cdf_tdist_Pinv(power, df)) * se;
}

/* ---- D19 ----------------------------------------------------------------- */

/* D3 type 7 on counts c[0..k) of sorted values v (v[k - 1] may be
 * +infinity, the overflow), N samples. */
static double counts_percentile(const double *v, const unsigned *c, size_t k, double N, double p)
{
	double h = (N - 1) * p / 100, j = floor(h), frac = h - j, cum = 0;
	double lo = NAN, hi = NAN;
	for (size_t i = 0; i < k && isnan(hi); i++) {
		cum += c[i];
		if (isnan(lo) && cum > j)
			lo = v[i];
		if (!isnan(lo) && cum > j + 1)
			hi = v[i];
	}
	if (isnan(hi))
		hi = lo;
	if (frac == 0 || lo == hi)
		return lo;
	return lo + frac * (hi - lo);
}

double bl_bins_percentile_boot_var(const struct bl_bin *b, size_t n, double overflow, double p,
				   unsigned reps, unsigned long seed)
{
	struct bl_bin *s;
	size_t k;
	if (!bl__pct_ok(p) || reps < 2 || bl__bins_sorted(b, n, overflow, &s, &k) < 0)
		return NAN;
	double N = overflow;
	for (size_t i = 0; i < k; i++)
		N += s[i].count;
	s = bl_xrealloc(s, (k + 1) * sizeof *s);
	if (overflow > 0)
		s[k++] = (struct bl_bin){ INFINITY, overflow };
	if (N < 2 || N > 4294967295.0 || k == 0) {
		free(s);
		return NAN;
	}
	double *v = bl_xmalloc(k * sizeof *v), *w = bl_xmalloc(k * sizeof *w);
	unsigned *c = bl_xmalloc(k * sizeof *c);
	for (size_t i = 0; i < k; i++) {
		v[i] = s[i].value;
		w[i] = s[i].count / N;
	}
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	struct bl_welford acc;
	bl_welford_init(&acc);
	bool inf = false;
	for (unsigned i = 0; i < reps && !inf; i++) {
		gsl_ran_multinomial(r, k, (unsigned)N, w, c);
		double q = counts_percentile(v, c, k, N, p);
		if (isinf(q))
			inf = true;
		else
			bl_welford_add(&acc, q);
	}
	gsl_rng_free(r);
	free(c);
	free(w);
	free(v);
	free(s);
	return inf ? INFINITY : bl_welford_var(&acc);
}

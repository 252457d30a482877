/* stats.c — D1-D7 of analyze/stats.h: Welford summaries, percentiles,
 * histogram bins, confidence intervals, t-tests and verdicts. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "analyze/stats.h"
#include "analyze/stats_int.h"
#include "core/util.h"

/* ---- D1, D2 ------------------------------------------------------------ */

/* Unset scale: below every finite double's ilogb (-1074), so the first
 * non-zero value sets it; 2^(UNSET+1) is 0, so every value is checked
 * until then. */
#define WF_SCALE_UNSET (-1100)

void bl_welford_init(struct bl_welford *w)
{
	*w = (struct bl_welford){ .min = NAN, .max = NAN, .scale = WF_SCALE_UNSET };
}

/* 2^e and 2^-e for w's scale e, or 0 where one is not a normal double.
 * x * 2^k rounds once, as ldexp(x, k) does, so the two are equal bit for
 * bit; the product saves 2 ldexp calls per value (summary of 5 MB of
 * mtest01 + time -v runs: 147 M instructions before, 143 M after). */
static void wf_pow2(struct bl_welford *w)
{
	bool normal = w->scale >= -1022 && w->scale <= 1022;
	w->up = normal ? ldexp(1.0, w->scale) : 0.0;
	w->down = normal ? ldexp(1.0, -w->scale) : 0.0;
}

/* x 2^-scale */
static double wf_down(const struct bl_welford *w, double x)
{
	return w->down != 0.0 ? x * w->down : ldexp(x, -w->scale);
}

/* D2: raise w's scale to e (>= w->scale); the sums shrink by powers of 2
 * (exact, but for parts that fall below the subnormal range, which are
 * then far below the rounding of the largest value). */
static void wf_rescale(struct bl_welford *w, int e)
{
	int d = e - w->scale;

	if (d <= 0)
		return;
	w->off = ldexp(w->off, -d);
	w->m2 = ldexp(w->m2, -2 * d);
	w->scale = e;
	wf_pow2(w);
	w->ks = wf_down(w, w->shift);
	w->lim = ldexp(1.0, e + 1);
}

/* The mean in the data's units (D1). */
static void wf_mean(struct bl_welford *w)
{
	w->mean = w->up != 0.0 ? (w->ks + w->off) * w->up : ldexp(w->ks + w->off, w->scale);
	/* rounding can leave the mean a hair outside [min, max]; it never is */
	if (w->mean < w->min)
		w->mean = w->min;
	if (w->mean > w->max)
		w->mean = w->max;
}

int bl_welford_add(struct bl_welford *w, double x)
{
	double ax = fabs(x), y, delta;

	if (!isfinite(x))
		return -BL_ERANGE; /* D0 */
	if (!(ax < w->lim) && x != 0.0)
		wf_rescale(w, ilogb(x));
	w->n++;
	if (w->n == 1) {
		w->shift = x;
		w->ks = wf_down(w, x);
		w->off = 0.0;
		w->m2 = 0.0;
		w->mean = w->min = w->max = x;
		return 0;
	}
	/* D1, D2 on y = (x - K) 2^-e: both factors of the M2 increment have
	 * the same sign, so M2 never decreases. */
	y = wf_down(w, x) - w->ks;
	delta = y - w->off;
	w->off += delta / (double)w->n;
	w->m2 += delta * (y - w->off);
	if (x < w->min)
		w->min = x;
	if (x > w->max)
		w->max = x;
	wf_mean(w);
	return 0;
}

void bl__welford_set(struct bl_welford *w, unsigned long long n, double mean,
		     double min, double max, double shift, double off, double m2,
		     int scale)
{
	w->n = n;
	w->mean = mean;
	w->min = min;
	w->max = max;
	w->shift = shift;
	w->off = off;
	w->m2 = m2;
	w->scale = scale;
	wf_pow2(w);
	w->ks = wf_down(w, shift);
	w->lim = ldexp(1.0, scale + 1);
}

void bl_welford_merge(struct bl_welford *dst, const struct bl_welford *src)
{
	struct bl_welford b = *src; /* src may alias dst */
	double n, delta;

	if (b.n == 0)
		return;
	if (dst->n == 0) {
		*dst = b;
		return;
	}
	/* D2: both sides at the larger scale, dst's shift kept, then Chan,
	 * Golub & LeVeque's pairwise update. */
	wf_rescale(dst, b.scale);
	wf_rescale(&b, dst->scale);
	n = (double)dst->n + (double)b.n;
	delta = (b.ks - dst->ks) + (b.off - dst->off);
	dst->off += delta * ((double)b.n / n);
	dst->m2 += b.m2 + delta * delta * ((double)dst->n * (double)b.n / n);
	dst->n += b.n;
	if (b.min < dst->min)
		dst->min = b.min;
	if (b.max > dst->max)
		dst->max = b.max;
	wf_mean(dst);
}

double bl_welford_mean(const struct bl_welford *w)
{
	return w->n ? w->mean : NAN;
}

double bl_welford_m2(const struct bl_welford *w)
{
	return w->n < 2 ? 0.0 : ldexp(w->m2, 2 * w->scale);
}

double bl_welford_var(const struct bl_welford *w)
{
	if (w->n < 2)
		return NAN; /* D2 */
	return ldexp(w->m2 / (double)(w->n - 1), 2 * w->scale);
}

double bl_welford_sd(const struct bl_welford *w)
{
	if (w->n < 2)
		return NAN; /* D2 */
	return ldexp(sqrt(w->m2 / (double)(w->n - 1)), w->scale);
}

/* ---- D3 ---------------------------------------------------------------- */

bool bl__pct_ok(double p)
{
	return p >= 0.0 && p <= 100.0; /* false for NaN */
}

/* D3 position arithmetic shared by arrays and bins. For type 7, *j and the
 * fraction; for nearest rank, *j = r - 1 and frac = 0. (n - 1) * p is
 * exact for integer p and realistic n, so whole positions come out whole. */
void bl__pct_position(double n, double p, enum bl_pct_rule rule,
		      double *j, double *frac)
{
	double h;

	if (rule == BL_PCT_NEAREST_RANK) {
		h = ceil(n * p / 100.0);
		if (h < 1.0)
			h = 1.0;
		if (h > n)
			h = n;
		*j = h - 1.0;
		*frac = 0.0;
		return;
	}
	h = (n - 1.0) * p / 100.0;
	if (h < 0.0)
		h = 0.0;
	if (h > n - 1.0)
		h = n - 1.0;
	*j = floor(h);
	*frac = h - *j;
}

double bl__lerp(double lo, double hi, double frac)
{
	double d = hi - lo;
	return isfinite(d) ? lo + frac * d : (1.0 - frac) * lo + frac * hi;
}

bool bl_pct_supported(unsigned long long n, double p)
{
	double tail = p < 100 - p ? p : 100 - p;
	/* the tolerance keeps p99.9 at n >= 1000 despite 100 - 99.9 < 0.1 */
	return tail <= 0 || (double)n * tail >= 100 * (1 - 1e-9);
}

double bl_percentile_sorted(const double *x, size_t n, double p, enum bl_pct_rule rule)
{
	double jd, frac, lo, hi;
	size_t j;

	if (x == NULL || n == 0 || !bl__pct_ok(p))
		return NAN;
	bl__pct_position((double)n, p, rule, &jd, &frac);
	j = (size_t)jd;
	lo = x[j];
	if (!isfinite(lo))
		return NAN;
	if (frac == 0.0 || j + 1 >= n)
		return lo;
	hi = x[j + 1];
	if (!isfinite(hi))
		return NAN;
	return bl__lerp(lo, hi, frac);
}

int bl__cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sort key of a finite double: unsigned order = numeric order, and -0.0
 * and +0.0 equal (bl__cmp_double calls them equal too). */
static uint64_t sort_key(double d)
{
	uint64_t u;
	if (d == 0)
		d = 0.0;
	memcpy(&u, &d, sizeof u);
	return (u >> 63) ? ~u : u | 0x8000000000000000ull;
}

/* A radix pass's counts of each byte value, c[0..255], turned into where
 * each value's keys start; false (c untouched) when every key has the
 * byte value first, which all n keys share: the pass would move nothing. */
static bool bucket_starts(size_t *c, size_t first, size_t n)
{
	if (c[first] == n)
		return false;
	size_t sum = 0;
	for (int v = 0; v < 256; v++) {
		size_t m = c[v];
		c[v] = sum;
		sum += m;
	}
	return true;
}

/* The common case of counters (vmstat's columns, fault counts): every
 * value a whole number from 0 to 2^32 - 1 and none of them -0.0. Equal
 * values are then the same bits, so order among them cannot show, and the
 * values sort as 32-bit keys: half the bytes to move and no separate
 * array of values (each is made again from its key, exactly; summary of
 * 200 MB of vmstat: 1.20 s of processor time, 1.47 s as 64-bit keys).
 * Returns false, x untouched, when a value is not such a number. */
static bool sort_counts(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] >= 0 && x[i] <= 4294967295.0) || x[i] != (double)(uint32_t)x[i] ||
		    signbit(x[i]))
			return false;
	uint32_t *k = bl_xmalloc(2 * n * sizeof *k);
	uint32_t *t = k + n;
	size_t cnt[4][256];
	memset(cnt, 0, sizeof cnt);
	for (size_t i = 0; i < n; i++) {
		uint32_t v = (uint32_t)x[i];
		k[i] = v;
		cnt[0][v & 0xff]++;
		cnt[1][(v >> 8) & 0xff]++;
		cnt[2][(v >> 16) & 0xff]++;
		cnt[3][v >> 24]++;
	}
	for (int b = 0; b < 4; b++) {
		size_t *c = cnt[b];
		if (!bucket_starts(c, (size_t)((k[0] >> (8 * b)) & 0xff), n))
			continue;               /* one value of this byte: no move */
		for (size_t i = 0; i < n; i++)
			t[c[(k[i] >> (8 * b)) & 0xff]++] = k[i];
		uint32_t *tk = k;
		k = t;
		t = tk;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = (double)k[i];
	free(k < t ? k : t);
	return true;
}

void bl__sort_double(double *x, size_t n)
{
	if (n < 2)
		return;
	if (n <= 32) {                  /* stable insertion sort */
		for (size_t i = 1; i < n; i++) {
			double v = x[i];
			size_t j = i;
			while (j > 0 && x[j - 1] > v) {
				x[j] = x[j - 1];
				j--;
			}
			x[j] = v;
		}
		return;
	}
	if (sort_counts(x, n))
		return;
	/* LSD radix sort, 8 bits a pass, passes where every key has the
	 * same byte skipped: stable, so equal values keep their order, as in
	 * glibc's merge sort behind qsort() (summary of 20 MB of vmstat:
	 * 0.20 s, 0.39 s with qsort()). */
	uint64_t *k = bl_xmalloc(2 * n * sizeof *k);
	uint64_t *t = k + n;
	size_t cnt[8][256];
	memset(cnt, 0, sizeof cnt);
	for (size_t i = 0; i < n; i++) {
		k[i] = sort_key(x[i]);
		for (int b = 0; b < 8; b++)
			cnt[b][(k[i] >> (8 * b)) & 0xff]++;
	}
	double *xs = bl_xmalloc(n * sizeof *xs);
	double *src = x, *dst = xs;
	for (int b = 0; b < 8; b++) {
		size_t *c = cnt[b];
		if (!bucket_starts(c, (size_t)((k[0] >> (8 * b)) & 0xff), n))
			continue;               /* one value of this byte: no move */
		for (size_t i = 0; i < n; i++) {
			size_t o = c[(k[i] >> (8 * b)) & 0xff]++;
			t[o] = k[i];
			dst[o] = src[i];
		}
		uint64_t *tk = k;
		k = t;
		t = tk;
		double *td = src;
		src = dst;
		dst = td;
	}
	if (src != x)
		memcpy(x, src, n * sizeof *x);
	free(k < t ? k : t);
	free(xs);
}

/* ---- D4 ---------------------------------------------------------------- */

int bl_bin_cmp(const void *a, const void *b)
{
	double x = ((const struct bl_bin *)a)->value;
	double y = ((const struct bl_bin *)b)->value;

	return (x > y) - (x < y);
}

static int bins_check(const struct bl_bin *b, size_t n, double overflow)
{
	size_t i;

	if (n > 0 && b == NULL)
		return -BL_EUSAGE;
	if (!isfinite(overflow) || overflow < 0.0)
		return -BL_ERANGE;
	for (i = 0; i < n; i++)
		if (!isfinite(b[i].value) || !isfinite(b[i].count) || b[i].count < 0.0)
			return -BL_ERANGE; /* D0 */
	return 0;
}

int bl__bins_sorted(const struct bl_bin *b, size_t n, double overflow,
		    struct bl_bin **out, size_t *nout)
{
	struct bl_bin *c;
	size_t i, k = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	rc = bins_check(b, n, overflow);
	if (rc < 0)
		return rc;
	if (n == 0)
		return 0;
	c = bl_xmalloc(n * sizeof *c);
	for (i = 0; i < n; i++)
		if (b[i].count > 0.0)
			c[k++] = b[i];
	if (k == 0) {
		free(c);
		return 0;
	}
	/* Perl's sort(keys %h) gives string order ("10.000" before "2.000"),
	 * so never trust the caller's order. */
	qsort(c, k, sizeof *c, bl_bin_cmp);
	*out = c;
	*nout = k;
	return 0;
}

int bl_bins_summary(const struct bl_bin *b, size_t n, double overflow,
		    struct bl_bins_stats *out)
{
	struct bl_bin *s;
	size_t ns, i;
	double w = 0.0, mean = 0.0, m2 = 0.0, sum = 0.0, delta;
	int rc;

	if (out == NULL)
		return -BL_EUSAGE;
	rc = bl__bins_sorted(b, n, overflow, &s, &ns);
	if (rc < 0)
		return rc;
	/* D4: weighted Welford (West 1979); equals D1/D2 on the expanded sample. */
	for (i = 0; i < ns; i++) {
		w += s[i].count;
		delta = s[i].value - mean;
		mean += delta * (s[i].count / w);
		m2 += s[i].count * delta * (s[i].value - mean);
		sum += s[i].value * s[i].count;
	}
	out->n_binned = w;
	out->overflow = overflow;
	out->n = w + overflow;
	out->mean = ns ? mean : NAN;
	out->sd = w > 1.0 ? sqrt(m2 / (w - 1.0)) : NAN;
	out->min = ns ? s[0].value : NAN;
	out->max = ns ? s[ns - 1].value : NAN;
	out->max_lower_bound = overflow > 0.0;
	if (ns == 0)
		out->mean_lb = NAN;
	else if (overflow > 0.0)
		out->mean_lb = (sum + overflow * out->max) / out->n;
	else
		out->mean_lb = out->mean;
	free(s);
	return 0;
}

/* Value at 0-based order position k of sorted bins (D4); *in_overflow when
 * k is at or past the binned total. */
static double bins_at(const struct bl_bin *s, size_t ns, double k, bool *in_overflow)
{
	double cum = 0.0;
	size_t i;

	for (i = 0; i < ns; i++) {
		cum += s[i].count;
		if (cum > k)
			return s[i].value;
	}
	*in_overflow = true;
	return ns ? s[ns - 1].value : NAN;
}

double bl_bins_percentile_rule(const struct bl_bin *b, size_t n, double overflow,
			       double p, enum bl_pct_rule rule, bool *lower_bound)
{
	struct bl_bin *s;
	size_t ns, i;
	double total = overflow, j, frac, lo, hi, r;
	bool ovf = false;

	if (lower_bound)
		*lower_bound = false;
	if (!bl__pct_ok(p) || bl__bins_sorted(b, n, overflow, &s, &ns) < 0)
		return NAN;
	for (i = 0; i < ns; i++)
		total += s[i].count;
	if (ns == 0 || total <= 0.0) {
		/* Only overflow, or nothing: no value is known. */
		free(s);
		return NAN;
	}
	bl__pct_position(total, p, rule, &j, &frac);
	lo = bins_at(s, ns, j, &ovf);
	r = lo;
	if (frac > 0.0) {
		hi = bins_at(s, ns, j + 1.0, &ovf);
		/* In the overflow only the lower end is known: report x_j (D4). */
		r = ovf ? lo : bl__lerp(lo, hi, frac);
	}
	free(s);
	if (lower_bound)
		*lower_bound = ovf;
	return r;
}

/* ---- D5 ---------------------------------------------------------------- */

/* Student t quantile for a two-sided conf interval; guards GSL's domain
 * (its default error handler aborts). */
static double t_crit(double conf, double df)
{
	if (!(conf > 0.0 && conf < 1.0) || !(df > 0.0))
		return NAN;
	return gsl_cdf_tdist_Pinv(0.5 + conf / 2.0, df);
}

double bl_ci_half(double sd, unsigned long long n, double conf)
{
	return bl_ci_half_eff(sd, (double)n, conf);   /* D5 is D15's with n_eff = n */
}

/* ---- D6, D7 ------------------------------------------------------------ */

/* o cleared for a test at level conf: 0, or -BL_EUSAGE (with a note)
 * when conf is not in (0, 1). */
static int ttest_clear(struct bl_ttest *o, double conf)
{
	o->diff = o->pct_change = NAN;
	o->ci_lo = o->ci_hi = o->pct_lo = o->pct_hi = NAN;
	o->t = o->df = o->p = o->se = o->pooled_sd = NAN;
	o->conf = conf;
	o->ok = 0;
	o->note = conf > 0.0 && conf < 1.0 ? NULL : "confidence level must be between 0 and 1";
	return o->note ? -BL_EUSAGE : 0;
}

/* Given diff, se and df, fill t, p, CI and percentages (D6/D7). */
static void ttest_finish(struct bl_ttest *o, double base_mean)
{
	double half;

	o->ok = 1;
	if (o->se == 0.0) {
		/* Both samples constant (D6). */
		o->note = "zero variance in both samples";
		if (o->diff == 0.0) {
			o->t = 0.0;
			o->p = 1.0;
		} else {
			o->t = o->diff > 0.0 ? INFINITY : -INFINITY;
			o->p = 0.0;
		}
		half = 0.0;
	} else if (!(o->df > 0.0)) {
		/* se > 0 but the D6 df denominator underflowed: no usable df. */
		o->ok = 0;
		o->note = "degrees of freedom undefined (variances underflow)";
		return;
	} else {
		o->t = o->diff / o->se;
		o->p = 2.0 * gsl_cdf_tdist_Q(fabs(o->t), o->df);
		if (o->p > 1.0)
			o->p = 1.0;
		half = t_crit(o->conf, o->df) * o->se;
	}
	o->ci_lo = o->diff - half;
	o->ci_hi = o->diff + half;
	if (base_mean != 0.0) {
		o->pct_change = 100.0 * o->diff / base_mean;
		o->pct_lo = 100.0 * o->ci_lo / base_mean;
		o->pct_hi = 100.0 * o->ci_hi / base_mean;
		if (o->pct_lo > o->pct_hi) { /* negative baseline mean */
			double tmp = o->pct_lo;
			o->pct_lo = o->pct_hi;
			o->pct_hi = tmp;
		}
	}
}

static int ttest_args(const struct bl_welford *base, const struct bl_welford *cand,
		      double conf, struct bl_ttest *out)
{
	if (base == NULL || cand == NULL || out == NULL || ttest_clear(out, conf) < 0)
		return -BL_EUSAGE;
	if (base->n > 0 && cand->n > 0)
		out->diff = cand->mean - base->mean;
	if (base->n > 0 && base->mean != 0.0 && !isnan(out->diff))
		out->pct_change = 100.0 * out->diff / base->mean;
	return 0;
}

/* D6 with D15's n_eff, from n, mean and sd of each side; out set up by
 * ttest_args or ttest_clear. */
static void welch_core(double nb, double mb, double varb, double neff_b, double nc, double varc,
		       double neff_c, struct bl_ttest *out)
{
	double vb, vc, den;

	if (nb < 2 || nc < 2) {
		out->note = "Welch's t-test needs at least 2 values on each side";
		return;
	}
	if (!(neff_b >= 2.0 && neff_b <= nb && neff_c >= 2.0 && neff_c <= nc)) {
		out->note = "effective sample size outside [2, n]";
		return;
	}
	/* D6, with n_eff in place of n for autocorrelated series (D15) */
	vb = varb / neff_b;
	vc = varc / neff_c;
	out->se = sqrt(vb + vc);
	den = vb * vb / (neff_b - 1.0) + vc * vc / (neff_c - 1.0);
	out->df = den > 0.0 ? (vb + vc) * (vb + vc) / den : NAN;
	ttest_finish(out, mb);
}

int bl_welch_moments(double nb, double mb, double sdb, double neff_b, double nc, double mc,
		     double sdc, double neff_c, double conf, struct bl_ttest *out)
{
	if (out == NULL || ttest_clear(out, conf) < 0)
		return -BL_EUSAGE;
	if (!isfinite(mb) || !isfinite(mc) || !(sdb >= 0) || !(sdc >= 0))
		return -BL_ERANGE;
	out->diff = mc - mb;
	if (mb != 0.0)
		out->pct_change = 100.0 * out->diff / mb;
	welch_core(nb, mb, sdb * sdb, neff_b, nc, sdc * sdc, neff_c, out);
	return 0;
}

int bl_welch(const struct bl_welford *base, const struct bl_welford *cand,
	     double conf, struct bl_ttest *out)
{
	int rc = ttest_args(base, cand, conf, out);
	if (rc < 0)
		return rc;
	welch_core((double)base->n, base->mean, bl_welford_var(base), (double)base->n, (double)cand->n,
		   bl_welford_var(cand), (double)cand->n, out);
	return 0;
}

int bl_student_pooled(const struct bl_welford *base, const struct bl_welford *cand,
		      double conf, struct bl_ttest *out)
{
	double df;
	int rc;

	rc = ttest_args(base, cand, conf, out);
	if (rc < 0)
		return rc;
	if (base->n < 1 || cand->n < 1 || base->n + cand->n < 3) {
		out->note = "pooled t-test needs a value on each side and 3 in all";
		return 0;
	}
	/* D7 */
	df = (double)(base->n + cand->n - 2);
	out->df = df;
	out->pooled_sd = sqrt((bl_welford_m2(base) + bl_welford_m2(cand)) / df);
	out->se = out->pooled_sd * sqrt(1.0 / (double)base->n + 1.0 / (double)cand->n);
	ttest_finish(out, base->mean);
	return 0;
}

bool bl_test_power_too_low(unsigned long long n_base, unsigned long long n_cand)
{
	return n_base < 3 || n_cand < 3;
}

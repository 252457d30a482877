/* stats.h — benchlog's statistics: summaries, percentiles, confidence
 * intervals, two-sample tests, bounded-memory distributions and mergeable
 * partial aggregates. Pure computation: no parsing, no printing, no argv.
 *
 * Definitions. Code and tests cite these numbers ("D6"); each is stated
 * once, with its formulas, edge cases and references, in
 * docs/statistics.md under the same number.
 *
 * Errors: functions returning int give 0 or a negative enum bl_err
 * (core/util.h): -BL_EUSAGE for bad arguments (NULL, conf outside (0,1)),
 * -BL_ERANGE for non-finite data (D0), -BL_EFORMAT for inconsistent bins or
 * a malformed partial, -BL_EIO for failed writes/reads.
 * Memory: allocation goes through bl_xmalloc (aborts on exhaustion).
 * Nothing here keeps global state; every object may be used from one thread
 * at a time.
 */
#ifndef BL_STATS_H
#define BL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/util.h"

/* ---- D1, D2: running mean and variance ---------------------------------- */

/* Welford accumulator, shifted and scaled (D2). n = 0: mean = 0,
 * min = max = NaN. Plain struct: init it, copy it by assignment; it owns
 * no memory. Read the mean from `mean` or bl_welford_mean(), the spread
 * only through bl_welford_var()/_sd(): m2 is kept in scaled units so that
 * finite data always give a finite sd. */
struct bl_welford {
	unsigned long long n;   /* finite values added */
	double mean;            /* D1, in the data's units, kept current */
	double min, max;        /* NaN when n = 0 */
	/* D2 internals: y = (x - shift) 2^-scale */
	double shift;           /* K: the first value added */
	double off;             /* mean of y */
	double m2;              /* sum of (y - off)^2 */
	int scale;              /* e: ilogb of the largest |x| so far */
	double ks;              /* shift 2^-scale */
	double lim;             /* 2^(scale+1): a larger |x| rescales */
	double up, down;        /* 2^scale, 2^-scale; 0 when not normal */
};

void bl_welford_init(struct bl_welford *w);
/* Add one value. -BL_ERANGE (nothing added) for NaN or +-inf (D0). */
int bl_welford_add(struct bl_welford *w, double x);
/* dst := dst + src (D2 pairwise merge). src may equal dst. */
void bl_welford_merge(struct bl_welford *dst, const struct bl_welford *src);
double bl_welford_mean(const struct bl_welford *w);   /* NaN when n = 0 */
double bl_welford_var(const struct bl_welford *w);    /* NaN when n < 2 */
/* M2 = sum (x_i - xbar)^2 in the data's units squared; 0 when n < 2;
 * +inf when it passes DBL_MAX (finite data near DBL_MAX: use the sd). */
double bl_welford_m2(const struct bl_welford *w);
double bl_welford_sd(const struct bl_welford *w);     /* NaN when n < 2 */

/* ---- D3: percentiles -------------------------------------------------- */

enum bl_pct_rule {
	BL_PCT_TYPE7 = 0,        /* default: Hyndman-Fan 7, linear interpolation */
	BL_PCT_NEAREST_RANK = 1, /* smallest observed x with >= p% at or below */
};

/* p in [0,100] of x[0..n), which must be sorted ascending and finite.
 * NaN when n = 0, p is out of range, or an element it reads is not
 * finite. */
double bl_percentile_sorted(const double *x, size_t n, double p, enum bl_pct_rule rule);
/* D3a: true when n values support percentile p (0..100). */
bool bl_pct_supported(unsigned long long n, double p);

/* ---- D4: histogram bins ----------------------------------------------- */

struct bl_bin {
	double value;   /* the bucket's value (units of the data: s, us, ...) */
	double count;   /* observations with this value; finite, >= 0 */
};
/* qsort(3) order of struct bl_bin: by value, ascending. */
int bl_bin_cmp(const void *a, const void *b);

struct bl_bins_stats {
	double n;          /* all observations: binned + overflow */
	double n_binned;   /* sum of counts */
	double overflow;   /* observations beyond the largest bin value */
	double mean;       /* of the binned observations; NaN when none */
	double sd;         /* D2 over binned observations; NaN when n_binned < 2 */
	double min;        /* smallest value with count > 0; NaN when none */
	double max;        /* largest value with count > 0; NaN when none */
	bool max_lower_bound; /* overflow > 0: true maximum is beyond max */
	double mean_lb;    /* lower bound of the mean of all n; = mean when no overflow */
};

/* Summary of n bins (any order) plus `overflow` observations beyond the
 * largest value. -BL_EUSAGE for NULL out (or NULL b with n > 0),
 * -BL_ERANGE for a non-finite value, a negative/non-finite count or
 * overflow. Zero observations is not an error: n = 0, the rest NaN. */
int bl_bins_summary(const struct bl_bin *b, size_t n, double overflow,
		    struct bl_bins_stats *out);
/* D3 percentile (rule) of the bins (D4). *lower_bound (may be NULL) is
 * set when the answer involves overflow observations: the true percentile
 * is >= the returned value. NaN on bad input or no observations. */
double bl_bins_percentile_rule(const struct bl_bin *b, size_t n, double overflow,
			       double p, enum bl_pct_rule rule, bool *lower_bound);

/* ---- D5: confidence interval of the mean ------------------------------ */

/* Half-width of the conf (0 < conf < 1) CI of the mean of n values with
 * sample sd `sd`. NaN when n < 2, sd is NaN/negative, or conf is invalid. */
double bl_ci_half(double sd, unsigned long long n, double conf);

/* ---- D6, D7: t-tests -------------------------------------------------- */

struct bl_ttest {
	double diff;        /* candidate mean - baseline mean */
	double pct_change;  /* 100 diff / baseline mean; NaN when that is 0 */
	double ci_lo, ci_hi;   /* conf CI of diff */
	double pct_lo, pct_hi; /* the same CI in % of the baseline mean */
	double t, df, p;    /* statistic, degrees of freedom, two-sided p */
	double se;          /* standard error of diff */
	double pooled_sd;   /* D7 only: s_p (ministat's "pooled s"); else NaN */
	double conf;        /* the confidence level used */
	int ok;             /* 1: t, p and CI are defined; 0: see note */
	const char *note;   /* static text: why not ok, or a degenerate case; NULL otherwise */
};

/* Compare candidate against baseline. Returns 0 (out filled; out->ok tells
 * whether the test is defined for these n) or -BL_EUSAGE (NULL pointer,
 * conf not in (0,1)). */
int bl_welch(const struct bl_welford *base, const struct bl_welford *cand,
	     double conf, struct bl_ttest *out);
int bl_student_pooled(const struct bl_welford *base, const struct bl_welford *cand,
		      double conf, struct bl_ttest *out);

/* True when either side has fewer than 3 values: too few to claim any
 * difference (ministat refuses such data sets; D7). */
bool bl_test_power_too_low(unsigned long long n_base, unsigned long long n_cand);

/* ---- D8: Mann-Whitney U ----------------------------------------------- */

struct bl_utest {
	double n_base, n_cand;  /* sample sizes (sums of counts for bins) */
	double u_base;  /* #(base > cand) + #(ties)/2 over all pairs */
	double u_cand;  /* #(cand > base) + #(ties)/2; u_base + u_cand = n_base n_cand */
	double u;       /* min(u_base, u_cand), the tabulated statistic */
	double prob_superiority; /* u_cand / (n_base n_cand): P(cand > base) + P(=)/2 */
	double tie_term;   /* sum over tie groups of t^3 - t */
	double z;       /* continuity-corrected; > 0 when the candidate tends larger */
	double p;       /* two-sided, normal approximation */
	double p_exact_min; /* 2 / C(N, n_base): smallest p any exact test could give; NaN for non-integer counts */
	int ok;         /* 0 when a side is empty */
	const char *note;
};

/* a = baseline, b = candidate, as bins (D4, D8; a raw sample is a bin of
 * count 1): in any order, overflow counts as one tie group above all bins.
 * Copies and sorts; inputs untouched. 0, -BL_EUSAGE (NULL with n > 0, NULL
 * out), -BL_ERANGE (non-finite, D0), -BL_EFORMAT when an overflow is not
 * above every bin of the other histogram (order unknown). */
int bl_mannwhitney_bins(const struct bl_bin *a, size_t na, double overflow_a,
			const struct bl_bin *b, size_t nb, double overflow_b,
			struct bl_utest *out);

/* ---- D9: Kolmogorov-Smirnov ------------------------------------------- */

struct bl_kstest {
	double n_base, n_cand;
	double d;        /* max |F_base - F_cand| */
	double d_signed; /* F_base - F_cand at that point: > 0 means candidate tends larger */
	double p;        /* asymptotic two-sided p */
	int ok;
	const char *note;
};
/* As bl_mannwhitney_bins. */
int bl_ks2_bins(const struct bl_bin *a, size_t na, double overflow_a,
		const struct bl_bin *b, size_t nb, double overflow_b,
		struct bl_kstest *out);
/* Q_KS(lambda) of D9, in [0,1]. */
double bl_kolmogorov_q(double lambda);

/* ---- D11: log-bucketed sketch ----------------------------------------- */

#define BL_SKETCH_ALPHA 0.01
#define BL_SKETCH_MAX_BUCKETS 2048

/* One sign's buckets: counts[i] is bucket index lo + i. Internal to the
 * sketch; declared here so bl_partial can live on the stack. */
struct bl_sketch_store {
	long lo;                      /* index of counts[0] */
	size_t len;                   /* buckets in use */
	size_t cap;                   /* allocated */
	unsigned long long *counts;   /* owned */
	/* How many of counts[0] are values already counted as collapsed
	 * (D11): folding only ever moves values into the lowest bucket, and
	 * once a store has folded, its lowest index never goes down, so a
	 * value folded twice is counted once. */
	unsigned long long folded;
};

struct bl_sketch {
	unsigned long long zero;      /* exact zeros */
	struct bl_sketch_store pos;   /* x > 0, index of x */
	struct bl_sketch_store neg;   /* x < 0, index of -x */
	unsigned long long collapsed; /* values folded into a lowest bucket (D11) */
};

/* ---- D10: mergeable partial aggregate --------------------------------- */

struct bl_partial {
	struct bl_welford w;          /* n, mean, M2, min, max */
	double sum;                   /* plain sum of the values */
	unsigned long long rejected;  /* non-finite values refused (D0) */
	struct bl_sketch sk;          /* D11; owns memory */
};

/* S_init/S_release for stack objects; release is idempotent and leaves an
 * empty, initialised partial. */
void bl_partial_init(struct bl_partial *p);
void bl_partial_release(struct bl_partial *p);
/* dst := dst + src. dst and src must differ. */
void bl_partial_merge(struct bl_partial *dst, const struct bl_partial *src);
/* D3 percentile estimated from the sketch (D11); NaN when empty or p bad. */
double bl_partial_percentile(const struct bl_partial *p, double pct, enum bl_pct_rule rule);
/* Write in the D10 format. 0 or -BL_EIO. */
int bl_partial_write(FILE *f, const struct bl_partial *p);
/* Read one partial (D10) into p, which must be initialised; on success p
 * holds exactly what was written (previous contents are released first).
 * Returns 0, 1 at end of input before a header line (no more partials), or
 * -BL_EFORMAT / -BL_ERANGE / -BL_ETOOLONG / -BL_EIO with *line (may be
 * NULL) set to the 1-based line number, counted from where this call
 * started reading, and why[0..whysz) (may be NULL) to a lower-case
 * message. On error p is left empty. */
int bl_partial_read(FILE *f, struct bl_partial *p, unsigned long *line,
		    char *why, size_t whysz);

/* ---- D11: streaming distribution -------------------------------------- */

#define BL_DIST_EXACT_MAX (1u << 20)
#define BL_DIST_BUDGET ((size_t)1 << 25)

/* Exact up to BL_DIST_EXACT_MAX values, then sketch. Opaque. */
struct bl_dist;

/* A heap object the caller owns and frees with bl_dist_free (NULL-safe),
 * exact only up to exact_max values (1..BL_DIST_EXACT_MAX) and while
 * *budget (NULL: no shared bound) has room: each dist takes the room
 * of the values it stores from *budget and gives it back when it frees
 * them (turning to the sketch, or bl_dist_free), so callers that keep many
 * distributions open bound their memory (8 bytes a value while exact).
 * *budget must outlive the dist. */
struct bl_dist *bl_dist_new_exact(size_t exact_max, size_t *budget);
void bl_dist_free(struct bl_dist *d);
/* -BL_ERANGE for non-finite x (counted, D0). */
int bl_dist_add(struct bl_dist *d, double x);
/* D3 percentile: exact while bl_dist_is_exact(), else within D11's error.
 * Sorts the stored samples on first use (hence not const). */
double bl_dist_percentile(struct bl_dist *d, double p, enum bl_pct_rule rule);
bool bl_dist_is_exact(const struct bl_dist *d);
/* n, mean, M2, min, max of everything added (D1, D2). */
const struct bl_welford *bl_dist_welford(const struct bl_dist *d);
/* D6a: *out (initialised here) the Welford summary of ln x over every
 * value added. 0, or -BL_ERANGE (out empty) when d is not exact or holds a
 * value <= 0. */
int bl_dist_log_welford(const struct bl_dist *d, struct bl_welford *out);
unsigned long long bl_dist_rejected(const struct bl_dist *d);
/* Values the sketch folded into a lowest bucket (D11); 0 while exact.
 * Percentiles whose order statistics fall among them lose the 1% bound. */
unsigned long long bl_dist_collapsed(const struct bl_dist *d);
/* A dist written to f (a temporary file of this process: the form is the
 * memory's own, pointers included) and read back, with its values taken
 * from its budget again (past it, they go to the sketch). Save: 0 or
 * -BL_EIO; d is unchanged. Load: the dist, or NULL when f ended short or
 * failed (errno set by the read, or 0 for a short file). */
int bl_dist_save(const struct bl_dist *d, FILE *f);
struct bl_dist *bl_dist_load(FILE *f);
/* The same for a heap partial (bl_partial_release, then free). */
int bl_partial_save(const struct bl_partial *p, FILE *f);
struct bl_partial *bl_partial_load(FILE *f);
/* Fill an initialised partial (its old contents released) with d's data. */
void bl_dist_to_partial(const struct bl_dist *d, struct bl_partial *out);

/* Histogram over nbins bins with non-decreasing finite edges e[0..nbins]:
 * counts[i] (i < nbins) = #{x : e[i] <= x < e[i+1]}, the last bin closed
 * (it also takes x = e[nbins]); values outside [e[0], e[nbins]] are not
 * counted. bl_dist: exact while bl_dist_is_exact(). Partials, and bl_dist
 * beyond its exact size, count from the sketch (D11): each bucket's count
 * goes to the bin of its representative value clamped to [min, max], so
 * only values within alpha |x| of an inner edge can land in the
 * neighbouring bin. Returns 0 or -BL_EUSAGE (NULL pointer, nbins = 0,
 * edges not finite or decreasing). */
int bl_dist_histogram(struct bl_dist *d, const double *e, size_t nbins,
		      unsigned long long *counts);
int bl_partial_histogram(const struct bl_partial *p, const double *e, size_t nbins,
			 unsigned long long *counts);

/* ---- D12: multiple tests ---------------------------------------------- */

/* Holm (D12) of p[0..n) into out[0..n) (out may be p). NaN p values stay
 * NaN and are not counted. Returns m, the number of defined p-values. */
size_t bl_p_holm(const double *p, size_t n, double *out);
/* Benjamini-Hochberg (D12), the same conventions. */
size_t bl_p_bh(const double *p, size_t n, double *out);

/* ---- D13: verdicts ------------------------------------------------------ */

enum bl_verdict_kind {
	BL_V_BETTER, BL_V_WORSE, BL_V_HIGHER, BL_V_LOWER, BL_V_NEGLIGIBLE,
	BL_V_NO_CHANGE, BL_V_TOO_FEW, BL_V_AVERAGES_ONLY, BL_V_NO_TEST,
};
/* D13. pct: the change in %, [ci_lo, ci_hi] its CI (D14; NaN: none);
 * p_adj: the D12-adjusted p (NaN: no test); band_pct: the negligible band
 * in % (>= 0); better: -1 lower is better, +1 higher is better, 0 not
 * stated. */
enum bl_verdict_kind bl_judge(double pct, double ci_lo, double ci_hi, double p_adj,
			      double alpha, double band_pct, int better, bool too_few,
			      bool averages_only);
/* "better", "worse", "higher", "lower", "negligible", "no change
 * detected", "too few runs", "averages only, no test possible", "no test".
 * Static strings. */
const char *bl_verdict_kind_name(enum bl_verdict_kind v);

/* ---- D14: CI of a relative change --------------------------------------- */

struct bl_ratio_ci {
	double pct;            /* 100 (mean_c - mean_b) / |mean_b| */
	double pct_lo, pct_hi; /* conf CI of pct; -inf / +inf when unbounded */
	double df;             /* of the t quantile */
	bool bounded;          /* false: baseline mean not distinguishable from 0 */
	bool clipped;          /* the lower end was raised to -100 % */
	int ok;                /* 0: undefined (a mean missing, mean_b = 0, bad conf) */
};
/* D14 from the two means, the variances of the means (s^2/n or s^2/n_eff),
 * df, conf in (0,1); nonneg: no value on either side is negative.
 * Returns 0 or -BL_EUSAGE (NULL out). */
int bl_fieller(double mean_b, double var_mean_b, double mean_c, double var_mean_c,
	       double df, double conf, bool nonneg, struct bl_ratio_ci *out);

/* ---- D15: autocorrelated series ----------------------------------------- */

/* D15 streaming: r1 of a series seen one value at a time, in order, from
 * the lag-1 cross products of y = x - K (K the first value) and the
 * series' own Welford summary:
 *   r1 = (sum_{t<n} y_t y_{t+1} - ybar (2 S - y_1 - y_n) + (n - 1) ybar^2) / M2,
 * S = sum y. Plain struct; owns no memory. */
struct bl_lag1 {
	unsigned long long n;
	double k, prev, first, sum, cross;
};
void bl_lag1_init(struct bl_lag1 *l);
/* x finite (the caller's Welford refuses the others, D0). */
void bl_lag1_add(struct bl_lag1 *l, double x);
/* r1 of the values added (D15); w: their Welford summary. NaN when
 * fewer than 3 or the values are constant. */
double bl_lag1_r1(const struct bl_lag1 *l, const struct bl_welford *w);
/* D15 (rules 15.1-15.3): the effective sample size of n values whose
 * lag-1 autocorrelation is r1, in [2, n]; n when r1 is NaN or n < 3. n >= 2. */
double bl_n_eff(double n, double r1);
/* D5 with n_eff in place of n (D15): t_{(1+conf)/2, n_eff - 1} sd / sqrt(n_eff).
 * NaN when n_eff < 2 or sd is not >= 0. */
double bl_ci_half_eff(double sd, double n_eff, double conf);
/* D6 with effective sizes neff_b, neff_c (each in [2, n], or n) in the
 * variances of the means and the df, from summaries: n, mean, sample sd
 * and n_eff of each side (a vmstat column's, analyze/vmstat.h). Same
 * contract as bl_welch; -BL_ERANGE for a non-finite mean or a bad sd (D0). */
int bl_welch_moments(double nb, double mb, double sdb, double neff_b, double nc, double mc,
		     double sdc, double neff_c, double conf, struct bl_ttest *out);

/* ---- D19: bootstrap variance of a histogram's percentile ---------------- */

#define BL_BOOT_REPS 2000
/* D19: the bootstrap variance of the D3 (type 7) percentile p (0-100) of
 * n bins (any order) and `overflow` samples above every bin: reps
 * multinomial resamples of all N samples, from the generator seeded with
 * seed. NaN for bad input, fewer than 2 samples or more than 2^32 - 1;
 * +infinity when a replicate's percentile falls in the overflow. */
double bl_bins_percentile_boot_var(const struct bl_bin *b, size_t n, double overflow, double p,
				   unsigned reps, unsigned long seed);

/* ---- D16: detectable change --------------------------------------------- */

/* D16: (t_{1-alpha/2, df} + t_{power, df}) se; NaN unless se >= 0, df > 0,
 * 0 < alpha < 1 and 0.5 <= power < 1. */
double bl_detectable_diff(double se, double df, double alpha, double power);

#endif

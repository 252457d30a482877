/* stats.h — benchlog's statistics: summaries, percentiles, confidence
 * intervals, two-sample tests, bounded-memory distributions and mergeable
 * partial aggregates. Pure computation: no parsing, no printing, no argv.
 *
 * Definitions. Code and tests cite these numbers ("D6"); docs/statistics.md
 * says the same in prose, with formulas and references.
 *
 * D0  Input domain. Every statistic is defined over finite doubles only.
 *     NaN and +-infinity are never averaged, ranked or counted as data:
 *     streaming adds (bl_welford_add, bl_dist_add) refuse them with
 *     -BL_ERANGE and leave the aggregate unchanged (bl_dist, and the
 *     bl_partial made from it, also count them in `rejected`); array
 *     and bin functions refuse the whole input with -BL_ERANGE (or return NaN where the
 *     function returns a double). Bin counts and overflow counts must be
 *     finite and >= 0. A result that is undefined (n too small, zero
 *     variance where a ratio needs it) is NaN and, for tests, ok = 0 with a
 *     short `note` saying why — never a made-up number.
 *
 * D1  Mean. xbar = (1/n) sum x_i, kept by Welford's update
 *     xbar_k = xbar_{k-1} + (x_k - xbar_{k-1}) / k. n = 0: NaN.
 *
 * D2  Variance and standard deviation: the SAMPLE forms, divisor n-1,
 *     s^2 = M2 / (n-1) with M2 = sum (x_i - xbar)^2 accumulated by Welford's
 *     method (M2 += (x_k - xbar_{k-1}) (x_k - xbar_k)), so M2 >= 0 by
 *     construction and no "cannot be negative" guard is needed (the naive
 *     sum-of-squares formula gives negative variances, see docs). Two
 *     aggregates merge by Chan, Golub & LeVeque's pairwise formula
 *     M2 = M2a + M2b + delta^2 na nb / n. n < 2: s and s^2 are NaN.
 *     Constant data: s = 0 exactly. Population sd is not offered; callers
 *     that want it multiply by sqrt((n-1)/n).
 *     Shift and scale: the update runs on y = (x - K) 2^-e, K the first
 *     value (shifted Welford: values far from 0 with a small spread keep
 *     their digits), e = ilogb of the largest |x| so far (so |y| < 4 and
 *     M2 can neither overflow near DBL_MAX nor underflow for subnormal
 *     data); a larger value raises e and rescales the sums by powers of
 *     2. mean = K + 2^e mean(y), s = 2^e sqrt(M2_y / (n-1)). A merge
 *     brings both sides to the larger e and keeps dst's K; the difference
 *     of the means is (K_b - K_a) 2^-e + (mean_yb - mean_ya).
 *
 * D3  Percentiles (p in 0..100) of a sorted sample x_0 <= ... <= x_{n-1}.
 *     Default BL_PCT_TYPE7, Hyndman & Fan (1996) definition 7 (R's default,
 *     GNU datamash's perc/median/q1/q3, numpy's "linear"):
 *         h = (n-1) p / 100,  j = floor(h),
 *         Q(p) = x_j + (h - j) (x_{j+1} - x_j)      (x_{j+1} unused if h = j)
 *     so the median of an even-n sample is the mean of the two middle
 *     values. BL_PCT_NEAREST_RANK: the smallest x such that at least p% of
 *     the sample is <= x: rank r = ceil(n p / 100), at least 1,
 *     Q(p) = x_{r-1} (always an observed value). n = 0, p outside [0,100]
 *     or NaN: NaN. n = 1: x_0. Ties need nothing special.
 *     Shown only when n supports it (D3a): a percentile a person reads
 *     (stats, the summary, the report) is printed only when each tail
 *     holds at least one value beyond it, n min(p, 100 - p) / 100 >= 1:
 *     p90 needs n >= 10, p95 n >= 20, p99 n >= 100, the median n >= 2;
 *     p = 0 and 100 (min and max) always. With fewer values it would
 *     only restate the largest (or smallest) values, so it is left out
 *     ("-" in text, empty in CSV) and a note says why.
 *
 * D4  Weighted forms for histogram bins (value v_i, count c_i >= 0), as
 *     if each value were repeated c_i times but without expanding: total
 *     N = sum c_i; mean and M2 by the weighted Welford update (West 1979),
 *     s^2 = M2 / (N - 1); min/max over bins with c_i > 0. Percentiles use
 *     D3 on the cumulative counts: the order statistic at 0-based position
 *     k is the value of the first bin (in ascending value order) whose
 *     cumulative count exceeds k. For integer counts this equals D3 on the
 *     expanded sample exactly. Bins may arrive in any order and with
 *     repeated values (a copy is sorted; equal values pool). Overflow: a
 *     count of observations known only to lie beyond the largest bin value
 *     (cyclictest "Histogram Overflows"). They count in N for percentiles
 *     and in bl_bins_stats.n, but mean/sd/min use the binned observations
 *     only; max is then a lower bound, and mean_lb = (sum v_i c_i +
 *     overflow * max) / N is a lower bound of the mean of all
 *     observations. A percentile whose order statistic falls in the
 *     overflow is reported as the largest bin value with *lower_bound set.
 *
 * D5  Confidence interval of the mean: xbar +- t_{(1+conf)/2, n-1} s / sqrt(n)
 *     with Student's t quantile from GSL (gsl_cdf_tdist_Pinv). The "95%
 *     CI" is conf = 0.95. n < 2: NaN. s = 0: half-width 0.
 *
 * D6  Welch's unequal-variance t-test (Welch 1947), candidate minus
 *     baseline: d = xbar_c - xbar_b, se^2 = s_b^2/n_b + s_c^2/n_c,
 *     t = d / se, Welch-Satterthwaite
 *     df = se^4 / ((s_b^2/n_b)^2/(n_b-1) + (s_c^2/n_c)^2/(n_c-1)),
 *     two-sided p = 2 Q_t(|t|; df) (GSL gsl_cdf_tdist_Q), CI of d:
 *     d +- t_{(1+conf)/2, df} se. Needs n >= 2 on each side, else ok = 0.
 *     se = 0 (both samples constant): d = 0 gives t = 0, p = 1; d != 0
 *     gives t = +-inf, p = 0 (every observation separates the groups, as
 *     ministat also reports); df is NaN and the CI is [d, d].
 * D7  Pooled (Student's) two-sample t-test, the one ministat prints:
 *     s_p^2 = (M2_b + M2_c) / (n_b + n_c - 2), se = s_p sqrt(1/n_b + 1/n_c),
 *     df = n_b + n_c - 2, t, p and CI as in D6. Needs n >= 1 on each side
 *     and df >= 1. se = 0 as in D6 (df stays n_b + n_c - 2).
 *     For D6 and D7: pct_change = 100 d / xbar_b, and the percentage CI is
 *     the CI of d divided by xbar_b (the baseline mean taken as exact, as
 *     ministat does); xbar_b = 0: NaN.
 *     Verdict: significant when p < alpha. Power rule: with fewer than 3
 *     observations on either side (ministat's minimum) no difference is
 *     claimed: bl_test_power_too_low().
 *
 * D8  Mann-Whitney U (Wilcoxon rank-sum), two-sided, normal approximation.
 *     Pool both samples, rank ascending, ties get the mean of the ranks they
 *     span (midranks). U_c = R_c - n_c (n_c + 1) / 2 = #(c > b) + #(c = b)/2
 *     over all pairs; U_b = n_b n_c - U_c. mu = n_b n_c / 2,
 *     sigma^2 = n_b n_c / 12 * ((N + 1) - sum_g (t_g^3 - t_g) / (N (N - 1)))
 *     (tie correction over groups g of t_g equal values, N = n_b + n_c).
 *     Continuity correction of 1/2: z = sign(U_c - mu) max(|U_c - mu| - 1/2, 0)
 *     / sigma, p = 2 Q_normal(|z|) (same as R's wilcox.test(exact = FALSE,
 *     correct = TRUE) and scipy's mannwhitneyu(method = "asymptotic")).
 *     The approximation is rough for n < 8 a side; the exact minimum
 *     two-sided p, 2 / C(N, n_b), is given so callers can see when no
 *     result could be significant. sigma = 0 (every value equal): z = 0,
 *     p = 1. n = 0 on a side: ok = 0. The binned form treats bin (v, c) as
 *     c observations equal to v (one tie group per distinct value), so two
 *     latency histograms are compared without expansion; overflow counts
 *     are one tie group above every binned value, which is only sound when
 *     the other histogram has no bin beyond this one's last bucket
 *     (checked: else -BL_EFORMAT).
 *
 * D9  Two-sample Kolmogorov-Smirnov: D = max over x of |F_b(x) - F_c(x)|
 *     (empirical CDFs, evaluated after each distinct value, so ties and
 *     bins are handled exactly). p from the asymptotic Kolmogorov
 *     distribution Q_KS(lambda) = 2 sum_{j>=1} (-1)^{j-1} exp(-2 j^2 lambda^2),
 *     lambda = (sqrt(en) + 0.12 + 0.11 / sqrt(en)) D, en = n_b n_c / (n_b + n_c)
 *     (Stephens 1970, as in Numerical Recipes' kstwo). With ties (always
 *     the case for binned data) the test is conservative (p too large).
 *     Overflow as in D8.
 *
 * D10 Mergeable partial aggregate (struct bl_partial): n, sum, the D2
 *     state (mean, shift, offset, scaled M2, scale), min, max, the count of
 *     rejected non-finite inputs, and the log-bucketed sketch of D11 with
 *     its count of collapsed values. Merging partials of any split of the input
 *     gives n, min, max exactly and mean, sd to rounding (1e-12 relative in
 *     practice) of the one-pass result, and the sketch exactly (bucket counts
 *     add), hence the same percentile estimates. Text format, one item per
 *     line, fields separated by one space, numbers written with %.17g so they
 *     read back bit-exact:
 *         benchlog-partial 2
 *         count <n>
 *         rejected <k>
 *         sum <x>
 *         mean <x>        \   the mean (D1)
 *         shift <x>        |  K, D2
 *         offset <x>       |  mean of (x - K) 2^-e
 *         m2 <x>           |  M2 of (x - K) 2^-e: finite, >= 0
 *         scale <e>        |  an integer, -1100 (no non-zero value) to 1023
 *         min <x>          |  only when count > 0
 *         max <x>         /
 *         sketch 0.01 2048           (alpha, buckets per sign; fixed)
 *         collapsed <k>              values folded into a lowest bucket
 *         zero <k>
 *         neg <index> <k>            zero or more, index ascending
 *         pos <index> <k>            zero or more, index ascending
 *         end
 *     Several partials may follow each other in one stream. sum can
 *     overflow to an infinity with finite inputs near DBL_MAX: it is
 *     written "inf" / "-inf" and read back so. Version 1 (no shift, offset,
 *     scale or collapsed; m2 unscaled, possibly "inf") is still read:
 *     shift = mean, collapsed = 0.
 *
 * D11 Log-bucketed sketch (DDSketch, Masson, Rim & Lee 2019) with relative
 *     accuracy alpha = BL_SKETCH_ALPHA = 0.01: gamma = (1+alpha)/(1-alpha),
 *     x > 0 goes to bucket i = ceil(log_gamma x), covering (gamma^(i-1),
 *     gamma^i], represented by 2 gamma^i / (gamma + 1), which is within
 *     alpha * x of every x in the bucket; x < 0 likewise on |x| in a second
 *     store; x = 0 in its own counter. Order statistic k is found by walking
 *     the buckets; percentiles apply D3 to those estimates, the first and
 *     last order statistics are the exact min and max. Each estimated order
 *     statistic is within alpha |x| of the true one, so a D3 percentile is
 *     within alpha of the true one when both order statistics it
 *     interpolates have the same sign. Memory is bounded: at most
 *     BL_SKETCH_MAX_BUCKETS = 2048 buckets per sign (16 KiB each). If the
 *     data span more than gamma^2048 (about 6e17) in magnitude on one sign,
 *     the buckets of smallest magnitude are merged into one ("collapsed",
 *     counted, carried in partials and shown beside the percentiles) and
 *     only estimates in that lowest bucket lose the guarantee.
 *     bl_dist keeps a column's values exactly up to BL_DIST_EXACT_MAX =
 *     2^20 (8 MiB) and, when given a budget, while the budget shared by
 *     all columns of a run has room (BL_DIST_BUDGET = 2^25 values, 256 MiB,
 *     for stats and compare); past either bound that column switches to
 *     the sketch. Exact mode gives D3 exactly.
 *
 * D12 Multiple tests. A family is one question: one baseline -> candidate
 *     pair of one table within one source (a file, a mail thread; across
 *     sources with --baseline or --compare-all), and its m tests are the
 *     measures compared for that pair (m counts the defined p-values; NaN
 *     ones stay NaN, as R's p.adjust does with NA). Other inputs never
 *     change a family. Verdicts and the interval shown use Bonferroni's
 *     adjustment, adj = min(1, m p), with the interval at level
 *     1 - alpha / m (simultaneous for the family), so the interval excludes
 *     0 exactly when adj < alpha. Holm's step-down (Holm 1979),
 *         adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)),
 *     and Benjamini-Hochberg's step-up (1995),
 *         adj_(i) = min_{j >= i} min(1, m p_(j) / j),
 *     over the same family are kept beside it in the CSV. Equal to R's
 *     p.adjust(p, "bonferroni" / "holm" / "BH").
 *
 * D13 Verdict of one comparison, the first that applies, from the D12
 *     interval [lo, hi] of the change and the band (default 1 %, per
 *     measure: the size below which a change does not matter):
 *       1 "averages only, no test possible"  a side has means of runs
 *                               only, fewer than 3 (no variance);
 *       2 "too few runs"        fewer than 3 values on a side (D7's rule);
 *       3 "no test"             the test is undefined (note says why);
 *       4 "negligible"          -band <= lo and hi <= band: the whole
 *                               family interval inside the band (an
 *                               equivalence test at the same level),
 *                               whatever p is;
 *       5 the direction         adjusted p < alpha (the interval excludes
 *                               0): "faster" / "slower" (times), "more
 *                               memory" / "less memory", "more faults" /
 *                               "fewer faults", else "higher" / "lower"
 *                               (bl_cmp_verdict_words, analyze/compare.h);
 *       6 "no change detected"  otherwise: the interval holds 0; shown
 *                               with the D16 change.
 *     Rank tests give no interval: rule 4 never applies to them.
 *
 * D14 CI of a relative change (Fieller 1954). The change is
 *     100 (xbar_c - xbar_b) / |xbar_b| %, so a candidate above the
 *     baseline is "+" whatever the baseline's sign. With v_b, v_c the
 *     variances of the two means (s^2/n, or s^2/n_eff by D15) and
 *     t = t_{(1+conf)/2, df}, df the test's (Welch's of D6; with
 *     --test student D7's pooled variance s_p^2/n_b, s_p^2/n_c and df
 *     n_b + n_c - 2), so the interval excludes 0 % exactly when that test
 *     at 1 - conf rejects, the set of ratios
 *     rho = mu_c / mu_b with (xbar_c - rho xbar_b)^2 <= t^2 (v_c + rho^2 v_b)
 *     is, when a = xbar_b^2 - t^2 v_b > 0,
 *         rho = (xbar_c xbar_b +- t sqrt(xbar_b^2 v_c + xbar_c^2 v_b
 *                                       - t^2 v_b v_c)) / a,
 *     and unbounded when a <= 0 (the baseline mean is not distinguishable
 *     from 0: no finite interval exists). The change's CI is
 *     100 (rho - 1) for xbar_b > 0, -100 (rho - 1) (ends swapped) for
 *     xbar_b < 0. When no value on either side is negative, rho >= 0 is
 *     known, and the lower end is raised to -100 % if it falls below.
 *     The baseline mean's own uncertainty widens the interval, and
 *     asymmetrically: ConTest ctar_load on seed 001 is -0.3 % with a CI
 *     of [-100 %, +x %], not D6's symmetric [-141 %, +141 %].
 *
 * D15 Mean of an autocorrelated series (a vmstat column sampled each
 *     second). r1 = sum_{t<n} (x_t - xbar)(x_{t+1} - xbar) / sum (x_t - xbar)^2
 *     (the lag-1 sample autocorrelation, R's acf). The effective sample
 *     size is that of an AR(1) series, with both small-sample biases
 *     corrected (docs/statistics.md D15 has the coverage simulation):
 *     15.1 phi = (n r1 + 1) / (n - 3) (Marriott & Pope 1954: E[r1] is
 *          phi - (1 + 3 phi) / n); phi <= 0 gives n, phi >= 1 gives 2;
 *     15.2 f = (1 + phi)/(1 - phi) - 2 phi (1 - phi^n) / (n (1 - phi)^2),
 *          n Var(xbar) / gamma0 for AR(1);
 *     15.3 n_eff = n (n - f) / ((n - 1) f), bounded to [2, n], so that
 *          s^2 / n_eff estimates Var(xbar) (E[s^2] = gamma0 (n - f)/(n - 1)).
 *     n when r1 is undefined (n < 3 or constant data). The CI of the mean
 *     is xbar +- t_{(1+conf)/2, n_eff - 1} s / sqrt(n_eff); tests use
 *     s^2 / n_eff for the variance of the mean and n_eff - 1 in Welch's df.
 *
 * D16 Detectable change. The smallest difference a two-sided test at level
 *     alpha detects with probability `power` (default 0.8):
 *         delta = (t_{1 - alpha/2, df} + t_{power, df}) se,
 *     se and df of the D6 test, in % of |xbar_b|; in a family of m tests
 *     (D12) at alpha / m, the level of its interval and verdict. This is the usual
 *     normal-shift approximation with t quantiles; against the exact
 *     noncentral-t power of R's power.t.test (equal n and sd) it is 1.2 %
 *     low at 3 values a side and 0.02 % off at 30.
 *
 * D17 Latency target (analyze/latency.h T3): --target; else the period
 *     the input states for a timer loop (latency_series.period_s); else 0
 *     for cyclictest, whose values are the time past each period already;
 *     else the median. Lateness = value - target.
 *
 * D18 The report's Findings per table (docs/statistics.md): vmstat by
 *     series (means with D15's n_eff) and by iteration, not sample by
 *     sample; the rest as compare does.
 *
 * D19 Percentile of a histogram compared (docs/statistics.md): the
 *     variance of a D4 percentile by the bootstrap, resampling the bins
 *     as a multinomial of N draws (B = 2000 replicates, a fixed seed, so
 *     every run gives the same numbers); two independent sides compared by
 *     z = (q_c - q_b) / sqrt(v_b + v_c), two-sided normal p, and D14's
 *     interval of the ratio with those variances and df = infinity (so
 *     the interval and the test agree, as D14 says). A replicate in the
 *     overflow makes the variance unknown: no test.
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

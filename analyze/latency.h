/* latency.h — the "latency" analysis (analyze/latency.c): statistics of
 * latency histograms from their bins, lateness against a target, the
 * cross-check with the shell `time` of the run, two series compared, and
 * the histogram / CDF / tail charts. The analysis itself is
 * bl_analysis_latency in analyze/registry.c; the functions here let the CLI
 * parse --target/--late, and give a series' numbers (bl_latency_stats(),
 * which the analysis's text reads too) without reading text.
 *
 * Definitions (analyze/stats.h D3, D4, D8, D9 for the statistics):
 *   T1  A series is one distribution of the `latency` table (one
 *       int_resp_timer histogram, one cyclictest thread, one list of
 *       samples), identified by source, message, group, run and series
 *       name; quoted records only with include_quoted. Values are in the
 *       series' own unit (s, ms, us, ns: latency_series.unit).
 *   T2  n, mean, sample sd, min, max, and the percentiles p50 (median),
 *       p90, p99, p99.9 and p99.99 come from the bins without expanding
 *       them: D4 with D3 type 7 (Hyndman-Fan 7, linear interpolation on
 *       the samples the buckets stand for). Overflow samples (cyclictest
 *       "Histogram Overflows") count in n and in the percentiles as values
 *       MORE than the last bucket; mean, sd, min exclude them, max and mean
 *       become lower bounds, and a percentile whose order statistic falls
 *       into the overflow is reported as a lower bound ("> last bucket", or
 *       ">= N" when the -h limit N is known).
 *   T3  Mode: the value with the most samples (equal values pooled; the
 *       smallest on a tie). Target (docs/statistics.md D17):
 *       opts->target_s when given (the same for every series, converted to
 *       its unit); else for a timer loop (int_resp_timer, samples) the
 *       period its input states (latency_series.period_s: the script's
 *       sleep()); else for cyclictest 0, since its values are already the
 *       time past each period; else the median (T2's p50).
 *   T4  Lateness of a sample: value - target. Reported: the mean lateness
 *       (mean - target), the lateness percentiles (T2 percentiles -
 *       target), the samples below, at and above the target, and for each
 *       threshold d the count and share (of n) of samples LATER than
 *       target + d: value - target > d (beyond a rounding tolerance of
 *       1e-9 relative, so 0.220 - 0.210 is not "later than 10 ms").
 *       Overflow samples count as later when the last bucket is already
 *       >= target + d; otherwise they are reported as "up to k more".
 *       Default thresholds: 10 ms, 50 ms and 100 ms for series printed in
 *       s or ms (sleep/timer loops measured in milliseconds), 10 us, 50 us
 *       and 100 us for series printed in us or ns (cyclictest wake-up
 *       latencies, typically 1-100 us); opts->late_s replaces them for
 *       every series.
 *   T5  Cross-check with the shell `time` block that followed the series
 *       (latency_series.time_line, the `time` row with that line): for
 *       timer loops (int_resp_timer, samples) the loop's total n x mean is
 *       compared with `real`; the difference, and the difference per
 *       sample, is the time outside the measured sleeps (loop, start-up).
 *       Not done for cyclictest, whose samples are latencies, not
 *       durations; its `time` is only shown.
 *   T6  Comparison: series with the same unit are compared with a
 *       baseline: the first series of group opts->baseline, else the first
 *       series of that unit. Percentile tables side by side; Mann-Whitney U
 *       (D8, binned, two-sided, normal approximation with tie and
 *       continuity correction) and Kolmogorov-Smirnov (D9, binned) with
 *       their p-values.
 *
 * Memory: per series its bins (one per bucket line, or per sample of a
 * plain list) and the tool's own figures; per `time` row a few numbers.
 * At most 4,096 series, the first, at most 1,024 of a group (LAT_KEEP,
 * LAT_KEEP_GROUP in latency.c), for every command; the others are
 * counted and left to the tables.
 */
#ifndef BL_ANALYZE_LATENCY_H
#define BL_ANALYZE_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include "analyze/stats.h"

/* Duration with an optional unit: "0.2s", "200ms", "200 ms", "50us",
 * "50µs", "1000ns", "0.2" (seconds). Returns 0 and seconds in *out_s, or
 * -BL_EFORMAT (not a duration) / -BL_ERANGE (negative, NaN, infinite). */
int bl_parse_duration(const char *s, double *out_s);
/* Comma-separated durations ("10ms,50ms,100ms"), at most max of them.
 * Returns 0 with *n set, -BL_EFORMAT/-BL_ERANGE for a bad item, or
 * -BL_EUSAGE when there are more than max or none. */
int bl_parse_duration_list(const char *s, double *out_s, size_t max, size_t *n);

/* Seconds with a unit chosen so the number is in [1, 1000): "10 ms",
 * "0.5 s", "12 us", "250 ns"; "-" when not finite. Returned by value for
 * a %s: printf("%s", bl_fmt_duration(x).s) (C11: the temporary lives to
 * the end of the full expression). */
struct bl_duration {
	char s[40];
};
struct bl_duration bl_fmt_duration(double seconds);

#define BL_LAT_NPCT 5          /* p50, p90, p99, p99.9, p99.99 */
#define BL_LAT_MAX_LATE 16     /* thresholds per series */
extern const double bl_lat_pcts[BL_LAT_NPCT];

/* Where a series' target comes from (T3, D17). */
enum bl_lat_target {
	BL_TARGET_MEDIAN = 0,      /* no period stated */
	BL_TARGET_OPTION,          /* --target */
	BL_TARGET_PERIOD,          /* the period the input states */
	BL_TARGET_ZERO,            /* cyclictest: values are lateness already */
};

/* T2-T4 for one series, every value in the series' unit. */
struct bl_latency_summary {
	double n;                  /* binned + overflow */
	double n_binned;
	double overflow;
	double overflow_bound;     /* overflow samples are > this, or >= it when */
	bool overflow_inclusive;   /*   inclusive (the cyclictest -h limit N) */
	double mean, sd, min;      /* T2 (binned samples) */
	double max;                /* largest binned value; with overflow the
				      overflow bound, a lower bound */
	double mean_lb;            /* lower bound of the mean of all n */
	bool max_lower_bound;
	double pct[BL_LAT_NPCT];   /* T2 */
	bool pct_lb[BL_LAT_NPCT];  /* touches the overflow: pct is a lower
				      bound, strict unless overflow_inclusive */
	double mode, mode_count;   /* T3 */
	double target;             /* T3 */
	enum bl_lat_target target_from;
	double early, on_target, late; /* samples below / at / above target (T4) */
	size_t nlate;
	double late_thr[BL_LAT_MAX_LATE];     /* thresholds d, series unit */
	double late_count[BL_LAT_MAX_LATE];   /* samples later than target + d */
	double late_maybe[BL_LAT_MAX_LATE];   /* overflow samples that may be */
};

/* Compute T2-T4 from n bins (any order, equal values allowed) and
 * `overflow` samples known only to be > overflow_bound (the largest bucket
 * printed), or >= it when inclusive (the -h limit). A percentile of D3
 * whose order statistics x_j, x_j+1 reach into the overflow is reported as
 * its lower bound: the bound itself when x_j is an overflow sample, else
 * x_j + frac (bound - x_j). overflow_bound NaN: unknown, the largest binned
 * value is used (inclusive). target: NaN for the median (target_from
 * BL_TARGET_MEDIAN, else BL_TARGET_OPTION: the caller names other
 * sources). late[0..nlate):
 * thresholds in the series' unit (nlate <= BL_LAT_MAX_LATE). Returns 0,
 * -BL_EUSAGE (NULL out, too many thresholds), -BL_ERANGE (non-finite value
 * or bad count, D0). */
int bl_latency_summarise(const struct bl_bin *b, size_t n, double overflow, double overflow_bound,
			 bool inclusive, double target, const double *late, size_t nlate,
			 struct bl_latency_summary *out);

/* The analysis state (the void * of bl_analysis_latency's functions). */
struct bl_latency;

/* T2-T4 of series i, series in order of first appearance: NULL when i
 * is out of range, it has no bins and no overflow, or its statistics
 * could not be worked out (D0). Owned by the state; the one place the
 * analysis's own text reads them from. */
const struct bl_latency_summary *bl_latency_stats(struct bl_latency *L, size_t i);

#endif

/* vmstat.h — the "vmstat" analysis (analyze/vmstat.c): statistics of each
 * vmstat series, the stutter intervals its prose events mark, and the
 * iterations of a memory hog that fills swap and exits. The analysis is
 * bl_analysis_vmstat in analyze/registry.c; the accessors below give the
 * Findings and the tests its numbers without parsing text.
 *
 * Definitions (statistics: analyze/stats.h D1-D3). Tests cite them "S1".."S5".
 *   S1  Rows. A series' rows are its `vmstat` records (parsers/vmstat.h),
 *       less the since-boot row (since_boot = 1) unless --since-boot keep
 *       (bl_since_boot_left_out, core/ctx.h, which stats and compare share),
 *       less quoted records unless opts->include_quoted. Events (`events`
 *       records) follow the same quoting rule.
 *   S2  Column statistics, per series and numeric column with at least one
 *       value: n, mean (D1), sample standard deviation (D2, n - 1), min,
 *       median and p95 (D3, type 7), max; through bl_dist, exact up to
 *       BL_VM_EXACT_MAX rows per column, estimated beyond (D11, within 1%;
 *       the summary says so under the table). The cap bounds memory: a
 *       series' columns are open at once, 8 bytes a row each while exact.
 *       The samples of a column follow each other in time, so they are not
 *       independent: its lag-1 autocorrelation r1, the effective sample
 *       size n_eff and the 95 % CI of the mean with n_eff are given
 *       (analyze/stats.h D15; seed 000's swpd: r1 0.83, n_eff 2.9 of 59).
 *   S3  Stutter intervals. Events are applied, in input order, at the first
 *       row whose sample is >= the event's sample. A stutter_start opens an
 *       interval there when none is open (else it is ignored); a
 *       stutter_end closes the open one there (else it is ignored). The
 *       interval covers samples [start, end): the rows from the start row up
 *       to, not including, the end row ("n_inside"); duration_s = t_s(end) -
 *       t_s(start). at_start / at_end are swpd, si, so and free of the start
 *       and end rows; min/max inside are over the rows inside. An interval
 *       still open at the series' last row is open_at_end: its end is that
 *       row, which then counts as inside, and duration_s is a lower bound.
 *   S4  Iterations. A new iteration starts at a row whose swpd is at most
 *       half of the previous row's and at least BL_VM_COLLAPSE_KIB lower
 *       (a memory hog exited and its swap was freed). Each iteration has
 *       its first and last sample, its swpd at the first row and its peak,
 *       the swpd just before the collapse that started it, and the swpd at
 *       which stutter ended: the at_end swpd of the last interval that
 *       closed in it (NaN when none did). An interval belongs to the
 *       iteration of its end row (its start row when open).
 *   S5  By group: the "stutter ended at swpd" values of every iteration of
 *       the group's series, in MiB (swpd in KiB / 1024; mem_unit converted:
 *       kB x 1000/1024, MiB x 1024, MB x 10^6/1024) — the threshold above
 *       which the observed program ran smoothly.
 *
 * Memory: per series one bl_dist per numeric column (S2), the intervals and
 * iterations found, and at most BL_VM_MAX_EVENTS event texts; the chart's
 * samples (t_s, swpd, si, so, free), at most 16,384 a series and a panel,
 * then a min/max envelope. A series is over when a record of another
 * comes: it goes to its group's panel and S5 (whose values wait in a
 * temporary file), and only the first BL_MD_SHOWN series with rows are
 * kept, their dists replaced by their S2 numbers; any later one, frozen
 * too, is written to a temporary file (its S2 numbers, events, intervals
 * and iterations, which `summary` prints from there) and freed. The
 * accessors below see the series kept and the open one. The same for
 * every command (analysis.h).
 */
#ifndef BL_ANALYZE_VMSTAT_H
#define BL_ANALYZE_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include "core/ctx.h"
#include "tables/table.h"

#define BL_VM_COLLAPSE_KIB 8192.0   /* S4: 8 MiB */
#define BL_VM_MAX_EVENTS 256        /* event texts kept per series */

enum bl_vm_watch { BL_VM_SWPD, BL_VM_SI, BL_VM_SO, BL_VM_FREE, BL_VM_NWATCH };

/* S2: rows per column kept for exact percentiles (4.5 hours at 1 s). */
#define BL_VM_EXACT_MAX 16384

struct bl_vm_colstat {
	unsigned long long n;
	double mean, sd, min, median, p95, max;   /* NaN when undefined */
	double r1, n_eff, ci95;                   /* D15: lag-1 autocorrelation, effective
						     n, CI95 half-width of the mean with it */
	bool estimated;                           /* median, p95 from the D11 sketch */
};

struct bl_vm_interval {
	long start_sample, end_sample;
	double t_start_s, t_end_s, duration_s;
	bool open_at_end;
	unsigned long n_inside;
	double at_start[BL_VM_NWATCH];   /* swpd, si, so, free, in mem_unit (NaN: no value) */
	double at_end[BL_VM_NWATCH];
	double min_inside[BL_VM_NWATCH];
	double max_inside[BL_VM_NWATCH];
};

struct bl_vm_iteration {
	long first_sample, last_sample;
	unsigned long n;
	double swpd_first, swpd_peak;    /* mem_unit */
	double collapse_from;            /* swpd before the drop; NaN for the first */
	double stutter_end_swpd;         /* S4; NaN when no stutter ended in it */
	double si_peak, so_peak;         /* the largest si and so in it; NaN: none */
	long stutter_end_sample;         /* -1 when none */
	unsigned nstutter;               /* intervals belonging to it */
	bool stutter_open;               /* one of them is open at the end */
};

struct bl_vm_event {
	long sample;
	const char *kind;                /* "stutter_start", "stutter_end", "note" */
	const char *text;
	unsigned long line;
};

struct bl_vm_series_info {
	long id;                         /* the `series` column */
	const char *source, *group, *layout, *mem_unit;
	unsigned long first_line, last_line;
	unsigned long rows;              /* rows used (S1) */
	unsigned long since_boot_left_out;
	unsigned ncols;                  /* numeric columns with values */
	double t_first_s, t_last_s;      /* t_s of the first and last row used */
	/* Seconds the rows cover: the sum of the steps from row to row, where
	 * t_s goes back (a clock set back) or stays, the step before it
	 * (1 s before any): so never negative. */
	double span_s;
	size_t nevents;                  /* all events (texts kept: up to BL_VM_MAX_EVENTS) */
	size_t ninterval, niteration;
};

/* st is the analysis state (bl_analysis_vmstat.create()), i a series it
 * holds (the series kept and the open one, in order of first
 * appearance), as the Findings (D18) read them. col: enum bl_vmstat_col
 * (parsers/vmstat.h); false when the column has no value in the series.
 * Iterations are final once the pass has ended (closed on first use);
 * the pointer stays valid until destroy(), NULL when i or k is out of
 * range. */
bool bl_vmstat_colstat(void *st, size_t i, int col, struct bl_vm_colstat *out);
const struct bl_vm_iteration *bl_vmstat_iteration(void *st, size_t i, size_t k);

#endif

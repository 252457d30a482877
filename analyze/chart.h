/* chart.h — what an analysis hands to plot/ to draw: its results for
 * charts, as plain data (the flow is analyze -> plot, never back).
 *
 * An analysis's charts() (analyze/analysis.h) returns a list of struct
 * bl_chart_spec: which chart, its file stem, title and caption, and the
 * data, in one of the shapes below; plot/ draws them
 * (bl_analysis_draw(), plot/plot.h). Text in these structs is input text:
 * plot/ quotes it (plot.h, Requirement 1).
 *
 * Ownership: a spec's data and strings are the spec's; free the list with
 * bl_chart_specs_free().
 */
#ifndef BL_CHART_H
#define BL_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include "analyze/stats.h"

/* ---- a) vmstat swpd charts ------------------------------------------- */

/* One vmstat row. Units as vmstat prints them by default (procps, no -S):
 * swpd and free in KiB, si and so in KiB/s. NaN = column not present. */
struct bl_swpd_sample {
	double t_s;        /* seconds from the start of the capture */
	double swpd_kib;
	double si_kibps;
	double so_kibps;
	double free_kib;
};

/* A time span in which the observed program misbehaved (audio stutter).
 * open_at_end: it had not ended when the capture stopped. The span then
 * runs to t_end_s when t_end_s > t_start_s (the end of that capture, for a
 * caller that puts several captures one after the other in a group), else
 * to the end of the group's last sample; it is marked "stutter goes on". */
struct bl_plot_interval {
	double t_start_s;
	double t_end_s;
	bool open_at_end;
};

enum bl_plot_event_kind {
	BL_PLOT_EV_NOTE = 0,      /* a remark (grey line) */
	BL_PLOT_EV_PROBLEM = 1,   /* a problem starts, e.g. stutter (red) */
	BL_PLOT_EV_RECOVERED = 2, /* back to normal (green) */
};

/* A remark placed in time, e.g. the prose line "Around here, mp3blaster
 * begins to stutter." found between two vmstat rows. text is input text;
 * it is drawn cut to 60 characters. */
struct bl_plot_event {
	double t_s;
	const char *text;
	enum bl_plot_event_kind kind;
};

/* One kernel (or any group) of the comparison: samples sorted by t_s
 * (non-decreasing, finite), stutter intervals, events. */
struct bl_swpd_group {
	const char *name;                      /* panel title (input text) */
	const struct bl_swpd_sample *samples;
	size_t nsamples;
	const struct bl_plot_interval *stutter;
	size_t nstutter;
	const struct bl_plot_event *events;
	size_t nevents;
	/* The rows the samples stand for: more than nsamples when the
	 * analysis already reduced a long capture to a min/max envelope (per
	 * bucket of its time range, each column's minimum and maximum in time
	 * order) to keep its memory bounded; 0 = nsamples. */
	unsigned long long rows;
};

/* Field k of a sample: 0 swpd_kib, 1 free_kib, 2 si_kibps, 3 so_kibps. */
double bl_swpd_val(const struct bl_swpd_sample *s, int k);
/* One bucket of a min/max envelope: samples s[i..e) (i < e, time order)
 * as two, *a at the time of the first and *z at the time of the last,
 * each field's minimum and maximum in the order they came (NaN when the
 * bucket has no value of it). Used by plot/ to draw and by the vmstat
 * analysis to keep a long capture bounded. */
void bl_swpd_minmax(const struct bl_swpd_sample *s, size_t i, size_t e, struct bl_swpd_sample *a,
		    struct bl_swpd_sample *z);

struct bl_swpd_plot {
	const struct bl_swpd_group *groups;    /* one panel each, stacked */
	size_t ngroups;                        /* 1..16 */
	double bin_mib;   /* bl_plot_swpd_stutter(): swpd bin width in MiB;
			     0 means 20 */
};

/* ---- b) ConTest grouped bars ----------------------------------------- */

/* Summary of the runs of one load for one group, computed by the caller
 * (analyze/). mean NaN = no runs. sd, min, max NaN = no error bar. */
struct bl_contest_cell {
	double mean;
	double sd;
	double min;
	double max;
	size_t n;          /* runs; shown in no label, kept for callers */
	double ratio;      /* analyze/contest.h C2: mean over the same group's
			      no-load mean (bl_contest_ratio); NaN = none */
};

enum bl_errbar {
	BL_ERRBAR_SD = 0,      /* mean ± sd */
	BL_ERRBAR_MINMAX = 1,  /* min .. max */
	BL_ERRBAR_NONE = 2,
};

#define BL_CONTEST_BASELINE_NONE ((size_t)-2)

struct bl_contest_plot {
	const char *const *loads;    /* cluster names, e.g. "noload" */
	size_t nloads;               /* 1..64 */
	const char *const *groups;   /* bar names, e.g. "Default tunables" */
	size_t ngroups;              /* 1..16 */
	const struct bl_contest_cell *cells; /* cells[load * ngroups + group] */
	enum bl_errbar errbars;
	size_t baseline;   /* index of the no-load row in loads (C2's, which
			      the ratio panel leaves out: the cells' ratio
			      is drawn for the others); _NONE: no ratio
			      panel */
	const char *value_label; /* y axis of the top panel (input text);
				    NULL = "Time (s)" */
};

/* ---- c) latency histograms ------------------------------------------- */

/* One histogram; bins in any order (they are sorted by value), values
 * finite. overflow: samples beyond the last bin (cyclictest "Histogram
 * Overflows"); they count in the total, so the CDF ends below 1. */
struct bl_latency_series {
	const char *name;           /* legend text (input text) */
	const struct bl_bin *bins;  /* value in the series' unit, whole counts */
	size_t nbins;
	unsigned long long overflow;
	const char *unit;           /* "s", "ms", "us"...; all series of a
				       chart must have the same unit */
};

enum bl_mark_kind { BL_MARK_THRESHOLD = 0, BL_MARK_TARGET = 1 };

/* A vertical line at value (series unit) with a label (input text; NULL
 * gives "target <v>" / "<v>"). */
struct bl_plot_mark {
	double value;
	const char *label;
	enum bl_mark_kind kind;
};

struct bl_latency_plot {
	const struct bl_latency_series *series;  /* 1..16, overlaid */
	size_t nseries;
	const struct bl_plot_mark *marks;        /* 0..16 */
	size_t nmarks;
};

/* ---- d) per-run panels ----------------------------------------------- */

/* One benchmark run (e.g. one mtest01 under time -v). NaN = not measured. */
struct bl_run_point {
	const char *group;        /* kernel or other group (input text) */
	long run;                 /* run number within the group, >= 0 */
	double elapsed_s;         /* wall-clock seconds */
	double cpu_pct;           /* "Percent of CPU this job got" */
	double bytes_allocated;   /* bytes (mtest01); drawn in MiB */
};

/* A group of more runs than a runs chart draws: how many it has and
 * their means, as the runs analysis's section states them. */
struct bl_runs_total {
	const char *group;
	unsigned long long runs;          /* the group's runs with a value */
	double mean[3];                   /* elapsed_s, cpu_pct, bytes_allocated; NaN: none */
};

struct bl_runs_plot {
	const struct bl_run_point *runs;  /* any order; grouped by the
					     group name's first appearance */
	size_t nruns;                     /* 1..BL_RUNS_PLOT_MAX, at most 16 groups */
	/* groups with runs past those drawn (or NULL, 0): their legend
	 * gives these counts and means, and their mean lines these means */
	const struct bl_runs_total *totals;
	size_t ntotals;
};
/* The runs a runs chart draws at most (4 MB of points): the runs analysis
 * draws the first this many of its groups' runs, and says so. */
#define BL_RUNS_PLOT_MAX 100000
/* The runs chart the runs analysis asks for draws at most this many
 * groups, one colour of plot/'s palette each (the groups with the most
 * runs; its title counts the others). */
#define BL_RUNS_CHART_GROUPS 8

/* ---- the list an analysis returns ------------------------------------ */

enum bl_chart_kind {
	BL_CHART_SWPD,           /* in.swpd, bl_plot_swpd() */
	BL_CHART_SWPD_STUTTER,   /* in.swpd, bl_plot_swpd_stutter() */
	BL_CHART_CONTEST,        /* in.contest, bl_plot_contest() */
	BL_CHART_LATENCY,        /* in.latency, bl_plot_latency() */
	BL_CHART_RUNS,           /* in.runs, bl_plot_runs() */
};

struct bl_chart_spec {
	enum bl_chart_kind kind;
	char *name;      /* file stem: "swpd", "latency-us" */
	char *title;     /* the chart's own title, or NULL for its default */
	char *caption;   /* one line naming it in the text (struct bl_chart) */
	union {
		struct bl_swpd_plot swpd;
		struct bl_contest_plot contest;
		struct bl_latency_plot latency;
		struct bl_runs_plot runs;
	} in;
	void **owned;    /* heap blocks the data points into: freed with the spec */
	size_t nowned;
};

/* A new spec at the end of *v (*n grows), zeroed but for kind and the
 * copied strings (title may be NULL). */
struct bl_chart_spec *bl_chart_spec_add(struct bl_chart_spec **v, size_t *n, enum bl_chart_kind kind,
					const char *name, const char *title, const char *caption);
/* Hand block p (from malloc) to spec s: freed with it. Returns p. */
void *bl_chart_spec_own(struct bl_chart_spec *s, void *p);
/* Free n specs and the array; NULL-safe. */
void bl_chart_specs_free(struct bl_chart_spec *v, size_t n);

#endif

/* swpd.c — the vmstat swap charts: swpd/si/so over time with stutter
 * intervals and events (bl_plot_swpd), and seconds of stutter per swpd bin
 * (bl_plot_swpd_stutter, bl_swpd_stutter_bins). See plot.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "plot/plot_int.h"

#define KIB_PER_MIB 1024.0
#define EVENT_TEXT_MAX 60     /* characters of event text drawn */
#define EVENT_ROWS 4          /* label rows at the top of a panel */
#define EVENT_MAX_DRAWN 200   /* event lines per panel */
#define EVENT_INLINE_MAX 50   /* more go to <base>-marks-<panel>.gp */
#define STUTTER_FILL "#f6d2d2"
/* Layout of the swpd chart, in pixels of its default size (the script
 * places each plot in fractions of the canvas): a band for the title on
 * top, then per group the panel of swpd, si and so and below it the strip
 * of free memory, on an axis of its own (free is often a hundred times
 * swpd: on one axis either would be a flat line). */
#define LAYOUT_TOP_PX 40
#define PANEL_PX 400
#define STRIP_PX 160
#define GROUP_PX (PANEL_PX + STRIP_PX)

static int check_group(struct gp_job *j, const struct bl_swpd_group *g, size_t gi)
{
	if (g->nsamples && !g->samples)
		return job_fail(j, -BL_EUSAGE, "plot: group %zu: samples missing", gi + 1);
	if (g->nstutter && !g->stutter)
		return job_fail(j, -BL_EUSAGE, "plot: group %zu: stutter intervals missing",
				gi + 1);
	if (g->nevents && !g->events)
		return job_fail(j, -BL_EUSAGE, "plot: group %zu: events missing", gi + 1);
	for (size_t i = 0; i < g->nsamples; i++) {
		const struct bl_swpd_sample *s = &g->samples[i];
		if (!isfinite(s->t_s))
			return job_fail(j, -BL_EUSAGE, "plot: group %zu sample %zu: time is "
					"not a finite number", gi + 1, i + 1);
		if (i && s->t_s < g->samples[i - 1].t_s)
			return job_fail(j, -BL_EUSAGE, "plot: group %zu sample %zu: time goes "
					"backwards", gi + 1, i + 1);
		if (gp_check_num(j, s->swpd_kib, "swpd") || gp_check_num(j, s->si_kibps, "si") ||
		    gp_check_num(j, s->so_kibps, "so") || gp_check_num(j, s->free_kib, "free"))
			return j->err;
	}
	for (size_t i = 0; i < g->nstutter; i++) {
		const struct bl_plot_interval *v = &g->stutter[i];
		if (!isfinite(v->t_start_s) || (!v->open_at_end && !isfinite(v->t_end_s)) ||
		    (!v->open_at_end && v->t_end_s < v->t_start_s))
			return job_fail(j, -BL_EUSAGE, "plot: group %zu stutter interval %zu: "
					"needs finite start <= end", gi + 1, i + 1);
	}
	for (size_t i = 0; i < g->nevents; i++)
		if (!isfinite(g->events[i].t_s))
			return job_fail(j, -BL_EUSAGE, "plot: group %zu event %zu: time is not "
					"a finite number", gi + 1, i + 1);
	return 0;
}

static int check_plot(struct gp_job *j, const struct bl_swpd_plot *in)
{
	if (!in || !in->groups || in->ngroups == 0 || in->ngroups > GP_MAX_GROUPS)
		return job_fail(j, -BL_EUSAGE, "plot: swpd chart needs 1-%d groups",
				GP_MAX_GROUPS);
	size_t total = 0;
	for (size_t g = 0; g < in->ngroups; g++) {
		if (check_group(j, &in->groups[g], g))
			return j->err;
		total += in->groups[g].nsamples;
	}
	if (total == 0)
		return job_fail(j, -BL_EUSAGE, "plot: swpd chart: no samples");
	return 0;
}

/* End of the last sample's span (see bl_swpd_stutter_bins). */
static double group_end(const struct bl_swpd_group *g)
{
	size_t n = g->nsamples;
	if (n == 0)
		return NAN;
	double last = g->samples[n - 1].t_s;
	return n > 1 ? last + (last - g->samples[n - 2].t_s) : last;
}

/* A tic step for an axis from 0 to top (a gp_nice_ceil value) that gives 2
 * to 4 steps of a round size: the strip has room for few labels. */
static double tic_step(double top)
{
	for (int n = 4; n >= 2; n--) {
		double st = top / n;
		double m = st / pow(10, floor(log10(st)));
		static const double round_m[] = { 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 };
		for (size_t i = 0; i < sizeof round_m / sizeof *round_m; i++)
			if (fabs(m - round_m[i]) < 1e-9)
				return st;
	}
	return top / 2;
}

static int ev_cmp(const void *a, const void *b)
{
	double x = (*(const struct bl_plot_event *const *)a)->t_s;
	double y = (*(const struct bl_plot_event *const *)b)->t_s;
	return (x > y) - (x < y);
}

static const char *ev_color(enum bl_plot_event_kind k)
{
	switch (k) {
	case BL_PLOT_EV_PROBLEM: return "#c00000";
	case BL_PLOT_EV_RECOVERED: return "#007a3d";
	case BL_PLOT_EV_NOTE: break;
	}
	return "#505050";
}

/* Draws one group's events: a dashed vertical line each, and the text in
 * one of EVENT_ROWS rows at the top of the panel, chosen so that labels do
 * not overlap (widths estimated from the PNG font: ~7 px per character).
 * A label that would run past the right edge is put left of its line.
 * At most EVENT_MAX_DRAWN per panel, the earliest, and a note saying how
 * many more there are: a panel cannot show more, and gnuplot took minutes
 * over the 20,000 of a report on 10,000 logs. */
static void draw_events(struct gp_job *j, const struct bl_swpd_group *g,
			double x0, double x1)
{
	if (g->nevents == 0)
		return;
	const struct bl_plot_event **ev = bl_xcalloc(g->nevents, sizeof *ev);
	for (size_t i = 0; i < g->nevents; i++)
		ev[i] = &g->events[i];
	qsort(ev, g->nevents, sizeof *ev, ev_cmp);

	double plot_px = (double)j->width - 170.0; /* minus l/r margins */
	if (plot_px < 200)
		plot_px = 200;
	double x_per_char = (x1 - x0) * 7.0 / plot_px;
	double row_end[EVENT_ROWS];
	for (int r = 0; r < EVENT_ROWS; r++)
		row_end[r] = -INFINITY;

	size_t ndraw = g->nevents < EVENT_MAX_DRAWN ? g->nevents : EVENT_MAX_DRAWN;
	if (ndraw < g->nevents)
		gs(j, "set label '%zu more events not drawn' at graph 0.99, graph 0.03 right "
		      "front tc rgb '#505050'\n", g->nevents - ndraw);
	for (size_t i = 0; i < ndraw; i++) {
		const struct bl_plot_event *e = ev[i];
		size_t nch = bl_utf8_chars(e->text ? e->text : "");
		if (nch > EVENT_TEXT_MAX)
			nch = EVENT_TEXT_MAX;
		double w = (double)(nch + 2) * x_per_char;
		bool right = e->t_s + w > x1 && e->t_s - w >= x0;
		double lo = right ? e->t_s - w : e->t_s;
		double hi = right ? e->t_s : e->t_s + w;
		int row = 0;
		for (int r = 0; r < EVENT_ROWS; r++) {
			if (row_end[r] < lo) {
				row = r;
				break;
			}
			if (row_end[r] < row_end[row])
				row = r;
		}
		if (hi > row_end[row])
			row_end[row] = hi;
		const char *col = ev_color(e->kind);
		gs(j, "set arrow from %s, graph 0 to %s, graph 1 nohead front lw 1.5 dt 2 lc rgb '%s'\n",
		   gnum(e->t_s).s, gnum(e->t_s).s, col);
		if (e->text && *e->text) {
			gs(j, "set label %s at %s, graph %.2f %s offset character %s,0 boxed front "
			      "tc rgb '%s' noenhanced\n", gq(j, e->text, EVENT_TEXT_MAX), gnum(e->t_s).s,
			   0.955 - 0.075 * row, right ? "right" : "left",
			   right ? "-0.6" : "0.6", col);
		}
	}
	free(ev);
}

/* Data of a long capture as a band (plot.h, bl_plot_swpd): the x range
 * [x0, x1] cut into nb buckets of equal width, sample i in bucket
 * floor((t_i - x0) / (x1 - x0) * nb) clamped to 0..nb-1 (samples are
 * sorted: a bucket is a run of them); one block per series (swpd and free
 * in MiB, si and so in KiB/s: gnuplot's index 0-3), in it per bucket a row
 * at the time of its first sample and, when it has more, one at the time
 * of its last, each with the bucket's minimum and maximum of the series,
 * NaN ones ignored ('?' when the bucket has none). A line from minimum to
 * maximum at each row (series_plot()) paints what a line through every
 * sample paints within each bucket, in place of a line that goes up and
 * down the panel in every pixel column: gnuplot drew the 8 panels of the
 * 10,000-file folder's chart in 1.0 s of processor time against 1.7 s.
 * A block per series, not a row of all four: gnuplot reads (strtod) every
 * column of each row for each of the 4 plots of a file (PNG 7.24 G
 * instructions, 6.45 G; SVG 4.17 G, 3.4 G; the same pixels). */
static void swpd_band(const struct bl_swpd_sample *s, size_t n, double x0, double x1, size_t nb,
		      struct bl_buf *d)
{
	static const double scale[4] = { KIB_PER_MIB, KIB_PER_MIB, 1, 1 };
	double per = (double)nb / (x1 - x0);
	for (int k = 0; k < 4; k++) {
		if (k)
			bl_buf_add(d, "\n\n", 2);
		for (size_t i = 0, e; i < n; i = e) {
			double fb = floor((s[i].t_s - x0) * per);
			for (e = i + 1; e < n && floor((s[e].t_s - x0) * per) <= fb; e++)
				;
			if (fb >= (double)nb - 1)
				e = n;       /* the last bucket takes x1 */
			double lo = NAN, hi = NAN;
			for (size_t q = i; q < e; q++) {
				double v = bl_swpd_val(&s[q], k) / scale[k];
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
			for (size_t r = 0; r < (e - i > 1 ? 2u : 1u); r++)
				gp_row(d, 3, (const double[]){ s[r ? e - 1 : i].t_s, lo, hi });
		}
	}
}

/* The series of a panel (k: swpd, free, si, so; free is drawn in the
 * strip below the panel and listed in its key for its colour). */
static const struct {
	int col;   /* of the samples (k: the band's block) */
	const char *axes, *style, *title;
} series[4] = {
	{ 2, "x1y1", "lw 2", "swpd (MiB)" },
	{ 3, "x1y1", "lw 1.5", "free (MiB, below)" },
	{ 4, "x1y2", "lw 1.2", "si (KiB/s)" },
	{ 5, "x1y2", "lw 1.2", "so (KiB/s)" },
};

/* Series k in the plot command: NaN unless drawn (no gnuplot warning for
 * a column without any value, and the key still lists it); of a band
 * (swpd_band()), a vertical line from its minimum to its maximum at
 * each row's time, two or more per pixel column, so that they paint the
 * column. Filled between the two (filledcurves), the bands cost
 * gnuplot's PNG a second image of the whole chart: 66 MiB against
 * 44 MiB for the 10,000 files' 8 panels. */
static void series_plot(struct gp_job *j, const char *datafile, bool band, bool drawn, int k)
{
	if (drawn && band)
		gs(j, "'%s' index %d using 1:2:(0):($3-$2) axes %s with vectors nohead lw 1", datafile, k,
		   series[k].axes);
	else if (drawn)
		gs(j, "'%s' using 1:%d axes %s with lines %s", datafile, series[k].col, series[k].axes,
		   series[k].style);
	else
		gs(j, "NaN axes %s with lines %s", series[k].axes, series[k].style);
}

/* A stutter interval [a, b] as drawn or counted. */
struct span {
	double a, b;
};

static int span_cmp(const void *x, const void *y)
{
	double a = ((const struct span *)x)->a, b = ((const struct span *)y)->a;
	return (a > b) - (a < b);
}

/* sp[0..n) sorted and merged where they overlap or lie at most gap
 * apart; returns how many are left. */
static size_t spans_merge(struct span *sp, size_t n, double gap)
{
	qsort(sp, n, sizeof *sp, span_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && sp[i].a <= sp[m - 1].b + gap) {
			if (sp[i].b > sp[m - 1].b)
				sp[m - 1].b = sp[i].b;
		} else {
			sp[m++] = sp[i];
		}
	}
	return m;
}

static int double_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* End of an interval: an open one runs to the end of its capture when
 * the caller gave it, else to the end of the group (plot.h). */
static double interval_end(const struct bl_plot_interval *v, double group_end_s)
{
	if (!v->open_at_end)
		return v->t_end_s;
	if (v->t_end_s > v->t_start_s)
		return v->t_end_s;
	return fmax(group_end_s, v->t_start_s);
}

/* The stutter shading of one panel: overlapping intervals merged into one
 * rectangle (the fill is opaque: the picture is the same, and gnuplot
 * draws one object instead of dozens), and a "stutter goes on" mark where
 * an interval is still open at the end of its capture — one per position,
 * and none closer than a tenth of the panel to the last one drawn (the
 * label is about that wide; many captures of one group end close
 * together). */
static void draw_stutter(struct gp_job *j, const struct bl_swpd_group *g, double x0, double x1,
			 bool labels)
{
	if (g->nstutter == 0)
		return;
	double end = group_end(g);
	struct span *sh = bl_xcalloc(g->nstutter, sizeof *sh);
	double *marks = bl_xcalloc(g->nstutter, sizeof *marks);
	size_t nm = 0;
	for (size_t i = 0; i < g->nstutter; i++) {
		const struct bl_plot_interval *v = &g->stutter[i];
		double t1 = interval_end(v, end);
		if (t1 > x1)
			t1 = x1;
		sh[i] = (struct span){ v->t_start_s, t1 };
		if (v->open_at_end)
			marks[nm++] = t1;
	}
	/* intervals that overlap, or lie less than a pixel column apart, are
	 * one shade: a long capture's thousands of intervals are otherwise
	 * thousands of gnuplot objects, and minutes of drawing */
	size_t n = spans_merge(sh, g->nstutter, j->width > 0 ? (x1 - x0) / (double)j->width : 0);
	for (size_t i = 0; i < n; i++) {
		gs(j, "set object rect from %s, graph 0 to %s, graph 1 behind fc rgb '" STUTTER_FILL
		   "' fs solid 1.0 noborder\n", gnum(sh[i].a).s, gnum(sh[i].b).s);
	}
	if (!labels)
		nm = 0;
	qsort(marks, nm, sizeof *marks, double_cmp);
	/* a label is about a tenth of the panel wide; it ends at its mark,
	 * or starts there near the left edge, where it would stick out */
	double gap = (x1 - x0) / 10, taken = -INFINITY;   /* right edge of the last label */
	for (size_t i = 0; i < nm; i++) {
		bool left = marks[i] - x0 < gap;
		double from = left ? marks[i] : marks[i] - gap;
		if (from < taken)
			continue;
		taken = left ? marks[i] + gap : marks[i];
		gs(j, "set label 'stutter goes on' at %s, graph 0.04 %s offset character %s,0 front "
		      "tc rgb '#c00000'\n", gnum(marks[i]).s, left ? "left" : "right", left ? "0.5" : "-0.5");
	}
	free(sh);
	free(marks);
}

/* Fractions of the canvas for a plot `top_px` below the top edge of the
 * default layout and `h_px` high. */
static void place(struct gp_job *j, int ngroups, int top_px, int h_px)
{
	double total = LAYOUT_TOP_PX + GROUP_PX * (double)ngroups;
	gs(j, "set origin 0,%s\nset size 1,%s\n", gnum(1 - (top_px + h_px) / total).s,
	   gnum(h_px / total).s);
}

/* Panel gi: swpd (left axis) and si, so (right axis) with the stutter
 * shading and the events; under it the strip of free memory on its own
 * axis, shaded the same, its x axis the panel's (the time labels are
 * the strip's). y1, y2, yf: tops of the swpd, si/so and free axes. */
static void swpd_panel(struct gp_job *j, const struct bl_swpd_group *g, size_t gi,
		       size_t ngroups, const char *datafile, bool band, double x0, double x1,
		       double y1, double y2, double yf)
{
	int top = LAYOUT_TOP_PX + GROUP_PX * (int)gi;
	gs(j, "\n# Panel %zu of %zu: swpd, si and so\n", gi + 1, ngroups);
	place(j, (int)ngroups, top, PANEL_PX);
	gs(j, "unset object\nunset arrow\nunset label\n");
	gs(j, "set tmargin 4\nset bmargin 0.5\nset format x ''\nunset xlabel\n");
	gs(j, "set ylabel 'swpd (MiB)'\nset y2label 'si, so (KiB/s)'\nset ytics autofreq\n"
	      "set y2tics\n");
	gs(j, "if (fmt eq 'dumb') { unset ylabel; unset y2label }\n");
	gs(j, "set xrange [%s:%s]\n", gnum(x0).s, gnum(x1).s);
	gs(j, "set yrange [0:%s]\nset y2range [0:%s]\n", gnum(y1).s, gnum(y2).s);
	gs(j, "set title %s noenhanced\n", gq(j, g->name && *g->name ? g->name : "(no group name)", 0));
	/* the key (same series everywhere) only in the first panel */
	if (gi == 0)
		gs(j, "set key outside top center horizontal samplen 2\n");
	else
		gs(j, "unset key\n");

	draw_stutter(j, g, x0, x1, true);
	if (g->nevents > EVENT_INLINE_MAX) {
		/* Many marks: in a file of their own, loaded (plot_int.h). */
		struct bl_buf saved = j->body;
		j->body = (struct bl_buf)BL_BUF_INIT(saved.max);
		draw_events(j, g, x0, x1);
		struct bl_buf marks = j->body;
		j->body = saved;
		char part[40];
		snprintf(part, sizeof part, "marks-%zu", gi + 1);
		const char *name = job_load_file(j, part, &marks);
		if (name)
			gs(j, "load '%s'\n", name);
	} else {
		draw_events(j, g, x0, x1);
	}

	if (g->nsamples == 0)
		gs(j, "set label 'no samples' at graph 0.5, graph 0.5 center front\n");
	const char *colors[4] = { gp_color(0), "#808080", gp_color(2), gp_color(1) };
	bool any[4];
	for (int k = 0; k < 4; k++) {
		any[k] = false;
		for (size_t i = 0; i < g->nsamples && !any[k]; i++) {
			any[k] = !isnan(bl_swpd_val(&g->samples[i], k));
		}
		gs(j, "%s", k ? "     " : "plot ");
		series_plot(j, datafile, band, any[k] && k != 1, k);
		gs(j, " lc rgb '%s' title '%s', \\\n", colors[k], series[k].title);
	}
	gs(j, "     NaN with boxes fs solid 1.0 noborder fc rgb '" STUTTER_FILL "' title 'stutter'\n");

	gs(j, "\n# Panel %zu of %zu: free memory\n", gi + 1, ngroups);
	place(j, (int)ngroups, top + PANEL_PX, STRIP_PX);
	gs(j, "unset object\nunset arrow\nunset label\nunset title\nunset key\n");
	gs(j, "set tmargin 0.5\nset bmargin 3\nset format x '%% h'\n");
	if (gi + 1 == ngroups)
		gs(j, "set xlabel 'Time (s)'\n");
	gs(j, "set ylabel 'free (MiB)'\nunset y2label\nunset y2tics\n");
	gs(j, "if (fmt eq 'dumb') { unset ylabel }\n");
	gs(j, "set yrange [0:%s]\nset ytics 0,%s\n", gnum(yf).s, gnum(tic_step(yf)).s);
	draw_stutter(j, g, x0, x1, false);
	if (!any[1])
		gs(j, "set label 'no free memory column' at graph 0.5, graph 0.5 center front\n");
	gs(j, "plot ");
	series_plot(j, datafile, band, any[1], 1);
	gs(j, " lc rgb '%s' notitle\n", colors[1]);
}

/* A panel's ranges: time (s), tops of swpd and free (MiB) and of si/so
 * (KiB/s). */
struct range {
	double x0, x1, y1, y2, yf;
};

/* Data: one file per group (names[gi]): every sample, or, when there
 * are many more samples than pixel columns of the image width (the plot
 * area is narrower), the band of swpd_band() with two buckets per column
 * (band[gi] set): gnuplot draws the same picture from it, where 40,000
 * samples a panel took it seconds. r: each panel's ranges. */
static void swpd_data(struct gp_job *j, const struct bl_swpd_plot *in, const struct range *r,
		      const char **names, bool *band)
{
	size_t ncols = (size_t)j->width;
	size_t nbuckets = BL_SWPD_BAND_BUCKETS_PER_PX * ncols;
	for (size_t gi = 0; gi < in->ngroups && !j->err; gi++) {
		const struct bl_swpd_group *g = &in->groups[gi];
		size_t ns = g->nsamples;
		char *note = NULL;
		unsigned long long rows = g->rows > ns ? g->rows : ns;
		struct bl_buf d = BL_BUF_INIT(0);
		band[gi] = ns > BL_SWPD_BAND_FACTOR * ncols;
		if (band[gi]) {
			swpd_band(g->samples, ns, r[gi].x0, r[gi].x1, nbuckets, &d);
			note = bl_xasprintf("min/max band of %llu samples: per bucket of 1/%zu of the x range "
					    "(two per pixel column), each series' minimum and maximum, at the times "
					    "of its first and last sample; every sample is in the vmstat table "
					    "(csv/vmstat.csv of a report)", rows, nbuckets);
		} else if (rows > ns) {
			note = bl_xasprintf("min/max envelope of %llu samples, made while they were read: "
					    "per bucket of its time range, its minimum and maximum in time order "
					    "(at the times of its first and last sample); every sample is in the "
					    "vmstat table (csv/vmstat.csv of a report)", rows);
		}
		for (size_t i = 0; !band[gi] && i < ns; i++) {
			const struct bl_swpd_sample *s = &g->samples[i];
			gp_row(&d, 5, (const double[]){ s->t_s, s->swpd_kib / KIB_PER_MIB, s->free_kib / KIB_PER_MIB,
							 s->si_kibps, s->so_kibps });
		}
		names[gi] = job_data(j, band[gi] ? "t_s min max, in 4 blocks (gnuplot's index 0-3): swpd_MiB, "
					"free_MiB, si_KiB/s, so_KiB/s" : "t_s swpd_MiB free_MiB si_KiB/s so_KiB/s", note, &d);
		free(note);
	}
}

int bl_plot_swpd(const struct bl_swpd_plot *in, const struct bl_plot_opts *opts,
	     struct bl_plot_result *res)
{
	struct gp_job j;
	size_t ng = in ? in->ngroups : 1;
	if (ng > GP_MAX_GROUPS || ng == 0)
		ng = 1;
	if (job_begin(&j, opts, res, "swpd",
		      "vmstat swpd (MiB), si and so (KiB/s) over time, free (MiB) in a strip "
		      "below, one panel per group",
		      1200, LAYOUT_TOP_PX + GROUP_PX * (int)ng, 120, 3 + 36 * (int)ng))
		return job_abort(&j);
	if (check_plot(&j, in))
		return job_abort(&j);

	/* Ranges per panel. Panels share their scales when they are alike
	 * (two kernels over the same test: within a factor of 4 in duration
	 * and in peak swpd), so they compare one above the other; panels of
	 * very different captures keep their own, or the small ones would be
	 * flat lines. The left axis follows swpd, the strip's free memory. */
	struct range *r = bl_xcalloc(in->ngroups ? in->ngroups : 1, sizeof *r);
	bool any_events = false;
	for (size_t gi = 0; gi < in->ngroups; gi++) {
		const struct bl_swpd_group *g = &in->groups[gi];
		double x0 = NAN, x1 = NAN, sw = NAN, fr = NAN, y2 = NAN;
		for (size_t i = 0; i < g->nsamples; i++) {
			const struct bl_swpd_sample *s = &g->samples[i];
			x0 = fmin(x0, s->t_s);
			x1 = fmax(x1, s->t_s);
			sw = fmax(sw, s->swpd_kib / KIB_PER_MIB);
			fr = fmax(fr, s->free_kib / KIB_PER_MIB);
			y2 = fmax(y2, fmax(s->si_kibps, s->so_kibps));
		}
		for (size_t i = 0; i < g->nevents; i++) {
			x0 = fmin(x0, g->events[i].t_s);
			x1 = fmax(x1, g->events[i].t_s);
			any_events = true;
		}
		for (size_t i = 0; i < g->nstutter; i++) {
			x0 = fmin(x0, g->stutter[i].t_start_s);
			const struct bl_plot_interval *v = &g->stutter[i];
			if (!v->open_at_end || v->t_end_s > v->t_start_s)
				x1 = fmax(x1, v->t_end_s);
		}
		if (isnan(x0))
			x0 = 0;
		if (!(x1 > x0))
			x1 = x0 + 1;
		r[gi] = (struct range){ x0, x1, isnan(sw) || sw <= 0 ? 1 : sw, isnan(y2) || y2 <= 0 ? 1 : y2,
					isnan(fr) || fr <= 0 ? 1 : fr };
	}
	struct range all = { INFINITY, -INFINITY, 0, 0, 0 };
	double dmin = INFINITY, dmax = 0, ymin = INFINITY, fmn = INFINITY;
	for (size_t gi = 0; gi < in->ngroups; gi++) {
		dmin = fmin(dmin, r[gi].x1 - r[gi].x0);
		dmax = fmax(dmax, r[gi].x1 - r[gi].x0);
		ymin = fmin(ymin, r[gi].y1);
		fmn = fmin(fmn, r[gi].yf);
		all = (struct range){ fmin(all.x0, r[gi].x0), fmax(all.x1, r[gi].x1), fmax(all.y1, r[gi].y1),
				      fmax(all.y2, r[gi].y2), fmax(all.yf, r[gi].yf) };
	}
	bool shared = in->ngroups > 1 && dmax <= 4 * dmin && all.y1 <= 4 * ymin;
	/* The strips share their scale on the same terms: machines of very
	 * different memory (300 MiB free against 11 GiB) each keep their own,
	 * or the smaller one's free memory is a flat line at the bottom. */
	bool shared_free = shared && all.yf <= 4 * fmn;
	for (size_t gi = 0; gi < in->ngroups && shared; gi++) {
		double yf = r[gi].yf;
		r[gi] = all;
		if (!shared_free)
			r[gi].yf = yf;
	}
	/* Room above the data for the event labels (rows at the top). */
	double head = any_events ? 1.0 / 0.66 : 1.05;

	const char **names = bl_xcalloc(in->ngroups, sizeof *names);
	bool *band = bl_xcalloc(in->ngroups, sizeof *band);
	swpd_data(&j, in, r, names, band);

	gs(&j, "set datafile missing '?'\n");
	/* no SIGFPE handler set and reset (two system calls) around each
	 * `using` expression: 4 per band row (PNG 0.64 s to 0.51 s) */
	gs(&j, "set datafile nofpe_trap\n");
	gs(&j, "set multiplot title %s noenhanced font ',12'\n",
	   gq(&j, opts && opts->title ? opts->title : "vmstat: swap use and swap traffic", 0));
	/* Each plot placed by hand (origin, size: a panel and its strip are
	 * of unequal heights) with fixed side margins: aligned x axes in all
	 * panels and strips. dumb cannot rotate text: the side labels would
	 * overwrite the tics (each panel unsets them there). */
	gs(&j, "set lmargin 12\nset rmargin 11\n");
	gs(&j, "set ytics nomirror\nset mxtics\n");
	gs(&j, "if (fmt ne 'dumb') { set grid xtics ytics lc rgb '#e0e0e0' lt 1 }\n");
	gs(&j, "set style textbox opaque noborder margins 1,1\n");
	for (size_t gi = 0; gi < in->ngroups && !j.err; gi++)
		swpd_panel(&j, &in->groups[gi], gi, in->ngroups, names[gi], band[gi], r[gi].x0, r[gi].x1,
			   gp_nice_ceil(r[gi].y1 * head), gp_nice_ceil(r[gi].y2 * head), gp_nice_ceil(r[gi].yf * 1.05));
	gs(&j, "unset multiplot\n");
	free(names);
	free(band);
	free(r);
	return job_end(&j);
}

int bl_swpd_stutter_bins(const struct bl_swpd_group *g, double bin_mib,
			 struct bl_stutter_bin **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (!g || !(bin_mib > 0) || !isfinite(bin_mib) ||
	    (g->nsamples && !g->samples) || (g->nstutter && !g->stutter))
		return -BL_EUSAGE;
	for (size_t i = 0; i < g->nsamples; i++) {
		if (!isfinite(g->samples[i].t_s) ||
		    (i && g->samples[i].t_s < g->samples[i - 1].t_s))
			return -BL_EUSAGE;
		if (isinf(g->samples[i].swpd_kib))
			return -BL_ERANGE;
	}
	double end = group_end(g);

	/* Merge the stutter intervals so overlaps count once. */
	struct span *sp = bl_xcalloc(g->nstutter ? g->nstutter : 1, sizeof *sp);
	struct bl_stutter_bin *bins = NULL;
	size_t nb = 0;
	int rc = 0;
	for (size_t i = 0; i < g->nstutter; i++) {
		const struct bl_plot_interval *v = &g->stutter[i];
		sp[i] = (struct span){ v->t_start_s, interval_end(v, INFINITY) };
		if (!isfinite(sp[i].a) || isnan(sp[i].b) || sp[i].b < sp[i].a) {
			rc = -BL_EUSAGE;
			goto done;
		}
	}
	size_t nm = spans_merge(sp, g->nstutter, 0);

	double kmin = INFINITY, kmax = -INFINITY;
	for (size_t i = 0; i < g->nsamples; i++) {
		double v = g->samples[i].swpd_kib;
		if (isnan(v))
			continue;
		double k = floor(v / KIB_PER_MIB / bin_mib);
		kmin = k < kmin ? k : kmin;
		kmax = k > kmax ? k : kmax;
	}
	if (!(kmax >= kmin))
		goto done;
	if (kmax - kmin >= 100000 || !isfinite(kmax - kmin)) {
		rc = -BL_EUSAGE;
		goto done;
	}
	nb = (size_t)(kmax - kmin) + 1;
	bins = bl_xcalloc(nb, sizeof *bins);
	for (size_t k = 0; k < nb; k++)
		bins[k].lo_mib = (kmin + (double)k) * bin_mib;

	for (size_t i = 0; i < g->nsamples; i++) {
		double v = g->samples[i].swpd_kib;
		if (isnan(v))
			continue;
		double a = g->samples[i].t_s;
		double b = i + 1 < g->nsamples ? g->samples[i + 1].t_s : end;
		size_t k = (size_t)(floor(v / KIB_PER_MIB / bin_mib) - kmin);
		bins[k].observed_s += b - a;
		for (size_t m = 0; m < nm; m++) {
			double lo = a > sp[m].a ? a : sp[m].a;
			double hi = b < sp[m].b ? b : sp[m].b;
			if (hi > lo)
				bins[k].stutter_s += hi - lo;
		}
	}
	*out = bins;
	*nout = nb;
done:
	free(sp);
	return rc;
}

int bl_plot_swpd_stutter(const struct bl_swpd_plot *in, const struct bl_plot_opts *opts,
		     struct bl_plot_result *res)
{
	struct gp_job j;
	if (job_begin(&j, opts, res, "swpd-stutter",
		      "seconds observed and seconds of stutter per swpd bin, per group",
		      1200, 620, 120, 32))
		return job_abort(&j);
	if (check_plot(&j, in))
		return job_abort(&j);
	double w = in->bin_mib == 0 ? 20 : in->bin_mib;
	if (!(w > 0) || !isfinite(w))
		return job_fail(&j, -BL_EUSAGE, "plot: bin width must be > 0 MiB"),
		       job_abort(&j);

	size_t ng = in->ngroups;
	struct bl_stutter_bin **bins = bl_xcalloc(ng, sizeof *bins);
	size_t *nb = bl_xcalloc(ng, sizeof *nb);
	const char **names = bl_xcalloc(ng, sizeof *names);
	double xlo = INFINITY, xhi = -INFINITY, ymax = 0;
	for (size_t gi = 0; gi < ng && !j.err; gi++) {
		int rc = bl_swpd_stutter_bins(&in->groups[gi], w, &bins[gi], &nb[gi]);
		if (rc) {
			job_fail(&j, rc, "plot: group %zu: cannot bin swpd (%s)", gi + 1,
				 bl_strerror(rc));
			break;
		}
		struct bl_buf d = BL_BUF_INIT(0);
		for (size_t k = 0; k < nb[gi]; k++) {
			const struct bl_stutter_bin *b = &bins[gi][k];
			xlo = b->lo_mib < xlo ? b->lo_mib : xlo;
			xhi = b->lo_mib + w > xhi ? b->lo_mib + w : xhi;
			ymax = b->observed_s > ymax ? b->observed_s : ymax;
			gp_row(&d, 3, (const double[]){ b->lo_mib, b->observed_s, b->stutter_s });
		}
		names[gi] = job_data(&j, "swpd_bin_low_MiB observed_s stutter_s", NULL, &d);
	}
	if (!isfinite(xlo)) {
		xlo = 0;
		xhi = w;
	}

	gs(&j, "set datafile missing '?'\n");
	char *t = opts && opts->title ? bl_xstrdup(opts->title)
		  : ng == 1 && in->groups[0].name && *in->groups[0].name
		  ? bl_xasprintf("Seconds of stutter per swpd range: %s", in->groups[0].name)
		  : bl_xstrdup("Seconds of stutter per swpd range");
	gs(&j, "set title %s noenhanced font ',12'\n", gq(&j, t, opts && opts->title ? 0 : 160));
	free(t);
	gs(&j, "set xlabel 'swpd (MiB), bins of %s MiB'\nset ylabel 'Seconds'\n", gnum(w).s);
	gs(&j, "set xrange [%s:%s]\n", gnum(xlo).s, gnum(xhi).s);
	gs(&j, "set yrange [0:%s]\n", gnum(gp_nice_ceil(ymax * (1.0 + 0.09 * (double)ng + 0.05))).s);
	gs(&j, "set xtics out nomirror\nset mxtics\nset ytics nomirror\n");
	gs(&j, "if (fmt ne 'dumb') { set grid ytics lc rgb '#e0e0e0' lt 1 }\n");
	/* two key entries per group, two per key row, below the x label */
	gs(&j, "set key outside bottom center horizontal samplen 2\nset bmargin %zu\n",
	   4 + ng);
	gs(&j, "set style textbox opaque noborder margins 1,1\n");

	/* "Smooth above": the top of the highest bin with stutter, drawn when
	 * time was observed above it. */
	for (size_t gi = 0; gi < ng && !j.err; gi++) {
		double top = NAN;
		bool seen_above = false;
		for (size_t k = 0; k < nb[gi]; k++)
			if (bins[gi][k].stutter_s > 0)
				top = bins[gi][k].lo_mib + w;
		for (size_t k = 0; k < nb[gi] && !isnan(top); k++)
			if (bins[gi][k].lo_mib >= top && bins[gi][k].observed_s > 0)
				seen_above = true;
		if (isnan(top) || !seen_above)
			continue;
		const char *name = ng > 1 && in->groups[gi].name ? in->groups[gi].name : "";
		char *lab = bl_xasprintf("%s%sno stutter above %g MiB", name, *name ? ": " : "",
					 top);
		gs(&j, "set arrow from %s, graph 0 to %s, graph 1 nohead front lw 2 dt 2 lc rgb '%s'\n",
		   gnum(top).s, gnum(top).s, gp_color(gi));
		gs(&j, "set label %s at %s, graph %.2f left offset character 0.6,0 boxed front tc rgb '%s' "
		       "noenhanced\n", gq(&j, lab, 120), gnum(top).s, 0.955 - 0.07 * (double)gi, gp_color(gi));
		free(lab);
	}

	/* Boxes of one bin side by side: group gi in slot gi of 84% of the bin. */
	double bw = w * 0.84 / (double)ng;
	gs(&j, "plot ");
	for (size_t gi = 0; gi < ng && !j.err; gi++) {
		/* One group: its name is in the title; several: in the key. */
		const char *name = ng > 1 && in->groups[gi].name ? in->groups[gi].name : "";
		char *t_obs = bl_xasprintf("%s%stime at this swpd", name, *name ? ": " : "");
		char *t_stu = bl_xasprintf("%s%sof which stuttering", name, *name ? ": " : "");
		double off = w * 0.08 + bw * ((double)gi + 0.5);
		gs(&j, "%s'%s' using %s:2:(%s) with boxes fs empty lc rgb '%s' lw 1.5 title %s noenhanced, \\\n",
		   gi ? ", \\\n     " : "", names[gi], gshift(off).s, gnum(bw).s, gp_color(gi), gq(&j, t_obs, 70));
		gs(&j, "     '%s' using %s:3:(%s) with boxes fs solid 0.8 noborder lc rgb '%s' title %s noenhanced",
		   names[gi], gshift(off).s, gnum(bw).s, gp_color(gi), gq(&j, t_stu, 70));
		free(t_obs);
		free(t_stu);
	}
	gs(&j, "\n");

	for (size_t gi = 0; gi < ng; gi++)
		free(bins[gi]);
	free(bins);
	free(nb);
	free(names);
	return job_end(&j);
}

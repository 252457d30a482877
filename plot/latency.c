/* latency.c — latency histograms: counts (log y), CDF and tail, several
 * series overlaid, target and thresholds as vertical lines
 * (bl_plot_latency, see plot.h).
 *
 * Definitions (total = sum of counts + overflow, bins sorted by value v):
 *   CDF(v_i)  = (count_1 + ... + count_i) / total        fraction <= v_i
 *   tail(v_i) = (count_i + ... + count_n + overflow) / total   P(X >= v_i)
 * The CDF is drawn as a right-continuous step (gnuplot "steps"), the tail
 * as a left-continuous one ("fsteps"), both exact between bins.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_int.h"

#define MAX_MARKS 16
#define NAME_MAX_CHARS 40

/* The input's shape and numbers; false (j failed) when unusable. */
static bool latency_check(struct gp_job *j, const struct bl_latency_plot *in)
{
	if (!in || !in->series || in->nseries == 0 || in->nseries > GP_MAX_GROUPS ||
	    in->nmarks > MAX_MARKS || (in->nmarks && !in->marks))
		return job_fail(j, -BL_EUSAGE, "plot: latency chart needs 1-%d series and "
				"0-%d marks", GP_MAX_GROUPS, MAX_MARKS), false;
	const char *unit = in->series[0].unit ? in->series[0].unit : "";
	for (size_t s = 0; s < in->nseries; s++) {
		const struct bl_latency_series *se = &in->series[s];
		if (se->nbins && !se->bins)
			return job_fail(j, -BL_EUSAGE, "plot: series %zu: bins missing", s + 1), false;
		if (strcmp(se->unit ? se->unit : "", unit) != 0)
			return job_fail(j, -BL_EUSAGE, "plot: series %zu: unit differs from "
					"series 1", s + 1), false;
		for (size_t b = 0; b < se->nbins; b++)
			if (!isfinite(se->bins[b].value))
				return job_fail(j, -BL_EUSAGE, "plot: series %zu bin %zu: value "
						"is not a finite number", s + 1, b + 1), false;
	}
	for (size_t m = 0; m < in->nmarks; m++)
		if (!isfinite(in->marks[m].value))
			return job_fail(j, -BL_EUSAGE, "plot: mark %zu: value is not a finite "
					"number", m + 1), false;
	return true;
}

/* What the panels are drawn from: each series' bins sorted, its total,
 * the x range, the smallest gap between bins and the largest count. */
struct lat_layout {
	struct bl_bin **sorted;
	unsigned long long *total;
	double xlo, xhi, step, cmax, pad;
};

static void lat_layout_release(struct lat_layout *L, size_t ns)
{
	for (size_t s = 0; s < ns; s++)
		free(L->sorted[s]);
	free(L->sorted);
	free(L->total);
}

/* Sorted copies; x range; smallest gap between bins (box width). False
 * when no series has a bin. */
static bool lat_layout(const struct bl_latency_plot *in, struct lat_layout *L)
{
	size_t ns = in->nseries;
	L->sorted = bl_xcalloc(ns, sizeof *L->sorted);
	L->total = bl_xcalloc(ns, sizeof *L->total);
	L->xlo = INFINITY;
	L->xhi = -INFINITY;
	L->step = INFINITY;
	L->cmax = 0;
	for (size_t s = 0; s < ns; s++) {
		const struct bl_latency_series *se = &in->series[s];
		struct bl_bin *v = bl_xcalloc(se->nbins ? se->nbins : 1, sizeof *v);
		L->sorted[s] = v;
		if (se->nbins)
			memcpy(v, se->bins, se->nbins * sizeof *v);
		qsort(v, se->nbins, sizeof *v, bl_bin_cmp);
		L->total[s] = se->overflow;
		for (size_t b = 0; b < se->nbins; b++) {
			L->total[s] += v[b].count;
			L->xlo = v[b].value < L->xlo ? v[b].value : L->xlo;
			L->xhi = v[b].value > L->xhi ? v[b].value : L->xhi;
			if ((double)v[b].count > L->cmax)
				L->cmax = (double)v[b].count;
			if (b && v[b].value > v[b - 1].value && v[b].value - v[b - 1].value < L->step)
				L->step = v[b].value - v[b - 1].value;
		}
	}
	if (!isfinite(L->xlo))
		return false;
	for (size_t m = 0; m < in->nmarks; m++) {
		double v = in->marks[m].value;
		L->xlo = v < L->xlo ? v : L->xlo;
		L->xhi = v > L->xhi ? v : L->xhi;
	}
	if (!isfinite(L->step))
		L->step = L->xhi > L->xlo ? (L->xhi - L->xlo) / 20
			: (L->xlo != 0 ? fabs(L->xlo) / 10 : 1);
	L->pad = L->step * 1.5;
	if ((L->xhi - L->xlo) * 0.02 > L->pad)
		L->pad = (L->xhi - L->xlo) * 0.02;
	return true;
}

/* One data file per series: value, count, CDF, tail. */
static void lat_data(struct gp_job *j, const struct bl_latency_plot *in, const struct lat_layout *L,
		     const char *unit, const char **files)
{
	for (size_t s = 0; s < in->nseries && !j->err; s++) {
		const struct bl_latency_series *se = &in->series[s];
		struct bl_buf d = BL_BUF_INIT(0);
		unsigned long long cum = 0;
		double t = L->total[s] ? (double)L->total[s] : NAN;
		for (size_t b = 0; b < se->nbins; b++) {
			const struct bl_bin *x = &L->sorted[s][b];
			double tail = (double)(L->total[s] - cum) / t;
			cum += x->count;
			gp_row(&d, 4, (const double[]){ x->value, (double)x->count, (double)cum / t, tail });
		}
		char *cols = bl_xasprintf("value_%s count cdf tail_P(X>=value)",
					  bl_gp_safe_name(unit) ? unit : "unit");
		files[s] = job_data(j, cols, NULL, &d);
		free(cols);
	}
}

/* The marks (targets, thresholds): a vertical line and a label each, on
 * every panel. */
static void lat_marks(struct gp_job *j, const struct bl_latency_plot *in, const char *unit)
{
	for (size_t m = 0; m < in->nmarks; m++) {
		const struct bl_plot_mark *mk = &in->marks[m];
		bool target = mk->kind == BL_MARK_TARGET;
		const char *col = target ? "#007a3d" : "#c00000";
		char *lab = mk->label ? bl_xstrdup(mk->label)
				      : bl_xasprintf("%s%s %s", target ? "target " : "", gnum(mk->value).s, unit);
		gs(j, "set arrow %zu from %s, graph 0 to %s, graph 1 nohead front lw 1.5 %s lc rgb '%s'\n",
		   m + 1, gnum(mk->value).s, gnum(mk->value).s, target ? "dt 1" : "dt 2", col);
		gs(j, "set label %zu %s at %s, graph %.2f left offset character 0.6,0 boxed front tc rgb '%s' "
		      "noenhanced\n", m + 1, gq(j, lab, NAME_MAX_CHARS), gnum(mk->value).s,
		   0.93 - 0.09 * (double)(m % 4), col);
		free(lab);
	}
	/* dumb: the lines under the labels, so a label crossing the next
	 * mark's line stays readable ("target 0.2 s", not "t|rget") */
	if (in->nmarks)
		gs(j, "if (fmt eq 'dumb') { set for [i=1:%zu] arrow i back }\n", in->nmarks);
}

/* Panel 1: counts, boxes of the same bin side by side. */
static void lat_counts_panel(struct gp_job *j, const struct bl_latency_plot *in,
			     const struct lat_layout *L, const char *const *files)
{
	size_t ns = in->nseries;
	double bw = L->step * 0.84 / (double)ns;
	gs(j, "\nset title 'Samples per bin (log scale)'\n");
	gs(j, "set ylabel 'Count'\nset logscale y\n");
	gs(j, "set yrange [0.5:%s]\nset key outside top center horizontal samplen 2\n",
	   gnum(L->cmax * 3 > 10 ? L->cmax * 3 : 10).s);
	gs(j, "set style fill solid 0.8 noborder\n");
	gs(j, "plot ");
	for (size_t s = 0; s < ns && !j->err; s++) {
		const struct bl_latency_series *se = &in->series[s];
		double off = bw * ((double)s - ((double)ns - 1) / 2);
		char *t = bl_xasprintf("%s (n=%llu, overflow %llu)",
				       se->name ? se->name : "", L->total[s], se->overflow);
		/* 0 has no place on a log axis: such bins are left out. */
		gs(j, "%s'%s' using %s:($2 > 0 ? $2 : NaN):(%s) with boxes lc rgb '%s' title %s noenhanced",
		   s ? ", \\\n     " : "", files[s], gshift(off).s, gnum(bw).s, gp_color(s), gq(j, t, 2 * NAME_MAX_CHARS));
		free(t);
	}
	gs(j, "\n");
}

/* Panel 2: CDF. Panel 3: tail. Same series colours; keys off. */
static void lat_cdf_tail_panels(struct gp_job *j, size_t ns, const struct lat_layout *L,
				const char *const *files)
{
	gs(j, "\nunset key\nunset label\nunset logscale y\n");
	gs(j, "set title 'CDF: fraction of samples <= x'\n");
	gs(j, "set ylabel 'Fraction'\nset yrange [0:1.05]\nset ytics 0.2\n");
	gs(j, "plot ");
	for (size_t s = 0; s < ns; s++)
		gs(j, "%s'%s' using 1:3 with steps lw 2 lc rgb '%s' notitle", s ? ", \\\n     " : "",
		   files[s], gp_color(s));
	gs(j, "\n\nset title 'Tail: fraction of samples >= x (log scale)'\n");
	gs(j, "set ylabel 'P(X >= x)'\nset logscale y\nset ytics auto\n");
	double tmin = 1;
	for (size_t s = 0; s < ns; s++)
		if (L->total[s])
			tmin = fmin(tmin, 1.0 / (double)L->total[s]);
	gs(j, "set yrange [%s:1.5]\nset format y '%%g'\n", gnum(tmin / 2).s);
	gs(j, "plot ");
	for (size_t s = 0; s < ns; s++)
		gs(j, "%s'%s' using 1:($4 > 0 ? $4 : NaN) with fsteps lw 2 lc rgb '%s' notitle",
		   s ? ", \\\n     " : "", files[s], gp_color(s));
	gs(j, "\nunset multiplot\n");
}

int bl_plot_latency(const struct bl_latency_plot *in, const struct bl_plot_opts *opts,
		struct bl_plot_result *res)
{
	struct gp_job j;
	if (job_begin(&j, opts, res, "latency",
		      "latency histogram (log counts), CDF and tail P(X >= x) per series",
		      1200, 1120, 120, 72))
		return job_abort(&j);
	if (!latency_check(&j, in))
		return job_abort(&j);
	const char *unit = in->series[0].unit ? in->series[0].unit : "";
	size_t ns = in->nseries;
	struct lat_layout L;
	if (!lat_layout(in, &L)) {
		lat_layout_release(&L, ns);
		return job_fail(&j, -BL_EUSAGE, "plot: latency chart: no bins"), job_abort(&j);
	}
	const char **files = bl_xcalloc(ns, sizeof *files);
	lat_data(&j, in, &L, unit, files);

	char *xlabel = bl_xasprintf("Latency (%s)", unit);
	gs(&j, "set datafile missing '?'\n");
	gs(&j, "set multiplot layout 3,1 title %s noenhanced font ',12'\n",
	   gq(&j, opts && opts->title ? opts->title : "Latency", 0));
	gs(&j, "set lmargin 11\nset rmargin 4\n");
	gs(&j, "set xrange [%s:%s]\n", gnum(L.xlo - L.pad).s, gnum(L.xhi + L.pad).s);
	gs(&j, "set mxtics\nif (fmt ne 'dumb') { set grid xtics ytics lc rgb '#e0e0e0' lt 1 }\n");
	gs(&j, "set xlabel %s noenhanced\n", gq(&j, xlabel, 0));
	gs(&j, "set style textbox opaque noborder margins 1,1\n");
	free(xlabel);
	lat_marks(&j, in, unit);
	lat_counts_panel(&j, in, &L, files);
	lat_cdf_tail_panels(&j, ns, &L, files);
	free(files);
	lat_layout_release(&L, ns);
	return job_end(&j);
}

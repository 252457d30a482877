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

static int bin_cmp(const void *a, const void *b)
{
	double x = ((const struct bl_latency_bin *)a)->value;
	double y = ((const struct bl_latency_bin *)b)->value;
	return (x > y) - (x < y);
}

static int latency_chart(const struct bl_latency_plot *in, const struct bl_plot_opts *opts,
			 struct bl_plot_result *res)
{
	struct gp_job j;
	if (job_begin(&j, opts, res, "latency",
		      "latency histogram (log counts), CDF and tail P(X >= x) per series",
		      1200, 1120, 120, 72))
		return job_abort(&j);
	if (!in || !in->series || in->nseries == 0 || in->nseries > GP_MAX_GROUPS ||
	    in->nmarks > MAX_MARKS || (in->nmarks && !in->marks))
		return job_fail(&j, -BL_EUSAGE, "plot: latency chart needs 1-%d series and "
				"0-%d marks", GP_MAX_GROUPS, MAX_MARKS), job_abort(&j);
	const char *unit = in->series[0].unit ? in->series[0].unit : "";
	size_t ns = in->nseries;
	for (size_t s = 0; s < ns; s++) {
		const struct bl_latency_series *se = &in->series[s];
		if (se->nbins && !se->bins)
			return job_fail(&j, -BL_EUSAGE, "plot: series %zu: bins missing", s + 1),
			       job_abort(&j);
		if (strcmp(se->unit ? se->unit : "", unit) != 0)
			return job_fail(&j, -BL_EUSAGE, "plot: series %zu: unit differs from "
					"series 1", s + 1), job_abort(&j);
		for (size_t b = 0; b < se->nbins; b++)
			if (!isfinite(se->bins[b].value))
				return job_fail(&j, -BL_EUSAGE, "plot: series %zu bin %zu: value "
						"is not a finite number", s + 1, b + 1),
				       job_abort(&j);
	}
	for (size_t m = 0; m < in->nmarks; m++)
		if (!isfinite(in->marks[m].value))
			return job_fail(&j, -BL_EUSAGE, "plot: mark %zu: value is not a finite "
					"number", m + 1), job_abort(&j);

	/* Sorted copies; x range; smallest gap between bins (box width). */
	struct bl_latency_bin **sorted = bl_xcalloc(ns, sizeof *sorted);
	double xlo = INFINITY, xhi = -INFINITY, step = INFINITY, cmax = 0;
	unsigned long long *total = bl_xcalloc(ns, sizeof *total);
	for (size_t s = 0; s < ns; s++) {
		const struct bl_latency_series *se = &in->series[s];
		sorted[s] = bl_xcalloc(se->nbins ? se->nbins : 1, sizeof **sorted);
		if (se->nbins)
			memcpy(sorted[s], se->bins, se->nbins * sizeof **sorted);
		qsort(sorted[s], se->nbins, sizeof **sorted, bin_cmp);
		total[s] = se->overflow;
		for (size_t b = 0; b < se->nbins; b++) {
			const struct bl_latency_bin *x = &sorted[s][b];
			total[s] += x->count;
			xlo = x->value < xlo ? x->value : xlo;
			xhi = x->value > xhi ? x->value : xhi;
			if ((double)x->count > cmax)
				cmax = (double)x->count;
			if (b && x->value > sorted[s][b - 1].value &&
			    x->value - sorted[s][b - 1].value < step)
				step = x->value - sorted[s][b - 1].value;
		}
	}
	if (!isfinite(xlo)) {
		for (size_t s = 0; s < ns; s++)
			free(sorted[s]);
		free(sorted);
		free(total);
		return job_fail(&j, -BL_EUSAGE, "plot: latency chart: no bins"), job_abort(&j);
	}
	for (size_t m = 0; m < in->nmarks; m++) {
		double v = in->marks[m].value;
		xlo = v < xlo ? v : xlo;
		xhi = v > xhi ? v : xhi;
	}
	if (!isfinite(step))
		step = xhi > xlo ? (xhi - xlo) / 20 : (xlo != 0 ? fabs(xlo) / 10 : 1);
	double pad = step * 1.5;
	if ((xhi - xlo) * 0.02 > pad)
		pad = (xhi - xlo) * 0.02;

	const char **files = bl_xcalloc(ns, sizeof *files);
	for (size_t s = 0; s < ns && !j.err; s++) {
		const struct bl_latency_series *se = &in->series[s];
		struct bl_buf d = BL_BUF_INIT(0);
		unsigned long long cum = 0;
		double t = total[s] ? (double)total[s] : NAN;
		for (size_t b = 0; b < se->nbins; b++) {
			const struct bl_latency_bin *x = &sorted[s][b];
			double tail = (double)(total[s] - cum) / t;
			cum += x->count;
			gp_datanum(&d, x->value, ' ');
			gp_datanum(&d, (double)x->count, ' ');
			gp_datanum(&d, (double)cum / t, ' ');
			gp_datanum(&d, tail, '\n');
		}
		char *cols = bl_xasprintf("value_%s count cdf tail_P(X>=value)",
					  bl_gp_safe_name(unit) ? unit : "unit");
		files[s] = job_data(&j, cols, &d);
		free(cols);
		bl_buf_release(&d);
	}

	char *xlabel = bl_xasprintf("Latency (%s)", unit);
	gs(&j, "set datafile missing '?'\n");
	gs(&j, "set multiplot layout 3,1 title ");
	gq(&j, opts && opts->title ? opts->title : "Latency");
	gs(&j, " noenhanced font ',12'\n");
	gs(&j, "set lmargin 11\nset rmargin 4\n");
	gs(&j, "set xrange [");
	gn(&j, xlo - pad);
	gs(&j, ":");
	gn(&j, xhi + pad);
	gs(&j, "]\nset mxtics\nif (fmt ne 'dumb') { set grid xtics ytics lc rgb '#e0e0e0' lt 1 }\n");
	gs(&j, "set xlabel ");
	gq(&j, xlabel);
	gs(&j, " noenhanced\n");
	gs(&j, "set style textbox opaque noborder margins 1,1\n");
	for (size_t m = 0; m < in->nmarks; m++) {
		const struct bl_plot_mark *mk = &in->marks[m];
		bool target = mk->kind == BL_MARK_TARGET;
		const char *col = target ? "#007a3d" : "#c00000";
		char num[40];
		bl_fmt_double(num, sizeof num, mk->value);
		char *lab = mk->label ? bl_xstrdup(mk->label)
				      : bl_xasprintf("%s%s %s", target ? "target " : "", num, unit);
		gs(&j, "set arrow from ");
		gn(&j, mk->value);
		gs(&j, ", graph 0 to ");
		gn(&j, mk->value);
		gs(&j, ", graph 1 nohead front lw 1.5 %s lc rgb '%s'\n",
		   target ? "dt 1" : "dt 2", col);
		gs(&j, "set label %zu ", m + 1);
		gqm(&j, lab, NAME_MAX_CHARS);
		gs(&j, " at ");
		gn(&j, mk->value);
		gs(&j, ", graph %.2f left offset character 0.6,0 boxed front tc rgb '%s' "
		       "noenhanced\n", 0.93 - 0.09 * (double)(m % 4), col);
		free(lab);
	}

	/* Panel 1: counts, boxes of the same bin side by side. */
	double bw = step * 0.84 / (double)ns;
	gs(&j, "\nset title 'Samples per bin (log scale)'\n");
	gs(&j, "set ylabel 'Count'\nset logscale y\n");
	gs(&j, "set yrange [0.5:");
	gn(&j, cmax * 3 > 10 ? cmax * 3 : 10);
	gs(&j, "]\nset key outside top center horizontal samplen 2\n");
	gs(&j, "set style fill solid 0.8 noborder\n");
	gs(&j, "plot ");
	for (size_t s = 0; s < ns && !j.err; s++) {
		const struct bl_latency_series *se = &in->series[s];
		double off = bw * ((double)s - ((double)ns - 1) / 2);
		char *t = bl_xasprintf("%s (n=%llu, overflow %llu)",
				       se->name ? se->name : "", total[s], se->overflow);
		if (s)
			gs(&j, ", \\\n     ");
		gs(&j, "'%s' using ", files[s]);
		gshift(&j, off);
		/* 0 has no place on a log axis: such bins are left out. */
		gs(&j, ":($2 > 0 ? $2 : NaN):(");
		gn(&j, bw);
		gs(&j, ") with boxes lc rgb '%s' title ", gp_color(s));
		gqm(&j, t, 2 * NAME_MAX_CHARS);
		gs(&j, " noenhanced");
		free(t);
	}
	gs(&j, "\n");

	/* Panel 2: CDF. Panel 3: tail. Same series colours; keys off. */
	gs(&j, "\nunset key\nunset label\nunset logscale y\n");
	gs(&j, "set title 'CDF: fraction of samples <= x'\n");
	gs(&j, "set ylabel 'Fraction'\nset yrange [0:1.05]\nset ytics 0.2\n");
	gs(&j, "plot ");
	for (size_t s = 0; s < ns; s++)
		gs(&j, "%s'%s' using 1:3 with steps lw 2 lc rgb '%s' notitle", s ? ", \\\n     " : "",
		   files[s], gp_color(s));
	gs(&j, "\n\nset title 'Tail: fraction of samples >= x (log scale)'\n");
	gs(&j, "set ylabel 'P(X >= x)'\nset logscale y\nset ytics auto\n");
	double tmin = 1;
	for (size_t s = 0; s < ns; s++)
		if (total[s])
			tmin = fmin(tmin, 1.0 / (double)total[s]);
	gs(&j, "set yrange [");
	gn(&j, tmin / 2);
	gs(&j, ":1.5]\nset format y '%%g'\n");
	gs(&j, "plot ");
	for (size_t s = 0; s < ns; s++)
		gs(&j, "%s'%s' using 1:($4 > 0 ? $4 : NaN) with fsteps lw 2 lc rgb '%s' notitle", s ? ", \\\n     " : "",
		   files[s], gp_color(s));
	gs(&j, "\nunset multiplot\n");

	free(xlabel);
	free(files);
	for (size_t s = 0; s < ns; s++)
		free(sorted[s]);
	free(sorted);
	free(total);
	return job_end(&j);
}

int bl_plot_latency(const struct bl_latency_plot *in, const struct bl_plot_opts *opts,
		    struct bl_plot_result *res)
{
	struct bl_plot_result tmp;
	bl_plot_result_init(&tmp);
	bl_plot_result_release(res);
	int rc = latency_chart(in, opts, res ? res : &tmp);
	bl_plot_result_release(&tmp);
	return rc;
}

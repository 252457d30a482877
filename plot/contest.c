/* contest.c — ConTest grouped bars with error bars, and the ratio of each
 * load to the no-load baseline (bl_plot_contest, see plot.h): the cells'
 * ratio, analyze/contest.h C2, as the caller computed it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "plot/plot_int.h"

#define MAX_LOADS 64
#define NAME_MAX_CHARS 40   /* characters of a load or group name drawn */

/* The x tics of a clustered histogram: cluster k is centred at x = k
 * and named by load rows[k] (rows NULL: load k). */
static void load_tics(struct gp_job *j, const struct bl_contest_plot *in,
		      const size_t *rows, size_t nrows)
{
	size_t longest = 0;
	for (size_t r = 0; r < nrows; r++) {
		size_t n = bl_utf8_chars(in->loads[rows ? rows[r] : r]);
		longest = n > longest ? n : longest;
	}
	if (longest > NAME_MAX_CHARS)
		longest = NAME_MAX_CHARS;
	/* ~7 px per character; rotate when the names would touch. */
	double room = ((double)j->width - 170.0) / (double)(nrows ? nrows : 1);
	bool rotate = (double)longest * 7.0 + 14 > room;
	gs(j, "set xtics nomirror scale 0%s (", rotate ? " rotate by -30 left" : "");
	for (size_t r = 0; r < nrows; r++)
		gs(j, "%s%s %zu", r ? ", " : "", gq(j, in->loads[rows ? rows[r] : r], NAME_MAX_CHARS), r);
	gs(j, ")\n");
}

/* The input's shape and numbers; false (j failed) when unusable. */
static bool contest_check(struct gp_job *j, const struct bl_contest_plot *in)
{
	if (!in || !in->loads || !in->groups || !in->cells || in->nloads == 0 ||
	    in->nloads > MAX_LOADS || in->ngroups == 0 || in->ngroups > GP_MAX_GROUPS)
		return job_fail(j, -BL_EUSAGE, "plot: contest chart needs 1-%d loads and "
				"1-%d groups", MAX_LOADS, GP_MAX_GROUPS), false;
	if (in->baseline != BL_CONTEST_BASELINE_NONE && in->baseline >= in->nloads)
		return job_fail(j, -BL_EUSAGE, "plot: contest baseline index out of range"), false;
	if (in->errbars != BL_ERRBAR_SD && in->errbars != BL_ERRBAR_MINMAX &&
	    in->errbars != BL_ERRBAR_NONE)
		return job_fail(j, -BL_EUSAGE, "plot: unknown error bar kind"), false;
	for (size_t i = 0; i < in->nloads * in->ngroups; i++) {
		const struct bl_contest_cell *c = &in->cells[i];
		if (gp_check_num(j, c->mean, "contest mean") ||
		    gp_check_num(j, c->sd, "contest sd") ||
		    gp_check_num(j, c->min, "contest min") ||
		    gp_check_num(j, c->max, "contest max") ||
		    gp_check_num(j, c->ratio, "contest ratio"))
			return false;
	}
	return true;
}

/* Data 1: one row per load: per group mean, low, high. Its file name, or
 * NULL (j failed: no values); *top: the highest bar or error bar. */
static const char *contest_means_data(struct gp_job *j, const struct bl_contest_plot *in, double *top)
{
	size_t ng = in->ngroups, nl = in->nloads;
	bool any = false;
	*top = 0;
	struct bl_buf d = BL_BUF_INIT(0);
	for (size_t l = 0; l < nl; l++) {
		gp_datanum(&d, (double)l, ' ');
		for (size_t g = 0; g < ng; g++) {
			const struct bl_contest_cell *c = &in->cells[l * ng + g];
			double lo = c->mean, hi = c->mean;
			if (in->errbars == BL_ERRBAR_SD && !isnan(c->sd)) {
				lo = c->mean - c->sd;
				hi = c->mean + c->sd;
			} else if (in->errbars == BL_ERRBAR_MINMAX && !isnan(c->min) &&
				   !isnan(c->max)) {
				lo = c->min;
				hi = c->max;
			}
			if (!isnan(c->mean))
				any = true;
			if (!isnan(hi) && hi > *top)
				*top = hi;
			gp_datanum(&d, c->mean, ' ');
			gp_datanum(&d, lo, ' ');
			gp_datanum(&d, hi, g + 1 == ng ? '\n' : ' ');
		}
	}
	if (!any) {
		bl_buf_release(&d);
		job_fail(j, -BL_EUSAGE, "plot: contest chart: no values");
		return NULL;
	}
	return job_data(j, in->errbars == BL_ERRBAR_MINMAX ? "load_index, then per group: mean min max"
			   : in->errbars == BL_ERRBAR_SD ? "load_index, then per group: mean mean-sd mean+sd"
			   : "load_index, then per group: mean mean mean", NULL, &d);
}

/* Data 2: the cells' ratio to the baseline load, one row per other load
 * (rows[]: its load, *nrows of them; *rtop: the highest ratio). */
static const char *contest_ratio_data(struct gp_job *j, const struct bl_contest_plot *in, size_t base,
				      size_t *rows, size_t *nrows, double *rtop)
{
	size_t ng = in->ngroups;
	struct bl_buf r = BL_BUF_INIT(0);
	*nrows = 0;
	*rtop = 0;
	for (size_t l = 0; l < in->nloads; l++) {
		if (l == base)
			continue;
		rows[*nrows] = l;
		gp_datanum(&r, (double)*nrows, ' ');
		for (size_t g = 0; g < ng; g++) {
			double q = in->cells[l * ng + g].ratio;
			if (!isnan(q) && q > *rtop)
				*rtop = q;
			gp_datanum(&r, q, g + 1 == ng ? '\n' : ' ');
		}
		(*nrows)++;
	}
	return job_data(j, "row_index, then per group: mean / baseline mean", NULL, &r);
}

/* The top panel (the whole chart without a ratio panel): bars per load. */
static void contest_means_panel(struct gp_job *j, const struct bl_contest_plot *in,
				const struct bl_plot_opts *opts, bool ratio, const char *f1, double top)
{
	size_t ng = in->ngroups, nl = in->nloads;
	gs(j, "set lmargin 11\nset rmargin 3\n");
	gs(j, "set style data histogram\n");
	gs(j, "set style histogram %s gap 1%s\n", in->errbars == BL_ERRBAR_NONE ? "clustered" : "errorbars",
	   in->errbars == BL_ERRBAR_NONE ? "" : " lw 1.2");
	gs(j, "set style fill solid 0.85 border rgb '#333333'\n");
	gs(j, "set boxwidth 0.9\n");
	gs(j, "if (fmt ne 'dumb') { set grid ytics lc rgb '#e0e0e0' lt 1 }\n");
	gs(j, "set key outside top center horizontal samplen 2\n");
	gs(j, "set xrange [-0.6:%g]\n", (double)nl - 0.4);
	gs(j, "set yrange [0:%s]\nset ytics nomirror\n", gnum(gp_nice_ceil(top * 1.05)).s);
	load_tics(j, in, NULL, nl);
	const char *title = !ratio ? (opts && opts->title ? opts->title : "ConTest")
			    : in->errbars == BL_ERRBAR_SD ? "Mean per load (error bars: +/- sd)"
			    : in->errbars == BL_ERRBAR_MINMAX ? "Mean per load (error bars: min to max)"
			    : "Mean per load";
	gs(j, "set title %s noenhanced\nset ylabel %s noenhanced\n", gq(j, title, 0),
	   gq(j, in->value_label ? in->value_label : "Time (s)", 0));
	/* dumb: the label beside the tic numbers, not over them */
	gs(j, "if (fmt eq 'dumb') { set lmargin 15; set ylabel offset character -3,0 }\n");
	gs(j, "plot ");
	for (size_t g = 0; g < ng; g++) {
		gs(j, "%s'%s' using %zu", g ? ", \\\n     " : "", f1 ? f1 : "", 2 + 3 * g);
		if (in->errbars != BL_ERRBAR_NONE)
			gs(j, ":%zu:%zu", 3 + 3 * g, 4 + 3 * g);
		/* dumb draws no sample for a filled bar: the key names the
		 * character the g-th bars are drawn with (gnuplot's dumb
		 * terminal takes them in this order) */
		gs(j, " lc rgb '%s' title (%s . (fmt eq 'dumb' ? ' [%c]' : '')) noenhanced", gp_color(g),
		   gq(j, in->groups[g], NAME_MAX_CHARS), GP_DUMB_CHARS[g % (sizeof GP_DUMB_CHARS - 1)]);
	}
	gs(j, "\n");
}

/* The bottom panel: each load's mean over the baseline load's, per group,
 * with the value above each bar. */
static void contest_ratio_panel(struct gp_job *j, const struct bl_contest_plot *in, size_t base,
				const char *f2, const size_t *rows, size_t nrows, double rtop)
{
	size_t ng = in->ngroups;
	/* Bar g of cluster k sits at k + (g - (ng-1)/2) / (ng + gap). */
	char *t = bl_xasprintf("Ratio of the mean to %s's (same group)",
			       in->loads[base] ? in->loads[base] : "");
	gs(j, "\nset title %s noenhanced\n", gq(j, t, 2 * NAME_MAX_CHARS));
	free(t);
	gs(j, "set style histogram clustered gap 1\n");
	gs(j, "set ylabel 'Ratio'\n");
	gs(j, "set xrange [-0.6:%g]\n", (double)nrows - 0.4);
	/* Value labels fit upright over bars about 30 px apart (4
	 * characters at font 8); closer bars (many groups or loads) get
	 * them rotated, which needs more headroom. */
	double pitch = ((double)j->width - 170.0) / (double)(nrows ? nrows : 1) / ((double)ng + 1);
	bool upright = pitch >= 30;
	gs(j, "set yrange [0:%s]\n", gnum(gp_nice_ceil(rtop * (upright ? 1.12 : 1.25))).s);
	gs(j, "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 "
	      "lw 1.2 lc rgb '#444444' front\n");
	load_tics(j, in, rows, nrows);
	gs(j, "unset key\n");
	gs(j, "plot ");
	for (size_t g = 0; g < ng; g++)
		gs(j, "%s'%s' using %zu lc rgb '%s' notitle", g ? ", \\\n     " : "", f2 ? f2 : "", 2 + g,
		   gp_color(g));
	for (size_t g = 0; g < ng; g++)
		gs(j, ", \\\n     '%s' using %s:%zu:(sprintf('%%.2f', column(%zu))) with labels %s font ',8' notitle",
		   f2 ? f2 : "", gshift(((double)g - ((double)ng - 1) / 2) / ((double)ng + 1)).s, 2 + g, 2 + g,
		   upright ? "offset character 0,0.7" : "rotate by 90 left offset character 0,0.3");
	gs(j, "\nunset multiplot\n");
}

int bl_plot_contest(const struct bl_contest_plot *in, const struct bl_plot_opts *opts,
		    struct bl_plot_result *res)
{
	struct gp_job j;
	size_t base = in ? in->baseline : BL_CONTEST_BASELINE_NONE;
	bool ratio = in && base < in->nloads && in->nloads > 1;
	if (job_begin(&j, opts, res, "contest",
		      "ConTest: mean per load and group with error bars; ratio to no-load",
		      1200, ratio ? 940 : 540, 120, ratio ? 54 : 28))
		return job_abort(&j);
	if (!contest_check(&j, in))
		return job_abort(&j);
	double top;
	const char *f1 = contest_means_data(&j, in, &top);
	if (!f1 && j.err)
		return job_abort(&j);
	size_t *rows = bl_xcalloc(in->nloads, sizeof *rows);
	size_t nrows = 0;
	const char *f2 = NULL;
	double rtop = 0;
	if (ratio)
		f2 = contest_ratio_data(&j, in, base, rows, &nrows, &rtop);
	gs(&j, "set datafile missing '?'\n");
	if (ratio) {
		gs(&j, "set multiplot layout 2,1 title %s noenhanced font ',12'\n",
		   gq(&j, opts && opts->title ? opts->title : "ConTest", 0));
	}
	contest_means_panel(&j, in, opts, ratio, f1, top);
	if (ratio)
		contest_ratio_panel(&j, in, base, f2, rows, nrows, rtop);
	free(rows);
	return job_end(&j);
}

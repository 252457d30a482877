/* runs.c — one point per run: elapsed, CPU and allocation side by side,
 * one colour per group, the group mean as a dashed line (bl_plot_runs,
 * see plot.h). The mean is the arithmetic mean of the runs that have the
 * value (NaN runs left out), as the chkmmt script of seed 000 computes it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_int.h"

#define MAX_RUNS 100000
#define NAME_MAX_CHARS 40
#define BYTES_PER_MIB 1048576.0

struct metric {
	const char *title;   /* panel title */
	const char *ylabel;
	const char *unit;    /* for the key: "mean 64.1 s" */
	int column;          /* in the data files */
};

static const struct metric metrics[3] = {
	{ "Elapsed (wall-clock)", "Seconds", "s", 2 },
	{ "Percent of CPU this job got", "CPU (%)", "%", 3 },
	{ "Bytes allocated", "MiB", "MiB", 4 },
};

struct rgroup {
	const char *name;
	size_t *idx;         /* indices into runs, sorted by run number */
	size_t n;
	double sum[3];
	size_t cnt[3];
};

struct run_key {
	long run;
	size_t i;    /* index into runs: input order breaks ties */
};

static int run_cmp(const void *a, const void *b)
{
	const struct run_key *x = a, *y = b;
	if (x->run != y->run)
		return (x->run > y->run) - (x->run < y->run);
	return (x->i > y->i) - (x->i < y->i);
}

static double metric_value(const struct bl_run_point *r, int m)
{
	switch (m) {
	case 0: return r->elapsed_s;
	case 1: return r->cpu_pct;
	default: return r->bytes_allocated / BYTES_PER_MIB;
	}
}

static int runs_chart(const struct bl_runs_plot *in, const struct bl_plot_opts *opts,
		      struct bl_plot_result *res)
{
	struct gp_job j;
	/* Which panels: decided before job_begin, since they set the width. */
	bool has[3] = { false, false, false };
	int npanels = 0;
	if (in && in->runs && in->nruns <= MAX_RUNS) {
		for (size_t i = 0; i < in->nruns; i++)
			for (int m = 0; m < 3; m++)
				if (!isnan(metric_value(&in->runs[i], m)))
					has[m] = true;
		npanels = has[0] + has[1] + has[2];
	}
	int np = npanels ? npanels : 1;
	if (job_begin(&j, opts, res, "runs",
		      "per run: elapsed, CPU and allocation, one colour per group",
		      120 + 480 * np, 560, 40 * np + 10, 30))
		return job_abort(&j);
	if (!in || !in->runs || in->nruns == 0 || in->nruns > MAX_RUNS)
		return job_fail(&j, -BL_EUSAGE, "plot: runs chart needs 1-%d runs", MAX_RUNS),
		       job_abort(&j);
	for (size_t i = 0; i < in->nruns; i++) {
		const struct bl_run_point *r = &in->runs[i];
		if (r->run < 0)
			return job_fail(&j, -BL_EUSAGE, "plot: run %zu: negative run number",
					i + 1), job_abort(&j);
		if (gp_check_num(&j, r->elapsed_s, "elapsed") ||
		    gp_check_num(&j, r->cpu_pct, "CPU percent") ||
		    gp_check_num(&j, r->bytes_allocated, "bytes allocated"))
			return job_abort(&j);
	}
	if (npanels == 0)
		return job_fail(&j, -BL_EUSAGE, "plot: runs chart: no values"), job_abort(&j);

	/* Groups in order of first appearance. */
	struct rgroup grp[GP_MAX_GROUPS];
	size_t ng = 0;
	memset(grp, 0, sizeof grp);
	long rmin = in->runs[0].run, rmax = in->runs[0].run;
	for (size_t i = 0; i < in->nruns; i++) {
		const struct bl_run_point *r = &in->runs[i];
		const char *name = r->group ? r->group : "";
		size_t g = 0;
		while (g < ng && strcmp(grp[g].name, name) != 0)
			g++;
		if (g == ng) {
			if (ng == GP_MAX_GROUPS) {
				for (size_t k = 0; k < ng; k++)
					free(grp[k].idx);
				return job_fail(&j, -BL_EUSAGE, "plot: runs chart: more than %d "
						"groups", GP_MAX_GROUPS), job_abort(&j);
			}
			grp[ng++].name = name;
		}
		grp[g].idx = bl_xrealloc(grp[g].idx, (grp[g].n + 1) * sizeof *grp[g].idx);
		grp[g].idx[grp[g].n++] = i;
		for (int m = 0; m < 3; m++) {
			double v = metric_value(r, m);
			if (!isnan(v)) {
				grp[g].sum[m] += v;
				grp[g].cnt[m]++;
			}
		}
		rmin = r->run < rmin ? r->run : rmin;
		rmax = r->run > rmax ? r->run : rmax;
	}

	const char *files[GP_MAX_GROUPS] = { NULL };
	for (size_t g = 0; g < ng && !j.err; g++) {
		struct run_key *key = bl_xcalloc(grp[g].n, sizeof *key);
		for (size_t k = 0; k < grp[g].n; k++)
			key[k] = (struct run_key){ in->runs[grp[g].idx[k]].run, grp[g].idx[k] };
		qsort(key, grp[g].n, sizeof *key, run_cmp);
		for (size_t k = 0; k < grp[g].n; k++)
			grp[g].idx[k] = key[k].i;
		free(key);
		struct bl_buf d = BL_BUF_INIT(0);
		for (size_t k = 0; k < grp[g].n; k++) {
			const struct bl_run_point *r = &in->runs[grp[g].idx[k]];
			gp_datanum(&d, (double)r->run, ' ');
			gp_datanum(&d, r->elapsed_s, ' ');
			gp_datanum(&d, r->cpu_pct, ' ');
			gp_datanum(&d, r->bytes_allocated / BYTES_PER_MIB, '\n');
		}
		files[g] = job_data(&j, "run elapsed_s cpu_pct allocated_MiB", &d);
		bl_buf_release(&d);
	}

	gs(&j, "set datafile missing '?'\n");
	gs(&j, "set multiplot layout 1,%d title ", npanels);
	gq(&j, opts && opts->title ? opts->title : "Runs");
	gs(&j, " noenhanced font ',12'\n");
	gs(&j, "set xrange [%g:%g]\n", (double)rmin - 0.5, (double)rmax + 0.5);
	if (rmax - rmin <= 20)
		gs(&j, "set xtics 1\n");
	gs(&j, "set xlabel 'Run'\nif (fmt ne 'dumb') { set grid ytics lc rgb '#e0e0e0' lt 1 }\n");
	gs(&j, "set key outside bottom center vertical samplen 2 maxrows %zu\n", ng);
	gs(&j, "set bmargin %zu\n", 4 + ng);
	/* From 0, so the size of a difference is seen honestly; 8% headroom. */
	gs(&j, "set yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\n");
	for (int m = 0; m < 3; m++) {
		if (!has[m])
			continue;
		const struct metric *mt = &metrics[m];
		/* Groups a hundredfold apart (a 0.3 s command beside a 4 h one)
		 * would lie flat on a linear axis from 0: such a panel is drawn
		 * on a log axis instead, and says so in its title. */
		double lo = INFINITY, hi = 0;
		for (size_t g = 0; g < ng; g++) {
			if (!grp[g].cnt[m])
				continue;
			double mean = grp[g].sum[m] / (double)grp[g].cnt[m];
			if (mean > 0) {
				lo = mean < lo ? mean : lo;
				hi = mean > hi ? mean : hi;
			}
		}
		bool logy = hi > 0 && hi > 100 * lo;
		if (logy)
			gs(&j, "\nset logscale y\nset yrange [*:*]\nset title '%s (log scale)'\nset ylabel '%s'\n",
			   mt->title, mt->ylabel);
		else
			gs(&j, "\nunset logscale y\nset yrange [0:*]\nset title '%s'\nset ylabel '%s'\n",
			   mt->title, mt->ylabel);
		gs(&j, "plot ");
		bool first = true;
		for (size_t g = 0; g < ng; g++) {
			if (!grp[g].cnt[m])
				continue;
			double mean = grp[g].sum[m] / (double)grp[g].cnt[m];
			char num[40];
			snprintf(num, sizeof num, "%.4g", mean);
			char *t = bl_xasprintf("%s: mean %s %s", grp[g].name, num, mt->unit);
			gs(&j, "%s'%s' using 1:%d with linespoints pt 7 ps 0.8 lw 1.5 lc rgb '%s' "
			       "title ", first ? "" : ", \\\n     ", files[g], mt->column,
			   gp_color(g));
			gqm(&j, t, 2 * NAME_MAX_CHARS);
			gs(&j, " noenhanced, \\\n     ");
			gn(&j, mean);
			gs(&j, " with lines dt 2 lw 1.2 lc rgb '%s' notitle", gp_color(g));
			free(t);
			first = false;
		}
		gs(&j, "\n");
	}
	gs(&j, "unset multiplot\n");
	for (size_t g = 0; g < ng; g++)
		free(grp[g].idx);
	return job_end(&j);
}

int bl_plot_runs(const struct bl_runs_plot *in, const struct bl_plot_opts *opts,
		 struct bl_plot_result *res)
{
	struct bl_plot_result tmp;
	bl_plot_result_init(&tmp);
	bl_plot_result_release(res);
	int rc = runs_chart(in, opts, res ? res : &tmp);
	bl_plot_result_release(&tmp);
	return rc;
}

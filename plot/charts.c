/* charts.c — an analysis's charts drawn from its results (plot.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "plot/plot.h"

static int draw_one(const struct bl_chart_spec *s, const struct bl_plot_opts *po, struct bl_plot_result *res)
{
	switch (s->kind) {
	case BL_CHART_SWPD: return bl_plot_swpd(&s->in.swpd, po, res);
	case BL_CHART_SWPD_STUTTER: return bl_plot_swpd_stutter(&s->in.swpd, po, res);
	case BL_CHART_CONTEST: return bl_plot_contest(&s->in.contest, po, res);
	case BL_CHART_LATENCY: return bl_plot_latency(&s->in.latency, po, res);
	case BL_CHART_RUNS: return bl_plot_runs(&s->in.runs, po, res);
	}
	return -BL_EUSAGE;
}

int bl_analysis_draw(const struct bl_analysis *an, void *st, const struct bl_chart_opts *co,
		     struct bl_chart **charts, size_t *ncharts, FILE *diag, FILE *preview)
{
	struct bl_chart_spec *sp = NULL;
	size_t nsp = 0;
	int made = an->charts ? an->charts(st, &sp, &nsp) : 0, ret = made;
	int why = made == -BL_EIO ? errno : 0;
	for (size_t i = 0; made == 0 && i < nsp; i++) {
		const struct bl_chart_spec *s = &sp[i];
		struct bl_plot_opts po = { .out_dir = co->dir, .basename = s->name, .terms = co->terms,
					   .title = s->title, .script_only = co->script_only, .gp = co->gp };
		struct bl_plot_result res = { 0 };
		int rc = draw_one(s, &po, &res);
		if (rc >= 0)
			bl_charts_add(charts, ncharts, s->name, s->caption, res.bytes);
		if (res.preview && preview)
			fputs(res.preview, preview);
		if (rc < 0) {
			if (res.message && diag) {
				/* gnuplot's own lines stay lines (E7 with LF) */
				bl_term_printf(diag, "benchlog: %s chart: ", s->name);
				bl_fput_term(diag, res.message, strlen(res.message));
				fputc('\n', diag);
			}
			ret = rc;
		} else if (rc == BL_PLOT_NOT_RENDERED && ret == 0) {
			ret = -BL_ENOTFOUND;
		}
		bl_plot_result_release(&res);
	}
	bl_chart_specs_free(sp, nsp);
	errno = why;
	return ret;
}

const char *bl_chart_why(int rc, int err)
{
	return err ? strerror(err) : rc == -BL_EIO ? "see above" : bl_strerror(rc);
}

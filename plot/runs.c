/* runs.c — one point per run: elapsed, CPU and allocation side by side,
 * one colour per group, the group mean as a dashed line (bl_plot_runs,
 * see plot.h). The mean is the arithmetic mean of the runs that have the
 * value (NaN runs left out), as the chkmmt script of seed 000 computes it.
 *
 * Layout: a panel per measure the runs have (only those), side by side;
 * below them one legend for all panels, a line per group with its colour,
 * run count and means, across the whole width, so no name is cut by a
 * panel's edge. The canvas grows to fit the legend's longest line and
 * its number of lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/outtab.h"
#include "core/escape.h"
#include "plot/plot_int.h"

#define MAX_RUNS BL_RUNS_PLOT_MAX
#define NAME_MAX_CHARS 40   /* of a group's name in the legend (short_names) */
#define LEAD_CHARS 12       /* of the part all names share, before the rest */
#define BYTES_PER_MIB 1048576.0
/* Pixel sizes (pngcairo and svg, font sans 10): a panel, the legend's
 * line, a character of it (a generous average, so a line is never cut),
 * the title band above the panels. */
#define PANEL_W 480
#define PANEL_H 400
#define LEFT_W 120
#define LEGEND_LINE_H 17
#define LEGEND_CHAR_W 7
#define TITLE_H 30

struct metric {
	const char *title;   /* panel title */
	const char *ylabel;
	const char *unit;    /* for the legend: "elapsed 64.1 s" */
	const char *word;
	int column;          /* in the data files */
};

static const struct metric metrics[3] = {
	{ "Elapsed (wall-clock)", "Seconds", "s", "elapsed", 2 },
	{ "Percent of CPU this job got", "CPU (%)", "%", "CPU", 3 },
	{ "Bytes allocated", "MiB", "MiB", "allocated", 4 },
};

struct rgroup {
	const char *name;
	size_t *idx;         /* indices into runs, sorted by run number */
	size_t n, cap;
	double sum[3];
	size_t cnt[3];
	double mean[3];      /* its mean line's: the drawn runs', or in->totals' */
	unsigned long long all;   /* its runs: n, or more (in->totals) */
	char *shown;         /* its name as the legend shows it (short_names) */
	char *legend;        /* its legend line */
};

struct runs_layout {
	struct rgroup grp[GP_MAX_GROUPS];
	size_t ng;
	bool has[3];         /* the measures some run has: a panel each */
	int npanels;
	long rmin, rmax;
	size_t legend_chars; /* the longest legend line */
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

static void layout_free(struct runs_layout *L)
{
	for (size_t g = 0; g < L->ng; g++) {
		free(L->grp[g].idx);
		free(L->grp[g].shown);
		free(L->grp[g].legend);
	}
}

/* s[0..n) into b in at most max characters: whole, or its first third
 * and its end around an ellipsis. */
static void middle_cut(struct bl_buf *b, const char *s, size_t n, size_t max)
{
	size_t c = bl_utf8_chars_n(s, n);
	if (c <= max) {
		bl_buf_add(b, s, n);
		return;
	}
	size_t head = max / 3, tail = max - head - 1;
	bl_buf_add(b, s, bl_utf8_at(s, n, head));
	bl_buf_add(b, "…", strlen("…"));
	size_t from = bl_utf8_at(s, n, c - tail);
	bl_buf_add(b, s + from, n - from);
}

/* The bytes group g's name shares at its start (*pre) and at its end
 * (*suf) with every peer: a drawn group whose name starts with the same
 * LEAD_CHARS characters (the same file or thread, most often); 0 and 0
 * without one. Both end on character boundaries, and pre + suf <= its
 * length. */
static void peer_affixes(const struct runs_layout *L, size_t g, size_t *pre, size_t *suf)
{
	const char *s = L->grp[g].name;
	size_t len = strlen(s), lead = bl_utf8_at(s, len, LEAD_CHARS), p = len, q = len;
	bool peer = false;
	for (size_t h = 0; h < L->ng; h++) {
		const char *t = L->grp[h].name;
		size_t tl = strlen(t), k = 0;
		while (k < len && k < tl && s[k] == t[k])
			k++;
		if (h == g || k < lead)
			continue;
		peer = true;
		p = k < p ? k : p;
		for (k = 0; k < len && k < tl && s[len - 1 - k] == t[tl - 1 - k]; k++)
			;
		q = k < q ? k : q;
	}
	if (!peer)
		p = q = 0;
	while (p > 0 && ((unsigned char)s[p] & 0xC0) == 0x80)
		p--;
	q = q > len - p ? len - p : q;
	while (q > 0 && ((unsigned char)s[len - q] & 0xC0) == 0x80)
		q--;
	*pre = p;
	*suf = q;
}

/* Each group's name as the legend shows it, at most NAME_MAX_CHARS
 * characters and told apart from the others': a longer one keeps the
 * first LEAD_CHARS of what it shares with its peers (peer_affixes), then
 * the part where they differ, whole or as its start and end around an
 * ellipsis, and an ellipsis for the end they share
 * ("17-timev-par…short_re…iGenVar_only/S1L1…", not six names alike in
 * their first 40 characters). Should two still read alike, every cut
 * name ends in its legend line's number ("#3"). */
static void short_names(struct runs_layout *L)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t g = 0; g < L->ng; g++) {
			struct rgroup *G = &L->grp[g];
			size_t pre, suf;
			peer_affixes(L, g, &pre, &suf);
			size_t len = strlen(G->name), lead = bl_utf8_chars_n(G->name, pre);
			struct bl_buf b = BL_BUF_INIT(0);
			if (bl_utf8_chars_n(G->name, len) <= NAME_MAX_CHARS) {
				bl_buf_add(&b, G->name, len);
			} else if (pass == 0) {
				lead = lead > LEAD_CHARS ? LEAD_CHARS : lead;
				bl_buf_add(&b, G->name, bl_utf8_at(G->name, pre, lead));
				if (lead < bl_utf8_chars_n(G->name, pre))
					bl_buf_add(&b, "…", strlen("…"));
				size_t used = bl_utf8_chars_n(bl_buf_str(&b), b.len) + (suf > 0);
				middle_cut(&b, G->name + pre, len - suf - pre, NAME_MAX_CHARS - used);
				if (suf)
					bl_buf_add(&b, "…", strlen("…"));
			} else {
				char num[24];
				snprintf(num, sizeof num, " #%zu", g + 1);
				middle_cut(&b, G->name, len, NAME_MAX_CHARS - strlen(num));
				bl_buf_add(&b, num, strlen(num));
			}
			free(G->shown);
			G->shown = bl_xstrndup(bl_buf_str(&b), b.len);
			bl_buf_release(&b);
		}
		bool alike = false;
		for (size_t g = 0; g < L->ng && !alike; g++)
			for (size_t h = g + 1; h < L->ng && !alike; h++)
				alike = strcmp(L->grp[g].shown, L->grp[h].shown) == 0;
		if (!alike)
			return;
	}
}

/* The groups in order of first appearance, their runs sorted by run
 * number, sums and counts; the panels; each group's legend line ("name
 * (3 runs): elapsed 64.1 s, CPU 50 %"). -1 past GP_MAX_GROUPS groups. */
static int layout(const struct bl_runs_plot *in, struct runs_layout *L)
{
	memset(L, 0, sizeof *L);
	L->rmin = L->rmax = in->runs[0].run;
	for (size_t i = 0; i < in->nruns; i++) {
		const struct bl_run_point *r = &in->runs[i];
		const char *name = r->group ? r->group : "";
		size_t g = 0;
		while (g < L->ng && strcmp(L->grp[g].name, name) != 0)
			g++;
		if (g == L->ng) {
			if (L->ng == GP_MAX_GROUPS)
				return -1;
			L->grp[L->ng++].name = name;
		}
		struct rgroup *G = &L->grp[g];
		G->idx = bl_xgrow(G->idx, &G->cap, G->n + 1, sizeof *G->idx);
		G->idx[G->n++] = i;
		for (int m = 0; m < 3; m++) {
			double v = metric_value(r, m);
			if (!isnan(v)) {
				G->sum[m] += v;
				G->cnt[m]++;
				L->has[m] = true;
			}
		}
		L->rmin = r->run < L->rmin ? r->run : L->rmin;
		L->rmax = r->run > L->rmax ? r->run : L->rmax;
	}
	L->npanels = L->has[0] + L->has[1] + L->has[2];
	short_names(L);
	for (size_t g = 0; g < L->ng; g++) {
		struct rgroup *G = &L->grp[g];
		G->all = G->n;
		for (int m = 0; m < 3; m++)
			G->mean[m] = G->cnt[m] ? G->sum[m] / (double)G->cnt[m] : NAN;
		/* more runs than drawn: the legend and mean lines are the group's
		 * (its section's numbers), as the title says the first are drawn */
		for (size_t t = 0; t < in->ntotals; t++) {
			const struct bl_runs_total *T = &in->totals[t];
			if (strcmp(T->group ? T->group : "", G->name) != 0 || T->runs <= G->n)
				continue;
			G->all = T->runs;
			for (int m = 0; m < 3; m++)
				if (G->cnt[m] && !isnan(T->mean[m]))
					G->mean[m] = m == 2 ? T->mean[m] / BYTES_PER_MIB : T->mean[m];
		}
		struct run_key *key = bl_xcalloc(G->n, sizeof *key);
		for (size_t k = 0; k < G->n; k++)
			key[k] = (struct run_key){ in->runs[G->idx[k]].run, G->idx[k] };
		qsort(key, G->n, sizeof *key, run_cmp);
		for (size_t k = 0; k < G->n; k++)
			G->idx[k] = key[k].i;
		free(key);
		/* the name as short_names() cut it, then the means */
		struct bl_buf b = BL_BUF_INIT(0);
		bl_buf_addf(&b, "%s (", G->shown);
		if (G->all > G->n)
			bl_buf_addf(&b, "%llu runs, the first %zu drawn):", G->all, G->n);
		else
			bl_buf_addf(&b, "%zu run%s):", G->n, G->n == 1 ? "" : "s");
		const char *sep = " ";
		for (int m = 0; m < 3; m++) {
			if (!L->has[m] || !G->cnt[m])
				continue;
			char t[48];   /* as summary's table shows the mean: 14950 s, not 1.495e+04 s */
			bl_buf_addf(&b, "%s%s %s %s", sep, metrics[m].word,
				    bl_outtab_num(t, sizeof t, G->mean[m], BL_TAB_TEXT), metrics[m].unit);
			sep = ", ";
		}
		G->legend = b.data;
		size_t chars = strlen(G->legend) + 6;   /* the sample and its gap */
		L->legend_chars = chars > L->legend_chars ? chars : L->legend_chars;
	}
	return 0;
}

/* One data file per group: run, elapsed_s, cpu_pct, allocated_MiB. */
static void write_data(struct gp_job *j, const struct bl_runs_plot *in, const struct runs_layout *L,
		       const char **files)
{
	for (size_t g = 0; g < L->ng && !j->err; g++) {
		struct bl_buf d = BL_BUF_INIT(0);
		for (size_t k = 0; k < L->grp[g].n; k++) {
			const struct bl_run_point *r = &in->runs[L->grp[g].idx[k]];
			gp_row(&d, 4, (const double[]){ (double)r->run, r->elapsed_s, r->cpu_pct,
							 r->bytes_allocated / BYTES_PER_MIB });
		}
		files[g] = job_data(j, "run elapsed_s cpu_pct allocated_MiB", NULL, &d);
	}
}

/* Panel m at x of width w, fractions of the canvas, between the legend
 * and the title band (LH, TOP). */
static void draw_panel(struct gp_job *j, const struct runs_layout *L, const char **files, int m,
		       double x, double w)
{
	const struct metric *mt = &metrics[m];
	/* Groups a hundredfold apart (a 0.3 s command beside a 4 h one)
	 * would lie flat on a linear axis from 0: such a panel is drawn on
	 * a log axis instead, and says so in its title. */
	double lo = INFINITY, hi = 0;
	for (size_t g = 0; g < L->ng; g++) {
		if (!L->grp[g].cnt[m])
			continue;
		double mean = L->grp[g].mean[m];
		if (mean > 0) {
			lo = mean < lo ? mean : lo;
			hi = mean > hi ? mean : hi;
		}
	}
	bool logy = hi > 0 && hi > 100 * lo;
	gs(j, "\nset origin %.4f, LH\nset size %.4f, TOP - LH\n", x, w);
	gs(j, "%s logscale y\nset yrange [%s:*]\nset title '%s%s'\nset ylabel '%s'\n", logy ? "set" : "unset",
	   logy ? "*" : "0", mt->title, logy ? " (log scale)" : "", mt->ylabel);
	gs(j, "plot ");
	bool first = true;
	for (size_t g = 0; g < L->ng; g++) {
		if (!L->grp[g].cnt[m])
			continue;
		double mean = L->grp[g].mean[m];
		gs(j, "%s'%s' using 1:%d with linespoints pt 7 ps 0.8 lw 1.5 lc rgb '%s' notitle, \\\n     ",
		   first ? "" : ", \\\n     ", files[g], mt->column, gp_color(g));
		gs(j, "%s with lines dt 2 lw 1.2 lc rgb '%s' notitle", gnum(mean).s, gp_color(g));
		first = false;
	}
	gs(j, "\n");
}

/* The legend below the panels, in a frame of its own of height LH: a
 * line per group, its colour and legend text; the curves at y = 2 lie
 * outside [0:1] and are not drawn. */
static void draw_legend(struct gp_job *j, const struct runs_layout *L)
{
	gs(j, "\nset origin 0, 0\nset size 1, LH\n");
	gs(j, "unset logscale y\nunset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\n"
	      "unset grid\nset xrange [0:1]\nset yrange [0:1]\nset offsets 0, 0, 0, 0\n"
	      "set margins 0, 0, 0, 0\n");
	gs(j, "set key at screen 0.01, screen LH left top Left reverse vertical samplen 2 maxrows %zu\n",
	   L->ng);
	gs(j, "plot ");
	for (size_t g = 0; g < L->ng; g++) {
		gs(j, "%s2 with linespoints pt 7 ps 0.8 lw 1.5 lc rgb '%s' title %s noenhanced",
		   g ? ", \\\n     " : "", gp_color(g), gq(j, L->grp[g].legend, 0));
	}
	gs(j, "\n");
}

int bl_plot_runs(const struct bl_runs_plot *in, const struct bl_plot_opts *opts,
	     struct bl_plot_result *res)
{
	struct gp_job j;
	struct runs_layout L;
	bool valid = in && in->runs && in->nruns > 0 && in->nruns <= MAX_RUNS;
	int lrc = valid ? layout(in, &L) : 0;
	if (!valid)
		memset(&L, 0, sizeof L);
	/* The canvas: the panels side by side over the legend, as wide as
	 * its longest line needs. */
	int np = L.npanels ? L.npanels : 1;
	int legend_h = LEGEND_LINE_H * (int)(L.ng ? L.ng : 1) + 20;
	int w = LEFT_W + PANEL_W * np, lw = 40 + LEGEND_CHAR_W * (int)L.legend_chars;
	w = lw > w ? lw : w;
	int h = TITLE_H + PANEL_H + legend_h;
	/* dumb: a character a column, a line a row */
	int dw = 40 * np + 10, dh = 26 + (int)L.ng;
	dw = (int)L.legend_chars + 6 > dw ? (int)L.legend_chars + 6 : dw;
	int rc = job_begin(&j, opts, res, "runs", "per run: elapsed, CPU and allocation, one colour per group",
			   w, h, dw, dh);
	if (!rc && !valid)
		rc = job_fail(&j, -BL_EUSAGE, "plot: runs chart needs 1-%d runs", MAX_RUNS);
	if (!rc && lrc)
		rc = job_fail(&j, -BL_EUSAGE, "plot: runs chart: more than %d groups", GP_MAX_GROUPS);
	for (size_t i = 0; !rc && i < in->nruns; i++) {
		const struct bl_run_point *r = &in->runs[i];
		if (r->run < 0)
			rc = job_fail(&j, -BL_EUSAGE, "plot: run %zu: negative run number", i + 1);
		else if (gp_check_num(&j, r->elapsed_s, "elapsed") ||
			 gp_check_num(&j, r->cpu_pct, "CPU percent") ||
			 gp_check_num(&j, r->bytes_allocated, "bytes allocated"))
			rc = j.err;
	}
	if (!rc && L.npanels == 0)
		rc = job_fail(&j, -BL_EUSAGE, "plot: runs chart: no values");
	if (rc) {
		layout_free(&L);
		return job_abort(&j);
	}
	const char *files[GP_MAX_GROUPS] = { NULL };
	write_data(&j, in, &L, files);

	/* fractions of the canvas: the legend below, the title band above */
	double lh = (double)legend_h / h, top = 1.0 - (double)TITLE_H / h;
	double pw = (double)w / np / w;
	/* LH: the legend's height, TOP: where the title band starts, as
	 * fractions of the canvas (in lines for dumb: its legend needs one
	 * per group and its margins) */
	gs(&j, "LH = (fmt eq 'dumb') ? %d.0 / %d : %.4f\n", (int)L.ng + 2, dh, lh);
	gs(&j, "TOP = (fmt eq 'dumb') ? 1 - 2.0 / %d : %.4f\n", dh, top);
	gs(&j, "set datafile missing '?'\nset multiplot title %s noenhanced font ',12'\n",
	   gq(&j, opts && opts->title ? opts->title : "Runs", 0));
	gs(&j, "set xrange [%g:%g]\n", (double)L.rmin - 0.5, (double)L.rmax + 0.5);
	if (L.rmax - L.rmin <= 20)
		gs(&j, "set xtics 1\n");
	gs(&j, "set xlabel 'Run'\nif (fmt ne 'dumb') { set grid ytics lc rgb '#e0e0e0' lt 1 }\n");
	/* From 0, so the size of a difference is seen honestly; 8% headroom. */
	gs(&j, "unset key\nset rmargin 4\nset yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\n");
	for (int m = 0, k = 0; m < 3; m++)
		if (L.has[m])
			draw_panel(&j, &L, files, m, pw * k++, pw);
	draw_legend(&j, &L);
	gs(&j, "unset multiplot\n");
	layout_free(&L);
	return job_end(&j);
}

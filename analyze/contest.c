/* contest.c — the "contest" analysis: ConTest per-load records summarised
 * per group and load (analyze/contest.h C1, C2), laid out as `contest -r`
 * printed them, groups compared load by load (C3), and the grouped-bar
 * charts (analyze/chart.h, drawn by plot/plot.h bl_plot_contest).
 *
 * The `contest -r` layout reproduced is the 2002 one (the era of the logs
 * that carry LoadRuns): "Kernel [runs]" padded to the longest name, then
 * 8-column fields; Time with one decimal, CPU%, Loads and LCPU% rounded to
 * integers, Ratio with two decimals. The group takes the kernel's place.
 * Posted report tables (the contest_report table) are printed back in the
 * same layout, with the values as posted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "core/strmap.h"
#include "analyze/analysis.h"
#include "analyze/contest.h"
#include "core/util.h"
#include "parsers/contest.h"

static const struct {
	const char *name;   /* column */
	int col;            /* enum bl_contest_col */
	int dec;            /* decimals of mean and sd */
} measures[BL_CM_N] = {
	[BL_CM_TIME] = { "time_s", CT_TIME_S, 3 },
	[BL_CM_CPU] = { "cpu_pct", CT_CPU_PCT, 2 },
	[BL_CM_LOAD_RUNS] = { "load_runs", CT_LOAD_RUNS, 2 },
	[BL_CM_LOAD_CPU] = { "load_cpu_pct", CT_LOAD_CPU_PCT, 2 },
	[BL_CM_MAJOR] = { "major_faults", CT_MAJOR_FAULTS, 1 },
	[BL_CM_MINOR] = { "minor_faults", CT_MINOR_FAULTS, 1 },
};

struct cell {
	struct bl_welford w[BL_CM_N];
};

struct grp {
	char *name;
	struct cell *cells;      /* one per load (index into bl_contest.loads) */
	size_t ncells;
	long runs;
	unsigned long records;
};

struct rrow {
	char *load, *kernel;
	bool has_runs;
	long long runs;
	double v[5];             /* time, cpu, loads, lcpu, ratio; NaN = absent */
	double cpulcpu;          /* NaN = absent */
};

/* At most this many groups and loads are held, for every command
 * (analysis.h), in order of first appearance (cells: groups x loads x 384 bytes,
 * 1.5 MB at most); the records of the others are counted, and they are
 * in csv/contest.csv and the Findings (which compare the table itself,
 * C3). The chart draws at most 16 groups and 64 loads of them. A log of
 * 50,000 loads so costs what its bytes cost (issue 34). */
#define CT_KEEP 64
/* Names past those held are counted, not held: the first CT_COUNT of
 * each kind in a set of names alone (about 64 bytes a name); past them
 * the count says "more than", never a wrong number. */
#define CT_COUNT 4096

struct bl_contest {
	struct bl_analysis_opts o;
	struct grp *g;
	size_t ng, capg;
	struct bl_strmap gmap;   /* group name -> index into g */
	struct bl_strmap lmap;   /* load name -> load index; its keys are the loads */
	char **loads;            /* lmap.key */
	size_t nl;
	size_t noload;           /* index of "noload" / "no_load"; (size_t)-1 none */
	unsigned long records_not_kept;   /* records of groups or loads past CT_KEEP */
	struct bl_strmap lpast, gpast;    /* loads, groups past CT_KEEP: the first CT_COUNT */
	bool lmore, gmore;                /* a name came past those too */
	unsigned long records, quoted_left_out;
	struct rrow *rr;
	size_t nrr, caprr;
	unsigned long rr_dropped, rr_quoted_left_out;
};

/* ---- accessors (contest.h) ------------------------------------------ */

const struct bl_welford *bl_contest_cell(const struct bl_contest *c, size_t g, size_t l,
					 enum bl_contest_measure m)
{
	if (g >= c->ng || (unsigned)m >= BL_CM_N || l >= c->g[g].ncells)
		return NULL;
	const struct bl_welford *w = &c->g[g].cells[l].w[m];
	return w->n ? w : NULL;
}

double bl_contest_ratio(const struct bl_contest *c, size_t g, size_t l)
{
	const struct bl_welford *w = bl_contest_cell(c, g, l, BL_CM_TIME);
	const struct bl_welford *b = bl_contest_cell(c, g, c->noload, BL_CM_TIME);
	if (!w || !b || !(bl_welford_mean(b) > 0))
		return NAN;
	return bl_welford_mean(w) / bl_welford_mean(b);
}

size_t bl_contest_baseline(const struct bl_contest *c, bool *found)
{
	if (found)
		*found = true;
	if (c->o.baseline) {
		for (size_t g = 0; g < c->ng; g++)
			if (strcmp(c->g[g].name, c->o.baseline) == 0)
				return g;
		if (found)
			*found = false;
	}
	return 0;
}

/* ---- records ----------------------------------------------------------- */

static void *ct_create(const struct bl_analysis_opts *o)
{
	struct bl_contest *c = bl_xcalloc(1, sizeof *c);
	c->o = *o;
	c->noload = (size_t)-1;
	return c;
}

/* The index of name in m, added when new (*added); -1 when m holds
 * CT_KEEP names already (then counted in past). By hash: 50,000 loads
 * are not compared pairwise. */
static long kept_index(struct bl_strmap *m, struct bl_strmap *past, bool *more, const char *name, bool *added)
{
	*added = false;
	long i = m->n < CT_KEEP ? (long)bl_strmap_get(m, name, added) : bl_strmap_find(m, name);
	if (i < 0)
		bl_names_count(past, CT_COUNT, more, name);
	return i;
}

/* The load's index, added when new; (size_t)-1 as kept_index() says. */
static size_t load_index(struct bl_contest *c, const char *name)
{
	bool added;
	long l = kept_index(&c->lmap, &c->lpast, &c->lmore, name, &added);
	if (added) {
		c->loads = c->lmap.key;
		c->nl = c->lmap.n;
		if (c->noload == (size_t)-1 && (strcmp(name, "noload") == 0 || strcmp(name, "no_load") == 0))
			c->noload = (size_t)l;
	}
	return l < 0 ? (size_t)-1 : (size_t)l;
}

/* The group, added when new; NULL as load_index() says. */
static struct grp *group_of(struct bl_contest *c, const char *name)
{
	bool added;
	long i = kept_index(&c->gmap, &c->gpast, &c->gmore, name, &added);
	if (i < 0 || !added)
		return i < 0 ? NULL : &c->g[i];
	c->g = bl_xgrow(c->g, &c->capg, c->ng + 1, sizeof *c->g);
	struct grp *g = &c->g[c->ng++];
	memset(g, 0, sizeof *g);
	g->name = bl_xstrdup(name);
	return g;
}

static struct cell *cell_of(struct grp *g, size_t l)
{
	if (l >= g->ncells) {
		g->cells = bl_xrealloc(g->cells, (l + 1) * sizeof *g->cells);
		for (size_t i = g->ncells; i <= l; i++)
			for (int m = 0; m < BL_CM_N; m++)
				bl_welford_init(&g->cells[i].w[m]);
		g->ncells = l + 1;
	}
	return &g->cells[l];
}

static void report_row(struct bl_contest *c, const struct bl_record *r)
{
	if (c->nrr >= BL_CONTEST_MAX_REPORT_ROWS) {
		c->rr_dropped++;
		return;
	}
	c->rr = bl_xgrow(c->rr, &c->caprr, c->nrr + 1, sizeof *c->rr);
	struct rrow *w = &c->rr[c->nrr++];
	memset(w, 0, sizeof *w);
	w->load = bl_xstrdup(r->v[CR_LOAD].t == BL_STR ? r->v[CR_LOAD].u.s : "");
	w->kernel = bl_xstrdup(r->v[CR_KERNEL].t == BL_STR ? r->v[CR_KERNEL].u.s : "");
	w->has_runs = r->v[CR_RUNS].t == BL_INT;
	w->runs = w->has_runs ? r->v[CR_RUNS].u.i : 0;
	static const int cols[5] = { CR_TIME_S, CR_CPU_PCT, CR_LOADS, CR_LOAD_CPU_PCT, CR_RATIO };
	for (int i = 0; i < 5; i++)
		w->v[i] = bl_val_nan(&r->v[cols[i]]);
	w->cpulcpu = bl_val_nan(&r->v[CR_CPU_PLUS_LCPU_PCT]);
}

static int ct_record(void *st, const struct bl_record *r)
{
	struct bl_contest *c = st;
	if (r->table == &bl_table_contest_report) {
		if (r->quoted && !c->o.include_quoted)
			c->rr_quoted_left_out++;
		else
			report_row(c, r);
		return 0;
	}
	if (r->table != &bl_table_contest)
		return 0;
	if (r->quoted && !c->o.include_quoted) {
		c->quoted_left_out++;
		return 0;
	}
	if (r->v[CT_LOAD].t != BL_STR)
		return 0;
	struct grp *g = group_of(c, r->group ? r->group : "");
	size_t l = load_index(c, r->v[CT_LOAD].u.s);
	c->records++;
	if (!g || l == (size_t)-1)
		c->records_not_kept++;
	if (!g)
		return 0;
	if (l != (size_t)-1) {
		struct cell *ce = cell_of(g, l);
		for (int m = 0; m < BL_CM_N; m++) {
			double d;
			if (bl_val_num(&r->v[measures[m].col], &d))
				bl_welford_add(&ce->w[m], d);
		}
	}
	if (r->run > g->runs)
		g->runs = r->run;
	g->records++;
	return 0;
}

static bool ct_has_data(void *st)
{
	struct bl_contest *c = st;
	return c->records > 0 || c->nrr > 0;
}

/* ---- writing ---------------------------------------------------------- */

/* s (input text: E7 of core/escape.h, safe on a terminal and in a code
 * block) padded to w columns. */
static void pad(FILE *f, const char *s, size_t w)
{
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_term(&b, s, strlen(s), false);
	fputs(bl_buf_str(&b), f);
	for (size_t n = bl_utf8_chars(bl_buf_str(&b)); n < w; n++)
		fputc(' ', f);
	bl_buf_release(&b);
}

/* A 2002 contest -r field: 8 columns, left-aligned; dec < 0: as read
 * (%.15g). */
static void field(FILE *f, double v, int dec, bool last)
{
	char b[40];
	if (isnan(v))
		snprintf(b, sizeof b, "-");
	else if (isinf(v))
		snprintf(b, sizeof b, "inf");
	else if (dec < 0)
		snprintf(b, sizeof b, "%.15g", v);
	else
		snprintf(b, sizeof b, "%.*f", dec, v);
	if (last)
		fputs(b, f);
	else
		pad(f, b, 8);
}

static double cell_mean(const struct bl_contest *c, size_t g, size_t l, enum bl_contest_measure m)
{
	const struct bl_welford *w = bl_contest_cell(c, g, l, m);
	return w ? bl_welford_mean(w) : NAN;
}

/* How many of n entries a list shows: in report.md the first BL_MD_SHOWN
 * (analysis.h), in text all. */
static size_t shown(size_t n, bool md)
{
	return md && n > BL_MD_SHOWN ? BL_MD_SHOWN : n;
}

/* The contest -r view of the runs: one block per load, one row per group
 * (md: the first BL_MD_SHOWN of each). */
static void write_contest_r(const struct bl_contest *c, FILE *f, bool md)
{
	size_t kw = strlen("Kernel [runs]"), nl = shown(c->nl, md), ng = shown(c->ng, md);
	for (size_t g = 0; g < ng; g++) {
		char *k = bl_xasprintf("%s [%ld]", c->g[g].name, c->g[g].runs);
		size_t w = bl_utf8_chars(k);
		kw = w > kw ? w : kw;
		free(k);
	}
	kw = kw + 2 > 24 ? kw + 2 : 24;
	for (size_t l = 0; l < nl; l++) {
		if (l)
			fputc('\n', f);
		pad(f, c->loads[l], 0);
		fputs(":\n", f);
		pad(f, "Kernel [runs]", kw);
		fputs("Time    CPU%    Loads   LCPU%   Ratio\n", f);
		for (size_t g = 0; g < ng; g++) {
			const struct bl_welford *t = bl_contest_cell(c, g, l, BL_CM_TIME);
			if (!t)
				continue;
			char *k = bl_xasprintf("%s [%llu]", c->g[g].name, t->n);
			pad(f, k, kw);
			free(k);
			field(f, bl_welford_mean(t), 1, false);
			field(f, cell_mean(c, g, l, BL_CM_CPU), 0, false);
			field(f, cell_mean(c, g, l, BL_CM_LOAD_RUNS), 0, false);
			field(f, cell_mean(c, g, l, BL_CM_LOAD_CPU), 0, false);
			field(f, bl_contest_ratio(c, g, l), 2, true);
			fputc('\n', f);
		}
	}
}

/* Posted contest -r tables, printed back as read. */
static void write_report_rows(const struct bl_contest *c, FILE *f)
{
	size_t kw = strlen("Kernel [runs]");
	bool cpl = false;
	for (size_t i = 0; i < c->nrr; i++) {
		size_t w = bl_utf8_chars(c->rr[i].kernel) + (c->rr[i].has_runs ? 3 + (size_t)snprintf(NULL, 0, "%lld", c->rr[i].runs) : 0);
		kw = w > kw ? w : kw;
		cpl = cpl || !isnan(c->rr[i].cpulcpu);
	}
	kw = kw + 2 > 24 ? kw + 2 : 24;
	const char *prev = NULL;
	for (size_t i = 0; i < c->nrr; i++) {
		const struct rrow *r = &c->rr[i];
		if (!prev || strcmp(prev, r->load) != 0) {
			if (prev)
				fputc('\n', f);
			pad(f, r->load[0] ? r->load : "(no title)", 0);
			fputs(":\n", f);
			pad(f, "Kernel [runs]", kw);
			fprintf(f, "Time    CPU%%    Loads   LCPU%%   Ratio%s\n", cpl ? "   CPU+LCPU%" : "");
			prev = r->load;
		}
		char *k = r->has_runs ? bl_xasprintf("%s [%lld]", r->kernel, r->runs) : bl_xstrdup(r->kernel);
		pad(f, k, kw);
		free(k);
		for (int j = 0; j < 5; j++)
			field(f, r->v[j], -1, j == 4 && !cpl);
		if (cpl) {
			if (isnan(r->cpulcpu))
				fputs("-", f);
			else
				fprintf(f, "%.15g", r->cpulcpu);
		}
		fputc('\n', f);
	}
}

/* C3: where the groups are compared (one number, one place). */
static void write_compare(const struct bl_contest *c, FILE *f, enum bl_doc_format fmt)
{
	bool found;
	size_t base = bl_contest_baseline(c, &found);
	bool md = fmt == BL_DOC_MD;
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	if (!found)
		fprintf(f, "%sNo group is named \"%s\"; the baseline is the first group.\n\n",
			md ? "> " : "note: ", bl_esc_doc(&er, c->o.baseline, md));
	fprintf(f, "Each group is compared with %s%s%s (baseline), load by load and measure by "
		   "measure, within one file or mail thread: the change, its interval, the adjusted p "
		   "and the verdict of each are the rows of the Findings (`benchlog compare -t "
		   "contest` prints the same numbers).\n\n",
		md ? "**" : "\"", bl_esc_doc(&er, c->g[base].name, md), md ? "**" : "\"");
	bl_esc_ring_release(&er);
}

static void num(FILE *f, double v, int dec, int width)
{
	if (isnan(v))
		fprintf(f, "%*s", width, "-");
	else
		fprintf(f, "%*.*f", width, dec, v);
}

static void write_details(const struct bl_contest *c, FILE *f, enum bl_doc_format fmt)
{
	bool md = fmt == BL_DOC_MD;
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	if (fmt == BL_DOC_MD)
		bl_md_details_open(f, "Per group and load: n, mean, sd, min, max, ratio");
	if (fmt == BL_DOC_MD)
		fprintf(f, "**Per group and load**: n, mean, sample standard deviation (n - 1), min and max "
			   "of each measure; ratio = mean time / the group's no-load mean time.\n\n");
	else
		fprintf(f, "Per group and load: n, mean, sample sd (n - 1), min, max; ratio = mean time / "
			   "the group's no-load mean time.\n");
	size_t nl = shown(c->nl, md), ng = shown(c->ng, md);
	for (size_t g = 0; g < ng; g++) {
		const struct grp *gr = &c->g[g];
		if (fmt == BL_DOC_MD)
			fprintf(f, "%s: %s, %ld run%s.\n\n| load | measure | n | mean | sd | min | max | ratio |\n"
				   "|---|---|--:|--:|--:|--:|--:|--:|\n", bl_esc_doc(&er, gr->name, md),
				BL_COUNT(gr->records, "record"), gr->runs, gr->runs == 1 ? "" : "s");
		else
			fprintf(f, "\n%s: %s, %ld run%s\n%-14s %-13s %4s %12s %12s %12s %12s %7s\n",
				bl_esc_doc(&er, gr->name, md), BL_COUNT(gr->records, "record"), gr->runs,
				gr->runs == 1 ? "" : "s", "load", "measure",
				"n", "mean", "sd", "min", "max", "ratio");
		for (size_t l = 0; l < nl; l++) {
			bool first = true;
			for (int m = 0; m < BL_CM_N; m++) {
				const struct bl_welford *w = bl_contest_cell(c, g, l, (enum bl_contest_measure)m);
				if (!w)
					continue;
				int dec = measures[m].dec;
				double ratio = m == BL_CM_TIME ? bl_contest_ratio(c, g, l) : NAN;
				double sd = bl_welford_sd(w);
				if (fmt == BL_DOC_MD) {
					fprintf(f, "| %s | %s | %llu | %.*f | ",
						bl_esc_doc(&er, first ? c->loads[l] : "", md),
						measures[m].name, w->n, dec, bl_welford_mean(w));
					if (isnan(sd))
						fputs("- |", f);
					else
						fprintf(f, "%.*f |", dec, sd);
					fprintf(f, " %.15g | %.15g | ", w->min, w->max);
					if (isnan(ratio))
						fputs(m == BL_CM_TIME ? "- |\n" : " |\n", f);
					else
						fprintf(f, "%.2f |\n", ratio);
				} else {
					fprintf(f, "%-14s %-13s %4llu ",
						bl_esc_doc(&er, first ? c->loads[l] : "", md), measures[m].name, w->n);
					num(f, bl_welford_mean(w), dec, 12);
					fputc(' ', f);
					num(f, sd, dec, 12);
					fprintf(f, " %12.15g %12.15g", w->min, w->max);
					if (m == BL_CM_TIME) {
						fputc(' ', f);
						num(f, ratio, 2, 7);
					}
					fputc('\n', f);
				}
				first = false;
			}
		}
		if (fmt == BL_DOC_MD)
			fputc('\n', f);
	}
	if (fmt == BL_DOC_MD)
		bl_md_details_close(f);
	bl_esc_ring_release(&er);
}

/* n loads or groups seen, held or not, less shown: "36", or "more than
 * 4096" when names came past those counted (CT_COUNT). */
static const char *seen(char *b, size_t n, bool more, size_t shown)
{
	snprintf(b, 40, more ? "more than %zu" : "%zu", n - shown);
	return b;
}

static int ct_write(void *st, FILE *f, enum bl_doc_format fmt, const struct bl_chart *charts, size_t nch)
{
	struct bl_contest *c = st;
	bool md = fmt == BL_DOC_MD;
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	size_t nl = c->nl + c->lpast.n, ng = c->ng + c->gpast.n;   /* seen, held or not */
	char b1[40], b2[40];
	if (c->records) {
		fprintf(f, "%lu ConTest record%s of %s load%s in %s group%s (", c->records,
			c->records == 1 ? "" : "s", seen(b1, nl, c->lmore, 0), nl == 1 && !c->lmore ? "" : "s",
			seen(b2, ng, c->gmore, 0), ng == 1 && !c->gmore ? "" : "s");
		for (size_t g = 0; g < shown(c->ng, md); g++)
			fprintf(f, "%s%s: %ld run%s", g ? "; " : "", bl_esc_doc(&er, c->g[g].name, md),
				c->g[g].runs,
				c->g[g].runs == 1 ? "" : "s");
		if (shown(c->ng, md) < ng)
			fprintf(f, "; %s more", seen(b1, ng, c->gmore, shown(c->ng, md)));
		fprintf(f, ").\n");
		if (c->records_not_kept && md)
			fprintf(f, "%lu of the records are of loads or groups past the first %d of each, which the "
				   "report does not hold (not shown): every record is in "
				   "[csv/contest.csv](csv/contest.csv), and the Findings compare them all.\n",
				c->records_not_kept, CT_KEEP);
		else if (c->records_not_kept)
			fprintf(f, "%lu of the records are of loads or groups past the first %d of each, which are "
				   "not held (not shown): `benchlog parse -t contest` writes every record, and "
				   "`benchlog compare -t contest` compares them all.\n", c->records_not_kept, CT_KEEP);
	}
	if (c->quoted_left_out)
		fprintf(f, "%lu quoted record%s (mail replies) left out; use --quoted include to count them.\n",
			c->quoted_left_out, c->quoted_left_out == 1 ? "" : "s");
	fputc('\n', f);
	if (c->records) {
		if (md)
			fprintf(f, "**As `contest -r` reports them** (means of the runs; Ratio = Time / the "
				   "group's no-load Time; the group stands where contest -r put the kernel):\n\n```\n");
		else
			fprintf(f, "As contest -r reports them (means of the runs; Ratio = Time / the group's "
				   "no-load Time):\n\n");
		write_contest_r(c, f, md);
		fputs(md ? "```\n\n" : "\n", f);
		if (md && (shown(c->nl, md) < nl || shown(c->ng, md) < ng)) {
			char b3[40], b4[40];
			fprintf(f, "The first %zu loads of %s and the first %zu groups of %s are shown here and "
				   "below (%s loads and %s groups not shown); every record of all of them is in "
				   "[csv/contest.csv](csv/contest.csv)%s.\n\n",
				shown(c->nl, md), seen(b1, nl, c->lmore, 0), shown(c->ng, md),
				seen(b2, ng, c->gmore, 0), seen(b3, nl, c->lmore, shown(c->nl, md)),
				seen(b4, ng, c->gmore, shown(c->ng, md)), c->records_not_kept ? ""
				: ", and `benchlog summary` on the same inputs prints every one");
		}
		if (c->ng > 1)
			write_compare(c, f, fmt);
		write_details(c, f, fmt);
		if (!md)
			fputc('\n', f);
	}
	if (c->nrr || c->rr_dropped || c->rr_quoted_left_out) {
		if (md)
			fprintf(f, "**Posted `contest -r` tables** read back (%zu row%s, values as posted):\n\n",
				c->nrr, c->nrr == 1 ? "" : "s");
		else
			fprintf(f, "Posted contest -r tables read back (%zu row%s, values as posted):\n\n",
				c->nrr, c->nrr == 1 ? "" : "s");
		if (c->nrr) {
			if (md)
				fputs("```\n", f);
			write_report_rows(c, f);
			fputs(md ? "```\n\n" : "\n", f);
		}
		if (c->rr_dropped)
			fprintf(f, "%lu more report rows not shown.\n\n", c->rr_dropped);
		if (c->rr_quoted_left_out)
			fprintf(f, "%lu quoted report row%s left out; use --quoted include to show them.\n\n",
				c->rr_quoted_left_out, c->rr_quoted_left_out == 1 ? "" : "s");
	}
	if (md)
		bl_charts_md(f, charts, nch);
	bl_esc_ring_release(&er);
	return ferror(f) ? -BL_EIO : 0;
}

/* ---- charts ----------------------------------------------------------- */

#define PLOT_MAX_GROUPS 16
#define PLOT_MAX_LOADS 64

static int ct_charts(void *st, struct bl_chart_spec **specs, size_t *nspecs)
{
	struct bl_contest *c = st;
	if (!c->records)
		return 0;
	size_t ng = c->ng < PLOT_MAX_GROUPS ? c->ng : PLOT_MAX_GROUPS;
	size_t nl = c->nl < PLOT_MAX_LOADS ? c->nl : PLOT_MAX_LOADS;
	struct bl_chart_spec *sp = bl_chart_spec_add(specs, nspecs, BL_CHART_CONTEST, "contest",
		"ConTest: kernel compile time under each load", c->o.range_bars
		? "ConTest time per load and group (bars: mean, error bars: min to max), and ratio to no-load"
		: "ConTest time per load and group (bars: mean, error bars: ± sd), and ratio to no-load");
	struct bl_contest_cell *cells = bl_chart_spec_own(sp, bl_xcalloc(nl * ng, sizeof *cells));
	for (size_t l = 0; l < nl; l++)
		for (size_t g = 0; g < ng; g++) {
			struct bl_contest_cell *x = &cells[l * ng + g];
			const struct bl_welford *w = bl_contest_cell(c, g, l, BL_CM_TIME);
			x->mean = w ? bl_welford_mean(w) : NAN;
			x->sd = w ? bl_welford_sd(w) : NAN;
			x->min = w ? w->min : NAN;
			x->max = w ? w->max : NAN;
			x->n = w ? (size_t)w->n : 0;
			x->ratio = bl_contest_ratio(c, g, l);   /* C2, one place */
		}
	const char **groups = bl_chart_spec_own(sp, bl_xcalloc(ng, sizeof *groups));
	for (size_t g = 0; g < ng; g++)
		groups[g] = c->g[g].name;
	sp->in.contest = (struct bl_contest_plot){
		.loads = (const char *const *)c->loads, .nloads = nl,
		.groups = groups, .ngroups = ng, .cells = cells,
		.errbars = c->o.range_bars ? BL_ERRBAR_MINMAX : BL_ERRBAR_SD,
		.baseline = c->noload < nl ? c->noload : BL_CONTEST_BASELINE_NONE, .value_label = "Time (s)",
	};
	return 0;
}

static void ct_destroy(void *st)
{
	struct bl_contest *c = st;
	if (!c)
		return;
	for (size_t g = 0; g < c->ng; g++) {
		free(c->g[g].name);
		free(c->g[g].cells);
	}
	free(c->g);
	bl_strmap_release(&c->lmap);
	bl_strmap_release(&c->gmap);
	bl_strmap_release(&c->lpast);
	bl_strmap_release(&c->gpast);
	for (size_t i = 0; i < c->nrr; i++) {
		free(c->rr[i].load);
		free(c->rr[i].kernel);
	}
	free(c->rr);
	free(c);
}

const struct bl_analysis bl_analysis_contest = {
	.name = "contest",
	.title = "ConTest",
	.create = ct_create,
	.record = ct_record,
	.has_data = ct_has_data,
	.write = ct_write,
	.charts = ct_charts,
	.destroy = ct_destroy,
};

/* compare.c — C1-C3 of analyze/compare.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "analyze/compare.h"
#include "parsers/labels.h"
#include "core/strmap.h"
#include "core/escape.h"
#include "core/util.h"

static void fmt_pct(char *b, size_t n, double v, enum bl_tabfmt fmt)
{
	if (isnan(v))
		b[0] = '\0';
	else if (isinf(v) && fmt != BL_TAB_CSV)
		snprintf(b, n, "%s", v < 0 ? "-∞" : "+∞");   /* D14: unbounded */
	else if (fmt == BL_TAB_CSV)
		bl_fmt_stat(b, n, v);
	else {
		char t[48];   /* ASCII signs: a terminal's table */
		bl_fmt_pct_person(t, sizeof t, v, false);
		snprintf(b, n, "%s%s%%", v < 0 ? "-" : v > 0 ? "+" : "", t);
	}
}

void bl_fmt_pct_person(char *b, size_t n, double v, bool sign)
{
	if (!n)
		return;
	b[0] = '\0';
	if (isnan(v))
		return;
	const char *sg = !sign || v == 0 ? "" : v < 0 ? "−" : "+";
	double a = fabs(v);
	if (isinf(v))
		snprintf(b, n, "%s∞", sg);
	else if (a == 0)
		snprintf(b, n, "0");
	else if (a >= 9.95)
		snprintf(b, n, "%s%.0f", sg, a);
	else if (a >= 0.995)
		snprintf(b, n, "%s%.1f", sg, a);
	else if (a >= 0.0001) {
		int dec = 1 - (int)floor(log10(a));
		snprintf(b, n, "%s%.*f", sg, dec, a);
	} else
		snprintf(b, n, "%s<0.0001", sg);
}

void bl_fmt_p_person(char *b, size_t n, double p)
{
	if (!n)
		return;
	b[0] = '\0';
	if (isnan(p))
		return;
	if (p < 0.0001)
		snprintf(b, n, "< 0.0001");
	else if (p >= 0.095)
		snprintf(b, n, "%.2g", p);
	else {
		int dec = 1 - (int)floor(log10(p));
		snprintf(b, n, "%.*f", dec, p);
	}
}

/* out cleared to "no test"; with values on both sides, the difference
 * and the change in % of |mean_b| (D14's sign), and true. */
static bool cmp_start(struct bl_cmp *out, bool has_b, bool has_c, double mb, double mc)
{
	memset(out, 0, sizeof *out);
	out->diff = out->pct = out->detect_pct = out->p_adj = out->p_holm = out->p_bh = NAN;
	out->ci.pct = out->ci.pct_lo = out->ci.pct_hi = NAN;
	out->ci_raw = out->ci;
	out->mb = mb;
	out->mc = mc;
	out->vb = out->vc = NAN;
	out->kind = BL_V_NO_TEST;
	out->verdict = bl_verdict_kind_name(out->kind);
	if (!has_b || !has_c) {
		out->note = !has_b ? "no baseline values here" : "no candidate values here";
		return false;
	}
	out->diff = mc - mb;
	out->pct = mb != 0 ? 100.0 * out->diff / fabs(mb) : NAN;
	return true;
}

/* C2 once out->t is the test's (out from cmp_start): its note when the
 * test is undefined (false), else D14's interval of the change from the
 * variances of the two means vb, vc (nonneg: no value is negative) and
 * D16's detectable change (true). */
static bool cmp_tested(struct bl_cmp *out, double vb, double vc, bool nonneg, double conf)
{
	if (!out->t.ok) {
		out->note = out->t.note ? out->t.note : "test undefined for these values";
		return false;
	}
	out->tested = true;
	out->vb = vb;
	out->vc = vc;
	out->nonneg = nonneg;
	bl_fieller(out->mb, vb, out->mc, vc, out->t.df, conf, nonneg, &out->ci);
	out->ci_raw = out->ci;
	if (isfinite(out->t.df) && out->mb != 0)   /* D16 */
		out->detect_pct = 100.0 * bl_detectable_diff(out->t.se, out->t.df, 1.0 - conf, 0.8) / fabs(out->mb);
	return true;
}

int bl_compare_pair(const struct bl_welford *base, const struct bl_welford *cand,
		    double conf, enum bl_cmp_test test, bool means,
		    struct bl_cmp *out)
{
	if (!base || !cand || !out || !(conf > 0 && conf < 1))
		return -BL_EUSAGE;
	double mb = bl_welford_mean(base), mc = bl_welford_mean(cand);
	if (!cmp_start(out, base->n > 0, cand->n > 0, mb, mc))
		return 0;
	if (means && (base->n < 3 || cand->n < 3)) {
		out->means_only = true;
		out->note = "averages alone (no per-run data) allow no test";
		return 0;
	}
	if (bl_test_power_too_low(base->n, cand->n)) {
		out->low_power = true;
		out->note = "fewer than 3 values on a side: too few to detect any difference";
		return 0;
	}
	int rc = test == BL_CMP_STUDENT ? bl_student_pooled(base, cand, conf, &out->t)
		: bl_welch(base, cand, conf, &out->t);
	if (rc)
		return rc;
	/* D14 with the test's own variance of the difference split by side:
	 * D6's (or D7's pooled) s^2 / n, and its df */
	double sp2 = out->t.pooled_sd * out->t.pooled_sd;
	double vb = test == BL_CMP_STUDENT ? sp2 : bl_welford_var(base);
	double vc = test == BL_CMP_STUDENT ? sp2 : bl_welford_var(cand);
	if (!cmp_tested(out, vb / (double)base->n, vc / (double)cand->n, base->min >= 0 && cand->min >= 0, conf))
		return 0;
	out->diff = out->t.diff;
	out->note = means ? "each value is already a mean of runs" : out->t.note;
	return 0;
}

/* D6a: values on a side that span a factor of 10 or more, every value
 * > 0, are compared on the log scale (runs that stall for minutes beside
 * runs of a fifth of a second: the mean is that of the stalls). */
static bool heavy_tailed(const struct bl_welford *b, const struct bl_welford *c)
{
	return b->min > 0 && c->min > 0 && !bl_test_power_too_low(b->n, c->n) &&
	       (b->max >= 10 * b->min || c->max >= 10 * c->min);
}

/* D6a: a difference of ln values as a change in %; past 10^12 % (a
 * factor of 10^10) unbounded, as D14 writes it */
static double geo_pct(double d)
{
	double v = 100 * expm1(d);
	return v > 1e12 ? INFINITY : v;
}

/* D6a's interval of r's change at conf, exp of the t interval of the
 * difference of the ln means, and D16's change at 1 - conf, in %. */
static void geo_ci(struct bl_cmp *r, double conf)
{
	double d = r->t.diff, se = r->t.se;
	double q = se > 0 ? gsl_cdf_tdist_Pinv(0.5 + conf / 2, r->t.df) : 0;
	r->ci = (struct bl_ratio_ci){ geo_pct(d), geo_pct(d - q * se), geo_pct(d + q * se), r->t.df, true, false, 1 };
	r->detect_pct = isfinite(r->t.df) ? geo_pct(bl_detectable_diff(se, r->t.df, 1.0 - conf, 0.8)) : NAN;
}

/* D6a: C2 with the test on ln values (lb, lc: their Welford summaries),
 * the change that of the geometric means; diff stays that of the means
 * (b, c: the values' summaries), as the sides show them. */
static void compare_geo(const struct bl_welford *b, const struct bl_welford *c, const struct bl_welford *lb,
			const struct bl_welford *lc, double conf, enum bl_cmp_test test, struct bl_cmp *out)
{
	bl_compare_pair(lb, lc, conf, test, false, out);
	out->geo = true;
	out->mb = exp(bl_welford_mean(lb));
	out->mc = exp(bl_welford_mean(lc));
	out->diff = bl_welford_mean(c) - bl_welford_mean(b);
	out->pct = geo_pct(bl_welford_mean(lc) - bl_welford_mean(lb));
	if (!out->tested)
		return;
	geo_ci(out, conf);
	out->ci_raw = out->ci;
	out->t.ci_lo = out->t.ci_hi = NAN;   /* an interval of ln values' difference */
	out->note = "values on a side span a factor of 10 or more: the change of the geometric means, "
		    "the test on ln values (D6a)";
}

size_t bl_compare_adjust_p(double *p, size_t n, double *bonf, double *holm)
{
	size_t m = bl_p_holm(p, n, holm);
	for (size_t i = 0; i < n; i++)   /* D12: Bonferroni, for verdicts */
		bonf[i] = isnan(p[i]) ? NAN : fmin(1.0, (double)m * p[i]);
	bl_p_bh(p, n, p);
	return m;
}

void bl_compare_judge(struct bl_cmp *r, double alpha, double band_pct, int better, size_t m)
{
	double a = m > 1 ? alpha / (double)m : alpha;   /* D12: the family's level */
	if (r->tested && r->geo) {
		geo_ci(r, 1.0 - a);   /* D6a at 1 - alpha / m */
	} else if (r->tested && !isnan(r->vb)) {
		/* D14 at 1 - alpha / m: the interval the verdict rests on */
		bl_fieller(r->mb, r->vb, r->mc, r->vc, r->t.df, 1.0 - a, r->nonneg, &r->ci);
		/* D16 at alpha / m, also when the two means are equal */
		if (isfinite(r->t.df) && r->mb != 0)
			r->detect_pct = 100.0 * bl_detectable_diff(r->t.se, r->t.df, a, 0.8) / fabs(r->mb);
	}
	double p = r->tested ? r->p_adj : NAN;
	r->kind = bl_judge(r->pct, r->ci.pct_lo, r->ci.pct_hi, p, alpha, band_pct, better,
			   r->low_power, r->means_only);
	r->verdict = bl_verdict_kind_name(r->kind);
}

const char *bl_cmp_verdict_words(enum bl_verdict_kind k, const char *column, double pct)
{
	if (k != BL_V_BETTER && k != BL_V_WORSE && k != BL_V_HIGHER && k != BL_V_LOWER)
		return bl_verdict_kind_name(k);
	bool up = pct > 0;
	const char *c = column ? column : "";
	if (strstr(c, "fault"))
		return up ? "more faults" : "fewer faults";
	static const char *const time_suf[] = { "_s", "_ms", "_us", "_ns", NULL };
	static const char *const mem_suf[] = { "_kib", "_kb", "_mib", "bytes", "bytes_allocated", NULL };
	if (bl_ends_any(c, time_suf, false) || strcmp(c, "time") == 0)
		return up ? "slower" : "faster";
	if (bl_ends_any(c, mem_suf, false) || strcmp(c, "swpd") == 0 || strcmp(c, "free") == 0 ||
	    strstr(c, "rss"))
		return up ? "more memory" : "less memory";
	return up ? "higher" : "lower";
}

int bl_band_parse(char *s, struct bl_band *b)
{
	char *eq = strchr(s, '=');
	char *num = eq ? eq + 1 : s;
	size_t len = strlen(num);
	double d;
	if (len && num[len - 1] == '%')
		len--;
	if ((eq && eq == s) || bl_parse_double(num, len, &d) < 0 || !(d >= 0 && d < 1e6))
		return -BL_EFORMAT;
	if (eq)
		*eq = '\0';
	b->column = eq ? s : NULL;
	b->pct = d;
	return 0;
}

double bl_band_for(const struct bl_compare_opts *o, const char *column)
{
	double all = 1.0, named = NAN;
	for (size_t i = 0; o && i < o->nbands; i++) {
		if (!o->bands[i].column)
			all = o->bands[i].pct;
		else if (column && strcmp(o->bands[i].column, column) == 0)
			named = o->bands[i].pct;
	}
	return isnan(named) ? all : named;
}

/* ---- output ------------------------------------------------------------- */

static const char *test_name(enum bl_cmp_test t)
{
	return t == BL_CMP_STUDENT ? "Student's t-test, pooled variance" : "Welch's t-test";
}

static void fmt_p(char *b, size_t n, double p, enum bl_tabfmt fmt)
{
	if (isnan(p))
		b[0] = '\0';
	else if (fmt == BL_TAB_CSV)
		bl_fmt_stat(b, n, p);
	else if (p < 1e-4)
		snprintf(b, n, "%.1e", p);
	else
		snprintf(b, n, "%.3g", p);
}

/* One side's summary: n, mean, CI half-width, median. */
struct side {
	long g, c;            /* the cell: group, column */
	bool has;
	struct bl_cellstat cs;
	double median;
	double ci;
};

static void side_get(struct bl_tstats *ts, size_t t, long g, long c, double conf, struct side *s)
{
	static const double p50 = 50;
	memset(s, 0, sizeof *s);
	s->g = g;
	s->c = c;
	s->median = s->ci = NAN;
	bl_welford_init(&s->cs.w);
	if (g < 0)
		return;
	s->has = bl_tstats_cell(ts, t, (size_t)g, c, &p50, 1, BL_PCT_TYPE7, &s->cs, &s->median);
	if (s->has)
		s->ci = bl_ci_half(s->cs.sd, s->cs.w.n, conf);
}

static void put_side(struct bl_outtab *tab, size_t *col, const struct side *s, enum bl_tabfmt fmt)
{
	bl_outtab_setf(tab, (*col)++, "%llu", s->cs.w.n);
	bl_outtab_setnum(tab, (*col)++, bl_welford_mean(&s->cs.w), fmt);
	bl_outtab_setnum(tab, (*col)++, s->ci, fmt);
	bl_outtab_setnum(tab, (*col)++, s->median, fmt);
}

/* Every comparison of the run, made in a first walk over the tables
 * (bl_compare_rows) into rows->spill (C6) and read back from there,
 * adjusted and judged with the analyses' own (C3, C4), in the second,
 * which prints (bl_compare_write). */
struct cmp_run {
	size_t n;                    /* first walk: comparisons made */
	bool printing;
	struct bl_cmp_rows *rows;    /* first walk: where they go */
	const struct bl_cmp_rows *done;   /* second walk: the judged family */
	size_t next;                 /* second walk: the next row of done */
	struct bl_cmp_row cur;       /* second walk: the row read back */
	bool mismatch;               /* done is not the first walk's result */
	bool ioerr;                  /* the spill could not be read (errno) */
	FILE *f;                     /* second walk: CSV goes out a page at a time */
	char *head;                  /* second walk: the text table's heading, until written */
	bool *any_text;              /* second walk: a text table was written */
};

/* CSV rows written out and dropped every CMP_PAGE rows: compare's
 * output is one header and its rows, so the bytes are those of one
 * write at the end; memory holds a page (issue 34). */
#define CMP_PAGE 10000
/* C7: groups a table may have, so that 32-bit indexes (and a set's rank,
 * below twice the sets) hold them */
#define CMP_MAX_GROUPS ((size_t)INT32_MAX)
static void csv_page(struct cmp_run *run, struct bl_outtab *all)
{
	if (all->nrows >= CMP_PAGE)
		bl_outtab_flush(all, run->f, BL_TAB_CSV);
}

void bl_cmp_row_clear(struct bl_cmp_row *w)
{
	free(w->baseline);
	free(w->candidate);
	free(w->block);
	memset(w, 0, sizeof *w);
}

static bool owned(const struct bl_cmp_rows *r, const char *t)
{
	for (size_t i = 0; r && i < r->nown; i++)
		if (strcmp(r->own[i], t) == 0)
			return true;
	return false;
}

/* C4: table t of ts is one of rows->own (by its name or, for a CSV file
 * not named after its table, the benchlog table its header shows): an
 * analysis compares it, not the walk. rows may be NULL (false). */
static bool compare_owned(const struct bl_cmp_rows *rows, const struct bl_tstats *ts, size_t t)
{
	const struct bl_table_def *def = bl_tstats_def(ts, t);
	return owned(rows, bl_tstats_table(ts, t)) || (def && owned(rows, def->name));
}

/* C4 in a walk: the family it fills or prints. */
static bool owned_table(const struct cmp_run *run, const struct bl_tstats *ts, size_t t)
{
	return compare_owned(run->printing ? run->done : run->rows, ts, t);
}

/* Second walk: the judged row of the comparison about to be printed,
 * read back from the spill (the walk's rows come in the first walk's
 * order; the analyses' own come after them), or NULL when done does not
 * match (a caller's error) or the spill cannot be read. */
static const struct bl_cmp_row *next_row(struct cmp_run *run, const char *table, const char *col,
					 const char *cand)
{
	struct bl_cmp_row *w = &run->cur;
	bl_cmp_row_clear(w);
	if (run->next < bl_cmp_spill_n(run->done->spill) && bl_cmp_spill_get(run->done->spill, run->next++, w)) {
		run->ioerr = true;
		return NULL;
	}
	if (!w->table || w->own || strcmp(w->table, table) != 0 || strcmp(w->column, col) != 0 ||
	    strcmp(w->candidate, cand) != 0) {
		run->mismatch = true;
		return NULL;
	}
	return w;
}

struct tabctx {
	struct cmp_run *run;
	struct bl_tstats *ts;
	size_t t;
	const struct bl_compare_opts *o;
	struct bl_compare_counts *k;
	size_t ng;                 /* group columns; the last is compared */
	struct bl_strmap sets;        /* compared values, in order */
	struct bl_strmap blocks;      /* --by keys, in order */
	/* C7: 32-bit indexes (at most CMP_MAX_GROUPS groups a table) */
	uint32_t *set_of;          /* per group: its set */
	uint32_t *block_of;        /* per group, while tabctx_init matches */
	/* the groups of each block, by set: block b's are entries
	 * bstart[b]..bstart[b+1]-1 of bgroup, in set order (a block holds
	 * few of the sets: a dense blocks x sets table grew with the square
	 * of the inputs in a folder) */
	uint32_t *bstart, *bgroup;
	uint32_t *rank;            /* each set's place (C1) */
	size_t base;               /* baseline set; SIZE_MAX: none in this ts */
	uint32_t *bbase;           /* each block's baseline set (C1: its source's), or NULL: base */
	bool means;                /* R2 */
	const char *runs_col;
	bool nest;                 /* C1: the compared column is R5's group */
};

static void tabctx_release(struct tabctx *x)
{
	bl_strmap_release(&x->sets);
	bl_strmap_release(&x->blocks);
	free(x->set_of);
	free(x->block_of);
	free(x->bstart);
	free(x->bgroup);
	free(x->bbase);
	free(x->rank);
}

/* The group of set s in block b, or -1. */
static long block_cell(const struct tabctx *x, size_t b, size_t s)
{
	for (size_t i = x->bstart[b]; i < x->bstart[b + 1]; i++)
		if (x->set_of[x->bgroup[i]] == s)
			return (long)x->bgroup[i];
	return -1;
}

static void csv_header(struct bl_outtab *tab, const char *const *byu, size_t nbyu, double conf)
{
	char ci[32];
	snprintf(ci, sizeof ci, "ci%g", conf * 100);
	bl_outtab_col(tab, "table", false);
	for (size_t k = 0; k < nbyu; k++)
		bl_outtab_col(tab, byu[k], false);
	static const char *const names[] = {
		"column", "better", "baseline", "candidate", "base_n", "base_mean", "base_ci",
		"base_median", "cand_n", "cand_mean", "cand_ci", "cand_median", "diff", "diff_lo",
		"diff_hi", "pct_change", "pct_lo", "pct_hi", "t", "df", "p", "p_holm", "p_bh",
		"tests", "negligible_pct", "detectable_pct", "test", "confidence", "verdict", "note",
		"by", "p_adj", "pct_lo_unadj", "pct_hi_unadj",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *n = names[i];
		char buf[40];
		if (strcmp(n, "base_ci") == 0 || strcmp(n, "cand_ci") == 0) {
			snprintf(buf, sizeof buf, "%.5s%s", n, ci);
			n = buf;
		}
		bl_outtab_col(tab, n, i >= 4 && i != 26 && i != 28 && i != 29 && i != 30);
	}
}

/* C5: a text table with its heading, fitted to o->width: the columns
 * that matter least left out first (the note, which the footer explains,
 * then median, the CI of each mean, diff, raw p, m, n, mean), then long
 * names cut with "…"; a line under the table says what is not shown. */
static void text_table(FILE *f, const char *head, struct bl_outtab *tab, const struct bl_compare_opts *o)
{
	char ci[40];
	snprintf(ci, sizeof ci, "ci%g", o->confidence * 100);
	const char *const drop[] = { "note", "median", ci, "diff", "p", "m", "n", "mean", NULL };
	static const char *const keep[] = { "verdict", "interval of change", NULL };
	size_t width = o->fmt == BL_TAB_TEXT ? o->width : 0;
	char *dropped = NULL;
	bool cut = false;
	bl_text_wrap(f, head, width);
	if (width)
		bl_outtab_fit(tab, width, drop, keep, &dropped, &cut);
	bl_outtab_write(tab, f, o->fmt);
	if (dropped || cut) {
		char *s = bl_xasprintf("(%zu columns:%s%s%s%s; every column with -f csv)\n", width,
				       dropped ? " not shown: " : "", dropped ? dropped : "",
				       dropped && cut ? ";" : "", cut ? " long names cut with \u2026" : "");
		bl_text_wrap(f, s, width);
		free(s);
	}
	free(dropped);
}

/* The text or Markdown rows so far, after run->head when not yet written
 * (then freed). */
static void text_flush(struct cmp_run *run, struct bl_outtab *tab, const struct bl_compare_opts *o)
{
	if (!tab->nrows)
		return;
	if (run->head && *run->any_text)
		fputc('\n', run->f);
	*run->any_text = true;
	text_table(run->f, run->head ? run->head : "", tab, o);
	free(run->head);
	run->head = NULL;
}

/* Before a text or Markdown row: a full page (CMP_PAGE rows) written and
 * dropped, a blank line after it, its columns kept for the next. Memory
 * holds a page, each fitted to its own widths as `stats` pages (issue
 * 34); a table of at most CMP_PAGE rows is one page, as it always was.
 * true when a page went out. */
static bool text_page(struct cmp_run *run, struct bl_outtab *tab, const struct bl_compare_opts *o)
{
	if (tab->nrows < CMP_PAGE)
		return false;
	struct bl_outtab next;
	bl_outtab_init(&next);
	for (size_t c = 0; c < tab->ncols; c++)
		bl_outtab_col(&next, tab->head[c], tab->right[c]);
	text_flush(run, tab, o);
	fputc('\n', run->f);
	bl_outtab_release(tab);
	*tab = next;
	return true;
}

static void text_header(struct bl_outtab *tab, struct tabctx *x)
{
	char ci[40];
	for (size_t k = 0; k + 1 < x->ng; k++)
		bl_outtab_col(tab, bl_tstats_gcol(x->ts, x->t, k), false);
	bl_outtab_col(tab, bl_tstats_gcol(x->ts, x->t, x->ng - 1), false);
	snprintf(ci, sizeof ci, "ci%g", x->o->confidence * 100);
	bl_outtab_col(tab, "n", true);
	bl_outtab_col(tab, "mean", true);
	bl_outtab_col(tab, ci, true);
	bl_outtab_col(tab, "median", true);
	bl_outtab_col(tab, "diff", true);
	bl_outtab_col(tab, "change", true);
	bl_outtab_col(tab, "interval of change", false);
	bl_outtab_col(tab, "p", true);
	bl_outtab_col(tab, "p adj", true);
	bl_outtab_col(tab, "m", true);
	bl_outtab_col(tab, "verdict", false);
	bl_outtab_col(tab, "note", false);
}

/* "lower", "higher" or "" (R1 of analyze/table_stats.h). */
static const char *better_name(enum bl_better b)
{
	return b == BL_BETTER_LOWER ? "lower" : b == BL_BETTER_HIGHER ? "higher" : "";
}

/* A row about to be printed counted in k; for "no detectable change",
 * r->note becomes D16's change (in note[0..n)) and the row's own note. */
static void count_row(struct bl_compare_counts *k, struct bl_cmp *r, char *note, size_t n)
{
	k->low_power += r->low_power;
	k->means_only += r->means_only;
	if (r->kind == BL_V_NO_CHANGE && isfinite(r->detect_pct)) {
		char d[48];
		bl_fmt_pct_person(d, sizeof d, r->detect_pct, false);
		snprintf(note, n, "changes under ±%s%% cannot be detected (80%% power)%s%s",
			 d, r->note ? "; " : "", r->note ? r->note : "");
		r->note = note;
	}
}

/* The named copy of a comparison being made (bl_compare_rows). */
static struct bl_cmp_row *row_named(struct tabctx *x, struct bl_cmp_rows *rows, const char *cname, size_t gc,
				     size_t base, size_t set, const struct side *sb, const struct side *sc, int better,
				     double band)
{
	struct bl_cmp_row *w = bl_cmp_rows_add(rows, bl_tstats_table(x->ts, x->t), cname,
					       x->sets.key[base], x->sets.key[set], NULL);
	struct bl_buf b = BL_BUF_INIT((size_t)1 << 20);
	bl_buf_add(&b, "", 0);
	for (size_t k = 0; k + 1 < x->ng; k++) {
		const char *name = bl_tstats_gcol(x->ts, x->t, k);
		const char *v = bl_tstats_gval(x->ts, x->t, gc, k);
		if (strcmp(name, "source") == 0) {
			w->source = v;
			continue;
		}
		if (strcmp(name, "message_id") == 0) {
			w->thread_ref = bl_tstats_thread_ref(x->ts, v, &w->message_id);
			continue;
		}
		if (b.len)
			bl_buf_add(&b, ", ", 2);
		bl_buf_add(&b, v, strlen(v));
	}
	const char *v = bl_tstats_gval(x->ts, x->t, gc, x->ng - 1);
	struct bl_nested ng;
	if (x->nest && bl_label_nested(v, &ng)) {
		if (b.len)
			bl_buf_add(&b, ", ", 2);
		bl_buf_add(&b, v + ng.key_off, ng.key_len);
	}
	w->block = bl_xstrdup(bl_buf_str(&b));
	bl_buf_release(&b);
	w->test = x->o->test == BL_CMP_STUDENT ? "student" : "welch";
	w->better = better;
	w->band = band;
	w->n_base = sb->cs.w.n;
	w->n_cand = sc->cs.w.n;
	w->mean_base = bl_welford_mean(&sb->cs.w);
	w->mean_cand = bl_welford_mean(&sc->cs.w);
	return w;
}

/* First walk: the comparison of set s (group gc) with base made,
 * named and written out at once (C6). */
static void made(struct tabctx *x, const char *cname, size_t gc, size_t base, size_t s,
		 const struct side *sb, const struct side *sc, int better)
{
	struct cmp_run *run = x->run;
	double band = bl_band_for(x->o, cname);
	struct bl_cmp_row *w = row_named(x, run->rows, cname, gc, base, s, sb, sc, better, band);
	struct bl_welford lb, lc;
	if (!x->means && heavy_tailed(&sb->cs.w, &sc->cs.w) && bl_tstats_cell_log(x->ts, x->t, (size_t)sb->g, sb->c, &lb) &&
	    bl_tstats_cell_log(x->ts, x->t, (size_t)sc->g, sc->c, &lc)) {
		compare_geo(&sb->cs.w, &sc->cs.w, &lb, &lc, x->o->confidence, x->o->test, &w->r);
		w->test = x->o->test == BL_CMP_STUDENT ? "student, ln values" : "welch, ln values";
	} else {
		bl_compare_pair(&sb->cs.w, &sc->cs.w, x->o->confidence, x->o->test, x->means, &w->r);
	}
	bl_cmp_spill_put(run->rows->spill, w);
	run->rows->n--;
	run->n++;
}

/* A CSV line of row w (r: its comparison, with count_row's note): the
 * walk's with both sides' summaries sb, sc; an analysis's own (C4, sb
 * NULL) without the sides' CI and median. The --by columns (after
 * "table") are left for the caller; an analysis's block goes in "by". */
static void csv_line(struct bl_outtab *tab, const struct bl_cmp_row *w, const struct bl_cmp *r, size_t nbyu,
		     const struct bl_compare_opts *o, const struct side *sb, const struct side *sc)
{
	enum bl_tabfmt fmt = o->fmt;
	size_t col = 0;
	bl_outtab_row(tab);
	bl_outtab_set(tab, col++, w->table);
	col += nbyu;
	bl_outtab_set(tab, col++, w->column);
	bl_outtab_set(tab, col++, better_name((enum bl_better)w->better));
	bl_outtab_set(tab, col++, w->baseline);
	bl_outtab_set(tab, col++, w->candidate);
	for (int k = 0; k < 2; k++) {
		const struct side *sd = k ? sc : sb;
		if (sd) {
			put_side(tab, &col, sd, fmt);
			continue;
		}
		bl_outtab_setf(tab, col++, "%llu", k ? w->n_cand : w->n_base);
		bl_outtab_setnum(tab, col++, k ? w->mean_cand : w->mean_base, fmt);
		col += 2;
	}
	double v[] = {
		r->diff, r->tested ? r->t.ci_lo : NAN, r->tested ? r->t.ci_hi : NAN, r->pct,
		r->tested ? r->ci.pct_lo : NAN, r->tested ? r->ci.pct_hi : NAN, r->tested ? r->t.t : NAN,
		r->tested ? r->t.df : NAN, r->tested ? r->t.p : NAN, r->p_holm, r->p_bh,
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		bl_outtab_setnum(tab, col++, v[i], fmt);
	bl_outtab_setf(tab, col++, "%zu", w->family);
	bl_outtab_setnum(tab, col++, w->band, fmt);
	bl_outtab_setnum(tab, col++, r->detect_pct, fmt);
	bl_outtab_set(tab, col++, w->test ? w->test : "");
	bl_outtab_setnum(tab, col++, o->confidence, fmt);
	bl_outtab_set(tab, col++, r->verdict);
	bl_outtab_set(tab, col++, r->note ? r->note : "");
	bl_outtab_set(tab, col++, w->block ? w->block : "");
	bl_outtab_setnum(tab, col++, r->p_adj, fmt);
	bl_outtab_setnum(tab, col++, r->tested ? r->ci_raw.pct_lo : NAN, fmt);
	bl_outtab_setnum(tab, col++, r->tested ? r->ci_raw.pct_hi : NAN, fmt);
}

/* Text: a judged row's cells from column col on: the change, its
 * interval, p, p adj, m, the verdict and the note (r: row w's comparison,
 * with count_row's note); blank where untested. */
static void put_judged(struct bl_outtab *tab, size_t col, const struct bl_cmp_row *w, const struct bl_cmp *r,
		       enum bl_tabfmt fmt)
{
	char num[48], b1[48] = "", b2[48];
	fmt_pct(num, sizeof num, r->pct, fmt);
	bl_outtab_set(tab, col++, num);
	if (r->tested) {
		fmt_pct(b1, sizeof b1, r->ci.pct_lo, fmt);
		fmt_pct(b2, sizeof b2, r->ci.pct_hi, fmt);
	}
	if (b1[0])
		bl_outtab_setf(tab, col, "[%s, %s]", b1, b2);
	else
		bl_outtab_set(tab, col, "");
	col++;
	fmt_p(num, sizeof num, r->tested ? r->t.p : NAN, fmt);
	bl_outtab_set(tab, col++, num);
	fmt_p(num, sizeof num, r->tested ? r->p_adj : NAN, fmt);
	bl_outtab_set(tab, col++, num);
	if (r->tested)
		bl_outtab_setf(tab, col, "%zu", w->family);
	col++;
	bl_outtab_set(tab, col++, r->verdict);
	bl_outtab_set(tab, col, r->note ? r->note : "");
}

/* Text: the baseline line of block any's group (its by-values, the
 * baseline and its summary), when it has values; false when not. */
static bool base_line(struct tabctx *x, struct bl_outtab *tab, long any, long gb, const struct side *sb)
{
	size_t col = 0;
	if (!sb->has)
		return false;
	bl_outtab_row(tab);
	for (size_t k = 0; k + 1 < x->ng; k++, col++)
		bl_outtab_set(tab, col, bl_tstats_gval(x->ts, x->t, (size_t)any, k));
	bl_outtab_set(tab, col++, bl_tstats_gval(x->ts, x->t, (size_t)gb, x->ng - 1));
	put_side(tab, &col, sb, x->o->fmt);
	for (; col < tab->ncols; col++)
		bl_outtab_set(tab, col, "");
	return true;
}

/* Rows of one column (c) for every block: the first walk makes them
 * (tab unused, may be NULL), the second prints them into tab. */
static void column_rows(struct tabctx *x, struct bl_outtab *tab, long c, const char *cname,
			const char *const *byu, size_t nbyu)
{
	enum bl_tabfmt fmt = x->o->fmt;
	bool csv = fmt == BL_TAB_CSV;
	int better = bl_tstats_better(x->ts, x->t, cname);
	char num[48];
	for (size_t b = 0; b < x->blocks.n; b++) {
		/* C1: without --baseline, a block whose sets do not include
		 * the table's first set compares with its own first set */
		size_t lo = x->bstart[b], hi = x->bstart[b + 1];
		size_t base = x->bbase ? x->bbase[b] : x->base;
		long gb = block_cell(x, b, base);
		if (gb < 0 && !x->o->baseline && lo < hi) {
			base = x->set_of[x->bgroup[lo]];
			gb = (long)x->bgroup[lo];
		}
		struct side sb;
		side_get(x->ts, x->t, gb, c, x->o->confidence, &sb);
		/* the by-values of this block, from any of its groups */
		long any = lo < hi ? (long)x->bgroup[lo] : -1;
		bool first = true;
		if (!csv && x->run->printing) {
			text_page(x->run, tab, x->o);
			first = !base_line(x, tab, any, gb, &sb);
		}
		for (size_t i = lo; i < hi; i++) {
			size_t s = x->set_of[x->bgroup[i]];
			if (s == base)
				continue;
			long gc = (long)x->bgroup[i];
			struct side sc;
			side_get(x->ts, x->t, gc, c, x->o->confidence, &sc);
			if (!sc.has)
				continue;
			struct cmp_run *run = x->run;
			if (!run->printing) {
				made(x, cname, (size_t)gc, base, s, &sb, &sc, better);
				continue;
			}
			const struct bl_cmp_row *w = next_row(run, bl_tstats_table(x->ts, x->t), cname,
							      x->sets.key[s]);
			if (!w)
				continue;
			struct bl_cmp r = w->r;
			char note[200];
			count_row(x->k, &r, note, sizeof note);
			if (csv) {
				csv_line(tab, w, &r, nbyu, x->o, &sb, &sc);
				for (size_t j = 0; j < nbyu; j++)
					for (size_t k = 0; k + 1 < x->ng; k++)
						if (strcmp(bl_tstats_gcol(x->ts, x->t, k), byu[j]) == 0)
							bl_outtab_set(tab, 1 + j, bl_tstats_gval(x->ts, x->t, (size_t)gc, k));
				csv_page(x->run, tab);
				continue;
			}
			size_t col = 0;
			if (text_page(run, tab, x->o))   /* a page names its block */
				first = !base_line(x, tab, any, gb, &sb);
			bl_outtab_row(tab);
			for (size_t k = 0; k + 1 < x->ng; k++, col++)
				bl_outtab_set(tab, col, first ? bl_tstats_gval(x->ts, x->t, (size_t)gc, k) : "");
			first = false;
			bl_outtab_set(tab, col++, bl_tstats_gval(x->ts, x->t, (size_t)gc, x->ng - 1));
			put_side(tab, &col, &sc, fmt);
			if (isnan(r.diff))
				bl_outtab_set(tab, col, NULL);
			else
				bl_outtab_setf(tab, col, "%s%s", r.diff > 0 ? "+" : "",
					       bl_outtab_num(num, sizeof num, r.diff, fmt));
			put_judged(tab, col + 1, w, &r, fmt);
		}
	}
}

/* The values of group g's group columns from..n-1, '\x1f'-joined, after
 * the first from already in key (from 0: key emptied first). */
static const char *gkey(struct tabctx *x, size_t g, size_t from, size_t n, struct bl_buf *key)
{
	if (!from) {
		bl_buf_reset(key);
		bl_buf_add(key, "", 0);
	}
	for (size_t k = from; k < n; k++) {
		const char *v = bl_tstats_gval(x->ts, x->t, g, k);
		if (k)
			bl_buf_addc(key, '\x1f');
		bl_buf_add(key, v, strlen(v));
	}
	return key->data;
}

/* C1 by source: without --baseline, the blocks of one source (the
 * leading group columns source and message_id: one file, or one mail
 * thread) share the baseline their source's groups give, the first set
 * seen in that source whose label names the baseline side, else the
 * first set seen in it; not the table's, which another thread of the
 * same mbox may have set. The number of those leading columns (0: the
 * table's baseline), for tabctx_init to read each group's values once:
 * a source's are the start of its block's. */
static size_t source_cols(struct tabctx *x)
{
	size_t nsrc = 0;
	while (!x->o->baseline && nsrc + 1 < x->ng &&
	       (strcmp(bl_tstats_gcol(x->ts, x->t, nsrc), "source") == 0 ||
		strcmp(bl_tstats_gcol(x->ts, x->t, nsrc), "message_id") == 0))
		nsrc++;
	return nsrc;
}

/* What C1's sentences of a table need, over one walk's table (apart())
 * or every input drained (C8). */
struct hist_tab {
	const char *name, *cmpcol, *split;   /* into ts, whose tables stay */
	const char *series;         /* its bl_table_def's time_series */
	char *set[2];
	size_t nset;                /* distinct sets seen; 3 means more than 2 */
	bool compared;              /* a pair of it was compared */
	const char **col;           /* into ts */
	struct bl_welford *w;       /* w[2 c + s]: column c, set s, pooled */
	size_t ncol;
};

/* The sentences of a table with nothing to compare (C1; the report's
 * F3), in the skip list; heap strings. One set only: cmpcol is the
 * compared column, set its value ("" none). Two sets that no block
 * holds together: h's, set b the baseline, each column's values of
 * each set pooled; h->split: the table's split column (bl_table_def)
 * or NULL. */
static char *one_set_note(const char *cmpcol, const char *set)
{
	return bl_xasprintf("one %s only (%s): nothing to compare", cmpcol, set);
}

/* A table whose rows are samples of a time series (bl_table_def
 * time_series: vmstat_disk's counters since boot) is not tested (D5, D6);
 * what says why, the table's own clause. */
static char *series_note(const char *what)
{
	return bl_xasprintf("not tested: its rows are samples of a time series, which a t-test would take "
			    "for independent runs (D6); %s", what);
}

static char *apart_note(const struct hist_tab *h, size_t b)
{
	struct bl_buf buf = BL_BUF_INIT((size_t)1 << 20);
	char num[64];
	bl_buf_add(&buf, "", 0);
	for (size_t k = 0; k < h->ncol; k++) {
		const struct bl_welford *w0 = &h->w[2 * k + b], *w1 = &h->w[2 * k + 1 - b];
		if (!w0->n || !w1->n || w0->mean == 0)
			continue;
		snprintf(num, sizeof num, "%s%s %+.1f%%", buf.len ? ", " : "", h->col[k],
			 100.0 * (w1->mean - w0->mean) / fabs(w0->mean));
		bl_buf_add(&buf, num, strlen(num));
	}
	/* a split table's means are over every split value at once */
	char *why = bl_xasprintf(
		"%s and %s come from different sources and are not compared (--baseline or "
		"--compare-all compares them); the difference of their means%s%s%s, not tested: %s",
		h->set[b], h->set[1 - b], h->split ? " (every " : "", h->split ? h->split : "",
		h->split ? " pooled)" : "", buf.data && buf.len ? buf.data : "none");
	bl_buf_release(&buf);
	return why;
}

/* C1's sentence why table t is not compared, for the report's F3. */
static void skip_add(struct tabctx *x, char *why)
{
	struct bl_cmp_rows *r = x->run->rows;
	if (!r || x->run->printing) {
		free(why);
		return;
	}
	r->skip = bl_xrealloc(r->skip, (r->nskip + 1) * sizeof *r->skip);
	r->skip[r->nskip].table = bl_tstats_table(x->ts, x->t);
	r->skip[r->nskip++].why = why;
}

/* Sets, blocks and the baseline of table t, each block's groups in set
 * order (C7). false: nothing to compare. */
static bool tabctx_init(struct tabctx *x, FILE *diag)
{
	struct bl_tstats *ts = x->ts;
	const char *tname = bl_tstats_table(ts, x->t);
	x->ng = bl_tstats_ngcols(ts, x->t);
	const struct bl_table_def *def = bl_tstats_def(ts, x->t);
	x->runs_col = def ? def->runs_col : NULL;
	x->means = x->runs_col != NULL;
	if (x->ng == 0) {
		if (diag)
			bl_term_printf(diag, "benchlog compare: table %s has no column to tell the sets apart "
				"(use -g COLUMN)\n", tname);
		return false;
	}
	size_t ngr = bl_tstats_ngroups(ts, x->t);
	if (ngr > CMP_MAX_GROUPS) {
		if (diag)
			bl_term_printf(diag, "benchlog compare: table %s: %zu groups, more than the %lu "
				"compare takes: not compared\n", tname, ngr, (unsigned long)CMP_MAX_GROUPS);
		skip_add(x, bl_xasprintf("%zu groups, more than the %lu compare takes", ngr,
					 (unsigned long)CMP_MAX_GROUPS));
		return false;
	}
	x->set_of = bl_xcalloc(ngr ? ngr : 1, sizeof *x->set_of);
	x->block_of = bl_xcalloc(ngr ? ngr : 1, sizeof *x->block_of);
	struct bl_buf key = BL_BUF_INIT((size_t)1 << 30), set = BL_BUF_INIT((size_t)1 << 30);
	x->nest = strcmp(bl_tstats_gcol(ts, x->t, x->ng - 1), def ? def->group_col : "group") == 0;
	size_t nsrc = source_cols(x);
	struct bl_strmap srcs = BL_STRMAP_INIT;
	uint32_t *pick = nsrc ? bl_xmalloc(ngr * sizeof *pick) : NULL;
	x->bbase = nsrc ? bl_xmalloc(ngr * sizeof *x->bbase) : NULL;   /* each block's source, then its pick */
	for (size_t g = 0; g < ngr; g++) {
		/* C1: a nested group's side is its set, its key joins its block
		 * ("base / loop", "loop / before": parsers/labels.h) */
		const char *v = bl_tstats_gval(ts, x->t, g, x->ng - 1);
		struct bl_nested ng;
		bool nl = x->nest && bl_label_nested(v, &ng);
		bl_buf_reset(&set);
		bl_buf_add(&set, nl ? v + ng.side_off : v, nl ? ng.side_len : strlen(v));
		uint32_t s = (uint32_t)bl_strmap_get(&x->sets, set.data, NULL);
		bool added;
		x->set_of[g] = s;
		size_t sk = nsrc ? bl_strmap_get(&srcs, gkey(x, g, 0, nsrc, &key), &added) : 0;
		if (nsrc && (added || (bl_label_side(x->sets.key[s]) < 0 && bl_label_side(x->sets.key[pick[sk]]) >= 0)))
			pick[sk] = s;   /* C1 by source */
		gkey(x, g, nsrc, x->ng - 1, &key);
		if (nl) {
			bl_buf_addc(&key, '\x1e');
			bl_buf_add(&key, v + ng.key_off, ng.key_len);
		}
		x->block_of[g] = (uint32_t)bl_strmap_get(&x->blocks, key.data, NULL);
		if (nsrc)
			x->bbase[x->block_of[g]] = (uint32_t)sk;
	}
	for (size_t b = 0; nsrc && b < x->blocks.n; b++)
		x->bbase[b] = pick[x->bbase[b]];
	bl_strmap_release(&srcs);
	free(pick);
	const char *cmpcol = bl_tstats_gcol(ts, x->t, x->ng - 1);
	long b = x->o->baseline ? bl_strmap_find(&x->sets, x->o->baseline) : 0;
	if (x->sets.n < 2) {
		if (diag)
			bl_term_printf(diag, "benchlog compare: table %s: one %s only (%s): nothing to compare%s\n",
				tname, cmpcol, x->sets.n ? x->sets.key[0] : "", x->ng > 1 ? " in any block" : "");
		skip_add(x, one_set_note(cmpcol, x->sets.n ? x->sets.key[0] : ""));
	} else if (b < 0) {
		if (diag) {
			bl_term_printf(diag, "benchlog compare: table %s: no %s \"%s\"; there are:", tname, cmpcol,
				x->o->baseline);
			for (size_t s = 0; s < x->sets.n; s++)
				bl_term_printf(diag, "%s \"%s\"", s ? "," : "", x->sets.key[s]);
			fputc('\n', diag);
		}
		x->k->no_baseline++;
		skip_add(x, bl_xasprintf("no %s \"%s\" to compare with", cmpcol, x->o->baseline));
	}
	bl_buf_release(&set);
	if (x->sets.n >= 2 && b >= 0 && def && def->time_series) {
		char *why = series_note(def->time_series);
		if (diag)
			bl_term_printf(diag, "benchlog compare: table %s %s\n", tname, why);
		skip_add(x, why);
	}
	if (x->sets.n < 2 || b < 0 || (def && def->time_series)) {
		bl_buf_release(&key);
		return false;
	}
	/* C1: without --baseline, sets whose label names the baseline side
	 * ("base", "Without the patch", "vanilla") come first, then the rest,
	 * each in the order first seen (parsers/labels.h bl_label_side) */
	x->base = (size_t)b;
	x->rank = bl_xcalloc(x->sets.n, sizeof *x->rank);
	for (size_t s = 0; s < x->sets.n; s++) {
		bool first = !x->o->baseline && bl_label_side(x->sets.key[s]) < 0;
		x->rank[s] = (uint32_t)((first ? 0 : x->sets.n) + s);
		if (x->rank[s] < x->rank[x->base])
			x->base = s;
	}
	size_t nb = x->blocks.n;
	x->bstart = bl_xcalloc(nb + 1, sizeof *x->bstart);
	x->bgroup = bl_xmalloc((ngr ? ngr : 1) * sizeof *x->bgroup);
	for (size_t g = 0; g < ngr; g++)
		x->bstart[x->block_of[g] + 1]++;
	for (size_t k = 0; k < nb; k++)
		x->bstart[k + 1] += x->bstart[k];
	uint32_t *fill = bl_xmalloc((nb ? nb : 1) * sizeof *fill);
	memcpy(fill, x->bstart, (nb ? nb : 1) * sizeof *fill);
	for (size_t g = 0; g < ngr; g++) {
		/* a group is one (block, set): insertion by set keeps each
		 * block's entries in set order */
		size_t bk = x->block_of[g], lo = x->bstart[bk], i = fill[bk]++;
		while (i > lo && x->rank[x->set_of[x->bgroup[i - 1]]] > x->rank[x->set_of[g]]) {
			x->bgroup[i] = x->bgroup[i - 1];
			i--;
		}
		x->bgroup[i] = (uint32_t)g;
	}
	free(fill);
	bl_buf_release(&key);
	free(x->block_of);
	x->block_of = NULL;
	return true;
}

/* The "runs" of R2's tables, for the note under the table: "10" when every
 * row says the same, else "several". */
static void runs_text(struct tabctx *x, char *buf, size_t n)
{
	snprintf(buf, n, "several");
	long c = x->runs_col ? bl_tstats_find_col(x->ts, x->t, x->runs_col) : -1;
	if (c < 0)
		return;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t g = 0; g < bl_tstats_ngroups(x->ts, x->t); g++) {
		struct bl_cellstat cs;
		if (!bl_tstats_cell(x->ts, x->t, g, c, NULL, 0, BL_PCT_TYPE7, &cs, NULL) || cs.w.n == 0)
			continue;
		if (cs.w.min < lo)
			lo = cs.w.min;
		if (cs.w.max > hi)
			hi = cs.w.max;
	}
	if (lo == hi)
		snprintf(buf, n, "%g", lo);
	else if (isfinite(lo))
		snprintf(buf, n, "%g to %g", lo, hi);
}

struct bl_cmp_drain {
	struct hist_tab *tab;
	size_t ntab;
	struct bl_strmap names;     /* the rows' sources and threads */
};

struct bl_cmp_drain *bl_cmp_drain_new(void)
{
	return bl_xcalloc(1, sizeof(struct bl_cmp_drain));
}

static void hist_forget(struct hist_tab *h)
{
	free(h->col);
	free(h->w);
	h->col = NULL;
	h->w = NULL;
	h->ncol = 0;
}

static void hist_init(struct hist_tab *h, struct bl_tstats *ts, size_t t)
{
	memset(h, 0, sizeof *h);
	const struct bl_table_def *def = bl_tstats_def(ts, t);
	size_t ng = bl_tstats_ngcols(ts, t);
	h->name = bl_tstats_table(ts, t);
	h->cmpcol = ng ? bl_tstats_gcol(ts, t, ng - 1) : "";
	h->split = def ? def->split_col : NULL;
	h->series = def ? def->time_series : NULL;
}

static void hist_release(struct hist_tab *h)
{
	free(h->set[0]);
	free(h->set[1]);
	hist_forget(h);
}

void bl_cmp_drain_free(struct bl_cmp_drain *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->ntab; i++)
		hist_release(&d->tab[i]);
	free(d->tab);
	bl_strmap_release(&d->names);
	free(d);
}

static struct hist_tab *hist_get(struct bl_cmp_drain *d, struct bl_tstats *ts, size_t t)
{
	const char *name = bl_tstats_table(ts, t);
	for (size_t i = 0; i < d->ntab; i++)
		if (strcmp(d->tab[i].name, name) == 0)
			return &d->tab[i];
	d->tab = bl_xrealloc(d->tab, (d->ntab + 1) * sizeof *d->tab);
	hist_init(&d->tab[d->ntab], ts, t);
	return &d->tab[d->ntab++];
}

/* The slot of column name, the table's column lc, in h, added when new. */
static size_t hist_col(struct hist_tab *h, size_t lc, const char *name)
{
	if (lc < h->ncol && strcmp(h->col[lc], name) == 0)
		return lc;   /* where it was: no search of a wide CSV's columns */
	for (size_t c = 0; c < h->ncol; c++)
		if (strcmp(h->col[c], name) == 0)
			return c;
	h->col = bl_xrealloc(h->col, (h->ncol + 1) * sizeof *h->col);
	h->w = bl_xrealloc(h->w, 2 * (h->ncol + 1) * sizeof *h->w);
	h->col[h->ncol] = name;
	bl_welford_init(&h->w[2 * h->ncol]);
	bl_welford_init(&h->w[2 * h->ncol + 1]);
	return h->ncol++;
}

/* Table t's groups (of this input) into its history: its sets, and while
 * it has at most two and no pair compared (compared: one of this input
 * was), their pooled moments. */
static void hist_add(struct hist_tab *h, struct bl_tstats *ts, size_t t, bool compared)
{
	h->compared = h->compared || compared;
	size_t ng = bl_tstats_ngcols(ts, t);
	for (size_t g = 0; g < bl_tstats_ngroups(ts, t) && !h->compared && ng && h->nset <= 2; g++) {
		const char *set = bl_tstats_gval(ts, t, g, ng - 1);
		size_t s = 0;
		while (s < h->nset && s < 2 && strcmp(h->set[s], set) != 0)
			s++;
		if (s == h->nset && ++h->nset <= 2)
			h->set[s] = bl_xstrdup(set);
		if (s >= 2)
			break;
		for (size_t lc = 0; lc < bl_tstats_ncols(ts, t); lc++) {
			const char *cname = bl_tstats_col(ts, t, lc);
			struct bl_cellstat cs;
			size_t hc = hist_col(h, lc, cname);
			if (bl_tstats_cell(ts, t, g, bl_tstats_find_col(ts, t, cname), NULL, 0, BL_PCT_TYPE7, &cs,
					   NULL) && cs.w.n)
				bl_welford_merge(&h->w[2 * hc + s], &cs.w);
		}
	}
	if (h->compared || h->nset > 2)
		hist_forget(h);
}

/* Two sets that no block holds together (the report's blocks by source:
 * two files, one kernel each): not compared, but the difference of their
 * means is told, per column, in one sentence (report/findings.h F3). */
static void apart(struct tabctx *x)
{
	struct hist_tab h;
	hist_init(&h, x->ts, x->t);
	hist_add(&h, x->ts, x->t, false);   /* its sets in x->sets' order */
	skip_add(x, apart_note(&h, x->base));
	hist_release(&h);
}

int bl_compare_drain(struct bl_tstats *ts, const struct bl_compare_opts *o, struct bl_cmp_drain *d,
		     struct bl_cmp_rows *into)
{
	struct bl_cmp_rows batch;
	memset(&batch, 0, sizeof batch);
	memcpy(batch.own, into->own, sizeof batch.own);
	batch.nown = into->nown;
	batch.spill = bl_cmp_spill_new(&d->names);   /* the groups are dropped below */
	bl_tstats_quiet(ts, true);
	int rc = bl_compare_rows(ts, o, &batch);
	bl_compare_rows_judge(&batch, o->confidence);
	for (size_t t = 0; rc == 0 && t < bl_tstats_ntables(ts); t++)
		if (!compare_owned(&batch, ts, t))
			hist_add(hist_get(d, ts, t), ts, t, bl_cmp_spill_has_table(batch.spill, bl_tstats_table(ts, t)));
	bl_tstats_quiet(ts, false);
	bl_cmp_spill_free(into->spill);
	into->spill = batch.spill;
	into->tests = batch.tests;
	for (size_t i = 0; i < batch.nskip; i++)
		free(batch.skip[i].why);
	free(batch.skip);
	free(batch.row);
	bl_tstats_drop_groups(ts);
	return rc;
}

void bl_compare_drain_end(struct bl_cmp_drain *d, struct bl_cmp_rows *into)
{
	for (size_t i = 0; i < d->ntab; i++) {
		struct hist_tab *h = &d->tab[i];
		if (h->compared || (h->nset > 2 && !h->series))
			continue;
		char *why;
		if (h->nset < 2) {
			why = one_set_note(h->cmpcol, h->nset ? h->set[0] : "");
		} else if (h->series) {
			why = series_note(h->series);
		} else {
			/* C1's baseline of the two */
			why = apart_note(h, bl_label_side(h->set[1]) < 0 && bl_label_side(h->set[0]) >= 0);
		}
		into->skip = bl_xrealloc(into->skip, (into->nskip + 1) * sizeof *into->skip);
		into->skip[into->nskip].table = h->name;
		into->skip[into->nskip++].why = why;
	}
}

/* One walk over the tables (C1): the first (run->printing false) makes
 * every comparison, the second prints them. */
static void walk(struct bl_tstats *ts, FILE *f, FILE *diag, const struct bl_compare_opts *o,
		 struct bl_compare_counts *counts, struct cmp_run *run, struct bl_outtab *all,
		 const char *const *byu, size_t nbyu)
{
	bool csv = o->fmt == BL_TAB_CSV;
	bool md = o->fmt == BL_TAB_MD;
	size_t nt = bl_tstats_ntables(ts);
	for (size_t t = 0; t < nt; t++) {
		struct tabctx x;
		memset(&x, 0, sizeof x);
		x.run = run;
		x.ts = ts;
		x.t = t;
		x.o = o;
		x.k = counts;
		if (owned_table(run, ts, t))
			continue;
		if (!tabctx_init(&x, run->printing ? diag : NULL)) {
			tabctx_release(&x);
			continue;
		}
		if (!run->printing) {
			size_t before = run->n;
			for (size_t lc = 0; lc < bl_tstats_ncols(ts, t); lc++) {
				const char *cname = bl_tstats_col(ts, t, lc);
				column_rows(&x, NULL, bl_tstats_find_col(ts, t, cname), cname, NULL, 0);
			}
			if (run->rows && run->n == before && x.sets.n == 2 && x.base < x.sets.n)
				apart(&x);
			tabctx_release(&x);
			continue;
		}
		counts->tables++;
		const char *tname = bl_tstats_table(ts, t);
		unsigned long means_before = counts->means_only;
		for (size_t lc = 0; lc < bl_tstats_ncols(ts, t); lc++) {
			const char *cname = bl_tstats_col(ts, t, lc);
			long c = bl_tstats_find_col(ts, t, cname);
			if (csv) {
				column_rows(&x, all, c, cname, byu, nbyu);
				continue;
			}
			int better = bl_tstats_better(x.ts, x.t, cname);
			/* names from a CSV header or a log: Markdown or terminal text */
			struct bl_esc_ring er = BL_ESC_RING_INIT;
			run->head = bl_xasprintf("%s%s: %s%s%s%s — baseline %s, %s, %g%% confidence%s\n\n",
				md ? "### " : "== ", bl_esc_doc(&er, tname, md), bl_esc_doc(&er, cname, md),
				better ? " (" : "", better ? better_name(better) : "",
				better ? " is better)" : "",
				bl_esc_doc(&er, x.sets.key[x.base], md), test_name(o->test), o->confidence * 100,
				md ? "" : " ==");
			bl_esc_ring_release(&er);
			struct bl_outtab tab;
			bl_outtab_init(&tab);
			text_header(&tab, &x);
			column_rows(&x, &tab, c, cname, NULL, 0);
			text_flush(run, &tab, o);
			free(run->head);
			run->head = NULL;
			bl_outtab_release(&tab);
		}
		if (!csv && counts->means_only > means_before) {
			char runs[64];
			runs_text(&x, runs, sizeof runs);
			bl_term_printf(f, "\nTable %s holds averages only: each row is already the mean of %s runs, "
				"without the runs themselves or their spread. Averages alone (no per-run data) "
				"allow no test; compare the per-run logs instead (for chkmmt's averages: the "
				"mtest01 and time -v output it read).\n", tname, runs);
		}
		tabctx_release(&x);
	}
}

int bl_compare_rows(struct bl_tstats *ts, const struct bl_compare_opts *o, struct bl_cmp_rows *out)
{
	if (!ts || !o || !out || out->n || out->nskip)
		return -BL_EUSAGE;
	if (!out->spill)
		out->spill = bl_cmp_spill_new(&out->names);
	struct cmp_run run;
	memset(&run, 0, sizeof run);
	run.rows = out;
	struct bl_compare_counts counts;
	memset(&counts, 0, sizeof counts);
	walk(ts, NULL, NULL, o, &counts, &run, NULL, NULL, 0);
	return 0;
}

char *bl_cmp_family_key(const struct bl_cmp_row *w)
{
	/* joined by hand: bl_xasprintf() here was 2 % of report's
	 * instructions on the bench's 10,000 files (two calls per row) */
	const char *v[] = { w->table, w->source, w->message_id, w->thread_ref, w->baseline, w->candidate };
	struct bl_buf b = BL_BUF_INIT(0);
	for (size_t i = 0; i < 6; i++) {
		if (i)
			bl_buf_addc(&b, '\x1f');
		bl_buf_add(&b, v[i] ? v[i] : "", v[i] ? strlen(v[i]) : 0);
	}
	return b.data;
}

void bl_compare_rows_judge(struct bl_cmp_rows *rows, double conf)
{
	if (!rows->spill)
		rows->spill = bl_cmp_spill_new(NULL);
	for (size_t i = 0; i < rows->n; i++)
		bl_cmp_spill_put(rows->spill, &rows->row[i]);
	rows->n = 0;
	rows->tests = bl_cmp_spill_adjust(rows->spill, conf);
}

int bl_compare_moments(const struct bl_moments *base, const struct bl_moments *cand, double conf,
		       struct bl_cmp *out)
{
	if (!base || !cand || !out || !(conf > 0 && conf < 1))
		return -BL_EUSAGE;
	double mb = base->mean, mc = cand->mean;
	if (!cmp_start(out, base->n > 0, cand->n > 0, mb, mc))
		return 0;
	if (bl_test_power_too_low((unsigned long long)base->n, (unsigned long long)cand->n)) {
		out->low_power = true;
		out->note = "fewer than 3 values on a side: too few to detect any difference";
		return 0;
	}
	bl_welch_moments(base->n, mb, base->sd, base->n_eff, cand->n, mc, cand->sd, cand->n_eff, conf, &out->t);
	/* D14 and D16 with the variances of the means s^2 / n_eff (D15) */
	if (cmp_tested(out, base->sd * base->sd / base->n_eff, cand->sd * cand->sd / cand->n_eff,
		       base->min >= 0 && cand->min >= 0, conf))
		out->note = out->t.note;
	return 0;
}

void bl_compare_rank(double stat_b, double stat_c, double p, bool ok, const char *note,
		     struct bl_cmp *out)
{
	if (!cmp_start(out, isfinite(stat_b), isfinite(stat_c), stat_b, stat_c))
		return;
	out->note = note;
	if (!ok || !(p >= 0 && p <= 1))
		return;
	out->tested = true;
	out->t.ok = 1;
	out->t.p = p;
	out->t.se = out->t.df = out->t.t = out->t.ci_lo = out->t.ci_hi = NAN;
}

/* df of a normal reference: large enough that t is z to 1e-9 */
#define NORMAL_DF 1e12

void bl_compare_estimates(double stat_b, double var_b, double stat_c, double var_c, bool nonneg,
			  double conf, const char *note, struct bl_cmp *out)
{
	if (!cmp_start(out, isfinite(stat_b), isfinite(stat_c), stat_b, stat_c))
		return;
	out->note = note;
	if (!(var_b >= 0) || !(var_c >= 0) || !isfinite(var_b) || !isfinite(var_c) || !(conf > 0 && conf < 1))
		return;
	double se = sqrt(var_b + var_c), d = stat_c - stat_b;
	out->t.ok = 1;
	out->t.diff = d;
	out->t.se = se;
	out->t.df = NORMAL_DF;
	out->t.t = se > 0 ? d / se : d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY;
	out->t.p = isinf(out->t.t) ? 0 : 2 * gsl_cdf_ugaussian_Q(fabs(out->t.t));
	double z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2);
	out->t.ci_lo = d - z * se;
	out->t.ci_hi = d + z * se;
	cmp_tested(out, var_b, var_c, nonneg, conf);
}

void bl_cmp_units(const struct bl_cmp_unit *u, size_t n, size_t *blk)
{
	struct bl_strmap msgs = BL_STRMAP_INIT, blocks = BL_STRMAP_INIT;
	size_t *first = bl_xmalloc((n + 1) * sizeof *first);
	bool *own = bl_xcalloc(n + 1, sizeof *own);   /* a message of two groups or more */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			char *k = bl_xasprintf("%s\x1f%lu", u[i].block, u[i].msg);
			bool added = false;
			size_t m = u[i].msg ? bl_strmap_get(&msgs, k, &added) : n;
			if (pass == 0 && added)
				first[m] = i;
			else if (pass == 0 && m < n)
				own[m] |= strcmp(u[first[m]].group, u[i].group) != 0;
			else if (pass == 1)
				blk[i] = bl_strmap_get(&blocks, m < n && own[m] ? k : u[i].block, NULL);
			free(k);
		}
	free(first);
	free(own);
	bl_strmap_release(&msgs);
	bl_strmap_release(&blocks);
}

void bl_cmp_row_thread(struct bl_cmp_row *w, const char *thread, const char *ref)
{
	if (!*thread)
		return;
	w->message_id = thread;
	w->thread_ref = strncmp(thread, "thread: ", 8) == 0 ? ref : NULL;
}

struct bl_cmp_row *bl_cmp_rows_add(struct bl_cmp_rows *rows, const char *table, const char *col,
				   const char *baseline, const char *candidate, const char *source)
{
	rows->row = bl_xrealloc(rows->row, (rows->n + 1) * sizeof *rows->row);
	struct bl_cmp_row *w = &rows->row[rows->n++];
	memset(w, 0, sizeof *w);
	w->table = table;
	w->column = col;
	w->baseline = bl_xstrdup(baseline);
	w->candidate = bl_xstrdup(candidate);
	w->source = source;
	return w;
}

void bl_compare_rows_free(struct bl_cmp_rows *rows)
{
	if (!rows)
		return;
	for (size_t i = 0; i < rows->n; i++)
		bl_cmp_row_clear(&rows->row[i]);
	for (size_t i = 0; i < rows->nskip; i++)
		free(rows->skip[i].why);
	free(rows->row);
	free(rows->skip);
	bl_cmp_spill_free(rows->spill);
	bl_strmap_release(&rows->names);
	memset(rows, 0, sizeof *rows);
}

/* The two text lines of an analysis's own row (C4): the baseline's
 * measure, group, n and mean, then the candidate's with the comparison. */
static void own_text(struct bl_outtab *tab, const struct bl_cmp_row *w, const struct bl_cmp *r, enum bl_tabfmt fmt)
{
	bl_outtab_row(tab);
	size_t col = 0;
	if (w->block && *w->block)
		bl_outtab_setf(tab, col++, "%s, %s", w->column, w->block);
	else
		bl_outtab_set(tab, col++, w->column);
	bl_outtab_set(tab, col++, w->baseline);
	bl_outtab_setf(tab, col++, "%llu", w->n_base);
	bl_outtab_setnum(tab, col++, w->mean_base, fmt);
	for (; col < tab->ncols; col++)
		bl_outtab_set(tab, col, "");
	bl_outtab_row(tab);
	col = 0;
	bl_outtab_set(tab, col++, "");
	bl_outtab_set(tab, col++, w->candidate);
	bl_outtab_setf(tab, col++, "%llu", w->n_cand);
	bl_outtab_setnum(tab, col++, w->mean_cand, fmt);
	put_judged(tab, col, w, r, fmt);
}

/* C4: the analyses' own rows, rows->spill's from `from` on (after the
 * walk's): in CSV into all, else one table per table, in the order the
 * rows come. false when the spill could not be read. */
static bool own_write(const struct bl_cmp_rows *rows, size_t from, const struct bl_compare_opts *o,
		      struct bl_compare_counts *counts, struct cmp_run *run, struct bl_outtab *all, size_t nbyu)
{
	bool md = o->fmt == BL_TAB_MD, ok = true;
	size_t n = bl_cmp_spill_n(rows->spill);
	bool *done = bl_xcalloc(n > from ? n - from : 1, sizeof *done);
	struct bl_cmp_row *w = &run->cur;
	for (size_t i = from; i < n && ok; i++) {
		if (done[i - from])
			continue;
		bl_cmp_row_clear(w);
		if (!(ok = bl_cmp_spill_get(rows->spill, i, w) == 0))
			break;
		const char *tname = w->table;
		struct bl_outtab tab;
		bl_outtab_init(&tab);
		/* no diff: a rank test's change is of a percentile, not of the
		 * means shown (the CSV has it) */
		static const char *const head[] = { "measure", "group", "n", "mean", "change", "interval of change",
						    "p", "p adj", "m", "verdict", "note" };
		for (size_t h = 0; h < sizeof head / sizeof head[0]; h++)
			bl_outtab_col(&tab, head[h], h >= 2 && h != 5 && h < 9);
		counts->tables++;
		struct bl_esc_ring er = BL_ESC_RING_INIT;
		run->head = bl_xasprintf("%s%s: compared by its analysis (docs/statistics.md D18), "
			"%g%% confidence%s\n\n", md ? "### " : "== ", bl_esc_doc(&er, tname, md),
			o->confidence * 100, md ? "" : " ==");
		bl_esc_ring_release(&er);
		for (size_t j = i; j < n && ok; j++) {
			if (done[j - from])
				continue;
			if (j > i) {
				bl_cmp_row_clear(w);
				if (!(ok = bl_cmp_spill_get(rows->spill, j, w) == 0))
					break;
			}
			if (strcmp(w->table, tname) != 0)
				continue;
			done[j - from] = true;
			struct bl_cmp r = w->r;
			char note[200];
			count_row(counts, &r, note, sizeof note);
			if (o->fmt == BL_TAB_CSV) {
				csv_line(all, w, &r, nbyu, o, NULL, NULL);
				csv_page(run, all);
			} else {
				text_page(run, &tab, o);
				own_text(&tab, w, &r, o->fmt);
			}
		}
		bl_cmp_row_clear(w);
		if (ok)
			text_flush(run, &tab, o);
		free(run->head);
		run->head = NULL;
		bl_outtab_release(&tab);
	}
	free(done);
	return ok;
}

int bl_compare_write(struct bl_tstats *ts, const struct bl_cmp_rows *rows, FILE *f, FILE *diag,
		     const struct bl_compare_opts *o, struct bl_compare_counts *counts)
{
	memset(counts, 0, sizeof *counts);
	size_t nt = bl_tstats_ntables(ts);
	bool csv = o->fmt == BL_TAB_CSV;
	struct bl_outtab all;
	bl_outtab_init(&all);
	struct cmp_run run;
	memset(&run, 0, sizeof run);
	run.printing = true;
	run.done = rows;
	/* CSV: one table; its --by columns are the union of every table's */
	const char **byu = NULL;
	size_t nbyu = 0;
	for (size_t t = 0; t < nt; t++)
		for (size_t k = 0; k + 1 < bl_tstats_ngcols(ts, t) && !owned_table(&run, ts, t); k++) {
			const char *n = bl_tstats_gcol(ts, t, k);
			size_t j = 0;
			while (j < nbyu && strcmp(byu[j], n) != 0)
				j++;
			if (j == nbyu) {
				byu = bl_xrealloc(byu, (nbyu + 1) * sizeof *byu);
				byu[nbyu++] = n;
			}
		}
	if (csv)
		csv_header(&all, byu, nbyu, o->confidence);
	/* C3, C4: rows holds every comparison, adjusted in its family (D12:
	 * one question) and judged (D13); the walk prints its own with both
	 * sides */
	counts->tests = rows->tests;
	bool any_text = false;
	run.f = f;
	run.any_text = &any_text;
	walk(ts, f, diag, o, counts, &run, &all, byu, nbyu);
	bool any_own = bl_cmp_spill_n(rows->spill) > run.next;
	if (!run.ioerr && !run.mismatch && !own_write(rows, run.next, o, counts, &run, &all, nbyu))
		run.ioerr = true;
	bl_cmp_row_clear(&run.cur);
	int rc = run.ioerr ? -BL_EIO : run.mismatch ? -BL_EUSAGE : 0;
	if (csv) {
		if (counts->tables && !rc)
			rc = bl_outtab_write(&all, f, o->fmt);
	} else if (any_text) {
		char *foot = bl_xasprintf("\n%lu test%s in this run. p: %s (D%d), two-sided%s. A family (D12) is one "
			"baseline -> candidate pair of one table and source, its m tests the measures "
			"compared for that pair%s; p adj: Bonferroni's m p, and the change's interval "
			"at 1 - %g / m, simultaneous over the family (Holm's and Benjamini-Hochberg's "
			"p are in the CSV). Verdict (D13) at %g%% confidence: negligible when that "
			"interval lies inside the negligible band (±1%% unless --negligible says "
			"otherwise); else faster/slower, more/less memory, more/fewer faults or "
			"higher/lower when p adj < %g (the interval excludes 0); else no change "
			"detected (with the change 80%% power would detect, D16). change: 100 "
			"(candidate - baseline) / |baseline mean|; its interval by Fieller's theorem "
			"(D14), never below -100%% for values that cannot be negative.\n",
			counts->tests, counts->tests == 1 ? "" : "s", test_name(o->test),
			o->test == BL_CMP_STUDENT ? 7 : 6,
			any_own ? " (rows compared by an analysis: its own test, D18; vmstat: Welch's with "
				  "each series' effective sample size n_eff, D15; latency: Mann-Whitney, D8, "
				  "for p50 and Kolmogorov-Smirnov, D9, for p99, on the bins, whose change is of "
				  "that percentile)" : "",
			o->narrowed ? " (narrowed by -c to the columns named: a smaller question, "
				      "so smaller m)" : "",
			1.0 - o->confidence, o->confidence * 100, 1.0 - o->confidence);
		bl_text_wrap(f, foot, o->fmt == BL_TAB_TEXT ? o->width : 0);
		free(foot);
	}
	bl_outtab_release(&all);
	free(byu);
	return rc ? rc : ferror(f) ? -BL_EIO : 0;
}

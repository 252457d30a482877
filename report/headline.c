/* headline.c — H1, H2 of report/headline.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/headline.h"
#include "report/findings.h"
#include "core/escape.h"
#include "core/util.h"

/* The direction in plain words: times are shorter or longer, faults
 * more or fewer, the rest higher or lower (D13 rule 13.5's measures). */
static const char *direction(const char *col, double pct)
{
	bool up = pct > 0;
	if (strstr(col, "fault"))
		return up ? "more" : "fewer";
	static const char *const time_suf[] = { "_s", "_ms", "_us", "_ns", NULL };
	if (bl_ends_any(col, time_suf, false))
		return up ? "longer" : "shorter";
	return up ? "higher" : "lower";
}

/* "read_load time_s 27 % shorter (95 % simultaneous CI 4.5–48 %)" */
static void change_words(FILE *md, const struct bl_cmp_row *w, double conf)
{
	const struct bl_cmp *r = &w->r;
	char a[48], b[48];
	if (w->own) {   /* an analysis's row: the measure, then what it compares */
		bl_fput_md_inline(md, w->column);
		if (w->block && *w->block) {
			fputs(" (", md);
			bl_fput_md_inline(md, w->block);
			fputs(")", md);
		}
	} else {
		if (w->block && *w->block) {
			bl_fput_md_inline(md, w->block);
			fputc(' ', md);
		}
		bl_fput_md_inline(md, w->column);
	}
	if (r->geo)
		fputs(" (geometric mean)", md);
	bl_fmt_pct_person(a, sizeof a, r->pct, false);
	fprintf(md, " %s %% %s", a, direction(w->column, r->pct));
	if (!isnan(r->ci.pct_lo) && !isnan(r->ci.pct_hi)) {
		/* the interval's ends as sizes of the change, smaller first */
		double lo = fabs(r->pct < 0 ? r->ci.pct_hi : r->ci.pct_lo);
		double hi = fabs(r->pct < 0 ? r->ci.pct_lo : r->ci.pct_hi);
		bl_fmt_pct_person(a, sizeof a, lo, false);
		bl_fmt_pct_person(b, sizeof b, hi, false);
		if (isinf(hi))
			fprintf(md, " (%g %% simultaneous CI: %s %% or more)", conf * 100, a);
		else
			fprintf(md, " (%g %% simultaneous CI %s–%s %%)", conf * 100, a, b);
	}
}

/* "Tweaked tunables vs Default tunables (ConTest, 001_….txt, 3 runs each): " */
static void question_head(FILE *md, const struct bl_cmp_row *w)
{
	fputs("**", md);
	bl_fput_md_inline(md, w->candidate);
	fputs("** vs **", md);
	bl_fput_md_inline(md, w->baseline);
	fputs("** (", md);
	bl_fput_md_inline(md, strcmp(w->table, "contest") == 0 ? "ConTest" : w->table);
	if ((w->source && *w->source) || (w->message_id && *w->message_id)) {
		fputs(", ", md);
		bl_report_fput_where(md, w);   /* F7 of report/findings.h */
	}
	if (w->r.means_only)
		fputs(", averages of runs", md);
	else if (!w->own && w->n_base == w->n_cand)
		fprintf(md, ", %llu run%s each", w->n_base, w->n_base == 1 ? "" : "s");
	else if (!w->own)
		fprintf(md, ", %llu and %llu runs", w->n_base, w->n_cand);
	fputs("): ", md);
}

/* "No change detected in the other 47 measures." and its kin. */
static void rest_words(FILE *md, const struct bl_question *q)
{
	size_t rest = q->n - q->changed;
	if (rest == 0)
		return;
	const char *other = q->changed ? "the other " : "";
	const char *s = rest == 1 ? "" : "s";
	if (q->no_change == rest) {
		fprintf(md, "%s change detected in %s%zu measure%s.", q->changed ? "No" : "no", other, rest, s);
		return;
	}
	if (q->negligible == rest) {
		fprintf(md, "%segligible change in %s%zu measure%s.", q->changed ? "N" : "n", other, rest, s);
		return;
	}
	if (q->averages == rest) {
		fprintf(md, "%sverages only in %s%zu measure%s: no test possible, the differences of the "
			    "means are in the Findings.", q->changed ? "A" : "a", other, rest, s);
		return;
	}
	if (q->untested == rest) {
		if (rest == 1 && q->changed)
			fputs("The other measure is not tested (too few runs, or no test possible).", md);
		else
			fprintf(md, "%s%zu measure%s not tested (too few runs, or no test possible).",
				q->changed ? "The other " : "", rest, s);
		return;
	}
	fprintf(md, "%sf %s%zu measure%s:", q->changed ? "O" : "o", other, rest, s);
	const char *sep = " ";
	if (q->no_change) {
		fprintf(md, "%sno change detected in %zu", sep, q->no_change);
		sep = ", ";
	}
	if (q->negligible) {
		fprintf(md, "%snegligible in %zu", sep, q->negligible);
		sep = ", ";
	}
	if (q->averages) {
		fprintf(md, "%s%zu with averages only", sep, q->averages);
		sep = ", ";
	}
	if (q->untested)
		fprintf(md, "%s%zu not tested (too few runs, or no test possible)", sep, q->untested);
	fputc('.', md);
}

static void question_write(FILE *md, const struct bl_question *q, double conf)
{
	question_head(md, &q->row[0]);
	size_t k = q->changed < BL_HEADLINE_CHANGES ? q->changed : BL_HEADLINE_CHANGES;
	for (size_t i = 0; i < k; i++) {
		if (i)
			fputs(i + 1 == k && k == q->changed ? " and " : ", ", md);
		change_words(md, &q->row[i], conf);
	}
	if (k < q->changed)
		fprintf(md, " and %zu more changes (in the Findings)", q->changed - k);
	if (k)
		fputs(". ", md);
	rest_words(md, q);
	fputs("\n\n", md);
}

void bl_report_headline(FILE *md, const struct bl_findings *f, double conf)
{
	if (!f || f->n == 0)
		return;
	size_t changed = 0;
	for (size_t k = 0; k < f->nq_kept; k++) {
		question_write(md, &f->q[k], conf);
		changed += f->q[k].changed > 0;
	}
	if (f->nq_kept < f->nq)
		fprintf(md, "%llu more comparisons of a candidate with its baseline, %llu of them with a "
			    "change, are in the Findings below.\n\n", f->nq - f->nq_kept, f->nq_changed - changed);
}

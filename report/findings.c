/* findings.c — F1-F3 of report/findings.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/findings.h"
#include "core/escape.h"
#include "core/store.h"
#include "core/util.h"
#include "tables/sqlite.h"
#include "tables/table.h"

/* F2: the verdict's place in the order. */
static int rank(enum bl_verdict_kind k)
{
	switch (k) {
	case BL_V_BETTER: case BL_V_WORSE: case BL_V_HIGHER: case BL_V_LOWER: return 0;
	case BL_V_NO_CHANGE: return 1;
	case BL_V_AVERAGES_ONLY: return 2;
	case BL_V_TOO_FEW: return 3;
	case BL_V_NO_TEST: return 4;
	case BL_V_NEGLIGIBLE: break;
	}
	return 5;
}

/* F2's key of a row, with F8's tie-break (its place in the stream) and,
 * for a spilled row (analyze/compare.h C6), where to read it. */
struct key {
	int rank;
	double size;                 /* |change|, -1 for none */
	unsigned long long seq;
	size_t i;
};

static struct key key_of(const struct bl_cmp_row *w, unsigned long long seq, size_t i)
{
	return (struct key){ rank(w->r.kind), isnan(w->r.pct) ? -1 : fabs(w->r.pct), seq, i };
}

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Markdown table cell text: '|' and markup characters escaped. */
static void cell(FILE *f, const char *s)
{
	/* E3 first: valid UTF-8, every control (C0, C1) a space */
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_md_code(&b, s);
	for (const char *p = bl_buf_str(&b); *p; p++) {
		if (strchr("\\`*_[]<>|&!~#", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
	bl_buf_release(&b);
}

/* A change in % for reading (compare.h bl_fmt_pct_person). */
static void pct(FILE *f, double v)
{
	char b[48];
	bl_fmt_pct_person(b, sizeof b, v, true);
	fprintf(f, isinf(v) ? "%s" : "%s %%", b);
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "";
}

void bl_report_fput_where(FILE *md, const struct bl_cmp_row *w)
{
	const char *m = w->message_id && *w->message_id ? w->message_id : NULL;
	if (m && strncmp(m, "thread: ", 8) == 0) {
		/* F7: the subject, at most 48 characters, and its first message */
		char sub[48 * 4 + sizeof "…"];
		const char *s = m + 8;
		size_t i = 0, chars = 0;
		while (s[i] && chars < 48) {
			size_t k = bl_utf8_len((const unsigned char *)s + i);
			i += k ? k : 1;
			chars++;
		}
		snprintf(sub, sizeof sub, "%.*s%s", (int)i, s, s[i] ? "…" : "");
		fputs("“", md);
		bl_fput_md_inline(md, sub);
		fputs("”", md);
		if (w->thread_ref && *w->thread_ref) {
			fputs(" (", md);
			bl_fput_md_inline(md, w->thread_ref);
			fputs(")", md);
		}
	} else if (m) {
		fputs("message ", md);
		bl_fput_md_inline(md, m);
	} else {
		bl_fput_md_inline(md, base_name(w->source));
	}
}

static void row_line(FILE *md, const struct bl_cmp_row *w, bool several_sources)
{
	const struct bl_cmp *r = &w->r;
	fputs("| ", md);
	cell(md, w->table);
	fputs(" | ", md);
	cell(md, w->column);
	if (r->geo)
		fputs(" (geometric mean)", md);
	if (w->block && *w->block) {
		fputs(", ", md);
		cell(md, w->block);
	}
	if (several_sources && (w->source || w->message_id)) {
		fputs(" (", md);
		bl_report_fput_where(md, w);
		fputs(")", md);
	}
	fputs(" | ", md);
	cell(md, w->baseline);
	fputs(" → ", md);
	cell(md, w->candidate);
	fputs(" | ", md);
	if (!isnan(r->pct)) {
		pct(md, r->pct);
		if (r->tested && !isnan(r->ci.pct_lo)) {
			fputs(" [", md);
			pct(md, r->ci.pct_lo);
			fputs(", ", md);
			pct(md, r->ci.pct_hi);
			fputs("]", md);
		}
	}
	fputs(" | ", md);
	if (r->tested && r->kind != BL_V_NO_TEST) {
		char b[32];
		bl_fmt_p_person(b, sizeof b, r->p_adj);
		fprintf(md, "%s (m %zu)", b, w->family);
	}
	fputs(" | ", md);
	fputs(r->verdict, md);
	if (r->kind == BL_V_NO_CHANGE && isfinite(r->detect_pct)) {
		char b[48];
		bl_fmt_pct_person(b, sizeof b, r->detect_pct, false);
		fprintf(md, " (changes under ±%s %%", b);
		fputs(" cannot be detected at 80 % power)", md);
	} else if (r->kind == BL_V_AVERAGES_ONLY) {
		fputs(" (the difference of the means only)", md);
	} else if (r->kind == BL_V_TOO_FEW) {
		fprintf(md, " (%llu against %llu)", w->n_base, w->n_cand);
	}
	fputs(" |\n", md);
}

/* One row's own copy: the strings it owns duplicated, the rest shared
 * (they point into ts or the drain, which outlive the Findings). */
static struct bl_cmp_row row_copy(const struct bl_cmp_row *w)
{
	struct bl_cmp_row c = *w;
	c.baseline = bl_xstrdup(w->baseline ? w->baseline : "");
	c.candidate = bl_xstrdup(w->candidate ? w->candidate : "");
	c.block = w->block ? bl_xstrdup(w->block) : NULL;
	return c;
}

static void row_free(struct bl_cmp_row *w)
{
	free(w->baseline);
	free(w->block);
	free(w->candidate);
}

static int cmp_ranked(const struct bl_finding *x, const struct bl_finding *y)
{
	struct key kx = key_of(&x->w, x->seq, 0), ky = key_of(&y->w, y->seq, 0);
	return cmp_key(&kx, &ky);
}

static void table_head(FILE *md)
{
	fprintf(md, "| table | measure | baseline → candidate | change [interval] | p adj. | verdict |\n"
		    "|---|---|---|--:|--:|---|\n");
}

/* F4: rows counted by verdict (count[kind]), after lead. */
static void count_rest(FILE *md, const unsigned long long *count, const char *lead)
{
	fputs(lead, md);
	const char *sep = " ";
	for (int v = 0; v <= BL_V_NO_TEST; v++) {
		if (!count[v])
			continue;
		fprintf(md, "%s%llu %s", sep, count[v], bl_verdict_kind_name((enum bl_verdict_kind)v));
		sep = ", ";
	}
	fputs(".\n\n", md);
}

static bool same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* F5: the rows that changed, the rest counted, every kept row behind a
 * <details>. */
static void findings_rows(FILE *md, const struct bl_findings *f)
{
	unsigned long long rest[BL_V_NO_TEST + 1], n = f->n;
	memcpy(rest, f->count, sizeof rest);
	unsigned long long nch = 0;   /* F2 puts them first */
	for (int v = 0; v <= BL_V_NO_TEST; v++)
		if (rank((enum bl_verdict_kind)v) == 0) {
			nch += rest[v];
			rest[v] = 0;
		}
	if (nch) {
		table_head(md);
		for (size_t i = 0; i < nch && i < f->ntop; i++)
			row_line(md, &f->top[i].w, f->several);
		fputc('\n', md);
	} else {
		fprintf(md, "No comparison shows a change.\n\n");
	}
	if (nch < n) {
		char lead[96];
		snprintf(lead, sizeof lead, "%s%llu comparison%s:", nch ? "The other " : "", n - nch,
			 n - nch == 1 ? "" : "s");
		count_rest(md, rest, lead);
	}
	char summary[64];
	snprintf(summary, sizeof summary, "%s%s", n == 1 ? "The " : "All ", BL_COUNT(n, "comparison"));
	bl_md_details_open(md, summary);
	table_head(md);
	memcpy(rest, f->count, sizeof rest);
	for (size_t i = 0; i < f->ntop; i++) {
		row_line(md, &f->top[i].w, f->several);
		rest[f->top[i].w.r.kind]--;
	}
	fputc('\n', md);
	if (f->ntop < n) {
		char lead[160];
		snprintf(lead, sizeof lead, "%llu more comparisons are not shown; every one is in [findings.csv](findings.csv):",
			 n - f->ntop);
		count_rest(md, rest, lead);
	}
	bl_md_details_close(md);
}

void bl_report_findings(FILE *md, const struct bl_findings *rows, double confidence)
{
	fprintf(md, "## Findings\n\n");
	if (rows->n == 0) {
		fprintf(md, "Nothing in these inputs can be compared: no table has two groups from the "
			    "same mail thread or plain file (`--baseline GROUP` or `--compare-all` "
			    "compares across them).\n\n");
	} else {
		fprintf(md, "Each line compares a candidate with its baseline, most important first. "
			    "**change**: 100 (candidate − baseline) / |baseline| of the means (latency: of "
			    "the statistic named), with its interval¹; **p adj.**: the p-value adjusted "
			    "for the m measures compared for that baseline and candidate². A change is "
			    "**negligible** when its whole interval lies within ±1 %% (unless "
			    "`--negligible` says otherwise), and **no change detected** when the "
			    "interval holds 0.\n\n");
		findings_rows(md, rows);
		fprintf(md, "¹ The interval is %g %% simultaneous over the pair's m measures: each interval at "
			    "1 − %g / m (Bonferroni), by Fieller's theorem on Welch's t (vmstat: with each "
			    "series' effective sample size); findings.csv also has the unadjusted %g %% "
			    "interval.\n\n"
			    "² Welch's t-test (latency: Mann–Whitney for p50, a bootstrap of each side's p99 "
			    "for p99, Kolmogorov–Smirnov for the whole distribution, a normal test for "
			    "the share late), two-sided, times m (Bonferroni); %s in all. docs/statistics.md "
			    "(D12–D18) in benchlog's source defines each number.\n\n",
			confidence * 100, 1 - confidence, confidence * 100, BL_COUNT(rows->tests, "test"));
		if (rows->geo)
			fprintf(md, "A measure marked (geometric mean) has values on a side that span a factor of 10 or "
				    "more: its change is that of the geometric means, its test and interval are on "
				    "ln values (D6a).\n\n");
	}
	for (size_t i = 0; i < rows->nskip; i++) {
		fputs("Table ", md);
		cell(md, rows->skip[i].table);
		fputs(": ", md);
		cell(md, rows->skip[i].why);
		fputs(".\n", md);
	}
	if (rows->nskip)
		fputc('\n', md);
}

int bl_report_csv_field(FILE *f, const char *s, bool last)
{
	return bl_csv_write_text(f, s ? s : "") || fputc(last ? '\n' : ',', f) == EOF ? -1 : 0;
}

/* F6: the columns of findings.csv and of report.sqlite's findings
 * table, in order; a field is text (s) or a number (v, NaN empty). */
static const char *const fhead[] = {
	"table", "by", "source", "thread", "column", "baseline", "candidate", "base_n",
	"cand_n", "base_mean", "cand_mean", "pct_change", "pct_lo", "pct_hi", "p", "p_holm",
	"p_bh", "tests", "detectable_pct", "verdict", "note", "p_adj", "pct_lo_unadj",
	"pct_hi_unadj", "first_message",
};
#define NF (sizeof fhead / sizeof fhead[0])
struct fval {
	const char *s;   /* text field, or NULL for a number */
	double v;
};

static void fields(const struct bl_cmp_row *w, struct fval *o)
{
	const struct bl_cmp *r = &w->r;
	const char *t[] = { w->table, w->block, w->source, w->message_id, w->column, w->baseline, w->candidate };
	size_t k = 0;
	for (size_t i = 0; i < 7; i++)
		o[k++] = (struct fval){ t[i] ? t[i] : "", NAN };
	double v[] = {
		(double)w->n_base, (double)w->n_cand, w->mean_base, w->mean_cand, r->pct,
		r->tested ? r->ci.pct_lo : NAN, r->tested ? r->ci.pct_hi : NAN, r->tested ? r->t.p : NAN,
		r->p_holm, r->p_bh, (double)w->family, r->detect_pct,
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		o[k++] = (struct fval){ NULL, v[i] };
	o[k++] = (struct fval){ r->verdict ? r->verdict : "", NAN };
	o[k++] = (struct fval){ r->note ? r->note : "", NAN };
	o[k++] = (struct fval){ NULL, r->p_adj };
	o[k++] = (struct fval){ NULL, r->tested ? r->ci_raw.pct_lo : NAN };
	o[k++] = (struct fval){ NULL, r->tested ? r->ci_raw.pct_hi : NAN };
	o[k++] = (struct fval){ w->thread_ref ? w->thread_ref : "", NAN };
}

/* F6: a column's type in report.sqlite: base_n, cand_n and tests
 * INTEGER, the other numbers REAL, text TEXT. */
static enum bl_vtype ftype(size_t k)
{
	if (k < 7 || k == 19 || k == 20 || k == NF - 1)
		return BL_STR;
	return k == 7 || k == 8 || k == 17 ? BL_INT : BL_NUM;
}

/* F4, F6: one row of findings.csv and of report.sqlite's findings. 0,
 * or the errno of the first write that failed (EIO when none is set). */
static int out_row(struct bl_findings *f, const struct bl_cmp_row *w)
{
	int bad = 0;
	struct fval fv[NF];
	struct bl_val v[NF];
	fields(w, fv);
	for (size_t k = 0; k < NF; k++) {
		char b[40] = "";
		enum bl_vtype t = ftype(k);
		double d = fv[k].v;
		/* F6: the double the text reads back as ("inf" as it is); a
		 * count's text reads back as the count */
		size_t n = t != BL_STR && !isnan(d) ? (size_t)bl_fmt_stat(b, sizeof b, d) : 0;
		if (t == BL_NUM && n && bl_parse_double(b, n, &d))
			d = fv[k].v;
		v[k] = t == BL_STR ? (struct bl_val){ t, { .s = fv[k].s } } : isnan(d) ? (struct bl_val){ BL_NULL, { 0 } }
		     : t == BL_INT ? (struct bl_val){ t, { .i = (long long)d } } : (struct bl_val){ t, { .d = d } };
		/* a number's text needs neither quotes nor cleaning */
		if (!bad && (fv[k].s ? bl_report_csv_field(f->csv, fv[k].s, k + 1 == NF)
				     : fputs(b, f->csv) == EOF || fputc(k + 1 == NF ? '\n' : ',', f->csv) == EOF))
			bad = errno ? errno : EIO;
	}
	if (f->db)   /* a failure fails the database's finish() */
		(void)bl_sqlite_row(f->db, f->dbtab, v);
	return bad;
}

int bl_findings_begin(struct bl_findings *f, const char *path, const struct bl_sink *db)
{
	enum bl_vtype types[NF];
	for (size_t k = 0; k < NF; k++)
		types[k] = ftype(k);
	f->db = db;
	f->dbtab = bl_sqlite_table(db, "findings", fhead, types, NF);
	if (f->dbtab < 0)
		return -BL_EIO;
	f->csv = fopen(path, "w");
	int bad = !f->csv;
	for (size_t i = 0; !bad && i < NF; i++)
		bad |= bl_report_csv_field(f->csv, fhead[i], i + 1 == NF);
	if (bad && !f->err)
		f->err = errno ? errno : EIO;
	return bad ? -BL_EIO : 0;
}

/* A batch's rows as they are taken, in F2's order (F8): what H1 and F4
 * keep of them. */
struct stream {
	size_t *slot;                /* by a row's fam (D12): its question's place in q + 1, 0 none */
	struct bl_question *q;       /* in the order first seen; their rows owned copies */
	size_t nq;
	struct bl_finding *top;      /* the batch's first BL_FINDINGS_SHOWN, owned */
	size_t ntop;
	int err;                     /* the first failed write's errno, 0 */
};

/* H2: question q of the batch offered to the headline's first
 * BL_HEADLINE_SHOWN: kept, with its rows, when it comes before the last
 * kept; its rows freed otherwise. */
static void offer_question(struct bl_findings *f, struct bl_question *q)
{
	f->nq++;
	f->nq_changed += q->changed > 0;
	const struct bl_finding head = { q->row[0], q->seq };
	size_t at = f->nq_kept;
	while (at > 0) {
		const struct bl_finding prev = { f->q[at - 1].row[0], f->q[at - 1].seq };
		if (cmp_ranked(&prev, &head) < 0)
			break;
		at--;
	}
	if (at >= BL_HEADLINE_SHOWN) {
		for (size_t i = 0; i < q->nrow; i++)
			row_free(&q->row[i]);
		return;
	}
	if (f->nq_kept == BL_HEADLINE_SHOWN) {   /* the last drops out */
		struct bl_question *last = &f->q[BL_HEADLINE_SHOWN - 1];
		for (size_t i = 0; i < last->nrow; i++)
			row_free(&last->row[i]);
		f->nq_kept--;
	}
	memmove(&f->q[at + 1], &f->q[at], (f->nq_kept - at) * sizeof *f->q);
	f->nq_kept++;
	f->q[at] = *q;
}

/* H1: row w (the batch's next in F2's order) tallied in its question;
 * F2 puts a question's changed rows first, and its first
 * BL_HEADLINE_CHANGES of them (else its first row) are copied. */
static void tally_row(struct stream *st, const struct bl_cmp_row *w, unsigned long long seq)
{
	size_t *k = &st->slot[w->fam];
	if (!*k) {
		st->q = bl_xrealloc(st->q, (st->nq + 1) * sizeof *st->q);
		st->q[st->nq] = (struct bl_question){ .row[0] = row_copy(w), .nrow = 1, .seq = seq };
		*k = ++st->nq;
	}
	struct bl_question *q = &st->q[*k - 1];
	q->n++;
	switch (w->r.kind) {
	case BL_V_NO_CHANGE: q->no_change++; break;
	case BL_V_NEGLIGIBLE: q->negligible++; break;
	case BL_V_AVERAGES_ONLY: q->averages++; break;
	case BL_V_TOO_FEW: case BL_V_NO_TEST: q->untested++; break;
	case BL_V_BETTER: case BL_V_WORSE: case BL_V_HIGHER: case BL_V_LOWER:
		if (q->changed > 0 && q->changed < BL_HEADLINE_CHANGES)
			q->row[q->changed] = row_copy(w);
		q->changed++;
		q->nrow = q->changed < BL_HEADLINE_CHANGES ? q->changed : BL_HEADLINE_CHANGES;
		break;
	}
}

/* F8: row w, the batch's next in F2's order, written, counted, tallied
 * and, among the batch's first, copied. */
static void take_row(struct bl_findings *f, struct stream *st, const struct bl_cmp_row *w,
		     unsigned long long seq)
{
	int e = f->csv ? out_row(f, w) : EIO;
	st->err = st->err ? st->err : e;
	if (f->n++ == 0) {
		f->src0 = w->source;
		f->mid0 = w->message_id;
		f->ref0 = w->thread_ref;
	}
	f->several |= !same(w->source, f->src0) || !same(w->message_id, f->mid0) || !same(w->thread_ref, f->ref0);
	f->count[w->r.kind]++;
	f->geo |= w->r.geo;
	tally_row(st, w, seq);
	if (st->ntop < BL_FINDINGS_SHOWN)
		st->top[st->ntop++] = (struct bl_finding){ row_copy(w), seq };
}

/* The batch's questions offered (in the order first seen) and its first
 * rows merged into the first BL_FINDINGS_SHOWN (only a batch's first can
 * be among them). */
static void stream_end(struct bl_findings *f, struct stream *st)
{
	for (size_t k = 0; k < st->nq; k++)
		offer_question(f, &st->q[k]);
	free(st->q);
	free(st->slot);
	/* both in F2's order: merged from the back into f->top, not sorted
	 * again (qsort() per input was 280 M of the 10,000 files' 23.1 G
	 * instructions), nor copied to a new array per input */
	size_t m = f->ntop + st->ntop, a = f->ntop, b = st->ntop;
	if (!f->top)
		f->top = bl_xmalloc(BL_FINDINGS_SHOWN * sizeof *f->top);
	for (size_t i = m; b > 0 && i-- > 0;) {   /* then f->top[0..a) is in place */
		bool old = b == 0 || (a > 0 && cmp_ranked(&f->top[a - 1], &st->top[b - 1]) >= 0);
		struct bl_finding x = old ? f->top[--a] : st->top[--b];
		if (i < BL_FINDINGS_SHOWN)
			f->top[i] = x;   /* i >= a: no row not yet merged is overwritten */
		else
			row_free(&x.w);
	}
	free(st->top);
	f->ntop = m < BL_FINDINGS_SHOWN ? m : BL_FINDINGS_SHOWN;
	if (st->err && !f->err)
		f->err = st->err;
}

/* F8 for a spilled batch: each row read back (and judged) once for its
 * key and kept when the batch's rows fit in BL_STORE_MEM, as one
 * input's do; a larger batch's are read again in F2's order, memory
 * holding the keys, not the rows. */
static void take_spill(struct bl_findings *f, struct stream *st, struct bl_cmp_spill *sp)
{
	size_t n = bl_cmp_spill_n(sp), k = 0, j = 0, nfam = 0;
	struct key *key = bl_xmalloc((n ? n : 1) * sizeof *key);
	struct bl_cmp_row w, *kept = n && n <= BL_STORE_MEM / sizeof w ? bl_xmalloc(n * sizeof w) : NULL;
	int bad = 0;   /* errno of a failed read back (EIO when none is set) */
	for (size_t i = 0; i < n && !bad; i++) {
		bad = bl_cmp_spill_get(sp, i, &w) != 0 ? (errno ? errno : EIO) : 0;
		bool compared = !bad && !isnan(w.r.diff);   /* F4: else nothing compared */
		if (compared) {
			key[k++] = key_of(&w, f->seq++, i);
			nfam = w.fam >= nfam ? w.fam + 1 : nfam;
		}
		if (compared && kept)
			kept[i] = w;
		else
			row_free(&w);
	}
	qsort(key, k, sizeof *key, cmp_key);
	st->slot = bl_xcalloc(nfam ? nfam : 1, sizeof *st->slot);
	st->top = bl_xmalloc(((k < BL_FINDINGS_SHOWN ? k : BL_FINDINGS_SHOWN) + 1) * sizeof *st->top);
	for (; j < k && !bad; j++) {
		if (kept)
			w = kept[key[j].i];
		else
			bad = bl_cmp_spill_get(sp, key[j].i, &w) != 0 ? (errno ? errno : EIO) : 0;
		if (!bad)
			take_row(f, st, &w, key[j].seq);
		row_free(&w);
	}
	for (; kept && j < k; j++)   /* a row not read: the others kept let go */
		row_free(&kept[key[j].i]);
	free(kept);
	free(key);
	if (bad && !f->err) {
		f->err = bad;
		f->tmp_failed = true;
	}
}

int bl_findings_take(struct bl_findings *f, struct bl_cmp_rows *rows)
{
	f->skip = bl_xrealloc(f->skip, (f->nskip + rows->nskip + 1) * sizeof *f->skip);
	if (rows->nskip)
		memcpy(f->skip + f->nskip, rows->skip, rows->nskip * sizeof *rows->skip);
	f->nskip += rows->nskip;
	free(rows->skip);
	rows->skip = NULL;
	rows->nskip = 0;
	struct stream st;
	memset(&st, 0, sizeof st);
	if (rows->spill)
		take_spill(f, &st, rows->spill);
	stream_end(f, &st);
	f->tests += rows->tests;   /* D12's m, as the spill adjusted them */
	rows->tests = 0;
	bl_cmp_spill_free(rows->spill);
	rows->spill = NULL;
	return f->err ? -BL_EIO : 0;
}

int bl_findings_end(struct bl_findings *f)
{
	if (f->csv) {
		int bad = ferror(f->csv);   /* a row's errno is in f->err already */
		if (fclose(f->csv) != 0 && !f->err)
			f->err = errno ? errno : EIO;
		if (bad && !f->err)
			f->err = EIO;
	}
	f->csv = NULL;
	return f->err ? -BL_EIO : 0;
}

void bl_findings_release(struct bl_findings *f)
{
	if (f->csv)
		fclose(f->csv);
	f->csv = NULL;
	for (size_t i = 0; i < f->ntop; i++)
		row_free(&f->top[i].w);
	free(f->top);
	for (size_t k = 0; k < f->nq_kept; k++)
		for (size_t i = 0; i < f->q[k].nrow; i++)
			row_free(&f->q[k].row[i]);
	for (size_t i = 0; i < f->nskip; i++)
		free(f->skip[i].why);
	free(f->skip);
	memset(f, 0, sizeof *f);
}

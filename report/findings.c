/* findings.c — F1-F3 of report/findings.h. */
#include <csv.h>
#include <sqlite3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/findings.h"
#include "core/escape.h"
#include "core/util.h"

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

static int cmp_finding(const void *a, const void *b)
{
	const struct bl_cmp_row *x = a, *y = b;
	int rx = rank(x->r.kind), ry = rank(y->r.kind);
	if (rx != ry)
		return rx - ry;
	double px = isnan(x->r.pct) ? -1 : fabs(x->r.pct), py = isnan(y->r.pct) ? -1 : fabs(y->r.pct);
	if (px != py)
		return px > py ? -1 : 1;
	return 0;
}

/* Markdown table cell text: '|' and markup characters escaped. */
static void cell(FILE *f, const char *s)
{
	/* E3 first: valid UTF-8, every control (C0, C1) a space */
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_md_code(&b, s);
	for (const char *p = b.data ? b.data : ""; *p; p++) {
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

static void pval(FILE *f, double p)
{
	char b[32];
	bl_fmt_p_person(b, sizeof b, p);
	fputs(b, f);
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
		pval(md, r->p_adj);
		fprintf(md, " (m %zu)", w->family);
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

void bl_report_findings_order(struct bl_cmp_rows *rows)
{
	/* F4: nothing compared when a side has no values */
	size_t k = 0;
	for (size_t i = 0; i < rows->n; i++) {
		if (isnan(rows->row[i].r.diff)) {
			free(rows->row[i].block);
			free(rows->row[i].baseline);
			free(rows->row[i].candidate);
			continue;
		}
		rows->row[k++] = rows->row[i];
	}
	rows->n = k;
	if (rows->n)
		qsort(rows->row, rows->n, sizeof *rows->row, cmp_finding);   /* F2 */
}

static void table_head(FILE *md)
{
	fprintf(md, "| table | measure | baseline → candidate | change [interval] | p adj. | verdict |\n"
		    "|---|---|---|--:|--:|---|\n");
}

/* F4: the rows from..n-1 counted by verdict, after lead. */
static void count_rest(FILE *md, const struct bl_cmp_rows *rows, size_t from, const char *lead)
{
	size_t count[BL_V_NO_TEST + 1] = { 0 };
	for (size_t i = from; i < rows->n; i++)
		count[rows->row[i].r.kind]++;
	fputs(lead, md);
	const char *sep = " ";
	for (int v = 0; v <= BL_V_NO_TEST; v++) {
		if (!count[v])
			continue;
		fprintf(md, "%s%zu %s", sep, count[v], bl_verdict_kind_name((enum bl_verdict_kind)v));
		sep = ", ";
	}
	fputs(".\n\n", md);
}

static bool same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* F5: the rows that changed, the rest counted, every row behind a
 * <details>. */
static void findings_rows(FILE *md, const struct bl_cmp_rows *rows)
{
	bool several = false;   /* F7: more than one file or thread */
	for (size_t i = 1; i < rows->n && !several; i++)
		several = !same(rows->row[i].source, rows->row[0].source) ||
			  !same(rows->row[i].message_id, rows->row[0].message_id);
	size_t nch = 0;   /* F2 puts them first */
	while (nch < rows->n && rank(rows->row[nch].r.kind) == 0)
		nch++;
	if (nch) {
		table_head(md);
		for (size_t i = 0; i < nch && i < BL_FINDINGS_SHOWN; i++)
			row_line(md, &rows->row[i], several);
		fputc('\n', md);
	} else {
		fprintf(md, "No comparison shows a change.\n\n");
	}
	if (nch < rows->n) {
		char lead[96];
		snprintf(lead, sizeof lead, "%s%zu comparison%s:", nch ? "The other " : "",
			 rows->n - nch, rows->n - nch == 1 ? "" : "s");
		count_rest(md, rows, nch, lead);
	}
	char summary[64];
	snprintf(summary, sizeof summary, "%s%s", rows->n == 1 ? "The " : "All ", BL_COUNT(rows->n, "comparison"));
	bl_md_details_open(md, summary);
	table_head(md);
	size_t shown = rows->n < BL_FINDINGS_SHOWN ? rows->n : BL_FINDINGS_SHOWN;
	for (size_t i = 0; i < shown; i++)
		row_line(md, &rows->row[i], several);
	fputc('\n', md);
	if (shown < rows->n) {
		char lead[96];
		snprintf(lead, sizeof lead, "%zu more comparisons, all in [findings.csv](findings.csv) in this order:",
			 rows->n - shown);
		count_rest(md, rows, shown, lead);
	}
	bl_md_details_close(md);
}

void bl_report_findings(FILE *md, const struct bl_cmp_rows *rows, double confidence)
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

/* One CSV field, quoted by libcsv when it must be (as tables/table.c
 * writes them); then ',' or the line end. */
static int put(FILE *f, const char *s, bool last)
{
	size_t n = s ? strlen(s) : 0;
	if (n && strpbrk(s, ",\"\r\n") ? csv_fwrite(f, s, n) != 0 : n && fwrite(s, 1, n, f) != n)
		return -1;
	return fputc(last ? '\n' : ',', f) == EOF ? -1 : 0;
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

int bl_report_findings_csv(FILE *f, const struct bl_cmp_rows *rows)
{
	int bad = 0;
	for (size_t i = 0; i < NF; i++)
		bad |= put(f, fhead[i], i + 1 == NF);
	struct fval fv[NF];
	for (size_t i = 0; i < rows->n; i++) {
		fields(&rows->row[i], fv);
		for (size_t k = 0; k < NF; k++) {
			char b[40] = "";
			if (!fv[k].s && !isnan(fv[k].v))
				bl_fmt_double(b, sizeof b, fv[k].v);
			bad |= put(f, fv[k].s ? fv[k].s : b, k + 1 == NF);
		}
	}
	return bad || ferror(f) ? -BL_EIO : 0;
}

int bl_report_findings_sqlite(const char *path, const struct bl_cmp_rows *rows, const char **why)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	*why = NULL;
	struct bl_buf q = BL_BUF_INIT(0);
	bl_buf_add(&q, "CREATE TABLE findings(", 22);
	struct fval fv[NF];
	if (rows->n)
		fields(&rows->row[0], fv);
	for (size_t k = 0; k < NF; k++) {
		char c[64];
		bool num = rows->n ? !fv[k].s : k >= 7 && k != 19 && k != 20 && k != NF - 1;
		bool whole = k == 7 || k == 8 || k == 17;   /* base_n, cand_n, tests */
		int n = snprintf(c, sizeof c, "%s\"%s\" %s", k ? ", " : "", fhead[k],
				 whole ? "INTEGER" : num ? "REAL" : "TEXT");
		bl_buf_add(&q, c, (size_t)n);
	}
	bl_buf_add(&q, ");", 3);
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, q.data, NULL, NULL, NULL);
	bl_buf_release(&q);
	if (rc == SQLITE_OK) {
		char ins[256] = "INSERT INTO findings VALUES(?";
		for (size_t k = 1; k < NF; k++)
			snprintf(ins + strlen(ins), sizeof ins - strlen(ins), ",?");
		snprintf(ins + strlen(ins), sizeof ins - strlen(ins), ")");
		rc = sqlite3_prepare_v2(db, ins, -1, &st, NULL);
	}
	for (size_t i = 0; rc == SQLITE_OK && i < rows->n; i++) {
		fields(&rows->row[i], fv);
		for (size_t k = 0; k < NF; k++) {
			int b = (int)k + 1;
			if (fv[k].s)
				sqlite3_bind_text(st, b, fv[k].s, -1, SQLITE_STATIC);
			else if (isnan(fv[k].v))
				sqlite3_bind_null(st, b);
			else if (k == 7 || k == 8 || k == 17)
				sqlite3_bind_int64(st, b, (sqlite3_int64)fv[k].v);
			else   /* the double the CSV's text reads back as */
				sqlite3_bind_double(st, b, bl_num_written(fv[k].v));
		}
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		*why = db ? sqlite3_errmsg(db) : "cannot open the database";
	int out = rc == SQLITE_OK ? 0 : -BL_EIO;
	static char msg[200];
	if (*why) {
		snprintf(msg, sizeof msg, "%s", *why);
		*why = msg;
	}
	sqlite3_close(db);
	return out;
}

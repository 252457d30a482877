/* outtab.c — see outtab.h. */
#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/outtab.h"
#include "core/escape.h"
#include "core/util.h"

int bl_tabfmt_parse(const char *s, enum bl_tabfmt *out)
{
	if (strcmp(s, "text") == 0)
		*out = BL_TAB_TEXT;
	else if (strcmp(s, "csv") == 0)
		*out = BL_TAB_CSV;
	else if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
		*out = BL_TAB_MD;
	else
		return -BL_EUSAGE;
	return 0;
}

void bl_outtab_init(struct bl_outtab *t)
{
	memset(t, 0, sizeof *t);
}

void bl_outtab_release(struct bl_outtab *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		free(t->head[i]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->head);
	free(t->right);
	free(t->cell);
	bl_outtab_init(t);
}

int bl_outtab_flush(struct bl_outtab *t, FILE *f, enum bl_tabfmt fmt)
{
	int rc = bl_outtab_write(t, f, fmt);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	t->nrows = 0;
	t->headed = fmt == BL_TAB_CSV;
	return rc;
}

void bl_outtab_col(struct bl_outtab *t, const char *name, bool right)
{
	t->head = bl_xrealloc(t->head, (t->ncols + 1) * sizeof *t->head);
	t->right = bl_xrealloc(t->right, (t->ncols + 1) * sizeof *t->right);
	t->head[t->ncols] = bl_xstrdup(name);
	t->right[t->ncols] = right;
	t->ncols++;
}

void bl_outtab_row(struct bl_outtab *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->cell = bl_xrealloc(t->cell, t->cap * t->ncols * sizeof *t->cell);
	}
	for (size_t i = 0; i < t->ncols; i++)
		t->cell[t->nrows * t->ncols + i] = NULL;
	t->nrows++;
}

void bl_outtab_set(struct bl_outtab *t, size_t col, const char *s)
{
	if (t->nrows == 0 || col >= t->ncols)
		return;
	char **c = &t->cell[(t->nrows - 1) * t->ncols + col];
	free(*c);
	*c = s ? bl_xstrdup(s) : NULL;
}

void bl_outtab_setf(struct bl_outtab *t, size_t col, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	bl_outtab_set(t, col, s);
	free(s);
}

void bl_outtab_setnum(struct bl_outtab *t, size_t col, double v, enum bl_tabfmt fmt)
{
	char buf[48];
	bl_outtab_set(t, col, isnan(v) ? NULL : bl_outtab_num(buf, sizeof buf, v, fmt));
}

void bl_outtab_setin(struct bl_outtab *t, size_t col, double v, enum bl_tabfmt fmt)
{
	if (fmt != BL_TAB_CSV || isnan(v)) {
		bl_outtab_setnum(t, col, v, fmt);
		return;
	}
	char buf[48];
	bl_fmt_double(buf, sizeof buf, v);
	bl_outtab_set(t, col, buf);
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

/* The cells (header first), each as a terminal shows it (core/escape.h
 * E7: a group name from a log cannot drive it); NULL stays NULL. */
static char **term_cells(const struct bl_outtab *t)
{
	size_t n = (t->nrows + 1) * t->ncols;
	char **v = bl_xcalloc(n ? n : 1, sizeof *v);
	struct bl_buf b = BL_BUF_INIT(0);
	for (size_t i = 0; i < n; i++) {
		const char *s = i < t->ncols ? t->head[i] : t->cell[i - t->ncols];
		if (!s)
			continue;
		bl_buf_reset(&b);
		bl_esc_term(&b, s, strlen(s), false);
		v[i] = bl_xstrndup(bl_buf_str(&b), b.len);
	}
	bl_buf_release(&b);
	return v;
}

static void write_text(const struct bl_outtab *t, FILE *f)
{
	char **cells = term_cells(t);   /* row r (0: the header) at r * ncols */
	size_t *w = bl_xcalloc(t->ncols ? t->ncols : 1, sizeof *w);
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = bl_utf8_chars(cells[c]);
		for (size_t r = 1; r <= t->nrows; r++) {
			const char *s = cells[r * t->ncols + c];
			size_t x = s ? bl_utf8_chars(s) : 1;
			if (x > w[c])
				w[c] = x;
		}
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		/* no trailing blanks: empty ("") cells at the end are not
		 * written, and the last column is not padded */
		size_t last = t->ncols;
		while (last > 0) {
			const char *e = cells[r * t->ncols + last - 1];
			if (!e || *e)
				break;
			last--;
		}
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cells[r * t->ncols + c];
			if (!s)
				s = "-";
			if (c >= last)
				break;
			size_t x = bl_utf8_chars(s);
			if (c)
				fputs("  ", f);
			if (t->right[c])
				pad(f, w[c] - x);
			fputs(s, f);
			if (!t->right[c] && c + 1 < last)
				pad(f, w[c] - x);
		}
		fputc('\n', f);
	}
	free(w);
	for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
		free(cells[i]);
	free(cells);
}

static bool named(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (strcmp(*list, name) == 0)
			return true;
	return false;
}

/* Column widths as write_text() makes them, into w; their total with the
 * two blanks between columns. */
static size_t widths(const struct bl_outtab *t, size_t *w)
{
	size_t total = t->ncols ? 2 * (t->ncols - 1) : 0;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = bl_utf8_chars(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			const char *s = t->cell[r * t->ncols + c];
			size_t x = s ? bl_utf8_chars(s) : 1;
			if (x > w[c])
				w[c] = x;
		}
		total += w[c];
	}
	return total;
}

static void col_remove(struct bl_outtab *t, size_t c)
{
	size_t n = t->ncols, k = 0;
	free(t->head[c]);
	memmove(t->head + c, t->head + c + 1, (n - c - 1) * sizeof *t->head);
	memmove(t->right + c, t->right + c + 1, (n - c - 1) * sizeof *t->right);
	for (size_t i = 0; i < t->nrows * n; i++) {
		if (i % n == c)
			free(t->cell[i]);
		else
			t->cell[k++] = t->cell[i];
	}
	t->ncols--;
}

/* s cut to at most w characters, the last one "…". */
static void cut_cell(char **s, size_t w)
{
	if (!*s || bl_utf8_chars(*s) <= w)
		return;
	char *p = *s + bl_utf8_at(*s, strlen(*s), w - 1);
	while (p > *s && p[-1] == ' ')
		p--;
	*p = '\0';
	char *r = bl_xasprintf("%s\u2026", *s);
	free(*s);
	*s = r;
}

static int strp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t distinct(char **v, size_t n)
{
	size_t d = 0;
	qsort(v, n, sizeof *v, strp_cmp);
	for (size_t i = 0; i < n; i++)
		d += i == 0 || strcmp(v[i - 1], v[i]) != 0;
	return d;
}

/* Cutting column c to w characters keeps its values apart. */
static bool cut_keeps_apart(const struct bl_outtab *t, size_t c, size_t w)
{
	char **a = bl_xcalloc(t->nrows + 1, sizeof *a), **b = bl_xcalloc(t->nrows + 1, sizeof *b);
	size_t n = 0;
	for (size_t r = 0; r < t->nrows; r++)
		if (t->cell[r * t->ncols + c]) {
			a[n] = t->cell[r * t->ncols + c];
			b[n] = bl_xstrdup(a[n]);
			cut_cell(&b[n++], w);
		}
	bool ok = distinct(a, n) == distinct(b, n);
	for (size_t i = 0; i < n; i++)
		free(b[i]);
	free(a);
	free(b);
	return ok;
}

void bl_outtab_fit(struct bl_outtab *t, size_t width, const char *const *drop,
		   const char *const *keep, char **dropped, bool *cut)
{
	size_t *w = bl_xcalloc(t->ncols + 1, sizeof *w);
	bool *fixed = bl_xcalloc(t->ncols + 1, sizeof *fixed);   /* a cut would merge values */
	struct bl_buf names = BL_BUF_INIT(0);
	*cut = false;
	for (; width && drop && *drop && widths(t, w) > width; drop++)
		for (size_t c = 0; c < t->ncols; c++)
			if (strcmp(t->head[c], *drop) == 0) {
				if (names.len)
					bl_buf_add(&names, ", ", 2);
				bl_buf_add(&names, *drop, strlen(*drop));
				col_remove(t, c);
				break;
			}
	for (size_t total; width && (total = widths(t, w)) > width;) {
		size_t best = t->ncols;
		for (size_t c = 0; c < t->ncols; c++)
			if (!t->right[c] && !fixed[c] && !named(keep, t->head[c]) && w[c] > 8 &&
			    (best == t->ncols || w[c] > w[best]))
				best = c;
		if (best == t->ncols)
			break;
		size_t nw = w[best] - (total - width < w[best] - 8 ? total - width : w[best] - 8);
		while (nw < w[best] && !cut_keeps_apart(t, best, nw))
			nw++;
		if (nw == w[best]) {
			fixed[best] = true;
			continue;
		}
		cut_cell(&t->head[best], nw);
		for (size_t r = 0; r < t->nrows; r++)
			cut_cell(&t->cell[r * t->ncols + best], nw);
		*cut = true;
	}
	*dropped = names.len && !bl_buf_add(&names, "", 0) ? bl_xstrdup(names.data) : NULL;
	bl_buf_release(&names);
	free(fixed);
	free(w);
}

void bl_text_wrap(FILE *f, const char *text, size_t width)
{
	size_t col = 0;
	for (const char *p = text; *p;) {
		if (*p == '\n' || *p == ' ') {
			if (*p == '\n') {
				fputc('\n', f);
				col = 0;
			}
			p++;
			continue;
		}
		size_t n = strcspn(p, " \n"), wn = bl_utf8_chars_n(p, n);
		if (col && width && col + 1 + wn > width) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += wn;
		p += n;
	}
}

void bl_outtab_csv_put(FILE *f, const char *s, bool first)
{
	if (!first)
		fputc(',', f);
	size_t n = s ? strlen(s) : 0;
	if (n && strcspn(s, ",\"\r\n") == n && s[0] != ' ' && s[n - 1] != ' ')
		fputs(s, f);
	else if (n)
		csv_fwrite(f, s, n);
}

static void write_csv(const struct bl_outtab *t, FILE *f)
{
	for (size_t r = t->headed ? 1 : 0; r <= t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			bl_outtab_csv_put(f, r == 0 ? t->head[c] : t->cell[(r - 1) * t->ncols + c], c == 0);
		fputc('\n', f);
	}
}

/* A cell of a Markdown table: '|' escaped; control bytes and C1
 * controls (U+0080-U+009F) as spaces, so the row stays one line and a
 * terminal showing it is not driven. */
static void md_cell(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '|') {
			fputs("\\|", f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fputc(' ', f);
		} else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			fputc(' ', f);
			p++;
		} else {
			fputc(*p, f);
		}
	}
}

static void write_md(const struct bl_outtab *t, FILE *f)
{
	for (size_t r = 0; r <= t->nrows; r++) {
		fputc('|', f);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->head[c] : t->cell[(r - 1) * t->ncols + c];
			fputc(' ', f);
			md_cell(f, s ? s : "");
			fputs(" |", f);
		}
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (size_t c = 0; c < t->ncols; c++)
				fputs(t->right[c] ? " ---: |" : " --- |", f);
			fputc('\n', f);
		}
	}
}

int bl_outtab_write(const struct bl_outtab *t, FILE *f, enum bl_tabfmt fmt)
{
	if (fmt == BL_TAB_CSV)
		write_csv(t, f);
	else if (fmt == BL_TAB_MD)
		write_md(t, f);
	else
		write_text(t, f);
	return ferror(f) ? -BL_EIO : 0;
}

const char *bl_outtab_num(char *buf, size_t bufsz, double v, enum bl_tabfmt fmt)
{
	if (bufsz == 0)
		return "";
	buf[0] = '\0';
	if (isnan(v))
		return buf;
	double a = fabs(v);
	/* D20 in CSV; in text too from 10^12 to 10^15, where six digits
	 * would drop whole ones: every whole digit, one rule for both */
	if (fmt == BL_TAB_CSV || (a >= 1e12 && a < 1e15)) {
		bl_fmt_stat(buf, bufsz, v);
		return buf;
	}
	if (v == 0) {
		snprintf(buf, bufsz, "0");
		return buf;
	}
	if (!isfinite(v) || a >= 1e15 || a < 1e-4) {
		snprintf(buf, bufsz, "%.6g", v);
		return buf;
	}
	/* Six significant digits of the value first rounded to twelve: the
	 * same statistic computed in another order (one pass, or merged
	 * partials: D2) differs in its last bits, and on a tie at the sixth
	 * digit (142.1725, the mean of 400 integers) those bits would decide
	 * the printed digit. Rounded to twelve, both are the same double
	 * (below 10^12, so no whole digit is lost). */
	char pre[32];
	double r;
	snprintf(pre, sizeof pre, "%.12g", v);
	if (bl_parse_double(pre, strlen(pre), &r) == 0) {
		v = r;
		a = fabs(v);
	}
	int mag = (int)floor(log10(a));
	int dec = 5 - mag;
	if (dec < 0)
		dec = 0;
	snprintf(buf, bufsz, "%.*f", dec, v);
	if (strchr(buf, '.')) {
		size_t n = strlen(buf);
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, bufsz, "0");
	return buf;
}

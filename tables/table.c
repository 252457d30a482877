/* table.c — the table writers: CSV, TSV and JSON Lines (see table.h).
 *
 * CSV (RFC 4180): a header row, fields separated by ',', LF line ends,
 * empty field for unknown. Text fields that hold ',', '"', CR or LF are
 * quoted by libcsv; text is made valid UTF-8 first (bl_utf8_clean: bytes
 * outside UTF-8 as \xHH, one cell per text) so every CSV reader can
 * load it. Numbers are written with bl_fmt_double() (core/util.h, '.'
 * decimal point). TSV and JSON Lines go through the same row writer and
 * cell path, with their own quoting.
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/escape.h"
#include "tables/table.h"
#include "parsers/parser.h"
#include "core/util.h"

/* Would s need the escaping of bl_utf8_clean? */
static bool text_needs_escape(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t l = (unsigned char)s[i] < 0x80 ? 1 : bl_utf8_len_n((const unsigned char *)s + i, n - i);
		if (!l || (s[i] == '\\' && (s[i + 1] == 'x' || s[i + 1] == '\\')))
			return true;
		i += l;
	}
	return false;
}

const char *bl_utf8_clean(const char *s, char **fixed)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(s);
	*fixed = NULL;
	if (!text_needs_escape(s, n))
		return s;
	struct bl_buf b = BL_BUF_INIT(0);
	for (size_t i = 0; i < n;) {
		const unsigned char *p = (const unsigned char *)s + i;
		size_t l = bl_utf8_len_n(p, n - i);
		if (!l)
			bl_buf_add(&b, (const char[]){ '\\', 'x', hex[*p >> 4], hex[*p & 15] }, 4);
		else if (*p == '\\')
			bl_buf_add(&b, "\\\\", 2);
		else
			bl_buf_add(&b, s + i, l);
		i += l ? l : 1;
	}
	*fixed = b.data ? b.data : bl_xstrdup("");
	return *fixed;
}

int bl_csv_write_text(FILE *f, const char *s)
{
	char *fixed;
	const char *out = bl_utf8_clean(s, &fixed);
	size_t n = strlen(out);
	bool quote = strpbrk(out, ",\"\r\n") != NULL;
	int rc = 0;
	if (quote) {
		if (csv_fwrite(f, out, n) != 0)
			rc = -BL_EIO;
	} else if (n && fwrite(out, 1, n, f) != n) {
		rc = -BL_EIO;
	}
	int e = errno;   /* the write's, which free() may change */
	free(fixed);
	errno = e;
	return rc;
}

int bl_csv_write_header(FILE *f, const struct bl_table_def *t)
{
	for (size_t i = 0; i < BL_PROV_COLS; i++) {
		if (i)
			fputc(',', f);
		bl_csv_write_text(f, bl_prov_col_names[i]);
	}
	for (size_t i = 0; i < t->ncols; i++) {
		fputc(',', f);
		bl_csv_write_text(f, t->cols[i].name);   /* never a formula's first character */
	}
	fputc('\n', f);
	return ferror(f) ? -BL_EIO : 0;
}

/* The row writer, one cell path for CSV, TSV and JSON Lines. Rows are
 * assembled in the writer's buffer and handed to stdio in blocks of
 * BL_ROW_BUF bytes. A value becomes text in one place: a number by
 * put_ll() or bl_fmt_double(), the same text in every format (JSON Lines
 * writes an integer as 4614226, never 4614226.0); a text by
 * text_cell(), in the format's quoting: CSV through libcsv when it holds
 * , " CR or LF, TSV with \t \n \r \\, JSON escaped only where the string
 * holds " \ or a control character. What stays the same from row to row
 * is written once and copied: the provenance text of a row (source;
 * message, quoted, group), compared by content, never by pointer, as the
 * strings are the parser's to reuse, and the table's own cells between
 * those that vary (struct plan: separators, JSON Lines' keys `,"swpd":`,
 * the cells a parser says stay the same). Measured on 20 MB of vmstat
 * (212,519 rows), this path took `-f jsonl` from 30x the time of `-f csv` (a jansson object
 * per row) to about the same. */
/* 256 KiB: -f jsonl of 50 MB of vmstat 0.278 s of processor time, 0.295 s
 * in 64 KiB writes (-f csv 0.203 s both) */
#define BL_ROW_BUF (256 * 1024)
#define LIT_SLOT 32
#define NUM_ROOM 40
#define LL_TEXT 20   /* "-9223372036854775808": a long long's longest text */

/* The last number written in a column and its text: one more (a vmstat
 * row's line, sample, t_s) is that text counted up (parse -t vmstat of
 * 20 MB: 783 M instructions, 799 M by put_ll()). */
struct counter {
	long long last;
	size_t len;
	char text[NUM_ROOM];
};

/* A row's cells in the writer's format as steps: the literal text before
 * each cell that varies (separators, JSON Lines' keys, and the cells a
 * record's const_cols say stay the same while its const_gen does,
 * core/record.h), then the cell; made once per (table, const_gen).
 * With vmstat's record made in place: parse -t vmstat of 50 MB 0.213 s
 * of processor time, 0.242 s a cell at a time with a record per row. */
struct plan {
	const struct bl_table_def *table;
	unsigned long gen;
	unsigned long long cols;
	size_t n;                          /* cells that vary */
	struct step {                      /* the literal before cell k in lit, */
		unsigned off, len;         /* LIT_SLOT bytes readable after it; */
		size_t col;                /* the cell's column (step n: the end); */
		size_t run;                /* cells from here that are the line's */
		struct counter cnt;        /* the cell's last number, if any */
	} step[BL_MAX_COLS + 1];           /* tokens in order, with a ',' between */
	struct bl_buf lit;
	unsigned long tok_gen;             /* the struct bl_digits runs were made for */
};

struct bl_csv_writer {
	FILE *f;
	enum bl_outfmt fmt;
	bool sheet_safe;             /* struct bl_table_opts */
	size_t n;                    /* bytes pending in b */
	bool err;                    /* a write was short (errno from it) */
	struct plan plan;
	struct bl_buf cell;          /* a text cell on the slow path */
	/* the provenance last written: its keys and its text as written */
	struct bl_buf src_key, src_text;         /* "source," */
	struct bl_buf mid_key, mid_text;         /* ",message_id,date,subject,quoted,group,group_source," */
	size_t mid_len;                          /* mid_text's, then an empty run and copy_of follow */
	int mid_quoted;
	unsigned long prov_gen;      /* of the provenance last written, 0: none */
	unsigned char plain[256];    /* plain_bytes() of fmt */
	struct counter line;
	char b[BL_ROW_BUF];
};

static void rb_flush(struct bl_csv_writer *rb)
{
	if (rb->n && fwrite(rb->b, 1, rb->n, rb->f) != rb->n)
		rb->err = true;
	rb->n = 0;
}

/* Room for need more bytes in b (need <= BL_ROW_BUF). */
static inline char *rb_room(struct bl_csv_writer *rb, size_t need)
{
	if (BL_ROW_BUF - rb->n < need)
		rb_flush(rb);
	return rb->b + rb->n;
}

/* inline: parse -t vmstat of 50 MB 1,716 M instructions, 1,731 M a call */
static inline void rb_add(struct bl_csv_writer *rb, const char *p, size_t n)
{
	if (n > BL_ROW_BUF - rb->n) {
		rb_flush(rb);
		if (n > BL_ROW_BUF) {
			if (fwrite(p, 1, n, rb->f) != n)
				rb->err = true;
			return;
		}
	}
	memcpy(rb->b + rb->n, p, n);
	rb->n += n;
}

/* s as a JSON string, quotes included (jansson's escapes: \" \\ \b \f \n
 * \r \t, \u00XX for the other control characters, UTF-8 as it is). */
static void json_text(struct bl_buf *out, const char *s, size_t n)
{
	bl_buf_addc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
			: c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
		if (e)
			bl_buf_add(out, e, 2);
		else if (c < 0x20)
			bl_buf_addf(out, "\\u%04X", c);
		else
			bl_buf_addc(out, (char)c);
	}
	bl_buf_addc(out, '"');
}

/* s as one cell of fmt, appended to out: made valid UTF-8, then quoted
 * or escaped as the format says (table.h). */
static void text_cell(struct bl_buf *out, enum bl_outfmt fmt, bool sheet_safe, const char *s)
{
	char *fixed, *prefixed = NULL;
	const char *t = bl_utf8_clean(s, &fixed);
	size_t n = strlen(t);
	if (fmt == BL_OUT_JSONL) {
		json_text(out, t, n);
	} else if (fmt == BL_OUT_TSV) {
		for (size_t i = 0; i < n; i++) {
			char c = t[i];
			const char *e = c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\\' ? "\\\\" : NULL;
			if (e)
				bl_buf_add(out, e, 2);
			else
				bl_buf_addc(out, c);
		}
	} else {
		if (sheet_safe && bl_esc_formula_like(t, n)) {
			t = prefixed = bl_xasprintf("'%s", t);
			n++;
		}
		if (strpbrk(t, ",\"\r\n")) {
			size_t need = csv_write(NULL, 0, t, n);
			char *q = bl_xmalloc(need);
			csv_write(q, need, t, n);
			bl_buf_add(out, q, need);
			free(q);
		} else {
			bl_buf_add(out, t, n);
		}
	}
	free(fixed);
	free(prefixed);
}

/* Whether s can be copied as it is into a cell (JSON Lines: between
 * quotes); then *len is its length. Non-ASCII bytes (which may need UTF-8
 * repair), the format's specials and, with --spreadsheet-safe, a CSV
 * formula's first character go to text_cell(). */
static bool plain_text(const struct bl_csv_writer *rb, const char *s, size_t *len)
{
	if (rb->sheet_safe && rb->fmt == BL_OUT_CSV && bl_esc_formula_like(s, *s ? 1 : 0))
		return false;
	size_t i = 0;
	while (rb->plain[(unsigned char)s[i]])
		i++;
	*len = i;
	return s[i] == '\0';
}

/* The bytes plain_text() lets through in fmt: ASCII but NUL, the
 * format's specials, and backslash, which bl_utf8_clean() doubles. */
static void plain_bytes(unsigned char *plain, enum bl_outfmt fmt)
{
	const char *special = fmt == BL_OUT_CSV ? ",\"\r\n\\" : fmt == BL_OUT_TSV ? "\t\r\n\\" : "\"\\";
	for (unsigned c = 0; c < 256; c++)
		plain[c] = c && c < 0x80 && !strchr(special, (int)c) && (fmt != BL_OUT_JSONL || c >= 0x20);
}

static void rb_text(struct bl_csv_writer *rb, const char *s)
{
	size_t n;
	bool json = rb->fmt == BL_OUT_JSONL;
	if (plain_text(rb, s, &n)) {
		char *p = rb_room(rb, json ? 2 : 0);
		if (json)
			*p = '"', rb->n++;
		rb_add(rb, s, n);
		if (json)
			*rb_room(rb, 1) = '"', rb->n++;
	} else {
		bl_buf_reset(&rb->cell);
		text_cell(&rb->cell, rb->fmt, rb->sheet_safe, s);
		if (rb->cell.data)
			rb_add(rb, rb->cell.data, rb->cell.len);
	}
}

/* "00" to "99", for put_ll(). */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal v at p (room for NUM_ROOM bytes); returns the end. Two digits
 * per division, straight to p with the length counted first (parse -t
 * vmstat of 50 MB: 0.171 s of processor time, 0.180 s a digit at a time
 * into a scratch and copied; median of 15 runs alternating). */
static inline char *put_ll(char *p, long long v)
{
	static const unsigned long long pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	if (v < 0)
		*p++ = '-';
	if (u < 10) {                /* most counters of a row */
		*p = (char)('0' + u);
		return p + 1;
	}
	size_t len = 2;
	while (len < 20 && u >= pow10[len])
		len++;
	char *q = p + len;
	for (; u >= 100; u /= 100) {
		q -= 2;
		memcpy(q, digit_pairs + u % 100 * 2, 2);
	}
	if (u >= 10)
		memcpy(q - 2, digit_pairs + u * 2, 2);
	else
		q[-1] = (char)('0' + u);
	return p + len;
}

/* v at p by c (room for NUM_ROOM bytes); returns the end. The text is
 * copied before it is counted up: a byte stored, then read with others,
 * waits (-f tsv of 50 MB: 0.144 s of processor time, 0.147 s otherwise). */
static inline char *put_count(struct counter *c, char *p, long long v)
{
	bool next = v > 0 && v - 1 == c->last;
	c->last = v;
	if (next) {
		size_t i = c->len;
		memcpy(p, c->text, LL_TEXT);   /* whole, whatever its length */
		while (i > 0 && c->text[i - 1] == '9')
			i--, c->text[i] = p[i] = '0';
		if (i > 0) {
			c->text[i - 1]++;
			p[i - 1]++;
			return p + c->len;
		}
	}
	c->len = (size_t)(put_ll(c->text, v) - c->text);
	return put_ll(p, v);
}

/* A number cell at p: its text (bl_fmt_double's, core/util.h), the same in
 * every format; JSON has no infinity, so there "inf" is a string. */
static inline char *put_num(char *p, double d, enum bl_outfmt fmt)
{
	if (bl_whole(d))
		return put_ll(p, (long long)d);   /* what bl_fmt_double prints for it */
	if (fmt == BL_OUT_JSONL && !isfinite(d)) {
		const char *t = isnan(d) ? "\"nan\"" : d > 0 ? "\"inf\"" : "\"-inf\"";
		size_t n = strlen(t);
		memcpy(p, t, n);
		return p + n;
	}
	return p + bl_fmt_double(p, NUM_ROOM, d);
}

/* The one place a value becomes text, at p with room bytes made for the
 * row (rb_text() may move the buffer: the new end is returned). An empty
 * value is nothing in CSV and TSV, null in JSON Lines. */
static inline char *put_val(struct bl_csv_writer *rb, const struct bl_val *v, char *p, size_t room)
{
	switch (v->t) {
	case BL_NULL:
		if (rb->fmt == BL_OUT_JSONL)
			memcpy(p, "null", 4), p += 4;
		break;
	case BL_NUM:
		p = put_num(p, v->u.d, rb->fmt);
		break;
	case BL_INT:
		p = put_ll(p, v->u.i);
		break;
	case BL_STR:
		rb->n = (size_t)(p - rb->b);
		rb_text(rb, v->u.s ? v->u.s : "");
		p = rb_room(rb, room);
		break;
	}
	return p;
}

/* pl made for r: each column's lead (the format's separator, JSON Lines'
 * key) and, when r says it stays the same (and its text is short), its
 * cell, in the literal before the next cell that varies. */
static void plan_make(struct bl_csv_writer *rb, struct plan *pl, const struct bl_record *r)
{
	static const char pad[LIT_SLOT];
	const struct bl_table_def *t = r->table;
	bool json = rb->fmt == BL_OUT_JSONL;
	bl_buf_reset(&pl->lit);
	pl->n = 0;
	pl->step[0].off = 0;
	for (size_t i = 0; i < t->ncols && i < BL_MAX_COLS; i++) {
		if (json) {
			bl_buf_addc(&pl->lit, ',');
			json_text(&pl->lit, t->cols[i].name, strlen(t->cols[i].name));
			bl_buf_addc(&pl->lit, ':');
		} else {
			bl_buf_addc(&pl->lit, rb->fmt == BL_OUT_TSV ? '\t' : ',');
		}
		size_t k0 = pl->lit.len;
		if (r->const_cols >> i & 1) {
			const struct bl_val *v = &r->v[i];
			char num[NUM_ROOM];
			if (v->t == BL_STR)
				text_cell(&pl->lit, rb->fmt, rb->sheet_safe, v->u.s ? v->u.s : "");
			else
				bl_buf_add(&pl->lit, num, (size_t)(put_val(rb, v, num, 0) - num));
			if (pl->lit.len - k0 < NUM_ROOM)
				continue;
			pl->lit.len = k0;        /* a long text: written with the row */
		}
		struct step *st = &pl->step[pl->n++];
		st->cnt.len = 0;
		st->len = (unsigned)(pl->lit.len - st->off);
		st->col = i;
		pl->step[pl->n].off = (unsigned)pl->lit.len;
	}
	bl_buf_add(&pl->lit, json ? "}\n" : "\n", json ? 2 : 1);
	pl->step[pl->n].len = (unsigned)(pl->lit.len - pl->step[pl->n].off);
	bl_buf_add(&pl->lit, pad, LIT_SLOT);
	pl->table = t;
	pl->gen = r->const_gen;
	pl->cols = r->const_cols;
	pl->tok_gen = 0;
}

/* pl's runs for the tokens of dg: cells of consecutive tokens (CSV: with
 * only the ',' between them, so the run's text is the cells). */
static void plan_runs(struct bl_csv_writer *rb, struct plan *pl, const struct bl_digits *dg)
{
	for (size_t k = pl->n; k-- > 0;) {
		struct step *st = &pl->step[k], *nx = st + 1;
		unsigned t = dg->tok[st->col];
		st->run = t == BL_NO_TOKEN ? 0 : 1;
		if (st->run && k + 1 < pl->n && dg->tok[nx->col] == t + 1 &&
		    (rb->fmt != BL_OUT_CSV || (nx->len == 1 && pl->lit.data[nx->off] == ',')))
			st->run += nx->run;
	}
	pl->tok_gen = dg->gen;
}

/* The literal of step st at p (room for LIT_SLOT more than its length);
 * its end. */
static inline char *put_lit(char *p, const char *lit, const struct step *st)
{
	if (st->len <= LIT_SLOT)
		memcpy(p, lit + st->off, LIT_SLOT);   /* a copy of a known size: two moves */
	else
		memcpy(p, lit + st->off, st->len);
	return p + st->len;
}

/* TSV and JSON Lines: the run of n cells from step st (token t on), its
 * first literal already at p, each cell and the next step's literal
 * (10 MB of vmstat: -f jsonl 398 M instructions, -f tsv 392 M, a cell at a
 * time; 359 M and 353 M). */
static char *cells_run(char *p, const char *lit, const struct step *st, const struct bl_digits *dg,
		       unsigned t, size_t n)
{
	const char *text = dg->text;             /* not read again after each store */
	const unsigned short *at = dg->at + t;
	const unsigned char *nd = dg->nd + t;
	memcpy(p, text + at[0], BL_SCAN_COPY);
	p += nd[0];
	for (size_t i = 1; i < n; i++) {
		p = put_lit(p, lit, st + i);
		memcpy(p, text + at[i], BL_SCAN_COPY);
		p += nd[i];
	}
	return p;
}

/* r's columns in the writer's format by its plan, then the row's end;
 * number cells the line wrote as the writers would are copied from it
 * (core/record.h struct bl_digits), a run of them at once (parse -t
 * vmstat of 20 MB: 788 M instructions, 825 M a cell at a time). */
static void row_fields(struct bl_csv_writer *rb, const struct bl_record *r)
{
	struct plan *pl = &rb->plan;
	if (pl->table != r->table || pl->gen != r->const_gen || pl->cols != r->const_cols)
		plan_make(rb, pl, r);
	const struct bl_digits *dg = r->digits;
	if (dg && pl->tok_gen != dg->gen)
		plan_runs(rb, pl, dg);
	size_t room = pl->lit.len + pl->n * NUM_ROOM;
	char *p = rb_room(rb, room);
	for (size_t k = 0; k < pl->n;) {
		const struct step *st = &pl->step[k];
		p = put_lit(p, pl->lit.data, st);
		size_t j = 0, run = dg ? st->run : 0;
		unsigned t = run ? dg->tok[st->col] : 0;
		/* a run copied unchecked when every token can be (parse -t
		 * vmstat of 20 MB: 783 M instructions, 812 M checking each) */
		if (run && dg->whole)
			j = run;
		while (j < run && dg->nd[t + j] - 1u < BL_SCAN_COPY - 1)
			j++;
		if (j == 0) {
			const struct bl_val *v = &r->v[st->col];
			if (v->t == BL_INT || (v->t == BL_NUM && bl_whole(v->u.d)))
				p = put_count(&pl->step[k].cnt, p, v->t == BL_INT ? v->u.i : (long long)v->u.d);
			else
				p = put_val(rb, v, p, room);
			k++;
			continue;
		}
		if (rb->fmt != BL_OUT_CSV) {
			p = cells_run(p, pl->lit.data, st, dg, t, j);
			k += j;
			continue;
		}
		const char *s = dg->text + dg->at[t];
		size_t n = (size_t)(dg->at[t + j - 1] + dg->nd[t + j - 1] - dg->at[t]);
		memcpy(p, s, n < BL_SCAN_COPY ? BL_SCAN_COPY : n);   /* room: NUM_ROOM a cell */
		p += n;
		k += j;
	}
	rb->n = (size_t)(put_lit(p, pl->lit.data, &pl->step[pl->n]) - rb->b);
}

/* Append s and a NUL to key. */
static void key_add(struct bl_buf *key, const char *s)
{
	bl_buf_add(key, s, strlen(s) + 1);
}

/* Whether key holds exactly the strings of parts (each NUL-ended). */
static bool key_same(const struct bl_buf *key, const char *const *parts, size_t n)
{
	if (!key->data)
		return false;
	const char *k = key->data, *end = key->data + key->len;
	for (size_t i = 0; i < n; i++) {
		if (k >= end || strcmp(k, parts[i]) != 0)
			return false;
		k += strlen(k) + 1;
	}
	return k == end;
}

/* What comes before provenance column i in fmt: a separator (none before
 * the first), or in JSON Lines the key, after "{" or ",". */
static void prov_lead(struct bl_buf *out, enum bl_outfmt fmt, size_t i)
{
	if (fmt == BL_OUT_JSONL) {
		bl_buf_addc(out, i ? ',' : '{');
		json_text(out, bl_prov_col_names[i], strlen(bl_prov_col_names[i]));
		bl_buf_addc(out, ':');
	} else if (i) {
		bl_buf_addc(out, fmt == BL_OUT_TSV ? '\t' : ',');
	}
}

/* Provenance columns from..to-1 with their leads, then the lead of
 * column to, into out: cells[k] is the text of column from + k; NULL
 * there is unknown (JSON null, an empty cell elsewhere); the quoted
 * column is a number. */
static void prov_cells(const struct bl_csv_writer *rb, struct bl_buf *out, size_t from, size_t to,
		       const char *const *cells)
{
	enum bl_outfmt fmt = rb->fmt;
	bl_buf_reset(out);
	for (size_t i = from; i < to; i++) {
		const char *c = cells[i - from];
		prov_lead(out, fmt, i);
		if (i == BL_PC_QUOTED)
			bl_buf_add(out, c, strlen(c));
		else if (c)
			text_cell(out, fmt, rb->sheet_safe, c);
		else if (fmt == BL_OUT_JSONL)
			bl_buf_add(out, "null", 4);
	}
	prov_lead(out, fmt, to);
}

/* r's source and what comes before its line, made again when it changed. */
static void row_source(struct bl_csv_writer *rb, const struct bl_record *r)
{
	const char *src = r->source ? r->source : "";
	if (!key_same(&rb->src_key, &src, 1)) {
		bl_buf_reset(&rb->src_key);
		key_add(&rb->src_key, src);
		prov_cells(rb, &rb->src_text, BL_PC_SOURCE, BL_PC_LINE, &src);
	}
}

/* message_id, date, subject, quoted, group, group_source, with what comes
 * before each and before run, made again when they changed. */
static void row_mid(struct bl_csv_writer *rb, const struct bl_record *r)
{
	const struct bl_msg *m = r->msg;
	const char *parts[5] = {
		r->group ? r->group : "",
		r->group_source ? r->group_source : "",
		m && m->message_id ? m->message_id : "",
		m && m->date ? m->date : "",
		m && m->subject ? m->subject : "",
	};
	size_t np = m ? 5 : 2;           /* without a message, its fields are empty */
	if (r->quoted != rb->mid_quoted || !key_same(&rb->mid_key, parts, np)) {
		bl_buf_reset(&rb->mid_key);
		for (size_t i = 0; i < np; i++)
			key_add(&rb->mid_key, parts[i]);
		rb->mid_quoted = r->quoted;
		char quoted[24];
		snprintf(quoted, sizeof quoted, "%d", r->quoted);
		/* unknown (JSON null) when not from mail or not in the message */
		const char *cells[6] = { *parts[2] ? parts[2] : NULL, *parts[3] ? parts[3] : NULL,
					 *parts[4] ? parts[4] : NULL, quoted, parts[0], parts[1] };
		prov_cells(rb, &rb->mid_text, BL_PC_MESSAGE_ID, BL_PC_RUN, cells);
		rb->mid_len = rb->mid_text.len;
		const char *none = rb->fmt == BL_OUT_JSONL ? "null,\"copy_of\":null"
				   : rb->fmt == BL_OUT_TSV ? "\t" : ",";
		bl_buf_add(&rb->mid_text, none, strlen(none));
	}
}

/* r as a row of the writer's format (with its line end) into rb. */
static void row_write(struct bl_csv_writer *rb, const struct bl_record *r)
{
	/* the same generation: the same provenance text, no strings compared
	 * (parse -t vmstat of 4 MB: 226.6M instructions, 235.2M comparing) */
	if (!r->prov_gen || r->prov_gen != rb->prov_gen || r->quoted != rb->mid_quoted) {
		row_source(rb, r);
		row_mid(rb, r);
		rb->prov_gen = r->prov_gen;
	}
	rb_add(rb, rb->src_text.data, rb->src_text.len);
	char *p = rb_room(rb, NUM_ROOM);
	rb->n = (size_t)(put_count(&rb->line, p, (long long)r->line) - rb->b);
	/* no run and no copy_of: written with the provenance (-f jsonl of
	 * 5 MB of vmstat: 209 M instructions, 215 M a cell at a time) */
	if (r->run <= 0 && !r->copy_of) {
		rb_add(rb, rb->mid_text.data, rb->mid_text.len);
		row_fields(rb, r);
		return;
	}
	rb_add(rb, rb->mid_text.data, rb->mid_len);
	if (r->run > 0)
		p = rb_room(rb, NUM_ROOM), rb->n = (size_t)(put_ll(p, r->run) - rb->b);
	else if (rb->fmt == BL_OUT_JSONL)
		rb_add(rb, "null", 4);
	/* copy_of (core/block.h): its lead, then the text, or nothing (null) */
	if (rb->fmt == BL_OUT_JSONL)
		rb_add(rb, ",\"copy_of\":", 11);
	else
		*rb_room(rb, 1) = rb->fmt == BL_OUT_TSV ? '\t' : ',', rb->n++;
	if (r->copy_of)
		rb_text(rb, r->copy_of);
	else if (rb->fmt == BL_OUT_JSONL)
		rb_add(rb, "null", 4);
	row_fields(rb, r);
}

struct bl_csv_writer *bl_table_writer_new(FILE *f, const struct bl_table_opts *o)
{
	struct bl_csv_writer *w = bl_xmalloc(sizeof *w);
	w->f = f;
	w->fmt = o->fmt;
	w->sheet_safe = o->spreadsheet_safe;
	plain_bytes(w->plain, w->fmt);
	w->n = 0;
	w->err = false;
	struct bl_buf empty = BL_BUF_INIT(0);
	w->cell = w->plan.lit = empty;
	w->plan.table = NULL;
	w->src_key = w->src_text = w->mid_key = w->mid_text = empty;
	w->mid_quoted = 0;
	w->prov_gen = w->line.len = w->mid_len = 0;
	return w;
}

struct bl_csv_writer *bl_csv_writer_new(FILE *f)
{
	static const struct bl_table_opts csv = { BL_OUT_CSV, false };
	return bl_table_writer_new(f, &csv);
}

int bl_csv_writer_record(struct bl_csv_writer *w, const struct bl_record *r)
{
	row_write(w, r);
	return w->err ? -BL_EIO : 0;
}

int bl_csv_writer_flush(struct bl_csv_writer *w)
{
	rb_flush(w);
	return w->err || ferror(w->f) ? -BL_EIO : 0;
}

void bl_csv_writer_free(struct bl_csv_writer *w)
{
	if (!w)
		return;
	free(w->plan.lit.data);
	free(w->cell.data);
	free(w->src_key.data);
	free(w->src_text.data);
	free(w->mid_key.data);
	free(w->mid_text.data);
	free(w);
}

int bl_csv_write_record(FILE *f, const struct bl_record *r)
{
	struct bl_csv_writer *w = bl_csv_writer_new(f);
	row_write(w, r);
	int rc = bl_csv_writer_flush(w);
	bl_csv_writer_free(w);
	return rc;
}

/* ---- headers ---- */

static int tsv_header(FILE *f, const struct bl_table_def *t)
{
	for (size_t i = 0; i < BL_PROV_COLS; i++)
		fprintf(f, "%s%s", i ? "\t" : "", bl_prov_col_names[i]);
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, "\t%s", t->cols[i].name);
	fputc('\n', f);
	return ferror(f) ? -BL_EIO : 0;
}

int bl_outfmt_parse(const char *s, enum bl_outfmt *out)
{
	if (strcmp(s, "csv") == 0)
		*out = BL_OUT_CSV;
	else if (strcmp(s, "tsv") == 0)
		*out = BL_OUT_TSV;
	else if (strcmp(s, "jsonl") == 0)
		*out = BL_OUT_JSONL;
	else
		return -BL_EUSAGE;
	return 0;
}

const char *bl_outfmt_ext(enum bl_outfmt f)
{
	return f == BL_OUT_TSV ? "tsv" : f == BL_OUT_JSONL ? "jsonl" : "csv";
}

int bl_table_write_header(FILE *f, const struct bl_table_def *t, enum bl_outfmt fmt)
{
	if (fmt == BL_OUT_TSV)
		return tsv_header(f, t);
	if (fmt == BL_OUT_JSONL)
		return 0;
	return bl_csv_write_header(f, t);
}

/* ---- folder sink: DIR/<table>.csv, atomically ---- */

struct dir_table {
	const struct bl_table_def *def;
	FILE *f;
	struct bl_csv_writer *w;     /* its rows, in the sink's format */
	char *tmp;
	char *final;
};

struct dir_sink {
	mode_t umask;
	char *dir;
	char *only;
	struct bl_table_opts o;
	struct dir_table *t;
	size_t n;
};

/* Start DIR/<table>.<ext> as a temporary file with the table's header. */
static struct dir_table *dir_table_open(struct dir_sink *d, const struct bl_table_def *def)
{
	d->t = bl_xrealloc(d->t, (d->n + 1) * sizeof *d->t);
	struct dir_table *dt = &d->t[d->n];
	memset(dt, 0, sizeof *dt);
	dt->def = def;
	const char *ext = bl_outfmt_ext(d->o.fmt);
	dt->final = bl_xasprintf("%s/%s.%s", d->dir, def->name, ext);
	/* the pid in the name lets a later run remove it if we die (cleanup.h) */
	char *fname = bl_xasprintf("%s.%s", def->name, ext);
	dt->tmp = bl_temp_template(d->dir, fname);
	free(fname);
	int fd = mkstemp(dt->tmp);
	if (fd >= 0) {
		fchmod(fd, 0666 & ~d->umask); /* mkstemp makes 0600; outputs are ordinary files */
		bl_cleanup_add(dt->tmp, false);
	}
	if (fd < 0) {
		bl_sink_blame(dt->final);
		free(dt->tmp);
		free(dt->final);
		return NULL;
	}
	d->n++;
	dt->f = fdopen(fd, "w");
	if (!dt->f) {
		close(fd);
		return NULL;
	}
	dt->w = bl_table_writer_new(dt->f, &d->o);
	if (bl_table_write_header(dt->f, def, d->o.fmt))
		return NULL;
	return dt;
}

/* The file of table def, opened at its first row, into *out; NULL there
 * when the sink keeps only another table. 0 or -BL_EIO. */
static int dir_table_get(struct dir_sink *d, const struct bl_table_def *def, struct dir_table **out)
{
	*out = NULL;
	if (d->only && strcmp(d->only, def->name) != 0)
		return 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].def == def)
			*out = &d->t[i];
	if (!*out && !(*out = dir_table_open(d, def)))
		return -BL_EIO;
	return 0;
}

static int dir_record(void *ud, const struct bl_record *r)
{
	struct dir_sink *d = ud;
	struct dir_table *dt;
	int rc = dir_table_get(d, r->table, &dt);
	if (rc || !dt)
		return rc;
	rc = bl_csv_writer_record(dt->w, r);
	if (rc == -BL_EIO)
		bl_sink_blame(dt->final);
	return rc;
}

/* A table with no rows this run whose file is in the folder from an
 * earlier run: rewrite it with the header only, so that no table file in
 * the folder is older than the run (its rows would look like this run's). */
static int dir_refresh_stale(struct dir_sink *d)
{
	const char *ext = bl_outfmt_ext(d->o.fmt);
	for (size_t p = 0; bl_parsers[p]; p++) {
		for (const struct bl_table_def *const *t = bl_parsers[p]->tables; t && *t; t++) {
			if (d->only && strcmp(d->only, (*t)->name) != 0)
				continue;
			bool written = false;
			for (size_t i = 0; i < d->n; i++)
				if (d->t[i].def == *t)
					written = true;
			if (written)
				continue;
			char *path = bl_xasprintf("%s/%s.%s", d->dir, (*t)->name, ext);
			struct stat st;
			bool stale = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
			free(path);
			if (stale && !dir_table_open(d, *t))
				return -BL_EIO;
		}
	}
	return 0;
}

/* The first failure of dir_finish: -BL_EIO, its errno in *err and the
 * file named (bl_sink_blame); a later one changes nothing. */
static int dir_fail(int rc, const char *path, int *err)
{
	if (rc)
		return rc;
	*err = errno;
	bl_sink_blame(path);
	return -BL_EIO;
}

/* Each table's file into place, all or none: where a file of that name
 * was, the two are exchanged (renameat2 RENAME_EXCHANGE), so the old one
 * waits under the temporary name; a failure puts back every file moved
 * so far. Then the old files are removed. A file system that cannot
 * exchange gets a plain rename (no way back there). 0 or dir_fail's. */
static int dir_swap_in(struct dir_sink *d, int *err)
{
	/* per table: 0 no file was there, 1 exchanged, 2 replaced for good */
	char *old = bl_xcalloc(d->n ? d->n : 1, 1);
	int rc = 0;
	size_t moved = 0;
	for (; moved < d->n && rc == 0; moved++) {
		struct dir_table *dt = &d->t[moved];
		int x = renameat2(AT_FDCWD, dt->tmp, AT_FDCWD, dt->final, RENAME_EXCHANGE) == 0 ? 0 : errno;
		if (x == 0)
			old[moved] = 1;
		else if ((x == ENOENT || x == EINVAL) && rename(dt->tmp, dt->final) == 0)
			old[moved] = x == ENOENT ? 0 : 2;
		else
			rc = dir_fail(rc, dt->final, err);
	}
	if (rc)
		moved--;                 /* the one that failed did not move */
	for (size_t i = 0; i < moved; i++) {
		struct dir_table *dt = &d->t[i];
		if (rc && old[i] == 1)
			renameat2(AT_FDCWD, dt->tmp, AT_FDCWD, dt->final, RENAME_EXCHANGE);
		else if (rc && old[i] == 0)
			unlink(dt->final);   /* this run's file, where there was none */
		else if (!rc && old[i] == 1)
			unlink(dt->tmp);     /* the earlier run's file */
	}
	free(old);
	return rc;
}

/* All tables of a run land, or none. Every file is written and closed
 * first; then, holding the folder's lock (flock(2) on the folder itself:
 * a second `parse -o` into it waits here, so the folder ends up with the
 * tables of one run, the one that finishes last, docs/errors.md), every
 * final name is checked (a folder or another non-file in the place of any
 * table fails the run before a single rename), and the files are swapped
 * in (dir_swap_in). On failure every temporary is removed, and errno and
 * bl_sink_blame() name the first file that could not be written. */
static int dir_finish(void *ud, int ok)
{
	struct dir_sink *d = ud;
	int lock = ok ? open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	/* Only a stop signal ends the wait early (cli/main.c catches them
	 * without SA_RESTART): then nothing lands, and errno says EINTR. */
	bool stopped = lock >= 0 && flock(lock, LOCK_EX) != 0 && errno == EINTR;
	ok = ok && !stopped;
	int rc = ok ? dir_refresh_stale(d) : 0;
	int err = rc ? errno : 0;
	for (size_t i = 0; i < d->n; i++) {
		struct dir_table *dt = &d->t[i];
		if (dt->f) {
			if (dt->w && bl_csv_writer_flush(dt->w))
				rc = dir_fail(rc, dt->final, &err);
			if (fflush(dt->f) != 0 || ferror(dt->f) || fsync(fileno(dt->f)) != 0)
				rc = dir_fail(rc, dt->final, &err);
			if (fclose(dt->f) != 0)
				rc = dir_fail(rc, dt->final, &err);
			dt->f = NULL;
		}
	}
	for (size_t i = 0; i < d->n && ok && rc == 0; i++) {
		struct stat st;
		if (lstat(d->t[i].final, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			errno = S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
			rc = dir_fail(rc, d->t[i].final, &err);
		}
	}
	if (ok && rc == 0)
		rc = dir_swap_in(d, &err);
	for (size_t i = 0; i < d->n; i++) {
		if (!ok || rc)
			unlink(d->t[i].tmp);
		bl_cleanup_forget(d->t[i].tmp);
	}
	if (lock >= 0)
		close(lock);             /* and the lock with it */
	if (stopped && !rc) {
		rc = -BL_EINTR;
		err = EINTR;
	}
	if (rc)
		errno = err;
	return rc;
}

static void dir_free(void *ud)
{
	struct dir_sink *d = ud;
	for (size_t i = 0; i < d->n; i++) {
		if (d->t[i].f) {
			fclose(d->t[i].f);
			unlink(d->t[i].tmp);
			bl_cleanup_forget(d->t[i].tmp);
		}
		bl_csv_writer_free(d->t[i].w);
		free(d->t[i].tmp);
		free(d->t[i].final);
	}
	free(d->t);
	free(d->dir);
	free(d->only);
	free(d);
}

int bl_dir_sink(struct bl_sink *out, const char *dir, const char *only_table, const struct bl_table_opts *o)
{
	if (access(dir, W_OK | X_OK) != 0)
		return -BL_EIO;
	struct dir_sink *d = bl_xcalloc(1, sizeof *d);
	d->o = *o;
	d->umask = umask(022);
	umask(d->umask);
	d->dir = bl_xstrdup(dir);
	d->only = only_table ? bl_xstrdup(only_table) : NULL;
	/* hidden table files of a run that was killed (cleanup.h) */
	const char *ext = bl_outfmt_ext(o->fmt);
	for (size_t p = 0; bl_parsers[p]; p++)
		for (const struct bl_table_def *const *t = bl_parsers[p]->tables; t && *t; t++) {
			char *prefix = bl_xasprintf(".%s.%s.", (*t)->name, ext);
			bl_sweep_stale(dir, prefix);
			free(prefix);
		}
	out->record = dir_record;
	out->copies = true;   /* a copy keeps its row (core/block.h B4) */
	out->finish = dir_finish;
	out->free = dir_free;
	out->ud = d;
	return 0;
}

/* ---- one table to a stream ---- */

struct stream_sink {
	FILE *f;
	struct bl_csv_writer *w;
	enum bl_outfmt fmt;
	const struct bl_table_def *def;
	bool header;
};

/* Before a row: the header, once. 0 or -BL_EIO. */
static int stream_header(struct stream_sink *s)
{
	if (s->header)
		return 0;
	s->header = true;
	return bl_table_write_header(s->f, s->def, s->fmt) ? -BL_EIO : 0;
}

static int stream_record(void *ud, const struct bl_record *r)
{
	struct stream_sink *s = ud;
	if (r->table != s->def)
		return 0;
	if (stream_header(s))
		return -BL_EIO;
	return bl_csv_writer_record(s->w, r);
}

static int stream_finish(void *ud, int ok)
{
	struct stream_sink *s = ud;
	if (ok)
		stream_header(s);            /* an error shows in ferror() below */
	if (bl_csv_writer_flush(s->w))
		return -BL_EIO;
	if (fflush(s->f) != 0 || ferror(s->f))
		return -BL_EIO;
	return 0;
}

static void stream_free(void *ud)
{
	struct stream_sink *s = ud;
	bl_csv_writer_free(s->w);
	free(s);
}

int bl_stream_sink(struct bl_sink *out, FILE *f, const struct bl_table_def *t, const struct bl_table_opts *o)
{
	struct stream_sink *s = bl_xcalloc(1, sizeof *s);
	s->fmt = o->fmt;
	s->f = f;
	s->def = t;
	s->w = bl_table_writer_new(f, o);
	out->record = stream_record;
	out->copies = true;   /* a copy keeps its row (core/block.h B4) */
	out->finish = stream_finish;
	out->free = stream_free;
	out->ud = s;
	return 0;
}

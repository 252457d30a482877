/* table.c — records and the CSV writers (see table.h).
 *
 * CSV (RFC 4180): a header row, fields separated by ',', LF line ends,
 * empty field for unknown. Text fields that hold ',', '"', CR or LF are
 * quoted by libcsv's csv_fwrite(); text is made valid UTF-8 first (invalid
 * bytes become U+FFFD) so every CSV reader can load it. Numbers are written
 * with bl_fmt_double() (round-trip exact, '.' decimal point).
 */
#include <csv.h>
#include <jansson.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/escape.h"
#include "tables/table.h"
#include "parsers/parser.h"
#include "core/util.h"

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t len;
	unsigned min;
	unsigned cp;
	if (c < 0x80)
		return 1;
	else if ((c & 0xE0) == 0xC0)
		len = 2, cp = c & 0x1F, min = 0x80;
	else if ((c & 0xF0) == 0xE0)
		len = 3, cp = c & 0x0F, min = 0x800;
	else if ((c & 0xF8) == 0xF0)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

const char *bl_utf8_clean(const char *s, char **fixed)
{
	size_t n = strlen(s);
	*fixed = NULL;
	size_t i = 0;
	while (i < n) {
		size_t l = utf8_seq((const unsigned char *)s + i, n - i);
		if (!l)
			break;
		i += l;
	}
	if (i == n)
		return s;
	struct bl_buf b = BL_BUF_INIT(0);
	bl_buf_add(&b, s, i);
	while (i < n) {
		size_t l = utf8_seq((const unsigned char *)s + i, n - i);
		if (l)
			bl_buf_add(&b, s + i, l);
		else
			bl_buf_add(&b, "\xEF\xBF\xBD", 3);
		i += l ? l : 1;
	}
	*fixed = b.data ? b.data : bl_xstrdup("");
	return *fixed;
}

static bool spreadsheet_safe;

void bl_csv_set_spreadsheet_safe(bool on)
{
	spreadsheet_safe = on;
}

static int write_text(FILE *f, const char *s)
{
	char *fixed, *prefixed = NULL;
	const char *out = bl_utf8_clean(s, &fixed);
	if (spreadsheet_safe && bl_esc_formula_like(out, strlen(out)))
		out = prefixed = bl_xasprintf("'%s", out);
	size_t n = strlen(out);
	bool quote = strpbrk(out, ",\"\r\n") != NULL;
	int rc = 0;
	if (quote) {
		if (csv_fwrite(f, out, n) != 0)
			rc = -BL_EIO;
	} else if (n && fwrite(out, 1, n, f) != n) {
		rc = -BL_EIO;
	}
	free(fixed);
	free(prefixed);
	return rc;
}

int bl_csv_write_header(FILE *f, const struct bl_table_def *t)
{
	for (size_t i = 0; i < BL_PROV_COLS; i++) {
		if (i)
			fputc(',', f);
		write_text(f, bl_prov_col_names[i]);
	}
	for (size_t i = 0; i < t->ncols; i++) {
		fputc(',', f);
		write_text(f, t->cols[i].name);
	}
	fputc('\n', f);
	return ferror(f) ? -BL_EIO : 0;
}

/* The CSV writer. Rows are assembled in the writer's buffer and handed to
 * stdio in blocks of BL_CSV_BUF bytes. The provenance text of a row
 * (source; message, quoted, group), which stays the same for long runs of
 * rows, is escaped once and copied while it stays the same: compared by
 * content, never by pointer, as the strings are the parser's to reuse.
 * Text that needs quoting or UTF-8 repair goes through write_text() after
 * the buffer is flushed, so the bytes are the same either way. */
#define BL_CSV_BUF 65536

struct bl_csv_writer {
	FILE *f;
	size_t n;                    /* bytes pending in b */
	bool err;                    /* a write was short (errno from it) */
	char b[BL_CSV_BUF];
	/* the provenance last written: its keys and its text as written */
	struct bl_buf src_key, src_text;         /* "source," */
	struct bl_buf mid_key, mid_text;         /* ",message_id,date,subject,quoted,group,group_source," */
	int mid_quoted;
};

static void rb_flush(struct bl_csv_writer *rb)
{
	if (rb->n && fwrite(rb->b, 1, rb->n, rb->f) != rb->n)
		rb->err = true;
	rb->n = 0;
}

/* Room for need more bytes in b (need <= BL_CSV_BUF). */
static inline char *rb_room(struct bl_csv_writer *rb, size_t need)
{
	if (BL_CSV_BUF - rb->n < need)
		rb_flush(rb);
	return rb->b + rb->n;
}

static void rb_add(struct bl_csv_writer *rb, const char *p, size_t n)
{
	if (n > BL_CSV_BUF - rb->n) {
		rb_flush(rb);
		if (n > BL_CSV_BUF) {
			if (fwrite(p, 1, n, rb->f) != n)
				rb->err = true;
			return;
		}
	}
	memcpy(rb->b + rb->n, p, n);
	rb->n += n;
}

/* Bytes that send a text field to the slow path: CSV specials, every
 * non-ASCII byte (which may need UTF-8 repair), and with --spreadsheet-safe
 * a formula's first character. */
static bool plain_text(const char *s, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	if (spreadsheet_safe && bl_esc_formula_like(s, *s ? 1 : 0))
		return false;
	for (; p[i]; i++) {
		unsigned char c = p[i];
		if (c >= 0x80 || c == ',' || c == '"' || c == '\r' || c == '\n')
			return false;
	}
	*len = i;
	return true;
}

static void rb_text(struct bl_csv_writer *rb, const char *s)
{
	size_t n;
	if (plain_text(s, &n)) {
		rb_add(rb, s, n);
	} else {
		rb_flush(rb);
		if (write_text(rb->f, s))
			rb->err = true;
	}
}

/* "00" to "99", for put_ll(). */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal v at p (room for NUM_ROOM bytes); returns the end. Two digits
 * per division: writing the numbers a digit at a time was a third of
 * `parse -t vmstat`. The digits go straight to p, the length counted
 * first (made in a scratch and copied, they cost a store-forwarding stall
 * each). */
#define NUM_ROOM 40
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

static inline void rb_ll(struct bl_csv_writer *rb, long long v)
{
	char *p = rb_room(rb, NUM_ROOM);
	rb->n = (size_t)(put_ll(p, v) - rb->b);
}

/* ",value" for each column of r: numbers straight into the buffer (room
 * for all of them made once), text through rb_text(). */
static void csv_fields(struct bl_csv_writer *rb, const struct bl_record *r)
{
	size_t nc = r->table->ncols;
	char *p = rb_room(rb, nc * NUM_ROOM + 1);
	for (size_t i = 0; i < nc; i++) {
		const struct bl_val *v = &r->v[i];
		*p++ = ',';
		switch (v->t) {
		case BL_NULL:
			break;
		case BL_NUM:
			if (fabs(v->u.d) < 1e15 && v->u.d == (double)(long long)v->u.d)
				p = put_ll(p, (long long)v->u.d);   /* what bl_fmt_double prints for it */
			else
				p += bl_fmt_double(p, NUM_ROOM, v->u.d);
			break;
		case BL_INT:
			p = put_ll(p, v->u.i);
			break;
		case BL_STR:
			rb->n = (size_t)(p - rb->b);
			rb_text(rb, v->u.s ? v->u.s : "");
			p = rb_room(rb, (nc - i) * NUM_ROOM + 1);
			break;
		}
	}
	*p++ = '\n';
	rb->n = (size_t)(p - rb->b);
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

/* lead, then each cell as write_text() writes it and a comma, into out
 * (through a memory stream, so the bytes are those of the general path). */
static void cached_cells(struct bl_csv_writer *rb, struct bl_buf *out, const char *lead,
			 const char *const *cells, size_t n)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&mem, &len);
	bool bad = !m || fputs(lead, m) == EOF;
	for (size_t i = 0; !bad && i < n; i++)
		bad = write_text(m, cells[i]) || fputc(',', m) == EOF;
	if (m && fclose(m))
		bad = true;
	bl_buf_reset(out);
	if (bad)
		rb->err = true;
	else
		bl_buf_add(out, mem, len);
	free(mem);
}

/* r's source and the comma after it. */
static void csv_source(struct bl_csv_writer *rb, const struct bl_record *r)
{
	const char *src = r->source ? r->source : "";
	if (!key_same(&rb->src_key, &src, 1)) {
		bl_buf_reset(&rb->src_key);
		key_add(&rb->src_key, src);
		cached_cells(rb, &rb->src_text, "", &src, 1);
	}
	rb_add(rb, rb->src_text.data, rb->src_text.len);
}

/* ",message_id,date,subject,quoted,group,group_source,": kept while the
 * same. */
static void csv_mid(struct bl_csv_writer *rb, const struct bl_record *r)
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
		const char *cells[6] = { parts[2], parts[3], parts[4], quoted, parts[0], parts[1] };
		cached_cells(rb, &rb->mid_text, ",", cells, 6);
	}
	rb_add(rb, rb->mid_text.data, rb->mid_text.len);
}

/* r as a CSV row (with its line end) into rb. */
static void csv_row(struct bl_csv_writer *rb, const struct bl_record *r)
{
	csv_source(rb, r);
	rb_ll(rb, (long long)r->line);
	csv_mid(rb, r);
	if (r->run > 0)
		rb_ll(rb, r->run);
	csv_fields(rb, r);
}

struct bl_csv_writer *bl_csv_writer_new(FILE *f)
{
	struct bl_csv_writer *w = bl_xmalloc(sizeof *w);
	w->f = f;
	w->n = 0;
	w->err = false;
	struct bl_buf empty = BL_BUF_INIT(0);
	w->src_key = w->src_text = w->mid_key = w->mid_text = empty;
	w->mid_quoted = 0;
	return w;
}

int bl_csv_writer_record(struct bl_csv_writer *w, const struct bl_record *r)
{
	csv_row(w, r);
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
	free(w->src_key.data);
	free(w->src_text.data);
	free(w->mid_key.data);
	free(w->mid_text.data);
	free(w);
}

int bl_csv_write_record(FILE *f, const struct bl_record *r)
{
	struct bl_csv_writer *w = bl_csv_writer_new(f);
	csv_row(w, r);
	int rc = bl_csv_writer_flush(w);
	bl_csv_writer_free(w);
	return rc;
}

/* ---- TSV and JSON Lines ---- */

static void tsv_text(FILE *f, const char *s)
{
	char *fixed;
	const char *t = bl_utf8_clean(s, &fixed);
	for (; *t; t++) {
		switch (*t) {
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\\': fputs("\\\\", f); break;
		default: fputc(*t, f);
		}
	}
	free(fixed);
}

static int tsv_header(FILE *f, const struct bl_table_def *t)
{
	for (size_t i = 0; i < BL_PROV_COLS; i++)
		fprintf(f, "%s%s", i ? "\t" : "", bl_prov_col_names[i]);
	for (size_t i = 0; i < t->ncols; i++)
		fprintf(f, "\t%s", t->cols[i].name);
	fputc('\n', f);
	return ferror(f) ? -BL_EIO : 0;
}

/* The provenance and table values of r as (name, value) pairs. */
static void prov_vals(const struct bl_record *r, struct bl_val *v)
{
	const struct bl_msg *m = r->msg;
	v[0] = (struct bl_val){ BL_STR, { .s = r->source ? r->source : "" } };
	v[1] = (struct bl_val){ BL_INT, { .i = (long long)r->line } };
	/* not from mail, or not in the message: unknown (JSON null), empty
	 * in CSV and TSV */
	const char *ms[3] = { m ? m->message_id : NULL, m ? m->date : NULL, m ? m->subject : NULL };
	for (int i = 0; i < 3; i++)
		v[2 + i] = ms[i] && *ms[i] ? (struct bl_val){ BL_STR, { .s = ms[i] } } : (struct bl_val){ BL_NULL, { .i = 0 } };
	v[5] = (struct bl_val){ BL_INT, { .i = r->quoted } };
	v[6] = (struct bl_val){ BL_STR, { .s = r->group ? r->group : "" } };
	v[7] = (struct bl_val){ BL_STR, { .s = r->group_source ? r->group_source : "" } };
	if (r->run > 0)
		v[8] = (struct bl_val){ BL_INT, { .i = r->run } };
	else
		v[8] = (struct bl_val){ BL_NULL, { .i = 0 } };
}

static int tsv_record(FILE *f, const struct bl_record *r)
{
	struct bl_val pv[BL_PROV_COLS];
	prov_vals(r, pv);
	char num[40];
	for (size_t i = 0; i < BL_PROV_COLS + r->table->ncols; i++) {
		const struct bl_val *v = i < BL_PROV_COLS ? &pv[i] : &r->v[i - BL_PROV_COLS];
		if (i)
			fputc('\t', f);
		switch (v->t) {
		case BL_NULL: break;
		case BL_NUM: bl_fmt_double(num, sizeof num, v->u.d); fputs(num, f); break;
		case BL_INT: fprintf(f, "%lld", v->u.i); break;
		case BL_STR: tsv_text(f, v->u.s ? v->u.s : ""); break;
		}
	}
	fputc('\n', f);
	return ferror(f) ? -BL_EIO : 0;
}

static int jsonl_record(FILE *f, const struct bl_record *r)
{
	struct bl_val pv[BL_PROV_COLS];
	prov_vals(r, pv);
	json_t *o = json_object();
	int prec = 15;
	char num[40];
	for (size_t i = 0; i < BL_PROV_COLS + r->table->ncols; i++) {
		const struct bl_val *v = i < BL_PROV_COLS ? &pv[i] : &r->v[i - BL_PROV_COLS];
		const char *name = i < BL_PROV_COLS ? bl_prov_col_names[i] : r->table->cols[i - BL_PROV_COLS].name;
		json_t *j = NULL;
		char *fixed = NULL;
		switch (v->t) {
		case BL_NULL: j = json_null(); break;
		case BL_INT: j = json_integer(v->u.i); break;
		case BL_NUM: {
			if (!isfinite(v->u.d)) {
				/* JSON has no infinity (jansson refuses it): the text
				 * CSV and TSV hold, so it is not taken for unknown */
				j = json_string(isnan(v->u.d) ? "nan" : v->u.d > 0 ? "inf" : "-inf");
				break;
			}
			/* the precision that reads back exactly, as in CSV */
			int n = bl_fmt_double(num, sizeof num, v->u.d);
			(void)n;
			for (int p = 15; p <= 17; p++) {
				char t[40];
				snprintf(t, sizeof t, "%.*g", p, v->u.d);
				if (strcmp(t, num) == 0) {
					if (p > prec)
						prec = p;
					break;
				}
			}
			j = json_real(v->u.d);
			break;
		}
		case BL_STR: j = json_string(bl_utf8_clean(v->u.s ? v->u.s : "", &fixed)); break;
		}
		free(fixed);
		json_object_set_new(o, name, j ? j : json_null());
	}
	char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT | JSON_REAL_PRECISION(prec));
	json_decref(o);
	if (!text)
		return -BL_ENOMEM;
	fputs(text, f);
	fputc('\n', f);
	free(text);
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

/* One row to f, or through csv (the CSV writer of f) when fmt is CSV. */
static int table_write_record(FILE *f, struct bl_csv_writer *csv, const struct bl_record *r,
			      enum bl_outfmt fmt)
{
	if (fmt == BL_OUT_TSV)
		return tsv_record(f, r);
	if (fmt == BL_OUT_JSONL)
		return jsonl_record(f, r);
	return bl_csv_writer_record(csv, r);
}

/* ---- folder sink: DIR/<table>.csv, atomically ---- */

struct dir_table {
	const struct bl_table_def *def;
	FILE *f;
	struct bl_csv_writer *csv;   /* for CSV */
	char *tmp;
	char *final;
};

struct dir_sink {
	mode_t umask;
	char *dir;
	char *only;
	enum bl_outfmt fmt;
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
	const char *ext = bl_outfmt_ext(d->fmt);
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
	if (d->fmt == BL_OUT_CSV)
		dt->csv = bl_csv_writer_new(dt->f);
	if (bl_table_write_header(dt->f, def, d->fmt))
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
	return table_write_record(dt->f, dt->csv, r, d->fmt);
}

/* A table with no rows this run whose file is in the folder from an
 * earlier run: rewrite it with the header only, so that no table file in
 * the folder is older than the run (its rows would look like this run's). */
static int dir_refresh_stale(struct dir_sink *d)
{
	const char *ext = bl_outfmt_ext(d->fmt);
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

static int dir_finish(void *ud, int ok)
{
	struct dir_sink *d = ud;
	int rc = ok ? dir_refresh_stale(d) : 0;
	for (size_t i = 0; i < d->n; i++) {
		struct dir_table *dt = &d->t[i];
		if (dt->f) {
			if (dt->csv && bl_csv_writer_flush(dt->csv))
				rc = rc ? rc : -BL_EIO;
			if (fflush(dt->f) != 0 || ferror(dt->f) || fsync(fileno(dt->f)) != 0)
				rc = rc ? rc : -BL_EIO;
			if (fclose(dt->f) != 0)
				rc = rc ? rc : -BL_EIO;
			dt->f = NULL;
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		struct dir_table *dt = &d->t[i];
		if (ok && rc == 0) {
			if (rename(dt->tmp, dt->final) != 0)
				rc = -BL_EIO;
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		if (!ok || rc)
			unlink(d->t[i].tmp);
		bl_cleanup_forget(d->t[i].tmp);
	}
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
		bl_csv_writer_free(d->t[i].csv);
		free(d->t[i].tmp);
		free(d->t[i].final);
	}
	free(d->t);
	free(d->dir);
	free(d->only);
	free(d);
}

int bl_csv_dir_sink(struct bl_sink *out, const char *dir, const char *only_table)
{
	return bl_dir_sink(out, dir, only_table, BL_OUT_CSV);
}

int bl_dir_sink(struct bl_sink *out, const char *dir, const char *only_table, enum bl_outfmt fmt)
{
	if (access(dir, W_OK | X_OK) != 0)
		return -BL_EIO;
	struct dir_sink *d = bl_xcalloc(1, sizeof *d);
	d->fmt = fmt;
	d->umask = umask(022);
	umask(d->umask);
	d->dir = bl_xstrdup(dir);
	d->only = only_table ? bl_xstrdup(only_table) : NULL;
	/* hidden table files of a run that was killed (cleanup.h) */
	const char *ext = bl_outfmt_ext(fmt);
	for (size_t p = 0; bl_parsers[p]; p++)
		for (const struct bl_table_def *const *t = bl_parsers[p]->tables; t && *t; t++) {
			char *prefix = bl_xasprintf(".%s.%s.", (*t)->name, ext);
			bl_sweep_stale(dir, prefix);
			free(prefix);
		}
	out->record = dir_record;
	out->finish = dir_finish;
	out->free = dir_free;
	out->ud = d;
	return 0;
}

/* ---- one table to a stream ---- */

struct stream_sink {
	FILE *f;
	struct bl_csv_writer *csv;   /* for CSV */
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
	return table_write_record(s->f, s->csv, r, s->fmt);
}

static int stream_finish(void *ud, int ok)
{
	struct stream_sink *s = ud;
	if (ok)
		stream_header(s);            /* an error shows in ferror() below */
	if (s->csv && bl_csv_writer_flush(s->csv))
		return -BL_EIO;
	if (fflush(s->f) != 0 || ferror(s->f))
		return -BL_EIO;
	return 0;
}

static void stream_free(void *ud)
{
	struct stream_sink *s = ud;
	bl_csv_writer_free(s->csv);
	free(s);
}

int bl_stream_sink(struct bl_sink *out, FILE *f, const struct bl_table_def *t, enum bl_outfmt fmt)
{
	struct stream_sink *s = bl_xcalloc(1, sizeof *s);
	s->fmt = fmt;
	s->f = f;
	s->def = t;
	if (fmt == BL_OUT_CSV)
		s->csv = bl_csv_writer_new(f);
	out->record = stream_record;
	out->finish = stream_finish;
	out->free = stream_free;
	out->ud = s;
	return 0;
}

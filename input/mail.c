/* mail.c — e-mail and archive input through GMime 3 (interface: input/mail.h).
 *
 * docs/mail.md is the specification. Its rules, cited here and by
 * tests/test_mail.c: R1 detection (bl_mail_sniff), R2 text after a "From "
 * line GMime cannot use, R3 ">From " un-escaping, R4 provenance, R5 the
 * parts read, R6 decoding, R7 line numbers and accounting, R8
 * format=flowed, R9 PGP armor, R10 signatures and list footers, R11 HTML,
 * R12 units, R13 an mbox a window at a time, R14 each message once, R15
 * limits, R16 base64 after its end, R17 where a header block ends.
 *
 * GMime splits the mbox, decodes and walks the MIME tree; this file keeps
 * each decoded line's place in the file (struct view, struct pl) and
 * accounts for every physical line once.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <gmime/gmime.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "input/html.h"
#include "input/mail.h"
#include "core/block.h"
#include "core/util.h"

/* GMime, opened at the first mail read (core/util.h bl_dynlib_open()),
 * with the GObject it loads: each function this file calls of theirs,
 * by its own name, through the pointer the loader set. */
#define GMIME_FNS(X) X(g_mime_charset_canon_name) X(g_mime_content_type_get_parameter) \
	X(g_mime_content_type_is_type) X(g_mime_data_wrapper_get_encoding) \
	X(g_mime_data_wrapper_get_stream) X(g_mime_data_wrapper_write_to_stream) \
	X(g_mime_filter_charset_new) X(g_mime_init) X(g_mime_message_get_date) \
	X(g_mime_message_get_message_id) X(g_mime_message_get_mime_part) X(g_mime_message_get_subject) \
	X(g_mime_message_part_get_message) X(g_mime_message_part_get_type) X(g_mime_multipart_get_count) \
	X(g_mime_multipart_get_part) X(g_mime_multipart_get_type) X(g_mime_object_get_content_type) \
	X(g_mime_object_get_content_type_parameter) X(g_mime_object_get_header) \
	X(g_mime_parser_construct_message) X(g_mime_parser_get_headers_begin) \
	X(g_mime_parser_get_mbox_marker_offset) X(g_mime_parser_new_with_stream) \
	X(g_mime_parser_set_format) X(g_mime_parser_set_respect_content_length) X(g_mime_parser_tell) \
	X(g_mime_part_get_content) X(g_mime_part_get_type) X(g_mime_stream_filter_add) \
	X(g_mime_stream_filter_new) X(g_mime_stream_flush) X(g_mime_stream_mem_get_byte_array) \
	X(g_mime_stream_mem_get_type) X(g_mime_stream_mem_new) X(g_mime_stream_mem_new_with_byte_array) \
	X(g_mime_stream_mem_set_byte_array) X(g_mime_stream_mem_set_owner) X(g_mime_stream_substream) \
	X(g_mime_text_part_get_type) X(g_object_unref) X(g_type_check_instance_is_a)
BL_DL_TABLE(GMIME_FNS);
#define g_mime_charset_canon_name BL_DL(g_mime_charset_canon_name)
#define g_mime_content_type_get_parameter BL_DL(g_mime_content_type_get_parameter)
#define g_mime_content_type_is_type BL_DL(g_mime_content_type_is_type)
#define g_mime_data_wrapper_get_encoding BL_DL(g_mime_data_wrapper_get_encoding)
#define g_mime_data_wrapper_get_stream BL_DL(g_mime_data_wrapper_get_stream)
#define g_mime_data_wrapper_write_to_stream BL_DL(g_mime_data_wrapper_write_to_stream)
#define g_mime_filter_charset_new BL_DL(g_mime_filter_charset_new)
#define g_mime_init BL_DL(g_mime_init)
#define g_mime_message_get_date BL_DL(g_mime_message_get_date)
#define g_mime_message_get_message_id BL_DL(g_mime_message_get_message_id)
#define g_mime_message_get_mime_part BL_DL(g_mime_message_get_mime_part)
#define g_mime_message_get_subject BL_DL(g_mime_message_get_subject)
#define g_mime_message_part_get_message BL_DL(g_mime_message_part_get_message)
#define g_mime_message_part_get_type BL_DL(g_mime_message_part_get_type)
#define g_mime_multipart_get_count BL_DL(g_mime_multipart_get_count)
#define g_mime_multipart_get_part BL_DL(g_mime_multipart_get_part)
#define g_mime_multipart_get_type BL_DL(g_mime_multipart_get_type)
#define g_mime_object_get_content_type BL_DL(g_mime_object_get_content_type)
#define g_mime_object_get_content_type_parameter BL_DL(g_mime_object_get_content_type_parameter)
#define g_mime_object_get_header BL_DL(g_mime_object_get_header)
#define g_mime_parser_construct_message BL_DL(g_mime_parser_construct_message)
#define g_mime_parser_get_headers_begin BL_DL(g_mime_parser_get_headers_begin)
#define g_mime_parser_get_mbox_marker_offset BL_DL(g_mime_parser_get_mbox_marker_offset)
#define g_mime_parser_new_with_stream BL_DL(g_mime_parser_new_with_stream)
#define g_mime_parser_set_format BL_DL(g_mime_parser_set_format)
#define g_mime_parser_set_respect_content_length BL_DL(g_mime_parser_set_respect_content_length)
#define g_mime_parser_tell BL_DL(g_mime_parser_tell)
#define g_mime_part_get_content BL_DL(g_mime_part_get_content)
#define g_mime_part_get_type BL_DL(g_mime_part_get_type)
#define g_mime_stream_filter_add BL_DL(g_mime_stream_filter_add)
#define g_mime_stream_filter_new BL_DL(g_mime_stream_filter_new)
#define g_mime_stream_flush BL_DL(g_mime_stream_flush)
#define g_mime_stream_mem_get_byte_array BL_DL(g_mime_stream_mem_get_byte_array)
#define g_mime_stream_mem_get_type BL_DL(g_mime_stream_mem_get_type)
#define g_mime_stream_mem_new BL_DL(g_mime_stream_mem_new)
#define g_mime_stream_mem_new_with_byte_array BL_DL(g_mime_stream_mem_new_with_byte_array)
#define g_mime_stream_mem_set_byte_array BL_DL(g_mime_stream_mem_set_byte_array)
#define g_mime_stream_mem_set_owner BL_DL(g_mime_stream_mem_set_owner)
#define g_mime_stream_substream BL_DL(g_mime_stream_substream)
#define g_mime_text_part_get_type BL_DL(g_mime_text_part_get_type)
#define g_object_unref BL_DL(g_object_unref)   /* GObject, which GMime loads */
#define g_type_check_instance_is_a BL_DL(g_type_check_instance_is_a)

/* GMime parses a seekable stream, so the bytes it parses are held in
 * memory: a single message whole, an mbox a window at a time (R13). At
 * most ctx->opt.mail_max bytes are held (R15); GMime and the decoded
 * text take about four times that at the peak. */
#define READ_CHUNK (256 * 1024)

/* Skip reasons (counted by the dispatcher; documented in docs/mail.md). */
static const char R_SEP[] = "mbox separator";
static const char R_HDR[] = "mail header";
static const char R_SOFT[] = "soft line break (joined to the line before)";
static const char R_ENC[] = "encoded line (decoded text has fewer lines)";
static const char R_UNDECODED[] = "mail part that decodes to no text";
static const char R_HTMLMARK[] = "html markup";
static const char R_HTMLALT[] = "html alternative";
static const char R_ALT[] = "alternative part";
static const char R_NONTEXT[] = "non-text part";
static const char R_PGP[] = "pgp armor";
static const char R_SIG[] = "signature";
static const char R_FOOTER[] = "list footer";
static const char R_DUP[] = "duplicate message";
static const char R_CAPPED[] = "line cut off by the mail size cap";
static const char R_B64_AFTER[] = "base64 after its end";

/* bl_warn() about line lineno of the input, in message msg. */
#define WARN_AT(r, lineno, msg, ...) \
	bl_warn((r)->ctx, &(struct bl_line){ "", 0, (r)->source, (lineno), 0, (msg) }, __VA_ARGS__)

/* ---------------------------------------------------------------- R1 --- */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Length of the line at p (without LF / CR LF); *next gets the start of the
 * next line, or end when the line is the last (possibly unterminated). */
static size_t line_at(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;
	*next = nl ? nl + 1 : end;
	if (e > p && e[-1] == '\r')
		e--;
	return (size_t)(e - p);
}

/* Is [p, end) a header block (R1)? */
static bool header_block(const char *p, const char *end)
{
	static const char *const keys[] = { "from", "date", "subject", "message-id", NULL };
	int fields = 0;
	bool key = false;
	while (p < end) {
		const char *next;
		size_t n = line_at(p, end, &next);
		bool last_partial = next == end && (end == p || end[-1] != '\n');
		if (n == 0)
			return fields >= 2 && key;
		if (is_blank(p[0])) {
			if (fields == 0)
				return false;
		} else {
			size_t k = 0;
			while (k < n && (g_ascii_isalnum(p[k]) || p[k] == '-'))
				k++;
			if (k == n && last_partial)
				break;  /* cut inside a field name by the sniff window */
			if (k == 0 || k >= n || p[k] != ':')
				return false;
			fields++;
			key |= bl_word_index(p, k, keys, true) >= 0;
		}
		p = next;
	}
	/* Ran out of bytes inside the header block: a header-only message, or
	 * a header block longer than the sniff window. */
	return fields >= 2 && key;
}

/* "From " followed by a non-blank word: an mbox From_ line. */
static bool from_line(const char *p, size_t n)
{
	return n > 5 && memcmp(p, "From ", 5) == 0 && !is_blank(p[5]);
}

bool bl_mail_sniff(const char *p, size_t len)
{
	const char *end = p + len, *next;
	if (p == NULL || len == 0)
		return false;
	size_t n = line_at(p, end, &next);
	if (from_line(p, n))
		return next < end && header_block(next, end);
	return header_block(p, end);
}

/* ---------------------------------------------------- subject group ---- */

static pthread_once_t kernel_once = PTHREAD_ONCE_INIT;
static pcre2_code *kernel_re;

/* A kernel version token: x.y[.z[.w]] plus a suffix (2.5.52-mm2,
 * 2.4.18pre2aa2, 2.6.0-test4), not glued to a word before it. */
static const char kernel_pat[] =
	"(?<![A-Za-z0-9_.+~-])(v)?([0-9]{1,2}\\.[0-9]{1,3}(?:\\.[0-9]{1,4}){0,2})([A-Za-z0-9_.+~-]*)";

/* pat compiled with opts and JIT-compiled, for the process; NULL when it
 * does not compile (the caller then matches nothing). */
static pcre2_code *compile_once(const char *pat, uint32_t opts)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts, &err, &off, NULL);
	if (re)
		(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

static void kernel_compile(void)
{
	kernel_re = compile_once(kernel_pat, 0);
}

char *bl_mail_subject_group(const char *subject)
{
	if (subject == NULL)
		return NULL;
	pthread_once(&kernel_once, kernel_compile);
	if (kernel_re == NULL)
		return NULL;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(kernel_re, NULL);
	size_t len = strlen(subject), start = 0;
	char *out = NULL;
	while (start <= len) {
		int rc = pcre2_match(kernel_re, (PCRE2_SPTR)subject, len, start, 0, md, NULL);
		if (rc < 0)
			break;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		size_t b = ov[4], e = ov[5];         /* the x.y.z part */
		size_t se = ov[7];                   /* end of the suffix */
		while (se > e && strchr("._+~-", subject[se - 1]))
			se--;
		int dots = 0;
		for (size_t i = b; i < e; i++)
			dots += subject[i] == '.';
		bool suffix = se > e;
		bool v = ov[2] != PCRE2_UNSET;
		bool named = b >= 6 && (g_ascii_strncasecmp(subject + b - 6, "linux ", 6) == 0 ||
			(b >= 7 && g_ascii_strncasecmp(subject + b - 7, "kernel ", 7) == 0));
		if (dots >= 2 || suffix || v || named) {
			out = bl_xstrndup(subject + b, se - b);
			break;
		}
		start = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	}
	pcre2_match_data_free(md);
	return out;
}

/* s with every run of white space made one space and none at the ends,
 * cut to its first max bytes (R4); "" for NULL. The caller frees it. */
static char *one_spaced(const char *s, size_t max)
{
	if (s == NULL)
		return bl_xstrdup("");
	size_t n = strlen(s);
	char *out = bl_xmalloc(n + 1), *o = out;
	bool space = false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			space = o > out;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = (char)c;
	}
	if ((size_t)(o - out) > max)
		o = out + max;
	*o = '\0';
	return out;
}

/* Reply marks and subject tags, compiled once for the process (a
 * message's subject asks: 674 compiles and JIT compilations were 4.5 %
 * of summary's instructions on 2,000 of the bench's files). */
static pthread_once_t marks_once = PTHREAD_ONCE_INIT;
static pcre2_code *marks_re;

static void marks_compile(void)
{
	marks_re = compile_once("^(?:[ \\t]*(?:(?:re|fwd|fw|aw|sv)(?:\\[[0-9]*\\])?:|\\[[^\\]]*\\]))*",
				PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_CASELESS);
}

char *bl_mail_thread(const char *subject)
{
	const char *s = subject ? subject : "";
	pthread_once(&marks_once, marks_compile);
	if (marks_re) {
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(marks_re, NULL);
		if (pcre2_match(marks_re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL) >= 0)
			s += pcre2_get_ovector_pointer(md)[1];
		pcre2_match_data_free(md);
	}
	char *out = one_spaced(s, 4096);
	if (*out)
		return out;
	free(out);
	return bl_xstrdup("(no subject)");
}

/* ----------------------------------------------------------- reading --- */

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;
static void gmime_start(void)
{
	bl_dynlib_open(BL_SONAME_GMIME, bl_dl_names, bl_dl_fn);
	g_mime_init();
}

/* A message's provenance; strings owned here (R4). */
struct prov {
	struct bl_msg m;
	char *id, *date, *subject;
	struct prov *next;
};

/* The raw bytes of one message as GMime parsed them: either the input
 * buffer itself or an un-escaped copy (R3), with a line index. */
struct view {
	const char *p;
	size_t len;
	gint64 origin;           /* GMime offset of p[0] */
	GByteArray *ba;          /* the array GMime's content streams share */
	size_t *ls;              /* start offset of each line, plus len at [nl] */
	size_t nl;
	unsigned long lineno0;   /* file line number of line 0 */
	size_t next;             /* first line not accounted yet */
	size_t file_end;         /* input offset where the view's bytes end */
	bool at_break;           /* the message runs to where the input broke */
};

struct rd {
	struct bl_ctx *ctx;
	const char *source;
	GByteArray *ba;          /* the input, or the mbox window (R13) */
	GMimeStream *stream;     /* over ba */
	size_t off;              /* first byte of ba not accounted yet */
	unsigned long line;      /* its line number */
	unsigned long index;     /* messages so far */
	struct prov *provs;      /* of the current message (outer first);
				    kept, with the unit of its last part
				    open, until the next message or the end */
	const struct bl_msg *top; /* the current message's own provenance */
	struct prov last;        /* of the last mbox message read (R2); its id
				    is NULL before the first */
	size_t scanned;          /* mbox window: lines before this offset were
				    looked at for a cut (R13) */
	bool broken;             /* the input broke off (truncated or corrupt
				    .gz, a read error): ba ends at the break */
	bool cut;                /* ... inside a line, whose bytes were let go */
	bool capped;             /* ... at the cap (R15), not by the input */
	const struct bl_msg *tail; /* provenance of the last lines read: &last.m
				    or NULL (plain text) */
	/* R15, as bytes come in: the line at the end of ba */
	unsigned long fill_line; /* its file line number */
	size_t fill_cur;         /* its bytes in ba so far (no LF yet) */
	bool dropping;           /* over BL_LINE_MAX: bytes let go up to its LF */
	unsigned long *longl;    /* file line numbers of the lines let go, */
	size_t nlong, caplong;   /* ascending */
	/* unit state (R12) */
	bool unit_open, unit_text;
	const struct bl_msg *unit_msg;
};

static void view_index(struct view *v)
{
	size_t n = 0;
	for (size_t i = 0; i < v->len; i++)
		n += v->p[i] == '\n';
	if (v->len > 0 && v->p[v->len - 1] != '\n')
		n++;
	v->ls = bl_xmalloc((n + 1) * sizeof *v->ls);
	size_t k = 0;
	if (v->len > 0)
		v->ls[k++] = 0;
	for (size_t i = 0; i < v->len; i++)
		if (v->p[i] == '\n' && i + 1 < v->len)
			v->ls[k++] = i + 1;
	v->ls[n] = v->len;
	v->nl = n;
}

/* Line index holding view offset off (0 <= off < len). */
static size_t view_line_of(const struct view *v, size_t off)
{
	size_t lo = 0, hi = v->nl;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->ls[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static const char *view_line(const struct view *v, size_t i, size_t *len)
{
	const char *s = v->p + v->ls[i], *next;
	*len = line_at(s, v->p + v->ls[i + 1], &next);
	return s;
}

static int unit_end(struct rd *r)
{
	if (!r->unit_open)
		return 0;
	r->unit_open = false;
	int rc = r->ctx->lines.end_unit(r->ctx);
	bl_shared_settle(r->ctx);
	return rc;
}

static int unit_begin(struct rd *r, const struct bl_msg *msg)
{
	int rc = unit_end(r);
	r->ctx->lines.begin_unit(r->ctx, r->source, msg);
	r->unit_open = true;
	r->unit_text = false;
	r->unit_msg = msg;
	return rc;
}

/* Was file line lineno let go as too long (R15)? */
static bool too_long(const struct rd *r, unsigned long lineno)
{
	size_t lo = 0, hi = r->nlong;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->longl[mid] < lineno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nlong && r->longl[lo] == lineno;
}

static void skip_line(struct rd *r, const struct bl_msg *msg, const char *s, size_t n,
		      unsigned long lineno, const char *reason)
{
	if (!r->unit_open)
		unit_begin(r, msg);
	if (r->nlong && too_long(r, lineno)) {
		WARN_AT(r, lineno, msg, "line too long", "line longer than %d bytes, skipped", BL_LINE_MAX);
		reason = "line too long";
	}
	bl_skip_raw(r->ctx, s, n, lineno, reason);
}

/* A line of text for the parsers, unless it was let go as too long. */
static int text_line(struct rd *r, const struct bl_msg *msg, const char *s, size_t n,
		     unsigned long lineno)
{
	if (r->nlong && too_long(r, lineno)) {
		skip_line(r, msg, s, n, lineno, NULL);
		return 0;
	}
	r->unit_text = true;
	return r->ctx->lines.line(r->ctx, s, n, lineno, 0);
}

/* Account view lines [v->next, upto) as skipped with reason. */
static void view_skip_as(struct rd *r, struct view *v, size_t upto, const struct bl_msg *msg,
			 const char *reason)
{
	for (; v->next < upto && v->next < v->nl; v->next++) {
		size_t n;
		const char *s = view_line(v, v->next, &n);
		skip_line(r, msg, s, n, v->lineno0 + v->next, reason);
	}
}

/* Lines of the input buffer from r->off up to byte offset `to` (a line
 * start) as skipped with `reason`, or as text when reason is NULL. */
static int file_lines_to(struct rd *r, size_t to, const struct bl_msg *msg, const char *reason)
{
	const char *p = (const char *)r->ba->data, *end = p + to;
	const char *s = p + r->off;
	int rc = 0;
	while (s < end && rc == 0) {
		const char *next;
		size_t n = line_at(s, end, &next);
		if (reason)
			skip_line(r, msg, s, n, r->line++, reason);
		else
			rc = text_line(r, msg, s, n, r->line++);
		s = next;
	}
	r->off = to;
	return rc;
}

/* Lines of the input buffer from r->off up to `to` dispatched as plain text
 * (R2 recovery, and input GMime cannot parse at all). With go_on, lines
 * that continue the message just read (R2) go on in the unit still open
 * for its last part when that part is the message's own, so parser state
 * runs on as in a plain file; otherwise they start a unit of their own. */
static int file_text_to(struct rd *r, size_t to, const struct bl_msg *msg, bool go_on)
{
	const char *p = (const char *)r->ba->data, *end = p + to;
	const char *s = p + r->off;
	int rc = 0;
	bool same = go_on && r->unit_open && r->top && r->unit_msg == r->top;
	if (s < end && !same && (!r->unit_open || r->unit_text || r->unit_msg != msg))
		rc = unit_begin(r, msg);
	if (s < end)
		r->tail = msg;
	if (rc == 0)
		return file_lines_to(r, to, msg, NULL);
	r->off = to;
	return rc;
}

/* ------------------------------------------------------ provenance R4 -- */

/* Fill p from m's headers (R4). A Date that does not parse is warned
 * about when r is given (lineno: where the message starts). */
static void prov_fill(struct prov *p, GMimeMessage *m, unsigned long index, struct rd *r,
		      unsigned long lineno)
{
	const char *id = g_mime_message_get_message_id(m);
	p->id = bl_xstrdup(id ? id : "");
	p->subject = one_spaced(g_mime_message_get_subject(m), SIZE_MAX);
	GDateTime *d = g_mime_message_get_date(m);
	gchar *iso = d ? g_date_time_format(d, "%Y-%m-%dT%H:%M:%S%:z") : NULL;
	p->date = bl_xstrdup(iso ? iso : "");
	g_free(iso);
	const char *raw = d ? NULL : g_mime_object_get_header((GMimeObject *)m, "Date");
	if (raw && r)
		WARN_AT(r, lineno, NULL, "unparsable mail date", "cannot parse Date header \"%s\"", raw);
	p->m.message_id = p->id;
	p->m.date = p->date;
	p->m.subject = p->subject;
	p->m.index = index;
}

static void prov_clear(struct prov *p)
{
	free(p->id);
	free(p->date);
	free(p->subject);
	p->id = p->date = p->subject = NULL;
}

static struct prov *prov_new(struct rd *r, GMimeMessage *m, unsigned long lineno)
{
	struct prov *p = bl_xcalloc(1, sizeof *p);
	prov_fill(p, m, r->index, r, lineno);
	p->next = r->provs;
	r->provs = p;
	return p;
}

static void provs_free(struct rd *r)
{
	while (r->provs) {
		struct prov *p = r->provs;
		r->provs = p->next;
		prov_clear(p);
		free(p);
	}
	r->top = NULL;
}

/* The message read before is done: its unit ends (parsers flush with its
 * provenance still alive), its records are judged as a whole
 * (core/block.h B6), then the provenance is let go. */
static int message_done(struct rd *r)
{
	int rc = unit_end(r);
	int rc2 = bl_block_message_end(r->ctx);
	provs_free(r);
	return rc ? rc : rc2;
}

/* ------------------------------------------------------ part lines ----- */

/* One line of a part as it will be dispatched, with the physical lines of
 * the file it stands for. */
struct pl {
	size_t off, len;          /* text in the part's arena */
	size_t at;                /* view line where its text starts (reported) */
	size_t raw;               /* view line of its first physical line */
	size_t nphys;             /* physical lines it stands for (may be 0) */
	const char *extra;        /* reason for physical lines 2..nphys */
	const char *skip;         /* NULL: dispatch; else why not */
};

struct plist {
	struct pl *v;
	size_t n, cap;
	struct bl_buf arena;
};

static struct pl *pl_push(struct plist *l)
{
	l->v = bl_xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	struct pl *p = &l->v[l->n++];
	memset(p, 0, sizeof *p);
	return p;
}

static const char *pl_text(const struct plist *l, const struct pl *p)
{
	return l->arena.data + p->off;
}

/* Length of the quote prefix: '>' and blanks, ending after the last '>' and
 * at most one blank after it; 0 when the line does not start with '>'
 * (possibly after blanks). *depth gets the number of '>'. */
static size_t qprefix(const char *s, size_t n, int *depth)
{
	size_t i = 0, end = 0;
	int d = 0;
	while (i < n && (s[i] == '>' || s[i] == ' ')) {
		if (s[i] == '>') {
			d++;
			end = i + 1;
		}
		i++;
	}
	if (d > 0 && end < n && s[end] == ' ')
		end++;
	if (depth)
		*depth = d;
	return d ? end : 0;
}

static bool text_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* ------------------------------------------------------------- PGP R9 -- */

static int pgp_pass(struct plist *l)
{
	enum { NONE, HDR, BODY, SIG, BLOCK } st = NONE, after = NONE;
	char endmark[64] = "";
	for (size_t i = 0; i < l->n; i++) {
		struct pl *p = &l->v[i];
		if (p->skip)
			continue;
		const char *s = pl_text(l, p);
		size_t q = qprefix(s, p->len, NULL), n = p->len - q;
		const char *t = s + q;
		while (n > 0 && is_blank(t[n - 1]))
			n--;
		switch (st) {
		case NONE:
		case BODY:
			if (text_is(t, n, "-----BEGIN PGP SIGNED MESSAGE-----") && st == NONE) {
				p->skip = R_PGP;
				st = HDR;
			} else if (n > 20 && bl_startswith(t, n, "-----BEGIN PGP ") &&
				   bl_startswith(t + n - 5, 5, "-----")) {
				p->skip = R_PGP;
				snprintf(endmark, sizeof endmark, "-----END PGP %.*s",
					 (int)(n - 15 > 40 ? 40 : n - 15), t + 15);
				after = st == BODY ? NONE : st;
				st = text_is(t, n, "-----BEGIN PGP SIGNATURE-----") ? SIG : BLOCK;
			} else if (st == BODY && n >= 2 && t[0] == '-' && t[1] == ' ') {
				/* Dash-escape: drop "- " after the quote prefix. */
				if (q == 0) {
					p->off += 2;
					p->len -= 2;
				} else {
					size_t off = l->arena.len;
					if (bl_buf_add(&l->arena, s, q) < 0 ||
					    bl_buf_add(&l->arena, s + q + 2, p->len - q - 2) < 0 ||
					    bl_buf_addc(&l->arena, '\0') < 0)
						return -BL_ENOMEM;
					p->off = off;
					p->len -= 2;
				}
			}
			break;
		case HDR:
			p->skip = R_PGP;
			if (n == 0)
				st = BODY;
			break;
		case SIG:
		case BLOCK:
			p->skip = R_PGP;
			if (n >= strlen(endmark) && memcmp(t, endmark, strlen(endmark)) == 0) {
				st = after;
				after = NONE;
			}
			break;
		}
	}
	return 0;
}

/* -------------------------------------------------------- flowed R8 ---- */

static bool all_numeric(const char *s, size_t n, size_t *ntok)
{
	size_t k = 0, i = 0;
	bool ok = true;
	while (i < n) {
		while (i < n && is_blank(s[i]))
			i++;
		if (i >= n)
			break;
		size_t b = i;
		while (i < n && !is_blank(s[i]))
			i++;
		double d;
		if (bl_parse_double(s + b, i - b, &d) < 0)
			ok = false;
		k++;
	}
	*ntok = k;
	return ok;
}

struct fl {                 /* a physical line under RFC 3676 */
	int depth;
	const char *t;          /* after quote marks and stuffing */
	size_t n;
	bool soft;
};

static struct fl fl_parse(const char *s, size_t n)
{
	struct fl f = { 0, s, n, false };
	while (f.n > 0 && f.t[0] == '>') {
		f.depth++;
		f.t++;
		f.n--;
	}
	if (f.n > 0 && f.t[0] == ' ') {
		f.t++;
		f.n--;
	}
	f.soft = f.n > 0 && f.t[f.n - 1] == ' ' && !text_is(f.t, f.n, "-- ");
	return f;
}

#define FLOWED_MIN_WIDTH 72

/* R8 damage control: may the soft line `a` (physical length alen) really
 * join `b`, given the part's wrap width? */
static bool flowed_may_join(const struct fl *a, size_t alen, const struct fl *b, size_t width)
{
	size_t w = 0;
	while (w < b->n && !is_blank(b->t[w]))
		w++;
	if (alen + w <= width)
		return false;
	size_t nb, na = bl_split_blanks(a->t, a->n, NULL, NULL, 0);
	if (all_numeric(b->t, b->n, &nb) && nb >= 4 && nb == na)
		return false;
	return true;
}

static int flowed_pass(struct plist *l, bool delsp)
{
	size_t out = 0;
	struct bl_buf tmp = BL_BUF_INIT(BL_MAIL_MAX_LIMIT);
	int rc = 0;
	size_t width = FLOWED_MIN_WIDTH;
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].skip)
			continue;
		struct fl f = fl_parse(pl_text(l, &l->v[i]), l->v[i].len);
		if (f.soft && l->v[i].len > width)
			width = l->v[i].len;
	}
	for (size_t i = 0; i < l->n && rc == 0;) {
		struct pl first = l->v[i];
		if (first.skip) {
			l->v[out++] = first;
			i++;
			continue;
		}
		struct fl f = fl_parse(pl_text(l, &first), first.len);
		int depth = f.depth;
		size_t nphys = first.nphys;
		const char *extra = first.extra;
		bl_buf_reset(&tmp);
		for (int d = 0; d < depth; d++)
			rc |= bl_buf_addc(&tmp, '>');
		if (depth > 0)
			rc |= bl_buf_addc(&tmp, ' ');
		size_t j = i;
		for (;;) {
			struct fl cur = f;
			bool join = false;
			struct fl nx = { 0 };
			if (cur.soft && j + 1 < l->n && !l->v[j + 1].skip) {
				nx = fl_parse(pl_text(l, &l->v[j + 1]), l->v[j + 1].len);
				join = nx.depth == depth && flowed_may_join(&cur, l->v[j].len, &nx, width);
			}
			size_t n = cur.n;
			if (join && delsp)
				n--;
			rc |= bl_buf_add(&tmp, cur.t, n);
			if (!join)
				break;
			j++;
			nphys += l->v[j].nphys;
			if (!extra)
				extra = R_SOFT;
			f = nx;
		}
		if (rc < 0)
			break;
		struct pl p = first;
		if (j != i || tmp.len != first.len || memcmp(tmp.data, pl_text(l, &first), tmp.len) != 0) {
			p.off = l->arena.len;
			p.len = tmp.len;
			rc = bl_buf_add(&l->arena, tmp.data, tmp.len);
			if (rc == 0)
				rc = bl_buf_addc(&l->arena, '\0');
		}
		p.nphys = nphys;
		p.extra = extra;
		l->v[out++] = p;
		i = j + 1;
	}
	l->n = rc < 0 ? l->n : out;
	bl_buf_release(&tmp);
	return rc < 0 ? -BL_ENOMEM : 0;
}

/* --------------------------------------------- footer, signature R10 --- */

/* A line's text after its quote prefix, trailing blanks cut, and depth. */
struct qtext {
	const char *t;
	size_t n;
	int d;
};

static struct qtext trimmed(const struct plist *l, const struct pl *p)
{
	struct qtext q;
	const char *s = pl_text(l, p);
	size_t k = qprefix(s, p->len, &q.d);
	q.t = s + k;
	q.n = p->len - k;
	while (q.n > 0 && is_blank(q.t[q.n - 1]))
		q.n--;
	return q;
}

/* Mark lines from i on as `reason` while their depth is >= d. */
static void mark_from(struct plist *l, size_t i, int d, const char *reason)
{
	for (size_t j = i; j < l->n; j++) {
		if (j > i && trimmed(l, &l->v[j]).d < d)
			break;
		if (!l->v[j].skip)
			l->v[j].skip = reason;
	}
}

static void footer_sig_pass(struct plist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].skip)
			continue;
		struct qtext a = trimmed(l, &l->v[i]), b;
		bool dash = text_is(a.t, a.n, "-") || text_is(a.t, a.n, "--");
		if (dash && i + 1 < l->n) {
			b = trimmed(l, &l->v[i + 1]);
			if (b.d == a.d && bl_startswith(b.t, b.n, "To unsubscribe from this list")) {
				mark_from(l, i, a.d, R_FOOTER);
				continue;
			}
		}
		if (a.n >= 20 && strspn(a.t, "_") >= a.n) {
			for (size_t j = i + 1; j < l->n && j <= i + 3; j++) {
				b = trimmed(l, &l->v[j]);
				if (b.d == a.d && (bl_contains_ci(b.t, b.n, "mailing list") || bl_contains_ci(b.t, b.n, "listinfo"))) {
					mark_from(l, i, a.d, R_FOOTER);
					break;
				}
			}
		}
	}
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].skip)
			continue;
		const char *s = pl_text(l, &l->v[i]);
		int d;
		size_t q = qprefix(s, l->v[i].len, &d);
		const char *t = s + q;
		size_t n = l->v[i].len - q;
		if (text_is(t, n, "-- ")) {
			mark_from(l, i, d, R_SIG);
			continue;
		}
		if (d == 0 && text_is(t, n, "--")) {
			size_t rest = 0;
			for (size_t j = i + 1; j < l->n; j++)
				rest += !l->v[j].skip && trimmed(l, &l->v[j]).n > 0;
			if (rest <= 4)
				mark_from(l, i, 0, R_SIG);
		}
	}
}

/* ------------------------------------------------------------ HTML R11 - */

/* An HTML text line; its decoded source line in `at` until html_to_text()
 * maps it. */
static int html_out_line(void *ud, const char *t, size_t n, unsigned long srcline)
{
	struct plist *out = ud;
	struct pl *p = pl_push(out);
	p->off = out->arena.len;
	p->len = t ? n : 0;
	p->at = srcline - 1;
	if (!t)
		p->skip = "line too long";
	if ((t && bl_buf_add(&out->arena, t, n) < 0) || bl_buf_addc(&out->arena, '\0') < 0)
		return -BL_ENOMEM;
	return 0;
}

/* Convert decoded HTML (text, len; `lines` decoded lines with their raw
 * mapping in `map`) into `out` (R11 through input/html.h, R7). */
static int html_to_text(const char *text, size_t len, const struct pl *map, size_t nmap,
			struct plist *out)
{
	int rc = bl_html_text(text, len, true, html_out_line, out, NULL);
	/* Map output lines to physical lines: output line k stands for the
	 * source lines from its own up to the next output line's (R7). */
	for (size_t k = 0; k < out->n; k++) {
		struct pl *p = &out->v[k];
		size_t s0 = p->at < nmap ? p->at : (nmap ? nmap - 1 : 0);
		size_t s1 = k + 1 < out->n ? out->v[k + 1].at : nmap;
		if (s1 > nmap)
			s1 = nmap;
		p->raw = nmap ? map[s0].raw : 0;
		p->at = nmap ? map[s0].at : 0;
		p->nphys = 0;
		for (size_t s = s0; s < s1; s++)
			p->nphys += map[s].nphys;
		p->extra = R_HTMLMARK;
	}
	return rc;
}

/* ------------------------------------------------------------ parts ---- */

struct seg {
	GMimeObject *obj;
	const char *skip;         /* NULL: read; else the reason */
	const struct bl_msg *msg;
	bool known;               /* raw range found in the view */
	bool clamped;             /* GMime's range ran into the mbox separator */
	size_t first, n;          /* view lines of the raw content */
};

struct segs {
	struct seg *v;
	size_t n, cap;
};

static GMimeStream *content_stream(GMimeObject *obj, GMimeContentEncoding *enc)
{
	if (!GMIME_IS_PART(obj))
		return NULL;
	GMimeDataWrapper *w = g_mime_part_get_content((GMimePart *)obj);
	if (w == NULL)
		return NULL;
	if (enc)
		*enc = g_mime_data_wrapper_get_encoding(w);
	return g_mime_data_wrapper_get_stream(w);
}

static void seg_add(struct segs *ss, const struct view *v, GMimeObject *obj,
		    const char *skip, const struct bl_msg *msg)
{
	ss->v = bl_xgrow(ss->v, &ss->cap, ss->n + 1, sizeof *ss->v);
	struct seg *s = &ss->v[ss->n++];
	memset(s, 0, sizeof *s);
	s->obj = obj;
	s->skip = skip;
	s->msg = msg;
	GMimeStream *st = content_stream(obj, NULL);
	if (st && GMIME_IS_STREAM_MEM(st) && g_mime_stream_mem_get_byte_array((GMimeStreamMem *)st) == v->ba) {
		gint64 b = st->bound_start, e = st->bound_end;
		if (e < 0)
			e = (gint64)v->ba->len;
		b -= v->origin;
		e -= v->origin;
		if (e > (gint64)v->len) {
			e = (gint64)v->len;  /* the mbox separator blank is not the view's */
			s->clamped = true;
		}
		if (b >= 0 && e >= b) {
			s->known = true;
			if (e > b && v->nl > 0) {
				s->first = view_line_of(v, (size_t)b);
				s->n = view_line_of(v, (size_t)e - 1) - s->first + 1;
			} else {
				s->first = b < (gint64)v->len ? view_line_of(v, (size_t)b) : v->nl;
				s->n = 0;
			}
		}
	}
}

static bool is_html(GMimeObject *obj)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	if (ct && g_mime_content_type_is_type(ct, "text", "html"))
		return true;
	if (GMIME_IS_MULTIPART(obj)) {
		int n = g_mime_multipart_get_count((GMimeMultipart *)obj);
		for (int i = 0; i < n; i++)
			if (is_html(g_mime_multipart_get_part((GMimeMultipart *)obj, i)))
				return true;
	}
	return false;
}

static GByteArray *decode_part(GMimeObject *obj, bool convert);

/* R5: an application/octet-stream part (a log a mail client did not know
 * the type of) whose decoded content is text: no NUL byte, at least one
 * line end, and at most 1 in 50 of its first 64 KiB other control bytes
 * (TAB, CR, FF and ESC count as text: script(1) captures). */
static bool mostly_text(GMimeObject *obj)
{
	GByteArray *d = decode_part(obj, false);
	size_t n = d->len < 65536 ? d->len : 65536, ctl = 0;
	bool nl = false, nul = false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = d->data[i];
		if (c == '\n')
			nl = true;
		else if (c == 0)
			nul = true;
		else if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != 0x1b) || c == 0x7f)
			ctl++;
	}
	g_byte_array_free(d, TRUE);
	return n > 0 && nl && !nul && ctl * 50 <= n;
}

static void walk(struct rd *r, struct segs *ss, const struct view *v, GMimeObject *obj,
		 const char *skip, const struct bl_msg *msg)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = (GMimeMultipart *)obj;
		int n = g_mime_multipart_get_count(mp), chosen = -1;
		if (n == 0 && !skip) {
			/* GMime found no part: no boundary= to split at, or parts
			 * nested deeper than it reads; its lines stay skipped as
			 * structure, and the loss is said */
			WARN_AT(r, v->lineno0, msg, "mail multipart not read",
				"mail: a multipart part %s; its text is not read",
				g_mime_object_get_content_type_parameter(obj, "boundary")
					? "holds no part that can be read (nested too deep?)"
					: "has no boundary=");
		}
		if (ct && g_mime_content_type_is_type(ct, "multipart", "alternative") && !skip) {
			for (int i = 0; i < n && chosen < 0; i++) {
				GMimeContentType *c = g_mime_object_get_content_type(g_mime_multipart_get_part(mp, i));
				if (c && g_mime_content_type_is_type(c, "text", "plain"))
					chosen = i;
			}
			if (chosen < 0)
				chosen = n - 1;
		}
		for (int i = 0; i < n; i++) {
			GMimeObject *child = g_mime_multipart_get_part(mp, i);
			const char *why = skip;
			if (!why && chosen >= 0 && i != chosen)
				why = is_html(child) ? R_HTMLALT : R_ALT;
			walk(r, ss, v, child, why, msg);
		}
		return;
	}
	if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message((GMimeMessagePart *)obj);
		GMimeObject *body = inner ? g_mime_message_get_mime_part(inner) : NULL;
		if (!body && !skip) {
			WARN_AT(r, v->lineno0, msg, "mail multipart not read",
				"mail: a message/rfc822 part holds no message that can be read "
				"(nested too deep?); its text is not read");
		}
		struct prov *p = inner ? prov_new(r, inner, v->lineno0 + v->next) : NULL;
		if (body)
			walk(r, ss, v, body, skip, &p->m);
		return;
	}
	if (!GMIME_IS_PART(obj))
		return;
	if (!skip && ct && (g_mime_content_type_is_type(ct, "message", "rfc822") ||
			    g_mime_content_type_is_type(ct, "multipart", "*"))) {
		/* GMime stopped taking it apart (nested too deep) */
		WARN_AT(r, v->lineno0, msg, "mail multipart not read",
			"mail: a %s part nested too deep to be read; its text is not read",
			g_mime_content_type_is_type(ct, "message", "*") ? "message/rfc822" : "multipart");
	}
	if (!skip && !(GMIME_IS_TEXT_PART(obj) && ct && g_mime_content_type_is_type(ct, "text", "*")) &&
	    !(ct && g_mime_content_type_is_type(ct, "application", "octet-stream") && mostly_text(obj)))
		skip = R_NONTEXT;
	seg_add(ss, v, obj, skip, msg);
}

/* Decode a text part to UTF-8 (R6); convert: apply its charset. Returns a
 * new GByteArray. */
static GByteArray *decode_part(GMimeObject *obj, bool convert)
{
	GMimeDataWrapper *w = g_mime_part_get_content((GMimePart *)obj);
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *out = g_byte_array_new();
	g_mime_stream_mem_set_byte_array((GMimeStreamMem *)mem, out);
	g_mime_stream_mem_set_owner((GMimeStreamMem *)mem, FALSE);
	if (w) {
		GMimeStream *f = g_mime_stream_filter_new(mem);
		const char *cs = g_mime_object_get_content_type_parameter(obj, "charset");
		if (cs && convert) {
			const char *canon = g_mime_charset_canon_name(cs);
			if (canon && g_ascii_strcasecmp(canon, "utf-8") != 0 &&
			    g_ascii_strcasecmp(canon, "us-ascii") != 0) {
				GMimeFilter *flt = g_mime_filter_charset_new(cs, "UTF-8");
				if (flt) {
					g_mime_stream_filter_add((GMimeStreamFilter *)f, flt);
					g_object_unref(flt);
				}
			}
		}
		g_mime_data_wrapper_write_to_stream(w, f);
		g_mime_stream_flush(f);
		g_object_unref(f);
	}
	g_object_unref(mem);
	return out;
}

/* Base64 goes on after its end (R16): the part's raw line holding the
 * first data character after '=' padding, relative to s->first; s->n
 * when there is none. *pad gets the line of the padding. */
static size_t b64_after_end(const struct view *v, const struct seg *s, size_t *pad)
{
	bool padded = false;
	for (size_t k = 0; k < s->n; k++) {
		size_t n;
		const char *t = view_line(v, s->first + k, &n);
		for (size_t j = 0; j < n; j++) {
			if (t[j] == '=' && !padded) {
				padded = true;
				*pad = k;
			} else if (padded && (g_ascii_isalnum(t[j]) || t[j] == '+' || t[j] == '/')) {
				return k;
			}
		}
	}
	return s->n;
}

/* The part's lines from `undecoded` on (relative to s->first) as one
 * skipped entry (R16). */
static int pl_undecoded(struct plist *l, const struct view *v, const struct seg *s, size_t undecoded,
			const char *reason)
{
	size_t n0;
	const char *t0 = view_line(v, s->first + undecoded, &n0);
	struct pl *p = pl_push(l);
	p->off = l->arena.len;
	if (bl_buf_add(&l->arena, t0, n0) < 0 || bl_buf_addc(&l->arena, '\0') < 0)
		return -BL_ENOMEM;
	p->len = n0;
	p->raw = p->at = s->first + undecoded;
	p->nphys = s->n - undecoded;
	p->skip = p->extra = reason;
	return 0;
}

/* The decoded text's lines into l, each mapped to the raw lines it stands
 * for (R7). Raw lines from `undecoded` on (relative to s->first; s->n:
 * none) are base64 after its end (R16), skipped as such. */
static int split_map(struct plist *l, const char *text, size_t len, const struct view *v,
		     const struct seg *s, GMimeContentEncoding enc, size_t undecoded)
{
	if (bl_buf_add(&l->arena, text, len) < 0 || bl_buf_addc(&l->arena, '\0') < 0)
		return -BL_ENOMEM;
	size_t ndec = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;
		struct pl *p = pl_push(l);
		p->off = i;
		p->len = e - i;
		if (p->len > 0 && text[e - 1] == '\r')
			p->len--;
		i = nl ? e + 1 : len;
		ndec++;
	}
	/* The last message of an mbox: GMime's body ran on into the final
	 * separator line, which is accounted as "mbox separator". */
	if (s->clamped && ndec > 0 && l->v[ndec - 1].len == 0) {
		ndec--;
		l->n--;
	}
	size_t nraw = s->known ? s->n : 0;
	bool mapped = false;
	if (s->known && (enc == GMIME_CONTENT_ENCODING_DEFAULT || enc == GMIME_CONTENT_ENCODING_7BIT ||
			 enc == GMIME_CONTENT_ENCODING_8BIT || enc == GMIME_CONTENT_ENCODING_BINARY) &&
	    ndec == nraw) {
		for (size_t k = 0; k < ndec; k++) {
			l->v[k].raw = l->v[k].at = s->first + k;
			l->v[k].nphys = 1;
		}
		mapped = true;
	} else if (s->known && enc == GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE) {
		/* groups of raw lines joined by soft breaks */
		size_t groups = 0;
		for (size_t k = 0; k < nraw; k++) {
			size_t n;
			const char *t = view_line(v, s->first + k, &n);
			while (n > 0 && is_blank(t[n - 1]))
				n--;
			if (!(n > 0 && t[n - 1] == '=') || k + 1 == nraw)
				groups++;
		}
		if (groups == ndec) {
			size_t k = 0;
			for (size_t g = 0; g < ndec; g++) {
				l->v[g].raw = l->v[g].at = s->first + k;
				l->v[g].nphys = 0;
				l->v[g].extra = R_SOFT;
				for (;;) {
					size_t n;
					const char *t = view_line(v, s->first + k, &n);
					while (n > 0 && is_blank(t[n - 1]))
						n--;
					l->v[g].nphys++;
					k++;
					if (!(n > 0 && t[n - 1] == '=') || k >= nraw)
						break;
				}
			}
			mapped = true;
		}
	}
	if (s->known && enc == GMIME_CONTENT_ENCODING_BASE64 && undecoded < nraw)
		nraw = undecoded;
	if (!mapped && s->known && nraw > 0 && enc == GMIME_CONTENT_ENCODING_BASE64) {
		/* Raw line r decodes to the bytes from dec[r] on (3 bytes per 4
		 * base64 characters). A decoded line is reported at the raw line
		 * holding its first byte; the first decoded line starting in a
		 * raw line stands for it, and the raw lines in which no decoded
		 * line starts go to the last line that started before them. */
		size_t *dec = bl_xmalloc((nraw + 1) * sizeof *dec);
		size_t chars = 0;
		for (size_t k = 0; k < nraw; k++) {
			size_t n;
			const char *t = view_line(v, s->first + k, &n);
			dec[k] = chars / 4 * 3 + (chars % 4 ? chars % 4 - 1 : 0);
			for (size_t j = 0; j < n; j++)
				chars += g_ascii_isalnum(t[j]) || t[j] == '+' || t[j] == '/';
		}
		size_t r = 0;
		for (size_t k = 0; k < ndec; k++) {
			while (r + 1 < nraw && dec[r + 1] <= l->v[k].off)
				r++;
			l->v[k].at = s->first + r;
		}
		for (size_t k = 0; k < ndec; k++) {
			size_t at = l->v[k].at;
			bool first = k == 0 || l->v[k - 1].at != at;
			size_t next = k + 1 < ndec ? l->v[k + 1].at : s->first + nraw;
			size_t gap = next > at + 1 ? next - at - 1 : 0;  /* raw lines with no start */
			l->v[k].extra = R_ENC;
			if (first) {
				l->v[k].raw = at;
				l->v[k].nphys = 1 + (next != at ? gap : 0);
			} else {
				l->v[k].raw = at + 1;
				l->v[k].nphys = next != at ? gap : 0;
			}
		}
		free(dec);
		mapped = true;
	}
	if (!mapped && ndec == 0 && nraw > 0) {
		/* nothing decoded from raw lines: they are skipped, not lost */
		int rc = pl_undecoded(l, v, s, 0, R_UNDECODED);
		if (rc)
			return rc;
		l->v[l->n - 1].nphys = nraw;
		mapped = true;
	}
	if (!mapped) {
		size_t base = s->known ? s->first : v->next;
		for (size_t k = 0; k < ndec; k++) {
			l->v[k].raw = l->v[k].at = base + (nraw == 0 ? 0 : (k < nraw ? k : nraw - 1));
			l->v[k].nphys = k < nraw ? 1 : 0;
			l->v[k].extra = R_ENC;
		}
		if (ndec > 0 && nraw > ndec)
			l->v[ndec - 1].nphys += nraw - ndec;
	}
	if (s->known && nraw < s->n)
		return pl_undecoded(l, v, s, nraw, R_B64_AFTER);
	return 0;
}

/* How many times each view line from *lo on is accounted in l: as the
 * line a text line starts in, and as a physical line it stands for
 * (heap). Several text lines start in one base64 or HTML source line,
 * and format=flowed joins across them. */
static unsigned long *times_accounted(const struct plist *l, size_t *lo)
{
	size_t a = SIZE_MAX, b = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct pl *p = &l->v[i];
		a = p->at < a ? p->at : a;
		a = p->raw < a ? p->raw : a;
		b = p->at + 1 > b ? p->at + 1 : b;
		b = p->raw + p->nphys > b ? p->raw + p->nphys : b;
	}
	unsigned long *n = bl_xcalloc(b > a ? b - a : 1, sizeof *n);
	for (size_t i = 0; i < l->n; i++) {
		const struct pl *p = &l->v[i];
		n[p->at - a]++;
		for (size_t k = p->raw == p->at ? 1 : 0; k < p->nphys; k++)
			n[p->raw + k - a]++;
	}
	*lo = a;
	return n;
}

/* Hand the part's lines to the dispatcher (R7, R12). A physical line
 * accounted more than once counts once (bl_line_shared()). */
static int emit(struct rd *r, struct view *v, struct plist *l, const struct bl_msg *msg)
{
	int rc = 0;
	size_t lo;
	unsigned long *times = times_accounted(l, &lo);
	for (size_t i = 0; i < l->n && rc == 0; i++) {
		struct pl *p = &l->v[i];
		unsigned long lineno = v->lineno0 + p->at;
		const char *t = pl_text(l, p);
		if (!r->unit_open && (rc = unit_begin(r, msg)) != 0)
			break;
		if (times[p->at - lo] > 1)
			bl_line_shared(r->ctx, lineno, times[p->at - lo]);
		if (p->skip)
			skip_line(r, msg, t, p->len, lineno, p->skip);
		else
			rc = text_line(r, msg, t, p->len, lineno);
		for (size_t k = p->raw == p->at ? 1 : 0; k < p->nphys && rc == 0; k++) {
			size_t n;
			const char *s = view_line(v, p->raw + k, &n);
			if (times[p->raw + k - lo] > 1)
				bl_line_shared(r->ctx, v->lineno0 + p->raw + k, times[p->raw + k - lo]);
			skip_line(r, msg, s, n, v->lineno0 + p->raw + k, p->skip ? p->skip : p->extra);
		}
	}
	free(times);
	return rc;
}

static int read_text_part(struct rd *r, struct view *v, const struct seg *s)
{
	GMimeContentEncoding enc = GMIME_CONTENT_ENCODING_DEFAULT;
	(void)content_stream(s->obj, &enc);
	GByteArray *dec = decode_part(s->obj, true);
	if (dec->len == 0 && s->known && s->n > 0) {
		/* The charset turned every byte into nothing (charset="UTF-32"
		 * on an ASCII body): read the text as it is, and say so. */
		GByteArray *raw = decode_part(s->obj, false);
		if (raw->len > 0) {
			const char *cs = g_mime_object_get_content_type_parameter(s->obj, "charset");
			WARN_AT(r, v->lineno0 + s->first, s->msg, "mail charset does not fit",
				"mail part: charset \"%.40s\" gives no text; its %s read as they are",
				cs ? cs : "", BL_COUNT(s->n, "line"));
			g_byte_array_unref(dec);
			dec = raw;
		} else {
			g_byte_array_unref(raw);
		}
	}
	size_t undecoded = s->known ? s->n : 0, pad = 0;
	if (s->known && enc == GMIME_CONTENT_ENCODING_BASE64)
		undecoded = b64_after_end(v, s, &pad);
	if (undecoded < s->n) {
		WARN_AT(r, v->lineno0 + s->first + undecoded, s->msg, R_B64_AFTER,
			"mail part: base64 goes on after its end (the '=' padding on line %lu); "
			"%zu line%s from here on not decoded",
			v->lineno0 + s->first + pad, s->n - undecoded, s->n - undecoded == 1 ? "" : "s");
	}
	struct plist l = { NULL, 0, 0, BL_BUF_INIT(BL_MAIL_MAX_LIMIT * 4) };
	int rc = split_map(&l, (const char *)dec->data, dec->len, v, s, enc, undecoded);
	/* The part runs to where the input broke and its decoded text stops
	 * inside a line: the raw line cut short was let go before parsing,
	 * but a quoted-printable soft break ("16=" + "804") or base64's
	 * 57-byte lines can still end the text mid-number. */
	size_t dlen = dec->len;
	bool cut = v->at_break && (!s->known || s->first + s->n >= v->nl) && dlen > 0 &&
		   dec->data[dlen - 1] != '\n' && l.n > 0;
	if (cut) {
		l.v[l.n - 1].skip = BL_SKIP_CUT_LINE;
		while (dlen > 0 && dec->data[dlen - 1] != '\n')
			dlen--;
	}
	GMimeContentType *ct = g_mime_object_get_content_type(s->obj);
	if (rc == 0 && ct && g_mime_content_type_is_type(ct, "text", "html")) {
		struct plist h = { NULL, 0, 0, BL_BUF_INIT(BL_MAIL_MAX_LIMIT * 4) };
		rc = html_to_text((const char *)dec->data, dlen, l.v, l.n, &h);
		/* Source lines before the first text line are markup. */
		size_t lead_raw = l.n ? l.v[0].raw : 0;
		size_t lead_end = h.n ? h.v[0].raw : (l.n ? l.v[l.n - 1].raw + l.v[l.n - 1].nphys : lead_raw);
		free(l.v);
		bl_buf_release(&l.arena);
		l = h;
		if (rc == 0 && lead_end > lead_raw) {
			struct pl lead = { 0 };
			lead.off = l.arena.len;
			rc = bl_buf_addc(&l.arena, '\0');
			lead.raw = lead.at = lead_raw;
			lead.nphys = lead_end - lead_raw;
			lead.skip = R_HTMLMARK;
			pl_push(&l);
			memmove(&l.v[1], &l.v[0], (l.n - 1) * sizeof l.v[0]);
			l.v[0] = lead;
		}
	}
	if (rc == 0)
		rc = pgp_pass(&l);
	if (rc == 0 && ct && g_mime_content_type_is_type(ct, "text", "plain")) {
		const char *fmt = g_mime_content_type_get_parameter(ct, "format");
		const char *delsp = g_mime_content_type_get_parameter(ct, "delsp");
		if (fmt && g_ascii_strcasecmp(fmt, "flowed") == 0)
			rc = flowed_pass(&l, delsp && g_ascii_strcasecmp(delsp, "yes") == 0);
	}
	if (rc == 0) {
		footer_sig_pass(&l);
		rc = emit(r, v, &l, s->msg);
	}
	if (s->known && s->first + s->n > v->next)
		v->next = s->first + s->n;
	free(l.v);
	bl_buf_release(&l.arena);
	g_byte_array_unref(dec);
	return rc;
}

/* Account a skipped part's raw content with its reason. */
static void skip_part(struct rd *r, struct view *v, const struct seg *s)
{
	if (!s->known)
		return;
	v->next = s->first;
	view_skip_as(r, v, s->first + s->n, s->msg, s->skip);
}

/* R17: is s (n bytes, no line end) a header field as GMime reads one? */
static bool field_line(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && s[i] != ':' && (unsigned char)s[i] > ' ' && s[i] != 0x7f)
		i++;
	return i > 0 && i < n && s[i] == ':';
}

/* R17: the lines of v's header block from its first line that is no
 * field up to the empty line, read as the message's text with a warning. */
static int read_header_text(struct rd *r, struct view *v, const struct bl_msg *msg)
{
	size_t k, n;
	for (k = 0; k < v->nl; k++) {
		const char *s = view_line(v, k, &n);
		if (n == 0)
			return 0;
		if (k > 0 && (s[0] == ' ' || s[0] == '\t'))
			continue;
		if (!field_line(s, n))
			break;
	}
	if (k == v->nl)
		return 0;
	size_t stop = k;
	while (stop < v->nl && (view_line(v, stop, &n), n != 0))
		stop++;
	view_skip_as(r, v, k, msg, R_HDR);
	WARN_AT(r, v->lineno0 + k, msg, "mail header without blank line",
		"mail header block has no empty line after it: this line is no header field; "
		"%zu line%s from here read as the message's text", stop - k, stop - k == 1 ? "" : "s");
	int rc = 0;
	for (; v->next < stop && rc == 0; v->next++) {
		const char *s = view_line(v, v->next, &n);
		rc = text_line(r, msg, s, n, v->lineno0 + v->next);
	}
	return rc;
}

/* Read one parsed message whose raw bytes are view v, after the mbox
 * separator lines of the input up to byte sep_to, followed by separator
 * lines up to byte tail_to (R5, R12). */
static int read_message(struct rd *r, struct view *v, GMimeMessage *m, size_t sep_to, size_t tail_to)
{
	int rc = message_done(r);
	if (rc < 0)
		return rc;
	struct prov *top = prov_new(r, m, v->lineno0);
	r->top = &top->m;
	/* R14: a Message-ID met before in this pass (the same archive, an
	 * earlier input, a cross-post) is read once. */
	char *first = NULL;
	if (bl_msg_seen(r->ctx, top->m.message_id, r->source, v->lineno0, &first)) {
		char *note = bl_xasprintf("duplicate of the message at %s", first);
		free(first);
		rc = unit_begin(r, &top->m);
		file_lines_to(r, sep_to, &top->m, R_SEP);
		r->ctx->skip_note = note;
		view_skip_as(r, v, v->nl, &top->m, R_DUP);
		r->ctx->skip_note = NULL;
		free(note);
		r->line = v->lineno0 + v->nl;
		r->off = v->file_end;
		if (rc == 0)
			file_lines_to(r, tail_to, &top->m, R_SEP);
		return rc;
	}
	struct segs ss = { NULL, 0, 0 };
	if (g_mime_message_get_mime_part(m))
		walk(r, &ss, v, g_mime_message_get_mime_part(m), NULL, &top->m);
	rc = unit_begin(r, &top->m);
	file_lines_to(r, sep_to, &top->m, R_SEP);
	if (rc == 0)
		rc = read_header_text(r, v, &top->m);
	for (size_t i = 0; i < ss.n && rc == 0; i++) {
		struct seg *s = &ss.v[i];
		if (!s->skip && (!r->unit_open || r->unit_text || r->unit_msg != s->msg))
			rc = unit_begin(r, s->msg);
		if (rc < 0)
			break;
		if (s->known)
			view_skip_as(r, v, s->first, s->msg, R_HDR);
		if (s->skip)
			skip_part(r, v, s);
		else
			rc = read_text_part(r, v, s);
	}
	if (rc == 0)
		view_skip_as(r, v, v->nl, &top->m, R_HDR);
	r->line = v->lineno0 + v->nl;
	r->off = v->file_end;
	if (rc == 0)
		file_lines_to(r, tail_to, &top->m, R_SEP);
	/* The unit stays open: text GMime could not make a message of may
	 * follow and continue it (R2). */
	free(ss.v);
	return rc;
}

/* A GMime stream over ba that leaves ba to its owner. */
static GMimeStream *stream_over(GByteArray *ba)
{
	GMimeStream *st = g_mime_stream_mem_new_with_byte_array(ba);
	g_mime_stream_mem_set_owner((GMimeStreamMem *)st, FALSE);
	return st;
}

/* The message's raw text with one '>' taken from each line matching
 * "^>+From " (R3); NULL when no line does. */
static GByteArray *unescape(const char *p, size_t n)
{
	GByteArray *ba = NULL;
	size_t done = 0;              /* bytes of p before it copied to ba */
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - p) + 1 : n, j = i;
		while (j < e && p[j] == '>')
			j++;
		if (j > i && e - j >= 5 && memcmp(p + j, "From ", 5) == 0) {
			if (!ba)
				ba = g_byte_array_sized_new((guint)n);
			g_byte_array_append(ba, (const guint8 *)p + done, (guint)(i - done));
			done = i + 1;
		}
		i = e;
	}
	if (ba)
		g_byte_array_append(ba, (const guint8 *)p + done, (guint)(n - done));
	return ba;
}

/* Read the message whose bytes are [hb, end) of the input, after its mbox
 * separator [r->off, hb); m is GMime's parse of it from the input stream
 * (replaced by a parse of an un-escaped copy when needed, R3). */
static int do_message(struct rd *r, GMimeMessage *m, size_t hb, size_t end, bool mbox)
{
	const char *base = (const char *)r->ba->data;
	unsigned long sep_lines = 0;
	for (size_t i = r->off; i < hb; i++)
		sep_lines += base[i] == '\n';
	/* In an mbox the empty line before the next From_ line belongs to the
	 * separator, not to the message (GMime leaves it out of the body). */
	size_t body_end = end;
	if (mbox && end - hb >= 2 && base[end - 1] == '\n') {
		size_t e = end - 1;
		if (e > hb && base[e - 1] == '\r')
			e--;
		if (e > hb && base[e - 1] == '\n')
			body_end = e;
	}
	struct view v = { base + hb, body_end - hb, (gint64)hb, r->ba, NULL, 0,
			  r->line + sep_lines, 0, body_end, r->broken && end == r->ba->len };
	GByteArray *copy = unescape(v.p, v.len);
	GMimeMessage *own = NULL;
	if (copy) {
		GMimeStream *st = stream_over(copy);
		GMimeParser *p = g_mime_parser_new_with_stream(st);
		g_mime_parser_set_format(p, GMIME_FORMAT_MESSAGE);
		own = g_mime_parser_construct_message(p, NULL);
		g_object_unref(p);
		g_object_unref(st);
		if (own) {
			m = own;
			v.p = (const char *)copy->data;
			v.len = copy->len;
			v.origin = 0;
			v.ba = copy;
		}
	}
	view_index(&v);
	r->index++;
	int rc = read_message(r, &v, m, hb, end);
	r->off = end;
	/* The provenance of lines read after it: R2 text, a cut line. */
	prov_clear(&r->last);
	prov_fill(&r->last, m, r->index, NULL, 0);
	r->tail = &r->last.m;
	free(v.ls);
	if (own)
		g_object_unref(own);
	if (copy)
		g_byte_array_unref(copy);
	return rc;
}

/* Is the line s (n bytes, ba's bytes ending at end) an R1-valid separator?
 * The sniff looks at most BL_SNIFF_MAX bytes from the line on. */
static bool separator_at(const char *s, size_t n, const char *end)
{
	size_t avail = (size_t)(end - s);
	return from_line(s, n) && bl_mail_sniff(s, avail < BL_SNIFF_MAX ? avail : BL_SNIFF_MAX);
}

/* Next R1-valid "From " separator at or after byte `from` (a line start);
 * the end of ba when none. */
static size_t next_separator(const struct rd *r, size_t from)
{
	const char *p = (const char *)r->ba->data, *end = p + r->ba->len;
	const char *s = p + from;
	while (s < end) {
		const char *next;
		size_t n = line_at(s, end, &next);
		if (separator_at(s, n, end))
			return (size_t)(s - p);
		s = next;
	}
	return r->ba->len;
}

/* Read the messages of the mbox bytes [r->off, stop) of ba: stop is the
 * end of ba, or an R1-valid separator with at least BL_SNIFF_MAX bytes
 * after it in ba (R13), so GMime and R2 see there what they would see
 * in the whole input. A message whose separator is at or past stop is
 * left for the next window. */
static int read_mbox(struct rd *r, size_t stop)
{
	int rc = 0;
	while (r->off < stop && rc == 0) {
		GMimeStream *sub = g_mime_stream_substream(r->stream, (gint64)r->off, (gint64)r->ba->len);
		GMimeParser *p = g_mime_parser_new_with_stream(sub);
		g_mime_parser_set_format(p, GMIME_FORMAT_MBOX);
		g_mime_parser_set_respect_content_length(p, FALSE);
		bool at_stop = false;
		for (;;) {
			GMimeMessage *m = g_mime_parser_construct_message(p, NULL);
			if (m == NULL)
				break;
			gint64 marker = g_mime_parser_get_mbox_marker_offset(p);
			gint64 hb = g_mime_parser_get_headers_begin(p);
			gint64 end = g_mime_parser_tell(p);
			if (marker >= (gint64)stop) {
				g_object_unref(m);
				at_stop = true;
				break;
			}
			if (marker < (gint64)r->off || hb < marker || end < hb || end > (gint64)r->ba->len) {
				g_object_unref(m);
				break;
			}
			rc = do_message(r, m, (size_t)hb, (size_t)end, true);
			g_object_unref(m);
			if (rc < 0)
				break;
		}
		g_object_unref(p);
		g_object_unref(sub);
		if (rc < 0 || at_stop || r->off >= stop)
			break;
		const struct bl_msg *last = r->last.id ? &r->last.m : NULL;
		/* R2: GMime stopped before the end. */
		size_t resume = next_separator(r, r->off);
		if (resume == r->off) {
			/* A valid separator GMime could not use: skip its line so
			 * that the loop advances. */
			const char *next;
			(void)line_at((const char *)r->ba->data + r->off,
				      (const char *)r->ba->data + r->ba->len, &next);
			resume = next_separator(r, (size_t)(next - (const char *)r->ba->data));
		}
		unsigned long nlines = 0;
		for (size_t i = r->off; i < resume; i++)
			nlines += r->ba->data[i] == '\n';
		if (resume == r->ba->len && resume > r->off && r->ba->data[resume - 1] != '\n')
			nlines++;
		WARN_AT(r, r->line, last, "mbox: not a message",
			"\"From \" line not followed by a message header (an unescaped body line?); "
			"%s read as plain text", BL_COUNT(nlines, "line"));
		rc = file_text_to(r, resume, last, true);
		rc = rc ? rc : message_done(r);
	}
	return rc;
}

static int read_single(struct rd *r)
{
	GMimeParser *p = g_mime_parser_new_with_stream(r->stream);
	g_mime_parser_set_format(p, GMIME_FORMAT_MESSAGE);
	GMimeMessage *m = g_mime_parser_construct_message(p, NULL);
	int rc;
	if (m) {
		gint64 end = g_mime_parser_tell(p);
		if (end < 0 || (size_t)end > r->ba->len)
			end = (gint64)r->ba->len;
		rc = do_message(r, m, 0, (size_t)end, false);
		g_object_unref(m);
	} else {
		WARN_AT(r, 1, NULL, "mail: not a message", "looks like mail but GMime cannot parse it; read as plain text");
		rc = 0;
	}
	if (rc == 0 && r->off < r->ba->len) {
		rc = file_text_to(r, r->ba->len, NULL, false);
		rc = rc ? rc : unit_end(r);
	}
	g_object_unref(p);
	return rc;
}

/* The input broke off (reader.c reports it): the bytes after the last
 * line end are the start of a line whose rest never came, and are let go
 * before GMime sees them, so no part of it is parsed ("…: 16804" cut to
 * "…: 168" would be a wrong number); bl_mail_read() counts it skipped.
 * Lines of a message end at LF. ba holds whole lines before r->off. */
static void let_go_cut_line(struct rd *r)
{
	const char *p = (const char *)r->ba->data;
	size_t keep = r->ba->len;
	r->broken = true;
	while (keep > r->off && p[keep - 1] != '\n')
		keep--;
	if (keep < r->ba->len) {
		r->cut = true;
		g_byte_array_set_size(r->ba, (guint)keep);
	}
}

/* How much of a line over BL_LINE_MAX stays for GMime (R15): "Name:" of
 * a header field, the blank of a folded continuation, else nothing. */
static size_t long_line_keep(const guint8 *s, size_t n)
{
	if (n > 0 && is_blank((char)s[0]))
		return 1;
	size_t k = 0;
	while (k < n && k < 256 && (g_ascii_isalnum(s[k]) || s[k] == '-'))
		k++;
	return k > 0 && k < n && s[k] == ':' ? k + 1 : 0;
}

/* R15 on the bytes of ba from `from` on, just read: a line over
 * BL_LINE_MAX is cut to what long_line_keep() keeps, and the rest of its
 * bytes, in this read and the later ones, are let go up to its LF. */
static void keep_lines_short(struct rd *r, size_t from)
{
	guint8 *p = r->ba->data;
	size_t len = r->ba->len, w = from;
	for (size_t i = from; i < len;) {
		guint8 *nl = memchr(p + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - p) + 1 : len;
		if (r->dropping) {
			if (nl) {
				p[w++] = '\n';
				r->dropping = false;
				r->fill_cur = 0;
				r->fill_line++;
			}
			i = e;
			continue;
		}
		memmove(p + w, p + i, e - i);
		w += e - i;
		size_t n = r->fill_cur + (e - i) - (nl ? 1 : 0);   /* the line, LF excluded */
		if (n > BL_LINE_MAX) {
			size_t start = w - (e - i) - r->fill_cur;
			w = start + long_line_keep(p + start, n);
			r->longl = bl_xgrow(r->longl, &r->caplong, r->nlong + 1, sizeof *r->longl);
			r->longl[r->nlong++] = r->fill_line;
			if (nl)
				p[w++] = '\n';
			else
				r->dropping = true;
		}
		if (nl) {
			r->fill_cur = 0;
			r->fill_line++;
		} else {
			r->fill_cur = n;
		}
		i = e;
	}
	g_byte_array_set_size(r->ba, (guint)w);
}

/* Read from src until ba holds want bytes or the input ends (*eof; also
 * on a read error, which the reader reports). Lines over BL_LINE_MAX are
 * cut as they come (R15). Holding opt.mail_max bytes, `what` ("mail input",
 * "mail message") is larger than the cap: the line the cap falls in is
 * cut off, no more is read (*eof), and the input counts as not read in
 * full (R15). */
static void fill(struct rd *r, struct bl_src *src, size_t want, bool *eof, const char *what)
{
	size_t mail_max = r->ctx->opt.mail_max > BL_MAIL_MAX_LEAST ? r->ctx->opt.mail_max : BL_MAIL_MAX_LEAST;
	while (!*eof && r->ba->len < want) {
		if (r->ba->len >= mail_max) {
			WARN_AT(r, r->fill_line, r->tail, "mail message too large",
				"%s larger than %zu bytes (BENCHLOG_MAIL_MAX): not read from this line on",
				what, mail_max);
			r->ctx->input_errors++;
			let_go_cut_line(r);
			r->capped = true;
			*eof = true;
			break;
		}
		size_t room = mail_max - r->ba->len;
		size_t chunk = room < READ_CHUNK ? room : READ_CHUNK;
		guint old = r->ba->len;
		g_byte_array_set_size(r->ba, old + (guint)chunk);
		ssize_t n = bl_src_read(src, r->ba->data + old, chunk);
		g_byte_array_set_size(r->ba, old + (guint)(n > 0 ? n : 0));
		keep_lines_short(r, old);
		if (n <= 0)
			*eof = true;
		if (n < 0 && bl_src_broken(n))
			let_go_cut_line(r);
	}
}

/* The mbox window's cut (R13): the last R1-valid separator after the
 * window's first line with BL_SNIFF_MAX bytes after it in ba, or 0.
 * Lines looked at in an earlier call on the same window (r->scanned)
 * are not looked at again, so a window that grows line after line
 * without a cut (one long message) is scanned once. */
static size_t window_cut(struct rd *r)
{
	const char *p = (const char *)r->ba->data, *end = p + r->ba->len;
	const char *s = p + r->off, *next;
	size_t cut = 0;
	(void)line_at(s, end, &next);
	if (r->scanned > (size_t)(next - p))
		next = p + r->scanned;
	for (s = next; s < end && (size_t)(end - s) >= BL_SNIFF_MAX; s = next) {
		size_t n = line_at(s, end, &next);
		if (separator_at(s, n, end))
			cut = (size_t)(s - p);
	}
	r->scanned = (size_t)(s - p);
	return cut;
}

/* An mbox a window at a time (R13). */
static int read_mbox_windows(struct rd *r, struct bl_src *src, bool eof)
{
	size_t window = r->ctx->opt.mbox_window;
	int rc = 0;
	for (;;) {
		size_t stop = eof ? r->ba->len : window_cut(r);
		if (stop <= r->off && !eof) {      /* one message longer than the window */
			fill(r, src, r->ba->len + (window > READ_CHUNK ? window : READ_CHUNK), &eof,
			     "mail message");
			continue;
		}
		r->stream = stream_over(r->ba);
		rc = read_mbox(r, stop);
		g_object_unref(r->stream);
		r->stream = NULL;
		if (rc < 0 || eof)
			break;
		/* what was read is let go; the rest starts the next window */
		g_byte_array_remove_range(r->ba, 0, (guint)r->off);
		r->off = 0;
		r->scanned = 0;
		fill(r, src, window + BL_SNIFF_MAX, &eof, "mail message");
	}
	return rc;
}

int bl_mail_read(struct bl_ctx *ctx, struct bl_src *src, const char *source)
{
	pthread_once(&gmime_once, gmime_start);
	struct rd r;
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.source = source;
	r.line = 1;
	r.fill_line = 1;
	r.ba = g_byte_array_new();
	int rc = 0;
	bool eof = false;
	fill(&r, src, ctx->opt.mbox_window + BL_SNIFF_MAX, &eof, "mail input");
	const char *p = (const char *)r.ba->data;
	const char *next;
	size_t n = r.ba->len ? line_at(p, p + r.ba->len, &next) : 0;
	if (r.ba->len > 0 && from_line(p, n)) {
		rc = read_mbox_windows(&r, src, eof);
	} else if (r.ba->len > 0) {
		fill(&r, src, SIZE_MAX, &eof, "mail input");
		r.stream = stream_over(r.ba);
		rc = read_single(&r);
		g_object_unref(r.stream);
	}
	int rc2 = message_done(&r);
	rc = rc ? rc : rc2;
	if (r.cut && rc == 0 && !ctx->error && r.capped) {
		struct bl_line ln = { "", 0, source, r.line, 0, r.tail };
		ctx->lines_total++;
		bl_skip(ctx, &ln, R_CAPPED);
	} else if (r.cut && rc == 0 && !ctx->error) {
		bl_skip_cut_line(ctx, source, r.line, r.tail);
	}
	prov_clear(&r.last);
	free(r.longl);
	g_byte_array_unref(r.ba);
	return rc;
}

char *bl_mail_ref(const struct bl_msg *m)
{
	const char *id = m->message_id ? m->message_id : "", *d = m->date ? m->date : "";
	return bl_xasprintf("%s%s%.10s", id, *id && *d ? ", " : "", d);
}

char *bl_mail_thread_key(const struct bl_msg *m)
{
	char *t = m && m->subject && *m->subject ? bl_mail_thread(m->subject) : NULL;
	if (t && strcmp(t, "(no subject)") != 0) {
		char *k = bl_xasprintf("thread: %s", t);
		free(t);
		return k;
	}
	free(t);
	return bl_xstrdup(m && m->message_id ? m->message_id : "");
}

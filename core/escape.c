/* escape.c — see escape.h (E1-E7). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cleanup.h"
#include "core/escape.h"

size_t bl_utf8_len_n(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t k = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (k == 0 || n < k)
		return 0;
	unsigned char lo = 0x80, hi = 0xbf;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

bool bl_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		size_t k = bl_utf8_len_n(p + i, len - i);
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

size_t bl_utf8_len(const unsigned char *s)
{
	/* a NUL ends the text first, so reading stops at it */
	size_t n = 1;
	while (n < 4 && s[n - 1] && s[n])
		n++;
	return s[0] ? bl_utf8_len_n(s, n) : 0;
}

/* A C1 control (U+0080-U+009F, two bytes in UTF-8) at p? Terminals
 * obey some (U+009B is CSI), and no text needs them. */
static bool is_c1(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

static bool is_ascii_punct(unsigned char c)
{
	return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) ||
	       (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/* A character of text as E1-E4 put it: a control (C0, DEL, a C1
 * control) as a space, a byte that starts no well-formed UTF-8 sequence
 * as U+FFFD, a well-formed sequence as it is; *k is how many bytes of p
 * it takes. Returns true when the caller may write p itself (ASCII it
 * escapes its own way, or a sequence it copies). */
static bool text_char(struct bl_buf *b, const unsigned char *p, size_t *k, int *rc)
{
	*k = bl_utf8_len(p);
	if (*p < 0x20 || *p == 0x7f || is_c1(p)) {
		*k = *k ? *k : 1;
		*rc = bl_buf_addc(b, ' ');
		return false;
	}
	if (*k == 0) {
		*k = 1;
		*rc = bl_buf_add(b, "\xEF\xBF\xBD", 3);
		return false;
	}
	return true;
}

int bl_esc_md_inline(struct bl_buf *b, const char *s)
{
	int rc = 0;
	bool lead = true;   /* only digits so far */
	size_t k;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && !rc; p += k) {
		if (!text_char(b, p, &k, &rc))
			;
		else if (k == 1 && ((lead && is_ascii_punct(*p)) || strchr("\\`*_[]<>!&|~#", *p)))
			rc = bl_buf_add(b, (const char[]){ '\\', (char)*p }, 2);
		else
			rc = bl_buf_add(b, p, k);
		lead = lead && *p >= '0' && *p <= '9';
	}
	return rc;
}

int bl_esc_md_code(struct bl_buf *b, const char *s)
{
	int rc = 0;
	size_t k;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && !rc; p += k)
		if (text_char(b, p, &k, &rc))
			rc = bl_buf_add(b, p, k);
	return rc;
}

int bl_esc_html(struct bl_buf *b, const char *s)
{
	int rc = 0;
	size_t k;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && !rc; p += k) {
		if (*p == '\t' || *p == '\n') {
			k = 1;
			rc = bl_buf_addc(b, (char)*p);
			continue;
		}
		if (!text_char(b, p, &k, &rc))
			continue;
		switch (*p) {
		case '&': rc = bl_buf_add(b, "&amp;", 5); break;
		case '<': rc = bl_buf_add(b, "&lt;", 4); break;
		case '>': rc = bl_buf_add(b, "&gt;", 4); break;
		case '"': rc = bl_buf_add(b, "&quot;", 6); break;
		case '\'': rc = bl_buf_add(b, "&#39;", 5); break;
		default: rc = bl_buf_add(b, p, k);
		}
	}
	return rc;
}

size_t bl_utf8_at(const char *s, size_t n, size_t k)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	for (; i < n && k; k--) {
		size_t l = bl_utf8_len_n(p + i, n - i);
		i += l ? l : 1;
	}
	return i;
}

size_t bl_utf8_chars_n(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t c = 0;
	for (size_t i = 0; i < n; c++) {
		size_t l = bl_utf8_len_n(p + i, n - i);
		i += l ? l : 1;
	}
	return c;
}

size_t bl_utf8_chars(const char *s)
{
	return s ? bl_utf8_chars_n(s, strlen(s)) : 0;
}

int bl_esc_gp(struct bl_buf *b, const char *s, size_t max_chars)
{
	int rc = bl_buf_addc(b, '\'');
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t keep = (size_t)-1;
	bool cut = false;
	if (max_chars >= 4 && bl_utf8_chars(s) > max_chars) {
		keep = max_chars - 3;
		cut = true;
	}
	bool after_quote = true; /* the opening quote */
	for (size_t n = 0; *p && n < keep && !rc; n++) {
		size_t k = bl_utf8_len(p);
		bool quote = false;
		if (k == 0) {
			rc = bl_buf_addc(b, '?');
			k = 1;
		} else if (*p == '\'' && after_quote) {
			/* gnuplot 5.4 scanner.c reads '' as a quote only after a
			 * non-quote character: write U+2019. */
			rc = bl_buf_add(b, "\xe2\x80\x99", 3);
		} else if (*p == '\'') {
			rc = bl_buf_add(b, "''", 2);
			quote = true;
		} else if (k == 1) {
			rc = bl_buf_addc(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
		} else if (is_c1(p)) {
			rc = bl_buf_addc(b, ' ');
		} else {
			rc = bl_buf_add(b, p, k);
		}
		p += k;
		after_quote = quote;
	}
	if (!rc && cut)
		rc = bl_buf_add(b, "...", 3);
	return rc ? rc : bl_buf_addc(b, '\'');
}

bool bl_esc_formula_like(const char *s, size_t len)
{
	return len > 0 && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' ||
			   s[0] == '\t' || s[0] == '\r');
}

int bl_esc_term(struct bl_buf *b, const char *s, size_t len, bool keep_lf)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	if (!s)
		len = 0;
	int rc = 0;
	for (size_t i = 0; i < len && !rc; ) {
		unsigned char c = p[i];
		size_t k = bl_utf8_len_n(p + i, len - i);
		bool c1 = k == 2 && c == 0xc2 && p[i + 1] <= 0x9f;   /* U+0080-U+009F */
		if (c == 0x1b) {
			rc = bl_buf_add(b, "\\e", 2);
		} else if ((c == '\n' && !keep_lf) || c == '\r' || (c == '\t' && !keep_lf)) {
			rc = bl_buf_add(b, c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t", 2);
		} else if (c == '\\') {
			rc = bl_buf_add(b, "\\\\", 2);
		} else if ((c < 0x20 && c != '\t' && !(c == '\n' && keep_lf)) || c == 0x7f || k == 0 || c1) {
			size_t n = c1 ? 2 : 1;
			for (size_t j = 0; j < n && !rc; j++) {
				char e[4] = { '\\', 'x', hex[p[i + j] >> 4], hex[p[i + j] & 15] };
				rc = bl_buf_add(b, e, 4);
			}
			i += n;
			continue;
		} else {
			rc = bl_buf_add(b, p + i, k);
			i += k;
			continue;
		}
		i++;
	}
	return rc;
}

/* Escape into a small buffer and write it out, a piece at a time. */
static int put(FILE *f, struct bl_buf *b)
{
	int rc = b->len && fwrite(b->data, 1, b->len, f) != b->len ? EOF : 0;
	bl_buf_release(b);
	return rc;
}

int bl_fput_md_inline(FILE *f, const char *s)
{
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_md_inline(&b, s);
	return put(f, &b);
}

int bl_fput_md_code(FILE *f, const char *s)
{
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_md_code(&b, s);
	return put(f, &b);
}

int bl_md_details_open(FILE *f, const char *summary)
{
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_html(&b, summary);
	int rc = fprintf(f, "<details><summary>%s</summary>\n\n", bl_buf_str(&b)) < 0 ? EOF : 0;
	bl_buf_release(&b);
	return rc;
}

int bl_md_details_close(FILE *f)
{
	return fputs("\n</details>\n\n", f) == EOF ? EOF : 0;
}

int bl_fput_term(FILE *f, const char *s, size_t len)
{
	struct bl_buf b = BL_BUF_INIT(0);
	bl_esc_term(&b, s, len, true);
	return put(f, &b);
}

/* The bytes printf writes for fmt's first n bytes (a copy, NUL-ended)
 * with the arguments of ap. */
static size_t printed_len(const char *fmt, size_t n, va_list ap)
{
	char *pre = bl_xstrndup(fmt, n);
	va_list aq;
	va_copy(aq, ap);
	int len = vsnprintf(NULL, 0, pre, aq);
	va_end(aq);
	free(pre);
	return len > 0 ? (size_t)len : 0;
}

/* E7 for a diagnostic: the text printf makes, where what each conversion
 * put in (found as the growth of the text of fmt's prefixes before and
 * after it) has its LF and CR escaped too, so no value can start a line. */
int bl_term_vprintf(FILE *f, const char *fmt, va_list ap)
{
	struct bl_buf b = BL_BUF_INIT(0);
	char *out = NULL;
	va_list aq;
	va_copy(aq, ap);
	int n = vasprintf(&out, fmt, aq);
	va_end(aq);
	if (n < 0)
		bl_out_of_memory();
	size_t done = 0;
	for (const char *pct = strchr(fmt, '%'); pct; pct = strchr(pct, '%')) {
		size_t len = 1 + strspn(pct + 1, "-+ #0'123456789.*hlLqjzt");
		if (!pct[len++])
			break;   /* a lone '%' at the end */
		if (pct[len - 1] != '%') {
			size_t from = printed_len(fmt, (size_t)(pct - fmt), ap);
			size_t to = printed_len(fmt, (size_t)(pct - fmt) + len, ap);
			bl_esc_term(&b, out + done, from - done, true);
			bl_esc_term(&b, out + from, to - from, false);
			done = to;
		}
		pct += len;
	}
	bl_esc_term(&b, out + done, (size_t)n - done, true);
	free(out);
	return put(f, &b);
}

int bl_term_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = bl_term_vprintf(f, fmt, ap);
	va_end(ap);
	return rc;
}

const char *bl_esc_doc(struct bl_esc_ring *r, const char *s, bool md)
{
	struct bl_buf *b = &r->b[r->next++ % BL_ESC_RING];
	bl_buf_reset(b);
	if (md)
		bl_esc_md_inline(b, s);
	else
		bl_esc_term(b, s, s ? strlen(s) : 0, false);
	return bl_buf_str(b);
}

void bl_esc_ring_release(struct bl_esc_ring *r)
{
	for (size_t i = 0; i < BL_ESC_RING; i++)
		bl_buf_release(&r->b[i]);
	r->next = 0;
}

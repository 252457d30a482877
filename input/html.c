/* html.c — HTML to text lines (see html.h; H1-H4 cited below). */
#include <libxml/HTMLparser.h>
#include <libxml/SAX2.h>
#include <libxml/parserInternals.h>
#include <iconv.h>
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "input/html.h"
#include "input/reader.h"
#include "core/escape.h"
#include "core/util.h"

/* libxml2, opened at the first page read (core/util.h bl_dynlib_open()):
 * each function this file calls, by its own name, through the pointer
 * the loader set. */
#define XML_FNS(X) X(htmlCreateMemoryParserCtxt) X(htmlCtxtUseOptions) X(htmlFreeParserCtxt) \
	X(htmlParseDocument) X(xmlFreeDoc) X(xmlSAX2GetLineNumber) X(xmlSetGenericErrorFunc) \
	X(xmlSwitchEncoding) X(__xmlGenericError) X(__xmlGenericErrorContext)
BL_DL_TABLE(XML_FNS);
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static void xml_open(void) { bl_dynlib_open(BL_SONAME_XML2, bl_dl_names, bl_dl_fn); }
#define htmlCreateMemoryParserCtxt BL_DL(htmlCreateMemoryParserCtxt)
#define htmlCtxtUseOptions BL_DL(htmlCtxtUseOptions)
#define htmlFreeParserCtxt BL_DL(htmlFreeParserCtxt)
#define htmlParseDocument BL_DL(htmlParseDocument)
#define xmlFreeDoc BL_DL(xmlFreeDoc)
#define xmlSAX2GetLineNumber BL_DL(xmlSAX2GetLineNumber)
#define xmlSetGenericErrorFunc BL_DL(xmlSetGenericErrorFunc)
#define xmlSwitchEncoding BL_DL(xmlSwitchEncoding)
#define __xmlGenericError BL_DL(__xmlGenericError)
#define __xmlGenericErrorContext BL_DL(__xmlGenericErrorContext)

struct hx {
	htmlParserCtxtPtr px;
	bl_html_line_fn fn;
	void *ud;
	struct bl_buf line;       /* the text line being built */
	bool started;             /* a line is open (maybe still empty) */
	bool too_long;            /* the open line went past BL_LINE_MAX */
	unsigned long at;         /* its source line */
	bool space;               /* a blank is due before the next text */
	bool pre_start;           /* just after <pre>: a newline is dropped */
	int pre, drop, quote;
	int rc;
};

static const char *const drop_set[] = { "head", "style", "script", "title", NULL };
static const char *const block_set[] = {
	"p", "div", "pre", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table",
	"blockquote", "ul", "ol", "dl", "dt", "dd", "hr", "address", NULL,
};

static bool in_set(const xmlChar *name, const char *const *set)
{
	return bl_word_index((const char *)name, strlen((const char *)name), set, false) >= 0;
}

/* H2: the open line goes out, trailing blanks trimmed, quoted per level. */
static void emit(struct hx *h)
{
	size_t n = h->line.len;
	while (n > 0 && h->line.data[n - 1] == ' ')
		n--;
	h->line.len = n;
	if (h->rc == 0 && h->too_long)
		h->rc = h->fn(h->ud, NULL, 0, h->at);
	else if (h->rc == 0)
		h->rc = h->fn(h->ud, n ? h->line.data : "", n, h->at);
	bl_buf_reset(&h->line);
	h->started = h->too_long = h->space = false;
}

static void open_at(struct hx *h, unsigned long srcline)
{
	if (!h->started) {
		h->started = true;
		h->at = srcline;
		for (int d = 0; d < h->quote; d++)
			bl_buf_addc(&h->line, '>');
		if (h->quote)
			bl_buf_addc(&h->line, ' ');
	}
}

static void add(struct hx *h, unsigned long srcline, const char *s, size_t n)
{
	open_at(h, srcline);
	if (h->space && h->line.len > (size_t)(h->quote ? h->quote + 1 : 0))
		h->too_long |= bl_buf_addc(&h->line, ' ') != 0;
	h->space = false;
	if (!h->too_long && bl_buf_add(&h->line, s, n) != 0)
		h->too_long = true;
}

static unsigned long here(const struct hx *h)
{
	int l = xmlSAX2GetLineNumber(h->px);
	return l > 0 ? (unsigned long)l : 1;
}

/* The parser hands text over with its position after the last byte: the
 * text starts that many line ends earlier (H3). */
static void on_text(void *ud, const xmlChar *s, int len)
{
	struct hx *h = ud;
	if (h->drop || h->rc)
		return;
	const char *t = (const char *)s;
	size_t n = (size_t)len, nl = 0;
	for (size_t i = 0; i < n; i++)
		nl += t[i] == '\n';
	unsigned long line = here(h);
	line = line > nl ? line - nl : 1;
	for (size_t i = 0; i < n; i++) {
		char c = t[i];
		if (c == '\n' || c == '\r') {
			if (h->pre && c == '\n' && !(h->pre_start && !h->started)) {
				open_at(h, line);
				emit(h);
			} else if (!h->pre) {
				h->space = true;
			}
			h->pre_start = false;
			line += c == '\n';
		} else if (!h->pre && (c == ' ' || c == '\t')) {
			h->space = true;
		} else if ((unsigned char)c == 0xC2 && i + 1 < n && (unsigned char)t[i + 1] == 0xA0) {
			add(h, line, " ", 1);    /* H1: a no-break space is a kept blank */
			i++;
		} else {
			size_t j = i + 1;        /* a run of plain bytes at once */
			while (j < n && t[j] != '\n' && t[j] != '\r' && t[j] != ' ' && t[j] != '\t' &&
			       (unsigned char)t[j] != 0xC2)
				j++;
			add(h, line, t + i, j - i);
			i = j - 1;
		}
		if (c != '\n' && c != '\r')
			h->pre_start = false;
	}
}

static void on_start(void *ud, const xmlChar *name, const xmlChar **attrs)
{
	struct hx *h = ud;
	(void)attrs;
	if (in_set(name, drop_set))
		h->drop++;
	if (h->drop || h->rc)
		return;
	if (strcmp((const char *)name, "br") == 0) {
		open_at(h, here(h));
		emit(h);
	} else if (in_set(name, block_set)) {
		if (h->started)
			emit(h);
		h->pre += strcmp((const char *)name, "pre") == 0;
		h->pre_start = strcmp((const char *)name, "pre") == 0;
		h->quote += strcmp((const char *)name, "blockquote") == 0;
	} else if (strcmp((const char *)name, "td") == 0 || strcmp((const char *)name, "th") == 0) {
		h->space = h->started;
	}
}

static void on_end(void *ud, const xmlChar *name)
{
	struct hx *h = ud;
	if (in_set(name, drop_set)) {
		h->drop -= h->drop > 0;
		return;
	}
	if (h->drop || h->rc || !in_set(name, block_set))
		return;
	if (h->started)
		emit(h);
	if (strcmp((const char *)name, "pre") == 0 && h->pre > 0)
		h->pre--;
	if (strcmp((const char *)name, "blockquote") == 0 && h->quote > 0)
		h->quote--;
	h->space = false;
}

/* Bytes that every encoding a page may declare and that can read them at
 * all reads as ASCII: no byte over 0x7F, no NUL, no ESC (ISO-2022). */
static bool plain_ascii(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)p[i] >= 0x80 || p[i] == 0 || p[i] == 0x1B)
			return false;
	return true;
}

/* The charset the first <meta> naming one declares (charset=X, or
 * content="...; charset=X"), as libxml2 takes it; "" when none does. */
static void declared_charset(const char *p, size_t len, char *cs, size_t cap)
{
	cs[0] = '\0';
	for (const char *m = p, *end = p + len; (m = memchr(m, '<', (size_t)(end - m))) != NULL; m++) {
		if (end - m < 6 || strncasecmp(m + 1, "meta", 4) != 0)
			continue;
		const char *gt = memchr(m, '>', (size_t)(end - m));
		const char *t = gt ? gt : end;
		for (const char *c = m + 5; t - c > 7; c++) {
			if (strncasecmp(c, "charset", 7) != 0)
				continue;
			c += 7;
			while (c < t && (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r'))
				c++;
			if (c == t || *c++ != '=')
				continue;
			while (c < t && (*c == ' ' || *c == '"' || *c == '\''))
				c++;
			size_t n = 0;
			for (; c < t && n + 1 < cap && (isalnum((unsigned char)*c) || strchr("._:-", *c)); c++)
				cs[n++] = *c;
			cs[n] = '\0';
			if (n)
				return;
		}
	}
}

/* Does charset cs read markup's ASCII bytes as ASCII (UTF-8, Latin-1,
 * Shift_JIS: '\\' and '~' aside), unlike UTF-16/32, EBCDIC or UTF-7?
 * A name iconv does not know is left to libxml2 (true). */
static bool ascii_compatible(const char *cs)
{
	static const char sample[] = "\t\n\r !\"#$%&'()*+,-./0123456789:;<=>?@"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}";
	iconv_t cd = iconv_open("UTF-8", cs);
	if (cd == (iconv_t)-1)
		return true;
	char out[sizeof sample * 4], *in = (char *)sample, *o = out;
	size_t il = sizeof sample - 1, ol = sizeof out;
	size_t r = iconv(cd, &in, &il, &o, &ol);
	iconv_close(cd);
	return r != (size_t)-1 && (size_t)(o - out) == sizeof sample - 1 &&
	       memcmp(out, sample, sizeof sample - 1) == 0;
}

/* Bytes that can be UTF-16 or UTF-32 text: a byte order mark, or a NUL
 * in the first four bytes (any ASCII character there holds one). */
static bool wide_bytes(const char *p, size_t len)
{
	const unsigned char *u = (const unsigned char *)p;
	if (len >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) || (u[0] == 0xFF && u[1] == 0xFE)))
		return true;
	return memchr(p, 0, len < 4 ? len : 4) != NULL;
}

/* libxml2's own messages (a failed conversion) go to the caller's note,
 * the first line kept, never to stderr. */
static void __attribute__((format(printf, 2, 3))) on_xml_error(void *ud, const char *fmt, ...)
{
	struct bl_html_note *n = ud;
	size_t l = strlen(n->error);
	if (l + 1 >= sizeof n->error || memchr(n->error, '\n', l))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(n->error + l, sizeof n->error - l, fmt, ap);
	va_end(ap);
}

/* How the page's bytes are decoded (html.h): returns the parser options. */
static int choose_encoding(htmlParserCtxtPtr px, const char *html, size_t len, bool utf8,
			   struct bl_html_note *note)
{
	int opt = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET;
	bool u8 = utf8 || plain_ascii(html, len);
	if (!u8) {
		declared_charset(html, len, note->declared, sizeof note->declared);
		if (!note->declared[0] || ascii_compatible(note->declared) || wide_bytes(html, len))
			return opt;   /* libxml2's rule: the declaration, else its guess */
		u8 = bl_utf8_valid(html, len);
		note->read_as = u8 ? "UTF-8" : "ISO-8859-1";
	}
	xmlSwitchEncoding(px, u8 ? XML_CHAR_ENCODING_UTF8 : XML_CHAR_ENCODING_8859_1);
	return opt | HTML_PARSE_IGNORE_ENC;
}

int bl_html_text(const char *html, size_t len, bool utf8, bl_html_line_fn fn, void *ud,
		 struct bl_html_note *note)
{
	struct hx h = { NULL, fn, ud, BL_BUF_INIT(BL_LINE_MAX), false, false, 0, false, false, 0, 0, 0, 0 };
	struct bl_html_note own;
	if (!note)
		note = &own;
	memset(note, 0, sizeof *note);
	if (len > INT_MAX)
		len = INT_MAX;
	pthread_once(&xml_once, xml_open);
	h.px = htmlCreateMemoryParserCtxt(len ? html : " ", len ? (int)len : 1);
	if (!h.px)
		return -BL_ENOMEM;
	htmlSAXHandler *sax = (htmlSAXHandler *)h.px->sax;
	memset(sax, 0, sizeof *sax);
	sax->startElement = on_start;
	sax->endElement = on_end;
	sax->characters = on_text;
	sax->ignorableWhitespace = on_text;
	sax->cdataBlock = on_text;
	h.px->userData = &h;
	xmlGenericErrorFunc old_fn = xmlGenericError;
	void *old_ud = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(note, on_xml_error);
	htmlCtxtUseOptions(h.px, choose_encoding(h.px, html, len, utf8, note));
	htmlParseDocument(h.px);
	xmlSetGenericErrorFunc(old_ud, old_fn);
	char *nl = strchr(note->error, '\n');
	if (nl)
		*nl = '\0';
	if (h.started)
		emit(&h);
	if (h.px->myDoc)
		xmlFreeDoc(h.px->myDoc);
	htmlFreeParserCtxt(h.px);
	bl_buf_release(&h.line);
	return h.rc;
}

/* H0: blanks and comments, then <!DOCTYPE html or <html. */
bool bl_html_sniff(const char *p, size_t len)
{
	size_t i = 0;
	for (;;) {
		while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
			i++;
		if (len - i >= 4 && memcmp(p + i, "<!--", 4) == 0) {
			const char *e = memmem(p + i + 4, len - i - 4, "-->", 3);
			if (!e)
				return false;
			i = (size_t)(e - p) + 3;
			continue;
		}
		break;
	}
	static const char *const tags[] = { "<!doctype html", "<html" };
	for (size_t k = 0; k < 2; k++) {
		size_t n = strlen(tags[k]);
		if (len - i > n && strncasecmp(p + i, tags[k], n) == 0) {
			char c = p[i + n];
			if (c == '>' || c == ' ' || c == '\t' || c == '\r' || c == '\n')
				return true;
		}
	}
	return false;
}

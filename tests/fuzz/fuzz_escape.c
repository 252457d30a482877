/* fuzz_escape.c — any bytes through every escaping function of
 * core/escape.h; what comes out must be safe where it goes:
 *   E1 Markdown inline: cmark-gfm (report.html's renderer) makes of it one
 *      paragraph holding no element, and no control byte or C1 control
 *      is left;
 *   E3 Markdown code line: no line end, no control byte, no C1 control;
 *   E4 HTML: none of < > " ' raw, & only as a reference we wrote;
 *   E5 gnuplot: one single-quoted string that gnuplot 5.4's scanner reads
 *      to the end (quotes come in pairs), no control byte, no C1 control;
 *   E7 terminal: no control byte but TAB and LF when kept, no C1
 *      control, well-formed UTF-8 only.
 * The first byte chooses keep_lf and the gnuplot length
 * cap; the rest is the text (cut at its first NUL where a function takes
 * a C string). */
#include "tests/fuzz/common.h"   /* first: system headers before core/banned.h */
#include <cmark-gfm.h>
#include "core/escape.h"

static void fze_no_controls(const char *what, const struct bl_buf *b, bool tab, bool lf)
{
	for (size_t i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->data[i];
		if ((c < 0x20 && !(tab && c == '\t') && !(lf && c == '\n')) || c == 0x7f)
			fz_fail("%s: control byte 0x%02x at %zu", what, c, i);
	}
}

/* No C1 control (U+0080-U+009F) in b: E1, E3, E5 make them spaces. */
static void fze_no_c1(const char *what, const struct bl_buf *b)
{
	for (size_t i = 0; i + 1 < b->len; i++)
		if ((unsigned char)b->data[i] == 0xc2 && (unsigned char)b->data[i + 1] >= 0x80 &&
		    (unsigned char)b->data[i + 1] <= 0x9f)
			fz_fail("%s: C1 control at %zu", what, i);
}

static void fze_md(const char *s)
{
	struct bl_buf b = BL_BUF_INIT(0);
	/* after other text, as the report puts it (a line that starts with
	 * four spaces is a code block whatever its text) */
	bl_buf_addc(&b, 'x');
	if (bl_esc_md_inline(&b, s))
		fz_fail("md: escape failed");
	fze_no_controls("md", &b, false, false);
	fze_no_c1("md", &b);
	char *html = cmark_markdown_to_html(b.data, b.len, CMARK_OPT_DEFAULT);
	if (!html)
		fz_fail("md: cmark gave nothing");
	/* a text of spaces only renders as nothing: that is no markup either */
	size_t hl = strlen(html);
	if (hl) {
		if (strncmp(html, "<p>", 3) != 0 || hl < 8 || strcmp(html + hl - 5, "</p>\n") != 0)
			fz_fail("md: not one paragraph: %s", html);
		for (size_t i = 3; i < hl - 5; i++)
			if (html[i] == '<' && strncmp(html + i, "<br />", 6) != 0)
				fz_fail("md: markup in %s", html);
	}
	free(html);
	bl_buf_release(&b);
}

static void fze_code_html(const char *s)
{
	struct bl_buf b = BL_BUF_INIT(0);
	if (bl_esc_md_code(&b, s))
		fz_fail("md code: escape failed");
	fze_no_controls("md code", &b, false, false);
	fze_no_c1("md code", &b);
	bl_buf_reset(&b);
	if (bl_esc_html(&b, s))
		fz_fail("html: escape failed");
	for (size_t i = 0; i < b.len; i++) {
		char c = b.data[i];
		if (c == '<' || c == '>' || c == '"' || c == '\'')
			fz_fail("html: raw %c at %zu", c, i);
		if (c == '&' && strncmp(b.data + i, "&amp;", 5) && strncmp(b.data + i, "&lt;", 4) &&
		    strncmp(b.data + i, "&gt;", 4) && strncmp(b.data + i, "&quot;", 6) &&
		    strncmp(b.data + i, "&#39;", 5))
			fz_fail("html: bare & at %zu", i);
	}
	fze_no_controls("html", &b, true, true);
	bl_buf_release(&b);
}

static void fze_gp(const char *s, size_t max)
{
	struct bl_buf b = BL_BUF_INIT(0);
	if (bl_esc_gp(&b, s, max))
		fz_fail("gp: escape failed");
	fze_no_controls("gp", &b, false, false);
	fze_no_c1("gp", &b);
	if (b.len < 2 || b.data[0] != '\'' || b.data[b.len - 1] != '\'')
		fz_fail("gp: not single-quoted");
	/* gnuplot 5.4's scanner: inside, '' is a quote only after a
	 * non-quote character; a ' otherwise ends the string */
	for (size_t i = 1; i + 1 < b.len; i++) {
		if (b.data[i] != '\'')
			continue;
		if (b.data[i + 1] != '\'' || i + 2 == b.len || b.data[i - 1] == '\'' || i == 1)
			fz_fail("gp: the string ends early at %zu: %s", i, b.data);
		i++;
	}
	bl_buf_release(&b);
}

static void fze_term(const char *s, size_t len, bool keep_lf)
{
	struct bl_buf b = BL_BUF_INIT(0);
	if (bl_esc_term(&b, s, len, keep_lf))
		fz_fail("term: escape failed");
	fze_no_controls("term", &b, keep_lf, keep_lf);
	const unsigned char *p = (const unsigned char *)bl_buf_str(&b);
	for (size_t i = 0; i < b.len;) {
		size_t k = bl_utf8_len(p + i);
		if (k == 0)
			fz_fail("term: byte 0x%02x at %zu is not UTF-8", p[i], i);
		if (k == 2 && p[i] == 0xc2 && p[i + 1] <= 0x9f)
			fz_fail("term: C1 control at %zu", i);
		i += k;
	}
	bl_buf_release(&b);
}

int bl_fuzz_escape(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	uint8_t cfg = data[0];
	const char *raw = (const char *)data + 1;
	size_t len = size - 1;
	char *s = bl_xstrndup(raw, len);   /* cut at the first NUL */
	fze_md(s);
	fze_code_html(s);
	fze_gp(s, cfg >> 3);
	fze_term(raw, len, cfg & 1);
	free(s);
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_escape(data, size);
}
#endif

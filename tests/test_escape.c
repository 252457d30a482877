/* test_escape.c — core/escape.h, E1-E7. Every expected string is written
 * by hand from the rule the header states (CommonMark 0.30 §2.4 for the
 * Markdown escapes, RFC 4180 for CSV, the HTML character references), and
 * the Markdown ones are also fed to cmark-gfm, the renderer report.html
 * uses, which must give back the text and no markup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <cmark-gfm.h>
#include "core/escape.h"

typedef int (*esc_fn)(struct bl_buf *, const char *);

static void expect(esc_fn fn, const char *in, const char *want)
{
	struct bl_buf b = BL_BUF_INIT(0);
	assert_int_equal(fn(&b, in), 0);
	if (strcmp(bl_buf_str(&b), want) != 0)
		fail_msg("escaped \"%s\" to \"%s\", want \"%s\"", in, bl_buf_str(&b), want);
	bl_buf_release(&b);
}

/* E1 by hand: the markup characters anywhere, punctuation after only
 * digits from the start, control bytes as spaces. */
static void test_escape__md_inline(void **state)
{
	(void)state;
	expect(bl_esc_md_inline, "2.4.13-pre2aa1", "2\\.4.13-pre2aa1");
	expect(bl_esc_md_inline, "![x](http://e.example/i.png)", "\\!\\[x\\](http://e.example/i.png)");
	expect(bl_esc_md_inline, "[y](http://e.example/)", "\\[y\\](http://e.example/)");
	expect(bl_esc_md_inline, "**b** _i_ `c` ~s~", "\\*\\*b\\*\\* \\_i\\_ \\`c\\` \\~s\\~");
	expect(bl_esc_md_inline, "<script>&amp;|", "\\<script\\>\\&amp;\\|");
	expect(bl_esc_md_inline, "a\n# H1\r\tb\x1b", "a \\# H1  b ");
	expect(bl_esc_md_inline, "- item", "\\- item");
	expect(bl_esc_md_inline, "12) x", "12\\) x");
	expect(bl_esc_md_inline, "> q", "\\> q");
	expect(bl_esc_md_inline, "back\\slash", "back\\\\slash");
	expect(bl_esc_md_inline, NULL, "");
	expect(bl_esc_md_inline, "x #", "x \\#");   /* E2 */
	/* C1 controls (U+0080-U+009F) as spaces, other UTF-8 kept */
	expect(bl_esc_md_inline, "a\xc2\x9b" "31mb \xc2\xb5s \xc2\x80", "a 31mb \xc2\xb5s  ");
}

/* E1 through cmark-gfm: a paragraph of the escaped text renders as one
 * <p> holding the text, with no element but the paragraph. */
static void test_escape__md_renders_as_text(void **state)
{
	(void)state;
	static const char *const in[] = {
		"evil ![x](http://e.example/i.png) [y](http://e.example/) **b**\n# H1",
		"<img src=http://e.example/x> <http://e.example/> &#x3c;b&#x3e;",
		"1. list\n- item\n> quote\n```\ncode",
		"`code` [ref]: http://e.example/ ![[x]]",
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct bl_buf b = BL_BUF_INIT(0);
		assert_int_equal(bl_esc_md_inline(&b, in[i]), 0);
		char *html = cmark_markdown_to_html(b.data, b.len, CMARK_OPT_DEFAULT);
		assert_non_null(html);
		assert_true(strncmp(html, "<p>", 3) == 0);
		const char *end = strstr(html, "</p>");
		assert_non_null(end);
		/* inside the paragraph: no '<' but of entity form */
		for (const char *p = html + 3; p < end; p++)
			if (*p == '<')
				fail_msg("input %zu rendered markup: %s", i, html);
		assert_string_equal(end, "</p>\n");
		free(html);
		bl_buf_release(&b);
	}
}

static void test_escape__md_code_html(void **state)
{
	(void)state;
	expect(bl_esc_md_code, "a\n```\nb", "a ``` b");
	expect(bl_esc_md_code, "*x* <y>", "*x* <y>");
	expect(bl_esc_md_code, "a\xc2\x9f\xc2\xa0" "b", "a \xc2\xa0" "b");
	expect(bl_esc_html, "<a href=\"x\">'&'</a>", "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
	expect(bl_esc_html, "a\x01\x7f\tb\nc", "a  \tb\nc");
}

static void expect_gp(const char *in, size_t max, const char *want)
{
	struct bl_buf b = BL_BUF_INIT(0);
	assert_int_equal(bl_esc_gp(&b, in, max), 0);
	assert_string_equal(b.data, want);
	bl_buf_release(&b);
}

static void test_escape__gp(void **state)
{
	(void)state;
	expect_gp("it's", 0, "'it''s'");
	expect_gp("'x", 0, "'\xe2\x80\x99x'");
	expect_gp("a\x1b]0;t\x07", 0, "'a ]0;t '");
	expect_gp("\xff", 0, "'?'");
	expect_gp("a\xc2\x9b" "2J\xc2\xb5", 0, "'a 2J\xc2\xb5'");
	expect_gp("abcdefghij", 8, "'abcde...'");
}

static void expect_term(const char *in, size_t len, bool keep_lf, const char *want)
{
	struct bl_buf b = BL_BUF_INIT(0);
	assert_int_equal(bl_esc_term(&b, in, len, keep_lf), 0);
	if (strcmp(bl_buf_str(&b), want) != 0)
		fail_msg("term gave \"%s\", want \"%s\"", bl_buf_str(&b), want);
	bl_buf_release(&b);
}

static void test_escape__term(void **state)
{
	(void)state;
	expect_term("a\x1b[2Jb", 6, false, "a\\e[2Jb");
	expect_term("\x1b]0;title\x07", 10, false, "\\e]0;title\\x07");
	expect_term("x\x9b" "31m", 5, false, "x\\x9b31m");           /* a lone C1 byte */
	expect_term("x\xc2\x9b" "1m", 5, false, "x\\xc2\\x9b1m");     /* U+009B in UTF-8 */
	expect_term("b\bc\x7f", 4, false, "b\\x08c\\x7f");
	expect_term("l1\nl2", 5, false, "l1\\nl2");
	expect_term("cr\rlf", 5, false, "cr\\rlf");
	expect_term("cr\r\n", 4, true, "cr\\r\n");
	expect_term("l1\nl2", 5, true, "l1\nl2");
	expect_term("tab\there \\ \xc2\xb5s", 14, false, "tab\\there \\\\ \xc2\xb5s");
	expect_term("tab\there", 8, true, "tab\there");
	expect_term("nul\0x", 5, false, "nul\\x00x");
	expect_term("\xe2\x82", 2, false, "\\xe2\\x82");                /* cut sequence */
}

/* E7 over a whole printf: our text and the quoted values alike. */
static void test_escape__term_printf(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(bl_term_printf(f, "benchlog: no group \"%s\"; there are: %d\n", "g\x1b[31m\xc2\x9b", 2), 0);
	fclose(f);
	assert_string_equal(out, "benchlog: no group \"g\\e[31m\\xc2\\x9b\"; there are: 2\n");
	free(out);
}

/* A value never starts a line (issue 34 item 7): the format's own LFs
 * stay, an LF or CR inside a conversion is shown as \n, \r; every kind of
 * conversion the code uses formats as printf does. */
static void test_escape__term_printf_values_stay_on_their_line(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(bl_term_printf(f, "benchlog compare: no group \"%s\"\nusage: x\n",
					"nope\nbenchlog: forged\r"), 0);
	assert_int_equal(bl_term_printf(f, "%zu|%5.1f|%.*s|%-3d|%lu|%lld|%c|%%|%x|%s\n", (size_t)7, 2.25, 2,
					"abc", -4, 99UL, -5LL, 'q', 255u, "end"), 0);
	fclose(f);
	assert_string_equal(out, "benchlog compare: no group \"nope\\nbenchlog: forged\\r\"\nusage: x\n"
				 "7|  2.2|ab|-4 |99|-5|q|%|ff|end\n");
	free(out);
}

static void test_escape__limit(void **state)
{
	(void)state;
	struct bl_buf b = BL_BUF_INIT(4);
	assert_int_equal(bl_esc_md_inline(&b, "too long"), -BL_ENOMEM);
	bl_buf_release(&b);
}

/* One way of counting characters for every width (core/escape.h): by
 * hand, a, é (c3 a9) and b are 3 characters, é at byte 1, b at byte 3;
 * a stray continuation byte "\x80" and a lead byte cut short "\xe2\x82"
 * count one character a byte, as E5 writes each as one '?'. */
static void test_escape__utf8_chars(void **state)
{
	(void)state;
	assert_int_equal(bl_utf8_chars("a\xc3\xa9" "b"), 3);
	assert_int_equal(bl_utf8_chars_n("a\xc3\xa9" "b", 2), 2);   /* a, and é cut short: 1 */
	assert_int_equal(bl_utf8_at("a\xc3\xa9" "b", 4, 2), 3);
	assert_int_equal(bl_utf8_at("a\xc3\xa9" "b", 4, 3), 4);
	assert_int_equal(bl_utf8_at("a\xc3\xa9" "b", 4, 9), 4);
	assert_int_equal(bl_utf8_chars("\x80x"), 2);
	assert_int_equal(bl_utf8_chars("\xe2\x82"), 2);
	assert_int_equal(bl_utf8_at("\x80\x80x", 3, 2), 2);
	assert_int_equal(bl_utf8_chars(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape__md_inline),
		cmocka_unit_test(test_escape__term_printf_values_stay_on_their_line),
		cmocka_unit_test(test_escape__md_renders_as_text),
		cmocka_unit_test(test_escape__md_code_html),
		cmocka_unit_test(test_escape__gp),
		cmocka_unit_test(test_escape__term),
		cmocka_unit_test(test_escape__term_printf),
		cmocka_unit_test(test_escape__limit),
		cmocka_unit_test(test_escape__utf8_chars),
	};
	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}

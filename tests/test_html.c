/* test_html.c — input/html.h, H0-H4: which files are HTML, and the text
 * lines and line numbers a page gives. Every expected line and number is
 * read off the input by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "input/html.h"
#include "input/reader.h"

struct got {
	char text[16][128];
	unsigned long line[16];
	int n, too_long;
};

static int collect(void *ud, const char *t, size_t n, unsigned long srcline)
{
	struct got *g = ud;
	if (!t) {
		g->too_long++;
		return 0;
	}
	assert_true(g->n < 16 && n < 128);
	memcpy(g->text[g->n], t, n);
	g->text[g->n][n] = '\0';
	g->line[g->n++] = srcline;
	return 0;
}

static void run(struct got *g, const char *html, bool utf8)
{
	memset(g, 0, sizeof *g);
	assert_int_equal(bl_html_text(html, strlen(html), utf8, collect, g, NULL), 0);
}

static void want(const struct got *g, int i, const char *text, unsigned long line)
{
	assert_true(i < g->n);
	assert_string_equal(g->text[i], text);
	assert_int_equal(g->line[i], line);
}

static void test_html__sniff(void **state)
{
	(void)state;
	assert_true(bl_html_sniff("<!DOCTYPE html>\n<html>", 22));
	assert_true(bl_html_sniff("  \n<!doctype HTML PUBLIC \"-//W3C\">", 33));
	assert_true(bl_html_sniff("<HTML>", 6));
	assert_true(bl_html_sniff("<!-- saved from url=(0040)x -->\n<html lang=en>", 46));
	assert_false(bl_html_sniff("<htmlfoo>", 9));
	assert_false(bl_html_sniff("procs -----------memory----------", 33));
	assert_false(bl_html_sniff("<!-- never closed <html>", 24));
	assert_false(bl_html_sniff("", 0));
}

/* H1-H3 on the pattern: the command glued to the opening tags,
 * the last row to the closing ones, two blanks of indentation, entities. */
static void test_html__pre_glued_lines_keep_their_numbers(void **state)
{
	(void)state;
	struct got g;
	run(&g,
	    "<html><head><title>T</title><style>p{}</style></head><body>\n"   /* 1 */
	    "<p>Some&nbsp;&nbsp;text\n"                                       /* 2 */
	    "   wrapped &lt;x&gt; &amp; more</p>\n"                          /* 3 */
	    "<div><pre><code>$ time ./a\n"                                    /* 4 */
	    "  1.11 real         0.48 user\n"                                 /* 5 */
	    "\n"                                                              /* 6 */
	    "  0.82 real         0.47 user</code></pre></div>\n"              /* 7 */
	    "<pre>\n"                                                         /* 8 */
	    "after\tnewline</pre>\n"                                          /* 9 */
	    "<table><tr><td>a</td><td>b</td></tr></table>x<br>y\n"            /* 10 */
	    "<blockquote><p>quoted</p></blockquote><!-- c -->\n"              /* 11 */
	    "</body></html>\n", false);
	assert_int_equal(g.n, 10);
	want(&g, 0, "Some  text wrapped <x> & more", 2);
	want(&g, 1, "$ time ./a", 4);
	want(&g, 2, "  1.11 real         0.48 user", 5);
	want(&g, 3, "", 6);
	want(&g, 4, "  0.82 real         0.47 user", 7);
	want(&g, 5, "after\tnewline", 9);
	want(&g, 6, "a b", 10);
	want(&g, 7, "x", 10);
	want(&g, 8, "y", 10);
	want(&g, 9, "> quoted", 11);
}

/* H4: a text line over BL_LINE_MAX is reported, not split. */
static void test_html__long_line_reported(void **state)
{
	(void)state;
	size_t n = BL_LINE_MAX + 100;
	char *p = malloc(n + 32);
	memcpy(p, "<pre>", 5);
	memset(p + 5, 'x', n);
	memcpy(p + 5 + n, "\nok</pre>", 10);
	struct got g;
	memset(&g, 0, sizeof g);
	assert_int_equal(bl_html_text(p, strlen(p), true, collect, &g, NULL), 0);
	assert_int_equal(g.too_long, 1);
	assert_int_equal(g.n, 1);
	want(&g, 0, "ok", 2);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html__sniff),
		cmocka_unit_test(test_html__pre_glued_lines_keep_their_numbers),
		cmocka_unit_test(test_html__long_line_reported),
	};
	return cmocka_run_group_tests_name("html", tests, NULL, NULL);
}

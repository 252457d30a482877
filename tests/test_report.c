/* test_report.c — report/: the pass it reads its inputs with (run
 * numbering across files, each input's counts, a stop), the output folder
 * swap, and the HTML rendering.
 *
 * Where the expected values come from (never from this code):
 *   - run numbers: worked out by hand from the inputs written below, by the
 *     rule of core/ctx.h (runs are numbered per group across the whole
 *     pass: a file's runs of group G continue after earlier files' runs);
 *   - line counts: counted by hand in the literal inputs;
 *   - base64: RFC 4648 section 10 test vectors ("foobar" -> "Zm9vYmFy") and
 *     `printf '\211PNG' | base64` = "iVBORw==" (coreutils);
 *   - HTML of a Markdown text: cmark-gfm itself with its own allocator
 *     (cmark_markdown_to_html's path: parser, table extension, renderer).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/escape.h"

#include <cmocka.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <pthread.h>

#include "tests/test_rng.h"

#include "input/reader.h"
#include "core/util.h"
#include "report/html.h"
#include "report/outdir.h"
#include "parsers/pass.h"

static char tmpdir[] = "/tmp/bl-test-report-XXXXXX";

static void write_text(const char *name, const char *text)
{
	char *p = bl_xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(p);
}

/* A sink that writes "source|group|run|table" per record. */
static int collect(void *ud, const struct bl_record *r)
{
	FILE *f = ud;
	const char *src = strrchr(r->source, '/');
	fprintf(f, "%s|%s|%ld|%s\n", src ? src + 1 : r->source, r->group, r->run, r->table->name);
	return 0;
}

static void collect_skip(void *ud, const struct bl_line *ln, const char *reason, const char *note)
{
	if (note)
		reason = note;
	FILE *f = ud;
	const char *src = strrchr(ln->source, '/');
	fprintf(f, "%s:%lu %s\n", src ? src + 1 : ln->source, ln->lineno, reason);
}

struct pass_out {
	char *records, *skips, *diag;
	size_t nr, ns, nd;
	unsigned long lines, used, skipped, nrec;
	size_t ninputs;
};

static void on_input(void *ud, const struct bl_input_stats *st)
{
	struct pass_out *o = ud;
	o->ninputs++;
	assert_int_equal(st->used + st->skipped, st->lines);
}

static void run_pass(struct pass_out *o)
{
	memset(o, 0, sizeof *o);
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, NULL);
	FILE *rf = open_memstream(&o->records, &o->nr);
	FILE *sf = open_memstream(&o->skips, &o->ns);
	FILE *df = open_memstream(&o->diag, &o->nd);
	struct bl_sink s = { collect, NULL, NULL, rf, true };
	bl_ctx_add_sink(&ctx, &s);
	ctx.skip.skipped = collect_skip;
	ctx.skip.ud = sf;
	ctx.diag = df;
	char *in = bl_xstrdup(tmpdir);
	char *inputs[] = { in };
	struct bl_pass_hooks h = { .input_done = on_input, .ud = o };
	assert_int_equal(bl_pass_run(&ctx, inputs, 1, &h), 0);
	o->lines = ctx.lines_total;
	o->used = ctx.lines_used;
	o->skipped = ctx.lines_skipped;
	o->nrec = ctx.records;
	bl_ctx_finish(&ctx, 1);
	bl_ctx_release(&ctx);
	fclose(rf);
	fclose(sf);
	fclose(df);
	free(in);
}

static void free_out(struct pass_out *o)
{
	free(o->records);
	free(o->skips);
	free(o->diag);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	/* Files are read in name order (a, b, c, d). */
	write_text("a.txt", "2.4.7-x\n"
			    "PASS ... 1000000 bytes allocated.\n"
			    "PASS ... 2000000 bytes allocated.\n");
	write_text("b.txt", "2.4.7-x\n"
			    "A line of prose.\n"
			    "PASS ... 3000000 bytes allocated.\n");
	write_text("c.txt", "2.4.8-y\n"
			    "PASS ... 4000000 bytes allocated.\n");
	write_text("d.txt", "2.4.7-x\n"
			    "\n"
			    "PASS ... 5000000 bytes allocated.\n"
			    "PASS ... 6000000 bytes allocated.\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return bl_remove_tree(tmpdir);
}

/* Runs keep counting across files of the same group, in input order. */
static void test_report__runs_continue_across_files(void **state)
{
	(void)state;
	struct pass_out o;
	run_pass(&o);
	/* a: runs 1, 2 of 2.4.7-x; b: its run 1 follows a's highest (2) -> 3;
	 * c: a new group, run 1; d: its runs 1, 2 follow b's 3 -> 4, 5. */
	assert_string_equal(o.records,
			    "a.txt|2.4.7-x|1|mtest01\n"
			    "a.txt|2.4.7-x|2|mtest01\n"
			    "b.txt|2.4.7-x|3|mtest01\n"
			    "c.txt|2.4.8-y|1|mtest01\n"
			    "d.txt|2.4.7-x|4|mtest01\n"
			    "d.txt|2.4.7-x|5|mtest01\n");
	/* Lines: 3 + 3 + 2 + 4 = 12; skipped: b's prose line and d's blank. */
	assert_int_equal(o.lines, 12);
	assert_int_equal(o.skipped, 2);
	assert_int_equal(o.used, 10);
	assert_int_equal(o.nrec, 6);
	assert_int_equal(o.ninputs, 4);
	assert_string_equal(o.skips, "b.txt:2 no format recognised\nd.txt:2 blank line\n");
	free_out(&o);
}

/* A stop request (signal flag) ends the pass with -BL_EINTR. */
static void test_report__stop_flag(void **state)
{
	(void)state;
	struct bl_ctx ctx;
	volatile sig_atomic_t stop = 1;
	struct bl_opts opt;
	bl_opts_init(&opt);
	opt.stop = &stop;
	bl_ctx_init(&ctx, &opt);
	ctx.diag = NULL;
	char *inputs[] = { tmpdir };
	assert_int_equal(bl_pass_run(&ctx, inputs, 1, NULL), -BL_EINTR);
	assert_int_equal(ctx.records, 0);
	bl_ctx_release(&ctx);
}

static bool exists(const char *dir, const char *name)
{
	char *p = bl_xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

static void test_report__outdir_replaces_own_folder_only(void **state)
{
	(void)state;
	char *dir = bl_xasprintf("%s/out", tmpdir);
	struct bl_outdir od;
	const char *why;
	/* New folder. */
	assert_int_equal(bl_outdir_begin(&od, dir, &why), 0);
	char *t = bl_xasprintf("%s/one", od.tmp);
	fclose(fopen(t, "w"));
	free(t);
	assert_int_equal(bl_outdir_commit(&od), 0);
	bl_outdir_release(&od);
	assert_true(exists(dir, "one"));
	assert_true(exists(dir, BL_OUTDIR_MARKER));
	/* Replaced whole: "one" goes, "two" comes. */
	char *slash = bl_xasprintf("%s/", dir);
	assert_int_equal(bl_outdir_begin(&od, slash, &why), 0);
	t = bl_xasprintf("%s/two", od.tmp);
	fclose(fopen(t, "w"));
	free(t);
	assert_int_equal(bl_outdir_commit(&od), 0);
	bl_outdir_release(&od);
	assert_false(exists(dir, "one"));
	assert_true(exists(dir, "two"));
	/* Aborted: the report stays as it was, no temporary folder is left. */
	assert_int_equal(bl_outdir_begin(&od, dir, &why), 0);
	char *tmpcopy = bl_xstrdup(od.tmp);
	bl_outdir_abort(&od);
	struct stat st;
	assert_int_not_equal(stat(tmpcopy, &st), 0);
	free(tmpcopy);
	assert_true(exists(dir, "two"));
	/* A folder benchlog did not make is refused; so is a file. */
	char *other = bl_xasprintf("%s/mine", tmpdir);
	assert_int_equal(mkdir(other, 0755), 0);
	write_text("mine/notes", "keep me\n");
	assert_int_equal(bl_outdir_begin(&od, other, &why), -BL_EUSAGE);
	assert_non_null(why);
	assert_true(exists(other, "notes"));
	write_text("afile", "x\n");
	char *file = bl_xasprintf("%s/afile", tmpdir);
	assert_int_equal(bl_outdir_begin(&od, file, &why), -BL_EUSAGE);
	assert_int_equal(bl_outdir_begin(&od, ".", &why), -BL_EUSAGE);
	free(file);
	unlink(file = bl_xasprintf("%s/afile", tmpdir));
	free(file);
	bl_remove_tree(other);
	bl_remove_tree(dir);
	free(other);
	free(slash);
	free(dir);
}

static char *render(const char *md)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_int_equal(bl_report_html(md, strlen(md), tmpdir, "t <&>", f), 0);
	fclose(f);
	return out;
}

static void test_report__html_embeds_charts(void **state)
{
	(void)state;
	char *plots = bl_xasprintf("%s/plots", tmpdir);
	mkdir(plots, 0755);
	write_text("plots/a.png", "foobar");
	char *html = render("# T\n\n| x | y |\n|---|--:|\n| 1 | 2 |\n\n![chart a](plots/a.png)\n\n"
			    "![chart b](plots/b.png)\n\n<script>alert(1)</script>\n");
	/* RFC 4648: base64("foobar") = "Zm9vYmFy". */
	assert_non_null(strstr(html, "<img src=\"data:image/png;base64,Zm9vYmFy\" alt=\"chart a\""));
	/* A chart that was not rendered is named, with how to render it. */
	assert_null(strstr(html, "plots/b.png"));
	assert_non_null(strstr(html, "chart not rendered (gnuplot was not found): run gnuplot b.gp"));
	/* GFM table, right-aligned column. */
	assert_non_null(strstr(html, "<table>"));
	assert_non_null(strstr(html, "<td align=\"right\">2</td>"));
	/* Raw HTML from the text is not passed through. */
	assert_null(strstr(html, "<script>"));
	assert_non_null(strstr(html, "<title>t &lt;&amp;&gt;</title>"));
	assert_non_null(strstr(html, "Content-Security-Policy"));
	free(html);
	/* Only plots/<safe name>.png is read: no other path. */
	write_text("secret.png", "\x89PNG");
	html = render("![x](plots/../secret.png) ![y](secret.png)\n");
	assert_null(strstr(html, "iVBORw=="));
	free(html);
	bl_remove_tree(plots);
	free(plots);
}

/* escape.h's <details> lines become elements; the same text inside a
 * code block, escaped in a paragraph (E1) or with markup in its summary
 * stays text; an unclosed block is closed at the end. */
static void test_report__html_details(void **state)
{
	(void)state;
	char *md = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&md, &len);
	bl_md_details_open(f, "Per group & load");
	fputs("| a |\n|---|\n| 1 |\n", f);
	bl_md_details_close(f);
	fputs("```\n<details><summary>in code</summary>\n</details>\n```\n\n", f);
	bl_fput_md_inline(f, "<details><summary>input</summary>");
	fputs("\n\n<details><summary><b>x</b></summary>\n\n", f);
	bl_md_details_open(f, "open at the end");
	fputs("text\n", f);
	fclose(f);
	char *html = render(md);
	assert_non_null(strstr(html, "<details>\n<summary>Per group &amp; load</summary>\n<table>"));
	assert_non_null(strstr(html, "</table>\n</details>\n<pre><code>&lt;details&gt;&lt;summary&gt;in code"));
	assert_non_null(strstr(html, "<p>&lt;details&gt;&lt;summary&gt;input&lt;/summary&gt;</p>"));
	assert_null(strstr(html, "<b>x</b>"));
	assert_non_null(strstr(html, "<summary>open at the end</summary>\n<p>text</p>\n</details>\n"));
	size_t opened = 0, closed = 0;
	for (const char *p = html; (p = strstr(p, "<details>")) != NULL; p++)
		opened++;
	for (const char *p = html; (p = strstr(p, "</details>")) != NULL; p++)
		closed++;
	assert_int_equal(opened, 2);
	assert_int_equal(closed, 2);
	free(html);
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report__runs_continue_across_files),
		cmocka_unit_test(test_report__stop_flag),
		cmocka_unit_test(test_report__outdir_replaces_own_folder_only),
		cmocka_unit_test(test_report__html_embeds_charts),
		cmocka_unit_test(test_report__html_details),
	};
	return cmocka_run_group_tests_name("report", tests, setup, teardown);
}

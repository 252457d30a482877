/* test_labels.c — result labels (parsers/labels.c, rules R1-R5). The
 * lines are taken from the linux-block archive (docs/archives.md, "Before
 * and after") and from the traps next to them; whether each is a label,
 * and its name, is worked out by hand from the rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "parsers/labels.h"

/* The label's name, or NULL when s is not a label of the given form. */
static void expect(const char *s, enum bl_rlabel form, const char *name)
{
	size_t off = 99, len = 99;
	enum bl_rlabel r = bl_result_label(s, strlen(s), &off, &len);
	if (r != form)
		fail_msg("\"%s\": form %d, want %d", s, (int)r, (int)form);
	if (!name)
		return;
	if (len != strlen(name) || memcmp(s + off, name, len) != 0)
		fail_msg("\"%s\": name \"%.*s\", want \"%s\"", s, (int)len, s + off, name);
}

/* R4: a colon label starts with a side word, has a patch word or a kernel
 * version; decoration and the final ':' / ':-' are not the name. */
static void test_labels__colon_forms_from_the_archive(void **state)
{
	(void)state;
	expect("before modification:", BL_RLABEL_COLON, "before modification");
	expect("after:", BL_RLABEL_COLON, "after");
	expect("Without changes:", BL_RLABEL_COLON, "Without changes");
	expect("******* Without the patchset:", BL_RLABEL_COLON, "Without the patchset");
	expect("base:", BL_RLABEL_COLON, "base");
	expect("NOK: v6.18-rc3:", BL_RLABEL_COLON, "NOK: v6.18-rc3");
	expect("OK: v6.18-rc3 with 42f22fe36d51 reverted:", BL_RLABEL_COLON,
	       "OK: v6.18-rc3 with 42f22fe36d51 reverted");
	expect("Just adding this patch on the previous:", BL_RLABEL_COLON,
	       "Just adding this patch on the previous");
	expect("With Verify resulting in REQ_OP_VERIFY to null_blk :-", BL_RLABEL_COLON,
	       "With Verify resulting in REQ_OP_VERIFY to null_blk");
	expect("  Old:  ", BL_RLABEL_COLON, "Old");
	expect("by using tst_fill_file:", BL_RLABEL_COLON, "by using tst_fill_file");
}

/* R5: without ':' only a whole side, with/without and a few words, or
 * "(by) using X". */
static void test_labels__bare_forms(void **state)
{
	(void)state;
	expect("base", BL_RLABEL_BARE, "base");
	expect("patched", BL_RLABEL_BARE, "patched");
	expect("vanilla kernel", BL_RLABEL_BARE, "vanilla kernel");
	expect("with 'optimizations'", BL_RLABEL_BARE, "with 'optimizations'");
	expect("Without the patch", BL_RLABEL_BARE, "Without the patch");
	expect("by using tst_prealloc_file", BL_RLABEL_BARE, "by using tst_prealloc_file");
	expect("=== After ===", BL_RLABEL_BARE, "After");
	/* prose, not a side */
	expect("with the patch applied it boots fine", BL_RLABEL_NONE, NULL);
	expect("base kernel tree", BL_RLABEL_NONE, NULL);
	expect("loop", BL_RLABEL_NONE, NULL);
	expect("Before each", BL_RLABEL_NONE, NULL);
}

/* R1-R3: sentences, pronouns, program output and code are never labels. */
static void test_labels__never_prose_or_output(void **state)
{
	(void)state;
	expect("With a small/slow VM I got following values:", BL_RLABEL_NONE, NULL);
	expect("On the physical machine, the measured data is as follows:", BL_RLABEL_NONE, NULL);
	expect("Before each test, I ran it twice.", BL_RLABEL_NONE, NULL);
	expect("poll01.c:69: PASS: poll() POLLIN", BL_RLABEL_NONE, NULL);
	expect("NQN:testnqn disconnected 1 controller(s)", BL_RLABEL_NONE, NULL);
	expect("tst_test.c:1890: TINFO: new kernel:", BL_RLABEL_NONE, NULL);
	expect("Here is the run on the patched kernel:", BL_RLABEL_NONE, NULL);
	expect("Below is a contest benchmark for this patch:", BL_RLABEL_NONE, NULL);
	expect("Thanks,", BL_RLABEL_NONE, NULL);
	expect("With:", BL_RLABEL_COLON, "With");
	expect("Examples include:", BL_RLABEL_NONE, NULL);
	expect("if (old != new) {", BL_RLABEL_NONE, NULL);
	expect("new = old + 1;", BL_RLABEL_NONE, NULL);
	expect(":", BL_RLABEL_NONE, NULL);
	expect("", BL_RLABEL_NONE, NULL);
	expect("with the patchset applied on top of the current mainline tree:", BL_RLABEL_NONE,
	       NULL);
}

/* C1 of analyze/compare.h: which side a group's label names, by its
 * first word; the labels are the archive's (docs/archives.md). */
static void test_labels__side(void **state)
{
	(void)state;
	assert_int_equal(bl_label_side("base"), -1);
	assert_int_equal(bl_label_side("with 'optimizations'"), 1);
	assert_int_equal(bl_label_side("Without the patchset"), -1);
	assert_int_equal(bl_label_side("With the patchset"), 1);
	assert_int_equal(bl_label_side("before modification"), -1);
	assert_int_equal(bl_label_side("after modification"), 1);
	assert_int_equal(bl_label_side("vanilla kernel"), -1);
	assert_int_equal(bl_label_side("patched:"), 1);
	assert_int_equal(bl_label_side("W/O"), -1);
	assert_int_equal(bl_label_side("Default tunables"), -1);
	assert_int_equal(bl_label_side("NOK: v6.18-rc3"), 0);
	assert_int_equal(bl_label_side("Just adding this patch on the previous"), 0);
	assert_int_equal(bl_label_side("basement"), 0);
	assert_int_equal(bl_label_side("2.4.19"), 0);
	assert_int_equal(bl_label_side(""), 0);
	assert_int_equal(bl_label_side(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels__colon_forms_from_the_archive),
		cmocka_unit_test(test_labels__bare_forms),
		cmocka_unit_test(test_labels__never_prose_or_output),
		cmocka_unit_test(test_labels__side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

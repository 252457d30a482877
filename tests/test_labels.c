/* test_labels.c — result labels (parsers/labels.c, rules R1-R6). The
 * lines are taken from the linux-block archive (docs/archives.md, "Before
 * and after") and from the traps next to them; whether each is a label,
 * and its name, is worked out by hand from the rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
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

/* R6: settings a post's results ran with, and never program output. */
static void test_labels__settings(void **state)
{
	(void)state;
	expect("nvme_num_iter=100 nvme_img_size=350M (new defaults)", BL_RLABEL_SETTINGS,
	       "nvme_num_iter=100 nvme_img_size=350M (new defaults)");
	expect("nvme_num_iter=1000 nvme_img_size=1G (previous/ defaults)", BL_RLABEL_SETTINGS,
	       "nvme_num_iter=1000 nvme_img_size=1G (previous/ defaults)");
	expect("  nr_requests=128 scheduler=none:", BL_RLABEL_SETTINGS, "nr_requests=128 scheduler=none");
	expect("bs=4k (a)", BL_RLABEL_SETTINGS, "bs=4k (a)");
	expect("analysis=exit", BL_RLABEL_NONE, NULL);
	expect("LOOP_MNT=\"/mnt/loop0\"", BL_RLABEL_NONE, NULL);
	expect("a=$b c=d", BL_RLABEL_NONE, NULL);
	expect("a=b=c", BL_RLABEL_NONE, NULL);
	expect("bs= 4k", BL_RLABEL_NONE, NULL);
	expect("=5", BL_RLABEL_NONE, NULL);
	expect("5=x", BL_RLABEL_NONE, NULL);
	expect("bs=4k (a) (b)", BL_RLABEL_NONE, NULL);
	expect("bs=4k (a", BL_RLABEL_NONE, NULL);
	expect("a=1 b=2 c=3 d=4 e=5", BL_RLABEL_NONE, NULL);
	expect("  read: IOPS=1234, BW=4.8MiB/s", BL_RLABEL_NONE, NULL);
	/* R2: a lone '/' joins a nested group, it is in no label */
	expect("before / after:", BL_RLABEL_NONE, NULL);
	expect("w/o the patch:", BL_RLABEL_COLON, "w/o the patch");
}

/* bl_label_nested()'s side and key of group as "SIDE|KEY", "" when it
 * is not nested. */
static const char *nest(const char *group)
{
	static char out[128];
	struct bl_nested g;
	if (!bl_label_nested(group, &g))
		return "";
	snprintf(out, sizeof out, "%.*s|%.*s", (int)g.side_len, group + g.side_off, (int)g.key_len,
		 group + g.key_off);
	return out;
}

/* Rules L4c-L4e's groups: "SIDE / KEY", "#N / KEY" and "KEY / SIDE". */
static void test_labels__nested(void **state)
{
	(void)state;
	assert_string_equal(nest("base / loop"), "base|loop");
	assert_string_equal(nest("with 'optimizations' / fc"), "with 'optimizations'|fc");
	assert_string_equal(nest("NOK: v6.18-rc3 / loop"), "NOK: v6.18-rc3|loop");
	assert_string_equal(nest("nvme_num_iter=100 nvme_img_size=350M (new defaults) / tcp"),
			    "nvme_num_iter=100 nvme_img_size=350M (new defaults)|tcp");
	assert_string_equal(nest("Without the patchset / Default tunables"), "Without the patchset|Default tunables");
	assert_string_equal(nest("#2 / tcp"), "#2|tcp");               /* rule L4d */
	assert_string_equal(nest("#12 / loop"), "#12|loop");
	assert_string_equal(nest("loop / before"), "before|loop");     /* rule L4e */
	assert_string_equal(nest("rdma / with the patch"), "with the patch|rdma");
	assert_string_equal(nest("# / tcp"), "");
	assert_string_equal(nest("#2x / tcp"), "");
	assert_string_equal(nest("loop / tcp"), "");                   /* no side */
	assert_string_equal(nest("mm/zswap / zram: fix"), "");         /* a thread */
	assert_string_equal(nest("nvme testsuite / loop"), "");        /* no label */
	assert_string_equal(nest("base / results"), "");               /* no heading */
	assert_string_equal(nest("base / loop / x"), "");
	assert_string_equal(nest("base/loop"), "");
	assert_string_equal(nest("loop"), "");
	assert_string_equal(nest(""), "");
	assert_string_equal(nest(NULL), "");
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
		cmocka_unit_test(test_labels__settings),
		cmocka_unit_test(test_labels__nested),
		cmocka_unit_test(test_labels__side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_store.c — core/store.h: the stores, the string index and the
 * string codec give back what was put, in memory and past BL_STORE_MEM
 * in their temporary files alike. Expected values are those put: a key's
 * number is its place in the order first met, by construction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/store.h"

/* 100,000 keys: their 700,000 bytes and 262,144 buckets go past
 * BL_STORE_MEM, so both stores move to their files part way. */
static void test_store__index_numbers_in_order_and_get_adds_nothing(void **state)
{
	(void)state;
	struct bl_index x = { 0 };
	char key[32];
	size_t id, off, n = 100000;
	bool added;
	assert_int_equal(bl_index_get(&x, "k", 1, &id), 1);   /* empty */
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "k%06zu", i);
		assert_int_equal(bl_index_find(&x, key, strlen(key), &id, &off, &added), 0);
		assert_true(added);
		assert_int_equal(id, i);
	}
	assert_non_null(x.keys.f);
	assert_non_null(x.buckets.f);
	for (size_t i = 0; i < n; i += 997) {
		snprintf(key, sizeof key, "k%06zu", i);
		assert_int_equal(bl_index_find(&x, key, strlen(key), &id, &off, &added), 0);
		assert_false(added);
		assert_int_equal(id, i);
		char got[8];
		assert_int_equal(bl_store_get(&x.keys, off, got, 7), 0);
		assert_memory_equal(got, key, 7);
		id = SIZE_MAX;
		assert_int_equal(bl_index_get(&x, key, strlen(key), &id), 0);
		assert_int_equal(id, i);
	}
	/* unknown: a longer key sharing a known one's start, an empty one */
	assert_int_equal(bl_index_get(&x, "k0000001", 8, &id), 1);
	assert_int_equal(bl_index_get(&x, "", 0, &id), 1);
	assert_int_equal(x.n, n);
	bl_index_release(&x);
}

static void test_store__bytes_past_memory_and_copied_out(void **state)
{
	(void)state;
	struct bl_store t = { 0 };
	size_t far = 3 * BL_STORE_MEM;
	assert_int_equal(bl_store_put(&t, 10, "abc", 3), 0);
	assert_null(t.f);
	assert_int_equal(bl_store_put(&t, far, "xyz", 3), 0);
	assert_non_null(t.f);
	char got[16];
	assert_int_equal(bl_store_get(&t, 8, got, 6), 0);
	assert_memory_equal(got, "\0\0abc\0", 6);   /* unwritten bytes are zeros */
	FILE *out = tmpfile();
	assert_int_equal(bl_store_copy(&t, 9, 5, out), 0);
	assert_int_equal(bl_store_copy(&t, far - 1, 5, out), 0);   /* past the end: zeros */
	rewind(out);
	assert_int_equal(fread(got, 1, sizeof got, out), 10);
	assert_memory_equal(got, "\0abc\0\0xyz\0", 10);
	fclose(out);
	bl_store_release(&t);
}

static void test_store__strings_round_trip_and_short_file_fails(void **state)
{
	(void)state;
	FILE *f = bl_spool_open();
	assert_non_null(f);
	bl_spool_put_str(f, "two words");
	bl_spool_put_str(f, NULL);
	bl_spool_put_str(f, "");
	FILE *out = tmpfile();
	assert_int_equal(bl_spool_copy(f, out), 0);
	/* 3 lengths, 9 bytes of text */
	assert_int_equal(ftell(out), (long)(3 * sizeof(size_t) + 9));
	rewind(f);
	char *s[3];
	for (int k = 0; k < 3; k++)
		assert_int_equal(bl_spool_get_str(f, &s[k]), 0);
	assert_string_equal(s[0], "two words");
	assert_null(s[1]);
	assert_string_equal(s[2], "");
	assert_int_equal(bl_spool_get_str(f, &s[1]), -1);   /* at the end */
	assert_null(s[1]);
	free(s[0]);
	free(s[2]);
	/* a string cut short */
	rewind(out);
	size_t n = 100;
	fwrite(&n, sizeof n, 1, out);
	fwrite("short", 1, 5, out);
	rewind(out);
	assert_int_equal(bl_spool_get_str(out, &s[0]), -1);
	assert_null(s[0]);
	fclose(out);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store__index_numbers_in_order_and_get_adds_nothing),
		cmocka_unit_test(test_store__bytes_past_memory_and_copied_out),
		cmocka_unit_test(test_store__strings_round_trip_and_short_file_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

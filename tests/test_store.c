/* test_store.c — core/store.h: the stores, the string index and the
 * string codec give back what was put, in memory and past BL_STORE_MEM
 * in their temporary files alike. Expected values are those put: a key's
 * number is its place in the order first met, by construction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
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

/* Records appended and read back from where each starts, in any order,
 * strings among them; a read cut short is kept as a failure. */
static void test_store__spool_records_and_strings_round_trip(void **state)
{
	(void)state;
	struct bl_spool sp = { 0 };
	FILE *out = tmpfile();
	assert_int_equal(bl_spool_copy(&sp, out), 0);   /* nothing appended: nothing */
	assert_null(bl_spool_read(&sp, 0));
	assert_int_equal(sp.err, 0);
	long long off[3];
	const char *text[3] = { "two words", NULL, "" };
	for (int k = 0; k < 3; k++) {
		FILE *f = bl_spool_append(&sp, &off[k]);
		assert_non_null(f);
		fputc('a' + k, f);
		bl_spool_put_str(f, text[k]);
		assert_int_equal(bl_spool_check(&sp, true), 0);
	}
	/* 'a' + length + 9 bytes, 'b' + length, 'c' + length */
	assert_int_equal(off[1], (long long)(1 + sizeof(size_t) + 9));
	assert_int_equal(off[2], off[1] + (long long)(1 + sizeof(size_t)));
	assert_int_equal(bl_spool_copy(&sp, out), 0);
	assert_int_equal(ftell(out), off[2] + (long long)(1 + sizeof(size_t)));
	for (int k = 2; k >= 0; k--) {
		FILE *f = bl_spool_read(&sp, off[k]);
		char *s;
		assert_int_equal(fgetc(f), 'a' + k);
		assert_int_equal(bl_spool_get_str(f, &s), 0);
		if (text[k])
			assert_string_equal(s, text[k]);
		else
			assert_null(s);
		free(s);
	}
	/* an array after the last record; none is nothing */
	long long at;
	const double x[3] = { 1.5, -2, 1e300 };
	bl_spool_put_arr(bl_spool_append(&sp, &at), x, 3, sizeof *x);
	bl_spool_put_arr(bl_spool_append(&sp, NULL), NULL, 0, sizeof *x);
	double *y, z = 0, *none = &z;
	assert_int_equal(bl_spool_get_arr(bl_spool_read(&sp, at), &y, 3, sizeof *y), 0);
	assert_memory_equal(y, x, sizeof x);
	free(y);
	assert_int_equal(bl_spool_get_arr(bl_spool_read(&sp, at + 3 * sizeof *x), &none, 0, sizeof *x), 0);
	assert_null(none);
	assert_int_equal(bl_spool_get_arr(bl_spool_read(&sp, at + 8), &y, 3, sizeof *y), -1);   /* ends short */
	free(y);   /* still the caller's */
	assert_int_equal(bl_spool_check(&sp, true), 0);   /* a short read is not a failure of the file */
	char *s;
	assert_int_equal(bl_spool_get_str(bl_spool_read(&sp, off[2] + 1), &s), 0);   /* again */
	assert_string_equal(s, "");
	free(s);
	assert_int_equal(bl_spool_get_str(bl_spool_read(&sp, at + 20), &s), -1);   /* a length cut short */
	assert_null(s);
	assert_int_equal(bl_spool_check(&sp, false), -1);
	assert_int_equal(errno, EIO);
	assert_null(bl_spool_append(&sp, NULL));   /* kept */
	assert_int_equal(bl_spool_copy(&sp, out), -1);
	bl_spool_release(&sp);
	/* a string cut short */
	rewind(out);
	size_t n = 100;
	fwrite(&n, sizeof n, 1, out);
	fwrite("short", 1, 5, out);
	rewind(out);
	assert_int_equal(bl_spool_get_str(out, &s), -1);
	assert_null(s);
	fclose(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store__index_numbers_in_order_and_get_adds_nothing),
		cmocka_unit_test(test_store__bytes_past_memory_and_copied_out),
		cmocka_unit_test(test_store__spool_records_and_strings_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

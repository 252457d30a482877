/* test_reader_gz.c — a big .gz (several MB, read in chunks of odd sizes):
 * the bytes, the end, a truncation, trailing garbage and an early close.
 * The expected bytes are the
 * generated text itself (compressed here with zlib), the expected messages
 * the reader's documented wording (reader.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "input/reader.h"
#include "core/util.h"
#include "tests/test_rng.h"

/* About 6 MB of vmstat-like text that compresses to over 2 MB (over the
 * thread's 1 MiB threshold). */
static char *make_text(size_t *len)
{
	size_t cap = 6u << 20, n = 0;
	char *t = bl_xmalloc(cap);
	uint64_t seed = 88172645463325252ull;
	while (n + 128 < cap) {
		uint64_t x = test_xorshift64(&seed);
		n += (size_t)snprintf(t + n, cap - n, "%2u %2u %6u %6u %5u %5u %3u %3u %3u\n",
				      (unsigned)(x % 5), (unsigned)(x >> 8) % 3, (unsigned)(x >> 12) % 900000,
				      (unsigned)(x >> 24) % 460000, (unsigned)(x >> 40) % 30000,
				      (unsigned)(x >> 44) % 24000, (unsigned)(x >> 50) % 60,
				      (unsigned)(x >> 54) % 40, (unsigned)(x >> 58) % 100);
	}
	*len = n;
	return t;
}

static char *write_gz(const char *text, size_t len, const char *extra, size_t extralen, size_t cut)
{
	char *path = bl_xasprintf("/tmp/benchlog-test-gz-%ld.gz", (long)getpid());
	gzFile g = gzopen(path, "wb1");
	assert_non_null(g);
	assert_int_equal(gzwrite(g, text, (unsigned)len), (int)len);
	assert_int_equal(gzclose(g), Z_OK);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	if (cut) {
		assert_int_equal(ftruncate(fileno(f), (off_t)cut), 0);
	} else if (extralen) {
		fseek(f, 0, SEEK_END);
		fwrite(extra, 1, extralen, f);
	}
	fclose(f);
	return path;
}

/* Read everything in chunks of odd sizes; returns the last result (0 at
 * the end or a negative bl_err) and the bytes in *out. */
static ssize_t read_all(struct bl_src *s, struct bl_buf *out)
{
	char buf[70001];
	size_t sizes[] = { 1, 4096, 70001, 333, 65536 };
	for (size_t i = 0;; i++) {
		ssize_t r = bl_src_read(s, buf, sizes[i % 5]);
		if (r <= 0)
			return r;
		bl_buf_add(out, buf, (size_t)r);
	}
}

static void test_reader_gz__big_file_same_bytes(void **state)
{
	(void)state;
	size_t len;
	char *text = make_text(&len);
	char *path = write_gz(text, len, NULL, 0, 0);
	struct bl_src *s;
	assert_int_equal(bl_src_open(path, NULL, &s), 0);
	const char *pk;
	size_t pl;
	assert_int_equal(bl_src_peek(s, &pk, &pl), 0);
	assert_int_equal(pl, BL_SNIFF_MAX);
	struct bl_buf out = BL_BUF_INIT(0);
	char first[BL_SNIFF_MAX + 1];
	size_t got = 0;
	while (got < sizeof first) {     /* past the peeked bytes */
		ssize_t r = bl_src_read(s, first + got, sizeof first - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
	bl_buf_add(&out, first, got);
	assert_int_equal(read_all(s, &out), 0);
	assert_int_equal(bl_src_read(s, (char[8]){0}, 8), 0);   /* the end stays the end */
	assert_int_equal(out.len, len);
	assert_memory_equal(out.data, text, len);
	assert_null(bl_src_warning(s));
	assert_string_equal(bl_src_error(s), "");
	bl_src_close(s);
	bl_buf_release(&out);
	unlink(path);
	free(path);
	free(text);
}

static void test_reader_gz__truncated_big_file_keeps_prefix(void **state)
{
	(void)state;
	size_t len;
	char *text = make_text(&len);
	char *path = write_gz(text, len, NULL, 0, 1536u << 10);
	struct bl_src *s;
	assert_int_equal(bl_src_open(path, NULL, &s), 0);
	struct bl_buf out = BL_BUF_INIT(0);
	assert_int_equal(read_all(s, &out), -BL_ECORRUPT);
	assert_true(out.len > (1536u << 10) && out.len < len);
	assert_memory_equal(out.data, text, out.len);
	assert_string_equal(bl_src_error(s),
			    "truncated gzip data at offset 1572864 (member started at offset 0)");
	bl_src_close(s);
	bl_buf_release(&out);
	unlink(path);
	free(path);
	free(text);
}

static void test_reader_gz__trailing_garbage_warning(void **state)
{
	(void)state;
	size_t len;
	char *text = make_text(&len);
	char *path = write_gz(text, len, "JUNK", 4, 0);
	struct bl_src *s;
	assert_int_equal(bl_src_open(path, NULL, &s), 0);
	struct bl_buf out = BL_BUF_INIT(0);
	assert_int_equal(read_all(s, &out), 0);
	assert_int_equal(out.len, len);
	assert_non_null(bl_src_warning(s));
	assert_non_null(strstr(bl_src_warning(s), "trailing garbage after gzip member ending at offset"));
	bl_src_close(s);
	bl_buf_release(&out);
	unlink(path);
	free(path);
	free(text);
}

static void test_reader_gz__close_before_the_end(void **state)
{
	(void)state;
	size_t len;
	char *text = make_text(&len);
	char *path = write_gz(text, len, NULL, 0, 0);
	struct bl_src *s;
	assert_int_equal(bl_src_open(path, NULL, &s), 0);
	char buf[BL_SNIFF_MAX + 100];
	size_t got = 0;
	while (got < sizeof buf) {
		ssize_t r = bl_src_read(s, buf + got, sizeof buf - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
	assert_memory_equal(buf, text, sizeof buf);
	bl_src_close(s);
	unlink(path);
	free(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_gz__big_file_same_bytes),
		cmocka_unit_test(test_reader_gz__truncated_big_file_keeps_prefix),
		cmocka_unit_test(test_reader_gz__trailing_garbage_warning),
		cmocka_unit_test(test_reader_gz__close_before_the_end),
	};
	return cmocka_run_group_tests_name("reader_gz", tests, NULL, NULL);
}

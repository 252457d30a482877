/* test_reader.c — the reader: line splitting in every chunk size, line
 * ends, over-long lines, gzip (members, truncation, trailing garbage),
 * folders in sorted order. Expected values are written out by hand, or
 * (random input) come from a byte-by-byte split in the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "input/reader.h"
#include "core/util.h"
#include "tests/test_rng.h"

struct collect {
	struct bl_buf out;      /* "lineno:text|" for each line */
	unsigned long too_long;
};

static int col_line(void *ud, const char *p, size_t len, unsigned long lineno)
{
	struct collect *c = ud;
	bl_buf_addf(&c->out, "%lu:", lineno);
	bl_buf_add(&c->out, p, len);
	bl_buf_addc(&c->out, '|');
	return 0;
}

static void col_too_long(void *ud, unsigned long lineno)
{
	struct collect *c = ud;
	c->too_long++;
	bl_buf_addf(&c->out, "%lu:<too long>|", lineno);
}

static char *split(const char *in, size_t len, size_t chunk, unsigned long *too_long)
{
	struct collect c = { BL_BUF_INIT(0), 0 };
	struct bl_linesplit ls;
	bl_linesplit_init(&ls);
	ls.line = col_line;
	ls.too_long = col_too_long;
	ls.ud = &c;
	for (size_t i = 0; i < len; i += chunk)
		assert_int_equal(bl_linesplit_feed(&ls, in + i, len - i < chunk ? len - i : chunk), 0);
	assert_int_equal(bl_linesplit_end(&ls), 0);
	bl_linesplit_release(&ls);
	if (too_long)
		*too_long = c.too_long;
	char *r = c.out.data ? c.out.data : bl_xstrdup("");
	return r;
}

/* Mixed line ends: LF, CR LF, lone CR, a blank line, no final line end. */
static void test_reader__every_chunk_size_same_lines(void **state)
{
	(void)state;
	const char in[] = "alpha\nbeta\r\ngamma\rdelta\n\nlast";
	const char want[] = "1:alpha|2:beta|3:gamma|4:delta|5:|6:last|";
	size_t len = sizeof in - 1;
	for (size_t chunk = 1; chunk <= len; chunk++) {
		char *got = split(in, len, chunk, NULL);
		assert_string_equal(got, want);
		free(got);
	}
}

static void test_reader__crlf_split_across_chunks_is_one_line_end(void **state)
{
	(void)state;
	const char in[] = "a\r\nb\r\n";
	char *got = split(in, 2, 2, NULL); /* only "a\r": then feed the rest */
	free(got);
	for (size_t chunk = 1; chunk <= 6; chunk++) {
		got = split(in, 6, chunk, NULL);
		assert_string_equal(got, "1:a|2:b|");
		free(got);
	}
}

static void test_reader__over_long_line_reported_not_split(void **state)
{
	(void)state;
	size_t big = BL_LINE_MAX + 10;
	char *in = bl_xmalloc(big + 20);
	memcpy(in, "ok\n", 3);
	memset(in + 3, 'x', big);
	memcpy(in + 3 + big, "\nafter\n", 7);
	size_t len = 3 + big + 7;
	size_t chunks[] = { 1000, 65536, len };
	for (size_t k = 0; k < 3; k++) {
		unsigned long tl;
		char *got = split(in, len, chunks[k], &tl);
		assert_string_equal(got, "1:ok|2:<too long>|3:after|");
		assert_int_equal(tl, 1);
		free(got);
	}
	free(in);
}

/* Random text of letters, blanks, line ends, NULs and ESCs, fed in
 * several chunk sizes: the lines are those a byte-by-byte split finds
 * (LF, CR LF, lone CR), and a line said to be clean holds no NUL and no
 * ESC, wherever they fall. */

struct rl_ctx {
	struct bl_linesplit ls;
	size_t n;                    /* lines seen */
	const char *ref;             /* the input: the reference lines are in it */
	const size_t *ref_at, *ref_len;
};

static int rl_check(void *ud, const char *p, size_t len, unsigned long lineno)
{
	struct rl_ctx *c = ud;
	size_t k = lineno - 1;
	if (k >= c->n + 1)
		fail_msg("line %lu after %zu lines", lineno, c->n);
	if (len != c->ref_len[k] || memcmp(p, c->ref + c->ref_at[k], len) != 0)
		fail_msg("line %lu: %zu bytes, want %zu", lineno, len, c->ref_len[k]);
	if (c->ls.clean && (memchr(p, '\0', len) || memchr(p, '\x1b', len)))
		fail_msg("line %lu said clean, holds a NUL or an ESC", lineno);
	c->n++;
	return 0;
}

static void test_reader__random_bytes_same_lines_and_clean_flags(void **state)
{
	(void)state;
	static const char alphabet[] = "abc  \t\n\r\0\x1b";
	size_t len = 20000;
	char *in = bl_xmalloc(len);
	static size_t ref_at[20001], ref_len[20001];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 20; round++) {
		/* line ends rarer in some rounds (long lines, whole blocks
		 * without one), NUL and ESC rare in all */
		unsigned every = round % 2 ? 8 : 200;
		for (size_t i = 0; i < len; i++) {
			uint64_t x = test_xorshift64(&seed);
			if (x % every == 0)
				in[i] = x / every % 3 == 0 ? '\r' : '\n';
			else if (x % 97 == 1)
				in[i] = x / 97 % 2 ? '\0' : '\x1b';
			else
				in[i] = alphabet[x / 256 % 6];
		}
		/* the reference: byte by byte */
		size_t nref = 0, start = 0;
		for (size_t i = 0; i < len; i++) {
			if (in[i] != '\n' && in[i] != '\r')
				continue;
			ref_at[nref] = start;
			ref_len[nref++] = i - start;
			if (in[i] == '\r' && i + 1 < len && in[i + 1] == '\n')
				i++;
			start = i + 1;
		}
		if (start < len) {
			ref_at[nref] = start;
			ref_len[nref++] = len - start;
		}
		size_t chunks[] = { 1, 63, 64, 1000, 4096, len };
		for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
			struct rl_ctx c = { .ref = in, .ref_at = ref_at, .ref_len = ref_len };
			bl_linesplit_init(&c.ls);
			c.ls.line = rl_check;
			c.ls.ud = &c;
			for (size_t i = 0; i < len; i += chunks[k])
				assert_int_equal(bl_linesplit_feed(&c.ls, in + i,
								   len - i < chunks[k] ? len - i
										       : chunks[k]),
						 0);
			assert_int_equal(bl_linesplit_end(&c.ls), 0);
			bl_linesplit_release(&c.ls);
			assert_int_equal(c.n, nref);
		}
	}
	free(in);
}

static char *tmpfile_with(const void *data, size_t len)
{
	char *path = bl_xstrdup("/tmp/bl-test-reader-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static size_t gz(const char *text, unsigned char *out, size_t outsz)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)text;
	zs.avail_in = (uInt)strlen(text);
	zs.next_out = out;
	zs.avail_out = (uInt)outsz;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	size_t n = outsz - zs.avail_out;
	deflateEnd(&zs);
	return n;
}

static char *read_all(const char *path, int *rc_out)
{
	struct bl_src *s;
	assert_int_equal(bl_src_open(path, NULL, &s), 0);
	struct bl_buf b = BL_BUF_INIT(0);
	char buf[7]; /* small reads on purpose */
	ssize_t n;
	while ((n = bl_src_read(s, buf, sizeof buf)) > 0)
		bl_buf_add(&b, buf, (size_t)n);
	*rc_out = (int)n;
	if (bl_src_warning(s))
		bl_buf_addf(&b, "[warning]");
	bl_src_close(s);
	return b.data ? b.data : bl_xstrdup("");
}

static void test_reader__gzip_concatenated_members(void **state)
{
	(void)state;
	unsigned char buf[512];
	size_t a = gz("first\n", buf, sizeof buf);
	size_t b = gz("second\n", buf + a, sizeof buf - a);
	char *path = tmpfile_with(buf, a + b);
	int rc;
	char *got = read_all(path, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "first\nsecond\n");
	free(got);
	unlink(path);
	free(path);
}

static void test_reader__gzip_truncated_keeps_what_was_read(void **state)
{
	(void)state;
	unsigned char buf[512];
	size_t a = gz("first\n", buf, sizeof buf);
	size_t b = gz("second line that will be cut\n", buf + a, sizeof buf - a);
	char *path = tmpfile_with(buf, a + b - 12);
	int rc;
	char *got = read_all(path, &rc);
	assert_int_equal(rc, -BL_ECORRUPT);
	assert_true(strncmp(got, "first\n", 6) == 0);
	free(got);
	struct bl_src *s;
	assert_int_equal(bl_src_open(path, NULL, &s), 0);
	char tmp[4096];
	while (bl_src_read(s, tmp, sizeof tmp) > 0)
		;
	assert_non_null(strstr(bl_src_error(s), "truncated gzip data at offset"));
	bl_src_close(s);
	unlink(path);
	free(path);
}

static void test_reader__gzip_trailing_garbage_is_a_warning(void **state)
{
	(void)state;
	unsigned char buf[512];
	size_t a = gz("data\n", buf, sizeof buf);
	memcpy(buf + a, "JUNK", 4);
	char *path = tmpfile_with(buf, a + 4);
	int rc;
	char *got = read_all(path, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "data\n[warning]");
	free(got);
	unlink(path);
	free(path);
}

static void test_reader__plain_file_passes_through(void **state)
{
	(void)state;
	char *path = tmpfile_with("\x1f not gzip\n", 11);
	int rc;
	char *got = read_all(path, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "\x1f not gzip\n");
	free(got);
	unlink(path);
	free(path);
}

static void test_reader__folders_sorted_and_loops_reported(void **state)
{
	(void)state;
	char dir[] = "/tmp/bl-test-dir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *p;
	const char *names[] = { "b.log", "a.log", "sub/c.log", "sub/A.log" };
	p = bl_xasprintf("%s/sub", dir);
	mkdir(p, 0777);
	free(p);
	for (size_t i = 0; i < 4; i++) {
		p = bl_xasprintf("%s/%s", dir, names[i]);
		FILE *f = fopen(p, "w");
		fputs("x\n", f);
		fclose(f);
		free(p);
	}
	p = bl_xasprintf("%s/sub/loop", dir);
	assert_int_equal(symlink(dir, p), 0);
	free(p);
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, NULL);
	ctx.diag = NULL;
	struct bl_paths paths = {0};
	char *in[] = { dir };
	assert_int_equal(bl_paths_expand(&ctx, in, 1, &paths), 0);
	assert_int_equal(paths.n, 4);
	/* byte order: uppercase before lowercase; folders in place */
	const char *want[] = { "a.log", "b.log", "sub/A.log", "sub/c.log" };
	for (size_t i = 0; i < 4; i++) {
		p = bl_xasprintf("%s/%s", dir, want[i]);
		assert_string_equal(bl_paths_next(&paths, NULL), p);
		free(p);
	}
	assert_null(bl_paths_next(&paths, NULL));
	assert_int_equal(bl_warn_total(&ctx), 1); /* the loop */
	bl_paths_release(&paths);
	bl_ctx_release(&ctx);
	p = bl_xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	free(p);
}

/* A list of paths past what the store keeps in memory (BL_STORE_MEM,
 * 256 KiB: 20,000 paths of 30 bytes and their 16-byte heads are 920,000
 * bytes) comes back whole and in order, with each size, from its
 * temporary file; read twice (rewound). */
static void test_reader__paths_past_memory(void **state)
{
	(void)state;
	struct bl_paths paths = {0};
	char want[64];
	for (long long i = 0; i < 20000; i++) {
		snprintf(want, sizeof want, "folder/sub/file-%08lld.log", i);
		assert_int_equal(bl_paths_add(&paths, want, 3 * i), 0);
	}
	assert_non_null(paths.st.f);
	for (int pass = 0; pass < 2; pass++) {
		long long i = 0, size;
		const char *p;
		while ((p = bl_paths_next(&paths, &size)) != NULL) {
			snprintf(want, sizeof want, "folder/sub/file-%08lld.log", i);
			assert_string_equal(p, want);
			assert_int_equal(size, 3 * i);
			i++;
		}
		assert_int_equal(i, 20000);
		assert_int_equal(paths.err, 0);
		bl_paths_rewind(&paths);
	}
	bl_paths_release(&paths);
}

/* Each path's size as the expansion saw it: a walked file's from its
 * folder (fstatat), a named file's, -1 for stdin; a fifo in a folder is
 * left out and a dangling link reported, as before. */
static void test_reader__expand_gives_sizes(void **state)
{
	(void)state;
	char dir[] = "/tmp/bl-test-dir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *p = bl_xasprintf("%s/sub", dir);
	assert_int_equal(mkdir(p, 0777), 0);
	free(p);
	const char *names[] = { "a.log", "sub/b.log", "sub/c.log" };
	const char *text[] = { "12345", "", "line\nline\n" };
	for (size_t i = 0; i < 3; i++) {
		p = bl_xasprintf("%s/%s", dir, names[i]);
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fputs(text[i], f);
		fclose(f);
		free(p);
	}
	p = bl_xasprintf("%s/sub/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);
	p = bl_xasprintf("%s/sub/dangling", dir);
	assert_int_equal(symlink("/nonexistent/benchlog-test", p), 0);
	free(p);
	char *named = bl_xasprintf("%s/sub/c.log", dir);
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, NULL);
	ctx.diag = NULL;
	struct bl_paths paths = {0};
	char *in[] = { dir, named, (char *)"-" };
	assert_int_equal(bl_paths_expand(&ctx, in, 3, &paths), 0);
	assert_int_equal(paths.n, 5);
	const long long want[] = { 5, 0, 10, 10, -1 };
	const char *wpath[] = { "a.log", "sub/b.log", "sub/c.log", "sub/c.log", NULL };
	for (size_t i = 0; i < 5; i++) {
		long long size = -2;
		p = wpath[i] ? bl_xasprintf("%s/%s", dir, wpath[i]) : bl_xstrdup("-");
		assert_string_equal(bl_paths_next(&paths, &size), p);
		assert_int_equal(size, want[i]);
		free(p);
	}
	assert_int_equal(ctx.input_errors, 1);   /* the dangling link */
	free(named);
	bl_paths_release(&paths);
	bl_ctx_release(&ctx);
	p = bl_xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader__every_chunk_size_same_lines),
		cmocka_unit_test(test_reader__crlf_split_across_chunks_is_one_line_end),
		cmocka_unit_test(test_reader__over_long_line_reported_not_split),
		cmocka_unit_test(test_reader__random_bytes_same_lines_and_clean_flags),
		cmocka_unit_test(test_reader__gzip_concatenated_members),
		cmocka_unit_test(test_reader__gzip_truncated_keeps_what_was_read),
		cmocka_unit_test(test_reader__gzip_trailing_garbage_is_a_warning),
		cmocka_unit_test(test_reader__plain_file_passes_through),
		cmocka_unit_test(test_reader__folders_sorted_and_loops_reported),
		cmocka_unit_test(test_reader__expand_gives_sizes),
		cmocka_unit_test(test_reader__paths_past_memory),
	};
	return cmocka_run_group_tests_name("reader", tests, NULL, NULL);
}

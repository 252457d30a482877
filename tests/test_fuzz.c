/* test_fuzz.c — replays, as a normal test under `make check` (and under
 * ASan+UBSan with SANITIZE=address,undefined), what the fuzz harnesses in
 * tests/fuzz/ check:
 *   - every file in tests/fuzz/regress/<harness>/ (each crash or broken
 *     invariant libFuzzer ever found, kept as a regression) through its
 *     harness, and the command lines of tests/fuzz/seeds/argv/ (the
 *     option-error paths) through the argv harness;
 *   - every file under fixtures/ through the reader harness (two option
 *     sets: whole buffer; one byte at a time with --strict, --group-regex
 *     and mail provenance), through the gzip harness (compressed by zlib and
 *     read back: must be byte-identical, no error), through the mail
 *     harness, as a page through the HTML one and, as a CSV table, through
 *     the stats harness (statistics written as partials and read back:
 *     same n, min, max).
 * A harness aborts on a broken invariant (tests/fuzz/fuzz.h); the file
 * being replayed is named on stderr when that happens.
 * The files are found relative to the top of the source tree: the current
 * folder (make runs the tests there) or $BENCHLOG_TOP.
 */
#define BL_FUZZ_NO_ENTRY 1
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include "tests/fuzz/fuzz_reader.c"
#include "tests/fuzz/fuzz_gzip.c"
#include "tests/fuzz/fuzz_mail.c"
#include "tests/fuzz/fuzz_csv.c"
#include "tests/fuzz/fuzz_escape.c"
#include "tests/fuzz/fuzz_argv.c"
#include "tests/fuzz/fuzz_html.c"

static const char *current_file = "";

static void on_abort(int sig)
{
	static const char pre[] = "\ntest_fuzz: while replaying ";
	ssize_t w = write(2, pre, sizeof pre - 1);
	w = write(2, current_file, strlen(current_file));
	w = write(2, "\n", 1);
	(void)w;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Called by AddressSanitizer before it reports (weak hook; unused without). */
void __asan_on_error(void);
void __asan_on_error(void)
{
	fprintf(stderr, "test_fuzz: while replaying %s\n", current_file);
}

static char *top_path(const char *rel)
{
	const char *top = getenv("BENCHLOG_TOP");
	return bl_xasprintf("%s/%s", top && *top ? top : ".", rel);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	struct bl_buf b = BL_BUF_INIT(0);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		bl_buf_add(&b, buf, n);
	fclose(f);
	*len = b.len;
	if (!b.data)
		return bl_xcalloc(1, 1);
	return (uint8_t *)b.data;
}

typedef void (*replay_fn)(const char *path, const uint8_t *data, size_t len);

/* Every regular file under dir (recursively, sorted), README* and dot
 * files left out. Returns the count. */
static size_t each_file(const char *dir, replay_fn fn)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	size_t count = 0;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		if (nm[0] == '.' || strncmp(nm, "README", 6) == 0) {
			free(names[i]);
			continue;
		}
		char *p = bl_xasprintf("%s/%s", dir, nm);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			count += each_file(p, fn);
		} else if (S_ISREG(st.st_mode)) {
			size_t len;
			uint8_t *d = slurp(p, &len);
			current_file = p;
			fn(p, d, len);
			current_file = "";
			free(d);
			count++;
		}
		free(p);
		free(names[i]);
	}
	free(names);
	return count;
}

static void replay_reader(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	assert_int_equal(bl_fuzz_reader(d, len), 0);
}
static void replay_gzip(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	assert_int_equal(bl_fuzz_gzip(d, len), 0);
}
static void replay_mail(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	assert_int_equal(bl_fuzz_mail(d, len), 0);
}
static void replay_csv(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	assert_int_equal(bl_fuzz_csv(d, len), 0);
}

static void replay_escape(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	assert_int_equal(bl_fuzz_escape(d, len), 0);
}

static void replay_argv(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	assert_int_equal(bl_fuzz_argv(d, len), 0);
}

static void test_fuzz__regressions_replay(void **state)
{
	(void)state;
	static const struct { const char *dir; replay_fn fn; } h[] = {
		{ "tests/fuzz/regress/reader", replay_reader },
		{ "tests/fuzz/regress/gzip", replay_gzip },
		{ "tests/fuzz/regress/mail", replay_mail },
		{ "tests/fuzz/regress/csv", replay_csv },
		{ "tests/fuzz/seeds/csv", replay_csv },
		{ "tests/fuzz/regress/escape", replay_escape },
		{ "tests/fuzz/seeds/gzip", replay_gzip },
		{ "tests/fuzz/regress/argv", replay_argv },
		{ "tests/fuzz/seeds/argv", replay_argv },
	};
	char *top = top_path("tests/fuzz/regress");
	struct stat st;
	/* The folder is part of the tree: a missing one means a wrong top. */
	assert_int_equal(stat(top, &st), 0);
	free(top);
	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
		char *dir = top_path(h[i].dir);
		size_t n = each_file(dir, h[i].fn);
		fprintf(stderr, "test_fuzz: %zu inputs replayed from %s\n", n, h[i].dir);
		free(dir);
	}
}

/* A fixture with a configuration byte in front. */
static void with_cfg(int (*fn)(const uint8_t *, size_t), uint8_t cfg, const uint8_t *d, size_t len)
{
	struct bl_buf b = BL_BUF_INIT(0);
	bl_buf_addc(&b, (char)cfg);
	bl_buf_add(&b, d, len);
	assert_int_equal(fn((const uint8_t *)b.data, b.len), 0);
	bl_buf_release(&b);
}

static void fixture_all(const char *path, const uint8_t *d, size_t len)
{
	(void)path;
	with_cfg(bl_fuzz_reader, 0xC0, d, len);   /* whole buffer, defaults */
	with_cfg(bl_fuzz_reader, 0x07, d, len);   /* 1-byte chunks, strict, regex, mail */
	with_cfg(bl_fuzz_gzip, 0x01, d, len);     /* zlib round trip, one member */
	with_cfg(bl_fuzz_gzip, 0x03, d, len);     /* two members */
	with_cfg(bl_fuzz_gzip, 0x00, d, len);     /* as a file, through bl_read_input */
	with_cfg(bl_fuzz_mail, 0x00, d, len);
	with_cfg(bl_fuzz_csv, 0x00, d, len);      /* as a CSV table (the expected .csv files are) */
	with_cfg(bl_fuzz_escape, 0x03, d, len);   /* every escape, keep_lf */
	with_cfg(bl_fuzz_html, 0x02, d, len);     /* as a page, its own charset */
}

static void test_fuzz__fixtures_through_every_harness(void **state)
{
	(void)state;
	char *dir = top_path("fixtures");
	size_t n = each_file(dir, fixture_all);
	free(dir);
	/* fixtures/ holds dozens of files; none found means a wrong top. */
	assert_true(n >= 10);
	fprintf(stderr, "test_fuzz: %zu fixtures through every harness\n", n);
}

int main(void)
{
	signal(SIGABRT, on_abort);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz__regressions_replay),
		cmocka_unit_test(test_fuzz__fixtures_through_every_harness),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* fuzz.h — the fuzz harnesses' entry points and what they share.
 *
 * Each tests/fuzz/fuzz_<name>.c defines `int bl_fuzz_<name>(const uint8_t
 * *data, size_t size)` and, unless BL_FUZZ_NO_ENTRY is defined, libFuzzer's
 * LLVMFuzzerTestOneInput() calling it. scripts/fuzz builds each file with
 * clang -fsanitize=fuzzer,address,undefined; tests/test_fuzz.c includes
 * them all with BL_FUZZ_NO_ENTRY and replays every file in tests/fuzz/regress/<name>/
 * (every crash ever found) and the fixtures through them under `make check`.
 *
 * A harness returns 0; a broken invariant is an abort() (with a message on
 * stderr) so both libFuzzer and the replay test see it:
 *   - every input line is counted once, as used or skipped
 *     (lines_total == lines_used + lines_skipped);
 *   - a number written to a table is never NaN (unknown values are empty
 *     fields) and infinite only in a column whose documentation says it
 *     can be ("inf where ConTest printed inf");
 *   - for gzip, what the reader returns is exactly what was compressed, and
 *     truncation / trailing garbage are reported, never silent.
 */
#ifndef BL_FUZZ_H
#define BL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include "core/ctx.h"

int bl_fuzz_reader(const uint8_t *data, size_t size);
int bl_fuzz_gzip(const uint8_t *data, size_t size);
int bl_fuzz_mail(const uint8_t *data, size_t size);
int bl_fuzz_csv(const uint8_t *data, size_t size);
int bl_fuzz_escape(const uint8_t *data, size_t size);
int bl_fuzz_argv(const uint8_t *data, size_t size);
int bl_fuzz_html(const uint8_t *data, size_t size);

/* Shared by the harnesses (tests/fuzz/common.h, included once per harness). */
struct fz_pass {
	struct bl_ctx ctx;
	void **an_state;       /* one per analysis in bl_analyses */
	size_t nan;
};
#endif

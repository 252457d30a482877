/* re.h — PCRE2 wrapper: compile once (JIT where available), match with an
 * explicit length, keep NOMATCH apart from errors, name the pattern's origin
 * in compile errors. Regexes recognise the rare lines (headers, labels,
 * prose); numeric rows go through plain scanners.
 *
 * A struct bl_re owns its compiled code and match data; the code is
 * JIT-compiled at its first match (most of the 40-odd patterns of the
 * parsers never meet a line they could match). A struct bl_re is not
 * shared between threads (each parse pass makes its own).
 */
#ifndef BL_RE_H
#define BL_RE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bl_re {
	void *code;        /* pcre2_code_8 * */
	void *md;          /* pcre2_match_data_8 * */
	const char *origin;/* where the pattern comes from, for messages */
	bool jit;          /* JIT compilation was tried (at the first match) */
};

#define BL_RE_CASELESS 1u
/* Match bytes, not UTF-8 characters: '.' and classes take any byte, so a
 * line that is not valid UTF-8 matches as far as its bytes do (the
 * default, UTF-8 mode, lets an invalid byte match nothing). */
#define BL_RE_BYTES 2u

/* Compile pattern. Returns 0, or -BL_EFORMAT with *err (caller frees) set to
 * "<origin>: <pcre2 message> at offset N". */
int bl_re_compile(struct bl_re *re, const char *pattern, unsigned flags, const char *origin, char **err);
/* 1 = match, 0 = no match, negative bl_err on a matching error. */
int bl_re_match(struct bl_re *re, const char *s, size_t len);
/* Capture group i of the last successful match: false when unset. */
bool bl_re_group(const struct bl_re *re, int i, size_t *off, size_t *len);
void bl_re_release(struct bl_re *re);

#endif

/* re.c — see re.h. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core/re.h"
#include "core/util.h"

/* Compiled patterns, shared by every bl_re of the process: the report
 * parses each input file with a dispatcher of its own, and compiling (and
 * JIT-compiling) every parser's patterns again for each of 10,000 files
 * cost more than reading them. A compiled pattern is read-only while
 * matching, so threads share it; each bl_re keeps its own match data.
 * The cache holds each distinct (pattern, options) once, for the life of
 * the process; patterns that do not compile are not cached. */
struct re_cached {
	struct re_cached *next;
	uint32_t opts;
	pcre2_code *code;
	char pattern[];
};
static struct re_cached *re_cache;
static pthread_mutex_t re_cache_mu = PTHREAD_MUTEX_INITIALIZER;

int bl_re_compile(struct bl_re *re, const char *pattern, unsigned flags, const char *origin, char **err)
{
	int ec;
	PCRE2_SIZE eo;
	uint32_t opts = flags & BL_RE_BYTES ? 0 : PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	if (flags & BL_RE_CASELESS)
		opts |= PCRE2_CASELESS;
	re->origin = origin;
	re->jit = false;
	re->code = NULL;
	re->md = NULL;
	pthread_mutex_lock(&re_cache_mu);
	for (struct re_cached *c = re_cache; c; c = c->next) {
		if (c->opts == opts && strcmp(c->pattern, pattern) == 0) {
			re->code = c->code;
			break;
		}
	}
	if (!re->code) {
		pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts, &ec, &eo, NULL);
		if (!code) {
			pthread_mutex_unlock(&re_cache_mu);
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(ec, msg, sizeof msg);
			if (err)
				*err = bl_xasprintf("%s: %s at offset %zu", origin, (const char *)msg, (size_t)eo);
			return -BL_EFORMAT;
		}
		size_t pl = strlen(pattern);
		struct re_cached *c = bl_xmalloc(sizeof *c + pl + 1);
		memcpy(c->pattern, pattern, pl + 1);
		c->opts = opts;
		c->code = code;
		c->next = re_cache;
		re_cache = c;
		re->code = code;
	}
	pthread_mutex_unlock(&re_cache_mu);
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	return 0;
}

/* JIT-compile re's code unless done, under the cache's lock, so that no
 * thread matches the code while another compiles it. At the first match,
 * not at bl_re_compile(): summary of 5 MB of mtest01 + time -v runs spent
 * 6.6 M of its 120 M instructions JIT-compiling patterns it never used. */
static void re_jit(struct bl_re *re)
{
	size_t size = 0;
	pthread_mutex_lock(&re_cache_mu);
	if (pcre2_pattern_info(re->code, PCRE2_INFO_JITSIZE, &size) != 0 || size == 0)
		pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE); /* else the interpreter */
	pthread_mutex_unlock(&re_cache_mu);
	re->jit = true;
}

int bl_re_match(struct bl_re *re, const char *s, size_t len)
{
	if (!re->jit)
		re_jit(re);
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, re->md, NULL);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	return -BL_EFORMAT;
}

bool bl_re_group(const struct bl_re *re, int i, size_t *off, size_t *len)
{
	uint32_t n = pcre2_get_ovector_count(re->md);
	if (i < 0 || (uint32_t)i >= n)
		return false;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
	if (ov[2 * i] == PCRE2_UNSET)
		return false;
	*off = ov[2 * i];
	*len = ov[2 * i + 1] - ov[2 * i];
	return true;
}

void bl_re_release(struct bl_re *re)
{
	if (!re)
		return;
	if (re->md)
		pcre2_match_data_free(re->md);
	re->md = re->code = NULL;    /* the code stays in the cache */
}

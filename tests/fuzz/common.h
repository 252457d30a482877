/* common.h — helpers every harness uses: a context with every table written
 * as CSV to /dev/null, every analysis attached as a sink, and the
 * invariant checks (see fuzz.h). Included by each harness; all static, with
 * an fz_ prefix, and guarded so tests/test_fuzz.c can include several
 * harnesses in one program. */
#ifndef BL_FUZZ_COMMON_H
#define BL_FUZZ_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "analyze/analysis.h"
#include "parsers/dispatch.h"
#include "input/reader.h"
#include "core/util.h"
#include "parsers/parser.h"
#include "tests/fuzz/fuzz.h"

__attribute__((noreturn, format(printf, 1, 2)))
static void fz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("fuzz invariant broken: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

static FILE *fz_null(void)
{
	static FILE *f;
	if (!f && !(f = fopen("/dev/null", "w")))
		fz_fail("cannot open /dev/null");
	return f;
}

/* Every record: no NaN, infinity only where documented, then the CSV writer. */
static int fz_record(void *ud, const struct bl_record *r)
{
	(void)ud;
	for (size_t i = 0; i < r->table->ncols; i++) {
		const struct bl_val *v = &r->v[i];
		/* Infinity only where the column says so (contest's Ratio "inf"). */
		if (v->t == BL_NUM && (isnan(v->u.d) ||
		    (isinf(v->u.d) && !strstr(r->table->cols[i].doc, "inf"))))
			fz_fail("%s.%s = %g (line %lu)", r->table->name,
				r->table->cols[i].name, v->u.d, r->line);
		if (v->t == BL_STR && !v->u.s)
			fz_fail("%s.%s is a NULL string", r->table->name, r->table->cols[i].name);
	}
	static const struct bl_table_def *seen[64];
	size_t k;
	for (k = 0; k < 64 && seen[k] && seen[k] != r->table; k++)
		;
	if (k < 64 && !seen[k]) {
		seen[k] = r->table;
		bl_csv_write_header(fz_null(), r->table);
	}
	return bl_csv_write_record(fz_null(), r);
}

/* A context with the CSV sink and every analysis attached. */
static void fz_begin(struct fz_pass *p, const struct bl_opts *o)
{
	bl_ctx_init(&p->ctx, o);
	p->ctx.diag = NULL;      /* warnings counted, not printed */
	struct bl_sink s = { fz_record, NULL, NULL, NULL, true };
	bl_ctx_add_sink(&p->ctx, &s);
	p->nan = 0;
	while (bl_analyses[p->nan])
		p->nan++;
	p->an_state = bl_xcalloc(p->nan + 1, sizeof *p->an_state);
	struct bl_analysis_opts ao;
	memset(&ao, 0, sizeof ao);
	ao.parse = &p->ctx.opt;
	ao.include_quoted = true;
	ao.confidence = 0.95;
	ao.target_s = NAN;
	for (size_t i = 0; i < p->nan; i++) {
		p->an_state[i] = bl_analyses[i]->create(&ao);
		struct bl_sink as = { bl_analyses[i]->record, NULL, NULL, p->an_state[i], false };
		bl_ctx_add_sink(&p->ctx, &as);
	}
}

/* Check the line accounting, write every analysis's text and Markdown
 * section, free everything. */
static void fz_end(struct fz_pass *p)
{
	struct bl_ctx *ctx = &p->ctx;
	if (ctx->lines_total != ctx->lines_used + ctx->lines_skipped)
		fz_fail("lines: %lu total != %lu used + %lu skipped", ctx->lines_total,
			ctx->lines_used, ctx->lines_skipped);
	for (size_t i = 0; i < p->nan; i++) {
		const struct bl_analysis *an = bl_analyses[i];
		if (an->has_data(p->an_state[i]) && an->write) {
			an->write(p->an_state[i], fz_null(), BL_DOC_TEXT, NULL, 0);
			an->write(p->an_state[i], fz_null(), BL_DOC_MD, NULL, 0);
		}
	}
	bl_diag_summary(ctx, fz_null());
	bl_ctx_finish(ctx, 1);
	bl_ctx_release(ctx);
	for (size_t i = 0; i < p->nan; i++)
		bl_analyses[i]->destroy(p->an_state[i]);
	free(p->an_state);
	p->an_state = NULL;
}

/* The bytes as a file the reader can open by name, in memory (memfd);
 * *path is "/proc/self/fd/N". Returns the fd (close it after) or -1. */
static int fz_memfile(const uint8_t *data, size_t size, char *path, size_t pathsz)
{
	int fd = memfd_create("benchlog-fuzz", MFD_CLOEXEC);
	if (fd < 0)
		fz_fail("memfd_create failed");
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0)
			fz_fail("write to memfd failed");
		off += (size_t)w;
	}
	snprintf(path, pathsz, "/proc/self/fd/%d", fd);
	return fd;
}

#endif

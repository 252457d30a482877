/* pass.c — see pass.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "parsers/dispatch.h"
#include "parsers/pass.h"
#include "input/reader.h"
#include "core/progress.h"
#include "core/util.h"

struct devino {
	dev_t dev;
	ino_t ino;
};

/* True when a folder above path (as far up as the path names) is one of
 * ex[]. last and last_hit cache the answer for the previous path's folder,
 * since a walk lists a folder's files together. */
static bool excluded(const char *path, const struct devino *ex, size_t nex, char **last, bool *last_hit)
{
	const char *slash = strrchr(path, '/');
	if (!slash || nex == 0)
		return false;
	size_t dl = (size_t)(slash - path);
	if (*last && strlen(*last) == dl && memcmp(*last, path, dl) == 0)
		return *last_hit;
	free(*last);
	*last = bl_xstrndup(path, dl);
	char *p = bl_xstrdup(*last);
	bool hit = false;
	for (;;) {
		struct stat st;
		if (*p && stat(p, &st) == 0)
			for (size_t i = 0; i < nex; i++)
				if (ex[i].dev == st.st_dev && ex[i].ino == st.st_ino)
					hit = true;
		char *s = strrchr(p, '/');
		if (hit || !s)
			break;
		*s = '\0';
	}
	free(p);
	*last_hit = hit;
	return hit;
}

/* The inputs expanded (input/reader.h), leaving the excluded folders'
 * files out of folder walks. *out NULL-terminated, *sizes as
 * bl_paths_expand_sized() gives them; returns the count. */
static size_t expand(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_pass_hooks *h,
		     char ***out, long long **sizes)
{
	size_t nall = 0;
	bl_paths_expand_sized(ctx, inputs, n, out, &nall, sizes);
	if (!h || !h->nexclude)
		return nall;
	struct devino *ex = bl_xcalloc(h->nexclude, sizeof *ex);
	size_t nex = 0;
	for (size_t i = 0; i < h->nexclude; i++) {
		struct stat st;
		if (h->exclude[i] && stat(h->exclude[i], &st) == 0 && S_ISDIR(st.st_mode))
			ex[nex++] = (struct devino){ st.st_dev, st.st_ino };
	}
	/* A file or "-" expands to itself; a folder to paths below it, never
	 * to its own name: only those are left out. */
	char **all = *out;
	long long *sz = *sizes;
	char *last = NULL;
	bool last_hit = false;
	size_t k = 0;
	for (size_t i = 0; i < nall; i++) {
		bool named = false;
		for (size_t j = 0; j < n && !named; j++)
			named = strcmp(all[i], inputs[j]) == 0;
		if (!named && excluded(all[i], ex, nex, &last, &last_hit)) {
			if (h->excluded_any)
				*h->excluded_any = true;
			free(all[i]);
			continue;
		}
		sz[k] = sz[i];
		all[k++] = all[i];
	}
	all[k] = NULL;
	free(last);
	free(ex);
	return k;
}

/* Read one input; h->input_done gets what it gave. */
static void read_one(struct bl_ctx *ctx, const char *path, const struct bl_pass_hooks *h)
{
	if (!h || !h->input_done) {
		bl_read_input(ctx, path);
		return;
	}
	struct bl_input_stats st = {
		path, ctx->lines_total, ctx->lines_used, ctx->lines_skipped, ctx->records,
		bl_warn_total(ctx), false,
	};
	unsigned long errs = ctx->input_errors;
	bl_read_input(ctx, path);
	st.lines = ctx->lines_total - st.lines;
	st.used = ctx->lines_used - st.used;
	st.skipped = ctx->lines_skipped - st.skipped;
	st.records = ctx->records - st.records;
	st.warnings = bl_warn_total(ctx) - st.warnings;
	st.unreadable = ctx->input_errors > errs;
	h->input_done(h->ud, &st);
}

int bl_pass_run_hooked(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_pass_hooks *h)
{
	char **paths = NULL;
	long long *sizes = NULL;
	size_t np = expand(ctx, inputs, n, h, &paths, &sizes);
	int rc = bl_dispatch_open(ctx);
	if (rc) {
		bl_paths_free(paths);
		free(sizes);
		return rc;
	}
	/* The progress line: files done of np, and the raw bytes the reader
	 * counts against the inputs' sizes on disk (stdin: unknown). */
	struct bl_progress pg;
	unsigned long long bytes = 0;
	unsigned long long *saved_bytes = ctx->bytes_read;
	bl_progress_init(&pg, ctx->opt.progress);
	if (pg.on) {
		bool known = true;   /* a FIFO or stdin: no total, no share */
		for (size_t i = 0; i < np; i++) {
			known = known && sizes[i] >= 0;
			pg.bytes_total += sizes[i] >= 0 ? (unsigned long long)sizes[i] : 0;
		}
		if (!known)
			pg.bytes_total = 0;
		pg.files_total = np;
		if (!ctx->bytes_read)
			ctx->bytes_read = &bytes;
		pg.bytes = ctx->bytes_read;
		ctx->progress = &pg;
	}
	free(sizes);
	for (size_t i = 0; i < np && !ctx->error; i++) {
		if (ctx->opt.stop && *ctx->opt.stop) {
			ctx->error = -BL_EINTR;
			break;
		}
		read_one(ctx, paths[i], h);
		pg.files_done = (unsigned long)i + 1;
	}
	bl_dispatch_close(ctx);
	bl_progress_clear(&pg);
	if (ctx->progress == &pg) {
		ctx->progress = NULL;
		ctx->bytes_read = saved_bytes;
	}
	bl_paths_free(paths);
	return ctx->error;
}

int bl_pass_run(struct bl_ctx *ctx, char *const *inputs, size_t n)
{
	return bl_pass_run_hooked(ctx, inputs, n, NULL);
}

int bl_pass_status(const struct bl_ctx *ctx)
{
	if (ctx->error || ctx->input_errors)
		return 1;
	if (ctx->opt.strict && bl_warn_total(ctx))
		return 1;
	return 0;
}

/* pass.c — see pass.h. */
#include <errno.h>
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
 * since a walk lists a folder's files together (report -j1 of the bench's
 * 10,000 files: 4.55 s of processor time, 0.48 s of it in the kernel;
 * 4.81 s and 0.52 s with a stat() of every file's folders). */
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

/* The folders whose files a walk leaves out (h->exclude), by device and
 * inode, and the last answer of excluded(). */
struct skip {
	struct devino *ex;
	size_t nex;
	char *last;
	bool last_hit;
};

static void skip_init(struct skip *k, const struct bl_pass_hooks *h)
{
	memset(k, 0, sizeof *k);
	k->ex = bl_xcalloc(h && h->nexclude ? h->nexclude : 1, sizeof *k->ex);
	for (size_t i = 0; h && i < h->nexclude; i++) {
		struct stat st;
		if (h->exclude[i] && stat(h->exclude[i], &st) == 0 && S_ISDIR(st.st_mode))
			k->ex[k->nex++] = (struct devino){ st.st_dev, st.st_ino };
	}
}

/* Is path, of the expanded inputs, left out? A file or "-" expands to
 * itself; a folder to paths below it, never to its own name: only those
 * are left out. */
static bool left_out(struct skip *k, const char *path, char *const *inputs, size_t n,
		     const struct bl_pass_hooks *h)
{
	if (!k->nex)
		return false;
	for (size_t j = 0; j < n; j++)
		if (strcmp(path, inputs[j]) == 0)
			return false;
	if (!excluded(path, k->ex, k->nex, &k->last, &k->last_hit))
		return false;
	if (h->excluded_any)
		*h->excluded_any = true;
	return true;
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

/* Read paths (expanded from inputs[n]) through the dispatcher, as
 * bl_pass_run() says. */
static int pass_paths(struct bl_ctx *ctx, struct bl_paths *paths, char *const *inputs, size_t n,
		      const struct bl_pass_hooks *h)
{
	struct skip k;
	int rc = ctx->error ? ctx->error : bl_dispatch_open(ctx);
	if (rc)
		return rc;
	skip_init(&k, h);
	/* The progress line: files done of those read, and the raw bytes
	 * the reader counts against the inputs' sizes on disk (stdin:
	 * unknown). */
	struct bl_progress pg;
	unsigned long long bytes = 0;
	unsigned long long *saved_bytes = ctx->bytes_read;
	const char *path;
	long long size;
	bl_progress_init(&pg, ctx->opt.progress);
	if (pg.on) {
		bool known = true;   /* a FIFO or stdin: no total, no share */
		while ((path = bl_paths_next(paths, &size)) != NULL) {
			if (left_out(&k, path, inputs, n, h))
				continue;
			known = known && size >= 0;
			pg.bytes_total += size >= 0 ? (unsigned long long)size : 0;
			pg.files_total++;
		}
		bl_paths_rewind(paths);
		if (!known)
			pg.bytes_total = 0;
		if (!ctx->bytes_read)
			ctx->bytes_read = &bytes;
		pg.bytes = ctx->bytes_read;
		ctx->progress = &pg;
	}
	while (!ctx->error && (path = bl_paths_next(paths, NULL)) != NULL) {
		if (ctx->opt.stop && *ctx->opt.stop) {
			ctx->error = -BL_EINTR;
			break;
		}
		if (left_out(&k, path, inputs, n, h))
			continue;
		read_one(ctx, path, h);
		pg.files_done++;
	}
	if (paths->err) {
		errno = paths->err;
		bl_ctx_temp_failed(ctx);
	}
	bl_dispatch_close(ctx);
	bl_progress_clear(&pg);
	if (ctx->progress == &pg) {
		ctx->progress = NULL;
		ctx->bytes_read = saved_bytes;
	}
	free(k.ex);
	free(k.last);
	return ctx->error;
}

int bl_pass_run(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_pass_hooks *h)
{
	struct bl_paths paths = {0};
	if (bl_paths_expand(ctx, inputs, n, &paths) == -BL_EIO)
		bl_ctx_temp_failed(ctx);
	int rc = pass_paths(ctx, &paths, inputs, n, h);
	bl_paths_release(&paths);
	return rc;
}

int bl_pass_run_list(struct bl_ctx *ctx, struct bl_paths *paths)
{
	return pass_paths(ctx, paths, NULL, 0, NULL);
}

int bl_pass_status(const struct bl_ctx *ctx)
{
	if (ctx->error || ctx->input_errors)
		return 1;
	if (ctx->opt.strict && bl_warn_total(ctx))
		return 1;
	return 0;
}

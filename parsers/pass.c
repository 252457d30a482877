/* pass.c — see pass.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "parsers/dispatch.h"
#include "parsers/pass.h"
#include "input/reader.h"
#include "core/progress.h"
#include "core/util.h"

int bl_pass_run(struct bl_ctx *ctx, char *const *inputs, size_t n)
{
	static char *const stdin_only[] = { (char *)"-" };
	if (n == 0) {
		inputs = stdin_only;
		n = 1;
	}
	char **paths = NULL;
	size_t np = 0;
	bl_paths_expand(ctx, inputs, n, &paths, &np);
	int rc = bl_dispatch_open(ctx);
	if (rc) {
		bl_paths_free(paths);
		return rc;
	}
	/* The progress line: files done of np, and the raw bytes the reader
	 * counts against the inputs' sizes on disk (stdin: unknown). */
	struct bl_progress pg;
	unsigned long long bytes = 0;
	unsigned long long *saved_bytes = ctx->bytes_read;
	bl_progress_init(&pg, ctx->opt.progress);
	if (pg.on) {
		for (size_t i = 0; i < np; i++) {
			struct stat sb;
			if (strcmp(paths[i], "-") != 0 && stat(paths[i], &sb) == 0 && S_ISREG(sb.st_mode))
				pg.bytes_total += (unsigned long long)sb.st_size;
		}
		pg.files_total = np;
		if (!ctx->bytes_read)
			ctx->bytes_read = &bytes;
		pg.bytes = ctx->bytes_read;
		ctx->progress = &pg;
	}
	for (size_t i = 0; i < np && !ctx->error; i++) {
		if (ctx->opt.stop && *ctx->opt.stop) {
			ctx->error = -BL_EINTR;
			break;
		}
		bl_read_input(ctx, paths[i]);
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

int bl_pass_status(const struct bl_ctx *ctx)
{
	if (ctx->error || ctx->input_errors)
		return 1;
	if (ctx->opt.strict && bl_warn_total(ctx))
		return 1;
	return 0;
}

/* pass.c — see pass.h. */
#include <stdlib.h>
#include "parsers/dispatch.h"
#include "parsers/pass.h"
#include "input/reader.h"
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
	for (size_t i = 0; i < np && !ctx->error; i++) {
		if (ctx->opt.stop && *ctx->opt.stop) {
			ctx->error = -BL_EINTR;
			break;
		}
		bl_read_input(ctx, paths[i]);
	}
	bl_dispatch_close(ctx);
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

/* pass.h — one parse pass over the user's inputs: expand folders, read
 * every input through the dispatcher, in order.
 *
 * The caller sets up the context (options, sinks) first. Returns 0, or a
 * negative bl_err when a sink failed (ctx->error). Inputs that could not be
 * read are warnings counted in ctx->input_errors; the caller turns them
 * into exit status 1.
 */
#ifndef BL_PASS_H
#define BL_PASS_H

#include <stddef.h>
#include "core/ctx.h"

int bl_pass_run(struct bl_ctx *ctx, char *const *inputs, size_t n);
/* Exit status for a finished pass: 0 when every input was read, no sink
 * failed and (with --strict) nothing was malformed; else 1. */
int bl_pass_status(const struct bl_ctx *ctx);

#endif

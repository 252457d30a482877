/* pass.h — one parse pass over the user's inputs: expand folders, read
 * every input through the dispatcher, in order, on the calling thread.
 * Every command that reads logs (parse, summary, stats, compare, plot,
 * report) reads them here, once.
 *
 * The caller sets up the context (options, sinks) first. Returns 0, or a
 * negative bl_err when a sink failed (ctx->error), -BL_EINTR when
 * ctx->opt.stop was set, -BL_EUSAGE for a bad --group-regex. Inputs that
 * could not be read are warnings counted in ctx->input_errors; the caller
 * turns them into exit status 1.
 */
#ifndef BL_PASS_H
#define BL_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include "core/ctx.h"
#include "input/reader.h"

/* What one input gave: the context's counts before and after it. */
struct bl_input_stats {
	const char *path;            /* as expanded from the user's inputs */
	unsigned long lines;         /* physical lines read */
	unsigned long used;          /* lines that went into records, labels, headers */
	unsigned long skipped;       /* lines skipped, with a reason */
	unsigned long records;       /* records emitted */
	unsigned long warnings;      /* malformed-input warnings */
	bool unreadable;             /* missing, unreadable or corrupt (.gz) input */
};

struct bl_pass_hooks {
	/* Called after each input is read, in input order; may be NULL. */
	void (*input_done)(void *ud, const struct bl_input_stats *st);
	void *ud;
	/* Folders whose files are left out when a folder input is walked (the
	 * report's own output folder, when it sits inside an input folder).
	 * A file of theirs named as an input is still read. */
	const char *const *exclude;
	size_t nexclude;
	bool *excluded_any;          /* set when a walked file was left out */
};

/* h: hooks, NULL for none. */
int bl_pass_run(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_pass_hooks *h);
/* The same over paths already expanded (input/reader.h), read from
 * its first path; no hooks. */
int bl_pass_run_list(struct bl_ctx *ctx, struct bl_paths *paths);
/* Exit status for a finished pass: 0 when every input was read, no sink
 * failed and (with --strict) nothing was malformed; else 1. */
int bl_pass_status(const struct bl_ctx *ctx);

#endif

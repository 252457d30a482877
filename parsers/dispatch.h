/* dispatch.h — hands lines to the parsers (see parsers/parser.h for the
 * protocol) and accounts for every line.
 *
 * A pass: bl_dispatch_open(ctx) once (it installs the dispatcher as
 * ctx->lines, where input/ hands its lines), then for each unit (a plain file, or
 * one mail message / MIME text part) bl_dispatch_begin_unit(), the unit's
 * lines with bl_dispatch_line(), bl_dispatch_end_unit(); finally
 * bl_dispatch_close(). The dispatcher:
 *   - strips the quote prefix (any mix of '>' and single blanks before the
 *     first '>'-free text: ">", "> >", ">>", "> >>") and records its depth;
 *   - strips ANSI colour escapes (ESC [ … m) and a trailing CR;
 *   - offers the line to the parsers, joins hard-wrapped records (BL_MORE),
 *     recognises group labels (rules L1-L5, dispatch.c) and counts
 *     used/skipped.
 */
#ifndef BL_DISPATCH_H
#define BL_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/ctx.h"

/* Allocate parser states for a pass. Returns 0 or a negative bl_err. */
int bl_dispatch_open(struct bl_ctx *ctx);
/* Start a unit. source: the input name as given (borrowed, must outlive the
 * unit); msg: message provenance or NULL (borrowed, same lifetime). Resets
 * the group to --group, the subject's kernel (--group-from subject) or the
 * file stem. */
void bl_dispatch_begin_unit(struct bl_ctx *ctx, const char *source, const struct bl_msg *msg);
/* One raw line (no line end; may hold any bytes; need not be NUL-terminated).
 * lineno is 1-based in source; hint: what the caller already knows of the
 * line (BL_LINE_*, core/line.h; 0: nothing). Returns 0 or a negative bl_err
 * from a sink. */
int bl_dispatch_line(struct bl_ctx *ctx, const char *raw, size_t len, unsigned long lineno,
		     unsigned hint);
/* End the unit: resolve a held partial record, flush every parser. */
int bl_dispatch_end_unit(struct bl_ctx *ctx);
void bl_dispatch_close(struct bl_ctx *ctx);
/* Rule L3's test: does the trimmed line s[0..n) start with a kernel
 * version (the one pattern of the label rules)? For parsers that must
 * not take a label line as their own text. Needs the pass open. */
bool bl_dispatch_is_kernel_label(struct bl_ctx *ctx, const char *s, size_t n);
/* Rule L4's test (dispatch.c): could the trimmed line s[0..n) be a short
 * heading (1-4 words, at most 40 bytes, a letter first, no final
 * punctuation, not a generic word)? For parsers that hold text lines
 * themselves and must not hide a heading from the dispatcher. */
bool bl_dispatch_is_heading(const char *s, size_t n);

#endif

/* pick.h — "the one table that has rows", for `benchlog parse` without
 * -t and -o.
 *
 * The sink keeps every table's rows in a temporary file (a spool in
 * bl_tmp_dir(), core/store.h) in the chosen format. At finish(ok = 1): when exactly one table got rows,
 * that table (header and rows) is copied to f; when none or several did,
 * nothing is written to f, and res says which tables had rows so the
 * caller can say so. Rows stay in input order.
 */
#ifndef BL_PICK_H
#define BL_PICK_H

#include <stdio.h>
#include "core/ctx.h"
#include "tables/table.h"

#define BL_PICK_MAX 16
struct bl_pick {
	size_t n;                                   /* tables that got rows */
	const struct bl_table_def *t[BL_PICK_MAX];  /* the first BL_PICK_MAX of them, in order of first row */
};

/* res must outlive the sink; it is filled by finish(). A temporary file
 * that cannot be made or written fails the record or the finish with
 * -BL_EIO, said through ctx (bl_ctx_temp_failed(): "cannot write a
 * temporary file in DIR: reason"); ctx must outlive the sink. 0. */
int bl_pick_sink(struct bl_sink *out, FILE *f, const struct bl_table_opts *o, struct bl_pick *res,
		 struct bl_ctx *ctx);

#endif

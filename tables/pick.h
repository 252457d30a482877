/* pick.h — "the one table that has rows", for `benchlog parse` without
 * -t and -o.
 *
 * The sink keeps every table's rows in a temporary file (tmpfile(3)) in
 * the chosen format. At finish(ok = 1): when exactly one table got rows,
 * that table (header and rows) is copied to f; when none or several did,
 * nothing is written to f, and res says which tables had rows so the
 * caller can say so. Rows stay in input order.
 */
#ifndef BL_PICK_H
#define BL_PICK_H

#include <stdio.h>
#include "tables/table.h"

#define BL_PICK_MAX 16
struct bl_pick {
	size_t n;                                   /* tables that got rows */
	const struct bl_table_def *t[BL_PICK_MAX];  /* the first BL_PICK_MAX of them, in order of first row */
};

/* res must outlive the sink; it is filled by finish(). 0, or -BL_EIO. */
int bl_pick_sink(struct bl_sink *out, FILE *f, const struct bl_table_opts *o, struct bl_pick *res);

#endif

/* sqlite.h — every table into one SQLite database, typed (libsqlite3).
 *
 * The database a sink writes (docs/csv.md, "SQLite"):
 *   - one table per benchlog table (all of them, also those without rows,
 *     so a query never fails on a missing table), with the provenance
 *     columns, then the table's own, in schema order; declared types
 *     INTEGER (integer columns, also line, quoted and run), REAL (number
 *     columns) and TEXT; an empty field is NULL (run 0, "" message_id,
 *     date and subject outside mail are NULL as they are empty in CSV);
 *   - an index "<table>_group" on each table's "group" column;
 *   - `units` (table, column, unit): the unit of every column whose
 *     definition states one (struct bl_col_def.unit);
 *   - `sources` (source, message_id, date, subject): each input, and each
 *     mail message in it, that gave at least one record, in input order.
 * Nothing else, so `sqlite3 db .schema` shows what the tables are,
 * unless its user adds a table of its own (bl_sqlite_table).
 *
 * The file is built as a temporary file beside path, synced and renamed
 * into place by finish(ok = 1); finish(ok = 0) and free() remove it. An existing file
 * at path is replaced only then.
 *
 * Threads: a sink's calls must come from one thread at a time; its
 * connection is opened without SQLite's per-call mutex.
 */
#ifndef BL_SQLITE_H
#define BL_SQLITE_H

#include "tables/table.h"

/* A sink writing the database path. only_table, when not NULL, keeps just
 * that table (the others are still created, empty). Returns 0, or -BL_EIO
 * when the temporary database cannot be made (errno is set when the
 * system said why; the message is in *why, a static string, when SQLite
 * did). */
int bl_sqlite_sink(struct bl_sink *out, const char *path, const char *only_table, const char **why);

/* A table of the caller's beside the others in the database of sink (a
 * bl_sqlite_sink; report.sqlite's `findings`, report/findings.h F6),
 * made now as `CREATE TABLE name("col" TYPE, ...)`: n columns named
 * cols, of types (INTEGER, REAL, TEXT as above). Its rows come from
 * bl_sqlite_row and are committed with the others by finish(). Returns
 * its number for bl_sqlite_row (>= 0), or -BL_EIO. */
int bl_sqlite_table(const struct bl_sink *sink, const char *name, const char *const *cols,
		    const enum bl_vtype *types, size_t n);
/* One row of table (bl_sqlite_table's number): its n values as given
 * (BL_NULL and a NULL string are NULL, empty text ''). 0, or -BL_EIO
 * (the sink has failed; finish() says so too). */
int bl_sqlite_row(const struct bl_sink *sink, int table, const struct bl_val *v);

/* The SQL that creates the tables, indexes and the units and sources
 * tables of such a database, with the units rows, and one trigger per
 * table that turns the '' sqlite3's `.import --csv` stores for an empty
 * field into NULL: docs/schema.sql is this text. Caller frees. */
char *bl_sqlite_schema(void);

#endif

/* table.h — the table writers: CSV, TSV and JSON Lines, to a folder (one
 * file per table) or to one stream. The record shape they write is
 * core/record.h's.
 */
#ifndef BL_TABLE_H
#define BL_TABLE_H

#include <stdio.h>
#include "core/record.h"

/* Output formats, all from the same table definitions and one cell path
 * (every number is bl_fmt_double()'s text, core/util.h, in all three):
 *   csv    RFC 4180 (default), header row
 *   tsv    header row, TAB-separated; TAB, LF, CR and backslash inside text
 *          are written as \t, \n, \r and \\ (the PostgreSQL/MySQL text convention)
 *   jsonl  one JSON object per line, keys in column order, null for
 *          unknown, numbers as JSON numbers (an integer without ".0");
 *          strings escaped as jansson escapes them (\" \\ \b \f \n \r \t,
 *          \u00XX for other control characters, UTF-8 as it is); a
 *          non-finite number (ConTest's "inf" ratio) is the string "inf" /
 *          "-inf", as JSON has none */
enum bl_outfmt { BL_OUT_CSV = 0, BL_OUT_TSV, BL_OUT_JSONL };
/* "csv" / "tsv" / "jsonl" -> 0 and *out, else -BL_EUSAGE. */
int bl_outfmt_parse(const char *s, enum bl_outfmt *out);
const char *bl_outfmt_ext(enum bl_outfmt f);   /* "csv", "tsv", "jsonl" */
int bl_table_write_header(FILE *f, const struct bl_table_def *t, enum bl_outfmt fmt);

/* How a writer writes a table's rows: the caller's (cli fills it from -f
 * and --spreadsheet-safe), copied by the writer. */
struct bl_table_opts {
	enum bl_outfmt fmt;
	/* --spreadsheet-safe: a CSV text cell that begins with = + - @ TAB
	 * or CR gets a ' in front (core/escape.h E6), so a spreadsheet shows
	 * it instead of running it as a formula (docs/csv.md). Numbers are
	 * never touched. false: the cells are the input's bytes. */
	bool spreadsheet_safe;
};

/* Folder sink: one DIR/<table>.<ext> per table that gets rows, written
 * to a mkstemp() file in DIR and renamed into place by finish(ok=1);
 * finish(ok=0) removes the temporary files. only_table, when non-NULL,
 * keeps just that table. Returns 0 or a negative bl_err (errno set). */
int bl_dir_sink(struct bl_sink *out, const char *dir, const char *only_table, const struct bl_table_opts *o);
/* One table to an open stream (stdout); the header is written before the
 * first row, or at finish() when no row came. */
int bl_stream_sink(struct bl_sink *out, FILE *f, const struct bl_table_def *t, const struct bl_table_opts *o);
/* A text cell (CSV, TSV, JSON Lines, SQLite, skipped.csv; docs/csv.md
 * "Text"), valid UTF-8 and one cell per text: s itself when it is
 * well-formed UTF-8 holding no "\x" or "\\"; otherwise a new string in
 * *fixed (caller frees) with each byte outside well-formed UTF-8 as \xHH
 * (lower-case hex) and each backslash doubled, so two different texts
 * never give the same cell. */
const char *bl_utf8_clean(const char *s, char **fixed);
/* Text s as one CSV cell: made valid UTF-8 (bl_utf8_clean), quoted with
 * libcsv when it holds a comma, quote, CR or LF. 0 or -BL_EIO with errno
 * the failed write's. */
int bl_csv_write_text(FILE *f, const char *s);

/* Write one record's fields as a CSV line (RFC 4180: fields quoted with
 * libcsv when they hold a comma, quote, CR or LF). Header with
 * bl_csv_write_header(). Return 0 or -BL_EIO. */
int bl_csv_write_header(FILE *f, const struct bl_table_def *t);
/* One record as a CSV line to f at once (for a few rows; a table's rows go
 * through a bl_csv_writer). 0 or -BL_EIO. */
int bl_csv_write_record(FILE *f, const struct bl_record *r);

/* A writer of table rows to f, in CSV (bl_csv_writer_new) or as o says
 * (bl_table_writer_new; no header: bl_table_write_header): rows are
 * buffered (256 KiB) and reach f in blocks, so f holds them all only after
 * bl_csv_writer_flush(). The provenance text shared by consecutive rows is
 * escaped once. The writer does not own f. new() never fails (out of
 * memory ends the program, core/util.h); record() and flush() return 0 or
 * -BL_EIO (errno from the failed write); free(NULL) is a no-op. */
struct bl_csv_writer;
struct bl_csv_writer *bl_csv_writer_new(FILE *f);
struct bl_csv_writer *bl_table_writer_new(FILE *f, const struct bl_table_opts *o);
int bl_csv_writer_record(struct bl_csv_writer *w, const struct bl_record *r);
int bl_csv_writer_flush(struct bl_csv_writer *w);
void bl_csv_writer_free(struct bl_csv_writer *w);

#endif

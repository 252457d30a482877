/* outtab.h — a result table written three ways from the same cells:
 * aligned text for a terminal, CSV (RFC 4180 through libcsv) for programs,
 * and a Markdown pipe table for reports. Used by `stats` and `compare`.
 *
 * Text: columns separated by two spaces, numbers right-aligned, text
 * left-aligned, widths in UTF-8 characters (not bytes); a cell never set
 * (or set to NULL) is shown as "-", one set to "" stays blank. CSV: a header row, then the cells as given (empty stays
 * empty). Markdown: header, alignment row, '|' inside a cell escaped.
 *
 * Ownership: the table copies every string it is given; release it with
 * bl_outtab_release() (idempotent). Memory grows with the rows: this is
 * for result tables, not for data (a long one is written in pages:
 * bl_outtab_flush).
 */
#ifndef BL_OUTTAB_H
#define BL_OUTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum bl_tabfmt { BL_TAB_TEXT = 0, BL_TAB_CSV, BL_TAB_MD };
/* "text" / "csv" / "md" -> 0 and *out; else -BL_EUSAGE. */
int bl_tabfmt_parse(const char *s, enum bl_tabfmt *out);

struct bl_outtab {
	size_t ncols;
	char **head;        /* ncols names */
	bool *right;        /* ncols: right-align in text */
	char **cell;        /* nrows * ncols, NULL = empty */
	size_t nrows, cap;
	bool headed;        /* CSV: the header is written (bl_outtab_flush) */
};

void bl_outtab_init(struct bl_outtab *t);
void bl_outtab_release(struct bl_outtab *t);
/* Add a column (before the first row). right: numbers. */
void bl_outtab_col(struct bl_outtab *t, const char *name, bool right);
/* Start a new row; its cells are empty until set. */
void bl_outtab_row(struct bl_outtab *t);
/* Set cell `col` of the last row (copied; NULL = unknown, "" = blank). */
void bl_outtab_set(struct bl_outtab *t, size_t col, const char *s);
void bl_outtab_setf(struct bl_outtab *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set a number (bl_outtab_num); NaN = unknown ("-" in text). */
void bl_outtab_setnum(struct bl_outtab *t, size_t col, double v, enum bl_tabfmt fmt);
/* The same for a value that is one of the input's (a min, a max): in CSV
 * as the log wrote it (bl_fmt_double), never rounded as a computed one. */
void bl_outtab_setin(struct bl_outtab *t, size_t col, double v, enum bl_tabfmt fmt);
/* Write the whole table. 0 or -BL_EIO. */
int bl_outtab_write(const struct bl_outtab *t, FILE *f, enum bl_tabfmt fmt);
/* Write the rows so far and drop them, keeping the columns: a long table
 * in pages, each text or Markdown page aligned and headed on its own, CSV
 * with one header. 0 or -BL_EIO. */
int bl_outtab_flush(struct bl_outtab *t, FILE *f, enum bl_tabfmt fmt);

/* Text at most `width` characters a line (0: no limit). Columns named in
 * drop[] (NULL-terminated) are removed, in that order, while the table is
 * wider; then the widest left-aligned columns not named in keep[] are
 * cut, down to 8 characters, each cut cell ending in "…". *dropped gets
 * the names removed, ", "-joined (the caller frees it; NULL when none),
 * *cut whether a cell was cut. A table that is still too wide stays so. */
void bl_outtab_fit(struct bl_outtab *t, size_t width, const char *const *drop,
		   const char *const *keep, char **dropped, bool *cut);
/* text written to f in lines of at most width characters (0: as is),
 * broken at blanks; a word longer than width stands alone. Line breaks
 * in text are kept. */
void bl_text_wrap(FILE *f, const char *text, size_t width);

/* One CSV cell, after a ',' unless first: s as it is, or quoted by libcsv
 * when it holds a comma, quote or line end, or starts or ends with a
 * space; NULL and "" write nothing (an empty cell). */
void bl_outtab_csv_put(FILE *f, const char *s, bool first);

/* Numbers as the formats want them. For CSV: a computed value's text
 * (bl_fmt_stat, core/util.h), NaN -> "" . For text and Markdown: six significant
 * digits in plain notation between 1e-4 and 1e12 (trailing zeros
 * dropped; every whole digit from 10^6 on), bl_fmt_stat's text from 10^12
 * to 10^15 (every whole digit, as in CSV: D20), %.6g outside; NaN -> "".
 * buf should hold 40 bytes. */
const char *bl_outtab_num(char *buf, size_t bufsz, double v, enum bl_tabfmt fmt);

#endif

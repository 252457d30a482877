/* escape.h — text from the input made safe for the place it goes.
 *
 * Every text that comes from a log (group names, commands, subjects,
 * event text, file names, quoted values) passes through one of these
 * before it reaches a place where some bytes mean structure. One function
 * per place; every layer uses these and no other.
 *
 *   E1 Markdown inline (a paragraph, a table cell, a list item): a
 *      backslash before each of \ ` * _ [ ] < > ! & | ~ # (CommonMark 0.30
 *      §2.4: an escaped ASCII punctuation character is always literal), so
 *      no emphasis, link, image, autolink, raw HTML, entity, code span,
 *      strikethrough or table pipe can start; and before any ASCII
 *      punctuation that follows only digits from the start (a text put at
 *      the start of a line cannot begin a list, quote, heading or thematic
 *      break: "-", "1.", ">"). Control bytes (line ends, TAB, ESC...) and
 *      C1 controls (U+0080-U+009F) become spaces, so the text cannot end
 *      its block or start one on a new line, nor drive a terminal that
 *      shows the Markdown; a byte that starts no well-formed UTF-8
 *      sequence becomes U+FFFD, so the text is valid UTF-8 (E1-E4).
 *   E2 Markdown heading text: E1 itself (the '#'s of a closing sequence
 *      are escaped, so they stay text).
 *   E3 Markdown code block line (inside a ``` fence): control bytes and
 *      C1 controls become spaces, so no line of the text can close the fence; the rest is
 *      literal there.
 *   E4 HTML text or attribute value: & < > " ' as character references;
 *      control bytes other than TAB and LF, and C1 controls, as spaces;
 *      bytes outside well-formed UTF-8 as U+FFFD.
 *   E5 gnuplot single-quoted string, the quotes included: a quote doubled
 *      (U+2019 right after the opening quote or another doubled quote,
 *      which gnuplot 5.4 would read as the end), control bytes and C1
 *      controls as spaces (a dumb-terminal chart is printed as it is),
 *      bytes that are not well-formed UTF-8 as '?'; max_chars > 3 cuts the
 *      text to that many characters, ending "...".
 *   E6 CSV cell with spreadsheet_safe (docs/csv.md): a text beginning
 *      with = + - @ TAB or CR (a formula to a spreadsheet) gets a ' in
 *      front; the quoting is the table writer's (tables/table.h).
 *   E7 terminal (diagnostics on stderr): ESC as \e, CR as \r, LF as \n
 *      and TAB as \t (unless keep_lf: a whole text's layout), the other
 *      C0 controls, DEL, the C1 controls (U+0080-U+009F, which some terminals
 *      obey even as single bytes) and bytes that are not well-formed UTF-8
 *      as \xHH, a backslash as \\, so a file name or a quoted value cannot
 *      move the cursor, retitle the window, clear the screen or forge a
 *      line. LF is kept only when keep_lf.
 *
 * Each appends to b (core/util.h: a buffer with a maximum) and returns 0,
 * or -BL_ENOMEM when b's maximum is reached (b then holds a prefix).
 * s NULL is the empty text.
 */
#ifndef BL_ESCAPE_H
#define BL_ESCAPE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/util.h"

int bl_esc_md_inline(struct bl_buf *b, const char *s);        /* E1, E2 */
int bl_esc_md_code(struct bl_buf *b, const char *s);          /* E3 */
int bl_esc_html(struct bl_buf *b, const char *s);             /* E4 */
int bl_esc_gp(struct bl_buf *b, const char *s, size_t max_chars); /* E5 */
int bl_esc_term(struct bl_buf *b, const char *s, size_t len, bool keep_lf); /* E7 */

/* E6: whether spreadsheet_safe puts a ' before the len bytes at s. */
bool bl_esc_formula_like(const char *s, size_t len);

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs,
 * no surrogates, at most U+10FFFF; s NUL-terminated or at least 4 bytes
 * long), or 0 if the byte at s does not start one. */
size_t bl_utf8_len(const unsigned char *s);
/* The same within the n bytes at s (n >= 1), NUL or not. */
size_t bl_utf8_len_n(const unsigned char *s, size_t n);
/* Whether the len bytes at s are well-formed UTF-8 throughout. */
bool bl_utf8_valid(const char *s, size_t len);

/* For a printf that takes several texts at once: each call escapes s into
 * the next of the ring's buffers (E1 when md, else E7 without LF, for a
 * terminal) and returns it; valid until the ring comes round again
 * (BL_ESC_RING calls later) or is released. */
#define BL_ESC_RING 4
struct bl_esc_ring {
	struct bl_buf b[BL_ESC_RING];
	unsigned next;
};
#define BL_ESC_RING_INIT { { BL_BUF_INIT(0), BL_BUF_INIT(0), BL_BUF_INIT(0), BL_BUF_INIT(0) }, 0 }
const char *bl_esc_doc(struct bl_esc_ring *r, const char *s, bool md);
void bl_esc_ring_release(struct bl_esc_ring *r);

/* Characters (code points, a byte that is not well-formed UTF-8 counting
 * as one) in s, or in its first n bytes: the display width E5's
 * max_chars counts. */
size_t bl_utf8_chars(const char *s);
size_t bl_utf8_chars_n(const char *s, size_t n);
/* The byte offset of character k (counted as bl_utf8_chars_n does) of
 * s[0..n), or n when it has k or fewer. */
size_t bl_utf8_at(const char *s, size_t n, size_t k);

/* The same, written to a stream (E1, E2, E3, E7 with keep_lf); for a
 * writer that prints as it goes. Returns 0 or EOF on a write error. */
int bl_fput_md_inline(FILE *f, const char *s);
int bl_fput_md_code(FILE *f, const char *s);
int bl_fput_term(FILE *f, const char *s, size_t len);

/* A collapsible block of report.md around long material (per-group
 * tables, skipped-line listings, chkmmt blocks), which report/html.c
 * renders as <details>: bl_md_details_open writes the line
 * "<details><summary>SUMMARY</summary>" (SUMMARY as E4) and a blank line,
 * bl_md_details_close a blank line, "</details>" and a blank line. Only
 * these exact lines, outside code fences, open and close a block. */
int bl_md_details_open(FILE *f, const char *summary);
int bl_md_details_close(FILE *f);

/* A diagnostic for a terminal: printf's text, every byte of it shown as
 * E7 says, so the names and values it quotes cannot drive the terminal:
 * the format's own LFs are kept, while what a conversion puts in (%s of a
 * file name or an option value) shows its LF and CR as \n and \r, so it
 * never starts a line. Conversions: flags, width and precision (also *),
 * hh h l ll z j t L, d i u o x X c s p e f g a and %%. Returns 0 or EOF on
 * a write error. */
int bl_term_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bl_term_vprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif

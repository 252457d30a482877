/* html.h — HTML to text lines, through libxml2's HTML parser, for a saved
 * page (input/reader.c) and a mail's text/html part (input/mail.c R11).
 * docs/formats.md, "HTML input", states the rules; tests/test_html.c and
 * the golden test fixtures/time/html/ show them.
 *
 * H1 Text: tags dropped; entities decoded (&nbsp; and U+00A0 become a
 *    blank); <head>, <style>, <script>, <title> contents dropped; comments
 *    dropped.
 * H2 Lines: <br>, and the start and end of block elements (p, div, pre,
 *    tr, li, h1-h6, table, blockquote, ul, ol, dl, dt, dd, hr, address)
 *    end a line; <td> and <th> are separated by a blank. Inside <pre> the
 *    text's own line ends are kept, blanks too (a newline right after
 *    <pre> is dropped, as browsers do); outside <pre> a source line end
 *    and any run of blanks are one blank, and lines are trimmed. Each
 *    <blockquote> level prefixes its lines with '>' (then one blank).
 * H3 Line numbers: every text line carries the source line (1-based) where
 *    its first character is, so a diagnostic points into the HTML file.
 *    Lines end at LF; the reader makes a lone CR one (input/reader.c).
 *    Two text lines can start on one source line (`a<br>b`).
 * H4 Memory: the page is parsed from memory as one document, at most
 *    BL_HTML_MAX bytes (the caller's cap); a text line longer than
 *    BL_LINE_MAX bytes is reported as too long (text NULL), never split.
 * H5 Encoding: a <meta charset> is not believed where the bytes cannot be
 *    in it (see bl_html_text); libxml2 never prints to stderr.
 */
#ifndef BL_HTML_H
#define BL_HTML_H

#include <stdbool.h>
#include <stddef.h>

#define BL_HTML_MAX (64u * 1024 * 1024)   /* bytes of one page read as HTML */

/* Does a file starting with p (len bytes, a byte order mark already
 * dropped) look like HTML: after blanks and <!-- comments -->, a
 * "<!DOCTYPE html" or "<html" tag (any case)? */
bool bl_html_sniff(const char *p, size_t len);

/* One text line: text (len bytes, no line end, not NUL-terminated), or
 * text NULL for a line over BL_LINE_MAX bytes; srcline where it starts.
 * Returns 0 to go on or a negative bl_err to stop. */
typedef int (*bl_html_line_fn)(void *ud, const char *text, size_t len, unsigned long srcline);

/* What bl_html_text found about the page's bytes, for the caller's
 * warnings; zeroed first. */
struct bl_html_note {
	char declared[48];      /* the first <meta> charset, "" when none */
	const char *read_as;    /* not NULL: `declared` was not believed and the
				 * bytes were read as this ("UTF-8", "ISO-8859-1") */
	char error[160];        /* libxml2's first message (a conversion that
				 * failed part way), "" when none */
};

/* Turn html (len bytes, len <= INT_MAX) into text lines in document order.
 * utf8: the bytes are UTF-8 whatever the page declares (a mail part GMime
 * already converted). Else (H5): a page of ASCII bytes alone (no NUL, no
 * ESC) is read as ASCII whatever it declares; a declared charset that does
 * not read ASCII as ASCII (UTF-16/32, EBCDIC, UTF-7) is believed only when
 * the bytes fit it (a byte order mark, or a NUL in the first four bytes),
 * else the bytes are read as UTF-8 when valid, as ISO-8859-1 when not, and
 * note->read_as says which; otherwise the declaration, else libxml2's
 * guess. libxml2 prints nothing: its first message goes to note->error.
 * note may be NULL. Returns 0, or the callback's negative bl_err. */
int bl_html_text(const char *html, size_t len, bool utf8, bl_html_line_fn fn, void *ud,
		 struct bl_html_note *note);

#endif

/* html.h — HTML to text lines, through libxml2's HTML parser, for a saved
 * page (input/reader.c) and a mail's text/html part (input/mail.c R11).
 * docs/formats.md, "HTML input", states the rules, cited here and by
 * tests/test_html.c as H0 which files are HTML, H1 text (tags dropped,
 * entities decoded, <head>/<style>/<script>/<title> dropped), H2 lines
 * (<br> and block elements end one, <pre> keeps its own, each <blockquote>
 * level quotes with '>'), H3 line numbers (the source line where a text
 * line's first character is), H4 memory (one document of at most
 * BL_HTML_MAX bytes; a text line over BL_LINE_MAX reported, not split),
 * H5 encoding (see bl_html_text).
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

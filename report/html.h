/* html.h — report.md to a self-contained report.html.
 *
 * The Markdown is rendered by cmark-gfm (CommonMark + the GFM table
 * extension) in its safe mode: raw HTML in the text is dropped and only
 * harmless link schemes are kept, so text that came from the input cannot
 * inject markup or script. Images whose URL is a relative "plots/<name>.png"
 * are read from base_dir and embedded as data:image/png;base64 URIs, so the
 * page opens offline and can be mailed alone; an image whose file does not
 * exist (gnuplot missing) is replaced by a note naming its gnuplot script.
 * A Content-Security-Policy meta tag forbids any network load.
 */
#ifndef BL_REPORT_HTML_H
#define BL_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Write the whole HTML document to out. title: the <title> text (escaped
 * here). Returns 0, -BL_EIO (write or image read failed) or -BL_ENOMEM. */
int bl_report_html(const char *md, size_t len, const char *base_dir, const char *title, FILE *out);

/* The anchor of a section heading, GitHub's rule for ASCII headings:
 * lower case, spaces to '-', other punctuation dropped ("mtest01 and time
 * runs" -> "mtest01-and-time-runs"). Caller frees. */
char *bl_report_slug(const char *text);

#endif

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

/* bl_report_html() in two halves, so that the Markdown can be rendered
 * while the charts are still being drawn:
 * bl_report_html_render() parses and renders md, reading no file; *body is
 * a heap string the caller frees (free()). 0 or -BL_ENOMEM. Safe to call
 * on several threads at once. cmark-gfm's memory comes from an arena of
 * the calling thread, in 1 MiB blocks (about 70 bytes per byte of a
 * table-heavy md) taken from malloc, or from the up to 64 blocks earlier
 * calls on any thread let go of; the rest go back to malloc at the end.
 * A caller that renders many texts should have malloc keep freed memory,
 * as report does (cli/cmd_report.c), or every call faults its blocks in
 * afresh, and should call bl_report_html_render_done() after the last.
 * bl_report_html_write() embeds the images into body's <img> tags (or puts
 * the note in their place) and writes the document; returns as
 * bl_report_html(). */
int bl_report_html_render(const char *md, size_t len, char **body);
/* Frees the blocks bl_report_html_render() keeps for the next call (up
 * to 64 MiB). Call it with no rendering under way; rendering may start
 * again afterwards. */
void bl_report_html_render_done(void);

/* report.md's parts are md[cut[k] .. cut[k + 1]), k < nparts. True when
 * rendering them one by one with bl_report_html_render() and joining the
 * bodies gives the body of the whole (see html.c for the conditions
 * checked): then the report renders them side by side. */
bool bl_report_md_separable(const char *md, const size_t *cut, size_t nparts);

/* Cuts parts longer than target bytes further, before a heading line
 * ('#' in column 1, after a blank line, outside fenced code) once at
 * least target bytes have gone by: so that a long section is rendered in
 * pieces. *out: heap array of the new cuts (return value + 1 entries);
 * returns the number of parts. */
size_t bl_report_md_split(const char *md, const size_t *cut, size_t nparts, size_t target,
			  size_t **out);
int bl_report_html_write(const char *body, const char *base_dir, const char *title, FILE *out);
/* As bl_report_html_write() for a body in pieces (whole blocks each, as
 * rendered from the pieces of bl_report_md_split()), written in order. */
int bl_report_html_write_parts(const char *const *body, size_t nbody, const char *base_dir,
			       const char *title, FILE *out);

/* The anchor of a section heading, GitHub's rule for ASCII headings:
 * lower case, spaces to '-', other punctuation dropped ("mtest01 and time
 * runs" -> "mtest01-and-time-runs"). Caller frees. */
char *bl_report_slug(const char *text);

#endif

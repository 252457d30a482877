/* html.c — render report.md with cmark-gfm, embed the charts (html.h). */
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/util.h"
#include "plot/plot.h"
#include "report/html.h"

/* Readable at a glance: one column, lines of text at most 80 characters,
 * tables with lines and right-aligned numbers, code blocks on a tint,
 * charts at the content's width (at most their own). */
static const char style[] =
	":root{color-scheme:light}\n"
	"body{margin:0;background:#eef1f4;color:#1d2329;"
	"font:15px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}\n"
	"main{max-width:1200px;margin:0 auto;padding:20px 36px 64px;background:#fff;"
	"min-height:100vh;box-shadow:0 0 0 1px #dde2e7}\n"
	"h1{font-size:28px;margin:6px 0 14px;padding-bottom:8px;border-bottom:3px solid #2b6cb0}\n"
	"h2{font-size:22px;margin:40px 0 12px;padding-bottom:4px;border-bottom:1px solid #d5dae0;color:#1a4971}\n"
	"h3{font-size:18px;margin:28px 0 8px}\n"
	"h4{font-size:16px;margin:22px 0 6px}\n"
	"p,li{max-width:80ch}\n"
	/* a chart is as wide as the content, not as a line of text */
	"p:has(>img){max-width:none}\n"
	"table{border-collapse:collapse;margin:8px 0 18px;font-size:14px;display:block;"
	"overflow-x:auto;max-width:100%}\n"
	"th,td{border:1px solid #d5dae0;padding:3px 10px;vertical-align:top;overflow-wrap:break-word}\n"
	"th{background:#e8eef4;text-align:left}\n"
	"tbody tr:nth-child(even){background:#f7f9fb}\n"
	"td[align=right],th[align=right]{text-align:right;white-space:nowrap;"
	"font-variant-numeric:tabular-nums}\n"
	"th{white-space:nowrap}\n"
	"code,pre{font:13px/1.45 ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace}\n"
	"code{background:#f0f2f5;padding:1px 4px;border-radius:3px}\n"
	"pre{background:#f5f7f9;border:1px solid #e1e5ea;border-radius:4px;padding:10px 14px;"
	"overflow-x:auto;max-width:100%}\n"
	"pre code{background:none;padding:0}\n"
	"img{display:block;max-width:100%;height:auto;margin:8px 0 4px;border:1px solid #e1e5ea;"
	"border-radius:4px}\n"
	"a{color:#1f5fa8}\n"
	"em.missing{color:#9a3412}\n"
	"details{margin:8px 0 16px}\n"
	"summary{cursor:pointer;color:#1a4971;font-weight:600}\n";

char *bl_report_slug(const char *text)
{
	struct bl_buf b = BL_BUF_INIT(0);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '&') {      /* an entity such as &amp;: skip it whole */
			const char *semi = strchr((const char *)c, ';');
			if (semi && semi - (const char *)c < 10) {
				c = (const unsigned char *)semi;
				continue;
			}
		}
		if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_')
			bl_buf_addc(&b, (char)*c);
		else if (*c >= 'A' && *c <= 'Z')
			bl_buf_addc(&b, (char)(*c - 'A' + 'a'));
		else if (*c == ' ')
			bl_buf_addc(&b, '-');
		/* other punctuation dropped; bytes of non-ASCII letters dropped too,
		 * which keeps ids plain ASCII */
	}
	return b.data ? b.data : bl_xstrdup("section");
}

/* "plots/<safe name>.png" -> the name's start, else NULL. */
static const char *chart_png(const char *url)
{
	size_t n = url && strncmp(url, "plots/", 6) == 0 ? strlen(url + 6) : 0;
	if (n < 5 || strcmp(url + 6 + n - 4, ".png") != 0)
		return NULL;
	char *stem = bl_xstrndup(url + 6, n - 4);
	bool ok = bl_gp_safe_name(stem);
	free(stem);
	return ok ? url + 6 : NULL;
}

/* body with every chart image embedded: the src of each <img> whose URL is
 * "plots/<name>.png" becomes a data URI, or the whole tag an <em> note when
 * the file does not exist. cmark-gfm writes an image as
 * <img src="URL" alt="TEXT" /> (or with a title), the URL escaped for an
 * href, which leaves a safe chart name and base64 as they are; attribute
 * values have '<', '>' and '"' escaped, so the tag ends at the first '>'.
 * 0, -BL_EIO or -BL_ENOMEM. */
static int embed_images(const char *body, const char *base_dir, struct bl_buf *out)
{
	static const char tag[] = "<img src=\"";
	const char *p = body;
	const char *img;
	int rc = 0;
	while (!rc && (img = strstr(p, tag)) != NULL) {
		const char *url = img + sizeof tag - 1;
		const char *q = strchr(url, '"');
		if (!q)
			break;
		char *u = bl_xstrndup(url, (size_t)(q - url));
		const char *name = chart_png(u);
		if (!name) {
			rc = bl_buf_add(out, p, (size_t)(q - p));
			p = q;
			free(u);
			continue;
		}
		char *path = bl_xasprintf("%s/plots/%s", base_dir, name);
		gchar *data = NULL;
		gsize len = 0;
		GError *e = NULL;
		int r = g_file_get_contents(path, &data, &len, &e) ? 0
		      : g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT) ? -BL_ENOTFOUND : -BL_EIO;
		g_clear_error(&e);
		free(path);
		if (r == 0) {
			gchar *b64 = g_base64_encode((const guchar *)data, len);
			/* bl_buf_add, not a "%s" of the image (vsnprintf twice over
			 * it: 89 M of 2.6 G instructions, report of 1,000 files) */
			rc = bl_buf_add(out, p, (size_t)(url - p));
			if (!rc)
				rc = bl_buf_add(out, "data:image/png;base64,", 22);
			if (!rc)
				rc = bl_buf_add(out, b64, strlen(b64));
			p = q;
			g_free(b64);
			g_free(data);
		} else if (r == -BL_ENOTFOUND) {
			const char *gt = strchr(q, '>');
			rc = bl_buf_add(out, p, (size_t)(img - p));
			if (!rc)   /* the note that stands where a chart's image is missing */
				rc = bl_buf_addf(out, "<em>chart not rendered (gnuplot was not found): run "
						 "gnuplot %.*s.gp in the plots folder</em>", (int)strlen(name) - 4, name);
			p = gt ? gt + 1 : q;
		} else {
			rc = r;
		}
		free(u);
	}
	if (!rc)
		rc = bl_buf_add(out, p, strlen(p));
	return rc;
}

/* Write body with an id on every <h2>: the slug of its text (see
 * bl_report_slug), so the report's "Sections" links and anyone's
 * bookmarks land on the section. cmark-gfm renders headings without ids;
 * this only adds the attribute to the tags it wrote. */
static void put_body_with_ids(FILE *out, const char *body)
{
	const char *p = body;
	const char *h;
	while ((h = strstr(p, "<h2>")) != NULL) {
		const char *end = strstr(h, "</h2>");
		if (!end)
			break;
		fwrite(p, 1, (size_t)(h - p), out);
		/* the heading's text: tags dropped, entities kept as their letters */
		struct bl_buf text = BL_BUF_INIT(0);
		bool tag = false;
		for (const char *c = h + 4; c < end; c++) {
			if (*c == '<')
				tag = true;
			else if (*c == '>')
				tag = false;
			else if (!tag)
				bl_buf_addc(&text, *c);
		}
		char *slug = bl_report_slug(bl_buf_str(&text));
		fprintf(out, "<h2 id=\"%s\">", slug);
		free(slug);
		bl_buf_release(&text);
		p = h + 4;
	}
	fputs(p, out);
}

/* md[0..len) rendered by cmark-gfm (with its table extension), appended
 * to out. 0 or -BL_ENOMEM. */
static int chunk_add(struct bl_buf *out, const char *md, size_t len)
{
	const int opts = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *p = cmark_parser_new(opts);
	if (!p)
		return -BL_ENOMEM;
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(p, table);
	cmark_parser_feed(p, md, len);
	cmark_node *doc = cmark_parser_finish(p);
	char *body = doc ? cmark_render_html(doc, opts, cmark_parser_get_syntax_extensions(p)) : NULL;
	if (body)
		bl_buf_add(out, body, strlen(body));
	cmark_get_default_mem_allocator()->free(body);
	if (doc)
		cmark_node_free(doc);
	cmark_parser_free(p);
	return body ? 0 : -BL_ENOMEM;
}

/* A line that opens a fenced code block, or closes the one open (fence:
 * its character, 0 when none). */
static bool fence_line(const char *l, size_t n, char *fence)
{
	size_t i = 0;
	while (i < n && i < 3 && l[i] == ' ')
		i++;
	if (n - i < 3 || (l[i] != '`' && l[i] != '~') || l[i + 1] != l[i] || l[i + 2] != l[i])
		return false;
	if (!*fence)
		*fence = l[i];
	else if (*fence == l[i])
		*fence = 0;
	else
		return false;
	return true;
}

/* "<details><summary>TEXT</summary>" (escape.h bl_md_details_open): TEXT,
 * already E4, holds no '<'. */
static bool details_open(const char *l, size_t n, const char **text, size_t *tlen)
{
	static const char a[] = "<details><summary>", z[] = "</summary>";
	size_t na = sizeof a - 1, nz = sizeof z - 1;
	if (n < na + nz || memcmp(l, a, na) != 0 || memcmp(l + n - nz, z, nz) != 0)
		return false;
	*text = l + na;
	*tlen = n - na - nz;
	return memchr(*text, '<', *tlen) == NULL;
}

/* md rendered piece by piece between the <details> lines of escape.h
 * (outside code fences), which become the HTML elements themselves;
 * cmark-gfm's safe mode would drop them as raw HTML. */
static int html_render(const char *md, size_t len, char **body_out)
{
	struct bl_buf out = BL_BUF_INIT(0);
	size_t start = 0, pos = 0;
	int depth = 0, rc = 0;
	char fence = 0;
	bl_buf_add(&out, "", 0);
	while (!rc && pos < len) {
		size_t e = pos;
		while (e < len && md[e] != '\n')
			e++;
		const char *l = md + pos, *text = NULL;
		size_t n = e - pos, tlen = 0;
		bool open = false, close = false;
		if (!fence_line(l, n, &fence) && !fence) {
			open = details_open(l, n, &text, &tlen);
			close = !open && depth > 0 && n == 10 && memcmp(l, "</details>", 10) == 0;
		}
		if (open || close) {
			rc = chunk_add(&out, md + start, pos - start);
			if (open) {
				bl_buf_add(&out, "<details>\n<summary>", 19);
				bl_buf_add(&out, text, tlen);
				bl_buf_add(&out, "</summary>\n", 11);
				depth++;
			} else {
				bl_buf_add(&out, "</details>\n", 11);
				depth--;
			}
			start = e < len ? e + 1 : len;
		}
		pos = e < len ? e + 1 : len;
	}
	if (!rc)
		rc = chunk_add(&out, md + start, len - start);
	while (depth-- > 0)
		bl_buf_add(&out, "</details>\n", 11);
	if (rc) {
		bl_buf_release(&out);
		return rc;
	}
	*body_out = out.data;   /* bl_buf's heap string: the caller frees it */
	return 0;
}

/* The document around body, its chart images embedded. */
static int html_write(const char *body, const char *base_dir, const char *title, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "img-src data:; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"generator\" content=\"benchlog " BENCHLOG_VERSION "\">\n<title>", out);
	gchar *t = g_markup_escape_text(title, -1);
	fputs(t, out);
	g_free(t);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", style);
	struct bl_buf b = BL_BUF_INIT(0);
	int rc = embed_images(body, base_dir, &b);
	if (!rc) {
		put_body_with_ids(out, bl_buf_str(&b));
		fputs("</main>\n</body>\n</html>\n", out);
		if (ferror(out))
			rc = -BL_EIO;
	}
	bl_buf_release(&b);
	return rc;
}

int bl_report_html(const char *md, size_t len, const char *base_dir, const char *title, FILE *out)
{
	char *body = NULL;
	int rc = html_render(md, len, &body);
	if (!rc)
		rc = html_write(body, base_dir, title, out);
	free(body);
	return rc;
}

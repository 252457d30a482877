/* html.c — render report.md with cmark-gfm, embed the charts (html.h). */
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <errno.h>
#include <glib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/util.h"
#include "plot/plot.h"
#include "report/html.h"

#define MAX_IMAGE (64 * 1024 * 1024)

/* Readable at a glance: one column, tables with lines and right-aligned
 * numbers, code blocks on a tint, charts at most the page's width. */
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
	"em.missing{color:#9a3412}\n";

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

static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* "plots/<safe name>.png" -> the name's start, else NULL. */
static const char *chart_png(const char *url)
{
	if (!url || strncmp(url, "plots/", 6) != 0)
		return NULL;
	const char *name = url + 6;
	size_t n = strlen(name);
	if (n < 5 || strcmp(name + n - 4, ".png") != 0)
		return NULL;
	char stem[128];
	if (n - 4 >= sizeof stem)
		return NULL;
	memcpy(stem, name, n - 4);
	stem[n - 4] = '\0';
	return bl_gp_safe_name(stem) ? name : NULL;
}

/* Read a whole file (at most MAX_IMAGE bytes). 0, -BL_ENOTFOUND or -BL_EIO. */
static int slurp(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? -BL_ENOTFOUND : -BL_EIO;
	struct bl_buf b = BL_BUF_INIT(MAX_IMAGE);
	char chunk[65536];
	size_t n;
	int rc = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if ((rc = bl_buf_add(&b, chunk, n)) != 0)
			break;
	if (ferror(f))
		rc = -BL_EIO;
	fclose(f);
	if (rc) {
		bl_buf_release(&b);
		return rc;
	}
	*data = b.data;
	*len = b.len;
	return 0;
}

/* The note that stands where a chart's image is missing. */
static char *missing_note(const char *name)
{
	size_t sl = strlen(name) - 4;
	return bl_xasprintf("chart not rendered (gnuplot was not found): run gnuplot %.*s.gp in "
			    "the plots folder", (int)sl, name);
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
		char *data = NULL;
		size_t len = 0;
		int r = slurp(path, &data, &len);
		free(path);
		if (r == 0) {
			gchar *b64 = g_base64_encode((const guchar *)data, len);
			rc = bl_buf_add(out, p, (size_t)(url - p));
			if (!rc)
				rc = bl_buf_addf(out, "data:image/png;base64,%s", b64);
			p = q;
			g_free(b64);
			free(data);
		} else if (r == -BL_ENOTFOUND) {
			const char *gt = strchr(q, '>');
			char *text = missing_note(name);
			rc = bl_buf_add(out, p, (size_t)(img - p));
			if (!rc)
				rc = bl_buf_addf(out, "<em>%s</em>", text);
			free(text);
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
		char *slug = bl_report_slug(text.data ? text.data : "");
		fprintf(out, "<h2 id=\"%s\">", slug);
		free(slug);
		bl_buf_release(&text);
		p = h + 4;
	}
	fputs(p, out);
}

/* cmark-gfm registers its extensions in a global list, unguarded: once
 * per process, before pieces are rendered on several threads. */
static pthread_once_t register_once = PTHREAD_ONCE_INIT;

static void register_extensions(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

/* ---- cmark-gfm's memory: one arena per rendering ----
 *
 * cmark-gfm takes every node, list, delimiter and buffer of a parse and
 * its rendering from the parser's cmark_mem (src/blocks.c, inlines.c,
 * buffer.c, html.c; extensions/table.c via parser->mem and the node's
 * mem), and gives it all back at the end. Through malloc that was a
 * third of rendering report.html (the 10,000-file folder, perf: 0.44 s
 * of 1.40 s with -j1, 0.76 s of 1.65 s with -j2: calloc clearing
 * recycled memory, malloc_consolidate, _int_free). Here requests of up
 * to 1 KiB are cut from 1 MiB blocks and go to a free list of their size
 * when freed (cmark-gfm frees delimiters and small buffers while it
 * parses); when the rendering ends the blocks go to the pool below, for
 * the next rendering on any thread, or back to malloc. Larger
 * requests (the HTML being built, a table's text) go to malloc and back
 * on free. The bench's report.md (14 MB, then in 27 pieces) rendered in
 * 1.07 s instead of 1.41 s on one thread, 0.70 s instead of 0.91 s on
 * two (medians of 5 alternating runs, with report's malloc settings; see
 * html.h for why they matter).
 *
 * cmark-gfm's own arena (cmark_get_arena_mem_allocator()) is one chunk
 * list for the whole process, unlocked in 0.29.0.gfm.6, while report
 * renders pieces on several threads at once; and cmark_mem's functions
 * take no context: so the arena in use is this thread's (tl_mda). */

#define MDA_BLOCK ((size_t)1 << 20)  /* bytes per block */
#define MDA_SMALL ((size_t)1 << 10)  /* larger requests go to malloc */
#define MDA_HDR sizeof(max_align_t)  /* before each allocation: struct mda_hdr */
#define MDA_ROUND(n) (((n) + MDA_HDR - 1) / MDA_HDR * MDA_HDR)   /* n <= MDA_SMALL */

/* Under AddressSanitizer what is not handed out (block space not yet
 * cut, headers, freed allocations) is poisoned, so that cmark-gfm's
 * reads and writes past an allocation are caught as with malloc. */
#ifdef BL_ASAN
#include <sanitizer/asan_interface.h>
#define MDA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define MDA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define MDA_POISON(p, n) ((void)(p), (void)(n))
#define MDA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct mda_hdr {
	size_t size;                 /* bytes asked for; in a block it takes
					MDA_ROUND(size) */
	size_t heap;                 /* 1: malloc'd on its own; 0: in a block */
};

struct mda_block {
	struct mda_block *next;
	max_align_t data[];
};

#define MDA_CLASSES 64               /* free lists: 16, 32, ... 1024 bytes */

struct mda {
	struct mda_block *blocks;    /* the newest first */
	void *freed[MDA_CLASSES];    /* freed allocations of each size, for reuse */
	char *cur, *end;             /* free space of the newest block */
	char *last;                  /* the newest allocation in it, or NULL */
};

static _Thread_local struct mda *tl_mda;

/* Blocks a finished rendering let go of, for the next rendering on any
 * thread. A block malloc'd afresh on a thread whose malloc arena never
 * held that much memory costs its page faults: a -j2 report's helper
 * thread took 0.14 s for a piece of report.md that the main thread, with
 * blocks from memory its heap had held before, rendered in 0.04 s. At
 * most MDA_POOL_MAX blocks are kept; bl_report_html_render_done() frees
 * them. */
#define MDA_POOL_MAX 64
static pthread_mutex_t mda_pool_mu = PTHREAD_MUTEX_INITIALIZER;
static struct mda_block *mda_pool;
static size_t mda_pool_n;

static struct mda_block *mda_block_new(void)
{
	pthread_mutex_lock(&mda_pool_mu);
	struct mda_block *b = mda_pool;
	if (b) {
		mda_pool = b->next;
		mda_pool_n--;
	}
	pthread_mutex_unlock(&mda_pool_mu);
	return b ? b : bl_xmalloc(sizeof *b + MDA_BLOCK);
}

static struct mda_hdr mda_get_hdr(const void *p)
{
	struct mda_hdr h;
	const char *hp = (const char *)p - MDA_HDR;
	MDA_UNPOISON(hp, sizeof h);
	memcpy(&h, hp, sizeof h);
	MDA_POISON(hp, sizeof h);
	return h;
}

static void mda_set_hdr(void *p, size_t size, size_t heap)
{
	struct mda_hdr h = { size, heap };
	char *hp = (char *)p - MDA_HDR;
	MDA_UNPOISON(hp, sizeof h);
	memcpy(hp, &h, sizeof h);
	MDA_POISON(hp, sizeof h);
}

/* n bytes (zeroed when zero) from this thread's arena, or from malloc
 * when large. Never NULL: like bl_xmalloc(), it exits when memory runs
 * out, since cmark-gfm does not check (its own allocator aborts). */
static void *mda_take(size_t n, bool zero)
{
	struct mda *a = tl_mda;
	if (n > MDA_SMALL) {
		size_t total = n > SIZE_MAX - MDA_HDR ? SIZE_MAX : MDA_HDR + n;
		char *h = zero ? bl_xcalloc(1, total) : bl_xmalloc(total);
		*(struct mda_hdr *)(void *)h = (struct mda_hdr){ n, 1 };
		return h + MDA_HDR;
	}
	size_t cap = MDA_ROUND(n);
	size_t c = cap / MDA_HDR - 1;
	char *p;
	if (cap && c < MDA_CLASSES && a->freed[c]) {
		p = a->freed[c];
		MDA_UNPOISON(p, sizeof(void *));
		memcpy(&a->freed[c], p, sizeof(void *));
	} else {
		if ((size_t)(a->end - a->cur) < MDA_HDR + cap) {
			struct mda_block *b = mda_block_new();
			b->next = a->blocks;
			a->blocks = b;
			a->cur = (char *)b->data;
			a->end = a->cur + MDA_BLOCK;
			MDA_POISON(a->cur, MDA_BLOCK);
		}
		p = a->cur + MDA_HDR;
		a->cur = p + cap;
		a->last = p;
	}
	mda_set_hdr(p, n, 0);
	MDA_POISON(p, cap);
	MDA_UNPOISON(p, n);
	if (zero)
		memset(p, 0, n);
	return p;
}

static void *mda_calloc(size_t nmem, size_t size)
{
	return mda_take(size && nmem > SIZE_MAX / size ? SIZE_MAX : nmem * size, true);
}

static void mda_free(void *p)
{
	if (!p)
		return;
	struct mda_hdr h = mda_get_hdr(p);
	size_t cap = MDA_ROUND(h.size);
	if (h.heap) {
		free((char *)p - MDA_HDR);
	} else if (p == tl_mda->last) {      /* the newest: its space is free again */
		MDA_POISON(p, cap);
		tl_mda->cur = (char *)p - MDA_HDR;
		tl_mda->last = NULL;
	} else if (cap && cap / MDA_HDR - 1 < MDA_CLASSES) {
		size_t c = cap / MDA_HDR - 1;
		MDA_POISON(p, cap);
		MDA_UNPOISON(p, sizeof(void *));
		memcpy(p, &tl_mda->freed[c], sizeof(void *));
		MDA_POISON(p, sizeof(void *));
		tl_mda->freed[c] = p;
	} else {
		MDA_POISON(p, cap);
	}
}

static void *mda_realloc(void *p, size_t n)
{
	if (!p)
		return mda_take(n, false);
	struct mda_hdr h = mda_get_hdr(p);
	if (h.heap && n > MDA_SMALL) {
		char *hp = bl_xrealloc((char *)p - MDA_HDR, n > SIZE_MAX - MDA_HDR ? SIZE_MAX : MDA_HDR + n);
		((struct mda_hdr *)(void *)hp)->size = n;
		return hp + MDA_HDR;
	}
	if (n <= h.size)
		return p;
	if (!h.heap && n <= MDA_ROUND(h.size)) {   /* within its rounding */
		mda_set_hdr(p, n, 0);
		MDA_UNPOISON(p, n);
		return p;
	}
	struct mda *a = tl_mda;
	if (!h.heap && p == a->last && n <= MDA_SMALL) {   /* the newest: grown in place */
		size_t m = MDA_ROUND(n);
		if ((size_t)(a->end - (char *)p) >= m) {
			mda_set_hdr(p, n, 0);
			MDA_UNPOISON(p, n);
			a->cur = (char *)p + m;
			return p;
		}
	}
	void *q = mda_take(n, false);
	memcpy(q, p, h.size);
	mda_free(p);
	return q;
}

static void mda_release(struct mda *a)
{
	pthread_mutex_lock(&mda_pool_mu);
	while (a->blocks && mda_pool_n < MDA_POOL_MAX) {
		struct mda_block *b = a->blocks;
		a->blocks = b->next;
		MDA_POISON(b->data, MDA_BLOCK);
		b->next = mda_pool;
		mda_pool = b;
		mda_pool_n++;
	}
	pthread_mutex_unlock(&mda_pool_mu);
	while (a->blocks) {
		struct mda_block *next = a->blocks->next;
		MDA_UNPOISON(a->blocks->data, MDA_BLOCK);
		free(a->blocks);
		a->blocks = next;
	}
}

void bl_report_html_render_done(void)
{
	pthread_mutex_lock(&mda_pool_mu);
	struct mda_block *b = mda_pool;
	mda_pool = NULL;
	mda_pool_n = 0;
	pthread_mutex_unlock(&mda_pool_mu);
	while (b) {
		struct mda_block *next = b->next;
		MDA_UNPOISON(b->data, MDA_BLOCK);
		free(b);
		b = next;
	}
}

/* Parse md and render it with cmark-gfm's memory from mem. */
static int html_render(const char *md, size_t len, cmark_mem *mem, char **body_out)
{
	const int opts = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
	cmark_parser *p = cmark_parser_new_with_mem(opts, mem);
	if (!p)
		return -BL_ENOMEM;
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(p, table);
	cmark_parser_feed(p, md, len);
	cmark_node *doc = cmark_parser_finish(p);
	if (!doc) {
		cmark_parser_free(p);
		return -BL_ENOMEM;
	}
	char *body = cmark_render_html_with_mem(doc, opts, cmark_parser_get_syntax_extensions(p), mem);
	int rc = 0;
	if (body) {
		*body_out = bl_xstrdup(body);
		mem->free(body);
	} else {
		rc = -BL_ENOMEM;
	}
	cmark_node_free(doc);
	cmark_parser_free(p);
	return rc;
}

int bl_report_html_render(const char *md, size_t len, char **body_out)
{
	*body_out = NULL;
	pthread_once(&register_once, register_extensions);
	struct mda arena;
	memset(&arena, 0, sizeof arena);
	tl_mda = &arena;
	cmark_mem mem = { mda_calloc, mda_realloc, mda_free };
	int rc = html_render(md, len, &mem, body_out);
	tl_mda = NULL;
	mda_release(&arena);
	return rc;
}

int bl_report_html_write(const char *body, const char *base_dir, const char *title, FILE *out)
{
	return bl_report_html_write_parts(&body, 1, base_dir, title, out);
}

int bl_report_html_write_parts(const char *const *body, size_t nbody, const char *base_dir,
			       const char *title, FILE *out)
{
	int rc = 0;
	{
		fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "img-src data:; style-src 'unsafe-inline'\">\n"
		      "<meta name=\"generator\" content=\"benchlog " BENCHLOG_VERSION "\">\n<title>", out);
		put_escaped(out, title);
		fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", style);
		/* Piece by piece: an <img> or <h2> tag never spans two pieces
		 * (each is whole blocks of HTML). */
		struct bl_buf b = BL_BUF_INIT(0);
		for (size_t i = 0; i < nbody && !rc; i++) {
			bl_buf_reset(&b);
			rc = embed_images(body[i] ? body[i] : "", base_dir, &b);
			if (!rc)
				put_body_with_ids(out, b.data ? b.data : "");
		}
		bl_buf_release(&b);
		if (!rc) {
			fputs("</main>\n</body>\n</html>\n", out);
			if (ferror(out))
				rc = -BL_EIO;
		}
	}
	return rc;
}

int bl_report_html(const char *md, size_t len, const char *base_dir, const char *title, FILE *out)
{
	char *body = NULL;
	int rc = bl_report_html_render(md, len, &body);
	if (!rc)
		rc = bl_report_html_write(body, base_dir, title, out);
	free(body);
	return rc;
}

/* report.md is made of parts: the intro, one per section, then the note
 * and the tables; each after the first starts with a "## " heading or a
 * paragraph, after a blank line. cmark-gfm then renders each part to the
 * HTML the whole document gives for it, provided no part leaves a block
 * open that the next could continue and nothing refers across parts:
 * no fenced code block left open (an even number of fence lines of each
 * kind in every part), no link reference definition and no raw HTML
 * block anywhere (lines starting with '[' or '<'). True when these hold
 * (so the parts may be rendered apart, in parallel); the check depends
 * only on the text, so every -j makes the same choice. tests/test_report.c
 * compares the two renderings. */
bool bl_report_md_separable(const char *md, const size_t *cut, size_t nparts)
{
	for (size_t k = 0; k < nparts; k++) {
		const char *p = md + cut[k], *end = md + cut[k + 1];
		if (k && end > p && !(p[0] == '#' || (p[0] >= 'A' && p[0] <= 'Z')))
			return false;
		if (end - p >= 2 && (end[-1] != '\n' || end[-2] != '\n') && k + 1 < nparts)
			return false;
		unsigned long ticks = 0, tildes = 0;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end;
			const char *q = p;
			while (q < e && q - p < 3 && *q == ' ')
				q++;
			if (q < e && (*q == '[' || *q == '<'))
				return false;
			if (e - q >= 3 && q[0] == '`' && q[1] == '`' && q[2] == '`')
				ticks++;
			if (e - q >= 3 && q[0] == '~' && q[1] == '~' && q[2] == '~')
				tildes++;
			p = nl ? nl + 1 : end;
		}
		if (ticks % 2 || tildes % 2)
			return false;
	}
	return true;
}

size_t bl_report_md_split(const char *md, const size_t *cut, size_t nparts, size_t target,
			  size_t **out)
{
	size_t cap = nparts + 1, n = 0;
	size_t *v = bl_xcalloc(cap, sizeof *v);
	for (size_t k = 0; k < nparts; k++) {
		size_t a = cut[k], b = cut[k + 1], last = a;
		if (n + 1 >= cap)
			v = bl_xrealloc(v, (cap *= 2) * sizeof *v);
		v[n++] = a;
		if (b - a <= target)
			continue;
		char fence = 0;          /* '`' or '~' inside a fenced code block */
		bool blank_before = false;
		for (size_t p = a; p < b;) {
			const char *line = md + p;
			const char *nl = memchr(line, '\n', b - p);
			size_t len = nl ? (size_t)(nl - line) : b - p;
			size_t sp = 0;
			while (sp < len && sp < 3 && line[sp] == ' ')
				sp++;
			if (len - sp >= 3 && (line[sp] == '`' || line[sp] == '~') && line[sp + 1] == line[sp] &&
			    line[sp + 2] == line[sp]) {
				if (!fence)
					fence = line[sp];
				else if (fence == line[sp])
					fence = 0;
			} else if (!fence && blank_before && len && line[0] == '#' && p - last >= target) {
				if (n + 1 >= cap)
					v = bl_xrealloc(v, (cap *= 2) * sizeof *v);
				v[n++] = p;
				last = p;
			}
			blank_before = len == 0;
			p += len + (nl ? 1 : 0);
		}
	}
	v[n] = nparts ? cut[nparts] : 0;
	*out = v;
	return n;
}

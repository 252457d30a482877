/* report.c — `benchlog report`: parse in parallel, write the tables, the
 * skipped lines, the analyses' sections and charts, report.md and
 * report.html into a temporary folder, then swap it in (report.h). */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "analyze/analysis.h"
#include "core/util.h"
#include "plot/plot.h"
#include "report/html.h"
#include "report/outdir.h"
#include "report/ppass.h"
#include "report/report.h"

#define PREVIEW_ROWS 10

static const struct bl_col_def skipped_cols[] = {
	{ "reason", BL_STR, "why the line was not used (\"no format recognised\", \"blank line\", …)" },
	{ "text", BL_STR, "the line as the parsers saw it: quote prefix and colour escapes removed" },
};
static const struct bl_table_def skipped_table = {
	"skipped", "input lines that went into no record, label or header", 2, skipped_cols, NULL, NULL,
};

struct tstat {
	const struct bl_table_def *def;
	unsigned long rows;
	char **cells;                /* nprev rows of (3 + ncols) strings */
	size_t nprev;
};

struct rstate {
	const struct bl_report_opts *o;
	struct bl_ctx *ctx;
	struct bl_ctx *skipctx;      /* the context whose skipped lines on_skip gets */
	FILE *skipped;
	int skip_err;
	int skip_errno;              /* errno of the first failed write to it */
	struct bl_input_stats *in;
	size_t nin, capin;
	struct tstat *t;
	size_t nt;
};

/* ---- sinks ---- */

static void on_skip(void *ud, const struct bl_line *ln, const char *reason)
{
	struct rstate *rs = ud;
	struct bl_record r;
	bl_record_init(&r, &skipped_table, ln);
	r.group = rs->skipctx->group ? rs->skipctx->group : "";
	bl_set_str(&r, 0, reason);
	bl_set_str(&r, 1, ln->text ? ln->text : "");
	if (bl_csv_write_record(rs->skipped, &r) && !rs->skip_err) {
		rs->skip_err = -BL_EIO;
		rs->skip_errno = errno;
	}
}

static char *fmt_val(const struct bl_val *v)
{
	char num[40];
	switch (v->t) {
	case BL_NUM:
		bl_fmt_double(num, sizeof num, v->u.d);
		return bl_xstrdup(num);
	case BL_INT:
		return bl_xasprintf("%lld", v->u.i);
	case BL_STR:
		return bl_xstrdup(v->u.s ? v->u.s : "");
	case BL_NULL:
		break;
	}
	return bl_xstrdup("");
}

static int table_record(void *ud, const struct bl_record *r)
{
	struct rstate *rs = ud;
	struct tstat *t = NULL;
	for (size_t i = 0; i < rs->nt; i++)
		if (rs->t[i].def == r->table)
			t = &rs->t[i];
	if (!t) {
		rs->t = bl_xrealloc(rs->t, (rs->nt + 1) * sizeof *rs->t);
		t = &rs->t[rs->nt++];
		memset(t, 0, sizeof *t);
		t->def = r->table;
	}
	t->rows++;
	if (t->nprev < PREVIEW_ROWS) {
		size_t w = 3 + r->table->ncols;
		t->cells = bl_xrealloc(t->cells, (t->nprev + 1) * w * sizeof *t->cells);
		char **c = t->cells + t->nprev * w;
		c[0] = bl_xasprintf("%s:%lu", r->source ? r->source : "", r->line);
		c[1] = bl_xstrdup(r->group ? r->group : "");
		c[2] = r->run > 0 ? bl_xasprintf("%ld", r->run) : bl_xstrdup("");
		for (size_t k = 0; k < r->table->ncols; k++)
			c[3 + k] = fmt_val(&r->v[k]);
		t->nprev++;
	}
	return 0;
}

static void on_input(void *ud, const struct bl_input_stats *st)
{
	struct rstate *rs = ud;
	rs->in = bl_xgrow(rs->in, &rs->capin, rs->nin + 1, sizeof *rs->in);
	rs->in[rs->nin] = *st;
	rs->in[rs->nin].path = bl_xstrdup(st->path);
	rs->nin++;
}

static void rstate_free(struct rstate *rs)
{
	for (size_t i = 0; i < rs->nin; i++)
		free((char *)rs->in[i].path);
	free(rs->in);
	for (size_t i = 0; i < rs->nt; i++) {
		size_t w = 3 + rs->t[i].def->ncols;
		for (size_t k = 0; k < rs->t[i].nprev * w; k++)
			free(rs->t[i].cells[k]);
		free(rs->t[i].cells);
	}
	free(rs->t);
}

/* ---- Markdown ---- */

/* Input text inline: backslash before the punctuation that could start
 * markup, line ends and tabs as spaces. */
static void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		char c = *s;
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if (strchr("\\`*_[]<>|&!~#", c))
			fputc('\\', f);
		fputc(c, f);
	}
}

static int cmp_table(const void *a, const void *b)
{
	const struct tstat *x = a, *y = b;
	return strcmp(x->def->name, y->def->name);
}

static int cmp_count(const void *a, const void *b)
{
	const struct bl_count *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->reason, y->reason);
}

static void write_intro(FILE *md, const struct rstate *rs, const struct bl_ctx *ctx,
			const char *const *sections, size_t nsec)
{
	const struct bl_report_opts *o = rs->o;
	fprintf(md, "# benchlog report\n\n");
	fprintf(md, "Made by `benchlog report` (benchlog %s) from ", BENCHLOG_VERSION);
	if (o->ninputs == 0)
		fprintf(md, "standard input");
	size_t shown = o->ninputs <= 6 ? o->ninputs : 3;
	if (shown < o->ninputs)
		fprintf(md, "the %zu inputs named on the command line: ", o->ninputs);
	for (size_t i = 0; i < shown; i++) {
		if (i)
			fputs(i + 1 == o->ninputs ? " and " : ", ", md);
		md_text(md, o->inputs[i]);
	}
	if (shown < o->ninputs)
		fprintf(md, " and %zu more", o->ninputs - shown);
	fprintf(md, ".\n\n");
	unsigned long ntables = 0;
	for (size_t i = 0; i < rs->nt; i++)
		ntables += rs->t[i].rows > 0;
	fprintf(md, "**%zu input%s**, %lu lines: **%lu used**, %lu skipped; **%lu records** in %lu table%s. "
		    "Every skipped line is listed with its reason in [skipped.csv](skipped.csv); "
		    "the tables are in the folder [csv](csv/).\n\n",
		rs->nin, rs->nin == 1 ? "" : "s", ctx->lines_total, ctx->lines_used, ctx->lines_skipped,
		ctx->records, ntables, ntables == 1 ? "" : "s");
	unsigned long w = bl_warn_total(ctx);
	if (w || ctx->input_errors)
		fprintf(md, "%lu warning%s about the input (printed on standard error as `file:line: "
			    "message` when the report was made); %lu input%s could not be read in full.\n\n",
			w, w == 1 ? "" : "s", ctx->input_errors, ctx->input_errors == 1 ? "" : "s");
	if (nsec) {
		fprintf(md, "Sections:\n\n");
		for (size_t i = 0; i < nsec; i++) {
			char *slug = bl_report_slug(sections[i]);
			fprintf(md, "- [%s](#%s)\n", sections[i], slug);
			free(slug);
		}
		fprintf(md, "- [Tables](#tables)\n\n");
	} else {
		fprintf(md, "No benchmark data was recognised in these inputs: `skipped.csv` says what "
			    "was read and why each line was not used.\n\n");
	}

	fprintf(md, "## Inputs\n\nLines read from each input, and what became of them "
		    "(used + skipped = lines).\n\n");
	fprintf(md, "| input | lines | used | skipped | records | warnings |\n"
		    "|---|--:|--:|--:|--:|--:|\n");
	unsigned long sl = 0, su = 0, ss = 0, sr = 0, sw = 0;
	for (size_t i = 0; i < rs->nin; i++) {
		const struct bl_input_stats *s = &rs->in[i];
		fputs("| ", md);
		md_text(md, s->path);
		if (s->unreadable)
			fputs(" (could not be read in full)", md);
		fprintf(md, " | %lu | %lu | %lu | %lu | %lu |\n", s->lines, s->used, s->skipped,
			s->records, s->warnings);
		sl += s->lines;
		su += s->used;
		ss += s->skipped;
		sr += s->records;
		sw += s->warnings;
	}
	if (rs->nin != 1)
		fprintf(md, "| **total** | **%lu** | **%lu** | **%lu** | **%lu** | **%lu** |\n", sl, su, ss,
			sr, sw);
	fputc('\n', md);

	if (ctx->nskips) {
		struct bl_count *c = bl_xcalloc(ctx->nskips, sizeof *c);
		memcpy(c, ctx->skips, ctx->nskips * sizeof *c);
		qsort(c, ctx->nskips, sizeof *c, cmp_count);
		fprintf(md, "Skipped lines by reason:\n\n| reason | lines |\n|---|--:|\n");
		for (size_t i = 0; i < ctx->nskips; i++) {
			fputs("| ", md);
			md_text(md, c[i].reason);
			fprintf(md, " | %lu |\n", c[i].n);
		}
		fputc('\n', md);
		free(c);
	}
	if (ctx->nwarns) {
		struct bl_count *c = bl_xcalloc(ctx->nwarns, sizeof *c);
		memcpy(c, ctx->warns, ctx->nwarns * sizeof *c);
		qsort(c, ctx->nwarns, sizeof *c, cmp_count);
		fprintf(md, "Warnings by kind:\n\n| warning | count |\n|---|--:|\n");
		for (size_t i = 0; i < ctx->nwarns; i++) {
			fputs("| ", md);
			md_text(md, c[i].reason);
			fprintf(md, " | %lu |\n", c[i].n);
		}
		fputc('\n', md);
		free(c);
	}
}

/* "<name>-N.dat" files by N (all share the name). */
static int cmp_datnum(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '-'), *y = strrchr(*(char *const *)b, '-');
	long long nx = strtoll(x + 1, NULL, 10), ny = strtoll(y + 1, NULL, 10);
	return nx < ny ? -1 : nx > ny;
}

/* True when s is "<name><infix><digits><suffix>": a chart's data files
 * ("-", ".dat") and the script parts it loads ("-marks-", ".gp"). */
static bool is_part_file(const char *s, const char *name, const char *infix, const char *suffix)
{
	size_t n = strlen(name), m = strlen(infix);
	if (strncmp(s, name, n) != 0 || strncmp(s + n, infix, m) != 0)
		return false;
	s += n + m;
	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	return strcmp(s, suffix) == 0;
}

static bool file_exists(const char *dir, const char *name, const char *suffix)
{
	char *p = bl_xasprintf("%s/%s%s", dir, name, suffix);
	struct stat st;
	bool ok = stat(p, &st) == 0;
	free(p);
	return ok;
}

/* "Files: PNG · SVG · gnuplot script · data" line of one chart. With
 * images_due, gnuplot is still drawing: the PNG and SVG are listed as if
 * it had made them (report.md is written again if it did not). */
static void chart_files(FILE *md, const char *plots, const struct bl_chart *c, bool images_due)
{
	fprintf(md, "Files of chart `%s`:", c->name);
	const char *sep = " ";
	if (images_due || file_exists(plots, c->name, ".png")) {
		fprintf(md, "%s[PNG](plots/%s.png)", sep, c->name);
		sep = ", ";
	}
	if (images_due || file_exists(plots, c->name, ".svg")) {
		fprintf(md, "%s[SVG](plots/%s.svg)", sep, c->name);
		sep = ", ";
	}
	if (file_exists(plots, c->name, ".gp")) {
		fprintf(md, "%s[gnuplot script](plots/%s.gp)", sep, c->name);
		sep = ", ";
	}
	static const struct {
		const char *infix, *suffix, *what;
	} parts[] = { { "-", ".dat", "data " }, { "-marks-", ".gp", "event marks " } };
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
		DIR *d = opendir(plots);
		char **names = NULL;
		size_t n = 0;
		if (d) {
			struct dirent *de;
			while ((de = readdir(d)) != NULL) {
				if (is_part_file(de->d_name, c->name, parts[p].infix, parts[p].suffix)) {
					names = bl_xrealloc(names, (n + 1) * sizeof *names);
					names[n++] = bl_xstrdup(de->d_name);
				}
			}
			closedir(d);
		}
		if (n)
			qsort(names, n, sizeof *names, cmp_datnum);
		for (size_t i = 0; i < n; i++) {
			fprintf(md, "%s%s[%s](plots/%s)", sep, i == 0 ? parts[p].what : "", names[i],
				names[i]);
			sep = ", ";
			free(names[i]);
		}
		free(names);
	}
	fprintf(md, ".\n\n");
}

static void write_tables(FILE *md, struct rstate *rs)
{
	if (rs->nt == 0)
		return;
	qsort(rs->t, rs->nt, sizeof *rs->t, cmp_table);
	fprintf(md, "## Tables\n\nEvery record, one CSV file per table; columns and units are "
		    "documented in docs/csv.md and by `benchlog formats`.\n\n");
	fprintf(md, "| table | rows | file | contents |\n|---|--:|---|---|\n");
	for (size_t i = 0; i < rs->nt; i++) {
		const struct tstat *t = &rs->t[i];
		fprintf(md, "| %s | %lu | [csv/%s.csv](csv/%s.csv) | ", t->def->name, t->rows, t->def->name,
			t->def->name);
		md_text(md, t->def->doc);
		fprintf(md, " |\n");
	}
	fputc('\n', md);
	for (size_t i = 0; i < rs->nt; i++) {
		const struct tstat *t = &rs->t[i];
		size_t w = 3 + t->def->ncols;
		fprintf(md, "### %s\n\n", t->def->name);
		if (t->rows > t->nprev)
			fprintf(md, "The first %zu of %lu rows; all of them are in `csv/%s.csv`.\n\n", t->nprev,
				t->rows, t->def->name);
		/* Columns with no value in any row shown are left out. */
		bool *show = bl_xcalloc(w, sizeof *show);
		for (size_t r = 0; r < t->nprev; r++)
			for (size_t k = 0; k < w; k++)
				if (t->cells[r * w + k][0])
					show[k] = true;
		show[0] = show[1] = true;
		bool any_hidden = false;
		for (size_t k = 3; k < w; k++)
			any_hidden |= !show[k];
		if (any_hidden) {
			fprintf(md, "Empty in these rows, so not shown:");
			const char *sep = " ";
			for (size_t k = 3; k < w; k++) {
				if (show[k])
					continue;
				fputs(sep, md);
				md_text(md, t->def->cols[k - 3].name);
				sep = ", ";
			}
			fprintf(md, ".\n\n");
		}
		fputc('|', md);
		for (size_t k = 0; k < w; k++) {
			if (!show[k])
				continue;
			fputc(' ', md);
			md_text(md, k == 0 ? "source:line" : k == 1 ? "group" : k == 2 ? "run"
				: t->def->cols[k - 3].name);
			fputs(" |", md);
		}
		fputs("\n|", md);
		for (size_t k = 0; k < w; k++) {
			if (!show[k])
				continue;
			bool num = k == 2 || (k >= 3 && t->def->cols[k - 3].type != BL_STR);
			fputs(num ? "--:|" : "---|", md);
		}
		fputc('\n', md);
		for (size_t r = 0; r < t->nprev; r++) {
			char **c = t->cells + r * w;
			fputc('|', md);
			for (size_t k = 0; k < w; k++) {
				if (!show[k])
					continue;
				fputc(' ', md);
				md_text(md, c[k]);
				fputs(" |", md);
			}
			fputc('\n', md);
		}
		fputc('\n', md);
		free(show);
	}
}

/* ---- charts drawn side by side ---- */

/* With -j N > 1 the charts' gnuplot runs are queued (plot.h, deferred
 * runs) and drawn by N - 1 helper threads, one gnuplot each, while this
 * thread writes the sections and renders report.md; then this thread
 * draws what is left too. So at most N things run at once. A large
 * chart's PNG and SVG are drawn by two gnuplot runs (bl_gp_run_fmts), a
 * small chart's by one (below), and the costliest run is started first
 * (its cost follows the size of a chart's script and data: the swpd
 * chart's PNG takes over a second, a small chart a tenth).
 *
 * A chart whose script and data take fewer bytes than this is drawn in
 * PNG and SVG by one gnuplot run: a second run would start gnuplot and
 * read the data again (the small charts of the 10,000-file folder: runs
 * 0.11 + 0.05 s apart, 0.13 s together). Larger ones (the swpd chart,
 * 2 MB: 1.7 s for its PNG, 0.34 s for its SVG) are drawn by two runs side
 * by side. */
#define GB_SPLIT_BYTES (512ull * 1024)

struct gjob {
	char *dir, *script;          /* a chart's image; NULL for a part of report.html */
	const char *fmt;             /* "png", "svg" or "png svg" */
	size_t sec;                  /* index into the sections */
	const char *md;              /* a part of report.md to render */
	size_t mdlen;
	char *html;                  /* what it rendered to */
	unsigned long long cost;     /* a rough guess of the time it takes, in
					microseconds: a gnuplot run's start, 60,000
					for a PNG and 25,000 for an SVG, then 1 per
					byte of a chart's script and data for its
					PNG, 1/8 for its SVG; 1/10 per byte of
					Markdown (measured on the 10,000-file
					folder: the small charts took 70 to 85 ms
					for their PNG, 27 to 33 ms for their SVG) */
	bool taken;
	int rc;
	char *msg;                   /* gnuplot's stderr or why it failed */
};

struct gbatch {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct gjob *v;
	size_t n, left;              /* jobs, and jobs not taken yet */
	bool closed;                 /* no more jobs will come */
	size_t cur_sec;              /* the section whose charts are being made */
	volatile sig_atomic_t *stop;
	pthread_t *tid;
	unsigned nt;
};

static void gbatch_add(void *ud, const char *dir, const char *script, unsigned terms,
		       unsigned long long size)
{
	struct gbatch *b = ud;
	static const char *const fmt[] = { "png", "svg" };
	static const unsigned bit[] = { BL_PLOT_PNG, BL_PLOT_SVG };
	pthread_mutex_lock(&b->mu);
	if ((terms & BL_PLOT_PNG) && (terms & BL_PLOT_SVG) && size < GB_SPLIT_BYTES) {
		b->v = bl_xrealloc(b->v, (b->n + 1) * sizeof *b->v);
		b->v[b->n++] = (struct gjob){ bl_xstrdup(dir), bl_xstrdup(script), "png svg", b->cur_sec,
					      NULL, 0, NULL, 85000 + size + size / 8, false, 0, NULL };
		b->left++;
		terms = 0;
	}
	for (size_t k = 0; k < 2; k++) {
		if (!(terms & bit[k]))
			continue;
		b->v = bl_xrealloc(b->v, (b->n + 1) * sizeof *b->v);
		b->v[b->n++] = (struct gjob){ bl_xstrdup(dir), bl_xstrdup(script), fmt[k], b->cur_sec,
					      NULL, 0, NULL, k == 0 ? 60000 + size : 25000 + size / 8,
					      false, 0, NULL };
		b->left++;
	}
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

static void gbatch_add_md(struct gbatch *b, const char *md, size_t len)
{
	pthread_mutex_lock(&b->mu);
	b->v = bl_xrealloc(b->v, (b->n + 1) * sizeof *b->v);
	b->v[b->n++] = (struct gjob){ NULL, NULL, NULL, 0, md, len, NULL, len / 10, false, 0, NULL };
	b->left++;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

/* Draw the costliest queued chart image. wait: block until there is one
 * or the batch is closed. Returns false when nothing is left (or on a
 * stop). */
static bool gbatch_run_one(struct gbatch *b, bool wait)
{
	pthread_mutex_lock(&b->mu);
	while (wait && b->left == 0 && !b->closed && !(b->stop && *b->stop))
		pthread_cond_wait(&b->cv, &b->mu);
	if (b->left == 0 || (b->stop && *b->stop)) {
		pthread_mutex_unlock(&b->mu);
		return false;
	}
	size_t i = b->n;
	for (size_t k = 0; k < b->n; k++)
		if (!b->v[k].taken && (i == b->n || b->v[k].cost > b->v[i].cost))
			i = k;
	b->v[i].taken = true;
	b->left--;
	char *dir = b->v[i].dir, *script = b->v[i].script;
	const char *fmt = b->v[i].fmt;
	const char *md = b->v[i].md;
	size_t mdlen = b->v[i].mdlen;
	pthread_mutex_unlock(&b->mu);

	if (!script) {
		char *html = NULL;
		int hrc = bl_report_html_render(md, mdlen, &html);
		pthread_mutex_lock(&b->mu);
		b->v[i].rc = hrc;
		b->v[i].html = html;
		pthread_mutex_unlock(&b->mu);
		return true;
	}
	char *msg = NULL;
	int rc = bl_gp_run_fmts(dir, script, fmt, &msg);
	/* As plot.c does after a run: the image must be there. */
	size_t sl = strlen(script) > 3 ? strlen(script) - 3 : 0;   /* "<base>.gp" */
	for (const char *f = fmt; rc == 0 && *f; ) {   /* each format in fmt */
		size_t fl = strcspn(f, " ");
		char *img = bl_xasprintf("%s/%.*s.%.*s", dir, (int)sl, script, (int)fl, f);
		struct stat st;
		if (stat(img, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
			rc = -BL_EIO;
			if (!msg)
				msg = bl_xasprintf("gnuplot made no %.*s.%.*s", (int)sl, script, (int)fl, f);
		}
		free(img);
		f += fl;
		f += strspn(f, " ");
	}
	pthread_mutex_lock(&b->mu);
	b->v[i].rc = rc;
	b->v[i].msg = msg;
	pthread_mutex_unlock(&b->mu);
	return true;
}

static void *gbatch_thread(void *arg)
{
	struct gbatch *b = arg;
	while (gbatch_run_one(b, true))
		;
	return NULL;
}

static void gbatch_start(struct gbatch *b, unsigned helpers, volatile sig_atomic_t *stop)
{
	memset(b, 0, sizeof *b);
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	b->stop = stop;
	b->tid = bl_xcalloc(helpers ? helpers : 1, sizeof *b->tid);
	for (unsigned i = 0; i < helpers; i++)
		if (pthread_create(&b->tid[b->nt], NULL, gbatch_thread, b) == 0)
			b->nt++;
}

/* Close the queue, draw what is left on this thread too, wait for all. */
static void gbatch_finish(struct gbatch *b)
{
	pthread_mutex_lock(&b->mu);
	b->closed = true;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
	while (gbatch_run_one(b, false))
		;
	for (unsigned i = 0; i < b->nt; i++)
		pthread_join(b->tid[i], NULL);
	b->nt = 0;
}

static void gbatch_free(struct gbatch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].dir);
		free(b->v[i].script);
		free(b->v[i].msg);
		free(b->v[i].html);
	}
	free(b->v);
	free(b->tid);
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
}

/* One analysis's part of report.md. */
struct section {
	const struct bl_analysis *an;
	char *text;                  /* what an->write() wrote */
	size_t len;
	struct bl_chart *ch;
	size_t nch;
	int prc;                     /* how drawing went: an->plot()'s return,
					or the first failed deferred run */
};

/* report.md from its parts; images_due as for chart_files(). */
static int assemble_md(struct rstate *rs, const struct bl_ctx *ctx, const char *plots,
		       const char *const *titles, const struct section *sec, size_t nsec,
		       bool gnuplot_missing, bool images_due, char **md, size_t *mdlen,
		       size_t *cut)
{
	*md = NULL;
	*mdlen = 0;
	FILE *mdf = open_memstream(md, mdlen);
	if (!mdf)
		return -BL_ENOMEM;
	size_t ncut = 0;
	cut[ncut++] = 0;
	write_intro(mdf, rs, ctx, titles, nsec);
	for (size_t i = 0; i < nsec; i++) {
		const struct section *x = &sec[i];
		fflush(mdf);
		cut[ncut++] = *mdlen;
		fprintf(mdf, "## ");
		md_text(mdf, x->an->title);
		fprintf(mdf, "\n\n");
		fwrite(x->text, 1, x->len, mdf);
		if (x->len && x->text[x->len - 1] != '\n')
			fputc('\n', mdf);
		fputc('\n', mdf);
		if (x->prc < 0 && x->prc != -BL_ENOTFOUND)
			fprintf(mdf, "The charts of this section could not be drawn (%s).\n\n",
				bl_strerror(x->prc));
		for (size_t k = 0; k < x->nch; k++) {
			/* Each section shows its charts; add one the text left out. */
			char *ref = bl_xasprintf("](plots/%s.png)", x->ch[k].name);
			if (!x->text || !strstr(x->text, ref)) {
				fprintf(mdf, "Chart: ");
				md_text(mdf, x->ch[k].title);
				fprintf(mdf, " (`%s`)\n\n![", x->ch[k].name);
				md_text(mdf, x->ch[k].title);
				fprintf(mdf, "](plots/%s.png)\n\n", x->ch[k].name);
			}
			free(ref);
			chart_files(mdf, plots, &x->ch[k], images_due);
		}
	}
	fflush(mdf);
	cut[ncut++] = *mdlen;
	if (gnuplot_missing)
		fprintf(mdf, "Note: gnuplot was not found when this report was made, so the charts are "
			     "left as scripts and data in `plots/`: render them with "
			     "`cd plots && for f in *.gp; do gnuplot \"$f\"; done`, or install gnuplot and "
			     "run `benchlog report` again to have them embedded.\n\n");
	write_tables(mdf, rs);
	if (fclose(mdf) != 0) {
		free(*md);
		*md = NULL;
		return -BL_ENOMEM;
	}
	cut[ncut] = *mdlen;
	return 0;
}


/* Pieces of report.md rendered apart: its parts (intro, sections, tables)
 * cut further to about MD_PIECE bytes (html.h), when rendering them apart
 * gives the text of the whole; else the whole in one piece. The choice
 * depends only on the text, never on -j. *pc: nparts + 1 cuts.
 * A piece's cmark-gfm nodes take about 70 bytes per byte of Markdown:
 * 36 MiB for a piece of 512 KiB, which with -j2 shared the caches with a
 * gnuplot drawing a 21 MB image. Pieces of 64 KiB (4.5 MiB; the bench
 * folder's 14 MB report.md in 206 pieces, the largest a 690 KB table)
 * took 0.16 s less CPU with -j1 and 0.28 s less with -j2 than pieces of
 * 512 KiB, and 32 KiB no less than 64 (docs/performance.md). */
#define MD_PIECE (64 * 1024)
static size_t md_parts(const char *md, size_t mdlen, const size_t *cut, size_t nparts, size_t **pc)
{
	size_t n = bl_report_md_split(md, cut, nparts, MD_PIECE, pc);
	if (bl_report_md_separable(md, *pc, n))
		return n;
	(*pc)[0] = 0;
	(*pc)[1] = mdlen;
	return 1;
}

static void pieces_free(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

/* report.html's body, piece by piece on this thread: *body gets *nbody
 * heap strings (freed with pieces_free). */
static int render_parts(const char *md, size_t mdlen, const size_t *cut, size_t nparts, char ***body,
			size_t *nbody)
{
	size_t *pc = NULL;
	nparts = md_parts(md, mdlen, cut, nparts, &pc);
	char **v = bl_xcalloc(nparts, sizeof *v);
	int rc = 0;
	for (size_t k = 0; k < nparts && !rc; k++)
		rc = bl_report_html_render(md + pc[k], pc[k + 1] - pc[k], &v[k]);
	free(pc);
	*body = v;
	*nbody = nparts;
	return rc;
}

/* ---- the whole ---- */

/* The CSV sink makes its files with mkstemp() (mode 0600); a report folder
 * is meant to be shared like any file the user writes: 0666 less umask. */
static void share_files(const char *dir)
{
	mode_t um = umask(022);
	umask(um);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char *p = bl_xasprintf("%s/%s", dir, de->d_name);
		chmod(p, 0666 & ~um);
		free(p);
	}
	closedir(d);
}

/* Closing the tables: the CSV files flushed, synced and renamed into place
 * (the side context's finish; ok 0 drops them), skipped.csv closed, and
 * all of them given the user's mode. Mostly a wait for the disk (fsync:
 * 30 to 45 ms on the bench folder), so with -j2 and up it runs on a
 * thread of its own while the sections and charts are made, and is joined
 * before report.md is assembled. rc: 0, or -BL_EIO with err the errno of
 * the first failed write (taken on the thread that made it). */
struct tables_close {
	struct bl_ctx *side;
	struct rstate *rs;
	const char *csvdir;
	bool ok;
	pthread_t th;
	bool running;
	int rc, err;
};

static void *tables_close_run(void *arg)
{
	struct tables_close *tc = arg;
	int sfin = bl_ctx_finish(tc->side, tc->ok);
	int fin_errno = errno;
	struct rstate *rs = tc->rs;
	if (fclose(rs->skipped) != 0 && !rs->skip_err) {
		rs->skip_err = -BL_EIO;
		rs->skip_errno = errno;
	}
	rs->skipped = NULL;
	if (tc->side->error == -BL_EIO) {
		tc->rc = -BL_EIO;
		tc->err = tc->side->error_errno;
	} else if (sfin || rs->skip_err) {
		tc->rc = -BL_EIO;
		tc->err = sfin ? fin_errno : rs->skip_errno;
	} else if (tc->ok) {
		share_files(tc->csvdir);
	}
	return NULL;
}

/* Start closing the tables on a thread; closes them here when no thread
 * can be had. */
static void tables_close_start(struct tables_close *tc)
{
	if (pthread_create(&tc->th, NULL, tables_close_run, tc) == 0)
		tc->running = true;
	else
		tables_close_run(tc);
}

static void tables_close_join(struct tables_close *tc)
{
	if (tc->running)
		pthread_join(tc->th, NULL);
	tc->running = false;
}

static bool is_stopped(const struct bl_report_opts *o)
{
	return o->stop && *o->stop;
}

static int write_file(const char *dir, const char *name, const char *data, size_t len)
{
	char *p = bl_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	free(p);
	if (!f)
		return -BL_EIO;
	size_t n = len ? fwrite(data, 1, len, f) : 0;
	int rc = fclose(f);
	return n == len && rc == 0 ? 0 : -BL_EIO;
}

int bl_report_build(const struct bl_report_opts *o, struct bl_report_result *res)
{
	memset(res, 0, sizeof *res);
	FILE *diag = o->diag ? o->diag : stderr;
	struct bl_outdir od;
	const char *why = NULL;
	int rc = bl_outdir_begin(&od, o->dir, &why);
	if (rc == -BL_EUSAGE) {
		fprintf(diag, "benchlog report: %s %s\n", o->dir, why);
		return rc;
	}
	if (rc) {
		fprintf(diag, "benchlog report: cannot create a folder beside %s: %s\n", o->dir, strerror(errno));
		return rc;
	}
	char *csvdir = bl_xasprintf("%s/csv", od.tmp);
	char *plots = bl_xasprintf("%s/plots", od.tmp);
	char *skpath = bl_xasprintf("%s/skipped.csv", od.tmp);
	char *md = NULL, **body = NULL;  /* report.html's body in pieces */
	size_t nbody = 0;
	size_t mdlen = 0;
	size_t *cut = NULL;              /* report.md's parts (assemble_md) */
	struct section *secs = NULL;
	size_t nsecs = 0;
	struct gbatch gb;
	memset(&gb, 0, sizeof gb);
	bool deferred = false, batch_on = false;
	struct bl_ctx ctx, side;
	bl_ctx_init(&ctx, o->parse);
	ctx.diag = diag;
	/* The CSV files and skipped.csv are written from a second context,
	 * which the pass fills beside the analyses' (ppass.h, side). */
	bl_ctx_init(&side, o->parse);
	side.diag = NULL;
	struct rstate rs;
	memset(&rs, 0, sizeof rs);
	rs.o = o;
	rs.ctx = &ctx;
	rs.skipctx = &side;
	size_t na = 0;
	while (bl_analyses[na])
		na++;
	void **st = bl_xcalloc(na + 1, sizeof *st);
	struct bl_analysis_opts ao = o->an;
	ao.parse = o->parse;
	ao.keep_samples = true;
	const char **sections = bl_xcalloc(na + 1, sizeof *sections);
	size_t nsec = 0;
	bool finished = false;        /* ctx finished; side by tables_close */
	struct tables_close tc;
	memset(&tc, 0, sizeof tc);

	if (mkdir(csvdir, 0755) || mkdir(plots, 0755)) {
		fprintf(diag, "benchlog report: cannot create %s: %s\n", csvdir, strerror(errno));
		rc = -BL_EIO;
		goto out;
	}
	rs.skipped = fopen(skpath, "w");
	if (!rs.skipped || bl_csv_write_header(rs.skipped, &skipped_table)) {
		fprintf(diag, "benchlog report: cannot write %s: %s\n", skpath, strerror(errno));
		rc = -BL_EIO;
		goto out;
	}
	struct bl_sink s;
	if (bl_csv_dir_sink(&s, csvdir, NULL)) {
		fprintf(diag, "benchlog report: cannot write to %s: %s\n", csvdir, strerror(errno));
		rc = -BL_EIO;
		goto out;
	}
	bl_ctx_add_sink(&side, &s);
	s = (struct bl_sink){ table_record, NULL, NULL, &rs, NULL };
	bl_ctx_add_sink(&ctx, &s);
	for (size_t i = 0; i < na; i++) {
		st[i] = bl_analyses[i]->create(&ao);
		s = (struct bl_sink){ bl_analyses[i]->record, NULL, NULL, st[i], NULL };
		bl_ctx_add_sink(&ctx, &s);
	}
	side.skip.skipped = on_skip;
	side.skip.ud = &rs;

	/* The report's own folders are not read when they sit inside an input
	 * folder (`benchlog report -o out .`). */
	const char *exclude[] = { od.final, od.tmp };
	bool excluded_any = false;
	struct bl_ppass_opts po = {
		o->jobs ? o->jobs : 1, o->progress, o->stop, on_input, &rs, exclude, 2, &excluded_any,
		&side,
	};
	rc = bl_ppass_run(&ctx, o->inputs, o->ninputs, &po);
	if (excluded_any)
		fprintf(diag, "benchlog report: not reading %s (the report's own folder, inside an input "
			      "folder)\n", od.final);
	if (rc == -BL_EINTR || is_stopped(o)) {
		rc = -BL_EINTR;
		goto out;
	}
	if (rc == -BL_EUSAGE)
		goto out;
	int fin = bl_ctx_finish(&ctx, rc == 0);
	int fin_errno = errno;
	finished = true;
	tc.side = &side;
	tc.rs = &rs;
	tc.csvdir = csvdir;
	tc.ok = !rc && !fin;
	if (tc.ok && o->jobs > 1) {
		tables_close_start(&tc);
	} else {
		tables_close_run(&tc);
		if (rc || fin || tc.rc) {
			const char *what = rc && rc != -BL_EIO ? bl_strerror(rc)
					  : ctx.error == -BL_EIO ? strerror(ctx.error_errno)
					  : tc.rc ? strerror(tc.err)
					  : fin && fin != -BL_EIO ? bl_strerror(fin) : strerror(fin_errno);
			fprintf(diag, "benchlog report: cannot write the tables: %s\n", what);
			rc = -BL_EIO;
			goto out;
		}
	}
	res->inputs = rs.nin;
	res->lines = ctx.lines_total;
	res->used = ctx.lines_used;
	res->skipped = ctx.lines_skipped;
	res->records = ctx.records;
	res->warnings = bl_warn_total(&ctx);
	res->input_errors = ctx.input_errors;
	for (size_t i = 0; i < rs.nin; i++)
		if (rs.in[i].used + rs.in[i].skipped != rs.in[i].lines)
			fprintf(diag, "benchlog report: %s: %lu lines but %lu used + %lu skipped "
				      "(a line-accounting bug; please report it)\n",
				rs.in[i].path, rs.in[i].lines, rs.in[i].used, rs.in[i].skipped);
	if (o->parse->strict && (res->warnings || res->input_errors)) {
		fprintf(diag, "benchlog report: --strict: input was malformed or unreadable; "
			      "%s left as it was\n", o->dir);
		rc = -BL_EFORMAT;
		goto out;
	}

	/* Sections and charts, in registry order. With -j N > 1 the charts are
	 * drawn by N - 1 helpers while this thread goes on (struct gbatch). */
	struct bl_chart_opts co = { plots, BL_PLOT_PNG | BL_PLOT_SVG };
	deferred = o->jobs > 1 && bl_gp_available();
	if (deferred) {
		gbatch_start(&gb, o->jobs - 1, o->stop);
		batch_on = true;
		bl_plot_defer(gbatch_add, &gb);
	}
	for (size_t i = 0; i < na; i++)
		if (bl_analyses[i]->has_data(st[i]))
			sections[nsec++] = bl_analyses[i]->title;
	secs = bl_xcalloc(nsec ? nsec : 1, sizeof *secs);
	for (size_t i = 0; i < na && !is_stopped(o); i++) {
		const struct bl_analysis *an = bl_analyses[i];
		if (!an->has_data(st[i]))
			continue;
		struct section *x = &secs[nsecs++];
		x->an = an;
		res->sections++;
		if (an->plot) {
			gb.cur_sec = nsecs - 1;
			x->prc = an->plot(st[i], &co, &x->ch, &x->nch);
			if (is_stopped(o)) {          /* gnuplot got the signal too */
				rc = -BL_EINTR;
				goto out;
			}
			if (x->prc == -BL_ENOTFOUND) {
				res->gnuplot_missing = true;
			} else if (x->prc < 0) {
				res->chart_failed = true;
				fprintf(diag, "benchlog report: warning: the %s charts could not be drawn "
					"(%s); their section says so\n", an->name,
					bl_strerror(x->prc));
			}
		}
		FILE *sf = open_memstream(&x->text, &x->len);
		if (!sf) {
			rc = -BL_ENOMEM;
			goto out;
		}
		int wrc = an->write(st[i], sf, BL_DOC_MD, x->ch, x->nch);
		fclose(sf);
		res->charts += x->nch;
		if (wrc) {
			rc = wrc;
			fprintf(diag, "benchlog report: cannot write the %s section: %s\n", an->name,
				bl_strerror(wrc));
			goto out;
		}
	}
	bl_plot_defer(NULL, NULL);
	tables_close_join(&tc);
	if (is_stopped(o)) {
		rc = -BL_EINTR;
		goto out;
	}
	if (tc.rc) {
		fprintf(diag, "benchlog report: cannot write the tables: %s\n", strerror(tc.err));
		rc = -BL_EIO;
		goto out;
	}
	cut = bl_xcalloc(nsecs + 3, sizeof *cut);
	if ((rc = assemble_md(&rs, &ctx, plots, sections, secs, nsecs, res->gnuplot_missing, deferred,
			      &md, &mdlen, cut)) != 0)
		goto out;
	/* report.html: its parts rendered apart (side by side with the charts
	 * when deferred) when that gives the same text, else in one piece. */
	if (deferred) {
		size_t *pc = NULL;
		size_t nparts = md_parts(md, mdlen, cut, nsecs + 2, &pc);
		for (size_t k = 0; k < nparts; k++)
			gbatch_add_md(&gb, md + pc[k], pc[k + 1] - pc[k]);
		free(pc);
		/* Most likely the final text: written while gnuplot draws. */
		if ((rc = write_file(od.tmp, "report.md", md, mdlen)) != 0) {
			fprintf(diag, "benchlog report: cannot write report.md: %s\n", strerror(errno));
			goto out;
		}
		gbatch_finish(&gb);
		if (is_stopped(o)) {
			rc = -BL_EINTR;
			goto out;
		}
		body = bl_xcalloc(gb.n ? gb.n : 1, sizeof *body);
		for (size_t k = 0; k < gb.n && !rc; k++) {
			struct gjob *g = &gb.v[k];
			if (g->script)
				continue;
			rc = g->rc;
			body[nbody++] = g->html;
			g->html = NULL;
		}
		/* The charts that failed, as the serial run reports them (once a
		 * chart, though its two images may both have failed). */
		for (size_t k = 0; k < gb.n; k++) {
			const struct gjob *g = &gb.v[k];
			if (!g->script)
				continue;
			struct section *x = &secs[g->sec];
			if (!g->rc || (k && gb.v[k - 1].script && gb.v[k - 1].rc &&
				       strcmp(gb.v[k - 1].script, g->script) == 0 &&
				       strcmp(gb.v[k - 1].dir, g->dir) == 0))
				continue;
			size_t sl = strlen(g->script) > 3 ? strlen(g->script) - 3 : 0;
			if (g->msg)
				fprintf(diag, "benchlog: %.*s chart: %s\n", (int)sl, g->script, g->msg);
			if (x->prc >= 0) {
				x->prc = g->rc;
				res->chart_failed = true;
				fprintf(diag, "benchlog report: warning: the %s charts could not be drawn "
					"(%s); their section says so\n",
					x->an->name, bl_strerror(g->rc));
			}
		}
		/* report.md as a serial run writes it: when every chart was
		 * drawn and every image made, the text listing them before they
		 * existed is that text; else it is assembled again, now that the
		 * images are there (or not), and rendered again if it differs. */
		bool all_drawn = true;
		for (size_t k = 0; k < gb.n; k++)
			all_drawn &= !gb.v[k].script || gb.v[k].rc == 0;
		for (size_t i = 0; i < nsecs; i++)
			all_drawn &= secs[i].prc == 0;
		if (!all_drawn) {
			char *md2 = NULL;
			size_t md2len = 0;
			int arc = assemble_md(&rs, &ctx, plots, sections, secs, nsecs, res->gnuplot_missing,
					      false, &md2, &md2len, cut);
			if (arc) {
				rc = arc;
				goto out;
			}
			if (md2len != mdlen || memcmp(md2, md, mdlen) != 0) {
				free(md);
				md = md2;
				mdlen = md2len;
				pieces_free(body, nbody);
				body = NULL;
				nbody = 0;
				rc = render_parts(md, mdlen, cut, nsecs + 2, &body, &nbody);
				if (!rc && (rc = write_file(od.tmp, "report.md", md, mdlen)) != 0) {
					fprintf(diag, "benchlog report: cannot write report.md: %s\n",
						strerror(errno));
					goto out;
				}
			} else {
				free(md2);
			}
		}
	} else {
		rc = render_parts(md, mdlen, cut, nsecs + 2, &body, &nbody);
		if (!rc && (rc = write_file(od.tmp, "report.md", md, mdlen)) != 0) {
			fprintf(diag, "benchlog report: cannot write report.md: %s\n", strerror(errno));
			goto out;
		}
	}
	if (rc) {
		fprintf(diag, "benchlog report: cannot render report.html: %s\n", bl_strerror(rc));
		goto out;
	}
	char *hp = bl_xasprintf("%s/report.html", od.tmp);
	FILE *hf = fopen(hp, "w");
	free(hp);
	if (!hf) {
		fprintf(diag, "benchlog report: cannot write report.html: %s\n", strerror(errno));
		rc = -BL_EIO;
		goto out;
	}
	rc = bl_report_html_write_parts((const char *const *)body, nbody, od.tmp, "benchlog report", hf);
	int err = errno;
	if (fclose(hf) != 0 && !rc) {
		rc = -BL_EIO;
		err = errno;
	}
	if (rc) {
		fprintf(diag, "benchlog report: cannot write report.html: %s\n",
			rc == -BL_EIO ? strerror(err) : bl_strerror(rc));
		goto out;
	}
	if (is_stopped(o)) {
		rc = -BL_EINTR;
		goto out;
	}
	if (bl_outdir_commit(&od)) {
		fprintf(diag, "benchlog report: cannot put the report in place at %s: %s\n", o->dir,
			strerror(errno));
		rc = -BL_EIO;
		goto out;
	}
	if (res->gnuplot_missing)
		fprintf(diag, "benchlog report: gnuplot not found: the charts are scripts and data in %s/plots; "
			      "render them with: cd %s/plots && for f in *.gp; do gnuplot \"$f\"; done\n",
			od.final, od.final);
	if (!o->parse->quiet)
		bl_diag_summary(&ctx, diag);
out:
	bl_plot_defer(NULL, NULL);
	tables_close_join(&tc);
	if (batch_on) {
		gbatch_finish(&gb);            /* after a stop: only the running ones */
		gbatch_free(&gb);
	}
	bl_report_html_render_done();  /* every rendering is over */
	for (size_t i = 0; i < nsecs; i++) {
		free(secs[i].text);
		bl_charts_free(secs[i].ch, secs[i].nch);
	}
	free(secs);
	free(cut);
	free(md);
	pieces_free(body, nbody);
	if (rs.skipped)
		fclose(rs.skipped);
	if (!finished) {
		bl_ctx_finish(&ctx, 0);
		bl_ctx_finish(&side, 0);
	}
	for (size_t i = 0; i < na; i++)
		if (st[i])
			bl_analyses[i]->destroy(st[i]);
	free(st);
	free(sections);
	bl_ctx_release(&ctx);
	bl_ctx_release(&side);
	rstate_free(&rs);
	if (rc)
		bl_outdir_abort(&od);
	else
		bl_outdir_release(&od);
	free(csvdir);
	free(plots);
	free(skpath);
	return rc;
}

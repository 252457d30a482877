/* report.c — `benchlog report`: parse in parallel, write the tables, the
 * skipped lines, the analyses' sections and charts, report.md and
 * report.html into a temporary folder, then swap it in (report.h). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <csv.h>
#include "core/escape.h"
#include "analyze/analysis.h"
#include "analyze/table_stats.h"
#include "core/strmap.h"
#include "core/util.h"
#include "plot/plot.h"
#include "report/html.h"
#include "report/outdir.h"
#include "report/ppass.h"
#include "report/report.h"
#include "report/findings.h"
#include "tables/sqlite.h"

#define PREVIEW_ROWS 10

/* skipped.csv (docs/report.md): one row per run of consecutive skipped
 * lines of one source with the same reason and message, so that its size
 * follows the input's structure, not its length. */
#define SKIP_TEXT_MAX 200
static const char skipped_header[] = "source,first_line,last_line,lines,reason,message_id,text\n";

/* The report page lists in full only the skipped runs that sit near data,
 * where data can be lost (issue 26): the runs skipped inside recognised
 * data (a parser's own reason: a malformed row, an incomplete record, a
 * value range), and the lines no parser claimed ("no format recognised")
 * in a mail message or plain file that gave records; at most NEAR_MAX of
 * each, the rest as counts per reason. Lines no parser claimed elsewhere
 * and the structure of mail are counted only. */
#define NEAR_MAX 100
static const char *const far_reasons[] = {
	"no format recognised", "blank line", "mail header", "mbox separator",
	"soft line break (joined to the line before)", "encoded line (decoded text has fewer lines)",
	"html markup", "html alternative", "alternative part", "non-text part", "pgp armor",
	"signature", "list footer", "line contains NUL bytes",
	/* a line that reads like `time CMD` with no histogram after it: prose
	 * such as "time is a shell keyword" as often as a command */
	"command line without latency output", NULL,
};

static bool near_data(const char *reason)
{
	if (strncmp(reason, "duplicate of the message at ", 28) == 0)
		return false;
	for (size_t i = 0; far_reasons[i]; i++)
		if (strcmp(reason, far_reasons[i]) == 0)
			return false;
	return true;
}

struct nearrun {
	char *source, *reason, *text;
	unsigned long first, last;
};

/* Runs listed in full: the first NEAR_MAX kept, all of them counted. */
struct nearlist {
	struct nearrun v[NEAR_MAX];
	size_t n;
	unsigned long runs, lines;
};

/* The run being gathered: strings owned. */
struct skiprun {
	bool open;
	char *source, *reason, *msgid;
	unsigned long first, last;
	char text[SKIP_TEXT_MAX + 1];
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
	struct skiprun run;
	struct nearlist near;        /* skipped inside recognised data */
	struct nearlist prose;       /* no format recognised, in a unit with records */
	struct bl_strmap rec_units;  /* unit_key() of the units that gave records */
	size_t rec_last;             /* 1 + the index of the last record's unit; 0 none */
	int skip_err;
	int skip_errno;              /* errno of the first failed write to it */
	struct bl_input_stats *in;
	size_t nin, capin;
	struct tstat *t;
	size_t nt;
	struct bl_strmap groups;     /* every record's group, for --baseline */
};

/* ---- sinks ---- */

/* One field of skipped.csv, RFC 4180-quoted by libcsv, valid UTF-8. */
static void skip_field(FILE *f, const char *s, bool last)
{
	char *fixed = NULL;
	const char *t = bl_utf8_clean(s ? s : "", &fixed);
	if (strpbrk(t, ",\"\r\n"))
		csv_fwrite(f, t, strlen(t));
	else
		fputs(t, f);
	free(fixed);
	fputc(last ? '\n' : ',', f);
}

/* Add a run to l (its strings copied). */
static void nearlist_add(struct nearlist *l, const char *source, const char *reason, const char *text,
			 unsigned long first, unsigned long last)
{
	l->runs++;
	l->lines += last - first + 1;
	if (l->n < NEAR_MAX)
		l->v[l->n++] = (struct nearrun){ bl_xstrdup(source), bl_xstrdup(reason), bl_xstrdup(text),
						 first, last };
}

static void nearlist_release(struct nearlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].source);
		free(l->v[i].reason);
		free(l->v[i].text);
	}
	l->n = 0;
	l->runs = l->lines = 0;
}

/* A unit of the input, for the listing of prose near data: a mail
 * message, or a plain file (msgid ""). The pass replays each piece of
 * about 1 MiB of an input records first, then skipped lines (ppass.h), so
 * a unit is known to have given records when its prose lines come, except
 * a message whose records fall in a later piece than its lines: those are
 * counted only. The set is emptied when it reaches UNITS_MAX keys. */
#define UNITS_MAX 65536
static char *unit_key(const char *source, const char *msgid)
{
	return bl_xasprintf("%s%c%s", source, 0x1f, msgid);
}

/* Whether key is unit_key(source, msgid), without making it. */
static bool unit_is(const char *key, const char *source, const char *msgid)
{
	size_t l = strlen(source);
	return strncmp(key, source, l) == 0 && key[l] == 0x1f && strcmp(key + l + 1, msgid) == 0;
}

/* Write the run gathered so far, if any, and close it. */
static void skiprun_flush(struct rstate *rs)
{
	struct skiprun *k = &rs->run;
	if (!k->open)
		return;
	FILE *f = rs->skipped;
	skip_field(f, k->source, false);
	fprintf(f, "%lu,%lu,%lu,", k->first, k->last, k->last - k->first + 1);
	skip_field(f, k->reason, false);
	skip_field(f, k->msgid, false);
	skip_field(f, k->text, true);
	if (ferror(f) && !rs->skip_err) {
		rs->skip_err = -BL_EIO;
		rs->skip_errno = errno;
	}
	if (near_data(k->reason)) {
		nearlist_add(&rs->near, k->source, k->reason, k->text, k->first, k->last);
	} else if (strcmp(k->reason, "no format recognised") == 0) {
		char *key = unit_key(k->source, k->msgid);
		if (bl_strmap_find(&rs->rec_units, key) >= 0)
			nearlist_add(&rs->prose, k->source, k->reason, k->text, k->first, k->last);
		free(key);
	}
	free(k->source);
	free(k->reason);
	free(k->msgid);
	k->source = k->reason = k->msgid = NULL;
	k->open = false;
}

/* Up to max bytes of s[0..n), cut at a UTF-8 character boundary. */
static size_t utf8_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	size_t i = max;
	while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

/* A blank line, skipped as such or as the empty line that ends a message
 * before the next mbox separator: it does not break the run it follows. */
static bool absorbed(const struct bl_line *ln, const char *reason)
{
	if (strcmp(reason, "blank line") == 0)
		return true;
	if (strcmp(reason, "mbox separator") != 0 || !ln->text)
		return false;
	for (size_t i = 0; i < ln->len; i++)
		if (ln->text[i] != ' ' && ln->text[i] != '\t')
			return false;
	return true;
}

/* Runs of skipped.csv (docs/csv.md): consecutive lines of one source and
 * message with the same reason (a line's note, when it has one, stands
 * for its reason); a blank line joins the run before it,
 * and a message's mbox separator line the header run after it (the run
 * then counts as "mail header"). A run's lines may so include lines of
 * another reason; the per-reason totals are the report's counts. */
static void on_skip(void *ud, const struct bl_line *ln, const char *reason, const char *note)
{
	struct rstate *rs = ud;
	if (note)                    /* "duplicate of the message at FILE:LINE" */
		reason = note;
	struct skiprun *k = &rs->run;
	const char *src = ln->source ? ln->source : "";
	const char *mid = ln->msg && ln->msg->message_id ? ln->msg->message_id : "";
	if (k->open && ln->lineno == k->last + 1 && strcmp(k->source, src) == 0 &&
	    strcmp(k->msgid, mid) == 0) {
		if (strcmp(k->reason, reason) == 0 || absorbed(ln, reason)) {
			k->last = ln->lineno;
			return;
		}
		if (strcmp(k->reason, "mbox separator") == 0 && strcmp(reason, "mail header") == 0) {
			free(k->reason);
			k->reason = bl_xstrdup(reason);
			k->last = ln->lineno;
			return;
		}
	}
	skiprun_flush(rs);
	k->open = true;
	k->source = bl_xstrdup(src);
	k->reason = bl_xstrdup(reason);
	k->msgid = bl_xstrdup(mid);
	k->first = k->last = ln->lineno;
	size_t n = ln->text ? utf8_cut(ln->text, ln->len, SKIP_TEXT_MAX) : 0;
	if (n)
		memcpy(k->text, ln->text, n);
	k->text[n] = '\0';
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
	const char *src = r->source ? r->source : "";
	const char *mid = r->msg && r->msg->message_id ? r->msg->message_id : "";
	/* records come in runs of one unit: only a new one is looked up */
	if (!rs->rec_last || !unit_is(bl_strmap_key(&rs->rec_units, rs->rec_last - 1), src, mid)) {
		if (rs->rec_units.n >= UNITS_MAX)
			bl_strmap_release(&rs->rec_units);
		char *key = unit_key(src, mid);
		rs->rec_last = 1 + bl_strmap_get(&rs->rec_units, key, NULL);
		free(key);
	}
	bl_strmap_get(&rs->groups, r->group ? r->group : "", NULL);
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
	bl_strmap_release(&rs->groups);
}

/* ---- Markdown (input text through core/escape.h, E1) ---- */

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

/* A list of skipped runs in full, in a <details> block titled what. */
static void write_runs(FILE *md, const struct nearlist *l, const char *what)
{
	if (!l->runs)
		return;
	bl_md_details_open(md, what);
	fprintf(md, "%s: %lu line%s in %lu run%s%s:\n\n"
		    "| input | lines | reason | first line |\n|---|---|---|---|\n",
		what, l->lines, l->lines == 1 ? "" : "s", l->runs, l->runs == 1 ? "" : "s",
		l->runs > l->n ? " (the first 100 here, all in skipped.csv)" : "");
	for (size_t i = 0; i < l->n; i++) {
		const struct nearrun *n = &l->v[i];
		fputs("| ", md);
		bl_fput_md_inline(md, n->source);
		if (n->first == n->last)
			fprintf(md, " | %lu | ", n->first);
		else
			fprintf(md, " | %lu-%lu | ", n->first, n->last);
		bl_fput_md_inline(md, n->reason);
		fputs(" | ", md);
		bl_fput_md_inline(md, n->text);
		fputs(" |\n", md);
	}
	fputc('\n', md);
	bl_md_details_close(md);
}

static void write_intro(FILE *md, const struct rstate *rs, const struct bl_ctx *ctx,
			const char *const *sections, size_t nsec, struct bl_cmp_rows *findings,
			double conf)
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
		bl_fput_md_inline(md, o->inputs[i]);
	}
	if (shown < o->ninputs)
		fprintf(md, " and %zu more", o->ninputs - shown);
	fprintf(md, ".\n\n");
	/* the answer first (findings.h), then what was read */
	bl_report_findings(md, findings, conf);
	fprintf(md, "## Inputs\n\n");
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
		fprintf(md, "Sections after this one:\n\n");
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

	fprintf(md, "Lines read from each input, and what became of them "
		    "(used + skipped = lines).\n\n");
	fprintf(md, "| input | lines | used | skipped | records | warnings |\n"
		    "|---|--:|--:|--:|--:|--:|\n");
	unsigned long sl = 0, su = 0, ss = 0, sr = 0, sw = 0;
	for (size_t i = 0; i < rs->nin; i++) {
		const struct bl_input_stats *s = &rs->in[i];
		if (i < BL_MD_SHOWN) {
			fputs("| ", md);
			bl_fput_md_inline(md, s->path);
			if (s->unreadable)
				fputs(" (could not be read in full)", md);
			fprintf(md, " | %lu | %lu | %lu | %lu | %lu |\n", s->lines, s->used, s->skipped,
				s->records, s->warnings);
		} else if (i == BL_MD_SHOWN) {
			fprintf(md, "| %zu more inputs, each in [inputs.csv](inputs.csv) | | | | | |\n",
				rs->nin - BL_MD_SHOWN);
		}
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
		bl_md_details_open(md, "Skipped lines by reason");
		fprintf(md, "Skipped lines by reason:\n\n| reason | lines |\n|---|--:|\n");
		for (size_t i = 0; i < ctx->nskips; i++) {
			fputs("| ", md);
			bl_fput_md_inline(md, c[i].reason);
			fprintf(md, " | %lu |\n", c[i].n);
		}
		fputc('\n', md);
		bl_md_details_close(md);
		free(c);
	}
	write_runs(md, &rs->near, "Skipped inside recognised data, where data can be lost");
	write_runs(md, &rs->prose, "Lines no parser read, in messages and files that gave records");
	if (ctx->nwarns) {
		struct bl_count *c = bl_xcalloc(ctx->nwarns, sizeof *c);
		memcpy(c, ctx->warns, ctx->nwarns * sizeof *c);
		qsort(c, ctx->nwarns, sizeof *c, cmp_count);
		fprintf(md, "Warnings by kind:\n\n| warning | count |\n|---|--:|\n");
		for (size_t i = 0; i < ctx->nwarns; i++) {
			fputs("| ", md);
			bl_fput_md_inline(md, c[i].reason);
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

/* "Files: PNG · SVG · gnuplot script · data" line of one chart. */
static void chart_files(FILE *md, const char *plots, const struct bl_chart *c)
{
	fprintf(md, "Files of chart `%s`:", c->name);
	const char *sep = " ";
	if (file_exists(plots, c->name, ".png")) {
		fprintf(md, "%s[PNG](plots/%s.png)", sep, c->name);
		sep = ", ";
	}
	if (file_exists(plots, c->name, ".svg")) {
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
		bl_fput_md_inline(md, t->def->doc);
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
				bl_fput_md_inline(md, t->def->cols[k - 3].name);
				sep = ", ";
			}
			fprintf(md, ".\n\n");
		}
		fputc('|', md);
		for (size_t k = 0; k < w; k++) {
			if (!show[k])
				continue;
			fputc(' ', md);
			bl_fput_md_inline(md, k == 0 ? "source:line" : k == 1 ? "group" : k == 2 ? "run"
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
				bl_fput_md_inline(md, c[k]);
				fputs(" |", md);
			}
			fputc('\n', md);
		}
		fputc('\n', md);
		free(show);
	}
}

/* ---- charts ---- */

/* While the sections are made, each chart's gnuplot script and data are
 * written (plot.h, script_only) and its run queued; once every section is
 * written the runs are jobs on the pool (-j), costliest first. */
struct chart_job {
	char *dir, *script;
	char fmts[8];                /* "png svg" */
	size_t sec;                  /* index into the sections */
	unsigned long long bytes;    /* the script and its data: a guess of
					how long gnuplot takes */
	volatile sig_atomic_t *stop;
	int rc;
	char *msg;                   /* gnuplot's stderr or why it failed */
};

struct charts {
	struct chart_job *v;
	size_t n;
	volatile sig_atomic_t *stop;
};

static void chart_queue(struct charts *q, const char *dir, const struct bl_chart *c, size_t sec)
{
	q->v = bl_xrealloc(q->v, (q->n + 1) * sizeof *q->v);
	struct chart_job *j = &q->v[q->n++];
	memset(j, 0, sizeof *j);
	j->dir = bl_xstrdup(dir);
	j->script = bl_xasprintf("%s.gp", c->name);
	snprintf(j->fmts, sizeof j->fmts, "png svg");
	j->sec = sec;
	j->bytes = c->bytes;
}

/* Run gnuplot for one chart and check that it made each image. */
static void chart_draw(struct chart_job *j)
{
	j->rc = bl_gp_run_fmts(j->dir, j->script, j->fmts, &j->msg);
	size_t sl = strlen(j->script) > 3 ? strlen(j->script) - 3 : 0;   /* "<base>.gp" */
	for (const char *f = j->fmts; j->rc == 0 && *f; ) {
		size_t fl = strcspn(f, " ");
		char *img = bl_xasprintf("%s/%.*s.%.*s", j->dir, (int)sl, j->script, (int)fl, f);
		struct stat st;
		if (stat(img, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
			j->rc = -BL_EIO;
			if (!j->msg)
				j->msg = bl_xasprintf("gnuplot made no %.*s.%.*s", (int)sl, j->script, (int)fl, f);
		}
		free(img);
		f += fl;
		f += strspn(f, " ");
	}
}

static int cmp_chart_cost(const void *a, const void *b)
{
	const struct chart_job *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->sec < y->sec ? -1 : x->sec > y->sec;
}

static int cmp_chart_order(const void *a, const void *b)
{
	const struct chart_job *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return strcmp(x->script, y->script);
}

/* A job on the pool: one chart drawn, unless the run was stopped. */
static void chart_job(void *arg)
{
	struct chart_job *j = arg;
	if (j->stop && *j->stop)
		return;
	chart_draw(j);
}

/* Queue every chart as a job on the pool (-j), the costliest first; with
 * no worker (-j1) each is drawn here before this returns. */
static void charts_start(struct charts *q, struct bl_pool *pool)
{
	if (q->n)   /* q->v NULL when no chart: qsort must not see it (UBSan) */
		qsort(q->v, q->n, sizeof *q->v, cmp_chart_cost);
	for (size_t i = 0; i < q->n; i++) {
		q->v[i].stop = q->stop;
		bl_pool_submit(pool, chart_job, &q->v[i]);
	}
}

/* Wait for the charts charts_start() queued. Afterwards the jobs are in
 * section order. */
static void charts_wait(struct charts *q, struct bl_pool *pool)
{
	bl_pool_wait(pool);
	if (q->n)
		qsort(q->v, q->n, sizeof *q->v, cmp_chart_order);
}

static void charts_free(struct charts *q)
{
	for (size_t i = 0; i < q->n; i++) {
		free(q->v[i].dir);
		free(q->v[i].script);
		free(q->v[i].msg);
	}
	free(q->v);
}

/* One analysis's part of report.md. */
struct section {
	const struct bl_analysis *an;
	char *text;                  /* what an->write() wrote */
	size_t len;
	struct bl_chart *ch;
	size_t nch;
	int prc;                     /* how drawing went: an->plot()'s return,
					or the first failed run */
};

/* report.md from its parts. */
static int assemble_md(struct rstate *rs, const struct bl_ctx *ctx, const char *plots,
		       const char *const *titles, const struct section *sec, size_t nsec,
		       bool gnuplot_missing, struct bl_cmp_rows *findings, double conf,
		       char **md, size_t *mdlen)
{
	*md = NULL;
	*mdlen = 0;
	FILE *mdf = open_memstream(md, mdlen);
	if (!mdf)
		return -BL_ENOMEM;
	write_intro(mdf, rs, ctx, titles, nsec, findings, conf);
	for (size_t i = 0; i < nsec; i++) {
		const struct section *x = &sec[i];
		fprintf(mdf, "## ");
		bl_fput_md_inline(mdf, x->an->title);
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
				bl_fput_md_inline(mdf, x->ch[k].title);
				fprintf(mdf, " (`%s`)\n\n![", x->ch[k].name);
				bl_fput_md_inline(mdf, x->ch[k].title);
				fprintf(mdf, "](plots/%s.png)\n\n", x->ch[k].name);
			}
			free(ref);
			chart_files(mdf, plots, &x->ch[k]);
		}
	}
	fflush(mdf);
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
	return 0;
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


static bool is_stopped(const struct bl_report_opts *o)
{
	return o->stop && *o->stop;
}

/* ---- the Findings, one input at a time (findings.h F1) ----
 *
 * Comparisons stay inside one plain file or mail thread, so each input
 * gets a collector of its own (on the thread that parses it), compared
 * once it is replayed and then freed: memory does not grow with the
 * number of inputs. What a table is over all inputs is kept here: its
 * first set (the baseline of each block that holds it, as one collector
 * over all inputs would choose), its sets, and the pooled values of its
 * first two sets, for the sentence of F3 when nothing could be compared.
 */

struct ftable {
	const char *name;            /* interned in fin.names */
	const struct bl_table_def *def;
	const char *cmpcol;
	struct bl_strmap sets;       /* set values, in the order first seen */
	bool rows;                   /* an input gave it comparisons */
	size_t ncols;                /* columns listed by some input, in order */
	const char **col;            /* interned */
	long *defcol;                /* each one's index in the definition */
	struct bl_welford *w[2];     /* sets 0 and 1 pooled, per column */
};

struct fin {
	struct bl_strmap names;      /* what the rows' borrowed names point to */
	struct bl_strmap tabidx;     /* table name: index in t */
	struct ftable *t;
	size_t nt;
	struct bl_cmp_rows rows;     /* every input's comparisons, input order */
	size_t rowcap;
};

/* One input's collector, and the context it warns into. */
struct fin_input {
	struct bl_ctx ctx;
	struct bl_tstats *ts;
};

/* What bl_report_build() holds from step to step. */
struct build {
	const struct bl_report_opts *o;
	struct bl_report_result *res;
	FILE *diag;
	struct bl_outdir od;
	char *csvdir, *plots, *skpath;
	struct bl_ctx ctx;           /* the analyses' context */
	struct bl_ctx side;          /* the CSV files' and skipped.csv's */
	bool finished;               /* both contexts finished */
	struct rstate rs;
	void **st;                   /* each analysis's state, registry order */
	size_t na;
	const char **titles;         /* the sections' titles */
	struct section *secs;
	size_t nsecs;
	struct charts charts;
	char *md;                    /* report.md */
	size_t mdlen;
	struct bl_tstats_opts tso;   /* the Findings' tables (findings.h F1) */
	struct bl_tstats *ts;        /* all inputs at once (--baseline,
					--compare-all), else NULL: fin */
	struct bl_compare_opts co;
	struct bl_cmp_rows findings;
	struct fin fin;
};

static const char *fin_name(struct fin *f, const char *s)
{
	return s ? bl_strmap_key(&f->names, bl_strmap_get(&f->names, s, NULL)) : NULL;
}

/* bl_compare_opts.set_order: the sets of a table in the order first seen
 * over the inputs so far. */
static long fin_set_order(void *ud, const char *table, const char *set)
{
	struct fin *f = ud;
	long i = bl_strmap_find(&f->tabidx, table);
	return i >= 0 ? bl_strmap_find(&f->t[i].sets, set) : -1;
}

static struct ftable *fin_table(struct fin *f, struct bl_tstats *ts, size_t t)
{
	bool added = false;
	size_t i = bl_strmap_get(&f->tabidx, bl_tstats_table(ts, t), &added);
	if (added) {
		f->t = bl_xrealloc(f->t, (i + 1) * sizeof *f->t);
		struct ftable *x = &f->t[i];
		memset(x, 0, sizeof *x);
		x->name = fin_name(f, bl_tstats_table(ts, t));
		size_t ng = bl_tstats_ngcols(ts, t);
		x->cmpcol = ng ? fin_name(f, bl_tstats_gcol(ts, t, ng - 1)) : "";
		x->def = bl_tstats_def(ts, t);
		f->nt = i + 1;
	}
	return &f->t[i];
}

/* Column name's place in x (added in the definition's order). */
static size_t fin_col(struct fin *f, struct ftable *x, const struct bl_table_def *def, const char *name)
{
	for (size_t k = 0; k < x->ncols; k++)
		if (strcmp(x->col[k], name) == 0)
			return k;
	long dc = def ? bl_table_col(def, name) : -1;
	size_t at = x->ncols;
	while (at > 0 && x->defcol[at - 1] > dc)
		at--;
	x->col = bl_xrealloc(x->col, (x->ncols + 1) * sizeof *x->col);
	x->defcol = bl_xrealloc(x->defcol, (x->ncols + 1) * sizeof *x->defcol);
	for (int s = 0; s < 2; s++)
		x->w[s] = bl_xrealloc(x->w[s], (x->ncols + 1) * sizeof *x->w[s]);
	memmove(x->col + at + 1, x->col + at, (x->ncols - at) * sizeof *x->col);
	memmove(x->defcol + at + 1, x->defcol + at, (x->ncols - at) * sizeof *x->defcol);
	for (int s = 0; s < 2; s++) {
		memmove(x->w[s] + at + 1, x->w[s] + at, (x->ncols - at) * sizeof *x->w[s]);
		bl_welford_init(&x->w[s][at]);
	}
	x->col[at] = fin_name(f, name);
	x->defcol[at] = dc;
	x->ncols++;
	return at;
}

/* One input's tables into f: their sets, and the values of the first two
 * sets of each table pooled per column. own: the tables the analyses
 * compare themselves (left out, as the walk leaves them out). */
static void fin_facts(struct fin *f, struct bl_tstats *ts, const struct bl_cmp_rows *own)
{
	for (size_t t = 0; t < bl_tstats_ntables(ts); t++) {
		if (bl_compare_owned(own, ts, t))
			continue;        /* compared by its analysis (C4) */
		struct ftable *x = fin_table(f, ts, t);
		size_t ng = bl_tstats_ngcols(ts, t);
		if (!ng)
			continue;
		const struct bl_table_def *def = bl_tstats_def(ts, t);
		size_t ngr = bl_tstats_ngroups(ts, t);
		for (size_t g = 0; g < ngr; g++)
			bl_strmap_get(&x->sets, bl_tstats_gval(ts, t, g, ng - 1), NULL);
		if (x->sets.n > 2)
			continue;        /* no sentence of two sets to make */
		for (size_t lc = 0; lc < bl_tstats_ncols(ts, t); lc++) {
			const char *cname = bl_tstats_col(ts, t, lc);
			size_t k = fin_col(f, x, def, cname);
			long c = bl_tstats_find_col(ts, t, cname);
			for (size_t g = 0; g < ngr; g++) {
				struct bl_cellstat cs;
				long si = bl_strmap_find(&x->sets, bl_tstats_gval(ts, t, g, ng - 1));
				if (si < 2 && bl_tstats_cell(ts, t, g, c, NULL, 0, BL_PCT_TYPE7, &cs, NULL) && cs.w.n)
					bl_welford_merge(&x->w[si][k], &cs.w);
			}
		}
	}
}

/* On the thread that parses an input: its own collector. */
static void *fin_open(void *ud, struct bl_ctx *c)
{
	struct build *b = ud;
	struct fin_input *in = bl_xcalloc(1, sizeof *in);
	bl_ctx_init(&in->ctx, b->o->parse);
	in->ctx.diag = NULL;
	in->ts = bl_tstats_new(&b->tso, &in->ctx);
	struct bl_sink s;
	bl_tstats_sink(in->ts, &s);
	bl_ctx_add_sink(c, &s);
	return in;
}

/* The input is replayed: its comparisons, in input order (the tables'
 * first sets as over all inputs), then its facts; the collector freed. */
static void fin_close(void *ud, void *state, bool replayed)
{
	struct build *b = ud;
	struct fin_input *in = state;
	struct fin *f = &b->fin;
	if (replayed) {
		struct bl_cmp_rows part;
		memset(&part, 0, sizeof part);
		bl_analyses_own(&part);
		struct bl_compare_opts co = b->co;
		co.set_order = fin_set_order;
		co.set_order_ud = f;
		bl_compare_rows(in->ts, &co, &part);
		fin_facts(f, in->ts, &part);
		for (size_t i = 0; i < part.n; i++) {
			struct bl_cmp_row w = part.row[i];
			w.table = fin_name(f, w.table);
			w.column = fin_name(f, w.column);
			w.source = fin_name(f, w.source);
			w.message_id = fin_name(f, w.message_id);
			/* few distinct ones (sets, splits): interned until
			 * fin_finish() gives every row its own copies again */
			char *own[3] = { w.block, w.baseline, w.candidate };
			w.block = (char *)fin_name(f, own[0]);
			w.baseline = (char *)fin_name(f, own[1]);
			w.candidate = (char *)fin_name(f, own[2]);
			for (int k = 0; k < 3; k++)
				free(own[k]);
			f->rows.row = bl_xgrow(f->rows.row, &f->rowcap, f->rows.n + 1, sizeof *f->rows.row);
			f->rows.row[f->rows.n++] = w;
			f->t[bl_strmap_find(&f->tabidx, w.table)].rows = true;
		}
		for (size_t i = 0; i < part.nskip; i++)
			free(part.skip[i].why);   /* F3 is made over all inputs */
		free(part.skip);
		free(part.row);
		free(part.own);
	}
	bl_tstats_free(in->ts);
	bl_ctx_release(&in->ctx);
	free(in);
}

struct fin_key {
	size_t tab;
	long col;
	size_t seq;
};

static int cmp_fin_key(const void *a, const void *b)
{
	const struct fin_key *x = a, *y = b;
	if (x->tab != y->tab)
		return x->tab < y->tab ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Every input's comparisons into out, in the order of one walk over all
 * inputs at once (table, then column, then block: compare.h C1), and a
 * sentence for each table with none (F3). f's rows are out's then. */
static void fin_finish(struct fin *f, struct bl_cmp_rows *out)
{
	size_t n = f->rows.n;
	struct fin_key *k = bl_xcalloc(n ? n : 1, sizeof *k);
	for (size_t i = 0; i < n; i++) {
		const struct bl_cmp_row *w = &f->rows.row[i];
		k[i].tab = (size_t)bl_strmap_find(&f->tabidx, w->table);
		const struct bl_table_def *def = f->t[k[i].tab].def;
		k[i].col = def ? bl_table_col(def, w->column) : -1;
		k[i].seq = i;
	}
	qsort(k, n, sizeof *k, cmp_fin_key);
	/* row i becomes the row k[i].seq was, in place (following each cycle
	 * of the permutation once): a second array of them was the largest
	 * allocation of a report over 10,000 logs */
	struct bl_cmp_row *r = f->rows.row;
	for (size_t i = 0; i < n; i++) {
		if (k[i].seq == SIZE_MAX)
			continue;
		struct bl_cmp_row first = r[i];
		size_t j = i;
		for (;;) {
			size_t from = k[j].seq;
			k[j].seq = SIZE_MAX;
			if (from == i) {
				r[j] = first;
				break;
			}
			r[j] = r[from];
			j = from;
		}
	}
	free(k);
	for (size_t i = 0; i < n; i++) {   /* the rows' own strings again */
		r[i].block = r[i].block ? bl_xstrdup(r[i].block) : NULL;
		r[i].baseline = r[i].baseline ? bl_xstrdup(r[i].baseline) : NULL;
		r[i].candidate = r[i].candidate ? bl_xstrdup(r[i].candidate) : NULL;
	}
	memset(out, 0, sizeof *out);
	out->row = r;
	out->n = n;
	memset(&f->rows, 0, sizeof f->rows);
	for (size_t i = 0; i < f->nt; i++) {
		const struct ftable *x = &f->t[i];
		char *why = NULL;
		if (x->rows || !*x->cmpcol)
			continue;
		if (x->sets.n < 2)
			why = bl_compare_one_set_note(x->cmpcol, x->sets.n ? bl_strmap_key(&x->sets, 0) : "");
		else if (x->sets.n == 2)
			why = bl_compare_apart_note(bl_strmap_key(&x->sets, 0), bl_strmap_key(&x->sets, 1),
						    x->def && x->def->split_col ? x->def->split_col : NULL,
						    x->ncols, x->col, x->w[0], x->w[1]);
		if (!why)
			continue;
		out->skip = bl_xrealloc(out->skip, (out->nskip + 1) * sizeof *out->skip);
		out->skip[out->nskip].table = x->name;
		out->skip[out->nskip++].why = why;
	}
}

static void fin_release(struct fin *f)
{
	for (size_t i = 0; i < f->nt; i++) {
		bl_strmap_release(&f->t[i].sets);
		free(f->t[i].col);
		free(f->t[i].defcol);
		free(f->t[i].w[0]);
		free(f->t[i].w[1]);
	}
	free(f->t);
	for (size_t i = 0; i < f->rows.n; i++)   /* interned: not theirs (fin_close()) */
		f->rows.row[i].block = f->rows.row[i].baseline = f->rows.row[i].candidate = NULL;
	bl_compare_rows_free(&f->rows);
	bl_strmap_release(&f->tabidx);
	bl_strmap_release(&f->names);
	memset(f, 0, sizeof *f);
}

static void build_input_done(void *ud, const struct bl_input_stats *st)
{
	struct build *b = ud;
	on_input(&b->rs, st);
}

/* The temporary folder, its csv/ and plots/, skipped.csv, and the sinks
 * of both contexts: the CSV files and skipped.csv on the side context,
 * the preview tables and the analyses on the main one. */
static int build_open(struct build *b)
{
	const struct bl_report_opts *o = b->o;
	const char *why = NULL;
	int rc = bl_outdir_begin(&b->od, o->dir, &why);
	if (rc == -BL_EUSAGE) {
		bl_term_printf(b->diag, "benchlog report: %s %s\n", o->dir, why);
		return rc;
	}
	if (rc) {
		bl_term_printf(b->diag, "benchlog report: cannot create a folder beside %s: %s\n", o->dir,
			strerror(errno));
		return rc;
	}
	b->csvdir = bl_xasprintf("%s/csv", b->od.tmp);
	b->plots = bl_xasprintf("%s/plots", b->od.tmp);
	b->skpath = bl_xasprintf("%s/skipped.csv", b->od.tmp);
	if (mkdir(b->csvdir, 0755) || mkdir(b->plots, 0755)) {
		bl_term_printf(b->diag, "benchlog report: cannot create %s: %s\n", b->csvdir, strerror(errno));
		return -BL_EIO;
	}
	b->rs.skipped = fopen(b->skpath, "w");
	if (!b->rs.skipped || fputs(skipped_header, b->rs.skipped) == EOF) {
		bl_term_printf(b->diag, "benchlog report: cannot write %s: %s\n", b->skpath, strerror(errno));
		return -BL_EIO;
	}
	struct bl_sink s;
	if (bl_csv_dir_sink(&s, b->csvdir, NULL)) {
		bl_term_printf(b->diag, "benchlog report: cannot write to %s: %s\n", b->csvdir, strerror(errno));
		return -BL_EIO;
	}
	bl_ctx_add_sink(&b->side, &s);
	/* the same tables typed, beside csv/ (tables/sqlite.h) */
	char *db = bl_xasprintf("%s/report.sqlite", b->od.tmp);
	const char *sqwhy = NULL;
	rc = bl_sqlite_sink(&s, db, NULL, &sqwhy);
	if (rc) {
		bl_term_printf(b->diag, "benchlog report: cannot write %s: %s\n", db, sqwhy ? sqwhy : strerror(errno));
		free(db);
		return -BL_EIO;
	}
	free(db);
	bl_ctx_add_sink(&b->side, &s);
	b->side.skip.skipped = on_skip;
	b->side.skip.ud = &b->rs;
	s = (struct bl_sink){ table_record, NULL, NULL, &b->rs };
	bl_ctx_add_sink(&b->ctx, &s);
	struct bl_analysis_opts ao = o->an;
	ao.parse = o->parse;
	ao.keep_samples = true;
	ao.bounded = true;           /* analysis.h: memory bounded (issue 26) */
	ao.diag = b->diag;
	for (size_t i = 0; i < b->na; i++) {
		b->st[i] = bl_analyses[i]->create(&ao);
		s = (struct bl_sink){ bl_analyses[i]->record, NULL, NULL, b->st[i] };
		bl_ctx_add_sink(&b->ctx, &s);
	}
	/* the Findings: every table's groups, per split and measure, within
	 * one message or file unless told otherwise (findings.h F1) */
	b->tso.compare = true;
	b->tso.by_source = !o->compare_all && !o->an.baseline;
	b->tso.include_quoted = o->an.include_quoted;
	b->tso.moments_only = true;  /* n, mean and sd are all it needs */
	if (!b->tso.by_source) {     /* else one input at a time (fin_open()) */
		b->ts = bl_tstats_new(&b->tso, &b->ctx);
		bl_tstats_sink(b->ts, &s);
		bl_ctx_add_sink(&b->ctx, &s);
	}
	b->co = (struct bl_compare_opts){ o->an.baseline, o->an.confidence, BL_CMP_WELCH, BL_TAB_TEXT,
					  o->bands, o->nbands, NULL, NULL, false };
	return 0;
}

/* Close the tables: the CSV files flushed, synced and renamed into place
 * (the side context's finish; ok false drops them), skipped.csv closed,
 * and all of them given the user's mode. 0, or -BL_EIO with *err the
 * errno of the first failed write. */
static int tables_close(struct build *b, bool ok, int *err)
{
	int sfin = bl_ctx_finish(&b->side, ok);
	int fin_errno = errno;
	struct rstate *rs = &b->rs;
	skiprun_flush(rs);
	if (fclose(rs->skipped) != 0 && !rs->skip_err) {
		rs->skip_err = -BL_EIO;
		rs->skip_errno = errno;
	}
	rs->skipped = NULL;
	if (b->side.error == -BL_EIO) {
		*err = b->side.error_errno;
		return -BL_EIO;
	}
	if (sfin || rs->skip_err) {
		*err = sfin ? fin_errno : rs->skip_errno;
		return -BL_EIO;
	}
	if (ok)
		share_files(b->csvdir);
	return 0;
}

/* Every input parsed into both contexts (ppass.h), the tables closed, the
 * counts taken; --strict refuses malformed or unreadable input. */
static int build_parse(struct build *b)
{
	const struct bl_report_opts *o = b->o;
	/* The report's own folders are not read when they sit inside an input
	 * folder (`benchlog report -o out .`). */
	const char *exclude[] = { b->od.final, b->od.tmp };
	bool excluded_any = false;
	struct bl_ppass_opts po = {
		o->pool, o->progress, o->stop, build_input_done, b, exclude, 2, &excluded_any,
		&b->side, b->ts ? NULL : fin_open, b->ts ? NULL : fin_close,
	};
	int rc = bl_ppass_run(&b->ctx, o->inputs, o->ninputs, &po);
	if (excluded_any)
		bl_term_printf(b->diag, "benchlog report: not reading %s (the report's own folder, inside an input "
			      "folder)\n", b->od.final);
	if (rc == -BL_EINTR || is_stopped(o))
		return -BL_EINTR;
	if (rc == -BL_EUSAGE)
		return rc;
	int fin = bl_ctx_finish(&b->ctx, rc == 0);
	int fin_errno = errno;
	b->finished = true;
	int err = 0;
	int trc = tables_close(b, !rc && !fin, &err);
	if (rc || fin || trc) {
		const char *what = rc && rc != -BL_EIO ? bl_strerror(rc)
				  : b->ctx.error == -BL_EIO ? strerror(b->ctx.error_errno)
				  : trc ? strerror(err)
				  : fin && fin != -BL_EIO ? bl_strerror(fin) : strerror(fin_errno);
		bl_term_printf(b->diag, "benchlog report: cannot write the tables: %s\n", what);
		return -BL_EIO;
	}
	struct bl_report_result *res = b->res;
	res->inputs = b->rs.nin;
	res->lines = b->ctx.lines_total;
	res->used = b->ctx.lines_used;
	res->skipped = b->ctx.lines_skipped;
	res->records = b->ctx.records;
	res->warnings = bl_warn_total(&b->ctx);
	res->input_errors = b->ctx.input_errors;
	for (size_t i = 0; i < b->rs.nin; i++) {
		const struct bl_input_stats *in = &b->rs.in[i];
		if (in->used + in->skipped != in->lines)
			bl_term_printf(b->diag, "benchlog report: %s: %lu lines but %lu used + %lu skipped "
				      "(a line-accounting bug; please report it)\n",
				in->path, in->lines, in->used, in->skipped);
	}
	/* --baseline must name a group, as in compare: a usage error listing
	 * them, and the folder left as it was */
	if (o->an.baseline && res->records && bl_strmap_find(&b->rs.groups, o->an.baseline) < 0) {
		bl_term_printf(b->diag, "benchlog report: --baseline: no group \"%s\"; there are:", o->an.baseline);
		for (size_t i = 0; i < b->rs.groups.n; i++)
			bl_term_printf(b->diag, "%s \"%s\"", i ? "," : "", bl_strmap_key(&b->rs.groups, i));
		bl_term_printf(b->diag, "\n");
		return -BL_EUSAGE;
	}
	if (o->parse->strict && (res->warnings || res->input_errors)) {
		bl_term_printf(b->diag, "benchlog report: --strict: input was malformed or unreadable; "
			      "%s left as it was\n", o->dir);
		return -BL_EFORMAT;
	}
	return 0;
}

/* A chart that could not be drawn fails the report (build_charts()):
 * nothing half-made replaces an earlier one. */
static void warn_charts(struct build *b, const struct section *x, int rc)
{
	b->res->chart_failed = true;
	bl_term_printf(b->diag, "benchlog report: the %s charts could not be drawn (%s)\n", x->an->name,
		       bl_strerror(rc));
}

/* One section per analysis with data, in registry order: its charts'
 * scripts and data, drawn by plot/ from the analysis's results (their
 * gnuplot runs queued in b->charts), then its text. */
static int build_sections(struct build *b)
{
	size_t nsec = 0;
	for (size_t i = 0; i < b->na; i++)
		if (bl_analyses[i]->has_data(b->st[i]))
			b->titles[nsec++] = bl_analyses[i]->title;
	b->secs = bl_xcalloc(nsec ? nsec : 1, sizeof *b->secs);
	struct bl_chart_opts co = { b->plots, BL_PLOT_PNG | BL_PLOT_SVG, true };
	bool have_gnuplot = bl_gp_available();
	b->charts.stop = b->o->stop;
	bl_gp_set_stop(b->o->stop);   /* a stop kills a gnuplot run at once */
	int rc = 0;
	for (size_t i = 0; i < b->na && !rc && !is_stopped(b->o); i++) {
		const struct bl_analysis *an = bl_analyses[i];
		if (!an->has_data(b->st[i]))
			continue;
		struct section *x = &b->secs[b->nsecs++];
		x->an = an;
		b->res->sections++;
		if (an->charts) {
			x->prc = bl_analysis_draw(an, b->st[i], &co, &x->ch, &x->nch, b->diag, NULL);
			if (!have_gnuplot && x->nch && x->prc == 0)
				x->prc = -BL_ENOTFOUND;
			for (size_t k = 0; have_gnuplot && k < x->nch; k++)
				chart_queue(&b->charts, b->plots, &x->ch[k], b->nsecs - 1);
			if (x->prc == -BL_ENOTFOUND)
				b->res->gnuplot_missing = true;
			else if (x->prc < 0)
				warn_charts(b, x, x->prc);
		}
		FILE *sf = open_memstream(&x->text, &x->len);
		if (!sf) {
			rc = -BL_ENOMEM;
			break;
		}
		int wrc = an->write(b->st[i], sf, BL_DOC_MD, x->ch, x->nch);
		fclose(sf);
		b->res->charts += x->nch;
		if (wrc) {
			rc = wrc;
			bl_term_printf(b->diag, "benchlog report: cannot write the %s section: %s\n", an->name,
				bl_strerror(wrc));
		}
	}
	return rc ? rc : is_stopped(b->o) ? -BL_EINTR : 0;
}

/* The queued charts drawn, and meanwhile (-j2 and up: gnuplot runs in its
 * own processes, the pool's workers only wait for them) the Findings
 * worked out, which need no chart. Each chart's failure is named once. A
 * failed chart (gnuplot failed, timed out or left an incomplete image; a
 * script that could not be written) fails the report: -BL_EIO, and the
 * folder is left as it was. */
static int build_charts(struct build *b)
{
	charts_start(&b->charts, b->o->pool);
	/* the Findings: the rows `compare` makes (analysis.h) */
	struct bl_findings_opts fo = { &b->co, b->o->compare_all, NULL, NULL, 0 };
	if (b->ts) {
		bl_analyses_findings(b->ts, b->st, &fo, &b->findings);
	} else {
		fin_finish(&b->fin, &b->findings);
		bl_analyses_findings_more(b->st, &fo, &b->findings);
	}
	charts_wait(&b->charts, b->o->pool);
	if (is_stopped(b->o))
		return -BL_EINTR;
	for (size_t k = 0; k < b->charts.n; k++) {
		const struct chart_job *j = &b->charts.v[k];
		if (!j->rc)
			continue;
		struct section *x = &b->secs[j->sec];
		size_t sl = strlen(j->script) > 3 ? strlen(j->script) - 3 : 0;
		if (j->msg)
			bl_term_printf(b->diag, "benchlog: %.*s chart: %s\n", (int)sl, j->script, j->msg);
		if (x->prc >= 0) {
			x->prc = j->rc;
			warn_charts(b, x, j->rc);
		}
	}
	if (b->res->chart_failed) {
		bl_term_printf(b->diag, "benchlog report: a chart could not be drawn; %s left as it was\n",
			       b->o->dir);
		return -BL_EIO;
	}
	return 0;
}

/* inputs.csv: every input's line of the inputs table, when report.md
 * lists only the first BL_MD_SHOWN. 0 or -BL_EIO. */
static int write_inputs_csv(const struct rstate *rs, const char *dir)
{
	if (rs->nin <= BL_MD_SHOWN)
		return 0;
	char *p = bl_xasprintf("%s/inputs.csv", dir);
	FILE *f = fopen(p, "w");
	free(p);
	if (!f)
		return -BL_EIO;
	fputs("input,lines,used,skipped,records,warnings,unreadable\n", f);
	for (size_t i = 0; i < rs->nin; i++) {
		const struct bl_input_stats *s = &rs->in[i];
		skip_field(f, s->path, false);
		fprintf(f, "%lu,%lu,%lu,%lu,%lu,%d\n", s->lines, s->used, s->skipped, s->records,
			s->warnings, s->unreadable ? 1 : 0);
	}
	int bad = ferror(f);
	return fclose(f) != 0 || bad ? -BL_EIO : 0;
}

/* report.md, and report.html rendered from it. */
static int build_documents(struct build *b)
{
	int rc = assemble_md(&b->rs, &b->ctx, b->plots, b->titles, b->secs, b->nsecs,
			     b->res->gnuplot_missing, &b->findings, b->co.confidence, &b->md, &b->mdlen);
	if (rc)
		return rc;
	/* straight to the file: over 10,000 logs it is 12 MB */
	char *fp = bl_xasprintf("%s/findings.csv", b->od.tmp);
	FILE *ff = fopen(fp, "w");
	free(fp);
	rc = ff ? bl_report_findings_csv(ff, &b->findings) : -BL_EIO;
	int ferr = errno;
	if (ff && fclose(ff) != 0 && !rc) {
		rc = -BL_EIO;
		ferr = errno;
	}
	if (rc) {
		bl_term_printf(b->diag, "benchlog report: cannot write findings.csv: %s\n", strerror(ferr));
		return rc;
	}
	if ((rc = write_inputs_csv(&b->rs, b->od.tmp)) != 0) {
		fprintf(b->diag, "benchlog report: cannot write inputs.csv: %s\n", strerror(errno));
		return rc;
	}
	if ((rc = write_file(b->od.tmp, "report.md", b->md, b->mdlen)) != 0) {
		bl_term_printf(b->diag, "benchlog report: cannot write report.md: %s\n", strerror(errno));
		return rc;
	}
	char *hp = bl_xasprintf("%s/report.html", b->od.tmp);
	FILE *hf = fopen(hp, "w");
	free(hp);
	if (!hf) {
		bl_term_printf(b->diag, "benchlog report: cannot write report.html: %s\n", strerror(errno));
		return -BL_EIO;
	}
	rc = bl_report_html(b->md, b->mdlen, b->od.tmp, "benchlog report", hf);
	int err = errno;
	if (fclose(hf) != 0 && !rc) {
		rc = -BL_EIO;
		err = errno;
	}
	if (rc)
		bl_term_printf(b->diag, "benchlog report: cannot write report.html: %s\n",
			rc == -BL_EIO ? strerror(err) : bl_strerror(rc));
	return rc;
}

/* The finished folder swapped in for the old one. */
static int build_commit(struct build *b)
{
	const struct bl_report_opts *o = b->o;
	if (is_stopped(o))
		return -BL_EINTR;
	if (bl_outdir_commit(&b->od)) {
		bl_term_printf(b->diag, "benchlog report: cannot put the report in place at %s: %s\n", o->dir,
			strerror(errno));
		return -BL_EIO;
	}
	bl_outdir_say_kept(&b->od, b->diag);
	if (b->res->gnuplot_missing)
		bl_term_printf(b->diag, "benchlog report: gnuplot not found: the charts are scripts and data in "
			      "%s/plots; render them with: cd %s/plots && for f in *.gp; do gnuplot \"$f\"; "
			      "done\n", b->od.final, b->od.final);
	if (!o->parse->quiet)
		bl_diag_summary(&b->ctx, b->diag);
	return 0;
}

/* Frees everything; the temporary folder is removed unless rc is 0. */
static void build_release(struct build *b, int rc)
{
	charts_free(&b->charts);
	for (size_t i = 0; i < b->nsecs; i++) {
		free(b->secs[i].text);
		bl_charts_free(b->secs[i].ch, b->secs[i].nch);
	}
	free(b->secs);
	free(b->md);
	bl_compare_rows_free(&b->findings);
	bl_tstats_free(b->ts);
	fin_release(&b->fin);
	if (b->rs.skipped)
		fclose(b->rs.skipped);
	free(b->rs.run.source);
	free(b->rs.run.reason);
	free(b->rs.run.msgid);
	nearlist_release(&b->rs.near);
	nearlist_release(&b->rs.prose);
	bl_strmap_release(&b->rs.rec_units);
	if (!b->finished) {
		bl_ctx_finish(&b->ctx, 0);
		bl_ctx_finish(&b->side, 0);
	}
	for (size_t i = 0; i < b->na; i++)
		if (b->st[i])
			bl_analyses[i]->destroy(b->st[i]);
	free(b->st);
	free(b->titles);
	bl_ctx_release(&b->ctx);
	bl_ctx_release(&b->side);
	rstate_free(&b->rs);
	if (rc)
		bl_outdir_abort(&b->od);
	else
		bl_outdir_release(&b->od);
	free(b->csvdir);
	free(b->plots);
	free(b->skpath);
}

int bl_report_build(const struct bl_report_opts *o, struct bl_report_result *res)
{
	memset(res, 0, sizeof *res);
	struct build b;
	memset(&b, 0, sizeof b);
	b.o = o;
	b.res = res;
	b.diag = o->diag ? o->diag : stderr;
	bl_ctx_init(&b.ctx, o->parse);
	b.ctx.diag = b.diag;
	bl_ctx_init(&b.side, o->parse);
	b.side.diag = NULL;
	b.rs.o = o;
	b.rs.ctx = &b.ctx;
	b.rs.skipctx = &b.side;
	while (bl_analyses[b.na])
		b.na++;
	b.st = bl_xcalloc(b.na + 1, sizeof *b.st);
	b.titles = bl_xcalloc(b.na + 1, sizeof *b.titles);

	int rc = build_open(&b);
	if (!rc)
		rc = build_parse(&b);
	if (!rc)
		rc = build_sections(&b);
	if (!rc)
		rc = build_charts(&b);
	if (!rc)
		rc = build_documents(&b);
	if (!rc)
		rc = build_commit(&b);
	build_release(&b, rc);
	return rc;
}

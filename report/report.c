/* report.c — `benchlog report`: one parse pass (parsers/pass.h) whose
 * sinks write the tables, the skipped lines and feed the analyses and the
 * Findings; then the sections, charts (on the -j pool), report.md and
 * report.html into a temporary folder, swapped in at the end (report.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/escape.h"
#include "analyze/analysis.h"
#include "analyze/table_stats.h"
#include "core/util.h"
#include "plot/plot.h"
#include "report/html.h"
#include "report/outdir.h"
#include "report/report.h"
#include "report/findings.h"
#include "report/headline.h"
#include "parsers/pass.h"
#include "tables/sqlite.h"

#define PREVIEW_ROWS 10

/* skipped.csv (docs/report.md): one row per run of consecutive skipped
 * lines of one source with the same reason and message, so that its size
 * follows the input's structure, not its length. */
#define SKIP_TEXT_MAX 200
static const char skipped_header[] =
	"source,first_line,last_line,lines,reason,message_id,last_message_id,messages,text\n";

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

/* A run's lines by the reason each was skipped for: the reason the report
 * page counts it under (core/ctx.h bl_skip(), a static string), where the
 * run's own reason may stand for a blank line or an mbox separator that
 * joined it (on_skip()). At most three reasons meet in a run; more go to
 * other. */
#define RUN_REASONS 4
struct tally {
	struct { const char *reason; unsigned long n; } c[RUN_REASONS];
	size_t nc;
	unsigned long other;
};

/* The run being gathered: strings owned. */
struct skiprun {
	bool open;
	char *source, *reason, *msgid;
	unsigned long first, last;
	struct tally by;
	char text[SKIP_TEXT_MAX + 1];
};

/* A unit of the input, for the listing of prose near data: a mail
 * message, or a plain file (msgid ""). Its prose runs wait in `pending`
 * until the unit ends (the pass reads units one after the other), then
 * are listed when it gave records. */
struct unit {
	char *source, *msgid;        /* NULL: none yet */
	bool records;
	struct nearlist pending;
	/* A mail message's skipped runs, held while it has given no record:
	 * one that gives none is one row of skipped.csv (skip_whole()); at
	 * most HELD_MAX, then they are written as they come (spilled). */
	struct heldrun { unsigned long first, last; char *reason, *text; struct tally by; } *held;
	size_t nheld;
	bool spilled;
};
#define HELD_MAX 32768   /* about 6 MB of runs at most (~190 bytes each) */

struct tstat {
	const struct bl_table_def *def;
	unsigned long rows;
	char **cells;                /* nprev rows of (3 + ncols) strings */
	size_t nprev;
};

/* Consecutive mail messages that gave no record, gathered into one row of
 * skipped.csv (skip_whole()): their lines and reasons with their counts,
 * each line under the reason the report page counts it under (struct
 * tally; WHOLE_REASONS at most, the rest as "other reasons"). Strings
 * owned. */
#define WHOLE_REASONS 16
struct wholerun {
	char *source, *first_id, *last_id;   /* source NULL: none open */
	unsigned long first, last, messages, runs;
	struct { char *reason; unsigned long n; } c[WHOLE_REASONS];
	size_t nc;
	unsigned long other;                 /* lines of further reasons */
	char *reason, *text;                 /* the first run's */
};

struct rstate {
	const struct bl_report_opts *o;
	FILE *skipped;
	struct skiprun run;
	struct wholerun whole;
	struct nearlist near;        /* skipped inside recognised data */
	struct nearlist prose;       /* no format recognised, in a unit with records */
	struct unit unit;            /* the unit being read */
	int skip_err;
	int skip_errno;              /* errno of the first failed write to it */
	/* Inputs, in a bounded memory (issue 34): the first BL_MD_SHOWN
	 * (report.md's table; paths heap) and the totals; past BL_MD_SHOWN
	 * inputs.csv is opened in the folder dir and gets every input's row
	 * as it is done (in_err: errno of a failed open). */
	struct bl_input_stats in[BL_MD_SHOWN], tot;
	size_t nin;
	const char *dir;
	FILE *incsv;
	int in_err;
	struct tstat *t;
	size_t nt;
	struct bl_groups groups;     /* for --baseline: the first 100 (analysis.h) */
	const struct bl_tstats_opts *tso;   /* the Findings' tables */
	bool compared;               /* since the last input, a record of one not own (C4) */
	unsigned long failed;        /* runs of a failed command the statistics leave out
					(D3c): not copies, not quoted unless used */
};

/* One more line skipped for reason in t. */
static void tally_add(struct tally *t, const char *reason)
{
	size_t k = 0;
	while (k < t->nc && strcmp(t->c[k].reason, reason) != 0)
		k++;
	if (k == t->nc && k < RUN_REASONS)
		t->c[t->nc++].reason = reason;
	if (k < t->nc)
		t->c[k].n++;
	else
		t->other++;
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

static void skip_whole(struct rstate *rs);
static void held_free(struct unit *u);

/* The unit ended: its prose runs listed when it gave records; a mail
 * message that gave none, a row per range of lines (skip_whole()). */
static void unit_end(struct rstate *rs)
{
	struct unit *u = &rs->unit;
	struct nearlist *p = &u->pending;
	if (u->nheld && rs->skipped)
		skip_whole(rs);
	else   /* the report is given up: nothing more is written */
		held_free(u);
	u->spilled = false;
	if (u->records) {
		rs->prose.runs += p->runs;
		rs->prose.lines += p->lines;
		for (size_t i = 0; i < p->n && rs->prose.n < NEAR_MAX; i++) {
			rs->prose.v[rs->prose.n++] = p->v[i];
			p->v[i] = (struct nearrun){ NULL, NULL, NULL, 0, 0 };
		}
	}
	nearlist_release(p);
	free(u->source);
	free(u->msgid);
	u->source = u->msgid = NULL;
	u->records = false;
}

/* A record or a prose run of unit (source, msgid): a new unit ends the
 * one before. */
static void unit_enter(struct rstate *rs, const char *source, const char *msgid)
{
	struct unit *u = &rs->unit;
	if (u->source && strcmp(u->source, source) == 0 && strcmp(u->msgid, msgid) == 0)
		return;
	unit_end(rs);
	u->source = bl_xstrdup(source);
	u->msgid = bl_xstrdup(msgid);
}

/* One row of skipped.csv; last_id NULL and messages 0 for a row within
 * one message or file. */
static void skip_row_out(struct rstate *rs, const char *source, unsigned long first, unsigned long last,
			 const char *reason, const char *msgid, const char *last_id,
			 unsigned long messages, const char *text)
{
	FILE *f = rs->skipped;
	bl_report_csv_field(f, source, false);
	fprintf(f, "%lu,%lu,%lu,", first, last, last - first + 1);
	bl_report_csv_field(f, reason, false);
	bl_report_csv_field(f, msgid, false);
	bl_report_csv_field(f, last_id, false);
	if (messages)
		fprintf(f, "%lu", messages);
	fputc(',', f);
	bl_report_csv_field(f, text, true);
	if (ferror(f) && !rs->skip_err) {
		rs->skip_err = -BL_EIO;
		rs->skip_errno = errno;
	}
}

/* The gathered messages' row written, if any: a single run keeps its own
 * reason and text; more runs are "no record: " and the reasons with their
 * lines, the most first (ties: first met), and no text. */
static void whole_flush(struct rstate *rs)
{
	struct wholerun *w = &rs->whole;
	if (!w->source)
		return;
	if (!rs->skipped) {
		/* the report is given up: nothing more is written */
	} else if (w->runs == 1) {
		skip_row_out(rs, w->source, w->first, w->last, w->reason, w->first_id, NULL, 0, w->text);
	} else {
		struct bl_buf why = BL_BUF_INIT(0);
		bl_buf_addf(&why, "no record: ");
		bool out[WHOLE_REASONS] = { false };
		for (size_t done = 0; done < w->nc; done++) {
			size_t best = w->nc;
			for (size_t k = 0; k < w->nc; k++)
				if (!out[k] && (best == w->nc || w->c[k].n > w->c[best].n))
					best = k;
			out[best] = true;
			bl_buf_addf(&why, "%s%s %lu", done ? "; " : "", w->c[best].reason, w->c[best].n);
		}
		if (w->other)
			bl_buf_addf(&why, "; other reasons %lu", w->other);
		bool many = w->messages > 1;
		skip_row_out(rs, w->source, w->first, w->last, why.data, w->first_id, many ? w->last_id : NULL,
			     many ? w->messages : 0, "");
		bl_buf_release(&why);
	}
	for (size_t k = 0; k < w->nc; k++)
		free(w->c[k].reason);
	free(w->source);
	free(w->first_id);
	free(w->last_id);
	free(w->reason);
	free(w->text);
	memset(w, 0, sizeof *w);
}

/* One row of skipped.csv, after the gathered messages' row. */
static void skip_row(struct rstate *rs, const char *source, unsigned long first, unsigned long last,
		     const char *reason, const char *msgid, const char *text)
{
	whole_flush(rs);
	skip_row_out(rs, source, first, last, reason, msgid, NULL, 0, text);
}

/* The unit's held runs let go. */
static void held_free(struct unit *u)
{
	for (size_t i = 0; i < u->nheld; i++) {
		free(u->held[i].reason);
		free(u->held[i].text);
	}
	free(u->held);
	u->held = NULL;
	u->nheld = 0;
}

/* The unit's held runs written as rows, one each, and let go. */
static void held_write(struct rstate *rs)
{
	struct unit *u = &rs->unit;
	for (size_t i = 0; i < u->nheld; i++)
		skip_row(rs, u->source, u->held[i].first, u->held[i].last, u->held[i].reason, u->msgid,
			 u->held[i].text);
	held_free(u);
}

/* Held runs a..b of the unit, one range of lines of a message that gave
 * no record, added to the gathered messages' row: it goes on when the
 * range starts on the line after it, else a new one starts. */
static void whole_add(struct rstate *rs, size_t a, size_t b)
{
	struct unit *u = &rs->unit;
	struct wholerun *w = &rs->whole;
	if (w->source && (strcmp(w->source, u->source) != 0 || u->held[a].first > w->last + 1))
		whole_flush(rs);
	if (!w->source) {
		w->source = bl_xstrdup(u->source);
		w->first_id = bl_xstrdup(u->msgid);
		w->last_id = bl_xstrdup(u->msgid);
		w->first = u->held[a].first;
		w->messages = 1;
		w->reason = bl_xstrdup(u->held[a].reason);
		w->text = bl_xstrdup(u->held[a].text);
	} else if (strcmp(w->last_id, u->msgid) != 0) {
		free(w->last_id);
		w->last_id = bl_xstrdup(u->msgid);
		w->messages++;
	}
	for (size_t i = a; i < b; i++) {
		struct heldrun *h = &u->held[i];
		for (size_t j = 0; j < h->by.nc; j++) {
			size_t k = 0;
			while (k < w->nc && strcmp(w->c[k].reason, h->by.c[j].reason) != 0)
				k++;
			if (k == w->nc && k < WHOLE_REASONS)
				w->c[w->nc++].reason = bl_xstrdup(h->by.c[j].reason);
			if (k < w->nc)
				w->c[k].n += h->by.c[j].n;
			else
				w->other += h->by.c[j].n;
		}
		w->other += h->by.other;
		if (h->last > w->last)
			w->last = h->last;
	}
	w->runs += b - a;
}

static int held_cmp(const void *x, const void *y)
{
	const struct heldrun *a = x, *b = y;
	return (a->first > b->first) - (a->first < b->first);
}

/* A mail message that gave no record, its runs held (issue 35 item 3):
 * each range of consecutive lines it skipped joins the row of the
 * messages before it that gave none, when it starts on the line after
 * them (a line used without a record, such as a label, splits the
 * message in two); a duplicate message (its one `duplicate of the
 * message at` run beside its separator line) keeps its rows. */
static void skip_whole(struct rstate *rs)
{
	struct unit *u = &rs->unit;
	bool dup = false;
	for (size_t i = 0; i < u->nheld; i++)
		dup |= strncmp(u->held[i].reason, "duplicate of the message at ", 28) == 0;
	if (dup) {
		held_write(rs);
		return;
	}
	/* in line order: a line a parser held and gave back comes late */
	qsort(u->held, u->nheld, sizeof *u->held, held_cmp);
	for (size_t a = 0, b; a < u->nheld; a = b) {
		unsigned long last = u->held[a].last;
		for (b = a + 1; b < u->nheld && u->held[b].first <= last + 1; b++)
			if (u->held[b].last > last)
				last = u->held[b].last;
		whole_add(rs, a, b);
	}
	held_free(u);
}

/* Write the run gathered so far, if any, and close it: held when it
 * belongs to a mail message that has given no record yet. */
static void skiprun_flush(struct rstate *rs)
{
	struct skiprun *k = &rs->run;
	if (!k->open)
		return;
	unit_enter(rs, k->source, k->msgid);
	struct unit *u = &rs->unit;
	if (*k->msgid && !u->records && !u->spilled && u->nheld < HELD_MAX) {
		u->held = bl_xrealloc(u->held, (u->nheld + 1) * sizeof *u->held);
		u->held[u->nheld++] = (struct heldrun){ k->first, k->last, bl_xstrdup(k->reason),
							bl_xstrdup(k->text), k->by };
	} else {
		if (u->nheld) {   /* HELD_MAX runs: written as they come from now on */
			held_write(rs);
			u->spilled = true;
		}
		skip_row(rs, k->source, k->first, k->last, k->reason, k->msgid, k->text);
	}
	if (near_data(k->reason)) {
		nearlist_add(&rs->near, k->source, k->reason, k->text, k->first, k->last);
	} else if (strcmp(k->reason, "no format recognised") == 0) {
		nearlist_add(&rs->unit.pending, k->source, k->reason, k->text, k->first, k->last);
	}
	free(k->source);
	free(k->reason);
	free(k->msgid);
	memset(&k->by, 0, sizeof k->by);
	k->source = k->reason = k->msgid = NULL;
	k->open = false;
}

/* The run's text: the line's first SKIP_TEXT_MAX bytes at most, cut at a
 * UTF-8 character boundary. */
static void run_text(struct skiprun *k, const struct bl_line *ln)
{
	size_t n = ln->text ? ln->len : 0;
	if (n > SKIP_TEXT_MAX) {
		n = SKIP_TEXT_MAX;
		while (n > 0 && ((unsigned char)ln->text[n] & 0xC0) == 0x80)
			n--;
	}
	if (n)
		memcpy(k->text, ln->text, n);
	k->text[n] = '\0';
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
 * another reason: its tally keeps each line under the reason it was
 * skipped for, the one the report page counts, and a row of messages
 * that gave no record lists those (whole_flush()). */
static void on_skip(void *ud, const struct bl_line *ln, const char *reason, const char *note)
{
	struct rstate *rs = ud;
	const char *counted = reason;   /* the report page's reason for the line */
	if (note)                    /* "duplicate of the message at FILE:LINE" */
		reason = note;
	struct skiprun *k = &rs->run;
	const char *src = ln->source ? ln->source : "";
	const char *mid = ln->msg && ln->msg->message_id ? ln->msg->message_id : "";
	/* next: the line after the run's last, or another one starting on
	 * it (decoded base64, HTML: mail R7, formats.md "HTML input"), which
	 * is counted once */
	if (k->open && (ln->lineno == k->last + 1 || ln->lineno == k->last) &&
	    strcmp(k->source, src) == 0 && strcmp(k->msgid, mid) == 0) {
		bool joins = strcmp(k->reason, reason) == 0 || absorbed(ln, reason);
		bool relabel = !joins && (strcmp(k->reason, "blank line") == 0 ||
					  (strcmp(k->reason, "mbox separator") == 0 &&
					   strcmp(reason, "mail header") == 0));
		if (joins || relabel) {
			if (ln->lineno > k->last)
				tally_add(&k->by, counted);
			k->last = ln->lineno;
		}
		if (relabel) {
			/* the header after its separator; blank lines after a
			 * used line join the run after them */
			if (strcmp(k->reason, "blank line") == 0)
				run_text(k, ln);
			free(k->reason);
			k->reason = bl_xstrdup(reason);
		}
		if (joins || relabel)
			return;
	}
	skiprun_flush(rs);
	k->open = true;
	k->source = bl_xstrdup(src);
	k->reason = bl_xstrdup(reason);
	k->msgid = bl_xstrdup(mid);
	k->first = k->last = ln->lineno;
	tally_add(&k->by, counted);
	run_text(k, ln);
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
	struct unit *u = &rs->unit;
	if (!u->records || strcmp(u->source, src) != 0 || strcmp(u->msgid, mid) != 0) {
		/* a skipped run still open belongs to this unit or an earlier one */
		if (rs->run.open && (strcmp(rs->run.source, src) != 0 || strcmp(rs->run.msgid, mid) != 0))
			skiprun_flush(rs);
		unit_enter(rs, src, mid);
		u->records = true;
		held_write(rs);   /* its runs so far, a row each */
	}
	if (rs->groups.baseline)   /* read only to check --baseline */
		bl_groups_record(&rs->groups, r);
	size_t own = 0;
	while (!rs->compared && own < rs->tso->nown && strcmp(rs->tso->own[own], r->table->name) != 0)
		own++;
	rs->compared = rs->compared || own == rs->tso->nown;
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
	rs->failed += !r->copy_of && (!r->quoted || rs->o->an.include_quoted) && bl_record_failed(r);
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

/* An input's row of inputs.csv. */
static void input_row(FILE *f, const struct bl_input_stats *s)
{
	bl_report_csv_field(f, s->path, false);
	fprintf(f, "%lu,%lu,%lu,%lu,%lu,%d\n", s->lines, s->used, s->skipped, s->records,
		s->warnings, s->unreadable ? 1 : 0);
}

static void on_input(void *ud, const struct bl_input_stats *st)
{
	struct rstate *rs = ud;
	if (rs->nin < BL_MD_SHOWN) {
		rs->in[rs->nin] = *st;
		rs->in[rs->nin].path = bl_xstrdup(st->path);
	}
	rs->tot.lines += st->lines;
	rs->tot.used += st->used;
	rs->tot.skipped += st->skipped;
	rs->tot.records += st->records;
	rs->tot.warnings += st->warnings;
	if (rs->nin++ == BL_MD_SHOWN) {   /* the first past report.md's table */
		char *p = bl_xasprintf("%s/inputs.csv", rs->dir);
		if ((rs->incsv = fopen(p, "w")) == NULL)
			rs->in_err = errno;
		free(p);
		if (rs->incsv)
			fputs("input,lines,used,skipped,records,warnings,unreadable\n", rs->incsv);
		for (size_t i = 0; rs->incsv && i < BL_MD_SHOWN; i++)
			input_row(rs->incsv, &rs->in[i]);
	}
	if (rs->incsv)
		input_row(rs->incsv, st);
}

static void rstate_free(struct rstate *rs)
{
	for (size_t i = 0; i < rs->nin && i < BL_MD_SHOWN; i++)
		free((char *)rs->in[i].path);
	if (rs->incsv)
		fclose(rs->incsv);
	for (size_t i = 0; i < rs->nt; i++) {
		size_t w = 3 + rs->t[i].def->ncols;
		for (size_t k = 0; k < rs->t[i].nprev * w; k++)
			free(rs->t[i].cells[k]);
		free(rs->t[i].cells);
	}
	free(rs->t);
	bl_groups_release(&rs->groups);
}

/* ---- Markdown (input text through core/escape.h, E1) ---- */

static int cmp_table(const void *a, const void *b)
{
	const struct tstat *x = a, *y = b;
	return strcmp(x->def->name, y->def->name);
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

/* Counts of n reasons, the most first, as a table titled what. */
static void write_counts(FILE *md, const struct bl_count *v, size_t n, const char *what,
			 const char *col, const char *ncol)
{
	struct bl_count *c = bl_counts_sorted(v, n);
	fprintf(md, "%s:\n\n| %s | %s |\n|---|--:|\n", what, col, ncol);
	for (size_t i = 0; i < n; i++) {
		fputs("| ", md);
		bl_fput_md_inline(md, c[i].reason);
		fprintf(md, " | %lu |\n", c[i].n);
	}
	fputc('\n', md);
	free(c);
}

static void write_intro(FILE *md, const struct rstate *rs, const struct bl_ctx *ctx,
			const char *const *sections, size_t nsec, const struct bl_findings *findings,
			double conf)
{
	const struct bl_report_opts *o = rs->o;
	fprintf(md, "# benchlog report\n\n");
	/* the answer first, in plain words (headline.h), then its table */
	bl_report_headline(md, findings, conf);
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
	bl_report_findings(md, findings, conf);
	fprintf(md, "## Inputs\n\n");
	unsigned long ntables = 0;
	for (size_t i = 0; i < rs->nt; i++)
		ntables += rs->t[i].rows > 0;
	fprintf(md, "**%s**, %s: **%lu used**, %lu skipped; **%s** in %s. "
		    "Every skipped line is listed with its reason in [skipped.csv](skipped.csv); "
		    "the tables are in the folder [csv](csv/).\n\n",
		BL_COUNT(rs->nin, "input"), BL_COUNT(ctx->lines_total, "line"), ctx->lines_used,
		ctx->lines_skipped, BL_COUNT(ctx->records, "record"), BL_COUNT(ntables, "table"));
	const struct bl_copies *cp = &ctx->copies;
	if (cp->blocks)
		fprintf(md, "**%s in %s copy earlier ones** (the same values, record by record: a "
			    "result posted again, quoted in a reply, pasted twice): they keep their rows, "
			    "marked in the column `copy_of`, and are left out of the statistics, "
			    "comparisons and charts.\n\n",
			BL_COUNT(cp->records, "record"), BL_COUNT(cp->blocks, "block"));
	if (rs->failed)
		fprintf(md, "**%s of a failed command** (its `status` or a non-zero `exit_status` says "
			    "so): not a measurement, so left out of the statistics, comparisons and charts "
			    "(%s in the time table).\n\n", BL_COUNT(rs->failed, "timed run"),
			rs->failed == 1 ? "its row stays" : "their rows stay");
	if (cp->too_long || cp->unremembered)
		fprintf(md, "%s of over %d records not compared; %s after the first %d compared but "
			    "not remembered.\n\n",
			BL_COUNT(cp->too_long, "block"), BL_BLOCK_MAX, BL_COUNT(cp->unremembered, "block"),
			BL_BLOCKS_SEEN);
	if (cp->msgs_unremembered)
		fprintf(md, "%s after the first %d compared as a whole but not remembered.\n\n",
			BL_COUNT(cp->msgs_unremembered, "mail message"), BL_BLOCKS_SEEN);
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
	for (size_t i = 0; i < rs->nin && i < BL_MD_SHOWN; i++) {
		const struct bl_input_stats *s = &rs->in[i];
		fputs("| ", md);
		bl_fput_md_inline(md, s->path);
		if (s->unreadable)
			fputs(" (could not be read in full)", md);
		fprintf(md, " | %lu | %lu | %lu | %lu | %lu |\n", s->lines, s->used, s->skipped,
			s->records, s->warnings);
	}
	if (rs->nin > BL_MD_SHOWN)
		fprintf(md, "| %zu more inputs, each in [inputs.csv](inputs.csv) | | | | | |\n",
			rs->nin - BL_MD_SHOWN);
	const struct bl_input_stats *t = &rs->tot;
	/* said while the inputs were listed (a folder, a plain log beside its
	 * .gz), before any was read: no input's, but the intro's total counts it */
	unsigned long all = bl_warn_total(ctx), listed = all > t->warnings ? all - t->warnings : 0;
	if (listed)
		fprintf(md, "| said while listing the inputs, before reading them | | | | | %lu |\n", listed);
	if (rs->nin != 1 || listed)
		fprintf(md, "| **total** | **%lu** | **%lu** | **%lu** | **%lu** | **%lu** |\n", t->lines,
			t->used, t->skipped, t->records, t->warnings + listed);
	fputc('\n', md);

	if (ctx->nskips) {
		bl_md_details_open(md, "Skipped lines by reason");
		write_counts(md, ctx->skips, ctx->nskips, "Skipped lines by reason", "reason", "lines");
		bl_md_details_close(md);
	}
	write_runs(md, &rs->near, "Skipped inside recognised data, where data can be lost");
	write_runs(md, &rs->prose, "Lines no parser read, in messages and files that gave records");
	if (ctx->nwarns)
		write_counts(md, ctx->warns, ctx->nwarns, "Warnings by kind", "warning", "count");
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
	char *p = bl_xasprintf("%s/%s.%s", dir, name, suffix);
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
	static const char *const kinds[][2] = { { "png", "PNG" }, { "svg", "SVG" },
						{ "gp", "gnuplot script" } };
	for (size_t k = 0; k < 3; k++) {
		if (file_exists(plots, c->name, kinds[k][0])) {
			fprintf(md, "%s[%s](plots/%s.%s)", sep, kinds[k][1], c->name, kinds[k][0]);
			sep = ", ";
		}
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

/* While the sections are made, each chart's gnuplot script and data are
 * written (plot.h, script_only) and its run queued; once every section is
 * written the runs are jobs on the pool (-j), costliest first. */
struct chart_job {
	char *dir, *script;
	char fmts[8];                /* "png" or "svg" */
	size_t sec;                  /* index into the sections */
	unsigned long long bytes;    /* the script and its data: a guess of
					how long gnuplot takes */
	struct bl_gp_limits gp;
	int rc;
	char *msg;                   /* gnuplot's stderr or why it failed */
};

struct charts {
	struct chart_job *v;
	size_t n;
	struct bl_gp_limits gp;      /* of every run */
};

/* A run per image format: the swpd chart of the bench's 10,000 files
 * takes gnuplot 0.87 s as PNG and 0.30 s as SVG, drawn at once on -j2. */
static void chart_queue(struct charts *q, const char *dir, const struct bl_chart *c, size_t sec)
{
	static const char *const fmts[] = { "png", "svg" };
	q->v = bl_xrealloc(q->v, (q->n + 2) * sizeof *q->v);
	for (size_t f = 0; f < 2; f++) {
		struct chart_job *j = &q->v[q->n++];
		memset(j, 0, sizeof *j);
		j->dir = bl_xstrdup(dir);
		j->script = bl_xasprintf("%s.gp", c->name);
		snprintf(j->fmts, sizeof j->fmts, "%s", fmts[f]);
		j->sec = sec;
		j->bytes = c->bytes >> f;    /* SVG is cheaper to draw */
	}
}

/* Run gnuplot for one chart and check that it made each image. */
static void chart_draw(struct chart_job *j)
{
	j->rc = bl_gp_run(j->dir, j->script, j->fmts, NULL, &j->gp, &j->msg);
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
	int c = strcmp(x->script, y->script);
	return c ? c : strcmp(x->fmts, y->fmts);
}

/* A job on the pool: one chart drawn, unless the run was stopped. */
static void chart_job(void *arg)
{
	struct chart_job *j = arg;
	if (j->gp.stop && *j->gp.stop)
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
		q->v[i].gp = q->gp;
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
		       bool gnuplot_missing, const struct bl_findings *findings, double conf,
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
		/* the text then one blank line, not two */
		if (x->len && x->text[x->len - 1] != '\n')
			fputc('\n', mdf);
		if (x->len && !(x->len >= 2 && x->text[x->len - 2] == '\n' && x->text[x->len - 1] == '\n'))
			fputc('\n', mdf);
		for (size_t k = 0; k < x->nch; k++)
			chart_files(mdf, plots, &x->ch[k]);
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
	int e = errno;
	free(p);
	if (!f) {
		errno = e;
		return -BL_EIO;
	}
	size_t n = len ? fwrite(data, 1, len, f) : 0;
	e = errno;
	if (fclose(f) != 0)
		return -BL_EIO;
	errno = e;   /* a short write's, which fclose() may change */
	return n == len ? 0 : -BL_EIO;
}


static bool is_stopped(const struct bl_report_opts *o)
{
	return o->stop && *o->stop;
}

/* What bl_report_build() holds from step to step. */
struct build {
	const struct bl_report_opts *o;
	struct bl_report_result *res;
	FILE *diag;
	struct bl_outdir od;
	char *csvdir, *plots, *skpath;
	struct bl_ctx ctx;           /* the pass: every sink of the report */
	bool finished;               /* the context finished */
	struct bl_sink db;           /* report.sqlite, finished (its indexes made,
					committed) while gnuplot draws: 1.5 G
					of the 10,000 files' 22.8 G instructions */
	bool db_done;                /* db finished */
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
	struct bl_tstats *ts;
	struct bl_compare_opts co;
	struct bl_cmp_rows findings; /* the rows not yet taken into fs */
	struct bl_cmp_drain *drain;  /* by source: compared input by input (compare.h C8) */
	struct bl_findings fs;       /* every row streamed to findings.csv, the first kept (findings.h F8) */
	bool tmp_failed;             /* the pass stopped on a temporary file, not on the tables */
};

/* A sink of the pass whose -BL_EIO is a temporary file's (the analyses':
 * analysis.h; the Findings' tables), told from the tables' own writes. */
struct tmp_sink {
	struct bl_sink s;
	struct build *b;
};

static int tmp_record(void *ud, const struct bl_record *r)
{
	struct tmp_sink *t = ud;
	int rc = t->s.record(t->s.ud, r);
	if (rc == -BL_EIO && !t->b->ctx.error)   /* the first error only, as ctx keeps */
		t->b->tmp_failed = true;
	return rc;
}

static void tmp_sink_add(struct build *b, struct bl_sink s)
{
	struct tmp_sink *t = bl_xcalloc(1, sizeof *t);
	*t = (struct tmp_sink){ s, b };
	bl_ctx_add_sink(&b->ctx, &(struct bl_sink){ tmp_record, NULL, free, t, s.copies });
}

/* An input read: counted, and with the Findings by source, its groups
 * compared and dropped (compare.h C8): memory holds one input's groups. */
static void input_done(void *ud, const struct bl_input_stats *st)
{
	struct build *b = ud;
	on_input(&b->rs, st);
	if (st->used + st->skipped != st->lines)
		bl_term_printf(b->diag, "benchlog report: %s: %lu lines but %lu used + %lu skipped "
			       "(a line-accounting bug; please report it)\n",
			       st->path, st->lines, st->used, st->skipped);
	if (b->drain && b->rs.compared) {   /* else ts holds no group (C8: all dropped) */
		bl_compare_drain(b->ts, &b->co, b->drain, &b->findings);
		bl_findings_take(&b->fs, &b->findings);   /* a failed write: f->err, said at the end */
	}
	b->rs.compared = false;
}

/* The temporary folder, its csv/ and plots/, skipped.csv, and the sinks
 * of the pass: the CSV files, SQLite, skipped.csv, the preview tables,
 * the analyses and the Findings' tables. */
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
	b->rs.dir = b->od.tmp;
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
	struct bl_table_opts to = { BL_OUT_CSV, b->o->spreadsheet_safe };
	if (bl_dir_sink(&s, b->csvdir, NULL, &to)) {
		bl_term_printf(b->diag, "benchlog report: cannot write to %s: %s\n", b->csvdir, strerror(errno));
		return -BL_EIO;
	}
	bl_ctx_add_sink(&b->ctx, &s);
	/* the same tables typed, beside csv/ (tables/sqlite.h) */
	char *db = bl_xasprintf("%s/report.sqlite", b->od.tmp);
	const char *sqwhy = NULL;
	rc = bl_sqlite_sink(&b->db, db, NULL, &sqwhy);
	if (rc) {
		b->db_done = true;
		bl_term_printf(b->diag, "benchlog report: cannot write %s: %s\n", db, sqwhy ? sqwhy : strerror(errno));
		free(db);
		return -BL_EIO;
	}
	char *fp = bl_xasprintf("%s/findings.csv", b->od.tmp);
	rc = bl_findings_begin(&b->fs, fp, &b->db);
	free(fp);
	if (rc) {
		bl_term_printf(b->diag, "benchlog report: cannot write %s: %s\n", b->fs.err ? "findings.csv" : db,
			       strerror(b->fs.err ? b->fs.err : errno ? errno : EIO));
		free(db);
		return rc;
	}
	free(db);
	s = (struct bl_sink){ b->db.record, NULL, NULL, b->db.ud, b->db.copies };
	bl_ctx_add_sink(&b->ctx, &s);
	b->ctx.skip.skipped = on_skip;
	b->ctx.skip.ud = &b->rs;
	/* the tables' previews and counts: copies too, as the CSV has them */
	s = (struct bl_sink){ table_record, NULL, NULL, &b->rs, true };
	bl_ctx_add_sink(&b->ctx, &s);
	struct bl_analysis_opts ao = o->an;
	ao.parse = o->parse;
	ao.diag = b->diag;
	for (size_t i = 0; i < b->na; i++) {
		b->st[i] = bl_analyses[i]->create(&ao);
		tmp_sink_add(b, (struct bl_sink){ bl_analyses[i]->record, NULL, NULL, b->st[i], false });
	}
	/* the Findings: every table's groups, per split and measure, within
	 * one message or file unless told otherwise (findings.h F1: the
	 * source is a grouping key) */
	b->tso.compare = true;
	b->tso.by_source = !o->compare_all && !o->an.baseline;
	b->tso.include_quoted = o->an.include_quoted;
	bl_analyses_own(b->tso.own, &b->tso.nown);
	b->rs.tso = &b->tso;
	b->ts = bl_tstats_new(&b->tso, &b->ctx);
	bl_tstats_sink(b->ts, &s);
	tmp_sink_add(b, s);
	b->co = (struct bl_compare_opts){ o->an.baseline, o->an.confidence, BL_CMP_WELCH, BL_TAB_TEXT,
					  o->bands, o->nbands, false, 0 };
	if (b->tso.by_source) {
		b->drain = bl_cmp_drain_new();
		bl_analyses_own(b->findings.own, &b->findings.nown);
	}
	return 0;
}

/* The pass's last records given to the sinks (a held block, core/block.h)
 * and skipped.csv closed; the CSV files are closed by csv_close(). 0, or
 * -BL_EIO with *err the errno of the first failed write. */
static int tables_close(struct build *b, int *err)
{
	bl_block_message_end(&b->ctx);
	struct rstate *rs = &b->rs;
	skiprun_flush(rs);
	unit_end(rs);
	whole_flush(rs);
	if (fclose(rs->skipped) != 0 && !rs->skip_err) {
		rs->skip_err = -BL_EIO;
		rs->skip_errno = errno;
	}
	rs->skipped = NULL;
	if (b->ctx.error == -BL_EIO) {
		*err = b->ctx.error_errno;
		return -BL_EIO;
	}
	*err = rs->skip_errno;
	return rs->skip_err;
}

/* The CSV files flushed, synced and renamed into place (the context's
 * finish) and given the user's mode: while gnuplot draws, their syncs
 * (0.1 s on the bench's 10,000 files) off the way to the charts. 0 or
 * -BL_EIO, said. */
static int csv_close(struct build *b)
{
	b->finished = true;
	int rc = bl_ctx_finish(&b->ctx, 1);
	if (rc) {
		bl_term_printf(b->diag, "benchlog report: cannot write the tables: %s\n",
			       rc == -BL_EIO ? strerror(errno) : bl_strerror(rc));
		return -BL_EIO;
	}
	share_files(b->csvdir);
	return 0;
}

/* Every input parsed (parsers/pass.h), the tables closed, the counts
 * taken; --strict refuses malformed or unreadable input. */
static int build_parse(struct build *b)
{
	const struct bl_report_opts *o = b->o;
	/* The report's own folders are not read when they sit inside an input
	 * folder (`benchlog report -o out .`). */
	const char *exclude[] = { b->od.final, b->od.tmp };
	bool excluded_any = false;
	struct bl_pass_hooks h = { input_done, b, exclude, 2, &excluded_any };
	int rc = bl_pass_run(&b->ctx, o->inputs, o->ninputs, &h);
	if (excluded_any)
		bl_term_printf(b->diag, "benchlog report: not reading %s (the report's own folder, inside an input "
			      "folder)\n", b->od.final);
	if (rc == -BL_EINTR || is_stopped(o))
		return -BL_EINTR;
	if (rc == -BL_EUSAGE)
		return rc;
	int err = 0;
	int trc = rc ? 0 : tables_close(b, &err);
	/* a temporary file of the pass's own, or of a sink that named its
	 * folder (report.sqlite's sources: tables/sqlite.c) */
	if ((rc || trc) && (b->tmp_failed || bl_ctx_temp_error(&b->ctx)) && b->ctx.error == -BL_EIO) {
		bl_tmp_say(b->diag, "report", b->ctx.error_errno);
		return -BL_EIO;
	}
	if (rc || trc) {
		const char *what = rc && rc != -BL_EIO ? bl_strerror(rc)
				  : b->ctx.error == -BL_EIO ? strerror(b->ctx.error_errno)
				  : trc != -BL_EIO ? bl_strerror(trc) : strerror(err);
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
	/* --baseline must name a group, as in compare: a usage error listing
	 * them, and the folder left as it was */
	if (res->records && bl_groups_check(b->diag, "report", &b->rs.groups))
		return -BL_EUSAGE;
	if (o->parse->strict && (res->warnings || res->input_errors)) {
		bl_term_printf(b->diag, "benchlog report: --strict: input was malformed or unreadable; "
			      "%s left as it was\n", o->dir);
		return -BL_EFORMAT;
	}
	return 0;
}

/* A chart that could not be drawn fails the report (build_charts()):
 * nothing half-made replaces an earlier one. why: bl_chart_why(). */
static void warn_charts(struct build *b, const struct section *x, const char *why)
{
	b->res->chart_failed = true;
	bl_term_printf(b->diag, "benchlog report: the %s charts could not be drawn (%s)\n", x->an->name, why);
}

/* One section per analysis with data, in registry order: its charts'
 * scripts and data, drawn by plot/ from the analysis's results (their
 * gnuplot runs queued in b->charts), then its text. */
static int build_sections(struct build *b)
{
	/* the analyses' temporary files complete before any section is made
	 * (analysis.h finish): a full /tmp is said as docs/errors.md says */
	if (bl_analyses_finish(b->st, b->na) < 0) {
		bl_tmp_say(b->diag, "report", errno);
		return -BL_EIO;
	}
	size_t nsec = 0;
	for (size_t i = 0; i < b->na; i++)
		if (bl_analyses[i]->has_data(b->st[i]))
			b->titles[nsec++] = bl_analyses[i]->title;
	b->secs = bl_xcalloc(nsec ? nsec : 1, sizeof *b->secs);
	struct bl_chart_opts co = { b->plots, BL_PLOT_PNG | BL_PLOT_SVG, true, { 0, NULL } };
	bool have_gnuplot = bl_gp_available();
	/* a stop kills a gnuplot run at once */
	b->charts.gp = (struct bl_gp_limits){ b->o->gp_timeout_s, b->o->stop };
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
			int e = errno;   /* why charts() failed (EFBIG, ENOSPC), or 0 */
			if (!have_gnuplot && x->nch && x->prc == 0)
				x->prc = -BL_ENOTFOUND;
			for (size_t k = 0; have_gnuplot && k < x->nch; k++)
				chart_queue(&b->charts, b->plots, &x->ch[k], b->nsecs - 1);
			if (x->prc == -BL_ENOTFOUND)
				b->res->gnuplot_missing = true;
			else if (x->prc < 0)
				warn_charts(b, x, bl_chart_why(x->prc, e));
		}
		FILE *sf = open_memstream(&x->text, &x->len);
		if (!sf) {
			rc = -BL_ENOMEM;
			break;
		}
		int wrc = an->write(b->st[i], sf, BL_DOC_MD, x->ch, x->nch);
		int e = errno;   /* -BL_EIO: why (a temporary file read back), before fclose() */
		fclose(sf);
		b->res->charts += x->nch;
		if (wrc) {
			rc = wrc;
			bl_term_printf(b->diag, "benchlog report: cannot write the %s section: %s\n", an->name,
				wrc == -BL_EIO && e ? strerror(e) : bl_strerror(wrc));
		}
	}
	return rc ? rc : is_stopped(b->o) ? -BL_EINTR : 0;
}

/* inputs.csv, every input's line of the inputs table when report.md
 * lists only the first BL_MD_SHOWN (on_input() wrote it), closed. 0 or
 * -BL_EIO with errno. */
static int close_inputs_csv(struct rstate *rs)
{
	FILE *f = rs->incsv;
	rs->incsv = NULL;
	if (!f) {
		errno = rs->in_err;
		return rs->in_err ? -BL_EIO : 0;
	}
	int bad = ferror(f);
	return fclose(f) != 0 || bad ? -BL_EIO : 0;
}

/* report.sqlite finished with the Findings in it (findings.h F6),
 * findings.csv and inputs.csv closed: the files that need no chart,
 * written while gnuplot draws (-j2: the 10,000 files' report 0.2 s
 * sooner for the findings). */
static int build_chartless(struct build *b)
{
	if (csv_close(b))
		return -BL_EIO;
	b->db_done = true;
	if (b->db.finish(b->db.ud, 1)) {
		bl_term_printf(b->diag, "benchlog report: cannot write the tables: %s\n", strerror(errno));
		return -BL_EIO;
	}
	/* every row went to the file as it was taken (findings.h F8) */
	int rc = bl_findings_end(&b->fs);
	if (rc && b->fs.tmp_failed) {
		bl_tmp_say(b->diag, "report", b->fs.err);
		return rc;
	}
	if (rc) {
		bl_term_printf(b->diag, "benchlog report: cannot write findings.csv: %s\n", strerror(b->fs.err));
		return rc;
	}
	if ((rc = close_inputs_csv(&b->rs)) != 0)
		fprintf(b->diag, "benchlog report: cannot write inputs.csv: %s\n", strerror(errno));
	return rc;
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
	struct bl_findings_opts fo = { &b->co, b->o->compare_all, NULL, NULL, 0, b->drain != NULL };
	if (b->drain) {
		(void)bl_tstats_ntables(b->ts);   /* its notes, over every input */
		bl_compare_drain_end(b->drain, &b->findings);
	}
	bl_analyses_findings(b->ts, b->st, &fo, &b->findings);
	bl_findings_take(&b->fs, &b->findings);
	int rc = build_chartless(b);
	charts_wait(&b->charts, b->o->pool);
	if (is_stopped(b->o))
		return -BL_EINTR;
	if (rc)
		return rc;
	int serr = bl_tstats_spill_err(b->ts);   /* groups put out and read back empty: wrong Findings */
	if (serr) {
		bl_tmp_say(b->diag, "report", serr);
		return -BL_EIO;
	}
	for (size_t k = 0; k < b->charts.n; k++) {
		const struct chart_job *j = &b->charts.v[k];
		/* a chart's failure named once: its SVG run fails as its PNG did */
		if (!j->rc || (k && j[-1].rc && strcmp(j[-1].script, j->script) == 0))
			continue;
		struct section *x = &b->secs[j->sec];
		size_t sl = strlen(j->script) > 3 ? strlen(j->script) - 3 : 0;
		if (j->msg) {
			/* gnuplot's own lines stay lines (E7 with LF) */
			bl_term_printf(b->diag, "benchlog: %.*s chart: ", (int)sl, j->script);
			bl_fput_term(b->diag, j->msg, strlen(j->msg));
			fputc('\n', b->diag);
		}
		if (x->prc >= 0) {
			x->prc = j->rc;
			warn_charts(b, x, bl_chart_why(j->rc, 0));
		}
	}
	if (b->res->chart_failed) {
		bl_term_printf(b->diag, "benchlog report: a chart could not be drawn; %s left as it was\n",
			       b->o->dir);
		return -BL_EIO;
	}
	return 0;
}

/* report.md, and report.html rendered from it. */
static int build_documents(struct build *b)
{
	int rc = assemble_md(&b->rs, &b->ctx, b->plots, b->titles, b->secs, b->nsecs,
			     b->res->gnuplot_missing, &b->fs, b->co.confidence, &b->md, &b->mdlen);
	if (rc)
		return rc;
	if ((rc = write_file(b->od.tmp, "report.md", b->md, b->mdlen)) != 0) {
		bl_term_printf(b->diag, "benchlog report: cannot write report.md: %s\n", strerror(errno));
		return rc;
	}
	char *hp = bl_xasprintf("%s/report.html", b->od.tmp);
	FILE *hf = fopen(hp, "w");
	int e = errno;
	free(hp);
	if (!hf) {
		bl_term_printf(b->diag, "benchlog report: cannot write report.html: %s\n", strerror(e));
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
	bl_findings_release(&b->fs);
	bl_cmp_drain_free(b->drain);
	bl_tstats_free(b->ts);
	if (b->rs.skipped)
		fclose(b->rs.skipped);
	b->rs.skipped = NULL;        /* unit_end() below writes nothing then */
	free(b->rs.run.source);
	free(b->rs.run.reason);
	free(b->rs.run.msgid);
	unit_end(&b->rs);            /* before prose: it may add to it */
	whole_flush(&b->rs);
	nearlist_release(&b->rs.near);
	nearlist_release(&b->rs.prose);
	if (!b->finished)
		bl_ctx_finish(&b->ctx, 0);
	if (!b->db_done && b->db.finish)
		b->db.finish(b->db.ud, 0);
	if (b->db.free)
		b->db.free(b->db.ud);
	for (size_t i = 0; i < b->na; i++)
		if (b->st[i])
			bl_analyses[i]->destroy(b->st[i]);
	free(b->st);
	free(b->titles);
	bl_ctx_release(&b->ctx);
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
	struct bl_opts popt = *o->parse;
	popt.progress = o->progress;
	popt.stop = o->stop;
	bl_ctx_init(&b.ctx, &popt);
	b.ctx.diag = b.diag;
	b.rs.o = o;
	b.rs.groups.baseline = o->an.baseline;
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

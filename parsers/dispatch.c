/* dispatch.c — offers lines to the parsers, joins wrapped records, finds
 * group labels and accounts for every line (see dispatch.h, parser.h).
 *
 * Group labels: a record's group is the nearest label before it in the
 * same unit; a label never outlives its unit (file, or mail message).
 * docs/formats.md states these rules; `group_source` names the rule.
 *   L1 --group NAME fixes the group for everything.              (option)
 *   L2 a line matching --group-regex sets the group (capture 1, else the
 *      whole match); the line is used as a label.                 (option)
 *   L3 a line no parser takes that starts with a kernel version
 *      (x.y.z with an optional suffix: 2.4.12aa1, 2.4.13-pre2aa1,
 *      2.6.0-test4, 5.4.79-v7l+) sets the group to that version.  (label)
 *   L4 a short heading directly above the data sets the group when the
 *      next non-blank line is taken by a parser (label). A heading is
 *      1-4 words, at most 40 bytes, a letter first, no final punctuation,
 *      none of = < > | # / " : ( ) [ ] { } @ $ % \ * & (program output
 *      such as "poll01.c:69: PASS: poll()" and code never are), not a
 *      generic word ("Sample output", "done"). It stands alone: the line
 *      before it is blank, data, a label, or ends a sentence (. : ! ?),
 *      so neither the tail of a wrapped sentence nor a sign-off name
 *      under "Thanks," is one; it is at the quote depth of its data. An
 *      underline right after it ("WITH EXT2" / "---------", setext style:
 *      only '-' or '=', 3 or more) keeps it pending and shares its fate.
 *   L4b a result label (parsers/labels.c: "Before:", "Without the patch:",
 *      "base", "patched", "by using X", "NOK: v6.18-rc3:") that no parser
 *      takes sets the group when data at its quote depth follows it with
 *      at most 3 other non-blank lines between (a command line, "***
 *      Executing round 1 ***"), so the records under "Before:" and under
 *      "After:" of one message are two groups (label). A bare label
 *      (no ':') must stand alone as a heading does. A kernel label or a
 *      later result label before the data replaces it. Confirmed, it is
 *      the group until another label takes over, a line of smaller quote
 *      depth comes (a reply's own text below a quoted label) or a line of
 *      text at its depth introduces something else (4 or more words and
 *      a final ':' or ':-', "Below is the summary of testlog :-"); then
 *      the group before it comes back. Settings (R6) are a label only
 *      over keys (L4c): data right under them leaves them text.
 *   L4c a heading, or a heading with a final ':' ("loop:"), directly
 *      above the data and under a result label at its quote depth is a
 *      key under it when it is indented as much as the label or more
 *      while the label waits for its data, or more than the label or as
 *      much as the label's earlier keys once the label is in force: the
 *      group becomes "LABEL / KEY" ("base / loop"; labels.h
 *      bl_label_nested), up to the next key, and the label's scope goes
 *      on (label). So results posted per side and, under each side, per
 *      transport or device are a group per (side, key), never one group
 *      per side pooling the keys.
 *   L4d a heading of one word and a final ':' ("loop:") directly above
 *      the data, under no result label, is a key of its own: the group
 *      "#N / KEY", N the times the key came over data in the unit so
 *      far (label), so a key posted again (its results under another,
 *      unnamed configuration) is round 2, never pooled with round 1.
 *   L4e a heading, or one with a final ':', directly above a result
 *      label more indented than it is a key over sides: the label's
 *      group is "KEY / LABEL" ("loop / before"), and so is a later
 *      label's more indented than the key, until a line of text as
 *      little indented as the key or less, or of another quote depth.
 *   L5 in mail, a line no parser takes that names a kernel version after
 *      "Linux" or "kernel" ("Linux version 6.10.0-rc5+", "on kernel
 *      5.16.0") sets the group when it is still the thread's (kernel).
 *   L6 otherwise the group is the unit's default: in mail the kernel
 *      version the subject names (subject), else the thread — the subject
 *      without Re:/Fwd:/[…] tags (thread); for a plain file its name's
 *      stem (file). A mail message's group is never the file's stem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "parsers/dispatch.h"
#include "input/mail.h"
#include "core/escape.h"
#include "core/re.h"
#include "input/reader.h"
#include "core/util.h"
#include "parsers/labels.h"
#include "parsers/parser.h"
#include "parsers/timeparse.h"

struct held_line {
	char *text;
	size_t len;
	unsigned long lineno;
	int depth;
};

/* The longest line the parsers are given: a line of the reader is at
 * most BL_LINE_MAX bytes, but a decoded mail line reaches the dispatcher
 * unchecked, and normalise() lets it through up to 16 bytes over (what
 * removing escapes and a CR can take back). */
#define LINE_ROOM ((size_t)BL_LINE_MAX + 16)

/* A line of the record being joined: its text is in d->joined (the held
 * lines joined by single spaces), from off, len bytes, so holding a line
 * copies it once and allocates nothing. */
struct held_seg {
	size_t off, len;
	unsigned long lineno;
	int depth;
};

struct bl_dispatch {
	size_t np;
	void **st;
	int active;                 /* index into bl_parsers or -1 */
	int prev_active;            /* the one active before it, or -1 */
	/* A record being joined (BL_MORE). */
	int held_p;                 /* parser, -1 when nothing is held */
	struct held_seg held[BL_JOIN_MAX];
	size_t nheld;
	struct bl_buf joined;
	struct bl_buf seg;          /* one held line, NUL-terminated, to skip it */
	/* A candidate heading (rule L4). */
	struct held_line heading;
	bool has_heading;
	struct held_line underline;   /* the heading's underline, if any */
	bool has_underline;
	/* A pending result label (rule L4b): the line, its group (the
	 * label's name, after its key's under rule L4e), and the non-blank
	 * lines seen since. */
	struct held_line rlabel;
	struct bl_buf rname;
	bool has_rlabel;
	bool rlabel_settings;       /* R6: a label only over keys (rule L4c) */
	int rlabel_gap;
	/* A confirmed result label's scope: its depth and the group before
	 * it (owned), which comes back when the scope ends. */
	bool in_scope;
	int scope_depth;
	char *scope_prev;
	const char *scope_prev_source;
	/* Rule L4c: the confirmed label's name (owned) and its line's
	 * indent; whether the pending heading is a key, and its group. */
	char *outer;
	size_t outer_indent, key_indent;   /* key_indent: its keys', SIZE_MAX none yet */
	bool heading_key;
	struct bl_buf keyg;
	/* Rules L4d, L4e: the heading the line before was (owned), its
	 * indent and depth; round: it may be a key of L4d; live: a result
	 * label came under it (L4e). seen: "\nKEY\n" for each L4d result. */
	char *ikey;
	size_t ikey_indent;
	int ikey_depth;
	bool ikey_round, ikey_live, ikey_next;
	struct bl_buf seen;
	struct bl_buf norm;         /* the current line after normalisation */
	struct bl_re kernel_re, body_kernel_re, user_re;
	bool has_user_re;
	struct bl_re user_re_bytes;   /* the same pattern on bytes (rule L2) */
	bool has_user_re_bytes;
	char *bytes_warned;           /* the input whose byte match was warned */
	/* What the line before the current one was, for rule L4. */
	enum { PK_BLANK, PK_DATA, PK_END, PK_TEXT } prev;
};

/* Non-blank lines allowed between a result label and its data (rule L4b). */
#define RLABEL_GAP_MAX 3

static const char *const generic_headings[] = {
	"sample output", "output", "results", "result", "example", "data",
	"summary", "comments", "notes", "note", "test", "tests", "details",
	"before", "after", "thanks", "regards", "cheers", "hi", "hello",
	"done", "ok", "okay", "finished", "complete", "completed", "passed", "failed",
	"success", "error", "errors", "warning", "warnings", "best regards",
	"kind regards", "thank you", "thanks again", "many thanks", NULL,
};

/* A pattern that did not compile, said where the pass's warnings go. */
static void open_error(struct bl_ctx *ctx, char *err)
{
	if (ctx->diag)
		bl_term_printf(ctx->diag, "benchlog: %s\n", err ? err : "a pattern does not compile");
	free(err);
}

/* The parsers' states, the first n of them initialised. */
static void free_states(struct bl_dispatch *d, size_t n)
{
	for (size_t i = 0; i < d->np; i++) {
		if (i < n && bl_parsers[i]->release)
			bl_parsers[i]->release(d->st[i]);
		free(d->st[i]);
	}
	free(d->st);
}

/* d and all it holds; its first nstates parser states initialised. A
 * pattern never compiled, or that failed to, releases as nothing. */
static void dispatch_free(struct bl_dispatch *d, size_t nstates)
{
	free_states(d, nstates);
	free(d->heading.text);
	free(d->underline.text);
	free(d->rlabel.text);
	free(d->scope_prev);
	free(d->outer);
	free(d->ikey);
	bl_buf_release(&d->keyg);
	bl_buf_release(&d->seen);
	bl_buf_release(&d->rname);
	bl_buf_release(&d->joined);
	bl_buf_release(&d->seg);
	bl_buf_release(&d->norm);
	bl_re_release(&d->kernel_re);
	bl_re_release(&d->body_kernel_re);
	bl_re_release(&d->user_re);
	bl_re_release(&d->user_re_bytes);
	free(d->bytes_warned);
	free(d);
}

int bl_dispatch_open(struct bl_ctx *ctx)
{
	struct bl_dispatch *d = bl_xcalloc(1, sizeof *d);
	/* The patterns first: a bad --group-regex fails before any parser
	 * state exists. */
	char *err = NULL;
	int rc = bl_re_compile(&d->kernel_re,
		"^(?:linux[- ]|kernel[ :]+|v)?([2-6]\\.[0-9]{1,2}\\.[0-9]{1,3}(?:[-.+_~]?[A-Za-z0-9][A-Za-z0-9._+~-]*)?)"
		"(?=$|[\\s:,;()\\]])", BL_RE_CASELESS, "kernel label pattern", &err);
	if (!rc)
		rc = bl_re_compile(&d->body_kernel_re,
			"(?<![A-Za-z0-9_])(?:linux|kernel)(?:\\s+version)?\\s+v?([2-9]\\.[0-9]{1,2}(?:\\.[0-9]{1,3})?"
			"(?:-[A-Za-z0-9][A-Za-z0-9._+~-]*)?)(?=$|[\\s:,;()\\]])",
			BL_RE_CASELESS, "kernel in a message body", &err);
	if (rc) {
		open_error(ctx, err);
		dispatch_free(d, 0);
		return rc;
	}
	if (ctx->opt.group_regex) {
		rc = bl_re_compile(&d->user_re, ctx->opt.group_regex, 0, "--group-regex", &err);
		if (rc) {
			open_error(ctx, err);
			dispatch_free(d, 0);
			return -BL_EUSAGE;
		}
		d->has_user_re = true;
		d->has_user_re_bytes = bl_re_compile(&d->user_re_bytes, ctx->opt.group_regex, BL_RE_BYTES,
						     "--group-regex", NULL) == 0;
	}
	while (bl_parsers[d->np])
		d->np++;
	d->st = bl_xcalloc(d->np, sizeof *d->st);
	for (size_t i = 0; i < d->np; i++)
		d->st[i] = bl_xcalloc(1, bl_parsers[i]->state_size ? bl_parsers[i]->state_size : 1);
	for (size_t i = 0; i < d->np; i++) {
		rc = bl_parsers[i]->init ? bl_parsers[i]->init(d->st[i], ctx, &err) : 0;
		if (rc) {
			open_error(ctx, err);
			dispatch_free(d, i + 1);
			return rc;
		}
	}
	d->active = -1;
	d->prev_active = -1;
	d->held_p = -1;
	/* room for BL_JOIN_MAX lines of any length and the spaces between */
	d->joined = (struct bl_buf)BL_BUF_INIT(BL_JOIN_MAX * (LINE_ROOM + 1));
	d->seg = (struct bl_buf)BL_BUF_INIT(LINE_ROOM);
	d->norm = (struct bl_buf)BL_BUF_INIT(LINE_ROOM);
	d->keyg = (struct bl_buf)BL_BUF_INIT(LINE_ROOM);
	d->rname = (struct bl_buf)BL_BUF_INIT(LINE_ROOM);
	d->seen = (struct bl_buf)BL_BUF_INIT((size_t)1 << 20);
	ctx->dispatch = d;
	bl_blocks_enable(ctx);   /* copies found by block (core/block.h) */
	ctx->lines = (struct bl_line_handler){ bl_dispatch_begin_unit, bl_dispatch_line,
					       bl_dispatch_end_unit };
	return 0;
}

static void held_clear(struct bl_dispatch *d)
{
	d->nheld = 0;
	d->held_p = -1;
	bl_buf_reset(&d->joined);
}

void bl_dispatch_close(struct bl_ctx *ctx)
{
	struct bl_dispatch *d = ctx->dispatch;
	if (!d)
		return;
	dispatch_free(d, d->np);
	ctx->dispatch = NULL;
	ctx->lines = (struct bl_line_handler){ NULL, NULL, NULL };
}

void bl_dispatch_begin_unit(struct bl_ctx *ctx, const char *source, const struct bl_msg *msg)
{
	ctx->source = source;
	ctx->msg = msg;
	free(ctx->default_group);
	ctx->default_group = NULL;
	/* rule L6 */
	if (msg) {
		ctx->default_group = msg->subject ? bl_mail_subject_group(msg->subject) : NULL;
		ctx->default_group_source = "subject";
		if (!ctx->default_group) {
			ctx->default_group = bl_mail_thread(msg->subject);
			ctx->default_group_source = "thread";
		}
	} else {
		ctx->default_group = bl_path_stem(source);
		ctx->default_group_source = "file";
	}
	free(ctx->group);
	ctx->group = bl_xstrdup(ctx->default_group);
	ctx->group_source = ctx->default_group_source;
	bl_ctx_prov_moved(ctx);
	ctx->dispatch->active = -1;
	ctx->dispatch->prev = PK_BLANK;
}

static void mkline(struct bl_ctx *ctx, struct bl_line *ln, const char *text, size_t len,
		   unsigned long lineno, int depth)
{
	ln->text = text;
	ln->len = len;
	ln->source = ctx->source;
	ln->lineno = lineno;
	ln->quote_depth = depth;
	ln->msg = ctx->msg;
}

static void account_held(struct bl_ctx *ctx, struct bl_dispatch *d, enum bl_verdict v)
{
	for (size_t i = 0; i < d->nheld; i++) {
		if (v == BL_USED) {
			ctx->lines_used++;
		} else {
			const struct held_seg *h = &d->held[i];
			/* A held line is at most LINE_ROOM bytes and joined has room
			 * for all of them, so the copy is whole; its own length is
			 * what is passed on all the same. */
			bl_buf_reset(&d->seg);
			if (h->off + h->len <= d->joined.len)
				bl_buf_add(&d->seg, d->joined.data + h->off, h->len);
			struct bl_line ln;
			mkline(ctx, &ln, bl_buf_str(&d->seg), d->seg.len, h->lineno, h->depth);
			bl_skip(ctx, &ln, v == BL_SKIP && ctx->skip_reason ? ctx->skip_reason : "incomplete record");
		}
	}
}

/* Offer the held text alone, as final. */
static void resolve_held(struct bl_ctx *ctx, struct bl_dispatch *d)
{
	if (d->held_p < 0)
		return;
	const struct bl_parser *p = bl_parsers[d->held_p];
	struct bl_line ln;
	mkline(ctx, &ln, d->joined.data, d->joined.len, d->held[0].lineno, d->held[0].depth);
	ctx->skip_reason = NULL;
	enum bl_verdict v = p->line(d->st[d->held_p], ctx, &ln, BL_F_LAST | (d->nheld > 1 ? BL_F_JOINED : 0));
	if (v == BL_MORE)
		v = BL_SKIP, ctx->skip_reason = "incomplete record";
	account_held(ctx, d, v);
	held_clear(d);
}

static void hold(struct bl_dispatch *d, int p, const struct bl_line *ln)
{
	if (d->nheld == 0) {
		bl_buf_reset(&d->joined);
	} else {
		bl_buf_addc(&d->joined, ' ');
	}
	struct held_seg *h = &d->held[d->nheld++];
	h->off = d->joined.len;
	bl_buf_add(&d->joined, ln->text, ln->len);
	h->len = ln->len;
	h->lineno = ln->lineno;
	h->depth = ln->quote_depth;
	d->held_p = p;
}

/* Resolve one held line, if *has: used, or skipped as the text it is;
 * then free it. */
static void held_drop(struct bl_ctx *ctx, struct held_line *h, bool *has, bool used)
{
	if (!*has)
		return;
	if (used) {
		ctx->lines_used++;
	} else {
		struct bl_line ln;
		mkline(ctx, &ln, h->text, h->len, h->lineno, h->depth);
		bl_skip(ctx, &ln, "no format recognised");
	}
	free(h->text);
	h->text = NULL;
	*has = false;
}

static void heading_drop(struct bl_ctx *ctx, struct bl_dispatch *d, bool used)
{
	if (!d->has_heading)
		return;
	held_drop(ctx, &d->heading, &d->has_heading, used);
	held_drop(ctx, &d->underline, &d->has_underline, used);
}

/* Resolve a pending result label (rule L4b): used when data confirmed
 * it, else skipped as the text it is. */
static void rlabel_drop(struct bl_ctx *ctx, struct bl_dispatch *d, bool used)
{
	held_drop(ctx, &d->rlabel, &d->has_rlabel, used);
}

/* End a result label's scope (rule L4b); restore: give the group before
 * it back (another label taking over needs no restoring). */
static void scope_end(struct bl_ctx *ctx, struct bl_dispatch *d, bool restore)
{
	if (d->in_scope && restore && d->scope_prev)
		bl_set_group_from(ctx, d->scope_prev, strlen(d->scope_prev), d->scope_prev_source);
	free(d->scope_prev);
	d->scope_prev = NULL;
	d->in_scope = false;
	free(d->outer);
	d->outer = NULL;
}

/* Does a line of text end a result label's scope: an introducing
 * sentence (more than 3 words, a final ':' or ':-') such as "Below is
 * the summary of testlog :-"? */
static bool ends_scope(const char *s, size_t n)
{
	bl_trim(&s, &n);
	if (n >= 2 && s[n - 2] == ':' && s[n - 1] == '-')
		n -= 2;
	else if (n && s[n - 1] == ':')
		n--;
	else
		return false;
	size_t words = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && (i == 0 || s[i - 1] == ' '))
			words++;
	return words > 3;
}

static void rlabel_hold(struct bl_dispatch *d, const struct bl_line *ln, size_t off, size_t len,
			enum bl_rlabel form)
{
	d->rlabel_settings = form == BL_RLABEL_SETTINGS;
	d->rlabel.text = bl_xstrndup(ln->text, ln->len);
	d->rlabel.len = ln->len;
	d->rlabel.lineno = ln->lineno;
	d->rlabel.depth = ln->quote_depth;
	bl_buf_reset(&d->rname);
	if (d->ikey_live)
		bl_buf_addf(&d->rname, "%s / ", d->ikey);
	bl_buf_add(&d->rname, ln->text + off, len);
	d->rlabel_gap = 0;
	d->has_rlabel = true;
	d->key_indent = SIZE_MAX;
}

/* "-----" or "=====" (3 or more, blanks around allowed): a setext underline. */
static bool is_underline(const char *s, size_t n)
{
	bl_trim(&s, &n);
	if (n < 3 || (s[0] != '-' && s[0] != '='))
		return false;
	for (size_t i = 1; i < n; i++)
		if (s[i] != s[0])
			return false;
	return true;
}

bool bl_dispatch_is_heading(const char *s, size_t n)
{
	if (n == 0 || n > 40)
		return false;
	if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
		return false;
	char last = s[n - 1];
	if (last == ':' || last == '.' || last == ',' || last == '?' || last == '!' || last == ';')
		return false;
	size_t words = 1, letters = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == ' ' && i + 1 < n && s[i + 1] != ' ')
			words++;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
			letters++;
		if (strchr("\t=<>|#/\":()[]{}@$%\\*&", c))
			return false;
	}
	if (words > 4 || letters * 2 < n || bl_shell_signal_line(s, n))
		return false;   /* the shell's `Killed` before a timing block */
	for (size_t i = 0; generic_headings[i]; i++)
		if (strlen(generic_headings[i]) == n && strncasecmp(generic_headings[i], s, n) == 0)
			return false;
	return true;
}

bool bl_dispatch_is_kernel_label(struct bl_ctx *ctx, const char *s, size_t n)
{
	return bl_re_match(&ctx->dispatch->kernel_re, s, n) == 1;
}

/* Bit 1: raw holds a NUL byte; bit 2: an ESC byte. */
static unsigned nul_esc(const char *p, size_t n)
{
	unsigned f = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\0')
			f |= 1;
		else if (p[i] == '\x1b')
			f |= 2;
	}
	return f;
}

/* Strip ANSI CSI escapes (when has_esc) and a trailing CR into d->norm;
 * returns 0 or -BL_ENOMEM. */
static int normalise(struct bl_dispatch *d, const char *raw, size_t len, bool has_esc)
{
	bl_buf_reset(&d->norm);
	if (len && raw[len - 1] == '\r')
		len--;
	if (!has_esc)
		return bl_buf_add(&d->norm, raw, len);
	size_t i = 0;
	while (i < len) {
		if (raw[i] == '\x1b') {
			size_t j = i + 1;
			if (j < len && raw[j] == '[') {
				j++;
				while (j < len && ((raw[j] >= '0' && raw[j] <= '9') || raw[j] == ';' || raw[j] == '?'))
					j++;
				if (j < len)
					j++; /* the final byte */
			}
			i = j;
			continue;
		}
		size_t k = i;
		while (k < len && raw[k] != '\x1b')
			k++;
		int rc = bl_buf_add(&d->norm, raw + i, k - i);
		if (rc)
			return rc;
		i = k;
	}
	if (!d->norm.data)
		return bl_buf_add(&d->norm, "", 0);
	return 0;
}

/* Offer ln to every parser, the active one first (with flags: BL_F_PADDED
 * or 0). Returns the verdict and the parser index in *pi. */
static inline enum bl_verdict offer(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *ln,
				    unsigned flags, int *pi)
{
	ctx->skip_reason = NULL;
	if (d->active >= 0) {
		enum bl_verdict v = bl_parsers[d->active]->line(d->st[d->active], ctx, ln, flags);
		if (v != BL_NO) {
			*pi = d->active;
			return v;
		}
	}
	int pa = d->prev_active;
	if (pa >= 0 && pa != d->active) {
		ctx->skip_reason = NULL;
		enum bl_verdict v = bl_parsers[pa]->line(d->st[pa], ctx, ln, flags);
		if (v != BL_NO) {
			*pi = pa;
			return v;
		}
	}
	for (size_t i = 0; i < d->np; i++) {
		if ((int)i == d->active || (int)i == pa)
			continue;
		ctx->skip_reason = NULL;
		enum bl_verdict v = bl_parsers[i]->line(d->st[i], ctx, ln, flags);
		if (v != BL_NO) {
			*pi = (int)i;
			return v;
		}
	}
	*pi = -1;
	return BL_NO;
}

static size_t indent_of(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* Rule L4d: the results so far in this unit of key s[0..n) (at most 40
 * bytes) with no label over it. */
static size_t key_rounds(const struct bl_dispatch *d, const char *s, size_t n)
{
	char k[48];
	size_t r = 0;
	snprintf(k, sizeof k, "\n%.*s\n", (int)n, s);
	for (const char *p = bl_buf_str(&d->seen); (p = strstr(p, k)) != NULL; p++)
		r++;
	return r;
}

static void ikey_clear(struct bl_dispatch *d)
{
	free(d->ikey);
	d->ikey = NULL;
	d->ikey_live = false;
}

/* Rules L4d, L4e: heading line ln (no key of L4c) may be a key for the
 * line after it: of L4d when it is one word and a final ':'. */
static void ikey_set(struct bl_dispatch *d, const struct bl_line *ln)
{
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	bool colon = s[n - 1] == ':';
	d->ikey = bl_xstrndup(s, n - colon);
	d->ikey_indent = indent_of(ln->text, ln->len);
	d->ikey_depth = ln->quote_depth;
	d->ikey_round = colon && !memchr(s, ' ', n) && !d->in_scope && !d->has_rlabel;
}

/* Rule L4c: is heading s[0..n) of line ln a key under a result label?
 * Then its group, "LABEL / KEY", goes into d->keyg. */
static bool key_hold(struct bl_dispatch *d, const struct bl_line *ln, const char *s, size_t n)
{
	size_t ind = indent_of(ln->text, ln->len);
	const char *o = NULL;
	size_t on = 0;
	if (d->has_rlabel && d->rlabel.depth == ln->quote_depth) {
		if (ind >= indent_of(d->rlabel.text, d->rlabel.len))
			o = bl_buf_str(&d->rname), on = d->rname.len;
	} else if (d->outer && d->scope_depth == ln->quote_depth &&
		   (ind > d->outer_indent || ind == d->key_indent)) {
		o = d->outer, on = strlen(d->outer);
	}
	if (!o)
		return false;
	bl_buf_reset(&d->keyg);
	bl_buf_add(&d->keyg, o, on);
	bl_buf_add(&d->keyg, " / ", 3);
	bl_buf_add(&d->keyg, s, n);
	return true;
}

static int labels(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *ln)
{
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	if (bl_re_match(&d->kernel_re, s, n) == 1) {
		size_t off, len;
		if (bl_re_group(&d->kernel_re, 1, &off, &len)) {
			bl_set_group(ctx, s + off, len);
			return 1;
		}
	}
	/* rule L4b */
	size_t roff, rlen;
	enum bl_rlabel rl = bl_result_label(ln->text, ln->len, &roff, &rlen);
	bool under = d->ikey && d->ikey_depth == ln->quote_depth &&   /* rule L4e */
		     indent_of(ln->text, ln->len) > d->ikey_indent;
	if (rl == BL_RLABEL_COLON || (rl && (d->prev != PK_TEXT || under))) {
		rlabel_drop(ctx, d, false);
		d->ikey_live = under;
		rlabel_hold(d, ln, roff, rlen, rl);
		return 4;
	}
	/* rule L5 */
	if (ctx->msg && ctx->group_source == ctx->default_group_source &&
	    strcmp(ctx->group_source, "thread") == 0 &&
	    (bl_contains(s, n, "inux", 4) || bl_contains(s, n, "ernel", 5) ||
	     bl_contains(s, n, "INUX", 4) || bl_contains(s, n, "ERNEL", 5)) &&
	    bl_re_match(&d->body_kernel_re, s, n) == 1) {
		size_t off, len;
		if (bl_re_group(&d->body_kernel_re, 1, &off, &len)) {
			while (len && strchr(".,-", s[off + len - 1]))
				len--;
			bl_set_group_from(ctx, s + off, len, "kernel");
		}
		return 3;
	}
	if (d->prev == PK_TEXT)
		return 0;
	bool colon = n && s[n - 1] == ':';
	bool h = bl_dispatch_is_heading(s, n) || (colon && bl_dispatch_is_heading(s, n - 1));
	d->heading_key = h && key_hold(d, ln, s, n - colon);
	d->ikey_next = h && !d->heading_key;
	return bl_dispatch_is_heading(s, n) || d->heading_key ? 2 : 0;
}

/* Does the trimmed text end a sentence (rule L4's "stands alone")? */
static bool ends_sentence(const char *s, size_t n)
{
	bl_trim(&s, &n);
	return n && strchr(".:!?", s[n - 1]);
}

/* The raw line as the parsers see it, into *ln: NUL bytes make it
 * skipped, ANSI escapes and a trailing CR go, the quote prefix (any mix of
 * '>' with up to two blanks before each) is counted and stripped. Returns
 * false when the line was skipped here. */
static bool prepare_line(struct bl_ctx *ctx, struct bl_dispatch *d, const char *raw, size_t len,
			 unsigned long lineno, unsigned hint, struct bl_line *ln, unsigned *flags)
{
	*flags = 0;
	unsigned ne = (hint & BL_LINE_CLEAN) ? 0 : nul_esc(raw, len);
	if (ne & 1) {
		mkline(ctx, ln, "", 0, lineno, 0);
		bl_skip(ctx, ln, "line contains NUL bytes");
		return false;
	}
	const char *t;
	size_t tl;
	if ((hint & (BL_LINE_CLEAN | BL_LINE_TERMINATED)) == (BL_LINE_CLEAN | BL_LINE_TERMINATED) &&
	    !(len && raw[len - 1] == '\r') && len <= BL_LINE_MAX) {
		t = raw;               /* nothing to change: no copy */
		tl = len;
		if (hint & BL_LINE_PADDED)
			*flags = BL_F_PADDED;
	} else {
		if (normalise(d, raw, len, ne & 2)) {
			mkline(ctx, ln, "", 0, lineno, 0);
			bl_skip(ctx, ln, "line too long");
			return false;
		}
		t = d->norm.data;
		tl = d->norm.len;
	}
	int depth = 0;
	size_t i = 0;
	for (;;) {
		size_t k = i;
		while (k < tl && k - i < 2 && t[k] == ' ')
			k++;
		if (k < tl && t[k] == '>') {
			depth++;
			i = k + 1;
		} else {
			break;
		}
	}
	if (depth && i < tl && t[i] == ' ')
		i++;
	mkline(ctx, ln, t + i, tl - i, lineno, depth);
	return true;
}

/* A held partial record (BL_MORE): offer it joined with ln. Returns true
 * when ln was taken (the record complete, skipped, or still held); else
 * the held text was resolved alone and ln goes on as a line of its own. */
static bool continue_held(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *ln,
			  bool blank)
{
	int p = d->held_p;
	size_t save = d->joined.len;
	bl_buf_addc(&d->joined, ' ');
	bl_buf_add(&d->joined, ln->text, ln->len);
	struct bl_line jl;
	mkline(ctx, &jl, d->joined.data, d->joined.len, d->held[0].lineno, d->held[0].depth);
	ctx->skip_reason = NULL;
	enum bl_verdict v = blank ? BL_NO
		: bl_parsers[p]->line(d->st[p], ctx, &jl, BL_F_JOINED);
	if (v == BL_MORE && d->nheld + 1 >= BL_JOIN_MAX)
		v = bl_parsers[p]->line(d->st[p], ctx, &jl, BL_F_JOINED | BL_F_LAST);
	if (v == BL_USED || v == BL_SKIP) {
		account_held(ctx, d, v);
		if (v == BL_USED)
			ctx->lines_used++;
		else
			bl_skip(ctx, ln, ctx->skip_reason ? ctx->skip_reason : "incomplete record");
		held_clear(d);
		if (p != d->active)
			d->prev_active = d->active;
		d->active = p;
		d->prev = PK_DATA;
		return true;
	}
	if (v == BL_MORE) {
		/* joined already holds the text; remember where */
		struct held_seg *h = &d->held[d->nheld++];
		h->off = save + 1;
		h->len = ln->len;
		h->lineno = ln->lineno;
		h->depth = ln->quote_depth;
		return true;
	}
	d->joined.len = save;
	d->joined.data[save] = '\0';
	resolve_held(ctx, d);
	return false;
}

/* After the parsers saw a non-blank line while a result label was
 * pending (rule L4b): data at its depth confirms it and its group stays;
 * otherwise the group before it comes back, and data at another depth,
 * or a fourth line of text, ends it. */
static void rlabel_after(struct bl_ctx *ctx, struct bl_dispatch *d, enum bl_verdict v,
			 bool tried, const char *saved, const char *saved_source)
{
	bool data = v == BL_USED || v == BL_MORE;
	if (tried && data) {
		if (!d->in_scope) {
			d->scope_prev = saved ? bl_xstrdup(saved) : NULL;
			d->scope_prev_source = saved_source;
		}
		d->in_scope = true;
		d->scope_depth = d->rlabel.depth;
		free(d->outer);
		d->outer = bl_xstrdup(bl_buf_str(&d->rname));
		d->outer_indent = indent_of(d->rlabel.text, d->rlabel.len);
		rlabel_drop(ctx, d, true);
		return;
	}
	if (tried && saved)
		bl_set_group_from(ctx, saved, strlen(saved), saved_source);
	if (data || ++d->rlabel_gap > RLABEL_GAP_MAX)
		rlabel_drop(ctx, d, false);
}

/* Rule L2's match: the pattern that matched ln, or NULL. A line that is
 * not well-formed UTF-8 is matched byte by byte, so its invalid bytes
 * neither stop a match nor end a capture (in UTF-8 mode they match
 * nothing, and "(.*)" would stop short of them); the first such line of
 * each input that matches is warned about. */
static struct bl_re *user_re_match(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *ln)
{
	if (!d->has_user_re_bytes || bl_utf8_valid(ln->text, ln->len))
		return bl_re_match(&d->user_re, ln->text, ln->len) == 1 ? &d->user_re : NULL;
	if (bl_re_match(&d->user_re_bytes, ln->text, ln->len) != 1)
		return NULL;
	if (!d->bytes_warned || strcmp(d->bytes_warned, ln->source) != 0) {
		free(d->bytes_warned);
		d->bytes_warned = bl_xstrdup(ln->source);
		bl_warn(ctx, ln, "group label not valid UTF-8",
			"line is not valid UTF-8; --group-regex matched it byte by byte (the first such "
			"line of this input)");
	}
	return &d->user_re_bytes;
}

/* A line no parser took: blank, a label, a heading (rules L3-L5), or
 * text that is skipped. */
static void unclaimed(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *ln, bool blank)
{
	if (blank) {
		bl_skip(ctx, ln, "blank line");
		d->prev = PK_BLANK;
		return;
	}
	/* a line of text or a label ends a block (core/block.h B1) */
	bl_block_end(ctx);
	if (d->ikey_live && (ln->quote_depth != d->ikey_depth || indent_of(ln->text, ln->len) <= d->ikey_indent)) {
		scope_end(ctx, d, true);   /* rule L4e: the key's scope ends */
		ikey_clear(d);
	}
	d->ikey_next = false;
	int lab = labels(ctx, d, ln);
	if (d->ikey && !d->ikey_live)
		ikey_clear(d);   /* a key only for the line right after it */
	if (d->ikey_next && !d->ikey)
		ikey_set(d, ln);
	heading_drop(ctx, d, false);
	if (lab == 1) {
		rlabel_drop(ctx, d, false);
		scope_end(ctx, d, false);
	} else if (lab == 0 && d->in_scope && ln->quote_depth == d->scope_depth &&
		   ends_scope(ln->text, ln->len)) {
		scope_end(ctx, d, true);
	}
	d->prev = lab == 1 || lab == 4 ? PK_BLANK : lab == 2 ? PK_TEXT
		: ends_sentence(ln->text, ln->len) ? PK_END : PK_TEXT;
	if (lab == 1) {
		ctx->lines_used++;
	} else if (lab == 4) {
		/* held by labels() until data confirms it */
	} else if (lab == 2) {
		d->heading.text = bl_xstrndup(ln->text, ln->len);
		d->heading.len = ln->len;
		d->heading.lineno = ln->lineno;
		d->heading.depth = ln->quote_depth;
		d->has_heading = true;
	} else {
		bl_skip(ctx, ln, "no format recognised");
	}
}

/* A line parser pi took with verdict v (not BL_NO). */
static inline void taken(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *ln,
		  enum bl_verdict v, int pi)
{
	if (pi != d->active && d->active >= 0 && bl_parsers[d->active]->yield)
		bl_parsers[d->active]->yield(d->st[d->active], ctx, ln);
	if (pi != d->active)
		d->prev_active = d->active;
	d->active = pi;
	d->prev = PK_DATA;
	if (v == BL_USED)
		ctx->lines_used++;
	else if (v == BL_SKIP)
		bl_skip(ctx, ln, ctx->skip_reason ? ctx->skip_reason : "skipped by parser");
	else if (v == BL_MORE)
		hold(d, pi, ln);
}

/* A line while something waits on it: a held partial record, a heading
 * or a result label, a label's scope, or --group-regex. */
static void line_pending(struct bl_ctx *ctx, struct bl_dispatch *d, const struct bl_line *lp)
{
	struct bl_line ln = *lp;
	bool blank = bl_blank_text(ln.text, ln.len);
	if (d->held_p >= 0 && continue_held(ctx, d, &ln, blank))
		return;

	/* --group-regex (rule L2) */
	struct bl_re *ure = d->has_user_re ? user_re_match(ctx, d, &ln) : NULL;
	if (ure) {
		size_t off, l;
		if (!bl_re_group(ure, 1, &off, &l))
			bl_re_group(ure, 0, &off, &l);
		bl_set_group_from(ctx, ln.text + off, l, "option");
		heading_drop(ctx, d, false);
		bl_block_end(ctx);
		ctx->lines_used++;
		d->prev = PK_BLANK;
		return;
	}

	/* Rule L4: the underline of a pending heading waits with it. */
	if (d->has_heading && !d->has_underline && is_underline(ln.text, ln.len)) {
		d->underline.text = bl_xstrndup(ln.text, ln.len);
		d->underline.len = ln.len;
		d->underline.lineno = ln.lineno;
		d->underline.depth = ln.quote_depth;
		d->has_underline = true;
		return;
	}

	/* A pending result label (rule L4b), then a pending heading (rule
	 * L4), is in force while the parsers look at the next non-blank line
	 * at its depth, so a record emitted at once carries it. */
	if (d->in_scope && !blank && ln.quote_depth < d->scope_depth)
		scope_end(ctx, d, true);   /* the reply's own text after a quoted label */
	bool try_heading = d->has_heading && !blank && d->heading.depth == ln.quote_depth;
	bool try_rlabel = d->has_rlabel && !blank && d->rlabel.depth == ln.quote_depth &&
		(!d->rlabel_settings || (try_heading && d->heading_key));
	char *saved_rgroup = NULL;
	const char *saved_rsource = ctx->group_source;
	if (try_rlabel) {
		saved_rgroup = ctx->group ? bl_xstrdup(ctx->group) : NULL;
		bl_set_group(ctx, bl_buf_str(&d->rname), d->rname.len);
	}
	/* rule L4d: "KEY:" over data, under no label */
	bool try_key = d->ikey && d->ikey_round && !d->ikey_live && !blank && d->ikey_depth == ln.quote_depth;
	if (try_key) {
		bl_buf_reset(&d->keyg);
		bl_buf_addf(&d->keyg, "#%zu / %s", key_rounds(d, d->ikey, strlen(d->ikey)) + 1, d->ikey);
	}
	char *saved_group = NULL;
	const char *saved_source = ctx->group_source;
	if (try_heading || try_key) {
		saved_group = ctx->group ? bl_xstrdup(ctx->group) : NULL;
		if (d->heading_key || try_key)
			bl_set_group(ctx, bl_buf_str(&d->keyg), d->keyg.len);
		else
			bl_set_group(ctx, d->heading.text, d->heading.len);
	}
	int pi;
	enum bl_verdict v = offer(ctx, d, &ln, 0, &pi);
	bool confirmed = v == BL_USED || v == BL_MORE;
	if (try_heading) {
		if (confirmed && !try_rlabel && !d->heading_key)
			scope_end(ctx, d, false);
		if (confirmed && d->heading_key)
			d->key_indent = indent_of(d->heading.text, d->heading.len);
		heading_drop(ctx, d, confirmed);
	} else if (d->has_heading && !blank) {
		heading_drop(ctx, d, false);
	}
	if (try_key && confirmed)
		bl_buf_addf(&d->seen, "\n%s\n", d->ikey);
	if ((try_heading || try_key) && !confirmed && saved_group)
		bl_set_group_from(ctx, saved_group, strlen(saved_group), saved_source);
	free(saved_group);
	if (d->ikey && !d->ikey_live && confirmed)
		ikey_clear(d);
	if (d->has_rlabel && !blank)
		rlabel_after(ctx, d, v, try_rlabel, saved_rgroup, saved_rsource);
	free(saved_rgroup);
	if (v == BL_NO)
		unclaimed(ctx, d, &ln, blank);
	else
		taken(ctx, d, &ln, v, pi);
}

int bl_dispatch_line(struct bl_ctx *ctx, const char *raw, size_t len, unsigned long lineno,
		     unsigned hint)
{
	struct bl_dispatch *d = ctx->dispatch;
	struct bl_line ln;
	unsigned flags;
	ctx->lines_total++;
	if (!prepare_line(ctx, d, raw, len, lineno, hint, &ln, &flags))
		return ctx->error;
	if (d->held_p >= 0 || d->has_user_re || d->has_heading || d->has_rlabel || d->in_scope || d->ikey) {
		line_pending(ctx, d, &ln);
		return ctx->error;
	}
	/* Nothing waits on this line (most lines): it goes to the parsers as
	 * line_pending() would send it, and only a line none takes is asked
	 * whether it is blank (with offer() and taken() inline: summary of
	 * 5 MB of mtest01 + time -v runs, 143 M instructions before, 133 M). */
	int pi;
	enum bl_verdict v = offer(ctx, d, &ln, flags, &pi);
	if (v == BL_NO)
		unclaimed(ctx, d, &ln, bl_blank_text(ln.text, ln.len));
	else
		taken(ctx, d, &ln, v, pi);
	return ctx->error;
}

int bl_dispatch_end_unit(struct bl_ctx *ctx)
{
	struct bl_dispatch *d = ctx->dispatch;
	resolve_held(ctx, d);
	heading_drop(ctx, d, false);
	rlabel_drop(ctx, d, false);
	scope_end(ctx, d, false);
	ikey_clear(d);
	bl_buf_reset(&d->seen);
	for (size_t i = 0; i < d->np; i++)
		if (bl_parsers[i]->flush)
			bl_parsers[i]->flush(d->st[i], ctx, NULL);
	bl_block_end(ctx);
	d->active = -1;
	d->prev_active = -1;
	return ctx->error;
}

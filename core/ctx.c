/* ctx.c — parse context: groups, runs, sinks, accounting (see ctx.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "core/cleanup.h"
#include "core/escape.h"
#include "core/ctx.h"
#include "core/progress.h"
#include "core/util.h"

bool bl_since_boot_left_out(enum bl_since_boot mode, const struct bl_val *mark)
{
	return mark->t == BL_INT && mark->u.i != 0 && mode != BL_SB_KEEP;
}

void bl_opts_init(struct bl_opts *o)
{
	memset(o, 0, sizeof *o);
	o->interval_s = 1.0;
	o->since_boot = BL_SB_AUTO;
	o->mail_max = BL_MAIL_MAX_DEFAULT;
	o->mbox_window = BL_MBOX_WINDOW_DEFAULT;
}

void bl_ctx_init(struct bl_ctx *ctx, const struct bl_opts *opt)
{
	memset(ctx, 0, sizeof *ctx);
	if (opt)
		ctx->opt = *opt;
	else
		bl_opts_init(&ctx->opt);
	ctx->diag = stderr;
}

void bl_ctx_add_sink(struct bl_ctx *ctx, const struct bl_sink *s)
{
	ctx->sinks = bl_xrealloc(ctx->sinks, (ctx->nsinks + 1) * sizeof *ctx->sinks);
	ctx->sinks[ctx->nsinks++] = *s;
}

/* The file the failing sink named (bl_sink_blame), per thread as errno. */
static _Thread_local char *blamed;

void bl_sink_blame(const char *path)
{
	int e = errno;
	free(blamed);
	blamed = path ? bl_xstrdup(path) : NULL;
	errno = e;
}

/* What a failed temporary file is blamed as: written here, tested here. */
#define TEMP_BLAME "a temporary file in "

void bl_sink_blame_temp(void)
{
	int e = errno;
	free(blamed);
	blamed = bl_xasprintf(TEMP_BLAME "%s", bl_tmp_dir());
	errno = e;
}

bool bl_ctx_temp_error(const struct bl_ctx *ctx)
{
	return ctx->error == -BL_EIO && ctx->error_path &&
	       strncmp(ctx->error_path, TEMP_BLAME, sizeof TEMP_BLAME - 1) == 0;
}

/* After a sink returned rc: the file it named, kept as ctx->error_path
 * (the first). */
static void note_failed_path(struct bl_ctx *ctx, int rc)
{
	if (rc == -BL_EIO && !ctx->error_path && blamed) {
		ctx->error_path = blamed;
		blamed = NULL;
	}
}

int bl_ctx_finish(struct bl_ctx *ctx, int ok)
{
	int rc = 0, e = 0;
	bl_block_message_end(ctx);
	if (ctx->error)
		ok = 0;
	for (size_t i = 0; i < ctx->nsinks; i++) {
		if (ctx->sinks[i].finish) {
			int r = ctx->sinks[i].finish(ctx->sinks[i].ud, ok);
			if (r && !rc) {
				rc = r;
				e = errno;
				note_failed_path(ctx, r);
			}
		}
	}
	bl_sink_blame(NULL);
	if (rc)
		errno = e;   /* the failing sink's reason, for the front end */
	return rc;
}

static void msgids_release(struct bl_msgids *m)
{
	bl_index_release(&m->ids);
	bl_store_release(&m->first);
	bl_store_release(&m->sources);
	free(m->last);
	memset(m, 0, sizeof *m);
}

static void free_counts(struct bl_count *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].reason);
	free(c);
}

void bl_ctx_release(struct bl_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nsinks; i++)
		if (ctx->sinks[i].free)
			ctx->sinks[i].free(ctx->sinks[i].ud);
	free(ctx->sinks);
	bl_blocks_free(ctx->blocks);
	free(ctx->error_path);
	ctx->error_path = NULL;
	free_counts(ctx->skips, ctx->nskips);
	free_counts(ctx->warns, ctx->nwarns);
	bl_index_release(&ctx->runs.index);
	bl_store_release(&ctx->runs.state);
	free(ctx->runs.key);
	msgids_release(&ctx->msgids);
	free(ctx->default_group);
	free(ctx->group);
	free(ctx->pending_heading);
	ctx->skip.skipped = NULL;
	bl_shared_settle(ctx);
	free(ctx->shared);
	memset(ctx, 0, sizeof *ctx);
}

/* Numbers no two contexts share: records of several contexts may meet in
 * one writer. */
static _Atomic unsigned long prov_gen_last;

void bl_ctx_prov_moved(struct bl_ctx *ctx)
{
	ctx->prov_gen = atomic_fetch_add(&prov_gen_last, 1) + 1;
}

void bl_set_group_from(struct bl_ctx *ctx, const char *name, size_t len, const char *source)
{
	if (ctx->opt.group)
		return;
	if (ctx->group && strlen(ctx->group) == len && memcmp(ctx->group, name, len) == 0 &&
	    ctx->group_source == source)
		return;
	free(ctx->group);
	ctx->group = bl_xstrndup(name, len);
	ctx->group_source = source;
	bl_ctx_prov_moved(ctx);
}

void bl_set_group(struct bl_ctx *ctx, const char *name, size_t len)
{
	bl_set_group_from(ctx, name, len, "label");
}

const char *bl_ctx_group(const struct bl_ctx *ctx)
{
	return ctx->opt.group ? ctx->opt.group : ctx->group ? ctx->group : "";
}

const char *bl_ctx_group_source(const struct bl_ctx *ctx)
{
	return ctx->opt.group ? "option" : ctx->group_source ? ctx->group_source : "file";
}

void bl_ctx_temp_failed(struct bl_ctx *ctx)
{
	int e = errno ? errno : EIO;
	if (!ctx->error) {
		ctx->error = -BL_EIO;
		ctx->error_errno = e;
		free(ctx->error_path);
		ctx->error_path = bl_xasprintf(TEMP_BLAME "%s", bl_tmp_dir());
	}
}

/* Make key's state the current one (made on first use; key, heap, is
 * then r->key), the one held before written back. 0, or -1 with errno. */
static int runs_find(struct bl_runs *r, char *key)
{
	if (r->key && bl_store_put(&r->state, r->id * sizeof r->cur, &r->cur, sizeof r->cur) < 0)
		return -1;
	free(r->key);
	r->key = NULL;
	size_t off;
	bool added;
	if (bl_index_find(&r->index, key, strlen(key), &r->id, &off, &added) < 0)
		return -1;
	memset(&r->cur, 0, sizeof r->cur);
	if (!added && bl_store_get(&r->state, r->id * sizeof r->cur, &r->cur, sizeof r->cur) < 0)
		return -1;
	r->key = key;
	return 0;
}

/* The run state of (family, current group): the one held, else found in
 * the stores (a folder of small logs has a group per file, tens of
 * thousands of them, and every record asks). */
static struct bl_runstate *runstate(struct bl_ctx *ctx, const char *family)
{
	struct bl_runs *r = &ctx->runs;
	const char *g = ctx->group ? ctx->group : "";
	/* the group has not moved since the last lookup: no strcmp() (summary
	 * of 50 MB of mtest01 runs: 70-82 ms of processor time before, 65-73 ms) */
	if (r->key && ctx->prov_gen && r->gen == ctx->prov_gen && r->family == family)
		return &r->cur;
	size_t fl = strlen(family);
	r->gen = ctx->prov_gen;
	r->family = family;
	if (r->key && strncmp(r->key, family, fl) == 0 && r->key[fl] == '\x1f' && strcmp(r->key + fl + 1, g) == 0)
		return &r->cur;
	/* family, 0x1f, group: no family holds 0x1f, so the first one
	 * splits the key */
	char *key = bl_xasprintf("%s\x1f%s", family, g);
	errno = 0;
	if (runs_find(r, key) < 0) {
		bl_ctx_temp_failed(ctx);
		free(key);
		memset(&r->cur, 0, sizeof r->cur);
	}
	return &r->cur;
}

long bl_run_join(struct bl_ctx *ctx, const char *family, unsigned long long bit)
{
	struct bl_runstate *r = runstate(ctx, family);
	if (r->run == 0 || (r->mask & bit)) {
		r->run++;
		r->mask = 0;
	}
	r->mask |= bit;
	return r->run;
}

long bl_run_new(struct bl_ctx *ctx, const char *family)
{
	struct bl_runstate *r = runstate(ctx, family);
	r->run++;
	r->mask = 0;
	return r->run;
}

long bl_run_current(struct bl_ctx *ctx, const char *family)
{
	return runstate(ctx, family)->run;
}

/* A sink's error rc (0: none) into ctx->error, the first one only. */
static int emit_to(struct bl_ctx *ctx, int rc)
{
	if (rc && !ctx->error) {
		ctx->error = rc;
		ctx->error_errno = rc == -BL_EIO ? errno : 0;
	}
	return rc;
}

int bl_emit(struct bl_ctx *ctx, struct bl_record *r)
{
	if (ctx->error == -BL_EIO)   /* a sink, or a run store, failed: nothing more */
		return ctx->error;
	if (!r->group) {
		r->group = bl_ctx_group(ctx);
		r->group_source = bl_ctx_group_source(ctx);
		r->prov_gen = ctx->prov_gen;
	} else if (!r->group_source) {
		r->group_source = bl_ctx_group_source(ctx);
	}
	r->copy_of = NULL;
	ctx->records++;
	return ctx->blocks ? bl_block_hold(ctx, r) : bl_ctx_send(ctx, r);
}

int bl_ctx_send(struct bl_ctx *ctx, const struct bl_record *r)
{
	for (size_t i = 0; i < ctx->nsinks; i++) {
		if (r->copy_of && !ctx->sinks[i].copies)
			continue;
		int rc = ctx->sinks[i].record(ctx->sinks[i].ud, r);
		if (rc && !ctx->error)
			note_failed_path(ctx, rc);
		if (rc)
			return emit_to(ctx, rc);
	}
	return 0;
}

/* Count one more of reason; returns how many there are now. */
static unsigned long count(struct bl_count **c, size_t *n, const char *reason)
{
	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*c)[i].reason, reason) == 0)
			return ++(*c)[i].n;
	}
	*c = bl_xrealloc(*c, (*n + 1) * sizeof **c);
	(*c)[*n].reason = bl_xstrdup(reason);
	(*c)[*n].n = 1;
	(*n)++;
	return 1;
}

/* bl_warn(): where (and ":line" with has_line), then the message, every
 * byte of it shown as core/escape.h E7 says. */
static void warn_v(struct bl_ctx *ctx, const char *where, bool has_line, unsigned long lineno,
		   const char *reason, const char *fmt, va_list ap)
{
	unsigned long nth = count(&ctx->warns, &ctx->nwarns, reason);
	if (nth <= BL_WARN_SHOWN + 1)
		bl_progress_clear(ctx->progress);
	if (!ctx->diag || nth > BL_WARN_SHOWN + 1)
		return;
	if (nth == BL_WARN_SHOWN + 1) {
		fprintf(ctx->diag, "benchlog: more \"%s\" warnings are counted, not shown (the first %d are above)\n",
			reason, BL_WARN_SHOWN);
		return;
	}
	struct bl_buf b = BL_BUF_INIT(0);
	if (where) {
		bl_esc_term(&b, where, strlen(where), false);
		if (has_line)
			bl_buf_addf(&b, ":%lu", lineno);
		bl_buf_add(&b, ": ", 2);
	}
	char *msg = NULL;
	int n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		bl_out_of_memory();
	bl_esc_term(&b, msg, (size_t)n, false);
	free(msg);
	bl_buf_addc(&b, '\n');
	fwrite(b.data, 1, b.len, ctx->diag);
	bl_buf_release(&b);
}

void bl_vwarn(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason, const char *fmt, va_list ap)
{
	warn_v(ctx, ln ? ln->source : NULL, ln != NULL, ln ? ln->lineno : 0, reason, fmt, ap);
}

void bl_warn(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bl_vwarn(ctx, ln, reason, fmt, ap);
	va_end(ap);
}

void bl_warn_at(struct bl_ctx *ctx, const char *where, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	warn_v(ctx, where, false, 0, reason, fmt, ap);
	va_end(ap);
}

/* The shared physical line lineno, or NULL. */
static struct bl_shared *shared_find(struct bl_ctx *ctx, unsigned long lineno)
{
	size_t lo = 0, hi = ctx->nshared;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ctx->shared[mid].lineno < lineno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ctx->nshared && ctx->shared[lo].lineno == lineno ? &ctx->shared[lo] : NULL;
}

void bl_line_shared(struct bl_ctx *ctx, unsigned long lineno, unsigned long lines)
{
	if (shared_find(ctx, lineno))
		return;
	size_t at = ctx->nshared;
	while (at > 0 && ctx->shared[at - 1].lineno > lineno)
		at--;
	ctx->shared = bl_xgrow(ctx->shared, &ctx->capshared, ctx->nshared + 1, sizeof *ctx->shared);
	memmove(&ctx->shared[at + 1], &ctx->shared[at], (ctx->nshared - at) * sizeof *ctx->shared);
	ctx->nshared++;
	ctx->shared[at] = (struct bl_shared){ .lineno = lineno, .lines = lines };
}

/* The line counted once, its skips (all of them, or none when a use
 * makes it used) sent on, and let go. */
static void shared_settle1(struct bl_ctx *ctx, struct bl_shared *sh)
{
	if (sh->settled)
		return;
	sh->settled = true;
	ctx->lines_total -= sh->lines - 1;
	bool skipped = sh->nskipped >= sh->lines;
	if (skipped) {
		ctx->lines_skipped++;
		count(&ctx->skips, &ctx->nskips, sh->reason);
	} else {
		ctx->lines_used -= sh->lines - sh->nskipped - 1;
	}
	for (size_t k = 0; k < sh->nskipped; k++) {
		if (skipped && ctx->skip.skipped)
			ctx->skip.skipped(ctx->skip.ud, &sh->skipped[k], sh->reason, sh->note);
		free((char *)sh->skipped[k].text);
	}
	free(sh->skipped);
	free(sh->note);
}

void bl_shared_settle(struct bl_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nshared; i++)
		shared_settle1(ctx, &ctx->shared[i]);
	ctx->nshared = 0;
}

void bl_skip(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason)
{
	if (!reason)
		reason = "skipped (no reason given)";
	struct bl_shared *sh = ctx->nshared ? shared_find(ctx, ln->lineno) : NULL;
	if (sh && !sh->settled) {
		if (sh->nskipped == 0) {
			sh->reason = reason;
			sh->note = ctx->skip_note ? bl_xstrdup(ctx->skip_note) : NULL;
		}
		sh->skipped = bl_xgrow(sh->skipped, &sh->cap, sh->nskipped + 1, sizeof *sh->skipped);
		struct bl_line *c = &sh->skipped[sh->nskipped++];
		*c = *ln;
		c->text = bl_xstrndup(ln->text ? ln->text : "", ln->text ? ln->len : 0);
		c->len = strlen(c->text);
		if (sh->nskipped == sh->lines)
			shared_settle1(ctx, sh);
		return;
	}
	ctx->lines_skipped++;
	count(&ctx->skips, &ctx->nskips, reason);
	if (ctx->skip.skipped)
		ctx->skip.skipped(ctx->skip.ud, ln, reason, ctx->skip_note);
}

/* Where a Message-ID was first met: its source's name at off, len in
 * m->sources, and the line. */
struct msg_first { size_t off, len; unsigned long line; };

/* The place id number i was first met at, as "FILE:LINE" (heap), or NULL
 * with errno. */
static char *msg_first(struct bl_msgids *m, size_t i)
{
	struct msg_first f;
	if (bl_store_get(&m->first, i * sizeof f, &f, sizeof f) < 0)
		return NULL;
	char *src = bl_xmalloc(f.len + 1), *where = NULL;
	if (bl_store_get(&m->sources, f.off, src, f.len) == 0) {
		src[f.len] = '\0';
		where = bl_xasprintf("%s:%lu", src, f.line);
	}
	free(src);
	return where;
}

bool bl_msg_seen(struct bl_ctx *ctx, const char *id, const char *source, unsigned long line,
		 char **where)
{
	if (!id || !*id)
		return false;
	struct bl_msgids *m = &ctx->msgids;
	struct msg_first f;
	const char *src = source ? source : "";
	size_t i, koff, len = strlen(src);
	bool added;
	if (bl_index_find(&m->ids, id, strlen(id), &i, &koff, &added) < 0)
		goto failed;
	if (!added) {
		if ((*where = msg_first(m, i)) != NULL)
			return true;
		goto failed;
	}
	if (!m->last || strcmp(m->last, src) != 0) {
		free(m->last);
		m->last = bl_xstrdup(src);
		m->last_off = m->sources_len;
		m->sources_len += len;
		if (bl_store_put(&m->sources, m->last_off, src, len) < 0)
			goto failed;
	}
	f = (struct msg_first){ m->last_off, len, line };
	if (bl_store_put(&m->first, i * sizeof f, &f, sizeof f) == 0)
		return false;
failed:
	bl_ctx_temp_failed(ctx);
	return false;
}

void bl_skip_raw(struct bl_ctx *ctx, const char *raw, size_t len, unsigned long lineno,
		 const char *reason)
{
	ctx->lines_total++;
	if (memchr(raw, '\0', len))
		len = 0;
	char *copy = bl_xstrndup(raw, len);
	struct bl_line ln = { copy, len, ctx->source, lineno, 0, ctx->msg };
	bl_skip(ctx, &ln, reason);
	free(copy);
}

void bl_unuse(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason)
{
	if (ctx->lines_used)
		ctx->lines_used--;
	bl_skip(ctx, ln, reason);
}

void bl_held_set(struct bl_held *h, const struct bl_line *ln)
{
	free(h->text);
	h->ln = *ln;
	h->ln.text = h->text = bl_xstrndup(ln->text, ln->len);
}

void bl_held_unuse(struct bl_ctx *ctx, struct bl_held *h, const char *reason)
{
	if (h->text)
		bl_unuse(ctx, &h->ln, reason);
	bl_held_clear(h);
}

void bl_held_clear(struct bl_held *h)
{
	free(h->text);
	memset(h, 0, sizeof *h);
}

unsigned long bl_warn_total(const struct bl_ctx *ctx)
{
	unsigned long n = 0;
	for (size_t i = 0; i < ctx->nwarns; i++)
		n += ctx->warns[i].n;
	return n;
}

static int cmp_count(const void *a, const void *b)
{
	const struct bl_count *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->reason, y->reason);
}

struct bl_count *bl_counts_sorted(const struct bl_count *c, size_t n)
{
	struct bl_count *s = bl_xcalloc(n + 1, sizeof *s);
	if (n)
		memcpy(s, c, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_count);
	return s;
}

void bl_diag_summary(const struct bl_ctx *ctx, FILE *f)
{
	if (ctx->lines_total)
		fprintf(f, "benchlog: %s: %lu used, %lu skipped; %s", BL_COUNT(ctx->lines_total, "line"),
			ctx->lines_used, ctx->lines_skipped, BL_COUNT(ctx->records, "record"));
	else
		fprintf(f, "benchlog: no lines; %s", BL_COUNT(ctx->records, "record"));
	unsigned long w = bl_warn_total(ctx);
	if (w)
		fprintf(f, "; %lu warning%s", w, w == 1 ? "" : "s");
	if (ctx->copies.blocks)
		fprintf(f, "; %lu record%s in %lu block%s copying earlier ones (copy_of)", ctx->copies.records,
			ctx->copies.records == 1 ? "" : "s", ctx->copies.blocks,
			ctx->copies.blocks == 1 ? "" : "s");
	fputc('\n', f);
	struct bl_count *s = bl_counts_sorted(ctx->skips, ctx->nskips);
	for (size_t i = 0; i < ctx->nskips; i++)
		fprintf(f, "  skipped %8lu  %s\n", s[i].n, s[i].reason);
	free(s);
	s = bl_counts_sorted(ctx->warns, ctx->nwarns);
	for (size_t i = 0; i < ctx->nwarns; i++)
		fprintf(f, "  warning %8lu  %s\n", s[i].n, s[i].reason);
	free(s);
}

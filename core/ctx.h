/* ctx.h — the parse context: options, current group, run numbering, sinks,
 * line accounting and diagnostics for one pass over a set of inputs.
 *
 * Ownership: bl_ctx_init() on a caller's struct, bl_ctx_release() frees what
 * the context allocated (sinks added with bl_ctx_add_sink() are freed too).
 *
 * Line accounting ("nothing lost"): every physical input line ends up either
 * used (parsed into a record, a label, a header) or skipped with a reason.
 * The dispatcher does the counting from the parsers' verdicts; a parser that
 * changes its mind about a line it used earlier calls bl_unuse().
 *
 * Diagnostics: bl_warn() prints "source:line: message" on stderr and counts
 * the reason; bl_diag_summary() prints the counts at the end. With --strict
 * any warning makes the run fail (exit status 1).
 */
#ifndef BL_CTX_H
#define BL_CTX_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include "core/line.h"
#include "core/record.h"
#include "core/block.h"
#include "core/store.h"

struct pcre2_real_code_8;

enum bl_since_boot { BL_SB_AUTO = 0, BL_SB_KEEP, BL_SB_DROP };

/* User options shared by all parsers (cli fills them). */
struct bl_opts {
	bool strict;                  /* warnings make the run fail */
	const char *group;            /* --group NAME: every record's group */
	const char *group_regex;      /* --group-regex RE: lines matching RE set the
					 group (capture 1, else the whole match) */
	bool group_from_subject;      /* --group-from subject */
	double interval_s;            /* vmstat --interval, seconds (default 1) */
	bool interval_given;          /* --interval was given: it overrides the
					 interval of a vmstat command line in the input */
	enum bl_since_boot since_boot;/* vmstat --since-boot */
	const char *stutter_start_re; /* vmstat --stutter-start RE (NULL = default) */
	const char *stutter_end_re;   /* vmstat --stutter-end RE */
	const char *latency_unit;     /* --unit for one-latency-per-line input ("s", "ms", "us", "ns"); NULL = not enabled */
	bool quiet;                   /* no progress output */
	bool progress;                /* a sequential pass (parsers/pass.h)
					 draws a progress line on stderr
					 (core/progress.h); the caller checks
					 that stderr is a terminal and -q */
	volatile sig_atomic_t *stop;  /* set by a signal handler (SIGINT): the pass
					 stops at the next chunk of input with
					 ctx->error = -BL_EINTR; NULL = never */
	size_t mail_max;              /* the most bytes of one mail message (of a
					 single-message input: of the input) held
					 for GMime, input/mail.c R15; at least
					 BL_MAIL_MAX_LEAST (cli: BENCHLOG_MAIL_MAX) */
	size_t mbox_window;           /* an mbox is read a window of this many
					 bytes at a time (input/mail.c R13; 0 cuts
					 at every separator that allows it); the
					 same output for every size */
};
#define BL_MAIL_MAX_DEFAULT ((size_t)256 << 20)
#define BL_MAIL_MAX_LEAST ((size_t)4 << 20)   /* an mbox window fits */
#define BL_MAIL_MAX_LIMIT ((size_t)1 << 30)   /* the most mail_max may be */
#define BL_MBOX_WINDOW_DEFAULT ((size_t)1 << 20)
void bl_opts_init(struct bl_opts *o);

/* The since-boot rule, which summary, stats and compare share: a row
 * whose since_boot_col (core/record.h) holds a non-zero integer (mark)
 * is left out unless mode is BL_SB_KEEP. (Under BL_SB_DROP the parser
 * writes no marked row; one read back from a CSV is left out as under
 * auto.) */
bool bl_since_boot_left_out(enum bl_since_boot mode, const struct bl_val *mark);

/* Per-reason counters. */
struct bl_count {
	char *reason;
	unsigned long n;
};
/* A heap copy of the n counts at c, the largest first, equal ones by
 * reason; the reasons stay c's. The caller frees the array. */
struct bl_count *bl_counts_sorted(const struct bl_count *c, size_t n);

struct bl_skip_sink {
	/* Called for every skipped line: text is the line as the parser saw
	 * it; reason is what it is counted under, note NULL or the text a
	 * listing of the line shows in its place (ctx->skip_note). */
	void (*skipped)(void *ud, const struct bl_line *ln, const char *reason, const char *note);
	void *ud;
};

/* Message-IDs met in a pass, and where each was first met (input/mail.c
 * R14): the ids in a string index (core/store.h, 32 bytes and the id's
 * text each), each one's first place in a store (24 bytes: its source's
 * name, as offset and length in `sources`, and its line), the sources'
 * names one after another in a store, the last one held apart: at most
 * 4 * BL_STORE_MEM bytes in memory whatever the number of messages (all
 * of it up to 4,096 ids: the buckets, half full, fill theirs first), the
 * rest in temporary files. Exact:
 * ids are compared byte for byte. Zeroed is empty; bl_ctx_release()
 * frees it. */
struct bl_msgids {
	struct bl_index ids;
	struct bl_store first, sources;
	size_t sources_len;
	char *last;                        /* the last source stored (heap) */
	size_t last_off;                   /* where it is in sources */
};

struct bl_progress;   /* core/progress.h */
struct bl_dispatch;   /* parsers/dispatch.c */
struct bl_ctx;

/* Where input/ hands the lines it reads: a unit starts (a file, or one
 * mail text part; source and msg are borrowed and outlive the unit), its
 * lines come (raw: no line end, any bytes, raw[len] need not be a NUL;
 * hint: BL_LINE_* of core/line.h), the unit ends. line() and end_unit()
 * return 0 or a sink's negative bl_err. The dispatcher
 * (parsers/dispatch.c) installs itself here when a pass opens, so the
 * input layer knows no parser. */
struct bl_line_handler {
	void (*begin_unit)(struct bl_ctx *ctx, const char *source, const struct bl_msg *msg);
	int (*line)(struct bl_ctx *ctx, const char *raw, size_t len, unsigned long lineno,
		    unsigned hint);
	int (*end_unit)(struct bl_ctx *ctx);
};

struct bl_ctx {
	struct bl_opts opt;
	FILE *diag;                   /* where warnings go (stderr) */
	/* NULL, or a counter the input layer adds the raw bytes of a file to
	 * as it reads them (the progress line reads it; one thread). */
	unsigned long long *bytes_read;
	/* NULL, or the progress line of the pass (core/progress.h): the
	 * input layer ticks it after each chunk it reads, and warnings
	 * clear it before they are printed. Owned by the pass. */
	struct bl_progress *progress;

	/* Current unit (file or message) and group. */
	const char *source;
	const struct bl_msg *msg;
	char *default_group;          /* the unit's default group (owned) */
	const char *default_group_source;
	char *group;                  /* current group label (owned) */
	/* Where the current group came from, a static string (docs/csv.md,
	 * `group_source`): "option" (--group, --group-regex), "label" (a
	 * label line or a heading in the unit), "kernel" (a kernel version
	 * named in a message's body), "subject" (the kernel in a message's
	 * subject), "thread" (a message's subject without Re:/Fwd:/[…]
	 * tags), "file" (a plain file's stem). */
	const char *group_source;
	unsigned long prov_gen;       /* changes with the unit and the group
					 (bl_ctx_prov_moved()); never 0 once a
					 unit began, unique across contexts */
	char *pending_heading;        /* candidate short heading (owned) */

	struct bl_sink *sinks;
	size_t nsinks;
	struct bl_skip_sink skip;

	/* Accounting. */
	unsigned long lines_total, lines_used, lines_skipped;
	struct bl_count *skips;  size_t nskips;   /* skipped lines by reason */
	struct bl_count *warns;  size_t nwarns;   /* warnings by reason */
	unsigned long records;
	unsigned long input_errors;   /* inputs that could not be read fully
					 (missing, unreadable, corrupt .gz) */
	int error;                    /* first fatal error (negative bl_err) or 0 */
	int error_errno;              /* errno when that error was -BL_EIO from a
					 sink (ENOSPC, EPIPE: a reader that went
					 away), else 0 */
	char *error_path;             /* the file a sink could not write when
					 error (or bl_ctx_finish's result) is
					 -BL_EIO and the sink named it, else
					 NULL (heap) */
	bool sinks_tell_io;           /* the sinks' -BL_EIO is theirs to report
					 (summary's analyses: a temporary file),
					 not an output the front end names */

	const char *skip_reason;      /* set by a parser returning BL_SKIP */
	/* When set, the skip sink gets this text as the note to show in
	 * place of the reason the line is counted under ("duplicate of the
	 * message at FILE:LINE", counted as "duplicate message"). */
	const char *skip_note;

	/* Message-IDs read in this pass, and where each was first met:
	 * bl_msg_seen(). */
	struct bl_msgids msgids;

	/* GNU time's status line ("Command exited with non-zero status N")
	 * waits here for the timing record after it, whatever that record's
	 * format (parsers/timev.c sets it; bl_time_take_status() takes it). */
	struct { const char *kind; long long code; unsigned long lineno; } time_status;

	/* vmstat captures numbered so far (the `series` column, 1-based),
	 * across passes: compare reads the logs on either side of a CSV
	 * table in two, and a capture of the second is not numbered like
	 * one of the first (parsers/vmstat.c). */
	long vmstat_series;

	/* Run numbering (bl_run_join()): every (family, group) met, by its
	 * key "family\x1fgroup" in a string index (core/store.h), and its run
	 * and the kinds in it at its number in a store: at most
	 * 3 * BL_STORE_MEM bytes in memory whatever the number of groups, the
	 * rest in temporary files. The current one is held here. */
	struct bl_runs {
		struct bl_index index;
		struct bl_store state;        /* number i's state at i * sizeof cur */
		char *key;            /* the current one's key (heap), or NULL */
		size_t id;            /* its number in index */
		const char *family;   /* its family (a static string), and */
		unsigned long gen;    /* ctx->prov_gen when it was looked up */
		struct bl_runstate {
			long run;                   /* current run, 0 = none */
			unsigned long long mask;    /* kinds seen in the current run */
		} cur;
	} runs;
	struct bl_dispatch *dispatch;
	/* Records held in blocks to find copies (core/block.h), or NULL:
	 * bl_emit() hands them on at once. */
	struct bl_blocks *blocks;
	struct bl_copies copies;
	struct bl_line_handler lines; /* set by bl_dispatch_open() */
	/* Physical lines of the current unit accounted more than once
	 * (bl_line_shared()), by line number, ascending. */
	struct bl_shared {
		unsigned long lineno, lines;   /* lines: times accounted */
		const char *reason;   /* the first skip's (static) */
		char *note;           /* its note (heap) */
		struct bl_line *skipped;   /* the skips so far, each text a
					      heap copy */
		size_t nskipped, cap;
		bool settled;
	} *shared;
	size_t nshared, capshared;
};

void bl_ctx_init(struct bl_ctx *ctx, const struct bl_opts *opt);
/* Finish sinks (commit when ok and no error), free everything. Returns the
 * first sink finish error or 0. */
int bl_ctx_finish(struct bl_ctx *ctx, int ok);
void bl_ctx_release(struct bl_ctx *ctx);
/* Takes ownership of *s (copied by value). */
void bl_ctx_add_sink(struct bl_ctx *ctx, const struct bl_sink *s);
/* A sink about to return -BL_EIO names the file it could not write (or
 * NULL): like errno, per thread, copied; the context keeps it as
 * error_path for the front end's message. Leaves errno as it was. */
void bl_sink_blame(const char *path);
/* The same for a temporary file of the sink's own: blamed as "a
 * temporary file in DIR" (DIR: bl_tmp_dir()), as bl_ctx_temp_failed()
 * says it. */
void bl_sink_blame_temp(void);
/* ctx stopped on a temporary file: error -BL_EIO and error_path "a
 * temporary file in DIR", from bl_ctx_temp_failed() or a sink's
 * bl_sink_blame_temp(). */
bool bl_ctx_temp_error(const struct bl_ctx *ctx);

/* A temporary file of the pass (errno says why) could not be made or
 * written: the pass stops with ctx->error -BL_EIO (unless an error came
 * first) and error_path "a temporary file in DIR" for the message. */
void bl_ctx_temp_failed(struct bl_ctx *ctx);

/* Give ctx a new prov_gen: its unit or group changed. */
void bl_ctx_prov_moved(struct bl_ctx *ctx);
/* Set the current group label (copied), found in the unit: group_source
 * "label". */
void bl_set_group(struct bl_ctx *ctx, const char *name, size_t len);
/* The same with the group's source (a static string, see group_source). */
void bl_set_group_from(struct bl_ctx *ctx, const char *name, size_t len, const char *source);
/* The group and its source a record made now gets. */
const char *bl_ctx_group(const struct bl_ctx *ctx);
const char *bl_ctx_group_source(const struct bl_ctx *ctx);

/* Run numbering within (current group, family). A run is a set of records
 * of different kinds (bits): an mtest01 result and its time block, or one
 * ConTest load each. bl_run_join() returns the current run number when it
 * has no record of kind `bit` yet (and marks it), else starts a new run.
 * bl_run_new() starts a new run unconditionally. Runs are 1-based.
 * A temporary file of the run stores (struct bl_runs) that cannot be
 * written stops the pass: ctx->error -BL_EIO, error_path names it, and
 * bl_emit() passes no more records on. */
long bl_run_join(struct bl_ctx *ctx, const char *family, unsigned long long bit);
long bl_run_new(struct bl_ctx *ctx, const char *family);
/* The current run (0 when none yet). */
long bl_run_current(struct bl_ctx *ctx, const char *family);

/* Emit a record: fills group (unless set) and pushes it to every sink,
 * at once, or when ctx->blocks is set at the end of its block
 * (core/block.h). Returns 0 or the sink's negative error (also stored in
 * ctx->error). */
int bl_emit(struct bl_ctx *ctx, struct bl_record *r);
/* Hand r to the sinks now (those without `copies` skip it when
 * r->copy_of is set): bl_emit's last step, and core/block.c's. */
int bl_ctx_send(struct bl_ctx *ctx, const struct bl_record *r);

/* A warning about malformed input: prints "source:line: <fmt…>" and counts
 * it under `reason` (a static string naming the class of problem). Only
 * the first BL_WARN_SHOWN of one reason are printed; the next one prints
 * a note that the rest are counted (the summary gives the count). */
#define BL_WARN_SHOWN 10
void bl_warn(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* bl_warn() with its arguments in ap. */
void bl_vwarn(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason,
	      const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
/* A warning not tied to a line ("file.gz: corrupt gzip data at offset 123"). */
void bl_warn_at(struct bl_ctx *ctx, const char *where, const char *reason,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Count a line as skipped with a reason (static string) and send it to the
 * skip sink. Used by the dispatcher; parsers return BL_SKIP instead. */
void bl_skip(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason);
/* Count a raw line of the current unit (ctx->source, ctx->msg) that never
 * reaches the parsers (a mail header, a MIME boundary, a binary part's
 * line) as skipped with a reason (static string). */
void bl_skip_raw(struct bl_ctx *ctx, const char *raw, size_t len, unsigned long lineno,
		 const char *reason);
/* Physical line lineno of the current unit is accounted `lines` times
 * (mail R7: several decoded base64 or HTML text lines start in it, or
 * format=flowed joined one of them to the line before): call this before
 * each of them is handed on or skipped. The line counts once: used when
 * any of them is used, else skipped with the reason of the first skip.
 * Its skips wait until all `lines` are skipped, then go to the skip sink
 * together under that reason; a line with a use is settled by
 * bl_shared_settle(), which the unit's reader calls once the unit has
 * ended (every held line resolved). */
void bl_line_shared(struct bl_ctx *ctx, unsigned long lineno, unsigned long lines);
void bl_shared_settle(struct bl_ctx *ctx);
/* A parser re-classifies a line it had taken (BL_USED) as skipped after
 * all, e.g. prose it held as a possible event when the series ended. */
void bl_unuse(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason);

/* A copy of a line a parser took (BL_USED) and may give back as skipped
 * later, or name in a warning, once the line itself is gone: ln is the
 * line, its text the copy (owned: text); source and msg point where the
 * line's did (valid to the end of its unit). Empty (text NULL) when
 * zeroed. */
struct bl_held {
	struct bl_line ln;
	char *text;
};
/* Hold a copy of ln (what h held before is let go). */
void bl_held_set(struct bl_held *h, const struct bl_line *ln);
/* The held line skipped after all with reason (bl_unuse()), and h
 * emptied; nothing when h is empty. */
void bl_held_unuse(struct bl_ctx *ctx, struct bl_held *h, const char *reason);
/* Empty h, its copy freed. */
void bl_held_clear(struct bl_held *h);

/* Each message once: has a message with this Message-ID been read in
 * this pass (ctx->msgids)? If so returns
 * true and sets *where to "FILE:LINE" of its first line there (caller
 * frees); if not, remembers id as met at source:line and returns false.
 * An empty id is never a duplicate. A temporary file of the store that
 * cannot be made, written or read stops the pass (bl_ctx_temp_failed():
 * ctx->error -BL_EIO) and returns false. */
bool bl_msg_seen(struct bl_ctx *ctx, const char *id, const char *source, unsigned long line,
		 char **where);

/* Print "N lines: U used, S skipped" and the counts by reason to f. */
void bl_diag_summary(const struct bl_ctx *ctx, FILE *f);
/* Total warnings. */
unsigned long bl_warn_total(const struct bl_ctx *ctx);

#endif

/* ppass.h — a parse pass over many inputs on N threads whose result does
 * not depend on N.
 *
 * Design: every input file is parsed on a worker thread by a context of
 * its own (struct bl_ctx + dispatcher, exactly as parsers/pass.c does for one
 * file) into a log of segments of at most about 1 MiB each: its records
 * (strings copied, since a struct bl_record points into parser-owned
 * memory only during bl_emit), its skipped lines as runs (consecutive lines
 * of one source, message, group and reason, with the first line's text cut
 * to 256 bytes), and its warnings' text. The calling thread replays the
 * segments strictly in input order into the caller's context, each as soon
 * as it is published: records through bl_emit() (so every sink of the
 * caller sees them in input order), skipped lines through bl_skip() line by
 * line (so ctx->skip and the per-reason counts see every line; a run's
 * later lines carry its first line's text), warnings written to ctx->diag;
 * an input's counts and warnings are added after its last segment.
 *
 * Threads: every input is a job on the caller's pool (core/pool.h); the
 * pool's workers parse ahead while the calling thread replays. A pool
 * without workers (-j1) parses each input on the calling thread just
 * before replaying it: the same code, one thing at a time.
 *
 * Run numbers: a parser numbers runs per (group, run family) within its
 * context, i.e. within one file. On replay a file's run numbers of group G
 * are offset by the highest run number any earlier file gave group G, so
 * runs keep counting across files of the same group and records that
 * shared a run inside a file (an mtest01 result and its time block) still
 * share it. Families are not told apart by the offset: when one file's
 * group has runs of two families, later files continue after the larger.
 *
 * Pass-wide counters: a number a parser counts across the whole pass in
 * its own state (vmstat's `series`, in its vmstat and events tables)
 * would restart at 1 in every file's context. Such columns have the role
 * BL_ROLE_COUNTER in their table's definition (core/record.h) and are
 * offset the same way, by the highest value earlier files gave; counter
 * columns of the same name share one counter.
 *
 * Each message once (input/mail.c R14): the inputs' contexts share one
 * set of Message-IDs (struct bl_msgids). An input uses it only once every
 * earlier input is parsed: before its first Message-ID lookup it waits
 * for them (with -j1 they are). So ids go into the set in input order,
 * one input at a time, and the copies found, and the first copy each
 * names, are those of one sequential pass (bl_pass_run()). Plain files
 * never look up an id and never wait; mail inputs are parsed one after
 * the other, each while the one before it is replayed. A skipped line's
 * note ("duplicate of the message at FILE:LINE") is logged beside its
 * reason and replayed through ctx->skip_note, so the counts are by reason
 * ("duplicate message") and the skip sinks see the note.
 *
 * Memory: bounded whatever the inputs' sizes (issue 26): at most 64 inputs
 * per worker (1 with -j1) are parsed ahead of the replay, and the segments
 * published and not yet replayed hold at most about 16 MiB (ppass.c); a
 * worker waits for room, except that the input being replayed may always
 * publish one more segment. With -j1 each segment is replayed as soon as
 * it is full, so one large input (an archive, /dev/urandom) is never held.
 *
 * Interruption: when *stop becomes non-zero (a signal handler sets it) the
 * workers abandon their files, the replay stops and bl_ppass_run() returns
 * -BL_EINTR; nothing more is emitted.
 */
#ifndef BL_PPASS_H
#define BL_PPASS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "core/ctx.h"
#include "core/pool.h"

/* What one input gave, reported in input order after its replay. */
struct bl_input_stats {
	const char *path;            /* as expanded from the user's inputs */
	unsigned long lines;         /* physical lines read */
	unsigned long used;          /* lines that went into records, labels, headers */
	unsigned long skipped;       /* lines skipped, with a reason */
	unsigned long records;       /* records emitted */
	unsigned long warnings;      /* malformed-input warnings */
	bool unreadable;             /* missing, unreadable or corrupt (.gz) input */
	unsigned long long bytes;    /* size on disk (compressed), 0 for stdin */
};

struct bl_ppass_opts {
	struct bl_pool *pool;        /* where inputs are parsed; NULL or a pool
					without workers: on the calling thread */
	bool progress;               /* draw "files done of total, MB/s, time
					left" on stderr once the pass takes
					more than a second (the caller checks
					isatty and --quiet) */
	volatile sig_atomic_t *stop; /* may be NULL */
	/* Called on the calling thread after each input's replay (into ctx),
	 * in input order. May be NULL. */
	void (*input_done)(void *ud, const struct bl_input_stats *st);
	void *ud;
	/* Folders whose files are left out when a folder input is walked (the
	 * report's own output folder, when it sits inside an input folder).
	 * A file of theirs named as an input is still read. May be NULL. */
	const char *const *exclude;
	size_t nexclude;
	/* Set to true when a walked file was left out for that reason. */
	bool *excluded_any;
	/* May be NULL. A second context whose sinks get every record (as ctx's
	 * sinks got it: runs and pass-wide counters offset) and whose
	 * ctx->skip gets every skipped line, input by input in input order,
	 * each input right after ctx got it, on the calling thread (the report
	 * writes its CSV files there, beside the analyses). Only its sinks and
	 * skip callback are used; its first error is returned. */
	struct bl_ctx *side;
	/* Sinks of one input's own (both may be NULL): input_open(ud, c) is
	 * called on the thread that parses the input, with the input's own
	 * context c, before it is read (concurrently for several inputs: it
	 * must be thread-safe); it may add sinks to c, which get the input's
	 * records as the parser emits them (runs and pass-wide counters not
	 * yet offset), and returns a state. input_close(ud, state, true)
	 * gets that state on the calling thread after the input's replay, in
	 * input order, before input_done; input_close(ud, state, false) when
	 * the input is abandoned (a stop, an error). */
	void *(*input_open)(void *ud, struct bl_ctx *c);
	void (*input_close)(void *ud, void *state, bool replayed);
};

/* Expand inputs (folders recursed, none = stdin) and parse them into ctx
 * as described above. ctx: initialised by the caller with its options and
 * sinks; ctx->diag receives the warnings (NULL: not printed). Returns 0,
 * -BL_EINTR when stopped, -BL_EUSAGE for a bad --group-regex (message
 * printed), or a sink's negative error (also in ctx->error). Unreadable
 * inputs are counted in ctx->input_errors, as bl_pass_run() does. */
int bl_ppass_run(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_ppass_opts *po);

#endif

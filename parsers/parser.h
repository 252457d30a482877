/* parser.h — the interface every input format implements.
 *
 * To add a format (after tmux's cmd-*.c; tests/e2e/add-format.sh follows
 * these steps on a copy of the tree and checks the result):
 *   1. write parsers/<format>.c exporting one `const struct bl_parser
 *      bl_parser_<format>` and the struct bl_table_def of its tables
 *      (core/record.h): each column's name, type, doc, unit, role and
 *      better direction; the table's group column ("group") and, where
 *      they apply, its split, runs and weight columns. The Makefile
 *      builds every .c file of parsers/; declare a table in parsers/tables.h only
 *      when other code names it;
 *   2. add `extern const struct bl_parser bl_parser_<format>;` and one
 *      line `&bl_parser_<format>,` to parsers/registry.c (order matters:
 *      earlier parsers are offered a line first; the active parser always
 *      first);
 *   3. add fixtures/<format>/<case>.txt and, worked out by hand, the
 *      expected fixtures/<format>/<case>.<table>.csv (tests/run-golden);
 *   4. document it: a section of docs/formats.md (and a row of its
 *      "Evidence a record needs"), the one doc written by hand;
 *   5. `make docs`: docs/csv.md, docs/schema.sql and the man pages'
 *      lists of formats and tables are made from the definitions and
 *      the registry (`make check` fails while one is stale);
 *   6. `make check`.
 * Statistics (stats, compare) read the new tables from their definitions;
 * a summary section or charts need an analysis (analyze/analysis.h).
 *
 * How lines reach a parser (parsers/dispatch.c):
 *   - Each line is offered first to the *active* parser (the one that used
 *     the previous line), then to the one active before it (formats that
 *     take turns, like an mtest01 result and its time -v block, find each
 *     other at once), then to every other parser in registry order, until
 *     one returns something other than BL_NO. Nobody → skipped "no format
 *     recognised". A parser must therefore claim only lines that are
 *     unambiguously its own: which parser is tried first may vary.
 *   - BL_MORE is the one shared mechanism for hard-wrapped records: the
 *     parser says "this line starts one of my records but is incomplete".
 *     The dispatcher holds it and offers the same parser the held text
 *     joined with the next line (one space between), with BL_F_JOINED set.
 *     The parser answers again: BL_USED (all held lines used), BL_MORE (hold
 *     on, up to BL_JOIN_MAX lines), or BL_NO (the continuation is not
 *     part of it). On BL_NO, or at the end of the unit, the parser is offered
 *     the held text alone with BL_F_LAST: it must take it as it is, or skip
 *     it (BL_SKIP with ctx->skip_reason); BL_MORE is not allowed then. The
 *     next line is then dispatched normally.
 *   - BL_SKIP: "mine, but not usable": return bl_skip_as(ctx, reason), or
 *     bl_reject(), which also warns, when it is malformed data.
 *   - flush() is called at the end of each unit (file or mail message):
 *     emit anything pending. Group and run state live in the context.
 *
 * A parser never opens files, never exits and never prints except through
 * bl_warn(). State lives in the state_size bytes the dispatcher allocates
 * (zeroed) per pass.
 */
#ifndef BL_PARSER_H
#define BL_PARSER_H

#include <stddef.h>
#include "core/ctx.h"
#include "core/line.h"
#include "core/record.h"

enum bl_verdict {
	BL_NO = 0,   /* not mine */
	BL_USED,     /* consumed */
	BL_MORE,     /* start of my record, incomplete: join with the next line */
	BL_SKIP,     /* mine, not usable; ctx->skip_reason says why */
};

#define BL_F_JOINED 1u   /* text is held line(s) + " " + the next line */
#define BL_F_LAST   2u   /* no continuation possible: take it or skip it */
#define BL_F_PADDED 4u   /* BL_LINE_PAD bytes after text[len] can be read
			    (core/line.h BL_LINE_PADDED) */
#define BL_JOIN_MAX 4    /* physical lines one record may span */

struct bl_parser {
	const char *name;          /* short name: "timev", "vmstat" */
	const char *summary;       /* one line for `benchlog formats` */
	const struct bl_table_def *const *tables; /* NULL-terminated; may be NULL */
	size_t state_size;
	/* May be NULL. Returns 0, or a negative bl_err with *err a message
	 * (the caller frees): a pattern that does not compile (-BL_EUSAGE
	 * when it is the user's). The pass does not start then. */
	int (*init)(void *st, struct bl_ctx *ctx, char **err);
	enum bl_verdict (*line)(void *st, struct bl_ctx *ctx,
				const struct bl_line *ln, unsigned flags);
	/* Another parser took a line while this one was active (lines nobody
	 * takes are not reported: the active parser saw them first anyway). */
	void (*yield)(void *st, struct bl_ctx *ctx, const struct bl_line *ln); /* may be NULL */
	/* The unit ended (ln NULL; yield's type, so one function may be both); may be NULL. */
	void (*flush)(void *st, struct bl_ctx *ctx, const struct bl_line *ln);
	void (*release)(void *st);                           /* may be NULL */
};

/* BL_SKIP, with reason (a static string) as ctx->skip_reason. */
static inline enum bl_verdict bl_skip_as(struct bl_ctx *ctx, const char *reason)
{
	ctx->skip_reason = reason;
	return BL_SKIP;
}
/* Malformed data of the parser's own: bl_warn() under reason, then
 * bl_skip_as(reason). */
enum bl_verdict bl_reject(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The registry, in offer order; NULL-terminated. */
extern const struct bl_parser *const bl_parsers[];
/* Find a table definition by name across all parsers; NULL when unknown. */
const struct bl_table_def *bl_table_find(const char *name);

#endif

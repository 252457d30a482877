/* timeparse.h — duration values as the timing tools print them
 * (FORMATS.md §1). All return 0 and seconds in *out, or -BL_EFORMAT. */
#ifndef BL_TIMEPARSE_H
#define BL_TIMEPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/record.h"
#include "core/util.h"

/* Every duration a timing tool prints, one reader for all:
 * - GNU time %E and tcsh/csh %E: colons separate units, so count them:
 *   "m:ss.cc" (1:02.03 = 62.03 s), "h:mm:ss" (1:02:03 = 3723 s), also
 *   "h:mm:ss.cc" (tcsh); a bare "ss.cc" is taken as seconds. BusyBox -v
 *   prints "0m 1.00s" / "1h 2m 03s" there: accepted too.
 * - Shell durations: bash "%lR" ("3m28.568s", "62m3.000s", decimal comma
 *   "0m0,102s" from bash >= 4.4 under some locales), BusyBox "0m 1.00s",
 *   "-p" plain seconds ("208.56", "0,10"), zsh "1.003" / "1:02.03" /
 *   "1:02:03.00", values with a trailing "s".
 * A negative value is -BL_ERANGE (damage, not a time). */
int bl_parse_clock(const char *s, size_t len, double *out);

struct bl_ctx;
struct bl_record;
struct bl_line;
/* Move a pending GNU time status line (ctx->time_status) into a `time`
 * record: status, status_code, and the record's first line. */
void bl_time_take_status(struct bl_ctx *ctx, struct bl_record *r);

/* A shell's line saying that the command it ran died of SIGILL, SIGABRT,
 * SIGBUS, SIGKILL, SIGSEGV or SIGTERM, printed before `time`'s output
 * (docs/formats.md, "Short timing formats"): bash's strsignal() text
 * (`Killed`, `Bus error (core dumped)`, …; since bash 5.3 blanks and the
 * command after it; a script's `NAME: line N: PID ` before it) and zsh's
 * (`zsh: killed     cmd`, `zsh: segmentation fault (core dumped)  cmd`).
 * s[0..n) trimmed. Returns the signal's number (Linux), or 0 when s is no
 * such line. */
int bl_shell_signal_line(const char *s, size_t n);

/* A `time` record held open over several lines (time -v, the shell
 * formats' real/user/sys, BSD -l) and the text it keeps past its own
 * lines: its source, its group and its command, in buffers reused record
 * after record, so no record allocates; the record points into them until
 * it is emitted. init before use, release at the end. */
struct bl_time_block {
	bool open;
	struct bl_record rec;
	long run;
	struct bl_buf source, group, command;
	const char *group_source;   /* static string (core/ctx.h) */
	unsigned long gen;          /* the context's prov_gen they were taken at */
};
void bl_time_block_init(struct bl_time_block *b);
void bl_time_block_release(struct bl_time_block *b);
/* Open a record of format at ln (emitting the open one first): its
 * source, its group (--group, else the context's current group), its run
 * in the mtest family and a pending status line (bl_time_take_status). */
void bl_time_block_open(struct bl_time_block *b, struct bl_ctx *ctx, const struct bl_line *ln, const char *format);
/* Emit the open record, if there is one. */
void bl_time_block_emit(struct bl_time_block *b, struct bl_ctx *ctx);
/* Keep s[0..n) in b (replacing what it held); returns the copy. */
const char *bl_time_text_set(struct bl_buf *b, const char *s, size_t n);

#endif

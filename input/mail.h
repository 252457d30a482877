/* mail.h — e-mail and archive input, through GMime 3: a single message,
 * mbox (mboxo, mboxrd), gzipped mbox, one message per file; detected,
 * never declared. Every text MIME part of a message becomes a dispatcher
 * unit with the message's provenance (struct bl_msg); every other line is
 * skipped with a reason. docs/mail.md states the rules (R1-R17).
 */
#ifndef BL_MAIL_H
#define BL_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include "core/ctx.h"
#include "input/reader.h"

/* Does the start of the data look like an mbox ("From " line first) or an
 * RFC 822 message (a run of header fields including at least one of From:,
 * Date:, Subject:, Message-ID:, then a blank line)? */
bool bl_mail_sniff(const char *p, size_t len);
/* Read the whole source as mail and dispatch its text parts. source is the
 * input name. Returns 0 or a negative bl_err. Memory: a single message is
 * held whole; an mbox a window at a time, about 1 MiB plus the message
 * being read, whatever the size of the archive (mail.c, R13). */
int bl_mail_read(struct bl_ctx *ctx, struct bl_src *src, const char *source);
/* The kernel version a subject names, for --group-from subject: the first
 * token shaped x.y.z[.w] with an optional suffix, or x.y with a suffix or
 * after "v"/"Linux "/"kernel " ("[BENCHMARK] 2.5.52-mm2 with contest" ->
 * "2.5.52-mm2", "[2.4.17/18pre] VM" -> "2.4.17", "Linux 5.4-rc1" ->
 * "5.4-rc1"); NULL when there is none. The caller frees the result. */
char *bl_mail_subject_group(const char *subject);
/* A message's thread, for its group when nothing closer names one: the
 * subject without its leading reply and forward marks ("Re:", "RE:",
 * "Fwd:", "Fw:", "AW:", "Re[2]:") and bracketed tags ("[PATCH v2 3/9]",
 * "[LTP]"), in any order, with runs of blanks made one space. "(no
 * subject)" when nothing is left. The caller frees the result. */
char *bl_mail_thread(const char *subject);
/* The block a mail record belongs to in comparisons (the report's
 * Findings, docs/statistics.md D18): its thread, "thread: " and
 * bl_mail_thread() of its subject; the message id when the subject names
 * none; "" for a plain file (m NULL). The caller frees it. */
char *bl_mail_thread_key(const struct bl_msg *m);
/* How a comparison names message m (report/findings.h F1): "Message-ID,
 * YYYY-MM-DD", either part maybe empty. The caller frees it. */
char *bl_mail_ref(const struct bl_msg *m);

#endif

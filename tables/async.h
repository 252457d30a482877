/* async.h — a sink that hands records to another sink on a second thread.
 *
 * Writing CSV (number formatting, quoting, stdio) costs about as much as
 * parsing; with this wrapper the parse thread only copies each record into
 * a block and a writer thread formats and writes it, so the two run on two
 * cores. Records reach the inner sink in emission order, unchanged: every
 * value, string and provenance field is copied (the bl_msg the inner sink
 * sees is a copy with the same message_id, date, subject and index).
 *
 * Memory is bounded: BL_ASYNC_BLOCKS blocks of BL_ASYNC_BLOCK bytes; a
 * parse thread that gets ahead waits for a free block. A record larger
 * than a block gets a block of its own size.
 *
 * Errors: the first error the inner sink's record() returns is returned by
 * a later record() call of the wrapper (at most a block's worth of records
 * later; the inner sink sees no records after its error) and by finish(),
 * with errno set to what it was on the writer thread after the failure.
 * finish() drains the queue, stops the thread and then calls the inner
 * sink's finish(); free() frees both. The inner sink's record() runs on the
 * writer thread only, so it must not share unlocked state with the parse
 * thread (the CSV folder and stream sinks do not).
 */
#ifndef BL_ASYNC_H
#define BL_ASYNC_H

#include "tables/table.h"

#define BL_ASYNC_BLOCK (256 * 1024)
#define BL_ASYNC_BLOCKS 8

/* Wrap *inner (taken over: do not use or free it afterwards) into *out.
 * Returns 0, or a negative bl_err when the thread cannot be started; then
 * *out is *inner unchanged, so the caller can go on synchronously. */
int bl_async_sink(struct bl_sink *out, const struct bl_sink *inner);

#endif

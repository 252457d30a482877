/* block.h — never a post against its own copy: a block of records equal
 * to one read before, or a mail message's records equal to an earlier
 * message's, are marked (copy_of) and left out of the analyses.
 *
 * The rules (docs/csv.md `copy_of`, tests/e2e/copies.sh,
 * tests/e2e/archive-repost.sh):
 *   B1 A block is the records emitted between two boundaries: a line of
 *      text or a label (bl_block_end(), called by the dispatcher), a new
 *      vmstat capture (a header pair after a blank line, or the same
 *      capture again, V4: called by parsers/vmstat.c), the end of a file
 *      or mail message. Blank lines and other lines a parser takes or
 *      skips do not end one: a whole capture, table or run of rows is one
 *      block, all its records in order.
 *   B2 What a block is: a 64-bit hash of every record in order (its
 *      table, then the type and value of each column that is not an id:
 *      not a sample number, time offset, thread or input line), with the
 *      count of records. Provenance (file, line, message, quote
 *      depth, group, run) is never part of it. Equal hash and count are
 *      taken as equal blocks: among BL_BLOCKS_SEEN blocks, two different
 *      ones agree by chance with odds below 1e-10.
 *   B3 A block is compared (and remembered) when it holds at least 2
 *      records and at least BL_BLOCK_MIN_DISTINCT different values of
 *      measures (role BL_ROLE_MEASURE). A single record never is, nor
 *      runs that print the same few numbers: a second run may print what
 *      the first did (mtest01 allocates the same bytes each run, in one
 *      log or in the next), and a folder of one-result logs would fill the
 *      memory of B5 for nothing (a result quoted in a reply is left out
 *      of the statistics as quoted all the same). So a one-row table
 *      pasted twice is not found.
 *   B4 A compared block equal to one seen before (in another file,
 *      another message, or the same message) is a copy: its records keep
 *      their rows in every table, with copy_of = "FILE:LINE" of the first
 *      such block's first line (the smallest line of its records); sinks
 *      that analyse (struct bl_sink.copies false) do not get them.
 *   B5 Bounded: a block is held until it ends, up to BL_BLOCK_MAX
 *      records, and while its text is under BL_BLOCK_TEXT_MAX bytes; a
 *      longer one is passed on as it comes, neither compared nor
 *      remembered (counted: too_long). A mail message (B6) is held only
 *      when its first record is the first of a message remembered, and
 *      within the same two bounds; a longer one is passed on, neither
 *      compared nor remembered as a message (its blocks still are). At
 *      most BL_BLOCKS_SEEN blocks, and as many messages, are remembered;
 *      the later ones are still compared with them but not remembered
 *      (counted: unremembered, msgs_unremembered). Memory: the records
 *      held (at most about 1 MB for the block and 1 MB for the message,
 *      and their text), 128 KB of starts, and about 100 bytes of hash
 *      table and 16 of place per remembered block or message (4 MB at
 *      most), with the name of each input a remembered one came from.
 *   B6 A mail message (an mbox's or a .eml's, with the messages attached
 *      to it and the text read on after it as its own, docs/mail.md R2)
 *      is also compared as a whole when it ends (bl_block_message_end(),
 *      called by the mail reader): its records, every block in order,
 *      hashed as B2 does, with their count. It is compared, and
 *      remembered, when it holds at least 2 records, BL_BLOCK_MIN_DISTINCT
 *      different values of measures across them, and two records that
 *      differ (records all alike are what a program that prints the same
 *      each run gives, and another mail may well print them again). When
 *      its first records (all of them, or the first ones of a message
 *      that goes on with results of its own), at least 2, equal in order
 *      the whole of a message remembered, read earlier in this input or
 *      another, they are copies, the longest such run taken: copy_of =
 *      "FILE:LINE" of that message's first line (the smallest line of its
 *      records); a record its block made a copy (B4) keeps its copy_of,
 *      and each run of records so marked counts as a block. So results
 *      mailed again ("[PATCH v2 RESEND]", "REPOST", a later version
 *      carrying them, a reply quoting them all) count once where each is
 *      a block of one record. A message that copies one as a whole is not
 *      remembered; one that goes on past the copy is. Not found: a
 *      message that puts new results before the ones posted again, or
 *      leaves some of them out, and a single record (B3).
 */
#ifndef BL_BLOCK_H
#define BL_BLOCK_H

#include "core/record.h"

#define BL_BLOCK_MAX 1024
#define BL_BLOCKS_SEEN 16384
#define BL_BLOCK_MIN_DISTINCT 6
#define BL_BLOCK_TEXT_MAX (2u << 20)   /* bytes of text a held block may keep */

/* What the blocks of a pass came to (ctx->copies). */
struct bl_copies {
	unsigned long blocks;        /* blocks found to be copies (B4) */
	unsigned long records;       /* their records */
	unsigned long too_long;      /* blocks over BL_BLOCK_MAX records (B5) */
	unsigned long unremembered;  /* blocks past BL_BLOCKS_SEEN (B5) */
	unsigned long msgs_unremembered;  /* mail messages past BL_BLOCKS_SEEN (B5, B6) */
};

struct bl_ctx;
struct bl_blocks;

/* Hold records in blocks from now on (the dispatcher does, when a pass
 * opens); bl_ctx_release() frees them. */
void bl_blocks_enable(struct bl_ctx *ctx);
/* Take an emitted record (group filled) into the current block: held
 * (deep copy), or passed on when the block is over BL_BLOCK_MAX. 0 or a
 * sink's negative bl_err. */
int bl_block_hold(struct bl_ctx *ctx, const struct bl_record *r);
/* End the current block (B1): decide whether it is a copy (B3, B4) and
 * hand its records to the sinks. 0 or a sink's negative bl_err (also in
 * ctx->error). Nothing to do when blocks are off or none is open. */
int bl_block_end(struct bl_ctx *ctx);
/* End the current block, then the mail message whose records were
 * emitted since the last call (B6): decide which of them copy an
 * earlier message and hand those held to the sinks. The mail reader
 * calls it when a message is done, while the message's provenance
 * (struct bl_msg) is still alive; a pass calls it when it ends. 0 or a
 * sink's negative bl_err (also in ctx->error). */
int bl_block_message_end(struct bl_ctx *ctx);
void bl_blocks_free(struct bl_blocks *b);

#endif

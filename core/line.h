/* line.h — one input line as the parsers see it, with its provenance.
 *
 * The reader (input/reader.c) and the mail layer (input/mail.c) produce lines;
 * the dispatcher (parsers/dispatch.c) strips quote prefixes and hands them to the
 * parsers. A parser never opens a file: everything it knows about where a line
 * came from is in this struct.
 */
#ifndef BL_LINE_H
#define BL_LINE_H

#include <stddef.h>

/* Message provenance for lines that came out of an e-mail (RFC 822 message,
 * mbox member, public-inbox file). Strings are owned by the mail layer and
 * live until the message's last line has been dispatched. Sender addresses
 * and names are deliberately not carried. */
struct bl_msg {
	const char *message_id;  /* without angle brackets; "" when absent */
	const char *date;        /* ISO 8601 with offset, "2002-01-10T00:31:48-05:00"; "" when absent */
	const char *subject;     /* decoded (RFC 2047), unfolded; "" when absent */
	unsigned long index;     /* 1-based position of the message in its file */
};

struct bl_line {
	const char *text;        /* the line without its line end and without the
				    quote prefix; NUL-terminated; NULs inside the
				    raw line were replaced by U+FFFD */
	size_t len;              /* bytes in text */
	const char *source;      /* input name as the user gave it ("-" for stdin) */
	unsigned long lineno;    /* 1-based line number in source (for mail: the
				    line in the file where the part's text
				    line starts, best effort after decoding) */
	int quote_depth;         /* count of '>' quote marks stripped (0 = not quoted) */
	const struct bl_msg *msg;/* NULL unless the line came from a message */
};

/* What the producer of a line already knows of it (struct bl_line_handler):
 * BL_LINE_CLEAN: it holds no NUL and no ESC byte (the reader's line
 * splitter looks for them with the line end). BL_LINE_TERMINATED: raw[len]
 * is a NUL and raw stays valid for the call, so a line that needs no change
 * is given to the parsers without a copy (5 MB of the bench's inputs:
 * summary of mtest01 + time -v 146 M instructions, 157 M copying every
 * line; parse -t vmstat 282 M, 287 M). */
#define BL_LINE_CLEAN 1u
#define BL_LINE_TERMINATED 2u
/* BL_LINE_PADDED: raw[len] is a NUL and the BL_LINE_PAD bytes after it can
 * be read (the reader's own buffer), so a scanner may read past the line
 * and a parser need not copy it (struct bl_parser's BL_F_PADDED). */
#define BL_LINE_PADDED 4u
#define BL_LINE_PAD 32

#endif

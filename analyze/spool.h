/* spool.h — temporary files for text an analysis formats during a pass
 * (issue 10: `benchlog summary` keeps its memory bounded whatever the
 * input size, so a finished part of a section is written out at once and
 * copied into the output when the section is written).
 *
 * A spool is an ordinary FILE opened for update on a file created with
 * mkstemp(3) in $TMPDIR (else /tmp) and unlinked at once: nothing is left
 * behind, whatever way the process ends. The caller writes to it with
 * stdio and closes it with fclose(3).
 *
 * Errors: a write error (ENOSPC, EFBIG, EIO) sets the stream's error flag;
 * bl_spool_copy() turns it into -BL_EIO with errno, so callers report it
 * rather than print a truncated section.
 */
#ifndef BL_ANALYZE_SPOOL_H
#define BL_ANALYZE_SPOOL_H

#include <stdio.h>
#include "core/store.h"   /* bl_spool_open() */

/* Flush sp and copy all of it, from its start, to out; sp is left at its
 * end for more writes. 0, or -BL_EIO with errno set: sp could not be
 * flushed or read back (nothing has been written to out when the flush
 * failed), or out could not be written. */
int bl_spool_copy(FILE *sp, FILE *out);

/* Copy len bytes of sp's file from byte offset off to out (pread: sp's
 * stdio position is untouched; flush sp first). 0 or -BL_EIO with errno. */
int bl_spool_copy_range(FILE *sp, long long off, long long len, FILE *out);

#endif

/* outdir.h — an output folder built beside its final place and swapped in
 * whole, so a reader (or an interrupted run) never sees half a report.
 *
 *   bl_outdir_begin("out")   creates "out.tmp-XXXXXX" next to "out"
 *                            (mkdtemp, mode 0700 then 0755);
 *   …write into od.tmp…
 *   bl_outdir_commit()       puts the new folder in place of "out":
 *                            renameat2(RENAME_EXCHANGE) when "out" exists
 *                            (one atomic step), else rename(); where the
 *                            file system cannot exchange, "out" is first
 *                            renamed aside to "out.old-XXXXXX". The old
 *                            folder is then removed.
 *   bl_outdir_abort()        removes the temporary folder.
 *
 * Safety: an existing "out" is replaced only when it is an empty folder or
 * holds the marker file BL_OUTDIR_MARKER that bl_outdir_commit() writes, so
 * `-o ~` cannot wipe a folder that benchlog did not make.
 *
 * Nothing benchlog did not write is removed (O1). bl_outdir_begin() notes
 * every entry "out" holds (path, device and inode): the earlier report,
 * or nothing for an empty folder. After the swap the old folder is reached
 * only by its random temporary name, so nothing written into "out" by its
 * path can land in it any more; there only the entries noted at the start,
 * with the same inode, are removed. Any other entry (a file written into
 * "out" during the run, or a noted one replaced) is moved into the new
 * folder at its same path when that path is free (renameat2 NOREPLACE: a
 * file of the report is never overwritten, nor the user's), and listed in
 * kept[]; when it cannot be moved the old folder is kept whole as
 * "out.kept-XXXXXX" (aside), never removed.
 */
#ifndef BL_OUTDIR_H
#define BL_OUTDIR_H

#include <stdbool.h>
#include <stdio.h>

#define BL_OUTDIR_MARKER ".benchlog-report"

struct bl_outdir_had;

struct bl_outdir {
	char *final;     /* the folder asked for, trailing '/' removed */
	char *tmp;       /* the folder being built */
	struct bl_outdir_had *had;  /* entries of final at begin, sorted by path */
	size_t nhad;
	char **kept;     /* after commit: paths under final that benchlog did not
			  * write, moved from the old folder (owned, freed by release) */
	size_t nkept;
	char *aside;     /* after commit: "final.kept-XXXXXX" when the old folder
			  * held entries that could not be moved, else NULL */
};

/* Check that final may be replaced and create the temporary folder.
 * Returns 0; -BL_EUSAGE when final exists and is not a folder or is a
 * folder benchlog did not make (*why says which, static text); -BL_EIO
 * with errno when the folder cannot be made. */
int bl_outdir_begin(struct bl_outdir *od, const char *final, const char **why);
/* Write the marker, swap the folders in, remove from the old one what
 * benchlog wrote (O1: see kept and aside). Returns 0 or -BL_EIO (errno
 * set); on failure the temporary folder is left for bl_outdir_abort(). */
int bl_outdir_commit(struct bl_outdir *od);
/* After a commit, say on f (escaped for a terminal) which entries were
 * kept because benchlog did not write them: each of kept[] (the first 10,
 * then how many more) and aside. Nothing when there are none. */
void bl_outdir_say_kept(const struct bl_outdir *od, FILE *f);
/* Remove the temporary folder (if still there) and free od. */
void bl_outdir_abort(struct bl_outdir *od);
/* Free od after a commit. */
void bl_outdir_release(struct bl_outdir *od);

#endif

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
 */
#ifndef BL_OUTDIR_H
#define BL_OUTDIR_H

#include <stdbool.h>

#define BL_OUTDIR_MARKER ".benchlog-report"

struct bl_outdir {
	char *final;     /* the folder asked for, trailing '/' removed */
	char *tmp;       /* the folder being built */
};

/* Check that final may be replaced and create the temporary folder.
 * Returns 0; -BL_EUSAGE when final exists and is not a folder or is a
 * folder benchlog did not make (*why says which, static text); -BL_EIO
 * with errno when the folder cannot be made. */
int bl_outdir_begin(struct bl_outdir *od, const char *final, const char **why);
/* Write the marker, swap the folders in, remove the old one. Returns 0 or
 * -BL_EIO (errno set); on failure the temporary folder is left for
 * bl_outdir_abort(). */
int bl_outdir_commit(struct bl_outdir *od);
/* Remove the temporary folder (if still there) and free od. */
void bl_outdir_abort(struct bl_outdir *od);
/* Free od after a commit. */
void bl_outdir_release(struct bl_outdir *od);
/* Remove a folder tree (no symlinks followed). Returns 0 or -BL_EIO. */
int bl_rmtree(const char *path);

#endif

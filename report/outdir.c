/* outdir.c — build a folder beside its final place, swap it in (outdir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/util.h"
#include "report/outdir.h"

int bl_rmtree(const char *path)
{
	return bl_remove_tree(path) == 0 ? 0 : -BL_EIO;
}

/* 1 when the folder is empty or holds the marker, 0 when not, -1 on error. */
static int replaceable(const char *dir)
{
	char *m = bl_xasprintf("%s/%s", dir, BL_OUTDIR_MARKER);
	struct stat st;
	int has = lstat(m, &st) == 0 && S_ISREG(st.st_mode);
	free(m);
	if (has)
		return 1;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int empty = 1;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	}
	closedir(d);
	return empty;
}

int bl_outdir_begin(struct bl_outdir *od, const char *final, const char **why)
{
	od->final = NULL;
	od->tmp = NULL;
	*why = NULL;
	size_t len = strlen(final);
	while (len > 1 && final[len - 1] == '/')
		len--;
	if (len == 0) {
		*why = "empty folder name";
		return -BL_EUSAGE;
	}
	od->final = bl_xstrndup(final, len);
	const char *base = strrchr(od->final, '/');
	base = base ? base + 1 : od->final;
	if (strcmp(base, "") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		*why = "names no folder of its own (give a name such as report-out)";
		goto usage;
	}
	struct stat st;
	if (lstat(od->final, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			*why = "exists and is not a folder";
			goto usage;
		}
		int r = replaceable(od->final);
		if (r < 0) {
			free(od->final);
			od->final = NULL;
			return -BL_EIO;
		}
		if (r == 0) {
			*why = "is a folder benchlog did not make (no " BL_OUTDIR_MARKER " in it); "
			       "remove it or choose another";
			goto usage;
		}
	} else if (errno != ENOENT) {
		free(od->final);
		od->final = NULL;
		return -BL_EIO;
	}
	/* The folders above it, when missing, as mkdir -p makes them. */
	const char *slash = strrchr(od->final, '/');
	if (slash && slash != od->final) {
		char *parent = bl_xstrndup(od->final, (size_t)(slash - od->final));
		int pr = bl_mkdir_p(parent);
		int e = errno;
		free(parent);
		if (pr) {
			free(od->final);
			od->final = NULL;
			errno = e;
			return -BL_EIO;
		}
	}
	/* Temporary folders of runs that were killed (cleanup.h). */
	{
		const char *sl = strrchr(od->final, '/');
		char *parent = sl ? bl_xstrndup(od->final, sl == od->final ? 1 : (size_t)(sl - od->final))
				  : bl_xstrdup(".");
		char *prefix = bl_xasprintf("%s.tmp-", sl ? sl + 1 : od->final);
		bl_sweep_stale(parent, prefix);
		free(prefix);
		free(parent);
	}
	od->tmp = bl_xasprintf("%s.tmp-XXXXXX", od->final);
	if (!mkdtemp(od->tmp)) {
		int e = errno;
		free(od->tmp);
		free(od->final);
		od->tmp = od->final = NULL;
		errno = e;
		return -BL_EIO;
	}
	bl_cleanup_add(od->tmp, true);
	if (bl_pid_file_write(od->tmp) != 0) {
		int e = errno;
		bl_outdir_abort(od);
		errno = e;
		return -BL_EIO;
	}
	chmod(od->tmp, 0755);
	return 0;
usage:
	free(od->final);
	od->final = NULL;
	return -BL_EUSAGE;
}

static int write_marker(const char *dir)
{
	char *m = bl_xasprintf("%s/%s", dir, BL_OUTDIR_MARKER);
	FILE *f = fopen(m, "w");
	free(m);
	if (!f)
		return -BL_EIO;
	fputs("This folder was written by `benchlog report`; running it again replaces the whole folder.\n", f);
	return fclose(f) == 0 ? 0 : -BL_EIO;
}

/* Forget the temporary folder (it is in place, or holds the old report
 * now removed). */
static void done_tmp(struct bl_outdir *od)
{
	bl_cleanup_forget(od->tmp);
	free(od->tmp);
	od->tmp = NULL;
}

int bl_outdir_commit(struct bl_outdir *od)
{
	if (write_marker(od->tmp))
		return -BL_EIO;
	char *pidf = bl_xasprintf("%s/%s", od->tmp, BL_PID_FILE);
	int pr = unlink(pidf);
	free(pidf);
	if (pr != 0 && errno != ENOENT)
		return -BL_EIO;
	struct stat st;
	if (lstat(od->final, &st) != 0) {
		if (errno != ENOENT)
			return -BL_EIO;
		if (rename(od->tmp, od->final) != 0)
			return -BL_EIO;
		done_tmp(od);
		return 0;
	}
	/* Swap in one step: afterwards od->tmp holds the old report. */
	if (renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->final, RENAME_EXCHANGE) == 0) {
		bl_rmtree(od->tmp);
		done_tmp(od);
		return 0;
	}
	/* No exchange here (old kernel, some file systems): move the old
	 * folder aside, move the new one in, remove the old one. */
	char *aside = bl_xasprintf("%s.old-XXXXXX", od->final);
	if (!mkdtemp(aside)) {
		free(aside);
		return -BL_EIO;
	}
	if (rename(od->final, aside) != 0) {      /* replaces the empty aside */
		int e = errno;
		rmdir(aside);
		free(aside);
		errno = e;
		return -BL_EIO;
	}
	if (rename(od->tmp, od->final) != 0) {
		int e = errno;
		rename(aside, od->final);             /* put the old one back */
		free(aside);
		errno = e;
		return -BL_EIO;
	}
	bl_rmtree(aside);
	free(aside);
	done_tmp(od);
	return 0;
}

void bl_outdir_abort(struct bl_outdir *od)
{
	if (od->tmp)
		bl_rmtree(od->tmp);
	bl_cleanup_forget(od->tmp);
	bl_outdir_release(od);
}

void bl_outdir_release(struct bl_outdir *od)
{
	free(od->tmp);
	free(od->final);
	od->tmp = od->final = NULL;
}

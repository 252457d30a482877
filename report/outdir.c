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
#include "core/escape.h"
#include "core/util.h"
#include "report/outdir.h"

/* An entry of the target folder when the run began (O1). */
struct bl_outdir_had {
	char *rel;       /* path inside the folder, "csv/time.csv" */
	dev_t dev;
	ino_t ino;
};

static int had_cmp(const void *a, const void *b)
{
	return strcmp(((const struct bl_outdir_had *)a)->rel, ((const struct bl_outdir_had *)b)->rel);
}

static void had_free(struct bl_outdir *od)
{
	for (size_t i = 0; i < od->nhad; i++)
		free(od->had[i].rel);
	free(od->had);
	od->had = NULL;
	od->nhad = 0;
}

/* The names in the open folder fd (not . and ..), heap, *n of them; fd is
 * left open. NULL with *n 0 when it cannot be read. */
static char **list_names(int fd, size_t *n)
{
	*n = 0;
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return NULL;
	}
	rewinddir(d);
	char **v = NULL;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = bl_xrealloc(v, cap * sizeof *v);
		}
		v[(*n)++] = bl_xstrdup(de->d_name);
	}
	closedir(d);
	return v;
}

static void names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static char *rel_join(const char *prefix, const char *name)
{
	return *prefix ? bl_xasprintf("%s/%s", prefix, name) : bl_xstrdup(name);
}

/* Note every entry under the open folder fd (prefix: its path inside the
 * target), folders descended without following a symlink. */
static void note_tree(struct bl_outdir *od, size_t *cap, int fd, const char *prefix)
{
	size_t n;
	char **names = list_names(fd, &n);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (od->nhad == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			od->had = bl_xrealloc(od->had, *cap * sizeof *od->had);
		}
		char *rel = rel_join(prefix, names[i]);
		od->had[od->nhad++] = (struct bl_outdir_had){ rel, st.st_dev, st.st_ino };
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				note_tree(od, cap, sub, rel);
				close(sub);
			}
		}
	}
	names_free(names, n);
}

static void note_target(struct bl_outdir *od)
{
	int fd = open(od->final, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	size_t cap = 0;
	note_tree(od, &cap, fd, "");
	close(fd);
	if (od->nhad)
		qsort(od->had, od->nhad, sizeof *od->had, had_cmp);
}

/* True when rel was in the target at the start with this inode. */
static bool was_ours(const struct bl_outdir *od, const char *rel, const struct stat *st)
{
	struct bl_outdir_had key = { (char *)rel, 0, 0 };
	const struct bl_outdir_had *h = od->nhad ? bsearch(&key, od->had, od->nhad, sizeof *od->had, had_cmp)
						 : NULL;
	return h && h->dev == st->st_dev && h->ino == st->st_ino;
}

/* In the old folder (open as fd, prefix its path inside it), remove what
 * was there at the start and move the rest to the same path in the new
 * folder when that is free. Returns how many entries are left. */
static size_t prune_old(struct bl_outdir *od, int fd, const char *prefix)
{
	size_t n, left = 0;
	char **names = list_names(fd, &n);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		char *rel = rel_join(prefix, names[i]);
		if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0) {
			free(rel);
			continue;
		}
		if (was_ours(od, rel, &st) && S_ISDIR(st.st_mode)) {
			int sub = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				prune_old(od, sub, rel);
				close(sub);
			}
			if (unlinkat(fd, names[i], AT_REMOVEDIR) != 0)
				left++;
		} else if (was_ours(od, rel, &st)) {
			if (unlinkat(fd, names[i], 0) != 0)
				left++;
		} else {
			char *dst = bl_xasprintf("%s/%s", od->final, rel);
			if (renameat2(fd, names[i], AT_FDCWD, dst, RENAME_NOREPLACE) == 0) {
				od->kept = bl_xrealloc(od->kept, (od->nkept + 1) * sizeof *od->kept);
				od->kept[od->nkept++] = rel;
				rel = NULL;
			} else {
				left++;
			}
			free(dst);
		}
		free(rel);
	}
	names_free(names, n);
	return left;
}

/* The old folder at path, swapped out: what benchlog wrote removed, the
 * rest moved into the new folder or, failing that, the old folder kept as
 * final.kept-XXXXXX (O1). */
static void retire_old(struct bl_outdir *od, const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	prune_old(od, fd, "");
	close(fd);
	if (rmdir(path) == 0 || errno == ENOENT)
		return;
	char *aside = bl_xasprintf("%s.kept-XXXXXX", od->final);
	/* rename() replaces the empty folder mkdtemp made. */
	if (mkdtemp(aside) && rename(path, aside) == 0) {
		od->aside = aside;
		return;
	}
	free(aside);
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
	*od = (struct bl_outdir){ 0 };
	*why = NULL;
	int rc = -BL_EUSAGE, e = 0;
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
			e = errno;
			goto io;
		}
		if (r == 0) {
			*why = "is a folder benchlog did not make (no " BL_OUTDIR_MARKER " in it); "
			       "remove it or choose another";
			goto usage;
		}
	} else if (errno != ENOENT) {
		e = errno;
		goto io;
	}
	/* The folders above it, when missing, as mkdir -p makes them; then
	 * the temporary folders of runs that were killed (cleanup.h). */
	const char *sl = strrchr(od->final, '/');
	char *parent = sl ? bl_xstrndup(od->final, sl == od->final ? 1 : (size_t)(sl - od->final))
			  : bl_xstrdup(".");
	if (sl && sl != od->final && bl_mkdir_p(parent)) {
		e = errno;
		free(parent);
		goto io;
	}
	char *prefix = bl_xasprintf("%s.tmp-", sl ? sl + 1 : od->final);
	bl_sweep_stale(parent, prefix);
	free(prefix);
	free(parent);
	note_target(od);
	od->tmp = bl_xasprintf("%s.tmp-XXXXXX", od->final);
	if (!mkdtemp(od->tmp)) {
		e = errno;
		bl_outdir_release(od);
		errno = e;
		return -BL_EIO;
	}
	bl_cleanup_add(od->tmp, true);
	if (bl_pid_file_write(od->tmp) != 0) {
		e = errno;
		bl_outdir_abort(od);
		errno = e;
		return -BL_EIO;
	}
	chmod(od->tmp, 0755);
	return 0;
io:
	rc = -BL_EIO;
usage:
	free(od->final);
	od->final = NULL;
	errno = e;   /* the failed call's, which free() may change */
	return rc;
}

static int write_marker(const char *dir)
{
	char *m = bl_xasprintf("%s/%s", dir, BL_OUTDIR_MARKER);
	FILE *f = fopen(m, "w");
	int e = errno;
	free(m);
	if (!f) {
		errno = e;
		return -BL_EIO;
	}
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
	int pr = unlink(pidf), e = errno;
	free(pidf);
	if (pr != 0 && e != ENOENT) {
		errno = e;
		return -BL_EIO;
	}
	/* No folder there: the new one put in place, unless one appeared in
	 * the meantime (then it is swapped like an earlier report). */
	struct stat st;
	if (lstat(od->final, &st) != 0) {
		if (errno != ENOENT)
			return -BL_EIO;
		if (renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->final, RENAME_NOREPLACE) == 0) {
			done_tmp(od);
			return 0;
		}
		if (errno != EEXIST && errno != ENOTEMPTY)
			return -BL_EIO;
	}
	/* Swap in one step: afterwards od->tmp holds the old folder, which
	 * is forgotten first, since it may hold what is not benchlog's. */
	if (renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->final, RENAME_EXCHANGE) == 0) {
		bl_cleanup_forget(od->tmp);
		retire_old(od, od->tmp);
		done_tmp(od);
		return 0;
	}
	/* No exchange here (old kernel, some file systems): move the old
	 * folder aside, move the new one in, retire the old one. */
	char *aside = bl_xasprintf("%s.old-XXXXXX", od->final);
	if (!mkdtemp(aside)) {
		e = errno;
		free(aside);
		errno = e;
		return -BL_EIO;
	}
	if (rename(od->final, aside) != 0) {      /* replaces the empty aside */
		e = errno;
		rmdir(aside);
		free(aside);
		errno = e;
		return -BL_EIO;
	}
	if (rename(od->tmp, od->final) != 0) {
		e = errno;
		rename(aside, od->final);             /* put the old one back */
		free(aside);
		errno = e;
		return -BL_EIO;
	}
	done_tmp(od);
	retire_old(od, aside);
	free(aside);
	return 0;
}

void bl_outdir_say_kept(const struct bl_outdir *od, FILE *f)
{
	for (size_t i = 0; i < od->nkept && i < 10; i++)
		bl_term_printf(f, "benchlog report: %s/%s was not written by benchlog (it appeared during the run); "
			       "kept\n", od->final, od->kept[i]);
	if (od->nkept > 10)
		bl_term_printf(f, "benchlog report: %zu more entries in %s not written by benchlog; kept\n",
			       od->nkept - 10, od->final);
	if (od->aside)
		bl_term_printf(f, "benchlog report: %s held entries benchlog did not write whose names the new "
			       "report uses; the earlier folder is kept whole as %s\n", od->final, od->aside);
}

void bl_outdir_abort(struct bl_outdir *od)
{
	if (od->tmp)
		bl_remove_tree(od->tmp);
	bl_cleanup_forget(od->tmp);
	bl_outdir_release(od);
}

void bl_outdir_release(struct bl_outdir *od)
{
	free(od->tmp);
	free(od->final);
	od->tmp = od->final = NULL;
	had_free(od);
	for (size_t i = 0; i < od->nkept; i++)
		free(od->kept[i]);
	free(od->kept);
	od->kept = NULL;
	od->nkept = 0;
	free(od->aside);
	od->aside = NULL;
}

/* cleanup.h — temporary files and folders that must not outlive the
 * process, whatever ends it, and the one way out when memory runs out.
 *
 * Every temporary output (a table's hidden .NAME.csv.PID.XXXXXX, a chart's
 * private folder, a report's DIR.tmp-XXXXXX) is registered here while it
 * exists. The normal paths (commit, abort, a signal's orderly stop) remove
 * or rename it themselves and unregister it; bl_out_of_memory() removes
 * whatever is still registered before it exits, so running out of memory
 * anywhere (benchlog's own allocations, or GLib's inside GMime) ends with
 * `benchlog: out of memory`, exit 1 and no temporary file left.
 *
 * Stale leftovers: a process killed by SIGKILL (or a power cut) cannot
 * clean up. Each temporary names its owner: a hidden file is named by
 * bl_temp_template() (".NAME.benchlog-PID-XXXXXX"), a temporary folder
 * holds BL_PID_FILE. A later run writing to the same place removes the
 * ones whose owner is gone (kill(pid, 0) says ESRCH).
 */
#ifndef BL_CLEANUP_H
#define BL_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* The file inside a temporary folder that holds its owner's pid (decimal,
 * a newline). */
#define BL_PID_FILE ".benchlog-pid"

/* Register path (copied) as a temporary file, or a folder tree when
 * is_dir. At most BL_CLEANUP_MAX at once; past that it is not registered
 * (the normal paths still remove it). Thread-safe. */
#define BL_CLEANUP_MAX 256
void bl_cleanup_add(const char *path, bool is_dir);
/* Forget path (it was renamed into place or removed). Thread-safe;
 * a path never added is ignored. */
void bl_cleanup_forget(const char *path);

/* Once, at start (main): keep the reserve bl_out_of_memory() gives back,
 * and route GLib's "failed to allocate" errors to it. */
void bl_cleanup_init(void);

/* Print "benchlog: out of memory", remove every registered temporary and
 * _exit(1). Callable from any thread; allocates nothing until it has
 * given back the reserve it keeps for this. */
_Noreturn void bl_out_of_memory(void);
/* The same for any other failure nothing can work around: "benchlog: "
 * and what (a shared library that will not load, core/util.h
 * bl_dynlib_open()). */
_Noreturn void bl_fatal(const char *what);

/* Remove a folder tree (no symlinks followed). Returns 0 or -1 (errno). */
int bl_remove_tree(const char *path);

/* Write BL_PID_FILE with our pid into folder dir. Returns 0 or -1. */
int bl_pid_file_write(const char *dir);
/* "DIR/.NAME.benchlog-PID-XXXXXX" (heap; for mkstemp): the hidden
 * temporary file a final file DIR/NAME is written to. */
char *bl_temp_template(const char *dir, const char *name);
/* In folder dir, remove the entries whose name starts with prefix and
 * that are a file named as bl_temp_template() makes them, or a folder
 * holding BL_PID_FILE, whose owner process is gone. Returns how many were
 * removed. */
int bl_sweep_stale(const char *dir, const char *prefix);

#endif

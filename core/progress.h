/* progress.h — the progress line on a terminal: files done of total,
 * bytes read of total (within the file being read too), share, rate and
 * time left:
 *
 *   benchlog: 0/1 files, 120.3 of 250.0 MB (48%), 45.1 MB/s, 0:03 left
 *
 * Drawn on stderr with a carriage return, nothing in the first second,
 * then at most 4 times a second (BL_PROGRESS_PERIOD), and cleared before
 * anything else is written to stderr and at the end. The caller decides
 * whether to draw at all (stderr a terminal, no -q): a bl_progress whose
 * `on` is false draws nothing.
 *
 * The pass (parsers/pass.c) fills `files_*`, `bytes_total` and `bytes`
 * and lets the reader call bl_progress_tick() after every chunk it reads,
 * so one large file shows its progress too.
 *
 * Not thread-safe: the pass's one thread reads, counts and draws. No
 * allocation; nothing to release. */
#ifndef BL_PROGRESS_H
#define BL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define BL_PROGRESS_PERIOD 0.25     /* seconds between two lines, at least */

struct bl_progress {
	bool on;                     /* draw at all */
	struct timespec start, last; /* CLOCK_MONOTONIC: the pass's start, the last line */
	int width;                   /* characters on the terminal line now; 0: none */
	/* for bl_progress_tick() */
	unsigned long files_done;
	size_t files_total;
	unsigned long long bytes_total;      /* sizes on disk (compressed); 0: unknown */
	const unsigned long long *bytes;     /* raw bytes read so far; may be NULL */
};

/* Start the clock; on: whether to draw. */
void bl_progress_init(struct bl_progress *pg, bool on);
/* Draw the line with the counts the struct holds, unless it is too early
 * or too soon. NULL-safe. */
void bl_progress_tick(struct bl_progress *pg);
/* Erase the line, if one is drawn (before other output on stderr, and at
 * the end). NULL-safe. */
void bl_progress_clear(struct bl_progress *pg);

#endif

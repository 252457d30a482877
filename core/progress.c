/* progress.c — see progress.h. */
#include <stdio.h>
#include "core/progress.h"

void bl_progress_init(struct bl_progress *pg, bool on)
{
	*pg = (struct bl_progress){ .on = on };
	clock_gettime(CLOCK_MONOTONIC, &pg->start);
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void bl_progress_clear(struct bl_progress *pg)
{
	if (pg && pg->width > 0) {
		fprintf(stderr, "\r%*s\r", pg->width, "");
		fflush(stderr);
		pg->width = 0;
	}
}

void bl_progress_tick(struct bl_progress *pg)
{
	if (!pg || !pg->on)
		return;
	unsigned long done = pg->files_done;
	size_t total = pg->files_total;
	unsigned long long bytes_done = pg->bytes ? *pg->bytes : 0, bytes_total = pg->bytes_total;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double el = since(&pg->start, &now);
	/* nothing in the first second; then at most 1/BL_PROGRESS_PERIOD lines a second */
	if (el < 1.0 || (pg->width > 0 && since(&pg->last, &now) < BL_PROGRESS_PERIOD))
		return;
	pg->last = now;
	double rate = (double)bytes_done / 1e6 / el;
	double left = -1;
	if (bytes_total > 0 && bytes_done > 0)
		left = bytes_done >= bytes_total ? 0 : el * (double)(bytes_total - bytes_done) / (double)bytes_done;
	else if (done > 0)
		left = el * (double)(total - done) / (double)done;
	char eta[32] = "?";
	if (left >= 0) {
		unsigned long s = (unsigned long)(left + 0.5);
		snprintf(eta, sizeof eta, "%lu:%02lu", s / 60, s % 60);
	}
	char bytes[64];
	if (bytes_total > 0) {
		unsigned long long shown = bytes_done < bytes_total ? bytes_done : bytes_total;
		snprintf(bytes, sizeof bytes, "%.1f of %.1f MB (%d%%)", (double)shown / 1e6,
			 (double)bytes_total / 1e6, (int)(100.0 * (double)shown / (double)bytes_total));
	} else {
		snprintf(bytes, sizeof bytes, "%.1f MB", (double)bytes_done / 1e6);
	}
	char line[192];
	int w = snprintf(line, sizeof line, "benchlog: %lu/%zu files, %s, %.1f MB/s, %s left",
			 done, total, bytes, rate, eta);
	if (w < 0)
		return;
	if (w >= (int)sizeof line)
		w = (int)sizeof line - 1;
	fprintf(stderr, "\r%s%*s", line, pg->width > w ? pg->width - w : 0, "");
	fflush(stderr);
	pg->width = pg->width > w ? pg->width : w;
}

/* bench-cloop.c — the mawk one-liner of `make bench`, hand-written in C.
 *
 * A reference for the vmstat cases of scripts/bench, not part of benchlog:
 * it shows what a loop written for this one job, knowing the layout in
 * advance, does on the machine at hand, so benchlog's throughput can be
 * read against it as well as against mawk and `wc -l`.
 *
 * Usage: bench-cloop NF COL FILE
 * Does what `mawk 'BEGIN{OFS=","} NF==NF && /^ *[0-9]/ {$1=$1; print;
 * s+=$COL; n++} END{printf "%d %.6f\n", n, s/n > "/dev/stderr"}' FILE`
 * does: each line of exactly NF blank-separated fields (blanks: space and
 * TAB) that starts with spaces and a digit is written with its fields
 * joined by commas; the row count and the mean of field COL go to stderr.
 * The output is byte for byte mawk's (scripts/bench checks it).
 *
 * One read(2) buffer, one output buffer, no allocation per line.
 * Exit status 0, or 2 on bad arguments or a read/write error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IN_SIZE (1 << 20)
#define OUT_SIZE (1 << 16)
#define MAXF 64

static char out[OUT_SIZE];
static size_t outn;

static int flush_out(void)
{
	size_t off = 0;
	while (off < outn) {
		ssize_t w = write(1, out + off, outn - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	outn = 0;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return fprintf(stderr, "usage: bench-cloop NF COL FILE\n"), 2;
	int nf = atoi(argv[1]), col = atoi(argv[2]);
	if (nf < 1 || nf > MAXF || col < 1 || col > nf)
		return fprintf(stderr, "bench-cloop: bad NF or COL\n"), 2;
	int fd = open(argv[3], O_RDONLY);
	if (fd < 0)
		return perror(argv[3]), 2;
	char *buf = malloc(IN_SIZE);
	if (!buf)
		return 2;
	size_t have = 0;
	long n = 0;
	double sum = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, IN_SIZE - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return perror(argv[3]), 2;
		have += (size_t)r;
		char *p = buf, *end = buf + have;
		for (;;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl) {
				if (r > 0 || p == end)
					break;
				nl = end;          /* the last line, without its newline */
			}
			/* /^ *[0-9]/ */
			const char *q = p;
			while (q < nl && *q == ' ')
				q++;
			if (q < nl && *q >= '0' && *q <= '9') {
				const char *f[MAXF + 1];
				size_t fl[MAXF + 1];
				int k = 0;
				q = p;
				while (k <= MAXF) {
					while (q < nl && (*q == ' ' || *q == '\t'))
						q++;
					if (q == nl)
						break;
					f[k] = q;
					while (q < nl && *q != ' ' && *q != '\t')
						q++;
					fl[k] = (size_t)(q - f[k]);
					k++;
				}
				if (k == nf) {
					size_t need = (size_t)(nl - p) + 2;
					if (OUT_SIZE - outn < need && flush_out())
						return perror("write"), 2;
					if (need > OUT_SIZE)
						return fprintf(stderr, "bench-cloop: line too long\n"), 2;
					for (int i = 0; i < k; i++) {
						if (i)
							out[outn++] = ',';
						memcpy(out + outn, f[i], fl[i]);
						outn += fl[i];
					}
					out[outn++] = '\n';
					/* awk's string-to-number: the leading number */
					sum += strtod(f[col - 1], NULL);
					n++;
				}
			}
			if (nl == end) {
				p = end;
				break;
			}
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
		if (r == 0)
			break;
		if (have == IN_SIZE)
			return fprintf(stderr, "bench-cloop: line too long\n"), 2;
	}
	if (flush_out())
		return perror("write"), 2;
	fprintf(stderr, "%ld %.6f\n", n, n ? sum / (double)n : 0.0 / 0.0);
	return 0;
}

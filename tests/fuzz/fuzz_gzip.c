/* fuzz_gzip.c — bytes as a .gz through bl_src (input/reader.c).
 *
 * First byte, bit 0 clear: the rest is the file as it is (mutations of
 * the gzipped fixtures find truncated, corrupt and multi-member streams);
 * it is read through bl_read_input(), the whole path a .gz on the command
 * line takes (gzip detection, mail sniffing, lines, parsers).
 *
 * Bit 0 set: a differential check against zlib. The rest is split into
 * plain text and a tail; the text is compressed as 1 or 2 gzip members
 * (bit 1), then bits 2-3 choose what happens to the file:
 *   0  nothing: bl_src must return exactly the text, no error, no warning;
 *   1  cut after tail[0] * 256 + tail[1] bytes (modulo the length):
 *      the output must be a prefix of the text and an error reported,
 *      unless the cut left the whole stream;
 *   2  the tail appended: the output is the text, and a warning names the
 *      trailing garbage unless it is all NUL bytes (padding, as gzip(1)
 *      accepts) or itself starts with the gzip magic;
 *   3  a byte after the magic (tail[0]*256+tail[1]) flipped by tail[2] | 1:
 *      whatever comes out must not crash; with no error or warning the
 *      output must equal the text (header fields zlib does not check, such
 *      as MTIME, may change silently; the data is covered by the CRC).
 */
#include <zlib.h>
#include "tests/fuzz/common.h"

static void fzg_deflate(struct bl_buf *out, const uint8_t *p, size_t n)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		fz_fail("deflateInit2");
	uint8_t buf[4096];
	zs.next_in = (Bytef *)(uintptr_t)p;
	zs.avail_in = (uInt)n;
	int zr;
	do {
		zs.next_out = buf;
		zs.avail_out = sizeof buf;
		zr = deflate(&zs, Z_FINISH);
		bl_buf_add(out, buf, sizeof buf - zs.avail_out);
	} while (zr == Z_OK || (zr == Z_BUF_ERROR && zs.avail_out == 0));
	if (zr != Z_STREAM_END)
		fz_fail("deflate: %d", zr);
	deflateEnd(&zs);
}

/* Read all of path through bl_src; *err / *warn: whether reported. */
static void fzg_read(const char *path, struct bl_buf *out, bool *err, bool *warn)
{
	struct bl_src *s;
	*err = *warn = false;
	if (bl_src_open(path, NULL, &s) != 0) {
		*err = true;
		return;
	}
	const char *pk;
	size_t pklen;
	if (bl_src_peek(s, &pk, &pklen) < 0)
		*err = true;
	char buf[3000];          /* not a power of two: odd boundaries */
	for (;;) {
		ssize_t r = bl_src_read(s, buf, sizeof buf);
		if (r < 0) {
			*err = true;
			break;
		}
		if (r == 0)
			break;
		bl_buf_add(out, buf, (size_t)r);
	}
	if (bl_src_error(s)[0])
		*err = true;
	*warn = bl_src_warning(s) != NULL;
	bl_src_close(s);
}

static void fzg_diff(const uint8_t *data, size_t size)
{
	unsigned cfg = data[0];
	data++;
	size--;
	size_t tail = size > 8 ? 8 : size;      /* last bytes: parameters / garbage */
	const uint8_t *text = data, *t = data + size - tail;
	size_t ntext = size - tail;
	struct bl_buf gz = BL_BUF_INIT(0);
	size_t m1 = 0;               /* end of the first member when there are two */
	if (cfg & 2) {
		fzg_deflate(&gz, text, ntext / 2);
		m1 = gz.len;
		fzg_deflate(&gz, text + ntext / 2, ntext - ntext / 2);
	} else {
		fzg_deflate(&gz, text, ntext);
	}
	size_t full = gz.len;
	unsigned mode = (cfg >> 2) & 3;
	unsigned pos = tail >= 2 ? (unsigned)t[0] * 256u + t[1] : 0;
	if (mode == 1) {
		gz.len = pos % (full + 1);
	} else if (mode == 2) {
		bl_buf_add(&gz, t, tail);
	} else if (mode == 3 && tail >= 3) {
		/* not the first member's magic: without it the file is plain text */
		((unsigned char *)gz.data)[2 + pos % (full - 2)] ^= (unsigned char)(t[2] | 1);
	}
	char path[64];
	int fd = fz_memfile((const uint8_t *)gz.data, gz.len, path, sizeof path);
	struct bl_buf out = BL_BUF_INIT(0);
	bool err, warn;
	fzg_read(path, &out, &err, &warn);
	close(fd);
	bool same = out.len == ntext && (ntext == 0 || memcmp(out.data, text, ntext) == 0);
	bool prefix = out.len <= ntext && (out.len == 0 || memcmp(out.data, text, out.len) == 0);
	switch (mode) {
	case 0:
		if (!same || err || warn)
			fz_fail("clean gzip: same=%d err=%d warn=%d", same, err, warn);
		break;
	case 1:
		if (gz.len < 2)
			break;       /* no gzip magic left: a plain 0-1 byte file */
		if (!prefix)
			fz_fail("truncated gzip gave bytes that are not a prefix of the text");
		if (gz.len < full && gz.len != m1 && !err && !warn)
			fz_fail("truncated gzip (%zu of %zu bytes) not reported", gz.len, full);
		if (gz.len == full && (!same || err))
			fz_fail("uncut gzip: same=%d err=%d", same, err);
		break;
	case 2: {
		bool zeros = true;
		for (size_t i = 0; i < tail; i++)
			if (t[i])
				zeros = false;
		bool magic = tail >= 2 && t[0] == 0x1f && t[1] == 0x8b;
		if (!magic && !same)
			fz_fail("text lost or changed before trailing garbage");
		if (!magic && !zeros && !warn && !err)
			fz_fail("trailing garbage not reported");
		break;
	}
	case 3:
		if (!err && !warn && !same && tail >= 3)
			fz_fail("corrupted gzip read without an error but different text");
		break;
	}
	bl_buf_release(&out);
	bl_buf_release(&gz);
}

int bl_fuzz_gzip(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		fzg_diff(data, size);
		return 0;
	}
	char path[64];
	int fd = fz_memfile(data + 1, size - 1, path, sizeof path);
	struct bl_opts o;
	bl_opts_init(&o);
	o.quiet = true;
	struct fz_pass p;
	fz_begin(&p, &o);
	if (bl_dispatch_open(&p.ctx) == 0) {
		bl_read_input(&p.ctx, path);
		bl_dispatch_close(&p.ctx);
	}
	fz_end(&p);
	close(fd);
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_gzip(data, size);
}
#endif

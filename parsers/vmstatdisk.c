/* vmstatdisk.c — `vmstat -d` (and `-d -t`, `-d -w`) into the `vmstat_disk`
 * table: one row per disk per sample, procps' diskheader()/diskformat()
 * layout. docs/formats.md, "vmstat -d", states the rules, cited here as
 * D1 a table starts at the label line, D2 a row is a name and 10 counters
 * (and -t's date and time), D3 samples, D4 what ends the table.
 */
#include <string.h>
#include "core/re.h"
#include "core/util.h"
#include "parsers/parser.h"

enum {
	VD_DISK, VD_SAMPLE,
	VD_READS, VD_READS_MERGED, VD_READS_SECTORS, VD_READS_MS,
	VD_WRITES, VD_WRITES_MERGED, VD_WRITES_SECTORS, VD_WRITES_MS,
	VD_IO_CUR, VD_IO_SEC, VD_TIMESTAMP, VD_TZ,
	VD_NCOLS
};

static const struct bl_col_def vd_cols[VD_NCOLS] = {
	[VD_DISK] = { "disk", BL_STR, "the disk's name as vmstat printed it (`sda`, `nvme0n1`, `dm-0`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VD_SAMPLE] = { "sample", BL_INT, "the sample (one header and its rows, or one round of the disks), from 0 within the table", "", BL_ROLE_ID, BL_BETTER_NONE },
	[VD_READS] = { "reads_total", BL_INT, "reads `total`: reads completed since boot", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_READS_MERGED] = { "reads_merged", BL_INT, "reads `merged`: adjacent reads merged since boot", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_READS_SECTORS] = { "reads_sectors", BL_INT, "reads `sectors`: 512-byte sectors read since boot", "512-byte sectors", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_READS_MS] = { "reads_ms", BL_INT, "reads `ms`: time spent reading since boot, ms", "ms", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_WRITES] = { "writes_total", BL_INT, "writes `total`: writes completed since boot", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_WRITES_MERGED] = { "writes_merged", BL_INT, "writes `merged`: adjacent writes merged since boot", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_WRITES_SECTORS] = { "writes_sectors", BL_INT, "writes `sectors`: 512-byte sectors written since boot", "512-byte sectors", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_WRITES_MS] = { "writes_ms", BL_INT, "writes `ms`: time spent writing since boot, ms", "ms", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_IO_CUR] = { "io_cur", BL_INT, "IO `cur`: I/O in progress, as vmstat prints it (the kernel's count divided by 1000, so mostly 0)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_IO_SEC] = { "io_sec", BL_INT, "IO `sec`: time spent doing I/O since boot, s (ms / 1000, truncated)", "s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VD_TIMESTAMP] = { "timestamp", BL_STR, "`-t`: the row's local date and time, `YYYY-MM-DD HH:MM:SS`; empty without -t", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VD_TZ] = { "tz", BL_STR, "`-t`: the zone the label line names (`UTC`, `IST`); empty when it names none", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_vmstat_disk = {
	"vmstat_disk", "vmstat -d: one row per disk per sample (counters since boot)",
	VD_NCOLS, vd_cols,
	"Parser: parsers/vmstatdisk.c; format: docs/formats.md, \"vmstat -d\".\n\n"
	"- `line` is the row's line.\n"
	"- The counters count since boot: the change between two samples of a disk is what happened "
	"in between; vmstat -d prints no rates and no since-boot row of its own.",
	.group_col = "group",
	.split_col = "disk",
	.time_series = "its counters count since boot: the change between two samples of a disk "
		       "is what happened in between, not their mean",
};

#define VD_NAME_MAX 64
#define VD_SEEN_MAX 256   /* disks remembered per sample (D3); more: no wrap check */

struct vmstatdisk {
	struct bl_re head;      /* the group line */
	bool open;              /* a label line was read in this unit */
	int depth;              /* quote depth of the table */
	const struct bl_msg *msg;
	bool ts;                /* rows carry a date and a time */
	char tz[16];
	long sample;
	bool rows_in_sample;
	size_t nseen;
	char seen[VD_SEEN_MAX][VD_NAME_MAX];
};

static int vd_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct vmstatdisk *v = st;
	(void)ctx;
	return bl_re_compile(&v->head, "^disk-\\s+-+reads-+\\s+-+writes-+\\s+-+IO-+(?:\\s+-+timestamp-+)?\\s*$", 0,
			     "vmstat -d group line", err);
}

/* D1: "total merged sectors ms total merged sectors ms cur sec [zone]". */
static bool label_line(struct vmstatdisk *v, const char *s, size_t n)
{
	static const char *const want[10] = { "total", "merged", "sectors", "ms", "total", "merged",
					      "sectors", "ms", "cur", "sec" };
	const char *tok[12];
	size_t tl[12];
	size_t nt = bl_split_blanks(s, n, tok, tl, 12);
	if (nt != 10 && nt != 11)
		return false;
	for (size_t i = 0; i < 10; i++)
		if (tl[i] != strlen(want[i]) || memcmp(tok[i], want[i], tl[i]) != 0)
			return false;
	v->tz[0] = 0;
	v->ts = nt == 11;
	if (nt == 11 && tl[10] < sizeof v->tz) {
		memcpy(v->tz, tok[10], tl[10]);
		v->tz[tl[10]] = 0;
	}
	return true;
}

static void new_sample(struct vmstatdisk *v)
{
	if (v->rows_in_sample)
		v->sample++;
	v->rows_in_sample = false;
	v->nseen = 0;
}

/* D3: a name already seen in this sample starts the next one. */
static void note_disk(struct vmstatdisk *v, const char *name, size_t nl)
{
	if (nl >= VD_NAME_MAX)
		return;
	for (size_t i = 0; i < v->nseen; i++)
		if (strlen(v->seen[i]) == nl && memcmp(v->seen[i], name, nl) == 0) {
			new_sample(v);
			break;
		}
	if (v->nseen < VD_SEEN_MAX) {
		memcpy(v->seen[v->nseen], name, nl);
		v->seen[v->nseen][nl] = 0;
		v->nseen++;
	}
}

static bool is_tod(const char *s, size_t n)
{
	return n == 8 && s[2] == ':' && s[5] == ':' && bl_all_digits(s, 2) && bl_all_digits(s + 3, 2) &&
	       bl_all_digits(s + 6, 2);
}

/* D2: a row; BL_NO when the line is not one (it ends the table). */
static enum bl_verdict vd_row(struct vmstatdisk *v, struct bl_ctx *ctx, const struct bl_line *ln,
			      const char *s, size_t n)
{
	const char *tok[16];
	size_t tl[16];
	size_t nt = bl_split_blanks(s, n, tok, tl, 16);
	if (nt < 2 || (tok[0][0] >= '0' && tok[0][0] <= '9') || !bl_all_digits(tok[1], tl[1]))
		return BL_NO;
	size_t want = v->ts ? 13 : 11;
	if (v->nseen == 0 && !v->rows_in_sample && !v->ts && nt == 13 && bl_date_shape(tok[11], tl[11]))
		want = 13;   /* -t rows under a label line whose zone was empty */
	bool ts = want == 13;
	if (nt != want || (ts && (!bl_date_shape(tok[11], tl[11]) || !is_tod(tok[12], tl[12]))))
		return bl_reject(ctx, ln, "malformed vmstat -d row", "vmstat -d row has %s, %zu expected",
				 BL_COUNT(nt, "field"), want);
	long long val[10];
	for (size_t i = 0; i < 10; i++)
		if (!bl_all_digits(tok[i + 1], tl[i + 1]) || bl_parse_ll(tok[i + 1], tl[i + 1], &val[i]))
			return bl_reject(ctx, ln, "malformed vmstat -d row", "vmstat -d row: \"%.*s\" is not a counter",
					 (int)(tl[i + 1] > 30 ? 30 : tl[i + 1]), tok[i + 1]);
	v->ts = ts;
	note_disk(v, tok[0], tl[0]);
	struct bl_record r;
	bl_record_init(&r, &bl_table_vmstat_disk, ln);
	char name[VD_NAME_MAX], stamp[20];
	size_t nl = tl[0] < VD_NAME_MAX ? tl[0] : VD_NAME_MAX - 1;
	memcpy(name, tok[0], nl);
	name[nl] = 0;
	bl_set_str(&r, VD_DISK, name);
	bl_set_int(&r, VD_SAMPLE, v->sample);
	for (size_t i = 0; i < 10; i++)
		bl_set_int(&r, VD_READS + i, val[i]);
	if (ts) {
		memcpy(stamp, tok[11], 10);
		stamp[10] = ' ';
		memcpy(stamp + 11, tok[12], 8);
		stamp[19] = 0;
		bl_set_str(&r, VD_TIMESTAMP, stamp);
		if (v->tz[0])
			bl_set_str(&r, VD_TZ, v->tz);
	}
	v->rows_in_sample = true;
	bl_emit(ctx, &r);
	return BL_USED;
}

/* D1: a label line opens a table, or starts the next sample of the open one. */
static void open_table(struct vmstatdisk *v, const struct bl_line *ln)
{
	if (!v->open)
		v->sample = 0;
	else
		new_sample(v);
	v->open = true;
	v->rows_in_sample = false;
	v->nseen = 0;
	v->depth = ln->quote_depth;
	v->msg = ln->msg;
}

/* D1: the group line held (BL_MORE) and joined with the next line: it
 * belongs to the table only when that line is the label line. */
static enum bl_verdict joined_head(struct vmstatdisk *v, struct bl_ctx *ctx, const struct bl_line *ln,
				   const char *s, size_t n, unsigned flags)
{
	if (flags & BL_F_LAST)
		return bl_skip_as(ctx, "vmstat -d group line without its label line");
	const char *t = memmem(s, n, " total", 6);
	if (!t)
		return BL_NO;
	size_t hl = (size_t)(t - s), ll = n - hl;
	const char *lab = t;
	bl_trim(&lab, &ll);
	if (bl_re_match(&v->head, s, hl) != 1 || !label_line(v, lab, ll))
		return BL_NO;
	open_table(v, ln);
	return BL_USED;
}

static enum bl_verdict vd_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct vmstatdisk *v = st;
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	if (flags & (BL_F_JOINED | BL_F_LAST))
		return bl_startswith(s, n, "disk-") ? joined_head(v, ctx, ln, s, n, flags) : BL_NO;
	if (n == 0)
		return BL_NO;   /* D4: blank lines do not end the table */
	if (v->open && (v->depth != ln->quote_depth || v->msg != ln->msg))
		v->open = false;
	if (bl_startswith(s, n, "disk-") && bl_re_match(&v->head, s, n) == 1)
		return BL_MORE;
	if (bl_startswith(s, n, "total") && label_line(v, s, n)) {
		open_table(v, ln);
		return BL_USED;
	}
	if (!v->open)
		return BL_NO;
	enum bl_verdict r = vd_row(v, ctx, ln, s, n);
	if (r == BL_NO)
		v->open = false;
	return r;
}

static void vd_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	(void)ln;
	(void)ctx;
	((struct vmstatdisk *)st)->open = false;
}

static void vd_release(void *st)
{
	bl_re_release(&((struct vmstatdisk *)st)->head);
}

static const struct bl_table_def *const vd_tables[] = { &bl_table_vmstat_disk, NULL };

const struct bl_parser bl_parser_vmstatdisk = {
	.name = "vmstatdisk",
	.summary = "vmstat -d disk tables (with -t, -w)",
	.tables = vd_tables,
	.state_size = sizeof(struct vmstatdisk),
	.init = vd_init,
	.line = vd_line,
	.flush = vd_flush,
	.release = vd_release,
};

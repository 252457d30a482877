/* timeparse.c — see timeparse.h. */
#include <string.h>
#include "core/ctx.h"
#include "core/util.h"
#include "parsers/tables.h"
#include "parsers/timeparse.h"

/* A decimal number where ',' may stand for '.'. */
static int num_comma(const char *s, size_t len, double *out)
{
	char tmp[48];
	if (len == 0 || len >= sizeof tmp)
		return -BL_EFORMAT;
	memcpy(tmp, s, len);
	for (size_t i = 0; i < len; i++)
		if (tmp[i] == ',')
			tmp[i] = '.';
	return bl_parse_double(tmp, len, out);
}

/* "1h 2m 03s", "0m 1.00s", "3m28.568s", "1.5s": unit-suffixed parts. */
static int units_form(const char *s, size_t len, double *out)
{
	double total = 0;
	size_t i = 0;
	bool any = false;
	while (i < len) {
		while (i < len && s[i] == ' ')
			i++;
		if (i == len)
			break;
		size_t b = i;
		while (i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == ','))
			i++;
		if (i == b || i == len)
			return -BL_EFORMAT;
		double v;
		if (num_comma(s + b, i - b, &v))
			return -BL_EFORMAT;
		switch (s[i]) {
		case 'h': total += v * 3600; break;
		case 'm': total += v * 60; break;
		case 's': total += v; break;
		default: return -BL_EFORMAT;
		}
		i++;
		any = true;
	}
	if (!any)
		return -BL_EFORMAT;
	*out = total;
	return 0;
}

int bl_parse_clock(const char *s, size_t len, double *out)
{
	bl_trim(&s, &len);
	if (len == 0)
		return -BL_EFORMAT;
	if (memchr(s, 'm', len) || memchr(s, 's', len) || memchr(s, 'h', len))
		return units_form(s, len, out);
	const char *c1 = memchr(s, ':', len);
	if (!c1) {
		/* a duration is never negative ("-1.5" is damage, not a time) */
		double d;
		int rc = num_comma(s, len, &d);
		if (rc == 0 && d < 0)
			return -BL_ERANGE;
		if (rc == 0)
			*out = d;
		return rc;
	}
	const char *c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s));
	double a, b, c;
	if (!c2) {
		if (num_comma(s, (size_t)(c1 - s), &a) || num_comma(c1 + 1, len - (size_t)(c1 + 1 - s), &b))
			return -BL_EFORMAT;
		if (b >= 60 || a < 0 || b < 0)
			return -BL_EFORMAT;
		*out = a * 60 + b;
		return 0;
	}
	if (memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - s)))
		return -BL_EFORMAT;
	if (num_comma(s, (size_t)(c1 - s), &a) || num_comma(c1 + 1, (size_t)(c2 - c1 - 1), &b) ||
	    num_comma(c2 + 1, len - (size_t)(c2 + 1 - s), &c))
		return -BL_EFORMAT;
	if (b >= 60 || c >= 60 || a < 0 || b < 0 || c < 0)
		return -BL_EFORMAT;
	*out = a * 3600 + b * 60 + c;
	return 0;
}

void bl_time_take_status(struct bl_ctx *ctx, struct bl_record *r)
{
	if (!ctx->time_status.kind)
		return;
	bl_set_str(r, TIME_STATUS, ctx->time_status.kind);
	bl_set_int(r, TIME_STATUS_CODE, ctx->time_status.code);
	r->line = ctx->time_status.lineno;
	ctx->time_status.kind = NULL;
}

/* Its words after "NAME: line N: PID " (bash in a script), or NULL. */
static const char *script_job(const char *s, size_t n)
{
	const char *e = s + n, *p = s;
	while (p < e && *p != ':')
		p++;
	if (e - p < 8 || memcmp(p, ": line ", 7) != 0)
		return NULL;
	p += 7;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (e - p < 2 || memcmp(p, ": ", 2) != 0)
		return NULL;
	for (p += 2; p < e && *p == ' '; p++)
		;
	const char *pid = p;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	return p > pid && p < e && *p == ' ' ? p + 1 : NULL;
}

int bl_shell_signal_line(const char *s, size_t n)
{
	/* bash: jobs.c (printable_job_status, notify_of_job_status) and
	 * glibc's strsignal(); zsh: Src/jobs.c (printjob) and sig_msg */
	static const struct { const char *bash, *zsh; int sig; } sigs[] = {
		{ "Illegal instruction", "illegal hardware instruction", 4 }, { "Aborted", "abort", 6 },
		{ "Bus error", "bus error", 7 }, { "Killed", "killed", 9 },
		{ "Segmentation fault", "segmentation fault", 11 }, { "Terminated", "terminated", 15 },
	};
	bool zsh = bl_startswith(s, n, "zsh: ");
	const char *j = zsh ? NULL : script_job(s, n);
	bool script = j != NULL;
	if (!j)
		j = zsh ? s + 5 : s;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		const char *d = zsh ? sigs[i].zsh : sigs[i].bash;
		size_t l = strlen(d), rl = n - (size_t)(j - s);
		if (rl < l || memcmp(j, d, l) != 0)
			continue;
		const char *r = j + l;
		rl -= l;
		if (rl >= 14 && memcmp(r, " (core dumped)", 14) == 0)
			r += 14, rl -= 14;
		/* alone (bash before 5.3), or the job's command after blanks */
		if ((rl == 0 && !zsh && !script) || (rl > 2 && r[0] == ' ' && r[1] == ' '))
			return sigs[i].sig;
		return 0;
	}
	return 0;
}

void bl_time_block_init(struct bl_time_block *t)
{
	t->source = (struct bl_buf)BL_BUF_INIT(1u << 26);
	t->group = (struct bl_buf)BL_BUF_INIT(1u << 26);
	t->command = (struct bl_buf)BL_BUF_INIT(1u << 26);
	t->gen = 0;
}

void bl_time_block_release(struct bl_time_block *t)
{
	bl_buf_release(&t->source);
	bl_buf_release(&t->group);
	bl_buf_release(&t->command);
}

const char *bl_time_text_set(struct bl_buf *b, const char *s, size_t n)
{
	bl_buf_reset(b);
	bl_buf_add(b, s, n);
	return bl_buf_str(b);
}

void bl_time_block_open(struct bl_time_block *t, struct bl_ctx *ctx, const struct bl_line *ln, const char *format)
{
	bl_time_block_emit(t, ctx);
	bl_record_init(&t->rec, &bl_table_time, ln);
	bl_set_str(&t->rec, TIME_FORMAT, format);
	/* the same unit and group as the last record's: kept (summary of
	 * 5 MB of mtest01 runs: 113.6 M instructions copying, 112.2 M not) */
	if (!t->gen || t->gen != ctx->prov_gen) {
		t->gen = ctx->prov_gen;
		const char *g = bl_ctx_group(ctx);
		bl_time_text_set(&t->source, ln->source, strlen(ln->source));
		bl_time_text_set(&t->group, g, strlen(g));
		t->group_source = bl_ctx_group_source(ctx);
	}
	t->run = bl_run_join(ctx, BL_RUN_FAMILY_MTEST, BL_RUN_BIT_TIME);
	t->open = true;
	bl_time_take_status(ctx, &t->rec);
}

void bl_time_block_emit(struct bl_time_block *t, struct bl_ctx *ctx)
{
	if (!t->open)
		return;
	t->rec.source = bl_buf_str(&t->source);
	t->rec.group = bl_buf_str(&t->group);
	t->rec.group_source = t->group_source;
	t->rec.run = t->run;
	bl_emit(ctx, &t->rec);
	t->open = false;
}

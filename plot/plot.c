/* plot.c — options, results and the script/data/run cycle shared by all
 * charts (see plot_int.h for the script shape, plot.h for the contract).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/escape.h"
#include "plot/plot_int.h"

#define SCRIPT_MAX (64u * 1024u * 1024u)
#define PREVIEW_MAX (4u * 1024u * 1024u)

/* The outputs by their bit in enum bl_plot_term, as fmts names them. */
static const char *const term_name[] = { "png", "svg", "dumb" };

const char *gp_color(size_t i)
{
	static const char *const colors[] = {
		"#0072b2", "#d55e00", "#009e73", "#cc79a7",   /* blue, vermillion, bluish green, reddish purple */
		"#e69f00", "#56b4e9", "#000000", "#f0e442",   /* orange, sky blue, black, yellow */
	};
	return colors[i % (sizeof colors / sizeof *colors)];
}

void bl_plot_result_release(struct bl_plot_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfiles; i++)
		free(r->files[i]);
	free(r->files);
	free(r->script);
	free(r->preview);
	free(r->message);
	memset(r, 0, sizeof *r);
}

static void res_add_file(struct bl_plot_result *r, const char *name)
{
	r->files = bl_xrealloc(r->files, (r->nfiles + 1) * sizeof *r->files);
	r->files[r->nfiles++] = bl_xstrdup(name);
}

/* Writes len bytes to dir/name through mkstemp + rename (mode 0644).
 * Returns 0 or -BL_EIO with *msg set (caller frees). */
static int write_atomic(const char *dir, const char *name, const void *data, size_t len, char **msg)
{
	char *path = bl_xasprintf("%s/%s", dir, name);
	char *tmp = bl_temp_template(dir, name);
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		*msg = bl_xasprintf("%s: cannot create: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		free(path);
		free(tmp);
		return -BL_EIO;
	}
	bl_cleanup_add(tmp, false);
	/* mkstemp makes 0600; charts are for sharing like any other output. */
	bool ok = (!len || fwrite(data, 1, len, f) == len) && fchmod(fd, 0644) == 0;
	ok = (fclose(f) == 0 && ok) && rename(tmp, path) == 0;
	if (!ok) {
		*msg = bl_xasprintf("%s: cannot write: %s", path, strerror(errno));
		unlink(tmp);
	}
	bl_cleanup_forget(tmp);
	free(path);
	free(tmp);
	return ok ? 0 : -BL_EIO;
}

int job_fail(struct gp_job *j, int rc, const char *fmt, ...)
{
	if (j->err)
		return j->err;
	j->err = rc;
	if (fmt && j->res && !j->res->message) {
		va_list ap;
		char tmp[1024];
		va_start(ap, fmt);
		vsnprintf(tmp, sizeof tmp, fmt, ap);
		va_end(ap);
		j->res->message = bl_xstrdup(tmp);
	}
	return rc;
}

static void job_vadd(struct gp_job *j, struct bl_buf *b, const char *fmt, va_list ap)
{
	int rc = j->err ? 0 : bl_buf_vaddf(b, fmt, ap);
	if (rc == -BL_ENOMEM)
		job_fail(j, rc, "plot: script larger than %u bytes", SCRIPT_MAX);
	else if (rc)
		job_fail(j, rc, "plot: cannot format script text");
}

void gs(struct gp_job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	job_vadd(j, &j->body, fmt, ap);
	va_end(ap);
}

void gh(struct gp_job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	job_vadd(j, &j->head, fmt, ap);
	va_end(ap);
}

const char *gq(struct gp_job *j, const char *text, size_t max_chars)
{
	struct bl_buf *b = &j->q[j->nq++ % GP_NQUOTE];
	bl_buf_reset(b);
	bl_esc_gp(b, text, max_chars);   /* no maximum: the body's catches a long one */
	return b->data;
}

struct gp_num gnum(double v)
{
	struct gp_num n = { "NaN" };
	if (!isnan(v))
		bl_fmt_double(n.s, sizeof n.s, v);
	return n;
}

double gp_nice_ceil(double v)
{
	if (!(v > 0))
		return 1;
	double p = pow(10, floor(log10(v)));
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

struct gp_num gshift(double off)
{
	struct gp_num n;
	snprintf(n.s, sizeof n.s, "($1%c%.31s)", off < 0 ? '-' : '+', gnum(fabs(off)).s);
	return n;
}

int gp_datanum(struct bl_buf *b, double v, char sep)
{
	char tmp[40];
	int n;
	if (isnan(v)) {
		tmp[0] = '?';
		n = 1;
	} else {
		n = bl_fmt_double(tmp, sizeof tmp, v);
	}
	tmp[n++] = sep;
	return bl_buf_add(b, tmp, (size_t)n);
}

void gp_row(struct bl_buf *b, size_t n, const double *v)
{
	for (size_t i = 0; i < n; i++)
		gp_datanum(b, v[i], i + 1 < n ? ' ' : '\n');
}

int gp_check_num(struct gp_job *j, double v, const char *what)
{
	if (isinf(v))
		return job_fail(j, -BL_ERANGE, "plot: %s is infinite", what);
	return 0;
}

int job_begin(struct gp_job *j, const struct bl_plot_opts *o,
	      struct bl_plot_result *res, const char *def_base,
	      const char *summary, int def_w, int def_h, int dumb_w, int dumb_h)
{
	memset(j, 0, sizeof *j);
	bl_plot_result_release(res);
	j->res = res ? res : &j->own;
	j->head = (struct bl_buf)BL_BUF_INIT(SCRIPT_MAX);
	j->body = (struct bl_buf)BL_BUF_INIT(SCRIPT_MAX);
	j->dumb_w = dumb_w;
	j->dumb_h = dumb_h;

	static const struct bl_plot_opts dflt;
	if (!o)
		o = &dflt;
	const char *base = o->basename ? o->basename : def_base;
	if (!bl_gp_safe_name(base))
		return job_fail(j, -BL_EUSAGE,
				"plot: basename must be 1-100 characters of "
				"A-Z a-z 0-9 . _ + - and not start with . - +");
	if (o->terms & ~(unsigned)(BL_PLOT_PNG | BL_PLOT_SVG | BL_PLOT_DUMB))
		return job_fail(j, -BL_EUSAGE, "plot: unknown output format bit");
	if (o->width_px < 0 || o->height_px < 0 || o->width_px > 20000 ||
	    o->height_px > 20000)
		return job_fail(j, -BL_EUSAGE, "plot: image size out of range 1-20000");
	j->dir = bl_xstrdup(o->out_dir && *o->out_dir ? o->out_dir : ".");
	j->base = bl_xstrdup(base);
	j->terms = o->terms ? o->terms : BL_PLOT_PNG;
	j->script_only = o->script_only;
	j->gp = o->gp;
	j->width = o->width_px ? o->width_px : def_w;
	j->height = o->height_px ? o->height_px : def_h;

	struct stat st;
	if (stat(j->dir, &st) != 0) {
		if (errno != ENOENT || mkdir(j->dir, 0777) != 0)
			return job_fail(j, -BL_EIO, "%s: cannot create folder: %s",
					j->dir, strerror(errno));
	} else if (!S_ISDIR(st.st_mode)) {
		return job_fail(j, -BL_EUSAGE, "%s: not a folder", j->dir);
	}

	gh(j, "# %s.gp: %s\n", j->base, summary);
	gh(j, "# Written by benchlog %s. Re-render in this folder with:  gnuplot %s.gp\n",
	   BENCHLOG_VERSION, j->base);
	gh(j, "# Choose the outputs by editing 'fmts' (png svg dumb) or with\n"
	      "#   gnuplot -e \"fmts = 'svg'\" %s.gp\n"
	      "# dumb prints to stdout.\n", j->base);
	gh(j, "# Text taken from the logs is in single quotes with noenhanced, so gnuplot\n"
	      "# shows it as written and never runs or expands it.\n");
	return 0;
}

static void job_free(struct gp_job *j)
{
	bl_buf_release(&j->head);
	bl_buf_release(&j->body);
	for (int i = 0; i < GP_NQUOTE; i++)
		bl_buf_release(&j->q[i]);
	free(j->dir);
	free(j->base);
	j->dir = j->base = NULL;
	bl_plot_result_release(&j->own);
}

int job_abort(struct gp_job *j)
{
	int rc = j->err ? j->err : -BL_EUSAGE;
	job_free(j);
	return rc;
}

/* Write b and then body (both released; body may be NULL) as j's file name (heap, freed),
 * atomically, and list it among the chart's files: the name listed, or
 * NULL (the job failed) when it cannot be written. */
static const char *put_file(struct gp_job *j, char *name, struct bl_buf *b, struct bl_buf *body)
{
	if (body && body->len)
		bl_buf_add(b, body->data, body->len);
	bl_buf_release(body);
	char *msg = NULL;
	int rc = write_atomic(j->dir, name, b->data, b->len, &msg);
	j->res->bytes += b->len;
	bl_buf_release(b);
	if (rc) {
		job_fail(j, rc, "%s", msg);
		free(msg);
	} else {
		res_add_file(j->res, name);
	}
	free(name);
	return rc ? NULL : j->res->files[j->res->nfiles - 1];
}

const char *job_data(struct gp_job *j, const char *columns, const char *note, struct bl_buf *data)
{
	if (j->err)
		return bl_buf_release(data), NULL;
	char *name = bl_xasprintf("%s-%d.dat", j->base, ++j->ndata);
	struct bl_buf b = BL_BUF_INIT(0);
	bl_buf_addf(&b, "# %s: data for %s.gp, written by benchlog; ? = not measured\n",
		    name, j->base);
	if (note)
		bl_buf_addf(&b, "# %s\n", note);
	bl_buf_addf(&b, "# %s\n", columns);
	const char *f = put_file(j, name, &b, data);
	if (f)
		gh(j, "# Data: %s (%s)\n", f, columns);
	if (f && note)
		gh(j, "#   %s\n", note);
	return f;
}

const char *job_load_file(struct gp_job *j, const char *part, struct bl_buf *text)
{
	char *name = bl_xasprintf("%s-%s.gp", j->base, part);
	if (j->err || !bl_gp_safe_name(name)) {
		job_fail(j, -BL_EUSAGE, "plot: bad script part name");
		free(name);
		return bl_buf_release(text), NULL;
	}
	struct bl_buf b = BL_BUF_INIT(0);
	bl_buf_addf(&b, "# %s: part of %s.gp (which loads it once per output format), "
		    "written by benchlog\n", name, j->base);
	const char *f = put_file(j, name, &b, text);
	if (f)
		gh(j, "# Loads: %s\n", f);
	return f;
}

/* Appends text to out with every line indented by four spaces. */
static int indent_into(struct bl_buf *out, const struct bl_buf *in)
{
	const char *p = bl_buf_str(in);
	const char *end = p + in->len;
	int rc = 0;
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		if (n > 1)
			rc = bl_buf_add(out, "    ", 4);
		if (!rc)
			rc = bl_buf_add(out, p, n);
		p += n;
	}
	return rc;
}

/* dir/name is a regular file of at least a byte. */
static bool nonempty_file(const char *dir, const char *name)
{
	char *path = bl_xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
	free(path);
	return ok;
}

int job_end(struct gp_job *j)
{
	struct bl_plot_result *r = j->res;
	if (j->err)
		return job_abort(j);

	gh(j, "\nset encoding utf8\nif (!exists('fmts')) fmts = '");
	for (unsigned i = 0, n = 0; i < 3; i++)
		if (j->terms >> i & 1)
			gh(j, "%s%s", n++ ? " " : "", term_name[i]);
	gh(j, "'\nif (!exists('outdir')) outdir = ''\n\ndo for [fmt in fmts] {\n");
	gh(j, "    if (fmt eq 'png') {\n"
	      "        set terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
	      "        set output outdir.'%s.png'\n    }\n", j->width, j->height, j->base);
	gh(j, "    if (fmt eq 'svg') {\n"
	      "        set terminal svg size %d,%d noenhanced font 'sans,10' background '#ffffff'\n"
	      "        set output outdir.'%s.svg'\n    }\n", j->width, j->height, j->base);
	gh(j, "    if (fmt eq 'dumb') {\n"
	      "        set terminal dumb size %d,%d noenhanced\n"
	      "        set output\n    }\n    reset\n", j->dumb_w, j->dumb_h);
	if (!j->err && indent_into(&j->head, &j->body))
		job_fail(j, -BL_ENOMEM, "plot: script larger than %u bytes", SCRIPT_MAX);
	gh(j, "    set output\n}\n");
	if (j->err)
		return job_abort(j);

	const char *script = put_file(j, bl_xasprintf("%s.gp", j->base), &j->head, NULL);
	if (!script)
		return job_abort(j);
	/* The script comes first in files[]; data files were added before. */
	memmove(r->files + 1, r->files, (r->nfiles - 1) * sizeof *r->files);
	r->files[0] = (char *)script;
	r->script = bl_xstrdup(script);

	if (j->script_only) {
		job_free(j);
		return 0;
	}

	struct bl_buf out = BL_BUF_INIT(PREVIEW_MAX);
	char *err = NULL;
	int rc = bl_gp_run(j->dir, script, NULL, &out, &j->gp, &err);
	if (rc == -BL_ENOTFOUND && !bl_gp_available()) {
		free(err);
		free(r->message);
		r->message = bl_xasprintf("gnuplot not found on PATH; render with: "
					  "cd %s && gnuplot %s", j->dir, script);
		bl_buf_release(&out);
		job_free(j);
		return BL_PLOT_NOT_RENDERED;
	}
	free(r->message);
	r->message = err;
	if (rc == 0) {
		r->rendered = true;
		for (unsigned i = 0; i < 2; i++) {   /* the images: png, svg */
			if (!(j->terms >> i & 1))
				continue;
			char *img = bl_xasprintf("%s.%s", j->base, term_name[i]);
			if (nonempty_file(j->dir, img)) {
				res_add_file(r, img);
			} else {
				rc = -BL_EIO;
				if (!r->message)
					r->message = bl_xasprintf("gnuplot made no %s", img);
			}
			free(img);
		}
		if (j->terms & BL_PLOT_DUMB) {
			char *txt = bl_xasprintf("%s.txt", j->base);
			char *wmsg = NULL;
			int wrc = write_atomic(j->dir, txt, out.data, out.len, &wmsg);
			if (wrc) {
				rc = wrc;
				free(r->message);
				r->message = wmsg;
			} else {
				res_add_file(r, txt);
				r->preview = bl_xstrndup(bl_buf_str(&out), out.len);
			}
			free(txt);
		}
	}
	bl_buf_release(&out);
	job_free(j);
	return rc;
}

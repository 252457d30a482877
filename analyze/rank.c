/* rank.c — D8 (Mann-Whitney U) and D9 (two-sample Kolmogorov-Smirnov) of
 * analyze/stats.h, for histogram bins (a raw sample is a bin of count 1).
 *
 * Both tests only need, for every distinct value in the pooled data, how
 * many baseline and how many candidate observations have it. The bins are
 * first reduced to that list of groups, in ascending value order, overflow
 * counts last; the tests then run on the groups, so binned and expanded
 * data give the same numbers by construction. */
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>

#include "analyze/stats.h"
#include "analyze/stats_int.h"

struct group {
	double ca;  /* baseline observations equal to this value */
	double cb;  /* candidate observations equal to this value */
};

struct groups {
	struct group *g;
	size_t n;
	double na, nb;  /* totals */
	bool integer;   /* all counts whole numbers (for p_exact_min) */
};

static void groups_release(struct groups *gs)
{
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

/* Merge two ascending (value, count) lists into groups. The overflow
 * counts, if any, form one last group above everything (D8). */
static void groups_build(struct groups *gs,
			 const struct bl_bin *a, size_t na, double ova,
			 const struct bl_bin *b, size_t nb, double ovb)
{
	size_t i = 0, j = 0, k = 0;

	gs->g = bl_xmalloc((na + nb + 1) * sizeof *gs->g);
	gs->na = ova;
	gs->nb = ovb;
	gs->integer = floor(ova) == ova && floor(ovb) == ovb;
	while (i < na || j < nb) {
		struct group g = { 0.0, 0.0 };
		double v;

		if (j >= nb || (i < na && a[i].value <= b[j].value))
			v = a[i].value;
		else
			v = b[j].value;
		/* Bins are sorted but may repeat a value: pool all of them. */
		while (i < na && a[i].value == v)
			g.ca += a[i++].count;
		while (j < nb && b[j].value == v)
			g.cb += b[j++].count;
		gs->na += g.ca;
		gs->nb += g.cb;
		if (floor(g.ca) != g.ca || floor(g.cb) != g.cb)
			gs->integer = false;
		gs->g[k++] = g;
	}
	if (ova > 0.0 || ovb > 0.0) {
		gs->g[k].ca = ova;
		gs->g[k].cb = ovb;
		k++;
	}
	gs->n = k;
}

static int groups_from_bins(struct groups *gs,
			    const struct bl_bin *a, size_t na, double ova,
			    const struct bl_bin *b, size_t nb, double ovb,
			    const char **note)
{
	struct bl_bin *sa = NULL, *sb = NULL;
	size_t nsa = 0, nsb = 0;
	int rc;

	rc = bl__bins_sorted(a, na, ova, &sa, &nsa);
	if (rc == 0)
		rc = bl__bins_sorted(b, nb, ovb, &sb, &nsb);
	if (rc < 0)
		goto out;
	/* Overflow of one side lies above its own last bucket; its order
	 * against the other side's bins beyond that bucket is unknown (D8). */
	if ((ova > 0.0 && nsb > 0 && (nsa == 0 || sb[nsb - 1].value > sa[nsa - 1].value)) ||
	    (ovb > 0.0 && nsa > 0 && (nsb == 0 || sa[nsa - 1].value > sb[nsb - 1].value))) {
		*note = "overflow of one histogram overlaps bins of the other";
		rc = -BL_EFORMAT;
		goto out;
	}
	groups_build(gs, sa, nsa, ova, sb, nsb, ovb);
out:
	free(sa);
	free(sb);
	return rc;
}

/* ---- D8 ---------------------------------------------------------------- */

static void utest_run(const struct groups *gs, struct bl_utest *o)
{
	double below_a = 0.0, ucand = 0.0, ties = 0.0, n, mu, var, d, sigma;
	size_t i;

	o->n_base = gs->na;
	o->n_cand = gs->nb;
	if (gs->na <= 0.0 || gs->nb <= 0.0) {
		o->note = "Mann-Whitney U needs at least 1 value on each side";
		return;
	}
	/* U_c counted directly as pairs (D8): no rank sums, no cancellation. */
	for (i = 0; i < gs->n; i++) {
		double t = gs->g[i].ca + gs->g[i].cb;

		ucand += gs->g[i].cb * (below_a + gs->g[i].ca / 2.0);
		below_a += gs->g[i].ca;
		ties += t * t * t - t;
	}
	n = gs->na + gs->nb;
	o->u_cand = ucand;
	o->u_base = gs->na * gs->nb - ucand;
	o->u = fmin(o->u_base, o->u_cand);
	o->prob_superiority = ucand / (gs->na * gs->nb);
	o->tie_term = ties;
	mu = gs->na * gs->nb / 2.0;
	var = n > 1.0 ? gs->na * gs->nb / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0))) : 0.0;
	o->ok = 1;
	if (gs->integer)
		o->p_exact_min = fmin(1.0, 2.0 * exp(lgamma(gs->na + 1.0) + lgamma(gs->nb + 1.0) -
						     lgamma(n + 1.0)));
	if (!(var > 0.0)) {
		o->note = "all values are equal";
		o->z = 0.0;
		o->p = 1.0;
		return;
	}
	sigma = sqrt(var);
	d = ucand - mu;
	/* D8 continuity correction of 1/2 towards the mean. */
	o->z = (d > 0.0 ? 1.0 : -1.0) * fmax(fabs(d) - 0.5, 0.0) / sigma;
	o->p = fmin(1.0, 2.0 * gsl_cdf_ugaussian_Q(fabs(o->z)));
}

int bl_mannwhitney_bins(const struct bl_bin *a, size_t na, double overflow_a,
			const struct bl_bin *b, size_t nb, double overflow_b,
			struct bl_utest *out)
{
	struct groups gs = { NULL, 0, 0.0, 0.0, true };
	int rc;

	if (out == NULL)
		return -BL_EUSAGE;
	*out = (struct bl_utest){ .u_base = NAN, .u_cand = NAN, .u = NAN, .prob_superiority = NAN,
				  .tie_term = NAN, .z = NAN, .p = NAN, .p_exact_min = NAN };
	rc = groups_from_bins(&gs, a, na, overflow_a, b, nb, overflow_b, &out->note);
	if (rc < 0)
		return rc;
	utest_run(&gs, out);
	groups_release(&gs);
	return 0;
}

/* ---- D9 ---------------------------------------------------------------- */

double bl_kolmogorov_q(double lambda)
{
	double sum = 0.0, term;
	int j;

	if (!(lambda > 0.0))
		return isnan(lambda) ? NAN : 1.0;
	if (lambda < 1.18) {
		/* Jacobi-transformed series, fast for small lambda:
		 * 1 - Q = sqrt(2 pi) / lambda sum_{j>=1} exp(-(2j-1)^2 pi^2 / (8 lambda^2)). */
		double c = -M_PI * M_PI / (8.0 * lambda * lambda);

		for (j = 1; j <= 20; j++) {
			term = exp(c * (2.0 * j - 1.0) * (2.0 * j - 1.0));
			sum += term;
			if (term < 1e-17 * sum)
				break;
		}
		return fmin(1.0, fmax(0.0, 1.0 - sqrt(2.0 * M_PI) / lambda * sum));
	}
	for (j = 1; j <= 100; j++) {
		term = exp(-2.0 * j * j * lambda * lambda);
		sum += (j % 2 ? term : -term);
		if (term < 1e-17)
			break;
	}
	return fmin(1.0, fmax(0.0, 2.0 * sum));
}

static void kstest_run(const struct groups *gs, struct bl_kstest *o)
{
	double ca = 0.0, cb = 0.0, en, se;
	size_t i;

	o->n_base = gs->na;
	o->n_cand = gs->nb;
	if (gs->na <= 0.0 || gs->nb <= 0.0) {
		o->note = "Kolmogorov-Smirnov needs at least 1 value on each side";
		return;
	}
	o->d = 0.0;
	o->d_signed = 0.0;
	/* D9: the CDFs only change at group boundaries. */
	for (i = 0; i < gs->n; i++) {
		double diff;

		ca += gs->g[i].ca;
		cb += gs->g[i].cb;
		diff = ca / gs->na - cb / gs->nb;
		if (fabs(diff) > o->d) {
			o->d = fabs(diff);
			o->d_signed = diff;
		}
	}
	en = gs->na * gs->nb / (gs->na + gs->nb);
	se = sqrt(en);
	o->p = bl_kolmogorov_q((se + 0.12 + 0.11 / se) * o->d);
	o->ok = 1;
}

int bl_ks2_bins(const struct bl_bin *a, size_t na, double overflow_a,
		const struct bl_bin *b, size_t nb, double overflow_b,
		struct bl_kstest *out)
{
	struct groups gs = { NULL, 0, 0.0, 0.0, true };
	int rc;

	if (out == NULL)
		return -BL_EUSAGE;
	*out = (struct bl_kstest){ .d = NAN, .d_signed = NAN, .p = NAN };
	rc = groups_from_bins(&gs, a, na, overflow_a, b, nb, overflow_b, &out->note);
	if (rc < 0)
		return rc;
	kstest_run(&gs, out);
	groups_release(&gs);
	return 0;
}

/*
 * cp_shared.c - the point effect a family's series share
 * (docs/changepoint.md section 6): when a point ran on a slower or
 * faster machine, every series of the point moves together.
 *
 * The family is fitted once (cp_fit.c); each series' residuals about
 * its levels, in units of its sd and signed so that a slow machine is
 * positive, are collected by point.  A series' effect at a point is the
 * median of the other series' residuals there (leave one out: its own
 * noise is not in it), less the levels of the family's effect itself (a
 * step that every series took at one point is a step, not an effect).
 * Each series takes the effect with its own weight (least squares of its
 * residuals on it, shrunk by its t: 1 - 1/t^2, zero below |t| = 1), and
 * the family is fitted again on the values less it.
 */
#include "cp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../util/banned.h"

/* A point's effect needs this many other series there: the median of
 * fewer is too noisy to take from a series. */
#define SHARED_MIN 4
/* Effect and fit alternate this often.  A second round (the effect
 * estimated again about the levels found once the first was out) found
 * the steps the first fit missed in the simulation of
 * test_cp_designed.c, but on the corpus's tuning projects it found 12
 * clear shifts fewer for 6 fewer flags on noise (F1 0.851 -> 0.835). */
#define SHARED_ROUNDS 1

static int sharing(const struct pv_cp_series *x)
{
	return x->sign && !x->alone && x->L >= 2 * PVS_CPN_MIN_SEG;
}

static size_t point_of(const struct pv_cp_series *x, size_t j)
{
	return x->point ? x->point[j] : j;
}

/* The fitted values of a series (its levels, and its slope when it was
 * significant), from its despiked values. */
static void fitted(const struct pv_cp_series *x, double *fit)
{
	double b = x->trend.significant ? x->trend.slope : 0;

	for (size_t i = 0; i <= x->ncp; i++) {
		size_t a = i ? x->cp[i - 1].index : 0;
		size_t e = i < x->ncp ? x->cp[i].index : x->L;
		double m = 0;

		for (size_t j = a; j < e; j++)
			m += x->clipped[j] - b * (double)j;
		m /= (double)(e - a);
		for (size_t j = a; j < e; j++)
			fit[j] = m + b * (double)j;
	}
}

/* The median of m values without x, from their middle order statistics
 * mid[] (pvs_middle3() at q = (m - 1) / 2 for odd m, m / 2 - 1 for even). */
static double median_without(const double *mid, size_t m, double x)
{
	if (m % 2)
		return x < mid[1] ? 0.5 * (mid[1] + mid[2]) :
		       x > mid[1] ? 0.5 * (mid[0] + mid[1]) :
				    0.5 * (mid[0] + mid[2]);
	return x <= mid[1] ? mid[2] : mid[1];
}

/* Residuals by point: r[off[p] .. off[p + 1]) are point p's. */
struct bypoint {
	size_t np, *off;
	double *r;
	double *mid;            /* 3 a point: its middle order statistics */
	double *level;          /* the family effect's own levels */
};

static void collect(struct pv_cp_series *s, size_t n, double **res,
		    struct bypoint *b)
{
	size_t *fill, tot = 0;

	b->np = 0;
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]) && point_of(&s[i], s[i].L - 1) + 1 > b->np)
			b->np = point_of(&s[i], s[i].L - 1) + 1;
	CALLOC_ARRAY(b->off, b->np + 1);
	CALLOC_ARRAY(fill, b->np + 1);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; res[i] && j < s[i].L; j++, tot++)
			b->off[point_of(&s[i], j) + 1]++;
	for (size_t p = 0; p < b->np; p++)
		b->off[p + 1] += b->off[p];
	ALLOC_ARRAY(b->r, tot ? tot : 1);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; res[i] && j < s[i].L; j++) {
			size_t p = point_of(&s[i], j);

			b->r[b->off[p] + fill[p]++] = res[i][j];
		}
	free(fill);
}

/* Each point's middle order statistics, and the family effect's levels:
 * its median residual at each point with enough series, segmented by
 * the search at level alpha. */
static void middles(struct bypoint *b, double alpha)
{
	size_t nv = 0, k, *cp;
	double *e, *w, *tmp, sd;

	ALLOC_ARRAY(b->mid, 3 * b->np + 1);
	ALLOC_ARRAY(b->level, b->np + 1);
	ALLOC_ARRAY(e, b->np + 1);
	ALLOC_ARRAY(tmp, 2 * (b->off[b->np] + b->np) + 2);
	for (size_t p = 0; p < b->np; p++) {
		size_t m = b->off[p + 1] - b->off[p];
		double *mid = &b->mid[3 * p];

		b->level[p] = NAN;
		if (m <= SHARED_MIN)
			continue;
		pvs_middle3(&b->r[b->off[p]], m, tmp, m % 2 ? (m - 1) / 2 : m / 2 - 1, mid);
		e[nv++] = m % 2 ? mid[1] : 0.5 * (mid[1] + mid[2]);
		b->level[p] = 0;
	}
	if (nv >= 2 * PVS_CPN_MIN_SEG) {
		double *c;

		ALLOC_ARRAY(w, nv);
		ALLOC_ARRAY(c, nv);
		ALLOC_ARRAY(cp, nv / PVS_CPN_MIN_SEG + 1);
		/* the effect's levels as a series' (sections 1-4): a
		 * machine's spike at one point is not a level */
		sd = fmax(pvs_cpn_scale(e, nv, tmp), 1e-12);
		for (size_t j = 0; j < nv; j++)
			w[j] = sd;
		pvs_cpn_despike(e, nv, w, c);
		memcpy(e, c, nv * sizeof(*e));
		free(c);
		for (size_t j = 0; j < nv; j++)
			w[j] = 1 / (sd * sd);
		k = pvs_cpn_search(e, w, nv, PVS_CPN_MIN_SEG, pvs_cpn_crit2(alpha / (double)nv,
						pvs_cpn_scale_df(nv)), cp);
		for (size_t i = 0, j = 0, p = 0; i <= k; i++) {
			size_t a = i ? cp[i - 1] : 0, z = i < k ? cp[i] : nv;
			double m;

			pvs_cpn_ss(e, w, a, z, &m);
			for (; j < z; p++)
				if (!isnan(b->level[p]))
					b->level[p] = m, j++;
		}
		free(w);
		free(cp);
	}
	free(e);
	free(tmp);
}

/* Series i's effect at its points into e (0 where too few others had
 * the point): the others' median residual less the effect's levels. */
static void effect_of(const struct bypoint *b, const struct pv_cp_series *x,
		      const double *res, double *e)
{
	for (size_t j = 0; j < x->L; j++) {
		size_t p = point_of(x, j), m = b->off[p + 1] - b->off[p];

		e[j] = isnan(b->level[p]) ? 0 :
		       median_without(&b->mid[3 * p], m, res[j]) - b->level[p];
	}
}

/* Series x's weight on its effect e (res: its standardized residuals):
 * least squares, shrunk by its t. */
static double weight_of(const double *res, const double *e, size_t L)
{
	double see = 0, sre = 0, beta, t2;

	for (size_t j = 0; j < L; j++) {
		see += e[j] * e[j];
		sre += res[j] * e[j];
	}
	if (!(see > 0))
		return 0;
	beta = sre / see;
	t2 = beta * beta * see;
	return t2 > 1 ? beta * (1 - 1 / t2) : 0;
}

/* The report's effect: the family's median residual less its levels, in
 * the values' units of the median series (its sd). */
static void report(const struct bypoint *b, const struct pv_cp_series *s,
		   size_t n, struct pv_cp_shared *out)
{
	double *sds, *tmp, sdm, *a;
	size_t k = 0, na = 0;

	ALLOC_ARRAY(sds, n + 1);
	ALLOC_ARRAY(tmp, n + b->np + 1);
	ALLOC_ARRAY(a, b->np + 1);
	for (size_t i = 0; i < n; i++)
		if (s[i].adjusted)
			sds[k++] = s[i].sd;
	sdm = k ? pvs_median_select(sds, k, tmp) : 0;
	out->np = b->np;
	ALLOC_ARRAY(out->effect, b->np ? b->np : 1);
	for (size_t p = 0; p < b->np; p++) {
		size_t m = b->off[p + 1] - b->off[p];
		double *mid = &b->mid[3 * p];

		out->effect[p] = NAN;
		if (isnan(b->level[p]))
			continue;
		out->effect[p] = sdm * ((m % 2 ? mid[1] : 0.5 * (mid[1] + mid[2]))
					- b->level[p]);
		a[na++] = fabs(out->effect[p]);
	}
	out->sd = na ? PVS_MAD_SD * pvs_median_select(a, na, tmp) : 0;
	free(sds);
	free(tmp);
	free(a);
}

/* The values less the shared effect into each sharing series'
 * adjusted[]; 1 when any series takes some of it. */
static int adjust(struct pv_cp_series *s, size_t n, double alpha,
		  struct pv_cp_shared *out)
{
	double **res;
	struct bypoint b;
	int any = 0;

	CALLOC_ARRAY(res, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		double *fit;

		if (!sharing(&s[i]))
			continue;
		ALLOC_ARRAY(fit, s[i].L);
		ALLOC_ARRAY(res[i], s[i].L);
		fitted(&s[i], fit);
		for (size_t j = 0; j < s[i].L; j++)
			res[i][j] = s[i].sign * (s[i].y[j] - fit[j]) / s[i].sd;
		free(fit);
	}
	collect(s, n, res, &b);
	middles(&b, alpha);
	for (size_t i = 0; i < n; i++) {
		double *e;

		if (!res[i])
			continue;
		ALLOC_ARRAY(e, s[i].L);
		effect_of(&b, &s[i], res[i], e);
		s[i].shared_beta = weight_of(res[i], e, s[i].L);
		any |= s[i].shared_beta != 0;
		free(s[i].adjusted);
		ALLOC_ARRAY(s[i].adjusted, s[i].L);
		for (size_t j = 0; j < s[i].L; j++)
			s[i].adjusted[j] = s[i].y[j] - s[i].sign *
				s[i].shared_beta * e[j] * s[i].sd;
		free(e);
		free(res[i]);
	}
	if (out)
		report(&b, s, n, out);
	free(res);
	free(b.off);
	free(b.r);
	free(b.mid);
	free(b.level);
	return any;
}

/* Fit the family again on the values less the effect (s[i].adjusted). */
static int refit(struct pv_cp_series *s, size_t n, double alpha,
		 const struct pvs_cpn_without *wo, struct pv_err *err)
{
	const double **y;
	int rc;

	ALLOC_ARRAY(y, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		y[i] = s[i].y;
		free(s[i].clipped);
		free(s[i].cp);
		if (s[i].adjusted)
			s[i].y = s[i].adjusted;
	}
	rc = pvs_cpn_family(s, n, alpha, wo, err);
	for (size_t i = 0; i < n; i++)
		s[i].y = y[i];
	free(y);
	return rc;
}

int pvs_cpn_family_shared(struct pv_cp_series *s, size_t n, double alpha,
			  struct pv_cp_shared *out,
			  const struct pvs_cpn_without *wo, struct pv_err *err)
{
	size_t nshare = 0;

	if (out)
		memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		s[i].adjusted = NULL;
		s[i].own_gross = NULL;
		s[i].shared_beta = 0;
		nshare += sharing(&s[i]);
	}
	if (pvs_cpn_family(s, n, alpha, wo, err))
		return -1;
	if (wo->shared || nshare <= SHARED_MIN)
		return 0;
	for (int round = 0; round < SHARED_ROUNDS; round++) {
		if (out && round)
			pv_cp_shared_release(out);
		if (!adjust(s, n, alpha, out))
			break;
		if (out)
			out->applied = 1;
		if (refit(s, n, alpha, wo, err))
			return -1;
	}
	return 0;
}

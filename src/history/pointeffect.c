/*
 * pointeffect.c - the family's entry point: the point effect its series
 * share (changepoint.h step 0: the machine each point ran on) around
 * steps 1-4 (changepoint.c's pvs_cp_detect()).
 */
#include "changepoint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>
#include "../stats.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* The shared effect is estimated only at a point of at least this many
 * other series, and only in a family of more sharing series. */
#define PV_CP_SHARED_MIN 4
/* The series are run again less the effect when it takes at least this
 * fraction of the median sharing series' residual sum of squares. */
#define PV_CP_SHARED_GAIN 0.05
/* Huber's constant: full weight within this many robust sds, 95%
 * efficiency under normal noise. */
#define HUBER_K 1.345

/* The median of x[0..n), which is left sorted. */
static double sorted_median(double *x, size_t n)
{
	pvs_sort(x, n);
	return gsl_stats_median_from_sorted_data(x, 1, n);
}

/* A series takes part in the shared point effect. */
static int sharing(const struct pv_cp_series *x)
{
	return x->sign && !x->alone && x->L >= 2 * PV_CP_MIN_SEG;
}

/*
 * The median of m values without one of them, x, from their middle order
 * statistics mid[] = s[q - 1], s[q], s[q + 1] (q = (m - 1) / 2 for odd
 * m, m / 2 - 1 for even): whether x stands below, at or above the middle
 * is all that matters (ties give the same values either way).
 */
static double median_without(const double *mid, size_t m, double x)
{
	if (m % 2)      /* m - 1 even: two middle values of the others */
		return x < mid[1] ? 0.5 * (mid[1] + mid[2]) :
		       x > mid[1] ? 0.5 * (mid[0] + mid[1]) :
				    0.5 * (mid[0] + mid[2]);
	return x <= mid[1] ? mid[2] : mid[1];
}

/*
 * A series' weight on the shared effect z (NAN where it has none):
 * least squares of its residuals r on z, Huber-weighted twice; its t
 * into *t.
 */
static double shared_weight(const double *r, const double *z, size_t L,
			    double *t)
{
	double beta = 0, se = INFINITY;
	double *e = pv_malloc(st_mult(st_mult(L, 2), sizeof(*e))); /* + tmp */

	for (int it = 0; it < 3; it++) {
		double szz = 0, srz = 0, sc = INFINITY;
		size_t ne = 0;

		if (it) {
			for (size_t j = 0; j < L; j++)
				if (isfinite(z[j]))
					e[ne++] = fabs(r[j] - beta * z[j]);
			sc = ne ? PVS_MAD_SD * pvs_median_select(e, ne, e + L) : 0;
		}
		for (size_t j = 0; j < L; j++) {
			double d, w = 1;

			if (!isfinite(z[j]))
				continue;
			d = fabs(r[j] - beta * z[j]);
			if (it && d > HUBER_K * sc)
				w = HUBER_K * sc / d;
			szz += w * z[j] * z[j];
			srz += w * r[j] * z[j];
		}
		if (!(szz > 0))
			break;
		beta = srz / szz;
		se = it ? sc / sqrt(szz) : INFINITY;
	}
	free(e);
	*t = se > 0 ? beta / se : beta ? INFINITY : 0;
	return beta;
}

struct share_entry {
	double v;               /* sign x residual */
	size_t series, j;
};

/*
 * Step 0's state: every value of the sharing series with a fit, grouped
 * by point, and what is estimated from them.
 */
struct share {
	size_t np;              /* points: 1 + the largest point index */
	size_t ne;              /* entries */
	size_t nshare;          /* series that take part (sharing()) */
	size_t *start;          /* np + 1: point p's entries are
				 * e[start[p] .. start[p + 1]) */
	size_t *cnt;            /* np + 1: scratch */
	struct share_entry *e;
	double *full;           /* np: the median of the point's entries */
	double *c;              /* np: ... less the effect's own levels,
				 * after effect_levels(): those levels */
	double *loo;            /* ne: the median of the point's other
				 * entries (leave one out), NAN where the
				 * point has too few */
	size_t nc;              /* points with an effect */
	double **z;             /* per series: each value's transient
				 * effect (NULL: not sharing) */
	double *tt, *bb;        /* per series: its weight's t and weight */
	double *gain;           /* ngain: the fraction of each series'
				 * residual sum of squares the effect takes */
	size_t ngain;
};

/* The values with a fit of every sharing series, grouped by point into
 * sh->e; 0 when there is none. */
static size_t share_entries(const struct pv_cp_series *s, size_t n,
			    double **fit, struct share *sh)
{
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			sh->nshare++;
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			for (size_t j = 0; j < s[i].L; j++) {
				size_t p = pvs_cp_point(&s[i], j);

				if (isfinite(fit[i][j])) {
					sh->ne++;
					if (p + 1 > sh->np)
						sh->np = p + 1;
				}
			}
	if (!sh->ne)
		return 0;
	sh->cnt = pv_calloc(sh->np + 1, sizeof(*sh->cnt));
	sh->start = pv_calloc(sh->np + 1, sizeof(*sh->start));
	ALLOC_ARRAY(sh->e, sh->ne);
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			for (size_t j = 0; j < s[i].L; j++)
				if (isfinite(fit[i][j]))
					sh->cnt[pvs_cp_point(&s[i], j) + 1]++;
	for (size_t p = 0; p < sh->np; p++)
		sh->start[p + 1] = sh->start[p] + sh->cnt[p + 1];
	memcpy(sh->cnt, sh->start, sh->np * sizeof(*sh->cnt));
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			for (size_t j = 0; j < s[i].L; j++)
				if (isfinite(fit[i][j])) {
					size_t p = pvs_cp_point(&s[i], j);
					struct share_entry *x =
						&sh->e[sh->cnt[p]++];

					x->v = s[i].sign *
					       (s[i].y[j] - fit[i][j]);
					x->series = i;
					x->j = j;
				}
	return sh->ne;
}

/* Each point's effect (the median of all its entries) and each value's
 * (the median of the other series'), when the point has enough others. */
static void point_medians(struct share *sh)
{
	ALLOC_ARRAY(sh->loo, sh->ne);
	ALLOC_ARRAY(sh->c, sh->np);
	ALLOC_ARRAY(sh->full, sh->np);
	for (size_t p = 0; p < sh->np; p++) {
		size_t m = sh->start[p + 1] - sh->start[p];
		struct share_entry *x = sh->e + sh->start[p];
		size_t q;
		double *v, mid[3];

		sh->c[p] = sh->full[p] = NAN;
		if (m < PV_CP_SHARED_MIN + 1) {
			for (size_t k = 0; k < m; k++)
				sh->loo[sh->start[p] + k] = NAN;
			continue;
		}
		/* the medians without one value need only the middle
		 * order statistics, found by selection, and where the value
		 * stands against them */
		ALLOC_ARRAY(v, 2 * m);
		for (size_t k = 0; k < m; k++)
			v[k] = x[k].v;
		q = m % 2 ? (m - 1) / 2 : m / 2 - 1;
		pvs_middle3(v, m, v + m, q, mid);
		sh->c[p] = sh->full[p] = m % 2 ? mid[1] :
					 0.5 * (mid[1] + mid[2]);
		for (size_t k = 0; k < m; k++)
			sh->loo[sh->start[p] + k] =
				median_without(mid, m, x[k].v);
		free(v);
		sh->nc++;
	}
}

/*
 * The effect's own levels stay: a step every series took at once.  The
 * points' effects are a series of their own, run through steps 1-4 at
 * alpha over the square root of the sharing series' count; sh->c becomes
 * its fitted levels (0 where the effect is too short to search, NAN
 * where a point has no effect).  A level of the effect that is kept
 * stays in every series (a false one would be a false step in each); one
 * that is not is taken out of every series (a real one would be a step
 * missed in each); at alpha over the count itself a short level that
 * most series took went as machine noise.
 */
static int effect_levels(struct share *sh, double alpha, struct pv_err *err)
{
	struct pv_cp_series cs;
	double *cy, *cf, *cfit[1];
	size_t *cp, k = 0, nc = sh->nc;
	int rc = 0;

	memset(&cs, 0, sizeof(cs));
	ALLOC_ARRAY(cy, nc ? nc : 1);
	ALLOC_ARRAY(cf, nc ? nc : 1);
	ALLOC_ARRAY(cp, nc ? nc : 1);
	for (size_t p = 0; p < sh->np; p++)
		if (isfinite(sh->c[p])) {
			cy[k] = sh->c[p];
			cp[k++] = p;
		}
	cs.y = cy;
	cs.L = nc;
	cs.alone = 1;
	cfit[0] = cf;
	if (nc >= 2 * PV_CP_MIN_SEG)
		rc = pvs_cp_detect(&cs, 1, alpha / sqrt((double)sh->nshare),
				   cfit, err);
	else
		for (size_t q = 0; q < nc; q++)
			cf[q] = 0;
	pv_cp_series_release(&cs);
	for (size_t p = 0; p < sh->np; p++)
		sh->c[p] = NAN;
	for (size_t q = 0; q < nc && !rc; q++)
		sh->c[cp[q]] = isfinite(cf[q]) ? cf[q] : 0;
	free(cy);
	free(cf);
	free(cp);
	return rc;
}

/* Each value's transient effect: its others' median less the effect's
 * fitted levels (NAN where either is missing). */
static void transient_effect(const struct pv_cp_series *s, size_t n,
			     struct share *sh)
{
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i])) {
			ALLOC_ARRAY(sh->z[i], s[i].L);
			for (size_t j = 0; j < s[i].L; j++)
				sh->z[i][j] = NAN;
		}
	for (size_t k = 0; k < sh->ne; k++) {
		const struct share_entry *x = &sh->e[k];
		double lv = sh->c[pvs_cp_point(&s[x->series], x->j)];

		sh->z[x->series][x->j] = isfinite(sh->loo[k]) && isfinite(lv) ?
					 sh->loo[k] - lv : NAN;
	}
}

/* A series' weight on the effect, shrunk by its t: 1 - 1/t^2. */
static double shrunk_weight(double b, double t)
{
	return t * t > 1 ? b * (1 - 1 / (t * t)) : 0;
}

/* Each series' weight on the effect and its t, the fraction of its
 * residual sum of squares the effect takes, and the weights' sum of
 * t^2. */
static void series_weights(const struct pv_cp_series *s, size_t n,
			   double **fit, struct share *sh)
{
	for (size_t i = 0; i < n; i++) {
		const double *z = sh->z[i];
		double *r;

		if (!z)
			continue;
		ALLOC_ARRAY(r, s[i].L);
		for (size_t j = 0; j < s[i].L; j++)
			r[j] = s[i].sign * (s[i].y[j] - fit[i][j]);
		sh->bb[i] = shared_weight(r, z, s[i].L, &sh->tt[i]);
		if (isfinite(sh->tt[i])) {
			double w = shrunk_weight(sh->bb[i], sh->tt[i]);
			double ss = 0, se = 0;

			for (size_t j = 0; j < s[i].L; j++) {
				double e2 = r[j] -
					    (isfinite(z[j]) ? w * z[j] : 0);

				ss += r[j] * r[j];
				se += e2 * e2;
			}
			sh->gain[sh->ngain++] = ss > 0 ? 1 - se / ss : 0;
		}
		free(r);
	}
}

/* Each series' values less its share of the effect (s[i].adjusted). */
static void apply_effect(struct pv_cp_series *s, size_t n,
			 const struct share *sh)
{
	for (size_t i = 0; i < n; i++) {
		const double *z = sh->z[i];
		double w;

		if (!z || !isfinite(sh->tt[i]))
			continue;
		w = shrunk_weight(sh->bb[i], sh->tt[i]);
		s[i].shared_beta = w;
		ALLOC_ARRAY(s[i].adjusted, s[i].L);
		for (size_t j = 0; j < s[i].L; j++)
			s[i].adjusted[j] = s[i].y[j] -
				(isfinite(z[j]) ? s[i].sign * w * z[j] : 0);
	}
}

/* The effect for the reports: each point's, less the effect's own
 * levels, and its robust sd (a few wild points, a runner twice as fast,
 * are not the effect's size). */
static void report_effect(const struct share *sh, struct pv_cp_shared *out)
{
	size_t k = 0, q = 0;
	double *a;

	out->applied = 1;
	out->np = sh->np;
	ALLOC_ARRAY(out->effect, sh->np);
	for (size_t p = 0; p < sh->np; p++) {
		out->effect[p] = NAN;
		if (sh->start[p + 1] - sh->start[p] >= PV_CP_SHARED_MIN + 1 &&
		    isfinite(sh->c[p])) {
			out->effect[p] = sh->full[p] - sh->c[p];
			k++;
		}
	}
	a = pv_malloc(st_mult(k ? k : 1, sizeof(*a)));
	for (size_t p = 0; p < sh->np; p++)
		if (isfinite(out->effect[p]))
			a[q++] = fabs(out->effect[p]);
	out->sd = q > 1 ? PVS_MAD_SD * sorted_median(a, q) : NAN;
	free(a);
}

static void share_free(struct share *sh, size_t n)
{
	for (size_t i = 0; sh->z && i < n; i++)
		free(sh->z[i]);
	free(sh->z);
	free(sh->tt);
	free(sh->bb);
	free(sh->gain);
	free(sh->cnt);
	free(sh->start);
	free(sh->e);
	free(sh->loo);
	free(sh->c);
	free(sh->full);
}

/*
 * Step 0: the shared point effect, from the first run's fits.  Returns 1
 * when it is worth it and the series' adjusted values are set, 0 when
 * not, -1 on error.  Worth it: the effect takes PV_CP_SHARED_GAIN of the
 * median sharing series' residual sum of squares.
 */
static int shared_effect(struct pv_cp_series *s, size_t n, double alpha,
			 double **fit, struct pv_cp_shared *out,
			 struct pv_err *err)
{
	struct share sh;
	int rc;

	memset(&sh, 0, sizeof(sh));
	if (!share_entries(s, n, fit, &sh))
		return 0;
	point_medians(&sh);
	rc = effect_levels(&sh, alpha, err);
	if (rc) {
		share_free(&sh, n);
		return rc;
	}
	sh.z = pv_calloc(n ? n : 1, sizeof(*sh.z));
	sh.tt = pv_calloc(n ? n : 1, sizeof(*sh.tt));
	sh.bb = pv_calloc(n ? n : 1, sizeof(*sh.bb));
	sh.gain = pv_calloc(n ? n : 1, sizeof(*sh.gain));
	transient_effect(s, n, &sh);
	series_weights(s, n, fit, &sh);
	if (sh.ngain && sorted_median(sh.gain, sh.ngain) >= PV_CP_SHARED_GAIN) {
		apply_effect(s, n, &sh);
		rc = 1;
	}
	if (rc == 1 && out)
		report_effect(&sh, out);
	share_free(&sh, n);
	return rc;
}

void pv_cp_shared_release(struct pv_cp_shared *out)
{
	free(out->effect);
	memset(out, 0, sizeof(*out));
}

int pv_cp_family(struct pv_cp_series *s, size_t n, double alpha,
		 struct pv_err *err)
{
	return pv_cp_family_shared(s, n, alpha, NULL, err);
}

int pv_cp_family_shared(struct pv_cp_series *s, size_t n, double alpha,
			struct pv_cp_shared *out, struct pv_err *err)
{
	double **fit = pv_calloc(n ? n : 1, sizeof(*fit));
	size_t nshare = 0;
	int rc;

	if (out)
		memset(out, 0, sizeof(*out));

	for (size_t i = 0; i < n; i++) {
		s[i].adjusted = NULL;
		s[i].own_gross = NULL;
		s[i].shared_beta = 0;
		if (sharing(&s[i]))
			nshare++;
	}
	for (size_t i = 0; i < n && nshare > PV_CP_SHARED_MIN; i++)
		ALLOC_ARRAY(fit[i], s[i].L ? s[i].L : 1);
	rc = pvs_cp_detect(s, n, alpha, nshare > PV_CP_SHARED_MIN ? fit : NULL, err);
	if (!rc && nshare > PV_CP_SHARED_MIN) {
		rc = shared_effect(s, n, alpha, fit, out, err);
		if (rc == 1) {
			for (size_t i = 0; i < n; i++) {
				free(s[i].clipped);
				free(s[i].cp);
				s[i].clipped = NULL;
				s[i].cp = NULL;
				s[i].ncp = 0;
			}
			rc = pvs_cp_detect(s, n, alpha, NULL, err);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(fit[i]);
	free(fit);
	return rc;
}

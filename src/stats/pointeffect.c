/*
 * pointeffect.c - the family's entry point: the point effect its series
 * share (changepoint.h step 0: the machine each point ran on) around
 * steps 1-4 (changepoint.c's pvs_cp_detect()).
 */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include "../stats.h"
#include "internal.h"
#include "../util/banned.h"

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
			if (it && d > 1.345 * sc)
				w = 1.345 * sc / d;
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
 * Step 0: the shared point effect, from the first run's fits.  Returns 1
 * when it is significant and the series' adjusted values are set, 0
 * when not, -1 on error.
 */
static int shared_effect(struct pv_cp_series *s, size_t n, double alpha,
			 double **fit, struct pv_cp_shared *out,
			 struct pv_err *err)
{
	size_t np = 0, ne = 0, *cnt, *start, nc = 0;
	struct share_entry *e;
	double *c, *full, *loo, **z, chi = 0, *tt, *bb, *gain;
	size_t nchi = 0, nshare = 0;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			nshare++;
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			for (size_t j = 0; j < s[i].L; j++) {
				size_t p = pvs_cp_point(&s[i], j);

				if (isfinite(fit[i][j])) {
					ne++;
					if (p + 1 > np)
						np = p + 1;
				}
			}
	if (!ne)
		return 0;
	cnt = pv_calloc(np + 1, sizeof(*cnt));
	start = pv_calloc(np + 1, sizeof(*start));
	ALLOC_ARRAY(e, ne);
	ALLOC_ARRAY(loo, ne);
	ALLOC_ARRAY(c, np);
	ALLOC_ARRAY(full, np);
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			for (size_t j = 0; j < s[i].L; j++)
				if (isfinite(fit[i][j]))
					cnt[pvs_cp_point(&s[i], j) + 1]++;
	for (size_t p = 0; p < np; p++)
		start[p + 1] = start[p] + cnt[p + 1];
	memcpy(cnt, start, np * sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		if (sharing(&s[i]))
			for (size_t j = 0; j < s[i].L; j++)
				if (isfinite(fit[i][j])) {
					struct share_entry *x =
						&e[cnt[pvs_cp_point(&s[i], j)]++];

					x->v = s[i].sign * (s[i].y[j] - fit[i][j]);
					x->series = i;
					x->j = j;
				}
	/* each point's effect (all its series) and each value's (the
	 * other series'), when the point has enough others */
	for (size_t p = 0; p < np; p++) {
		size_t m = start[p + 1] - start[p];
		struct share_entry *x = e + start[p];
		double *v;

		c[p] = full[p] = NAN;
		if (m < PV_CP_SHARED_MIN + 1) {
			for (size_t k = 0; k < m; k++)
				loo[start[p] + k] = NAN;
			continue;
		}
		/* the medians without one value need only the middle
		 * order statistics, found by selection, and where the value
		 * stands against them */
		ALLOC_ARRAY(v, 2 * m);
		for (size_t k = 0; k < m; k++)
			v[k] = x[k].v;
		{
			size_t q = m % 2 ? (m - 1) / 2 : m / 2 - 1;
			double mid[3];

			pvs_middle3(v, m, v + m, q, mid);
			c[p] = full[p] = m % 2 ? mid[1] : 0.5 * (mid[1] + mid[2]);
			for (size_t k = 0; k < m; k++)
				loo[start[p] + k] = median_without(mid, m, x[k].v);
		}
		free(v);
		nc++;
	}
	/* the effect's own levels stay: a step every series took at once */
	{
		struct pv_cp_series cs;
		double *cy, *cf, *cfit[1];
		size_t *cp, k = 0;

		memset(&cs, 0, sizeof(cs));
		ALLOC_ARRAY(cy, nc ? nc : 1);
		ALLOC_ARRAY(cf, nc ? nc : 1);
		ALLOC_ARRAY(cp, nc ? nc : 1);
		for (size_t p = 0; p < np; p++)
			if (isfinite(c[p])) {
				cy[k] = c[p];
				cp[k++] = p;
			}
		cs.y = cy;
		cs.L = nc;
		cs.alone = 1;
		cfit[0] = cf;
		/*
		 * A level of the effect that is kept stays in every series
		 * (a false one is a false step in each); one that is not is
		 * taken out of every series (a real one is a step missed
		 * in each).  At alpha over the k series, a 3-point level
		 * that most of sfdx's series took (short levels after a
		 * x20 step, which the first run had not found) went as
		 * machine noise; at alpha over sqrt(k) it stays, and
		 * cpsim's A/A FWER under shared machine noise is as it was
		 * (docs/history.md).
		 */
		if (nc >= 2 * PV_CP_MIN_SEG)
			rc = pvs_cp_detect(&cs, 1, alpha / sqrt((double)nshare),
					   cfit, err);
		else
			for (size_t q = 0; q < nc; q++)
				cf[q] = 0;
		pv_cp_series_release(&cs);
		for (size_t p = 0; p < np; p++)
			c[p] = NAN;
		for (size_t q = 0; q < nc && !rc; q++)
			c[cp[q]] = isfinite(cf[q]) ? cf[q] : 0;
		free(cy);
		free(cf);
		free(cp);
	}
	/* c is now the effect's fitted levels; each value's transient
	 * effect is its others' median less them */
	z = pv_calloc(n ? n : 1, sizeof(*z));
	tt = pv_calloc(n ? n : 1, sizeof(*tt));
	bb = pv_calloc(n ? n : 1, sizeof(*bb));
	gain = pv_calloc(n ? n : 1, sizeof(*gain));
	for (size_t i = 0; i < n && !rc; i++)
		if (sharing(&s[i])) {
			ALLOC_ARRAY(z[i], s[i].L);
			for (size_t j = 0; j < s[i].L; j++)
				z[i][j] = NAN;
		}
	for (size_t k = 0; k < ne && !rc; k++) {
		const struct share_entry *x = &e[k];
		double lv = c[pvs_cp_point(&s[x->series], x->j)];

		z[x->series][x->j] = isfinite(loo[k]) && isfinite(lv) ?
				     loo[k] - lv : NAN;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		double *r;

		if (!z[i])
			continue;
		ALLOC_ARRAY(r, s[i].L);
		for (size_t j = 0; j < s[i].L; j++)
			r[j] = s[i].sign * (s[i].y[j] - fit[i][j]);
		bb[i] = shared_weight(r, z[i], s[i].L, &tt[i]);
		if (isfinite(tt[i])) {
			double w = tt[i] * tt[i] > 1 ?
				   bb[i] * (1 - 1 / (tt[i] * tt[i])) : 0;
			double ss = 0, se = 0;

			for (size_t j = 0; j < s[i].L; j++) {
				double e2 = r[j] - (isfinite(z[i][j]) ? w * z[i][j] : 0);

				ss += r[j] * r[j];
				se += e2 * e2;
			}
			gain[nchi++] = ss > 0 ? 1 - se / ss : 0;
			chi += tt[i] * tt[i];
		}
		free(r);
	}
	/* significant, and worth it: with 10,000 series a chi-square finds
	 * an effect no series would notice (the t's are a little wider
	 * than normal at 40 points) */
	if (!rc && nchi && gsl_cdf_chisq_Q(chi, (double)nchi) <= PV_CP_SHARED_P &&
	    sorted_median(gain, nchi) >= PV_CP_SHARED_GAIN) {
		for (size_t i = 0; i < n; i++) {
			double w;

			if (!z[i] || !isfinite(tt[i]))
				continue;
			w = tt[i] * tt[i] > 1 ? bb[i] * (1 - 1 / (tt[i] * tt[i])) : 0;
			s[i].shared_beta = w;
			ALLOC_ARRAY(s[i].adjusted, s[i].L);
			for (size_t j = 0; j < s[i].L; j++)
				s[i].adjusted[j] = s[i].y[j] -
					(isfinite(z[i][j]) ? s[i].sign * w * z[i][j] : 0);
		}
		rc = 1;
	}
	if (rc == 1 && out) {
		size_t k = 0;

		out->applied = 1;
		out->np = np;
		ALLOC_ARRAY(out->effect, np);
		for (size_t p = 0; p < np; p++) {
			out->effect[p] = NAN;
			if (start[p + 1] - start[p] >= PV_CP_SHARED_MIN + 1 &&
			    isfinite(c[p])) {
				out->effect[p] = full[p] - c[p];
				k++;
			}
		}
		/* robust: a few wild points (a runner twice as fast) are
		 * not the effect's size */
		{
			double *a = pv_malloc(st_mult(k ? k : 1, sizeof(*a)));
			size_t q = 0;

			for (size_t p = 0; p < np; p++)
				if (isfinite(out->effect[p]))
					a[q++] = fabs(out->effect[p]);
			out->sd = q > 1 ? PVS_MAD_SD * sorted_median(a, q) : NAN;
			free(a);
		}

	}
	for (size_t i = 0; i < n; i++)
		free(z[i]);
	free(z);
	free(tt);
	free(bb);
	free(gain);
	free(cnt);
	free(start);
	free(e);
	free(loo);
	free(c);
	free(full);
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

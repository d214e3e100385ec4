/*
 * pooled.c - the prediction t of a candidate point against K pooled
 * baseline points, with the between-point variance moderated across
 * metrics (pooled.h).
 */
#include "pooled.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include "../stats.h"
#include "changepoint.h"
#include "internal.h"
#include "../util/banned.h"

/* What a family's pooled points say of spikes (pooled.h): the share of
 * points that are spikes, of whole ones, and of runs as far. */
struct spikes {
	double all, whole, q;
};

/* The spike limit of a member (PV_CP_GROSS history sds), INFINITY
 * when it has none. */
static double spike_limit(const struct pv_pooled *p)
{
	return p->spike_sd > 0 && isfinite(p->spike_sd) ?
	       PV_CP_GROSS * p->spike_sd : INFINITY;
}

/* Whether v is a spike: further than lim from med. */
static int is_spike(double v, double med, double lim)
{
	return fabs(v - med) > lim;
}

/* How many of the n runs r lie beyond lim from med on the side of dev
 * (dev 0: either side). */
static size_t runs_beyond(const double *r, size_t n, double med, double lim,
			  double dev)
{
	size_t k = 0;

	for (size_t j = 0; j < n; j++) {
		double e = r[j] - med;

		k += dev > 0 ? e > lim : dev < 0 ? -e > lim : fabs(e) > lim;
	}
	return k;
}

/* 0: v is no spike about med; 1: a split one; 2: a whole one (each of
 * its n runs r is as far on the same side; pooled.h). */
static int spike_kind(double v, const double *r, size_t n, double med,
		      double lim)
{
	if (!is_spike(v, med, lim))
		return 0;
	return runs_beyond(r, n, med, lim, v - med) == n ? 2 : 1;
}

/* The rates of spikes and of whole spikes among the members' baseline
 * points, and of runs as far (q); med[i]: member i's median (NAN when
 * K < 2). */
static void spike_rates(const struct pv_pooled *x, size_t n, double *med,
			double *tmp, struct spikes *sp)
{
	double spikes = 0, wholes = 0, seen = 0, far = 0, runs = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pv_pooled *p = &x[i];
		double lim = spike_limit(p);

		med[i] = NAN;
		if (p->K < 2 || !isfinite(lim))
			continue;
		med[i] = pvs_median_select(p->y, p->K, tmp);
		for (size_t j = 0; j < p->K; j++) {
			int k = p->roff ?
				spike_kind(p->y[j], p->runs + p->roff[j],
					   p->roff[j + 1] - p->roff[j], med[i],
					   lim) :
				spike_kind(p->y[j], p->y + j, 1, med[i], lim);

			spikes += k > 0;
			wholes += k == 2;
		}
		seen += (double)p->K;
		if (p->roff) {
			far += (double)runs_beyond(p->runs, p->roff[p->K],
						   med[i], lim, 0);
			runs += (double)p->roff[p->K];
		} else {
			far += (double)runs_beyond(p->y, p->K, med[i], lim, 0);
			runs += (double)p->K;
		}
	}
	sp->all = seen > 0 ? spikes / seen : 0;
	sp->whole = seen > 0 ? wholes / seen : 0;
	sp->q = runs > 0 ? far / runs : 0;
}

/* A candidate that is a spike: no p in its direction below the rate of
 * its kind, nor below the chance of as many of its runs as far at the
 * baseline runs' rate. */
static void spike_floor(struct pv_pooled *p, double med,
			const struct spikes *sp)
{
	double dev = p->cand - med, rate, lim = spike_limit(p);
	const double *r = p->ncruns ? p->cruns : &p->cand;
	size_t nr = p->ncruns ? p->ncruns : 1;
	int k = spike_kind(p->cand, r, nr, med, lim);

	p->spike = 0;
	rate = k == 2 ? sp->whole : sp->all;
	if (k && sp->q > 0) {
		size_t m = runs_beyond(r, nr, med, lim, dev);
		double b = m ? gsl_cdf_binomial_Q((unsigned)(m - 1), sp->q,
						  (unsigned)nr) : 1;

		if (b > rate)
			rate = b;
	}
	if (!k || !(rate > 0))
		return;
	p->spike_p = rate;
	if (dev > 0 && p->p_up < rate) {
		p->p_up = rate;
		p->spike = 1;
	}
	if (dev < 0 && p->p_down < rate) {
		p->p_down = rate;
		p->spike = 1;
	}
	p->p_two = 2 * (p->p_up < p->p_down ? p->p_up : p->p_down);
	if (p->p_two > 1)
		p->p_two = 1;
}

int pv_pooled_family(struct pv_pooled *x, size_t n, double alpha,
		     struct pv_err *err)
{
	double *s2 = pv_calloc(n ? n : 1, sizeof(*s2));
	double *d = pv_calloc(n ? n : 1, sizeof(*d));
	double *med = pv_calloc(n ? n : 1, sizeof(*med));
	double *tmp;
	struct spikes sp;
	struct pv_prior prior;
	size_t maxK = 1;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i].K > maxK)
			maxK = x[i].K;
	ALLOC_ARRAY(tmp, maxK);
	spike_rates(x, n, med, tmp, &sp);

	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];
		double m = 0, ss = 0, lim = spike_limit(p);

		p->testable = 0;
		p->spike = 0;
		p->spike_p = NAN;
		p->level = p->s2 = p->sd = p->df = NAN;
		p->delta = p->se = p->t = NAN;
		p->p_up = p->p_down = p->p_two = NAN;
		p->lo = p->hi = NAN;
		s2[i] = NAN;
		d[i] = 0;
		p->kept = 0;
		if (p->K < 1)
			continue;
		/* the baseline's spikes are not its level (med is NAN, and
		 * every point kept, when none can be told; two points far
		 * apart are both kept) */
		for (size_t j = 0; j < p->K; j++)
			p->kept += !is_spike(p->y[j], med[i], lim);
		if (!p->kept) {
			lim = INFINITY;
			p->kept = p->K;
		}
		for (size_t j = 0; j < p->K; j++)
			m += is_spike(p->y[j], med[i], lim) ? 0 : p->y[j];
		m /= (double)p->kept;
		p->level = m;
		p->delta = p->cand - m;
		if (p->kept < 2)
			continue;
		for (size_t j = 0; j < p->K; j++)
			ss += is_spike(p->y[j], med[i], lim) ? 0 :
			      (p->y[j] - m) * (p->y[j] - m);
		p->d = (double)(p->kept - 1);
		p->s2 = ss / p->d;
		s2[i] = p->s2;
		d[i] = p->d;
	}
	if (pv_fit_prior(s2, d, n, &prior, err)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];
		double post, df, tq;

		if (p->kept < 2 || !isfinite(p->s2))
			continue;
		post = pv_posterior_var(&prior, p->s2, p->d, &df);
		if (!(post >= 0))
			continue;
		p->sd = sqrt(post);
		p->df = df;
		p->se = p->sd * sqrt(1 + 1.0 / (double)p->kept);
		p->testable = 1;
		if (p->se > 0) {
			p->t = p->delta / p->se;
			p->p_up = pv_t_sf(p->t, df);
			p->p_down = pv_t_sf(-p->t, df);
			p->p_two = 2 * (p->p_up < p->p_down ? p->p_up : p->p_down);
			if (p->p_two > 1)
				p->p_two = 1;
		} else {
			/* no spread at all: equal is no change, anything else
			 * a certain one */
			p->t = p->delta > 0 ? INFINITY : p->delta < 0 ? -INFINITY : 0;
			p->p_up = p->delta > 0 ? 0 : 1;
			p->p_down = p->delta < 0 ? 0 : 1;
			p->p_two = p->delta != 0 ? 0 : 1;
		}
		spike_floor(p, med[i], &sp);
		tq = pv_t_quantile(1 - alpha / 2, df);
		p->lo = p->delta - tq * p->se;
		p->hi = p->delta + tq * p->se;
	}
out:
	free(s2);
	free(d);
	free(med);
	free(tmp);
	return rc;
}

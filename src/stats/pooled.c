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
 * points before their end excursions, and of runs as far (q); med[i]:
 * member i's median of those points (NAN when fewer than 2). */
static void spike_rates(const struct pv_pooled *x, size_t n, double *med,
			double *tmp, struct spikes *sp)
{
	double spikes = 0, wholes = 0, seen = 0, far = 0, runs = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pv_pooled *p = &x[i];
		double lim = spike_limit(p);

		size_t pk = p->K - p->end;

		med[i] = NAN;
		if (pk < 2 || !isfinite(lim))
			continue;
		med[i] = pvs_median_select(p->y, pk, tmp);
		for (size_t j = 0; j < pk; j++) {
			int k = p->roff ?
				spike_kind(p->y[j], p->runs + p->roff[j],
					   p->roff[j + 1] - p->roff[j], med[i],
					   lim) :
				spike_kind(p->y[j], p->y + j, 1, med[i], lim);

			spikes += k > 0;
			wholes += k == 2;
		}
		seen += (double)pk;
		if (p->roff) {
			far += (double)runs_beyond(p->runs, p->roff[pk],
						   med[i], lim, 0);
			runs += (double)p->roff[pk];
		} else {
			far += (double)runs_beyond(p->y, pk, med[i], lim, 0);
			runs += (double)pk;
		}
	}
	sp->all = seen > 0 ? spikes / seen : 0;
	sp->whole = seen > 0 ? wholes / seen : 0;
	sp->q = runs > 0 ? far / runs : 0;
}

/* The mean of the first k of y that are not spikes (further than lim
 * from med; all of them when every one is), their count and the sum of
 * their squared deviations. */
static double level_of(const double *y, size_t k, double med, double lim,
		       size_t *kept, double *ss)
{
	double m = 0;

	*kept = 0;
	*ss = 0;
	for (size_t j = 0; j < k; j++)
		*kept += !is_spike(y[j], med, lim);
	if (!*kept) {
		lim = INFINITY;
		*kept = k;
	}
	if (!k)
		return NAN;
	for (size_t j = 0; j < k; j++)
		m += is_spike(y[j], med, lim) ? 0 : y[j];
	m /= (double)*kept;
	for (size_t j = 0; j < k; j++)
		*ss += is_spike(y[j], med, lim) ? 0 : (y[j] - m) * (y[j] - m);
	return m;
}

/* The newest points held out to look for an end excursion (pooled.h):
 * fewer than history confirms a level with, and 2 left before them. */
static size_t end_room(size_t K)
{
	size_t h = PV_CP_MIN_SEG - 1;

	return K < 4 ? (K == 3 ? 1 : 0) : h < K - 2 ? h : K - 2;
}

/* How many of p's newest points, at most h (<= 2), are an end excursion
 * from the level m of kept points with sd on df (pooled.h). */
static size_t end_run(const struct pv_pooled *p, size_t h, double m,
		      double sd, double df, size_t kept)
{
	double tq = pv_t_quantile(1 - PV_POOL_END_ALPHA / 2, df);
	double a = p->y[p->K - 1] - m, b;

	if (h >= 2) {
		b = p->y[p->K - 2] - m;
		if ((a > 0) == (b > 0) &&
		    fabs(a + b) / 2 > tq * sd * sqrt(0.5 + 1.0 / (double)kept) &&
		    fabs(a - b) <= tq * sd * sqrt(2.0))
			return 2;
	}
	return h && fabs(a) > tq * sd * sqrt(1 + 1.0 / (double)kept);
}

/* Each member's end excursion (pooled.h): its newest points against the
 * level and the moderated sd of the points before them. */
static int find_ends(struct pv_pooled *x, size_t n, double *tmp,
		     struct pv_err *err)
{
	double *s2 = pv_calloc(n ? n : 1, sizeof(*s2));
	double *d = pv_calloc(n ? n : 1, sizeof(*d));
	double *lv = pv_calloc(n ? n : 1, sizeof(*lv));
	size_t *kept = pv_calloc(n ? n : 1, sizeof(*kept));
	struct pv_prior prior;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];
		size_t h = end_room(p->K), k = p->K - h;
		double ss, med;

		p->end = 0;
		s2[i] = NAN;
		d[i] = 0;
		kept[i] = 0;
		if (!h)
			continue;
		med = pvs_median_select(p->y, k, tmp);
		lv[i] = level_of(p->y, k, med, spike_limit(p), &kept[i], &ss);
		if (kept[i] < 2)
			continue;
		d[i] = (double)(kept[i] - 1);
		s2[i] = ss / d[i];
	}
	if (pv_fit_prior(s2, d, n, &prior, err)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];
		double post, df;

		if (!isfinite(s2[i]))
			continue;
		post = pv_posterior_var(&prior, s2[i], d[i], &df);
		if (!(post >= 0))
			continue;
		p->end = end_run(p, end_room(p->K), lv[i], sqrt(post), df,
				 kept[i]);
	}
out:
	free(s2);
	free(d);
	free(lv);
	free(kept);
	return rc;
}

/* The prediction test of delta with se on df: t and the one-sided p's
 * (no spread: equal is no change, anything else a certain one). */
static void predict(double delta, double se, double df, double *t,
		    double *up, double *down)
{
	if (se > 0) {
		*t = delta / se;
		*up = pv_t_sf(*t, df);
		*down = pv_t_sf(-*t, df);
		return;
	}
	*t = delta > 0 ? INFINITY : delta < 0 ? -INFINITY : 0;
	*up = delta > 0 ? 0 : 1;
	*down = delta < 0 ? 0 : 1;
}

static void two_sided(struct pv_pooled *p)
{
	p->p_two = 2 * (p->p_up < p->p_down ? p->p_up : p->p_down);
	if (p->p_two > 1)
		p->p_two = 1;
}

/* A candidate that is a spike about med: no p in its direction (*up,
 * *down) below the rate of its kind, nor below the chance of as many of
 * its runs as far at the baseline runs' rate.  Marks p a spike when a p
 * was raised, with the rate. */
static void spike_floor(struct pv_pooled *p, double med,
			const struct spikes *sp, double *up, double *down)
{
	double dev = p->cand - med, rate, lim = spike_limit(p);
	const double *r = p->ncruns ? p->cruns : &p->cand;
	size_t nr = p->ncruns ? p->ncruns : 1;
	int k = spike_kind(p->cand, r, nr, med, lim);
	double *side = dev > 0 ? up : down;

	/* a family with no spike in its pooled points is tested as before
	 * (pooled.h): no floor, whatever its runs */
	if (!(sp->all > 0))
		return;
	rate = k == 2 ? sp->whole : sp->all;
	if (k && sp->q > 0) {
		size_t m = runs_beyond(r, nr, med, lim, dev);
		double b = m ? gsl_cdf_binomial_Q((unsigned)(m - 1), sp->q,
						  (unsigned)nr) : 1;

		if (b > rate)
			rate = b;
	}
	if (!k || !(rate > 0) || dev == 0 || !(*side < rate))
		return;
	*side = rate;
	if (!p->spike || rate > p->spike_p)
		p->spike_p = rate;
	p->spike = 1;
}

/* A member with an end excursion: the candidate against its newest
 * level too, each one-sided p the larger of the two (pooled.h). */
static void against_end(struct pv_pooled *p, double tq,
			const struct spikes *sp)
{
	double n = 0, up, down;

	for (size_t j = p->K - p->end; j < p->K; j++)
		n += p->y[j];
	p->end_level = n / (double)p->end;
	p->end_delta = p->cand - p->end_level;
	p->end_se = p->sd * sqrt(1 + 1.0 / (double)p->end);
	predict(p->end_delta, p->end_se, p->df, &p->end_t, &up, &down);
	/* a spike of main's newest level, beyond it away from the long-run
	 * one (toward that one the long-run test speaks) */
	if ((p->end_delta > 0) == (p->end_level > p->level))
		spike_floor(p, p->end_level, sp, &up, &down);
	if (up > p->p_up)
		p->p_up = up;
	if (down > p->p_down)
		p->p_down = down;
	two_sided(p);
	p->end_lo = p->end_delta - tq * p->end_se;
	p->end_hi = p->end_delta + tq * p->end_se;
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
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		if (x[i].K > maxK)
			maxK = x[i].K;
	ALLOC_ARRAY(tmp, maxK);
	if (find_ends(x, n, tmp, err))
		goto out;
	spike_rates(x, n, med, tmp, &sp);

	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];
		/* the baseline's spikes and its end excursion are not its
		 * level (med is NAN, and every point kept, when no spike can
		 * be told; two points far apart are both kept) */
		size_t pk = p->K - p->end;
		double ss;

		p->testable = 0;
		p->spike = 0;
		p->spike_p = NAN;
		p->level = p->s2 = p->sd = p->df = NAN;
		p->delta = p->se = p->t = NAN;
		p->p_up = p->p_down = p->p_two = NAN;
		p->lo = p->hi = NAN;
		p->end_level = p->end_delta = p->end_se = p->end_t = NAN;
		p->end_lo = p->end_hi = NAN;
		s2[i] = NAN;
		d[i] = 0;
		p->kept = 0;
		if (pk < 1)
			continue;
		p->level = level_of(p->y, pk, med[i], spike_limit(p), &p->kept,
				    &ss);
		p->delta = p->cand - p->level;
		if (p->kept < 2)
			continue;
		p->d = (double)(p->kept - 1);
		p->s2 = ss / p->d;
		s2[i] = p->s2;
		d[i] = p->d;
	}
	if (pv_fit_prior(s2, d, n, &prior, err))
		goto out;
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
		predict(p->delta, p->se, df, &p->t, &p->p_up, &p->p_down);
		two_sided(p);
		spike_floor(p, med[i], &sp, &p->p_up, &p->p_down);
		two_sided(p);
		tq = pv_t_quantile(1 - alpha / 2, df);
		p->lo = p->delta - tq * p->se;
		p->hi = p->delta + tq * p->se;
		if (p->end)
			against_end(p, tq, &sp);
	}
	rc = 0;
out:
	free(s2);
	free(d);
	free(med);
	free(tmp);
	return rc;
}

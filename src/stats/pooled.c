/*
 * pooled.c - the prediction t of a candidate point against K pooled
 * baseline points, with the between-point variance moderated across
 * metrics (pooled.h).
 */
#include "pooled.h"

#include <math.h>
#include <stdlib.h>
#include "../stats.h"
#include "../util/banned.h"

int pv_pooled_family(struct pv_pooled *x, size_t n, double alpha,
		     struct pv_err *err)
{
	double *s2 = pv_calloc(n ? n : 1, sizeof(*s2));
	double *d = pv_calloc(n ? n : 1, sizeof(*d));
	struct pv_prior prior;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];
		double m = 0, ss = 0;

		p->testable = 0;
		p->level = p->s2 = p->sd = p->df = NAN;
		p->delta = p->se = p->t = NAN;
		p->p_up = p->p_down = p->p_two = NAN;
		p->lo = p->hi = NAN;
		s2[i] = NAN;
		d[i] = 0;
		if (p->K < 1)
			continue;
		for (size_t j = 0; j < p->K; j++)
			m += p->y[j];
		m /= (double)p->K;
		p->level = m;
		p->delta = p->cand - m;
		if (p->K < 2)
			continue;
		for (size_t j = 0; j < p->K; j++)
			ss += (p->y[j] - m) * (p->y[j] - m);
		p->d = (double)(p->K - 1);
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

		if (p->K < 2 || !isfinite(p->s2))
			continue;
		post = pv_posterior_var(&prior, p->s2, p->d, &df);
		if (!(post >= 0))
			continue;
		p->sd = sqrt(post);
		p->df = df;
		p->se = p->sd * sqrt(1 + 1.0 / (double)p->K);
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
		tq = pv_t_quantile(1 - alpha / 2, df);
		p->lo = p->delta - tq * p->se;
		p->hi = p->delta + tq * p->se;
	}
out:
	free(s2);
	free(d);
	return rc;
}

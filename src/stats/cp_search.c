/*
 * cp_search.c - the search: optimal partitioning with PELT pruning
 * (Killick, Fearnhead and Eckley 2012; docs/changepoint.md section 3).
 *
 * F[t] is the least cost of y[0..t): the sum over its segments of their
 * weighted squared deviations, plus pen for every change point.
 * F[t] = min over s of F[s] + C(s, t) + pen, s a start that leaves at
 * least m points.  A start s with F[s] + C(s, t) > F[t]
 * can never end the best segmentation at t + m or later
 * (the squared-deviation cost of a segment is at least that of its two
 * parts), so it leaves the candidates then: pruning waits the minimum
 * segment's length, since t itself cannot start a segment before that.
 */
#include "cp.h"

#include <math.h>
#include <stdlib.h>
#include "internal.h"
#include "../util/banned.h"

/* Weighted prefix sums of y less a centre (the values on the log scale
 * sit far from 0 and their spread can be a billionth of that). */
struct sums {
	double *s0, *s1, *s2;
};

static void sums_build(struct sums *c, const double *y, const double *w,
		       size_t L)
{
	double centre = L ? y[L / 2] : 0;

	ALLOC_ARRAY(c->s0, L + 1);
	ALLOC_ARRAY(c->s1, L + 1);
	ALLOC_ARRAY(c->s2, L + 1);
	c->s0[0] = c->s1[0] = c->s2[0] = 0;
	for (size_t i = 0; i < L; i++) {
		double v = y[i] - centre;

		c->s0[i + 1] = c->s0[i] + w[i];
		c->s1[i + 1] = c->s1[i] + w[i] * v;
		c->s2[i + 1] = c->s2[i] + w[i] * v * v;
	}
}

static double cost(const struct sums *c, size_t a, size_t b)
{
	double n = c->s0[b] - c->s0[a], s = c->s1[b] - c->s1[a];
	double ss = c->s2[b] - c->s2[a] - s * s / n;

	return ss > 0 ? ss : 0;
}

double pvs_cpn_ss(const double *y, const double *w, size_t a, size_t b,
		  double *mean)
{
	double m = 0, sw = 0, ss = 0;

	for (size_t i = a; i < b; i++) {
		m += w[i] * y[i];
		sw += w[i];
	}
	m /= sw;
	for (size_t i = a; i < b; i++)
		ss += w[i] * (y[i] - m) * (y[i] - m);
	if (mean)
		*mean = m;
	return ss;
}

/* The best last start for t among the candidates r[0..*nr); prunes. */
static size_t step(const struct sums *c, const double *F, size_t *pruned,
		   size_t *r, size_t *nr, size_t t, size_t m, double pen,
		   double *best)
{
	size_t arg = 0, k = 0;

	*best = INFINITY;
	for (size_t i = 0; i < *nr; i++) {
		double f = F[r[i]] + cost(c, r[i], t) + pen;

		if (f < *best) {
			*best = f;
			arg = r[i];
		}
	}
	for (size_t i = 0; i < *nr; i++) {
		size_t s = r[i];

		if (pruned[s] == 0 && F[s] + cost(c, s, t) > *best)
			pruned[s] = t;
		if (pruned[s] == 0 || pruned[s] + m > t + 1)
			r[k++] = s;
	}
	*nr = k;
	return arg;
}

size_t pvs_cpn_search(const double *y, const double *w, size_t L,
		      size_t m, double pen, size_t *cp)
{
	struct sums c;
	double *F;
	size_t *last, *r, *pruned, nr = 0, ncp = 0;

	if (L < 2 * m)
		return 0;
	sums_build(&c, y, w, L);
	ALLOC_ARRAY(F, L + 1);
	CALLOC_ARRAY(last, L + 1);
	ALLOC_ARRAY(r, L + 1);
	CALLOC_ARRAY(pruned, L + 1);
	F[0] = -pen;
	for (size_t t = 1; t < m && t <= L; t++)
		F[t] = INFINITY;
	for (size_t t = m; t <= L; t++) {
		/* t - m becomes a start once it can end a segmentation */
		if (t - m == 0 || t - m >= m)
			r[nr++] = t - m;
		last[t] = step(&c, F, pruned, r, &nr, t, m, pen, &F[t]);
	}
	for (size_t t = last[L]; t > 0; t = last[t])
		ncp++;
	for (size_t t = last[L], i = ncp; t > 0; t = last[t])
		cp[--i] = t;
	free(c.s0);
	free(c.s1);
	free(c.s2);
	free(F);
	free(last);
	free(r);
	free(pruned);
	return ncp;
}

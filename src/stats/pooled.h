/*
 * pooled.h - a candidate point against a baseline pooled from K past
 * points (compare --baseline-history).
 *
 * Each point contributes one value (its robust log mean, history.c), not
 * its runs: every point may have run on another machine, and that
 * between-point variance does not shrink with more runs inside a point.
 * The candidate is one more point, so the test is a prediction t,
 *
 *     t = (y_cand - mean(y_1..y_K)) / (s * sqrt(1 + 1/K)),
 *
 * with s^2 the variance of the K point values (K - 1 df), moderated
 * across the metrics by Smyth's empirical Bayes (pv_fit_prior): the
 * posterior (d0 s0^2 + (K-1) s^2) / (d0 + K - 1) with d0 + K - 1 df.
 */
#ifndef PV_STATS_POOLED_H
#define PV_STATS_POOLED_H

#include <stddef.h>
#include "../util/err.h"

struct pv_pooled {
	const double *y;        /* the K baseline point values */
	size_t K;
	double cand;            /* the candidate's point value */
	/* filled by pv_pooled_family() */
	double level;           /* mean of y */
	double s2, d;           /* the sample variance of y and its df */
	double sd, df;          /* posterior sd and df */
	double delta, se, t;    /* cand - level, its se, their ratio */
	double p_up, p_down, p_two;     /* one-sided (cand larger, smaller)
					 * and two-sided */
	double lo, hi;          /* delta's 1 - alpha interval */
	int testable;           /* K >= 2 and a finite sd */
};

/* Test every member; alpha sets the interval.  Members with K < 2 are
 * left untestable (and out of the prior). */
int pv_pooled_family(struct pv_pooled *x, size_t n, double alpha,
		     struct pv_err *err);

#endif

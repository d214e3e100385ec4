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
 *
 * Spikes.  A point further than PV_CP_GROSS sds (spike_sd, the history's
 * between-point sd of the metric; none when history took a shared
 * machine effect out of it, as that sd is not of the values the gate
 * pools) from the median of its K baseline
 * points is a spike, as history's clipping calls one (changepoint.h,
 * step 1); a whole spike when every run of it is that far on the same
 * side (a slow machine for the whole job), else a split one (two of
 * three runs beside a noisy neighbour).  When the family's pooled points
 * hold spikes, a candidate that is a spike is judged against their rate
 * too: its p in that direction is at least the rate of whole spikes
 * when all its runs are that far, of all spikes when some are not -- the
 * chance that a point of this family is such a spike -- and at least the
 * binomial chance of as many of its runs as far, at the rate of the
 * baseline's runs that are (history's noisy-neighbour test, whose
 * side_outliers() it follows).  One run slower by
 * half, which a noisy neighbour gives 5% of runs, is then not a
 * regression in a family of 100 metrics (it was, in 93% of cpsim's A/A
 * comparisons at one run), while three runs 10% slower in a family
 * whose spikes are split ones still are.  A family with no spike in its
 * baseline is tested as before; history finds a level that stays at its
 * third point.
 */
#ifndef PV_STATS_POOLED_H
#define PV_STATS_POOLED_H

#include <stddef.h>
#include "../util/err.h"

struct pv_pooled {
	const double *y;        /* the K baseline point values */
	size_t K;
	double cand;            /* the candidate's point value */
	double spike_sd;        /* the between-point sd history found (its
				 * clipped values'), for the spike test */
	const double *runs;     /* point j's runs: runs[roff[j] .. roff[j+1]) */
	const size_t *roff;     /* (NULL: a run a point, its value) */
	const double *cruns;    /* the candidate's runs, on the same scale */
	size_t ncruns;
	/* filled by pv_pooled_family() */
	size_t kept;            /* the points of y that are not spikes */
	double level;           /* mean of those */
	double s2, d;           /* the sample variance of y and its df */
	double sd, df;          /* posterior sd and df */
	double delta, se, t;    /* cand - level, its se, their ratio */
	double p_up, p_down, p_two;     /* one-sided (cand larger, smaller)
					 * and two-sided */
	double lo, hi;          /* delta's 1 - alpha interval */
	int testable;           /* K >= 2 and a finite sd */
	int spike;              /* the candidate is a spike, and its p in
				 * that direction was raised to spike_p */
	double spike_p;         /* the rate of its kind of spike */
};

/* Test every member; alpha sets the interval.  Members with K < 2 are
 * left untestable (and out of the prior). */
int pv_pooled_family(struct pv_pooled *x, size_t n, double alpha,
		     struct pv_err *err);

#endif

/*
 * result.h - what every two-sample test takes and gives.  Every test
 * follows scipy's convention for the order of its arguments: a is the
 * baseline, b the candidate, and the statistic is that of
 * scipy.stats.<test>(a, b).  So a t statistic is (mean(a) - mean(b)) /
 * se: it is NEGATIVE when the candidate is larger.  The shift fields,
 * in contrast, are always "b relative to a" (b - a): positive when the
 * candidate is larger.
 *
 * Alternatives name the direction of the candidate relative to the
 * baseline: PV_ALT_GREATER tests "b tends to be larger than a".  In
 * scipy's terms, for test(a, b):
 *
 *	PV_ALT_TWO      alternative='two-sided'
 *	PV_ALT_GREATER  alternative='less'     (a less than b)
 *	PV_ALT_LESS     alternative='greater'  (a greater than b)
 */
#ifndef PV_STATS_RESULT_H
#define PV_STATS_RESULT_H

enum pv_alt { PV_ALT_TWO = 0, PV_ALT_GREATER, PV_ALT_LESS };

struct pv_test_out {
	double statistic;       /* t, or U of a as scipy reports it */
	double df;              /* NAN for rank tests */
	double p;               /* for the alternative asked */
	/* Estimated shift of b relative to a, and its confidence interval at
	 * the level asked (two-sided interval), in the units of the data: the
	 * difference of means for t-tests, Hodges-Lehmann for Mann-Whitney. */
	double shift, ci_low, ci_high;
	double se;              /* standard error of shift; NAN for rank tests */
	int exact;              /* Mann-Whitney: the exact distribution was used */
};

#endif

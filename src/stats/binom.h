/*
 * binom.h - a confidence interval for a binomial proportion.
 *
 * calibrate counts k false alarms in n A/A splits; k/n alone says
 * nothing of how sure that rate is, and its standard error is 0 when k
 * is 0.  Wilson's score interval is what statsmodels' proportion_confint
 * (method "wilson") and scipy's binomtest(...).proportion_ci(method=
 * "wilson") give: it stays inside [0, 1] and is not empty at k = 0.
 */
#ifndef PV_STATS_BINOM_H
#define PV_STATS_BINOM_H

/* The two-sided level (e.g. 0.95) Wilson interval of k successes in n
 * trials, k <= n, n > 0, into *lo and *hi. */
void pv_wilson_interval(unsigned long k, unsigned long n, double level,
			double *lo, double *hi);

#endif

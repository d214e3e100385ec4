/*
 * summary.h - descriptive statistics of one sample: sums in numpy's
 * pairwise order (so that means and sds agree with numpy and scipy to
 * the last bits), mean and sd, median, min and max.  Pure functions;
 * x is never modified.
 */
#ifndef PV_STATS_SUMMARY_H
#define PV_STATS_SUMMARY_H

#include <stddef.h>

struct pv_summary {
	size_t n;
	double mean, sd, cv, median, min, max;  /* NAN when undefined */
};

/* n, mean, sd (n-1; NAN when n < 2), cv = sd/|mean| (NAN when the mean
 * is 0 or sd is NAN), median, min, max.  n = 0 or a NaN in x gives NAN
 * everywhere except n. */
void pv_summarize(const double *x, size_t n, struct pv_summary *s);

/* Only the mean and sd of pv_summarize(), bit for bit (a NaN in x
 * makes both NaN); sd may be NULL.  Every mean the tool shows or
 * averages (repeats of a file included) comes from here. */
void pv_mean_sd(const double *x, size_t n, double *mean, double *sd);

/* The median, min and max of x, from one sort: what a report shows
 * besides the moments.  NAN when n = 0. */
void pv_order_stats(const double *x, size_t n, double *median, double *min,
		    double *max);

#endif

/*
 * selector.h - family-wide statistics of the noise that pick the test
 * (Hogg's adaptive idea): the fraction of gross errors and the tail
 * weight, over a family of per-metric pairs of positive samples.
 */
#ifndef PV_STATS_SELECTOR_H
#define PV_STATS_SELECTOR_H

#include <stddef.h>

/* The adaptive switch: below this many runs per side a metric takes no
 * part; with a gross fraction above PV_GROSS_SWITCH use the Yuen arm. */
#define PV_GROSS_MIN_N 8
#define PV_GROSS_K 6.0
#define PV_GROSS_SWITCH 0.01

/*
 * Hogg-style selector over a family: the fraction of log residuals (from
 * each side's median) whose magnitude exceeds PV_GROSS_K robust sd
 * (1.4826 MAD of the metric's pooled residuals, the MAD taken about
 * their median).  Inputs are per-metric pairs of positive samples.
 * Metrics with fewer than PV_GROSS_MIN_N runs on a side, a value that
 * is not positive and finite, or a robust scale of 0 (more than half
 * the residuals equal) are left out of numerator and denominator.
 * NAN when no metric is left: compare with '>' so that NAN selects the
 * plain arm.
 */
double pv_gross_fraction(const double *const *a, const size_t *na,
			 const double *const *b, const size_t *nb, size_t m);

/*
 * Both selectors accumulated one metric at a time, from the metric's
 * logs (la[0..na), lb[0..nb)), so that a caller computes each
 * metric's logs once for these and the moderated test alike.  Start
 * from a zeroed struct; scratch holds 2 (na + nb) doubles.  Metrics
 * are left out as above (a log that is not finite stands for a value
 * that is not positive and finite), and the results are those of
 * pv_gross_fraction and the family kurtosis, bit for bit.
 */
struct pv_selector {
	size_t total, gross;    /* residuals counted, and beyond K sd */
	double ksum;            /* sum of the kurtoses, over kused metrics */
	size_t kused;
};
void pv_selector_add(struct pv_selector *sel, const double *la, size_t na,
		     const double *lb, size_t nb, double *scratch);
double pv_selector_gross(const struct pv_selector *sel);
double pv_selector_kurtosis(const struct pv_selector *sel);

#endif

/*
 * stats.h - descriptive statistics and two-sample tests.  Pure functions
 * of their inputs, built on GSL.  Every test follows scipy's convention
 * for the order of its arguments: a is the baseline, b the candidate,
 * and the statistic is that of scipy.stats.<test>(a, b).
 *
 * Alternatives name the direction of the candidate relative to the
 * baseline: PV_ALT_GREATER tests "b tends to be larger than a".
 */
#ifndef PV_STATS_H
#define PV_STATS_H

#include <stddef.h>
#include "util/err.h"

struct pv_summary {
	size_t n;
	double mean, sd, cv, median, min, max;  /* NAN when undefined */
};

/* n, mean, sd (n-1), cv = sd/|mean|, median, min, max.
 * x is left untouched. */
void pv_summarize(const double *x, size_t n, struct pv_summary *s);

enum pv_alt { PV_ALT_TWO = 0, PV_ALT_GREATER, PV_ALT_LESS };

struct pv_test_out {
	double statistic;       /* t, or U of a as scipy reports it */
	double df;              /* NAN for rank tests */
	double p;               /* for the alternative asked */
	/* Estimated shift of b relative to a, and its confidence interval at
	 * the level asked (two-sided interval), in the units of the data: the
	 * difference of means for t-tests, Hodges-Lehmann for Mann-Whitney. */
	double shift, ci_low, ci_high;
	int exact;              /* Mann-Whitney: the exact distribution was used */
};

/*
 * Welch (equal_var = 0) or Student (equal_var = 1) t-test, matching
 * scipy.stats.ttest_ind(a, b, equal_var=..., alternative=...).
 * Zero variance on both sides: equal means give t = 0, p = 1; different
 * means give t = +-inf and p = 0 (in the direction of the change; 1 for
 * the other one-sided alternative).  Needs na, nb >= 2.
 */
int pv_ttest(const double *a, size_t na, const double *b, size_t nb,
	     int equal_var, enum pv_alt alt, double conf,
	     struct pv_test_out *o, struct pv_err *err);

/*
 * Mann-Whitney U, matching scipy.stats.mannwhitneyu(a, b,
 * alternative=..., method='auto') of scipy 1.10: exact when both samples
 * are smaller than 8 and there are no ties, otherwise the normal
 * approximation with tie and continuity corrections.  shift/ci are the
 * Hodges-Lehmann estimate of b - a and its distribution-free interval.
 */
int pv_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		   enum pv_alt alt, double conf, struct pv_test_out *o,
		   struct pv_err *err);

/* Multiple-comparison adjustment as R's p.adjust; NAN entries are left
 * out of the family and stay NAN.  q may alias p. */
void pv_adjust_holm(const double *p, size_t n, double *q);
void pv_adjust_bh(const double *p, size_t n, double *q);

/*
 * Empirical-Bayes moderation (Smyth 2004; limma's fitFDist without
 * covariates).  s2[i] are residual variances with d[i] degrees of
 * freedom.  Produces the prior variance s0sq and prior degrees of
 * freedom d0 (INFINITY when the variances are no more spread than
 * sampling explains).  With fewer than 2 usable variances d0 = 0.
 */
struct pv_prior {
	double d0, s0sq;
};
int pv_fit_prior(const double *s2, const double *d, size_t n,
		 struct pv_prior *prior, struct pv_err *err);
double pv_trigamma_inverse(double x);

/*
 * The per-metric ingredients of a moderated test: on log values, the
 * pooled variance s2 with df d, the mean difference diff (b - a) and
 * u = sqrt(1/n1 + 1/n2).  trimmed = 1 gives Yuen's version: 20% trimmed
 * means, pooled winsorized variances, h = counts after trimming.
 * Fails when a value is not positive (logs need > 0) or n < 2.
 */
struct pv_modvar {
	double s2, d, diff, u;
};
int pv_modvar_log(const double *a, size_t na, const double *b, size_t nb,
		  int trimmed, struct pv_modvar *mv, struct pv_err *err);

/*
 * Moderated t from mv and the prior: posterior variance
 * (d s2 + d0 s0sq)/(d + d0), df = min(d + d0, df_cap).  shift/ci are on
 * the log scale (log ratio b/a).
 */
void pv_moderated_t(const struct pv_modvar *mv, const struct pv_prior *prior,
		    double df_cap, enum pv_alt alt, double conf,
		    struct pv_test_out *o);

/*
 * Hogg-style selector over a family: the fraction of log residuals (from
 * each side's median) beyond 6 robust sd (1.4826 MAD of the metric's
 * pooled residuals).  Inputs are per-metric pairs of positive samples.
 */
double pv_gross_fraction(const double *const *a, const size_t *na,
			 const double *const *b, const size_t *nb, size_t m);

/*
 * Minimum detectable effect: the smallest true difference of means (in
 * the data's units) that a one- or two-sided t-test at level alpha
 * detects with the given power, for standard error se and df degrees of
 * freedom (noncentral approximation via the t quantiles).
 */
double pv_mde(double se, double df, double alpha, int two_sided,
	      double power);

#endif

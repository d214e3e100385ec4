/*
 * stats.h - descriptive statistics and two-sample tests.  Pure functions
 * of their inputs, built on GSL.  Every test follows scipy's convention
 * for the order of its arguments: a is the baseline, b the candidate,
 * and the statistic is that of scipy.stats.<test>(a, b).  So a t
 * statistic is (mean(a) - mean(b)) / se: it is NEGATIVE when the
 * candidate is larger.  The shift fields, in contrast, are always
 * "b relative to a" (b - a): positive when the candidate is larger.
 *
 * Alternatives name the direction of the candidate relative to the
 * baseline: PV_ALT_GREATER tests "b tends to be larger than a".  In
 * scipy's terms, for test(a, b):
 *
 *	PV_ALT_TWO      alternative='two-sided'
 *	PV_ALT_GREATER  alternative='less'     (a less than b)
 *	PV_ALT_LESS     alternative='greater'  (a greater than b)
 *
 * The library never calls gsl_set_error_handler_off(): main.c (and each
 * test program) does that once, before calling anything here.
 */
#ifndef PV_STATS_H
#define PV_STATS_H

#include <stddef.h>
#include "util/err.h"

struct pv_summary {
	size_t n;
	double mean, sd, cv, median, min, max;  /* NAN when undefined */
};

/* n, mean, sd (n-1; NAN when n < 2), cv = sd/|mean| (NAN when the mean
 * is 0 or sd is NAN), median, min, max.  n = 0 or a NaN in x gives NAN
 * everywhere except n.  x is left untouched. */
void pv_summarize(const double *x, size_t n, struct pv_summary *s);

/* The same without the median (NAN), which needs a sort: the decision
 * needs only the moments, min and max. */
void pv_summarize_fast(const double *x, size_t n, struct pv_summary *s);

/* Only the mean and sd of pv_summarize_fast(), bit for bit; sd may be
 * NULL. */
void pv_mean_sd(const double *x, size_t n, double *mean, double *sd);
/* The median of x (x untouched); NAN when n = 0. */
double pv_median(const double *x, size_t n);
/* The median, min and max of x (x untouched), from one sort: what a
 * report shows besides the moments.  NAN when n = 0. */
void pv_order_stats(const double *x, size_t n, double *median, double *min,
		    double *max);

enum pv_alt { PV_ALT_TWO = 0, PV_ALT_GREATER, PV_ALT_LESS };

/*
 * P(T > t) for Student's t with df degrees of freedom (df = INFINITY:
 * the normal tail), as scipy.stats.t.sf(t, df): within 1e-13 relative
 * for df in [1, 1e6] and |t| up to 1e3, down to 1e-300.  NAN for a NaN
 * t or df, or df <= 0.
 */
double pv_t_sf(double t, double df);

/* The p quantile of Student's t with df degrees of freedom (INFINITY:
 * normal), as scipy.stats.t.ppf, consistent with pv_t_sf to the last
 * digits.  NAN for p outside (0, 1), a NaN or df <= 0. */
double pv_t_quantile(double p, double df);

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

/*
 * Welch (equal_var = 0) or Student (equal_var = 1) t-test, matching
 * scipy.stats.ttest_ind(a, b, equal_var=..., alternative=...) to the last
 * few bits (means and variances are summed in numpy's order).
 * shift = mean(b) - mean(a), and the interval is shift -+ t_q * se with
 * t_q the (1+conf)/2 quantile of t with df degrees of freedom (Welch-
 * Satterthwaite df for Welch).
 * Zero variance on both sides: equal means give t = 0, p = 1 (for every
 * alternative); different means give t = +-inf and p = 0 in the direction
 * of the change (1 for the other one-sided alternative), and a zero-width
 * interval.  Welch's df is then NAN (it is 0/0).
 * Needs na, nb >= 2, finite values and 0 < conf < 1.
 */
int pv_ttest(const double *a, size_t na, const double *b, size_t nb,
	     int equal_var, enum pv_alt alt, double conf,
	     struct pv_test_out *o, struct pv_err *err);

/*
 * The same test from each side's summary alone: mean, sample standard
 * deviation (n-1) and size, as scipy.stats.ttest_ind_from_stats(mean_a,
 * sd_a, na, mean_b, sd_b, nb, equal_var=..., alternative=...), for
 * harnesses that keep no raw samples (Catch2).  Outputs and conventions
 * as pv_ttest, zero variance included.  Needs na, nb >= 2, finite means,
 * finite sds >= 0 and 0 < conf < 1.
 */
int pv_ttest_summary(double mean_a, double sd_a, size_t na, double mean_b,
		     double sd_b, size_t nb, int equal_var, enum pv_alt alt,
		     double conf, struct pv_test_out *o, struct pv_err *err);

/*
 * Mann-Whitney U, matching scipy.stats.mannwhitneyu(a, b,
 * alternative=..., method='auto') of scipy 1.10: the exact distribution
 * when at least one sample has 8 values or fewer (not both > 8) and
 * there are no ties, otherwise the normal approximation with tie and
 * continuity corrections.  statistic = U1 = U of a.
 * shift/ci are the Hodges-Lehmann estimate of b - a (the median of all
 * b[j] - a[i]) and its distribution-free (Moses) interval: order
 * statistics k and mn+1-k of those differences, k the smallest with
 * P(U <= k) >= (1-conf)/2 (at least 1).  P is the exact distribution of
 * U when there are no ties and the test was exact or both samples are
 * below 50 (so the interval is R's wilcox.test(b, a, conf.int=TRUE)),
 * and otherwise the tie-corrected normal approximation with continuity
 * correction.  The na*nb differences are never stored: order statistics
 * are selected in O((na + nb) log) passes.
 * Needs na, nb >= 1, finite values and 0 < conf < 1.
 */
int pv_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		   enum pv_alt alt, double conf, struct pv_test_out *o,
		   struct pv_err *err);

/* Multiple-comparison adjustment as R's p.adjust(p, "holm") and
 * p.adjust(p, "BH"); NAN entries are left out of the family (they do not
 * count in n) and stay NAN.  q may alias p. */
void pv_adjust_holm(const double *p, size_t n, double *q);
void pv_adjust_bh(const double *p, size_t n, double *q);

/*
 * Empirical-Bayes moderation (Smyth 2004; limma's fitFDist without
 * covariates).  s2[i] are residual variances with d[i] degrees of
 * freedom; as in limma, a pair is skipped unless s2 is finite and above
 * -1e-15 (then clamped to >= 0) and d is finite and above 1e-15.  Produces the
 * prior variance s0sq and prior degrees of freedom d0 (INFINITY when the
 * variances are no more spread than sampling explains).  With fewer than
 * 2 usable variances d0 = 0 (no moderation) and s0sq is the one usable
 * variance, or NAN when there is none.  Fails only when GSL does.
 */
struct pv_prior {
	double d0, s0sq;
};
int pv_fit_prior(const double *s2, const double *d, size_t n,
		 struct pv_prior *prior, struct pv_err *err);

/*
 * pv_fit_prior with a guard against reading sampling noise as
 * heterogeneity: the excess spread evar is reduced by shrink times its
 * own sampling sd, sqrt((m4 - m2^2)/k) from the central moments of the
 * k log-variance terms e, before d0 is solved for (d0 = INFINITY when
 * nothing is left).  shrink = 0 is pv_fit_prior.
 */
int pv_fit_prior_shrunk(const double *s2, const double *d, size_t n,
			double shrink, struct pv_prior *prior,
			struct pv_err *err);

/* y with trigamma(y) = x (limma's trigammaInverse): Newton from
 * 0.5 + 1/x to a relative step below 1e-8; 1/sqrt(x) for x > 1e7 and
 * 1/x for x < 1e-6.  NAN for a negative or NaN x or a GSL failure. */
double pv_trigamma_inverse(double x);

/* The Yuen variant trims this fraction from each end (floor(0.2 n)). */
#define PV_TRIM 0.2

/*
 * The per-metric ingredients of a moderated test: on log values, the
 * pooled variance s2 with df d, the mean difference diff (b - a) and
 * u = sqrt(1/n1 + 1/n2).  trimmed = 1 gives Yuen's version: 20% trimmed
 * means, g = floor(0.2 n) values trimmed from each end, pooled
 * winsorized variances ((n1-1) w1 + (n2-1) w2) / d with
 * d = (h1-1) + (h2-1), and u = sqrt(1/h1 + 1/h2), h = n - 2g.
 * Fails when a value is not positive or not finite (logs need > 0) or
 * n < 2.
 */
struct pv_modvar {
	double s2, d, diff, u;
};
int pv_modvar_log(const double *a, size_t na, const double *b, size_t nb,
		  int trimmed, struct pv_modvar *mv, struct pv_err *err);

/* pv_modvar_log's untrimmed ingredients from the logs themselves
 * (la, lb: finite, na, nb >= 2), for callers that already hold them. */
void pv_modvar_logs(const double *la, size_t na, const double *lb, size_t nb,
		    struct pv_modvar *mv);

/*
 * Moderated t from mv and the prior: posterior variance
 * (d s2 + d0 s0sq)/(d + d0) (s0sq when d0 is infinite; s2 when d0 is 0,
 * which is then exactly the Student t on logs), df = min(d + d0, df_cap)
 * (INFINITY for no cap; limma caps at the sum of all metrics' d).
 * The statistic is oriented as the t-tests are: (mean la - mean lb)/se,
 * i.e. -diff/se, so with d0 = 0 it equals scipy's
 * ttest_ind(log a, log b).  shift/ci are on the log scale (log ratio
 * b/a); se is that of diff.  A zero posterior variance is handled as in
 * pv_ttest.  An invalid conf gives a NAN interval.
 */
void pv_moderated_t(const struct pv_modvar *mv, const struct pv_prior *prior,
		    double df_cap, enum pv_alt alt, double conf,
		    struct pv_test_out *o);

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
 * Tail weight of a family (Hogg's selector idea): the mean over metrics
 * of the kurtosis m4/m2^2 of the log residuals from each side's mean,
 * pooled over both sides.  About 2.7 for normal noise with 10 runs per
 * side, below 2 for two-mode (bimodal) noise, above 3 with rare gross
 * outliers.  Same inputs and exclusions as pv_gross_fraction (a zero
 * m2 also excludes a metric); NAN when no metric is left.
 */
double pv_tail_kurtosis(const double *const *a, const size_t *na,
			const double *const *b, const size_t *nb, size_t m);

/*
 * Both selectors accumulated one metric at a time, from the metric's
 * logs (la[0..na), lb[0..nb)), so that a caller computes each
 * metric's logs once for these and the moderated test alike.  Start
 * from a zeroed struct; scratch holds 2 (na + nb) doubles.  Metrics
 * are left out as above (a log that is not finite stands for a value
 * that is not positive and finite), and the results are those of
 * pv_gross_fraction and pv_tail_kurtosis, bit for bit.
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

/*
 * Minimum detectable effect: the smallest true difference of means (in
 * the data's units) that a one- or two-sided t-test at level alpha
 * detects with the given power, for standard error se and df degrees of
 * freedom (INFINITY for a z-test).  The usual approximation that ignores
 * the far tail and the noncentral shape:
 *	(t_{1-alpha/2, df} + t_{power, df}) * se   (two-sided)
 *	(t_{1-alpha, df}   + t_{power, df}) * se   (one-sided)
 * NAN for se < 0, df <= 0, or alpha or power outside (0, 1).
 */
double pv_mde(double se, double df, double alpha, int two_sided,
	      double power);

#endif

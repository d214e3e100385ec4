/*
 * ebayes.h - empirical-Bayes moderation of a family's variances (the
 * prior fit) and the moderated t on log values, with Yuen's trimmed
 * variant.  Conventions in result.h.
 */
#ifndef PV_STATS_EBAYES_H
#define PV_STATS_EBAYES_H

#include <stddef.h>
#include "../util/err.h"
#include "result.h"
#include "tdist.h"

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
 * Smyth's posterior variance of a sample variance s2 on d degrees of
 * freedom under prior: (d0 s0sq + d s2) / (d0 + d) on d0 + d df; the
 * prior's s0sq on infinite df when d0 is infinite; s2 itself on d df
 * when there is no prior (d0 not above 0, or s0sq NAN, as pv_fit_prior
 * leaves it with no usable variance).  A variance on d = 0 df counts for
 * nothing, whatever s2 is.  The df goes to *df.  The one place the
 * moderated t, the pooled baseline and the change points take it from.
 */
double pv_posterior_var(const struct pv_prior *prior, double s2, double d,
			double *df);

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

/*
 * The prior from the median and the MAD (as an sd) of the log-variance
 * terms e = log s2 - digamma(d/2) + log(d/2), in place of their mean and
 * variance: var(e) = trigamma(d/2) + trigamma(d0/2) solved for d0, and
 * s0sq = exp(median + digamma(d0/2) - log(d0/2)).  A few series whose
 * variance holds structure a fit missed (a cluster of outliers) spread
 * the mean and variance and leave d0 small; the median and MAD do not
 * move.  The same pairs as pv_fit_prior are used; fewer than 10 leave no
 * prior (d0 = 0).  Fails only when GSL does.
 */
int pv_fit_prior_median(const double *s2, const double *d, size_t n,
			struct pv_prior *prior, struct pv_err *err);

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

/* pv_moderated_t with the t distribution's work through a caller's
 * memo (tdist.h; NULL: none); the same results.  A family shares its
 * df, so one memo across the family solves each quantile once. */
void pv_moderated_t_memo(const struct pv_modvar *mv,
			 const struct pv_prior *prior, double df_cap,
			 enum pv_alt alt, double conf, struct pv_tmemo *m,
			 struct pv_test_out *o);

#endif

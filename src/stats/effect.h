/*
 * effect.h - the size of an effect: the relative change every report
 * shows, the minimum detectable effect of a test, and the runs per side
 * it would take to detect a given one.
 */
#ifndef PV_STATS_EFFECT_H
#define PV_STATS_EFFECT_H

#include <stddef.h>
#include "tdist.h"

/*
 * The change of b relative to a, (b - a) / |a|: the one rule the
 * verdicts, reports and calibrate use.  NAN when a is 0 (no relative
 * change exists) or either is NaN.
 */
double pv_rel_change(double a, double b);

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

/* pv_mde with its quantiles through a caller's memo (tdist.h; NULL:
 * none); the same result. */
double pv_mde_memo(double se, double df, double alpha, int two_sided,
		   double power, struct pv_tmemo *m);

/*
 * Runs per side that would detect target, when n runs per side detect
 * mde: a detectable effect shrinks as 1/sqrt(n), so n (mde/target)^2,
 * rounded up.  NAN unless mde and target are finite and > 0.
 */
double pv_runs_to_detect(size_t n, double mde, double target);

#endif

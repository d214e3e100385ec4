/*
 * stats.h - the statistics of perfverdict, one header for the parts in
 * src/stats/ (each states its own contract):
 *
 *	summary.h      sums in numpy's order, mean and sd, order statistics
 *	tdist.h        Student's t: tail and quantile, and their memo
 *	result.h       the alternatives and the result every test gives
 *	ttest.h        Welch's and Student's t-tests
 *	mannwhitney.h  Mann-Whitney U with Hodges-Lehmann
 *	adjust.h       Holm and Benjamini-Hochberg
 *	ebayes.h       the empirical-Bayes prior and the moderated t
 *	selector.h     the family statistics that pick the test
 *	effect.h       relative change, detectable effect, runs needed
 *
 * Everything there is a pure function of its arguments (a caller's
 * struct pv_tmemo, where one is passed, only saves work) and nothing
 * prints.  The library never calls gsl_set_error_handler_off(): main.c
 * (and each test program) does that once, before calling anything
 * here.
 */
#ifndef PV_STATS_H
#define PV_STATS_H

#include "stats/summary.h"
#include "stats/tdist.h"
#include "stats/result.h"
#include "stats/ttest.h"
#include "stats/mannwhitney.h"
#include "stats/adjust.h"
#include "stats/ebayes.h"
#include "stats/selector.h"
#include "stats/effect.h"

#endif

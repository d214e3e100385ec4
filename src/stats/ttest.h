/*
 * ttest.h - Welch's and Student's two-sample t-tests, from samples or
 * from each side's (mean, sd, n).  Conventions in result.h.
 */
#ifndef PV_STATS_TTEST_H
#define PV_STATS_TTEST_H

#include <stddef.h>
#include "../util/err.h"
#include "result.h"
#include "tdist.h"

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

/* pv_ttest and pv_ttest_summary with the t distribution's work through
 * a caller's memo (tdist.h; NULL: none); the same results. */
int pv_ttest_memo(const double *a, size_t na, const double *b, size_t nb,
		  int equal_var, enum pv_alt alt, double conf,
		  struct pv_tmemo *m, struct pv_test_out *o, struct pv_err *err);
int pv_ttest_summary_memo(double mean_a, double sd_a, size_t na,
			  double mean_b, double sd_b, size_t nb, int equal_var,
			  enum pv_alt alt, double conf, struct pv_tmemo *m,
			  struct pv_test_out *o, struct pv_err *err);

#endif

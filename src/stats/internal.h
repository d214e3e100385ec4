/*
 * internal.h - helpers the files of src/stats share and nothing else
 * uses; not part of stats.h.  Each is defined in the file of its
 * responsibility (summary.c, ttest.c).
 */
#ifndef PV_STATS_INTERNAL_H
#define PV_STATS_INTERNAL_H

#include <stddef.h>
#include "../util/err.h"
#include "result.h"
#include "tdist.h"

/* Arrays of up to this many doubles live on the stack. */
#define SMALL_N 64

/* Sort x[0..n) ascending (no NaN): insertion sort for the handful of
 * runs a benchmark has, GSL's sort beyond. */
void pvs_sort(double *x, size_t n);

/* pvs_sort() of at most 32 values, its insertion sort: inline, for the
 * hot callers of a few values (a constant n unrolls). */
static inline void pvs_sort_small(double *x, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		for (; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* numpy's np.mean(x) (n >= 1), np.sum((x - c)**2) and scipy's
 * _var(x, ddof=1) (n >= 2), summed in numpy's pairwise order. */
double pvs_np_mean(const double *x, size_t n);
double pvs_np_sumsq(const double *x, size_t n, double c);
double pvs_np_var1(const double *x, size_t n, double mean);

/* 1 when every x[i] is finite. */
int pvs_all_finite(const double *x, size_t n);

/* The median of x[0..n) (n >= 1, no NaN, x untouched) by selection in
 * O(n), tmp[0..n) scratch; the value of a sort and
 * gsl_stats_median_from_sorted_data. */
double pvs_median_select(const double *x, size_t n, double *tmp);

/* The MAD of normal data times this is its sd. */
#define PVS_MAD_SD 1.482602218505602

/* One Hoare partition of x[0..n) (n >= 3, no NaN) around the median of
 * its first, middle and last values: afterwards x[0..*j] <= pivot <=
 * x[*i..n) and *j < *i (what lies between equals the pivot). */
void pvs_partition(double *x, size_t n, size_t *i, size_t *j);

/* The order statistics q - 1, q and q + 1 (0-based; NAN where there is
 * none) of x[0..n) (n >= 1, no NaN, x untouched) into mid[0..3), by
 * selection, tmp[0..n) scratch. */
void pvs_middle3(const double *x, size_t n, double *tmp, size_t q,
		 double mid[3]);

/* changepoint.c's steps 1-4 on a family of series (changepoint.h); with
 * fit, each series' fitted values (its levels and slope) into fit[i].
 * pointeffect.c runs them around step 0. */
struct pv_cp_series;
int pvs_cp_detect(struct pv_cp_series *s, size_t n, double alpha,
		  double **fit, struct pv_err *err);

/* The point a series' value j is (pv_cp_series.point). */
size_t pvs_cp_point(const struct pv_cp_series *x, size_t j);

/* 0 when 0 < conf < 1 and alt is known, else -1 with err filled
 * (PV_EUSAGE). */
int pvs_check_level(double conf, enum pv_alt alt, struct pv_err *err);

/*
 * The end every t-like test shares: statistic d / se (d = mean a -
 * mean b), p for alt at df, shift = -d and its interval at conf (NAN
 * conf: NAN interval), quantiles and tails through the memo m (may be
 * NULL).  se = 0 is zero variance: equal means give t = 0, p = 1,
 * different means t = +-inf and a zero-width interval.
 */
void pvs_t_finish(double d, double se, double df, enum pv_alt alt,
		  double conf, struct pv_tmemo *m, struct pv_test_out *o);

#endif

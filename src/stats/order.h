/*
 * order.h - sorting and order statistics: the median by selection, the
 * MAD's constant, a partition and the middle three order statistics.
 * Shared by the files of src/stats (through internal.h) and by history's
 * detector and pooled gate (src/history), which are statistics' clients.
 * Each is defined in summary.c.
 */
#ifndef PV_STATS_ORDER_H
#define PV_STATS_ORDER_H

#include <stddef.h>

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

#endif

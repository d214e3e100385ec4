/*
 * summary.c - sums in numpy's order, mean and sd, order statistics and
 * selection; see summary.h.
 */
#include "summary.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../util/err.h"
#include "../util/banned.h"


/* Sort ascending: insertion sort up to 32 values (the handful of runs
 * a benchmark has), GSL's sort beyond. */
void pvs_sort(double *x, size_t n)
{
	if (n > 32) {
		gsl_sort(x, 1, n);
		return;
	}
	pvs_sort_small(x, n);
}

/*
 * numpy's pairwise_sum for float64: sequential below 8 values, eight
 * interleaved accumulators up to 128, recursive halving above.  With
 * sq set, sums (x[i] - c)^2 instead, as numpy does for
 * np.mean((x - c)**2).  np.add.reduce starts from 0.0 and adds this.
 * TERM is the summand; the two instances differ only in it (they are
 * apart so that the hot small-n loops carry no test of sq).
 */
#define NP_PAIRWISE(name, TERM)						\
static double name(const double *x, size_t n, double c)		\
{									\
	double r[8], res;						\
	size_t i, j;							\
									\
	(void)c;							\
	if (n < 8) {							\
		res = 0.0;						\
		for (i = 0; i < n; i++)					\
			res += TERM(x[i]);				\
		return res;						\
	}								\
	if (n <= 128) {							\
		for (j = 0; j < 8; j++)					\
			r[j] = TERM(x[j]);				\
		for (i = 8; i < n - n % 8; i += 8)			\
			for (j = 0; j < 8; j++)				\
				r[j] += TERM(x[i + j]);			\
		res = ((r[0] + r[1]) + (r[2] + r[3])) +			\
		      ((r[4] + r[5]) + (r[6] + r[7]));			\
		for (; i < n; i++)					\
			res += TERM(x[i]);				\
		return res;						\
	}								\
	i = n / 2;							\
	i -= i % 8;							\
	return name(x, i, c) + name(x + i, n - i, c);			\
}

#define NP_VALUE(v) (v)
#define NP_SQDEV(v) (((v) - c) * ((v) - c))
#define NP_SHIFT(v) ((v) - c)
NP_PAIRWISE(np_pairwise_sum, NP_VALUE)
NP_PAIRWISE(np_pairwise_sq, NP_SQDEV)
NP_PAIRWISE(np_pairwise_shift, NP_SHIFT)
#undef NP_VALUE
#undef NP_SQDEV
#undef NP_SHIFT
#undef NP_PAIRWISE

double pvs_np_sumsq(const double *x, size_t n, double c)
{
	return 0.0 + np_pairwise_sq(x, n, c);
}

/*
 * The mean as x[0] + mean(x - x[0]): identical values give that value
 * exactly, so their variance is exactly 0 (numpy's plain sum makes
 * three runs of 2833.37 2833.3700000000003, sd 5.6e-13).  Elsewhere it
 * differs from np.mean in the last bits at most.  Should the shift
 * overflow (or x[0] be infinite), the plain sum is used.
 */
double pvs_np_mean(const double *x, size_t n)
{
	double m;

	if (n == 0)
		return NAN;
	m = x[0] + (0.0 + np_pairwise_shift(x, n, x[0])) / (double)n;
	if (!isfinite(m))
		m = (0.0 + np_pairwise_sum(x, n, 0.0)) / (double)n;
	return m;
}

/* scipy's _var(x, ddof=1): mean of squared deviations times n/(n-1). */
double pvs_np_var1(const double *x, size_t n, double mean)
{
	double v = pvs_np_sumsq(x, n, mean) / (double)n;

	return v * ((double)n / (double)(n - 1));
}

int pvs_all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/*
 * Rearrange x[0..n) so that x[k] is the k-th smallest (0-based), those
 * before it no larger and those after it no smaller (Hoare's find with
 * a median-of-3 pivot).  No NaN in x.
 */
void pvs_partition(double *x, size_t n, size_t *pi, size_t *pj)
{
	double a = x[0], b = x[n / 2], c = x[n - 1], piv, t;
	size_t i = 0, j = n - 1;

	piv = a < b ? (b < c ? b : a < c ? c : a) :
		      (a < c ? a : b < c ? c : b);
	while (i <= j) {
		while (x[i] < piv)
			i++;
		while (x[j] > piv)
			j--;
		if (i <= j) {
			t = x[i];
			x[i++] = x[j];
			x[j--] = t;
		}
	}
	*pi = i;
	*pj = j;
}

static void select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo + 16) {
		size_t i, j;

		pvs_partition(x + lo, hi - lo + 1, &i, &j);
		i += lo;
		j += lo;
		/* now x[lo..j] <= piv <= x[i..hi], and j < i */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;         /* between j and i: equal to piv */
	}
	pvs_sort(x + lo, hi - lo + 1);
}

/*
 * Median of x[0..n), n >= 1, no NaN, using tmp[0..n) as scratch: the
 * same two middle order statistics gsl_stats_median_from_sorted_data
 * takes from a sorted copy, found by selection in O(n).
 */
double pvs_median_select(const double *x, size_t n, double *tmp)
{
	double hi, lo;
	size_t i;

	memcpy(tmp, x, n * sizeof(*tmp));
	if (n <= 32) {
		pvs_sort(tmp, n);
		return gsl_stats_median_from_sorted_data(tmp, 1, n);
	}
	select_kth(tmp, n, n / 2);
	hi = tmp[n / 2];
	if (n % 2)
		return hi;
	lo = tmp[0];
	for (i = 1; i < n / 2; i++)
		if (tmp[i] > lo)
			lo = tmp[i];
	return (lo + hi) / 2;
}

void pvs_middle3(const double *x, size_t n, double *tmp, size_t q,
		 double mid[3])
{
	memcpy(tmp, x, n * sizeof(*tmp));
	select_kth(tmp, n, q);
	mid[1] = tmp[q];
	mid[0] = mid[2] = NAN;
	for (size_t i = 0; i < q; i++)
		if (!(tmp[i] <= mid[0]))
			mid[0] = tmp[i];
	for (size_t i = q + 1; i < n; i++)
		if (!(tmp[i] >= mid[2]))
			mid[2] = tmp[i];
}

/* Median of x[0..n), n >= 1, using tmp[0..n) as scratch. */
static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof(*tmp));
	pvs_sort(tmp, n);
	return gsl_stats_median_from_sorted_data(tmp, 1, n);
}

/* n, mean, sd and cv of pv_summarize(), the rest NAN; 0 when n = 0 or
 * x holds a NaN (then all but n are NAN). */
static int moments(const double *x, size_t n, struct pv_summary *s)
{
	s->n = n;
	s->mean = s->sd = s->cv = s->median = s->min = s->max = NAN;
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return 0;
	s->mean = pvs_np_mean(x, n);
	if (n >= 2)
		s->sd = sqrt(pvs_np_var1(x, n, s->mean));
	if (!isnan(s->sd) && s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
	return 1;
}

/*
 * No scan for NaN first: a NaN in x makes the sum, and so the mean and
 * every squared deviation, NaN by itself, which is what
 * pv_summarize() sets when it finds one.
 */
void pv_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double m = n ? pvs_np_mean(x, n) : NAN;

	*mean = m;
	if (sd)
		*sd = n >= 2 ? sqrt(pvs_np_var1(x, n, m)) : NAN;
}

void pv_order_stats(const double *x, size_t n, double *median, double *min,
		    double *max)
{
	double small[SMALL_N], *tmp;

	*median = *min = *max = NAN;
	if (n == 0)
		return;
	tmp = n <= SMALL_N ? small : pv_reallocarray(NULL, n, sizeof(*tmp));
	*median = median_of(x, n, tmp);
	*min = tmp[0];
	*max = tmp[n - 1];
	if (tmp != small)
		free(tmp);
}

void pv_summarize(const double *x, size_t n, struct pv_summary *s)
{
	if (moments(x, n, s))
		pv_order_stats(x, n, &s->median, &s->min, &s->max);
}

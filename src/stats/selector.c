/*
 * selector.c - the family-wide statistics that pick the test; see
 * selector.h.
 */
#include "selector.h"
#include "internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../util/err.h"
#include "../util/banned.h"

/* gsl_stats_median_from_sorted_data, inline: n >= 1. */
static double median_sorted(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : (x[(n - 1) / 2] + x[n / 2]) / 2.0;
}

/* The sorted x[0..nx) minus cx, and y[0..ny) minus cy, merged into out:
 * subtracting a constant keeps the order, so these are the residuals
 * sorted. */
static void merge_shifted(const double *x, size_t nx, double cx,
			  const double *y, size_t ny, double cy, double *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < nx && j < ny) {
		double u = x[i] - cx, v = y[j] - cy;

		if (u <= v)
			out[k++] = u, i++;
		else
			out[k++] = v, j++;
	}
	while (i < nx)
		out[k++] = x[i++] - cx;
	while (j < ny)
		out[k++] = y[j++] - cy;
}

/*
 * Copy x[0..n) to out in ascending order.  Ten runs a side is the
 * common case, and for it a sorting network (Waksman's 29 comparators,
 * checked on all 2^10 inputs of zeros and ones) sorts in registers
 * without branches.
 * x holds no NaN (the caller checked the sums), and equal values are
 * equal bit for bit (logs are never -0), so the order of the output is
 * that of pvs_sort() exactly.
 */
static void sorted_copy(const double *x, size_t n, double *out)
{
	double v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, t;

	if (n != 10) {
		memcpy(out, x, n * sizeof(*out));
		pvs_sort(out, n);
		return;
	}
	v0 = x[0], v1 = x[1], v2 = x[2], v3 = x[3], v4 = x[4];
	v5 = x[5], v6 = x[6], v7 = x[7], v8 = x[8], v9 = x[9];
#define CX(i, j) (t = v##i < v##j ? v##i : v##j, \
		  v##j = v##i < v##j ? v##j : v##i, v##i = t)
	CX(4, 9); CX(3, 8); CX(2, 7); CX(1, 6);
	CX(0, 5); CX(1, 4); CX(6, 9); CX(0, 3);
	CX(5, 8); CX(0, 2); CX(3, 6); CX(7, 9);
	CX(0, 1); CX(2, 4); CX(5, 7); CX(8, 9);
	CX(1, 2); CX(4, 6); CX(7, 8); CX(3, 5);
	CX(2, 5); CX(6, 8); CX(1, 3); CX(4, 7);
	CX(2, 3); CX(6, 7); CX(3, 4); CX(5, 6);
	CX(4, 5);
#undef CX
	out[0] = v0, out[1] = v1, out[2] = v2, out[3] = v3, out[4] = v4;
	out[5] = v5, out[6] = v6, out[7] = v7, out[8] = v8, out[9] = v9;
}

/*
 * The median of |r[i] - med| for sorted r[0..n): below the first index
 * at or above med these grow leftwards, from it on rightwards, so the
 * two runs are merged from the middle out, and only up to the median.
 */
static double mad_sorted(const double *r, size_t n, double med)
{
	size_t right = 0, stop = n / 2, k;
	ptrdiff_t left;
	double prev = 0, d = 0;

	while (right < n && r[right] < med)
		right++;
	left = (ptrdiff_t)right - 1;
	for (k = 0; k <= stop; k++) {
		double dl = left >= 0 ? fabs(r[left] - med) : INFINITY;
		double dr = right < n ? fabs(r[right] - med) : INFINITY;

		prev = d;
		if (dl <= dr)
			d = dl, left--;
		else
			d = dr, right++;
	}
	return n % 2 ? d : (prev + d) / 2.0;
}

void pv_selector_add(struct pv_selector *sel, const double *la, size_t na,
		     const double *lb, size_t nb, double *scratch)
{
	double *sa = scratch, *sb = sa + na, *r = sb + nb;
	double ma = 0, mb = 0, m2 = 0, m4 = 0, med, scale, t;
	size_t n = na + nb, i, j;

	if (na < PV_GROSS_MIN_N || nb < PV_GROSS_MIN_N)
		return;
	for (i = 0; i < na; i++)
		ma += la[i];
	for (i = 0; i < nb; i++)
		mb += lb[i];
	/* a log that is not finite makes its sum so (|log| < 745 cannot
	 * overflow): a value that was not positive and finite */
	if (!isfinite(ma) || !isfinite(mb))
		return;

	/* kurtosis of the residuals from each side's mean */
	ma /= (double)na;
	mb /= (double)nb;
	for (i = 0; i < na; i++) {
		t = la[i] - ma;
		m2 += t * t;
		m4 += t * t * t * t;
	}
	for (i = 0; i < nb; i++) {
		t = lb[i] - mb;
		m2 += t * t;
		m4 += t * t * t * t;
	}
	m2 /= (double)n;
	m4 /= (double)n;
	if (m2 > 0) {
		sel->ksum += m4 / (m2 * m2);
		sel->kused++;
	}

	/* gross errors: residuals from each side's median beyond K robust
	 * sd (1.4826 MAD of the pooled residuals) */
	sorted_copy(la, na, sa);
	sorted_copy(lb, nb, sb);
	merge_shifted(sa, na, median_sorted(sa, na), sb, nb,
		      median_sorted(sb, nb), r);
	med = median_sorted(r, n);
	scale = 1.4826 * mad_sorted(r, n, med);
	if (!(scale > 0))
		return;
	sel->total += n;
	/* |r| > K scale at the two ends of the sorted residuals */
	t = PV_GROSS_K * scale;
	for (i = 0; i < n && r[i] < -t; i++)
		sel->gross++;
	for (j = n; j > i && r[j - 1] > t; j--)
		sel->gross++;
}

double pv_selector_gross(const struct pv_selector *sel)
{
	return sel->total ? (double)sel->gross / (double)sel->total : NAN;
}

double pv_selector_kurtosis(const struct pv_selector *sel)
{
	return sel->kused ? sel->ksum / (double)sel->kused : NAN;
}

/* Both selectors over a family of raw samples: each metric's logs into
 * one scratch buffer, then pv_selector_add(). */
static void selector_family(struct pv_selector *sel, const double *const *a,
			    const size_t *na, const double *const *b,
			    const size_t *nb, size_t m)
{
	double small[4 * SMALL_N], *buf = NULL, *l;
	size_t k, i, n, cap = 0;
	int ok;

	memset(sel, 0, sizeof(*sel));
	for (k = 0; k < m; k++)
		if (na[k] + nb[k] > cap)
			cap = na[k] + nb[k];
	l = cap <= SMALL_N ? small : ALLOC_ARRAY(buf, st_mult(4, cap));
	for (k = 0; k < m; k++) {
		n = na[k] + nb[k];
		ok = 1;
		for (i = 0; i < n && ok; i++) {
			double v = i < na[k] ? a[k][i] : b[k][i - na[k]];

			ok = isfinite(v) && v > 0;
			l[i] = log(v);
		}
		if (ok)
			pv_selector_add(sel, l, na[k], l + na[k], nb[k], l + n);
	}
	free(buf);
}

double pv_gross_fraction(const double *const *a, const size_t *na,
			 const double *const *b, const size_t *nb, size_t m)
{
	struct pv_selector sel;

	selector_family(&sel, a, na, b, nb, m);
	return pv_selector_gross(&sel);
}


/*
 * cp_scale.c - a series' noise scale and its spikes
 * (docs/changepoint.md sections 1 and 2).
 */
#include "cp.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include "internal.h"
#include "../util/banned.h"

/* A spike is further than this many sds from its local median: under
 * normal noise a point is that far from the median of five about once
 * in 3,000 points, and then replacing it changes nothing that matters;
 * a 1.5x outlier in 3% noise is 13 sds. */
#define SPIKE_K 4.0
/* The scale is the larger of two robust estimates from the successive
 * differences, each made consistent for normal noise: their MAD about
 * their median, and their root mean square about it less the largest
 * SCALE_TRIM of them (at least SCALE_TRIM_MIN: a step moves one
 * difference, a spike two).  The MAD is the more robust to the heavy
 * tails of real benchmarks; the trimmed mean square is not fooled by
 * noise of two modes, where half the differences are near 0 and the MAD
 * reads a fraction of the noise.  The square of the larger is biased up
 * by about SCALE_BIAS_1 / n + SCALE_BIAS_H / sqrt(n) at n = L - 1
 * differences, and has the precision of a sample variance on
 * SCALE_DF_PER_DIFF n - 1 degrees of freedom (by simulation, 40,000
 * normal series at L = 10-300: bias 18% at 20 points, 6% at 100, 3% at
 * 300; df 0.34-0.37 of n). */
#define SCALE_TRIM 0.25
#define SCALE_TRIM_MIN 2
#define SCALE_DF_PER_DIFF 0.37
#define SCALE_BIAS_1 1.6
#define SCALE_BIAS_H 0.5
/* Nearest neighbours on each side in a spike's local median. */
#define SPIKE_HALF 2
/* A point's local scale is the scale of the successive differences
 * within LOCAL_W points of it, used where it is more than LOCAL_K times
 * the series' scale.  Under white noise the scale of 16 differences
 * (about 8 df) is twice the series' once in 10,000 windows; a series quiet
 * in one stretch and 1% noisy in another (a benchmark moved to another
 * machine) is read at each stretch's own scale, not as steps of the
 * noisy one's noise. */
#define LOCAL_W 8
#define LOCAL_K 2.0

double pvs_cpn_scale_df(size_t L)
{
	double df = SCALE_DF_PER_DIFF * (double)(L - 1) - 1;

	return df < 1 ? 1 : df;
}

/* The scale of the n differences d (overwritten), n >= 1. */
static double diff_scale(double *d, size_t n, double *tmp, int mad_only)
{
	size_t drop = (size_t)ceil(SCALE_TRIM * (double)n), k;
	double med = pvs_median_select(d, n, tmp), ss = 0, p, c, cons, mad;

	if (drop < SCALE_TRIM_MIN)
		drop = SCALE_TRIM_MIN;
	k = n > drop ? n - drop : 1;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(d[i] - med);
	pvs_sort(d, n);
	mad = PVS_MAD_SD * (n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]));
	for (size_t i = 0; i < k; i++)
		ss += d[i] * d[i];
	p = (double)k / (double)n;
	c = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * p);
	cons = p < 1 ? (p - 2 * c * gsl_ran_ugaussian_pdf(c)) / p : 1;
	ss = mad_only ? 0 : ss / (double)k / cons;
	return sqrt(fmax(ss, mad * mad) / (2 * (1 + SCALE_BIAS_1 / (double)n +
					       SCALE_BIAS_H / sqrt((double)n))));
}

double pvs_cpn_scale(const double *y, size_t L, double *tmp)
{
	double *d = tmp;

	for (size_t i = 0; i + 1 < L; i++)
		d[i] = y[i + 1] - y[i];
	return diff_scale(d, L - 1, tmp + L, 0);
}

void pvs_cpn_local_scale(const double *y, size_t L, double sd, double *sdi,
			 double *tmp)
{
	double *d = tmp, *w = tmp + L, *e = w + 2 * LOCAL_W + 1;

	for (size_t i = 0; i + 1 < L; i++)
		d[i] = y[i + 1] - y[i];
	for (size_t i = 0; i < L; i++) {
		size_t a = i >= LOCAL_W ? i - LOCAL_W : 0;
		size_t b = i + LOCAL_W < L - 1 ? i + LOCAL_W : L - 1;
		double loc;

		sdi[i] = sd;
		if (b <= a + SCALE_TRIM_MIN)
			continue;
		for (size_t j = a; j < b; j++)
			w[j - a] = d[j];
		loc = diff_scale(w, b - a, e, 1);
		if (loc > LOCAL_K * sd)
			sdi[i] = loc;
	}
}

size_t pvs_cpn_despike(const double *y, size_t L, const double *sd,
		       double *out)
{
	size_t changed = 0;

	for (size_t i = 0; i < L; i++) {
		size_t a = i >= SPIKE_HALF ? i - SPIKE_HALF : 0;
		size_t b = i + SPIKE_HALF + 1 < L ? i + SPIKE_HALF + 1 : L;
		double w[2 * SPIKE_HALF + 1], tmp[2 * SPIKE_HALF + 1], m;

		for (size_t j = a; j < b; j++)
			w[j - a] = y[j];
		m = pvs_median_select(w, b - a, tmp);
		out[i] = y[i];
		if (fabs(y[i] - m) > SPIKE_K * sd[i]) {
			out[i] = m;
			changed++;
		}
	}
	return changed;
}

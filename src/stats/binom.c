/* stats_binom.c - Wilson's score interval; see stats_binom.h. */
#include "binom.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include "../util/banned.h"

void pv_wilson_interval(unsigned long k, unsigned long n, double level,
			double *lo, double *hi)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + level / 2);
	double z2 = z * z, nn = (double)n, p = (double)k / nn;
	double denom = 1 + z2 / nn;
	double center = (p + z2 / (2 * nn)) / denom;
	double half = z / denom * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));

	/* At k = 0 or n the interval touches 0 or 1 exactly. */
	*lo = k == 0 ? 0 : fmax(0, center - half);
	*hi = k == n ? 1 : fmin(1, center + half);
}

/*
 * effect.c - sizes of effects; see effect.h.
 */
#include "effect.h"

#include <math.h>
#include "../util/banned.h"

double pv_rel_change(double a, double b)
{
	return a != 0 ? (b - a) / fabs(a) : NAN;
}

double pv_mde_memo(double se, double df, double alpha, int two_sided,
		   double power, struct pv_tmemo *m)
{
	if (!(se >= 0) || !(df > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return NAN;
	return (pv_t_quantile_memo(m, 1 - (two_sided ? alpha / 2 : alpha), df) +
		pv_t_quantile_memo(m, power, df)) * se;
}

double pv_mde(double se, double df, double alpha, int two_sided,
	      double power)
{
	return pv_mde_memo(se, df, alpha, two_sided, power, NULL);
}

double pv_runs_to_detect(size_t n, double mde, double target)
{
	if (!(isfinite(mde) && mde > 0 && isfinite(target) && target > 0))
		return NAN;
	return ceil((double)n * (mde / target) * (mde / target));
}

/* excursion.c - the newest points' unconfirmed move; see excursion.h. */
#include "excursion.h"

#include <math.h>
#include "changepoint.h"
#include "../stats/tdist.h"
#include "../util/banned.h"

static double mean_of(const double *y, size_t a, size_t b)
{
	double s = 0;

	for (size_t j = a; j < b; j++)
		s += y[j];
	return s / (double)(b - a);
}

void pv_cp_end_excursion(const double *y, size_t from, size_t L, double sd,
			 double df, size_t tests, double alpha,
			 struct pv_cp_excursion *out)
{
	size_t tried = 0;

	*out = (struct pv_cp_excursion){ .p = NAN, .q = NAN, .t = NAN };
	if (!(sd > 0) || !isfinite(sd) || !(df > 0) || from >= L)
		return;
	for (size_t k = 1; k < PV_CP_MIN_SEG; k++)
		tried += L - from >= k + PV_CP_MIN_SEG;
	for (size_t k = 1; k < PV_CP_MIN_SEG; k++) {
		size_t rest;
		double before, after, t, p;

		if (L - from < k + PV_CP_MIN_SEG)
			break;
		rest = L - from - k;
		before = mean_of(y, from, L - k);
		after = mean_of(y, L - k, L);
		t = (after - before) / (sd * sqrt(1.0 / (double)k + 1.0 / (double)rest));
		p = 2 * pv_t_sf(fabs(t), df);
		/* the largest |t| is the smallest p, also where p underflows */
		if (out->k && !(fabs(t) > fabs(out->t)))
			continue;
		out->k = k;
		out->before = before;
		out->after = after;
		out->delta = after - before;
		out->t = t;
		out->df = df;
		out->p = p;
	}
	if (!out->k)
		return;
	out->q = out->p * (double)tried * (double)(tests ? tests : 1);
	if (out->q > 1)
		out->q = 1;
	out->significant = out->q <= alpha;
}

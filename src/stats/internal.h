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
#include "order.h"

/* numpy's np.mean(x) (n >= 1), np.sum((x - c)**2) and scipy's
 * _var(x, ddof=1) (n >= 2), summed in numpy's pairwise order. */
double pvs_np_mean(const double *x, size_t n);
double pvs_np_sumsq(const double *x, size_t n, double c);
double pvs_np_var1(const double *x, size_t n, double mean);

/* 1 when every x[i] is finite. */
int pvs_all_finite(const double *x, size_t n);

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

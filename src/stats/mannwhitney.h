/*
 * mannwhitney.h - the Mann-Whitney U test, with the Hodges-Lehmann
 * estimate of the shift and its distribution-free interval.
 * Conventions in result.h.
 */
#ifndef PV_STATS_MANNWHITNEY_H
#define PV_STATS_MANNWHITNEY_H

#include <stddef.h>
#include "../util/err.h"
#include "result.h"

/*
 * Mann-Whitney U, matching scipy.stats.mannwhitneyu(a, b,
 * alternative=..., method='auto') of scipy 1.10: the exact distribution
 * when at least one sample has 8 values or fewer (not both > 8) and
 * there are no ties, otherwise the normal approximation with tie and
 * continuity corrections.  statistic = U1 = U of a.
 * shift/ci are the Hodges-Lehmann estimate of b - a (the median of all
 * b[j] - a[i]) and its distribution-free (Moses) interval: order
 * statistics k and mn+1-k of those differences, k the smallest with
 * P(U <= k) >= (1-conf)/2 (at least 1).  P is the exact distribution of
 * U when there are no ties and the test was exact or both samples are
 * below 50 (so the interval is R's wilcox.test(b, a, conf.int=TRUE)),
 * and otherwise the tie-corrected normal approximation with continuity
 * correction.  The na*nb differences are never stored: order statistics
 * are selected in O((na + nb) log) passes.
 * Needs na, nb >= 1, finite values and 0 < conf < 1.
 */
int pv_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		   enum pv_alt alt, double conf, struct pv_test_out *o,
		   struct pv_err *err);

#endif

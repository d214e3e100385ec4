/*
 * cp.h - the parts of the designed change-point detector
 * (docs/changepoint.md): the noise scale and spikes (cp_scale.c), the
 * search (cp_search.c) and the fit that chooses between steps and a
 * slope (cp_fit.c).  Internal to src/stats; the program's contract is
 * changepoint.h's struct pv_cp_series.
 */
#ifndef PV_STATS_CP_H
#define PV_STATS_CP_H

#include <stddef.h>
#include "changepoint.h"

/* Every segment has at least this many points: a level that returns
 * after 1-2 points is not a change (labelling.md).  A series with many
 * spikes needs more (cp_fit.c's min_seg()). */
#define PVS_CPN_MIN_SEG 3

/* cp_scale.c.  The noise sd of y[0..L) (L >= 2): the trimmed root mean
 * square of the successive differences read as a normal sd, less its
 * small-sample bias.  tmp: 2L doubles. */
double pvs_cpn_scale(const double *y, size_t L, double *tmp);
/* The degrees of freedom of pvs_cpn_scale()'s variance at L points. */
double pvs_cpn_scale_df(size_t L);
/* Each point's scale into sdi[0..L): the series' sd, or the local one
 * where that is much larger (section 1).  tmp: 3L + 40 doubles. */
void pvs_cpn_local_scale(const double *y, size_t L, double sd, double *sdi,
			 double *tmp);
/* y less its spikes into out (y and out may not overlap): a value
 * further than the spike limit (of its scale sd[i]) from the median of
 * itself and its four nearest neighbours becomes that median.  Returns
 * how many changed. */
size_t pvs_cpn_despike(const double *y, size_t L, const double *sd,
		       double *out);

/* cp_search.c.  Optimal partitioning (PELT) of y[0..L) into segments of
 * at least m >= 1 points minimising the weighted sum of squared
 * deviations from the segments' weighted means (weights w[i] > 0: the
 * inverse variances) plus pen for every change point.  The change
 * points (each the first index of a new segment, ascending) go to cp[];
 * returns their count (at most L / m). */
size_t pvs_cpn_search(const double *y, const double *w, size_t L,
		      size_t m, double pen, size_t *cp);
/* The weighted sum of squared deviations of y[a..b) from their weighted
 * mean, and that mean into *mean (when not NULL). */
double pvs_cpn_ss(const double *y, const double *w, size_t a, size_t b,
		  double *mean);

/* Parts of the method to leave out, for the ablation of
 * docs/changepoint.md (tests/tools/cpdetect); the program leaves out
 * none (all 0). */
struct pvs_cpn_without {
	int local;              /* one scale a series (section 1) */
	int spikes;             /* no spike replaced (section 2) */
	int slope;              /* steps only (section 5) */
	int shared;             /* no shared point effect (section 6) */
};

/* cp_fit.c.  The change points and trend of every series of a family at
 * family-wise level alpha (docs/changepoint.md sections 1-5, 7); fills
 * clipped, robust_sd, sd, df, cp, ncp and trend as pv_cp_family() does. */
int pvs_cpn_family(struct pv_cp_series *s, size_t n, double alpha,
		   const struct pvs_cpn_without *wo, struct pv_err *err);

/* cp_shared.c.  pvs_cpn_family() with the family's shared point effect
 * (section 6): fills adjusted and shared_beta too, and *out when not
 * NULL, as pv_cp_family_shared() does. */
int pvs_cpn_family_shared(struct pv_cp_series *s, size_t n, double alpha,
			  struct pv_cp_shared *out,
			  const struct pvs_cpn_without *wo, struct pv_err *err);
/* The critical t^2 of a two-sided test at level a on df. */
double pvs_cpn_crit2(double a, double df);

#endif

/*
 * changepoint_int.h - what the files of the change-point detector share
 * and nothing else uses (changepoint.h is the contract): the state of a
 * series' search and the functions each file lends the others.  The
 * files, by concern:
 *   changepoint_scale.c   point values, the robust scale, spikes (step 1),
 *                         the family's moderated sd;
 *   changepoint_search.c  the t of a split and of a bump, binary
 *                         segmentation and its refinement (step 2);
 *   changepoint_fit.c     steps against a slope, the trend (steps 2-4);
 *   changepoint_cand.c    the commits other series stepped at (step 2b);
 *   changepoint.c         the driver, pvs_cp_detect() (steps 1-4);
 *   pointeffect.c         the shared point effect (step 0) and the
 *                         family's entry point, pv_cp_family_shared().
 */
#ifndef PV_HISTORY_CHANGEPOINT_INT_H
#define PV_HISTORY_CHANGEPOINT_INT_H

#include <math.h>
#include <stddef.h>
#include "changepoint.h"
#include "../stats/order.h"
#include "../stats/tdist.h"
#include "../util/err.h"

/* changepoint.c's steps 1-4 on a family of series (changepoint.h); with
 * fit, each series' fitted values (its levels and slope) into fit[i].
 * pointeffect.c runs them around step 0. */
struct pv_cp_series;
int pvs_cp_detect(struct pv_cp_series *s, size_t n, double alpha,
		  double **fit, struct pv_err *err);

/* The point a series' value j is (pv_cp_series.point). */
size_t pvs_cp_point(const struct pv_cp_series *x, size_t j);

/* The longest bump (a level that came and went inside a segment) that
 * is searched for: a longer one moves its segment's mean enough for a
 * single split to find its edges, and the search stays O(L x this). */
#define PV_CP_MAX_BUMP 100

/* The median |difference| of normal noise of sd 1 (Phi^-1(3/4) sqrt 2). */
#define MEDIAN_DIFF_SD (0.6744897501960817 * M_SQRT2)

/* What step 1 found of a series besides its values. */
struct clip {
	double sd;              /* the robust sd */
	double first;           /* ... before the gross points went */
	double gross;           /* the gross limit */
	double gross_in;        /* ... of a short level inside the series
				 * (side_outliers()) */
	size_t ngross;          /* how many went as gross (a noisy
				 * neighbour's rate, pvs_cp_outlier_rates()) */
};

/*
 * Prefix sums over one series: s[i] = z[0] + ... + z[i-1] of the values
 * less a line (z[j] = y[j] - beta * j - ref), v[i] the same of the
 * points' variances.
 */
struct psum {
	double *s, *v, *sx;     /* sx: the same of j * z[j] */
	double ref, beta;
	double bvar;    /* the variance of beta (0: no slope in the model) */
	double tol2;    /* a variance of rounding: the floor of every se^2 */
	double cvar;    /* the variance of every point when they are one
			 * (finite), else NAN: pvs_cp_best_bump()'s bound */
};

/* A series' change points: n indices, ascending, in k[0 .. alloc). */
struct cpset {
	size_t *k;
	size_t n, alloc;
};

/* What a series' search is held to in a round (the driver's
 * series_limits()). */
struct limits {
	double df;              /* the scale's degrees of freedom */
	double split_p;         /* a split's p at most this: alpha over all
				 * the family's split positions */
	double bump_p;          /* a bump's: alpha over all its bumps */
	double line_p;          /* a slope's: alpha over the series */
	const double *raw;      /* the values before the clipping */
	double gross;           /* the clipping's gross limit */
	double gross_in;        /* ... for a level inside the series */
	size_t L;
	double rate;            /* the series' rate of gross points */
	double cap;             /* a residual's most in the sd and the slope
				 * (step 3: cap_of()) */
};

/*
 * Step 2b: a commit other series stepped at.  The points where at least
 * PV_CP_CAND_SUPPORT gated series of the family have a change point
 * (found by step 2, at its levels) are candidates in every series.  Each
 * is tested at its place, within the segment around it (each side at
 * least PV_CP_MIN_SEG points), at lim->split_p, alpha over every pair of
 * candidate and series; when none is significant, each pair of
 * candidates inside one segment as a bump (a level that came and went),
 * at lim->bump_p, alpha over every such pair and series.  The strongest
 * goes in first and the rest are tested again in the segments it leaves;
 * the gross-point test is step 2's.  Under the family's null no series
 * has a change point, there is no candidate, and the family-wise level
 * is step 2's: a commit that moved two metrics is where a person looks
 * in the others.  The splits added go into added as well as s.
 */
struct cands {
	const size_t *js;       /* a series' candidates, ascending */
	size_t m;
	double chi;             /* describe()'s location interval */
	int singles, bumps;     /* where the level is looser than step 2's */
	size_t *scratch;        /* 2 m */
	struct cpset *keep;     /* scratch */
	int drifts;             /* the family drifts (pvs_cp_family_drifts()) */
};

/* The mean of the detrended values of [a, b) (ref added back). */
static inline double seg_mean(const struct psum *c, size_t a, size_t b)
{
	return (c->s[b] - c->s[a]) / (double)(b - a) + c->ref;
}

/* The variance of that mean: the points' variances over (b - a)^2. */
static inline double seg_var(const struct psum *c, size_t a, size_t b)
{
	double n = (double)(b - a);

	return (c->v[b] - c->v[a]) / (n * n);
}

/* The two-sided p of Student's t on df (0 for an infinite t: a step
 * between constant levels; 1 for NaN). */
static inline double two_sided_p(double t, double df)
{
	double p;

	if (isinf(t))
		return 0;
	if (isnan(t))
		return 1;
	p = 2 * pv_t_sf(fabs(t), df);
	return p > 1 ? 1 : p;
}

/*
 * The most a residual counts for in a series' sd and slope (step 3): the
 * gross limit, PV_CP_GROSS robust sds; none without noise.  A cluster of
 * wild points that step 1 cannot call gross (runs that stopped half-way
 * at three of four points, a stretch that flips between two levels) is
 * not the noise of the clean steps beside it, nor a slope.
 */
static inline double cap_of(const struct pv_cp_series *x)
{
	return x->robust_sd > 0 ? PV_CP_GROSS * x->robust_sd : INFINITY;
}

/* Sum of squares of the positions a..b-1 about their mean. */
static inline double pos_ss(size_t a, size_t b)
{
	double n = (double)(b - a);

	return n * (n * n - 1) / 12;
}

/* The mean of the L points' variances c was built with. */
static inline double mean_var(const struct psum *c, size_t L)
{
	return L ? (c->v[L] - c->v[0]) / (double)L : 0;
}

/*
 * What each file lends the others; each function's contract is above its
 * definition.
 */

/* changepoint_scale.c: medians, step 1's clipping, the local variance,
 * the moderation and the rates of gross points. */
double pvs_cp_median_of(const double *x, size_t n, double *tmp);
double pvs_cp_local_median(const double *y, size_t L, size_t i);
size_t pvs_cp_clip_series(const double *y, size_t L, double floor,
			  double *out, struct clip *o, unsigned char *flag);
void pvs_cp_local_var(const double *y, size_t L, double sd, double *var,
		      double *d);
int pvs_cp_moderate(struct pv_cp_series *s, size_t n, const double *s2,
		    const double *d, double *sd, double *df,
		    struct pv_err *err);
void pvs_cp_outlier_rates(const struct pv_cp_series *s, size_t n,
			  const struct clip *cl, double *rate);

/* changepoint_search.c: prefix sums, splits and bumps, the noisy
 * neighbours' test, the segmentation and the slope it is refined with. */
void pvs_cp_psum_build(struct psum *c, const double *y, const double *var,
		       size_t L, double beta, double bvar);
double pvs_cp_split_t(const struct psum *c, size_t a, size_t k, size_t b);
size_t pvs_cp_best_split(const struct psum *c, size_t a, size_t b,
			 double *tbest);
void pvs_cp_cpset_insert(struct cpset *s, size_t k);
void pvs_cp_cpset_copy(struct cpset *to, const struct cpset *from);
void pvs_cp_cpset_swap(struct cpset *a, struct cpset *b);
double pvs_cp_bump_t2(const struct psum *c, size_t a, size_t i, size_t j,
		      size_t b, double s0, double v0);
size_t pvs_cp_best_bump(const struct psum *c, size_t a, size_t b,
			size_t *jbest, double *tbest);
double pvs_cp_bump_positions(size_t L);
double pvs_cp_split_outliers(const struct psum *c, const struct limits *lim,
			     size_t a, size_t k, size_t b, double level_p);
double pvs_cp_bump_outliers(const struct psum *c, const struct limits *lim,
			    size_t a, size_t i, size_t j, size_t b,
			    double level_p);
double pvs_cp_common_slope(const struct psum *c, size_t L,
			   const struct cpset *s, double *sxx);
double pvs_cp_step_t_sloped(const struct psum *c, size_t a, size_t k,
			    size_t b, double beta, double sxx, double s2);
void pvs_cp_segment(const struct psum *c, size_t L, const struct limits *lim,
		    struct cpset *s);

/* changepoint_fit.c: the slope within segments, steps against a slope,
 * the residuals and fitted values, the trend, the family's drift. */
void pvs_cp_seg_slope(const double *y, size_t L, const struct cpset *s,
		      double cap, double *slope, double *sxx, double *rss);
double pvs_cp_slope_t(double slope, double sxx, double sd);
double pvs_cp_fit_ss(const double *y, const double *w, size_t L,
		     const struct cpset *s, double beta, double cap);
double pvs_cp_var_floor(const double *y, size_t L);
double pvs_cp_fit_steps(const double *y, const double *var, size_t L,
			struct psum *c, const struct limits *lim,
			struct cpset *s, int *replaced, int drifting,
			double *drift_t2);
double pvs_cp_seg_rss(const double *y, size_t L, const struct cpset *s,
		      double beta, double cap, double *rss);
void pvs_cp_seg_fit(const double *y, size_t L, const struct cpset *s,
		    double beta, double *fit);
void pvs_cp_trend(struct pv_cp_series *x, const struct cpset *s,
		  double ntrend, double alpha);
int pvs_cp_family_drifts(const struct pv_cp_series *s, size_t n,
			 const double *t2);

/* changepoint_cand.c: step 2b for one series. */
double pvs_cp_candidates(const struct pv_cp_series *x, struct psum *c,
			 const double *var, const struct limits *lim,
			 const struct cands *cs, double beta, struct cpset *s,
			 struct cpset *added, double *scratch);

#endif

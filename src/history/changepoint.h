/*
 * changepoint.h - change points in a family of point series (the history
 * command): the contract.  docs/changepoint.md specifies the method; the
 * files are changepoint*.c and pointeffect.c (changepoint_int.h says which
 * does what).
 *
 * IN.  A family of n series (struct pv_cp_series), each L finite values,
 * oldest first: one value a point, on the log scale for a metric whose
 * changes are relative (pv_cp_point_values() makes them from the runs).
 * The family shares one level alpha.  A series may carry its own level
 * (alpha), stand outside the family's noise model (alone: its sd is not
 * moderated and it takes no part in the shared effect), be left out of
 * the family's counts (ungated), and name the point each value is
 * (point, for series with missing points) and the way it moves when a
 * point ran slow (sign).
 *
 * OUT.  For each series: its change points cp[0 .. ncp), each the first
 * point of a new level with the levels' means, the step, its interval,
 * its t, df, p and q; its trend beyond the steps; the sd and df its tests
 * used; its values after spikes were clipped.  pv_cp_family_shared() also
 * returns the point effect the series shared, when one was taken out.
 *
 * INVARIANTS.
 *  - Pure: the same family in gives the same numbers out, bit for bit.
 *  - Every segment has at least PV_CP_MIN_SEG points: change points are
 *    ascending, at least PV_CP_MIN_SEG apart and from either end.  A
 *    series shorter than 2 PV_CP_MIN_SEG points has none; one shorter
 *    than 3 points is not tested at all (its trend is left as it was).
 *  - The family-wise level: every test that can add a change point or
 *    a trend is made at alpha divided by the number of tests of its kind
 *    over the gated series of the family (split positions; bumps; pairs
 *    of a candidate point and a series; series, for the trend).  Under
 *    no change, with the noise the model assumes, the chance of a false
 *    split is at most alpha, and of a false bump too; candidates are
 *    tested only where some series stepped.  q is p times its count, at
 *    most 1.
 *  - Robust to spikes: a value more than PV_CP_GROSS robust sds from the
 *    median of itself and its neighbours never makes a change point by
 *    itself; nor do a few such values together, unless as many would be
 *    unlikely at the series' rate of them.
 *  - Noise is a series' own, moderated across the family: a quiet series
 *    in a noisy family is not judged by the family's noise, nor a noisy
 *    one by the family's quiet.
 *  - Steps first: a slope is fitted only when it is significant within
 *    the segments, and a step stays a step unless a line explains it.
 *  - No variance at all leaves rounding's (a billionth of the values): a
 *    step between constant levels (0 -> 1 allocs) has a t in the
 *    billions; equal levels have none.
 *
 * THE STEPS (the code's comments name them):
 *   0. the shared point effect (pointeffect.c): what every series of a
 *      point did at once (a slow machine), estimated from the first run's
 *      residuals and taken out when it takes a share of the median
 *      series' residuals; the run is then repeated on the values less it;
 *   1. spikes and the scale (changepoint_scale.c): the robust sd of the
 *      successive differences, gross values replaced and wild ones
 *      clipped, the sd moderated across the family;
 *   2. levels and one slope (changepoint_search.c, changepoint_fit.c):
 *      binary segmentation by splits and bumps at the family-wise level,
 *      refined, with a slope common to the segments when it is
 *      significant;
 *  2b. candidates (changepoint_cand.c): a point where two or more gated
 *      series stepped is tested in every series, at a level
 *      counted over the candidates;
 *   3. the scale again: the residual sd about the fit, each residual
 *      capped at the gross limit, moderated across the family, with a
 *      noisier neighbourhood's own; steps 2-3 alternate three times;
 *   4. the report: each change point's levels, interval and location
 *      interval, and the trend test, Bonferroni over the series.
 */
#ifndef PV_HISTORY_CHANGEPOINT_H
#define PV_HISTORY_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

/* Every segment has at least this many points: a level that returns
 * after one or two points is a spike's, not a change. */
#define PV_CP_MIN_SEG 3
/* A value this many robust sds from its local median is pulled back to
 * that distance: one wild value moves a short segment's mean no further. */
#define PV_CP_CLIP 3.0
/* A value this many robust sds from its local median is gross, a noisy
 * neighbour (replaced by that median, not a value of the series); so is a
 * pooled baseline's point this far from its history (pooled.c). */
#define PV_CP_GROSS 6.0

struct pv_cp {
	size_t index;           /* first point of the new level */
	size_t index_low, index_high;   /* the location's interval */
	double before, after;   /* segment means of the (clipped) values */
	double delta;           /* after - before */
	double delta_low, delta_high;   /* its 1 - alpha interval */
	double t, df;           /* the segments' t and its degrees of freedom */
	double p;               /* two-sided p of t */
	double q;               /* p, Bonferroni over the family's splits
				 * (a candidate's: over the candidates') */
	int candidate;          /* found at a point another series stepped
				 * at (step 2b) */
};

/* A series' linear trend beyond its steps (within its segments). */
struct pv_cp_trend {
	double slope, se;       /* per point, in the values' scale */
	double t, df, p;
	double q;               /* p, Bonferroni over the family's series */
	int significant;        /* q <= alpha */
	int replaced;           /* splits dropped: the line from the whole
				 * series' slope fitted better */
};

struct pv_cp_series {
	const double *y;        /* L point values, all finite */
	size_t L;
	int alone;              /* not on the family's scale: no moderation */
	double alpha;           /* its own level ([metric] alpha), or 0: the
				 * family's; the Bonferroni counts are the
				 * family's either way */
	int ungated;            /* not counted in the family's Bonferroni
				 * counts (compare corrects over the gated
				 * metrics only); it still shares the prior */
	/* The shared point effect (step 0): which point each value is
	 * (NULL: value j is point j), and which way the series moves when
	 * a point runs slow (+1: up, as times do; -1: down, as rates do;
	 * 0: the series takes no part, neither estimating nor corrected). */
	const size_t *point;
	int sign;
	/* filled by pv_cp_family() */
	double *adjusted;       /* L values less the shared point effect,
				 * the values steps 1-4 saw; NULL when the
				 * family had none (owned) */
	double shared_beta;     /* how much of the shared effect the
				 * series takes (0: none) */
	unsigned char *own_gross; /* L: the points step 1 found gross in
				 * the series' own values, before step 0
				 * (owned; NULL when step 0 was not tried) */
	double *clipped;        /* L values after step 1 (owned) */
	size_t nclipped;        /* values changed by the clipping */
	double robust_sd;       /* step 1's sd */
	double sd, df;          /* the sd and df the final tests used */
	struct pv_cp *cp;       /* ncp change points, oldest first (owned) */
	size_t ncp;
	struct pv_cp_trend trend;
};

/* Find the change points of every series: a family-wise level alpha
 * (each series' own alpha where it has one). */
int pv_cp_family(struct pv_cp_series *s, size_t n, double alpha,
		 struct pv_err *err);

/* The shared point effect of a family (step 0), for the reports. */
struct pv_cp_shared {
	int applied;            /* the series' values were adjusted */
	size_t np;              /* points: 1 + the largest point index */
	double *effect;         /* np: each point's effect on the values'
				 * scale less the effect's own levels, NAN
				 * where too few series had the point (owned) */
	double sd;              /* the effect's robust sd over the points
				 * (its MAD about 0, as an sd) */
};

/* pv_cp_family(), and the shared effect into *out (when out is not
 * NULL; release it with pv_cp_shared_release()). */
int pv_cp_family_shared(struct pv_cp_series *s, size_t n, double alpha,
			struct pv_cp_shared *out, struct pv_err *err);
void pv_cp_shared_release(struct pv_cp_shared *out);
/* Frees what pv_cp_family() filled in a series (adjusted, own_gross,
 * clipped, cp); the series' inputs are the caller's. */
void pv_cp_series_release(struct pv_cp_series *s);

/*
 * A point's value (history): the mean of its n runs x, on the log scale
 * when logscale (NAN if a run is not positive), leaving out runs further
 * than tau from the runs' median; with one or two runs, their mean.
 * tau comes from pv_cp_run_tau(): 5 robust within-point sds, from the
 * runs' deviations from their point medians pooled over the series (the
 * larger of their MAD's and their quarter-trimmed RMS's estimate, so
 * runs of two modes are both kept; lv: the runs on the scale used; point
 * j's runs are lv[off[j] .. off[j]+n[j])), INFINITY when no point has 3
 * runs.
 */
double pv_cp_run_tau(const double *lv, const uint32_t *n, const size_t *off,
		     size_t npoints, size_t nruns);
double pv_cp_point_value(const double *x, size_t n, int logscale,
			 double tau);
/* pv_cp_run_tau() (returned) and every point's pv_cp_point_value() at
 * that tau into value[0..npoints), of runs lv already on the scale used
 * (their logs when logscale, every run positive): the runs are not
 * taken on it again, and each point's median run is found once. */
double pv_cp_point_values(const double *lv, const uint32_t *n,
			  const size_t *off, size_t npoints, size_t nruns,
			  double *value);
/* Step 1 alone, for tests: clipped values into out, the robust sd into
 * *sd; returns how many values were clipped. */
size_t pv_cp_clip(const double *y, size_t L, double *out, double *sd);

/* The number of split positions of a series of L points. */
size_t pv_cp_positions(size_t L);

#endif

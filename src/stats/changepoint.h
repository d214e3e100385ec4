/*
 * changepoint.h - step changes in a family of point series (the history
 * command).  Pure: the same numbers in give the same change points out.
 *
 * Each series is one metric's point values, oldest first: one number per
 * point (a log mean of its runs, say).  The method, chosen with
 * ../shared/sim/cpsim.py and a labelled corpus of real histories
 * (tests/data/cp-corpus, docs/history.md):
 *
 *   0. the shared point effect: when a point ran on a slower or faster
 *      machine, every series of the point moves together.  Steps 1-4 are
 *      run once; the effect at each point is the median, over the other
 *      series (leave one out), of their residuals about their fitted
 *      levels, less the effect series' own levels (a step that every
 *      series took at once stays a step; found at alpha over the
 *      square root of the series' count); each series takes it with its
 *      own weight (least squares with Huber weights, shrunk by its
 *      t: 1 - 1/t^2).  When the weights' sum of t^2 is significant
 *      (chi-square p <= PV_CP_SHARED_P) and it takes PV_CP_SHARED_GAIN of
 *      the median series' residual sum of squares, the series less it are
 *      run through steps 1-4 again, and the tests see those values; else
 *      the first run stands.  Needs PV_CP_SHARED_MIN other series at a
 *      point.  In that run a point gross in the series' own values
 *      whose excursion the effect took most of (PV_CP_EXPLAINED) stays
 *      a noisy neighbour (the effect's estimate at a wild point is the
 *      median of the others' depths, and what it leaves is a step's
 *      size), and a change point must show in the series' own values
 *      too: the two sides of its segment, without those points and the
 *      ones the effect moved by more than the gross limit, differ the
 *      same way at PV_CP_OWN_P (a level the first run missed in several
 *      series is a false level of the effect, and a false step in the
 *      others).
 *   1. spikes: a value more than PV_CP_GROSS robust sds from the median
 *      of itself and its four nearest neighbours is replaced by that
 *      median (a noisy neighbour, not a value); one more than PV_CP_CLIP
 *      sds is pulled back to that distance.  The robust sd comes from the
 *      successive differences (their MAD or trimmed RMS, the larger; the
 *      RMS always leaves out at least one difference, so that one step's
 *      difference never sets the scale of a short series), estimated
 *      again without the points gross against a scale with a quarter
 *      of the differences trimmed (each noisy neighbour makes two wild
 *      differences: 5% of them made a tenth wild and the scale 6-15%
 *      for 1% noise), never above the first estimate.  Nor may the
 *      gross points' going make a series more than PV_CP_FLOOR_K (2)
 *      times quieter than its family says (its sd moderated across the
 *      family, up to its own first estimate): a series of two modes
 *      that changed mode a few times only has a scale of its jitter
 *      without its lone points of the other mode, and their going made
 *      its runs a step (cpsim's bimodal at 20 points, FWER 0.125 ->
 *      0.000); its limits are then those of that scale.  The tests'
 *      variance is its square over its mean square under normal noise
 *      at the series' length (pv_cp_scale_bias(): the larger of
 *      estimators is biased up, 31% in the variance at 20 points, 18%
 *      at 40, 6% at 200).  With no
 *      noise at all (sd 0) only a point gross against the median
 *      difference goes: constant levels stay levels.
 *   2. levels and one slope: binary segmentation of the values less a
 *      slope common to the segments.  A segment is split where the t of
 *      its two parts (each at least PV_CP_MIN_SEG = 3 points) is
 *      largest, if its p is at most alpha over every split position of
 *      every series of the family (Bonferroni); when no split is, at the
 *      best bump (a level of 3 points or more inside the segment against
 *      the rest of it: a dip that is fixed again), if its p is at most
 *      alpha over every bump of the family.  A split or bump must also
 *      not be explained by noisy neighbours: when a side's points
 *      beyond the gross limit carry the difference (the side's other
 *      points alone do not differ at that level; points gross the
 *      other way are no evidence either way), the chance of as many
 *      gross points among the side's, at the rate of gross points among
 *      the series' other points (shrunk to the family's by a beta prior
 *      fitted by moments: a cluster does not explain itself), must be
 *      at most the split level (for a bump too: the refinement tests
 *      each of its splits so).  For a side inside the series of at
 *      most 2 PV_CP_MIN_SEG points (a short level that came and went)
 *      the gross limit is also never above
 *      PV_CP_GROSS of the scale with a quarter of the differences
 *      trimmed: a cluster's own edges inflate the series' sd (at 20
 *      points one difference of 19 is trimmed), and against that sd
 *      three 1.5x points were not gross and their level was a step
 *      (cpsim's outliers at one run, 20 points: FWER 0.225 -> 0.000).
 *      A side at either end keeps the series' limit (a series' first
 *      or newest points at another level are a level), and so does a
 *      longer one (a stretch flipping between two levels on the real
 *      corpus).  Three 1.5x points close together are a
 *      family's daily event at a 5% rate, not a level.  Each split then moves to
 *      its best place between its neighbours and the weakest goes while
 *      it is not significant, or while the segments' common slope is
 *      significant at PV_CP_SLOPE_SEEN and the step net of it (with its
 *      error) has a p above alpha over the family's series.  The
 *      slope is fitted within the segments found and kept when it is
 *      significant at that level; segmentation and slope alternate to a
 *      fixed point, from no slope (steps first) and, when that found
 *      steps and no slope and the family drifts (most of its series'
 *      slopes within their segments above chance's median, a sign test
 *      at PV_CP_DRIFT_P on the round before; a family of too few series
 *      to tell drifts), from the line through the whole series
 *      (whose slope is kept at PV_CP_LINE_KEEP_P); the
 *      steps-first fit is kept unless the line's start has the smaller
 *      penalised cost, or one of its steps is not significant net of the
 *      line's slope (with that slope's error) at PV_CP_TREND_STRICT
 *      times the split level and the line costs less than
 *      PV_CP_TREND_MARGIN of a split's penalty more
 *      (a slow drift is a trend, not a staircase; a staircase or a bump
 *      the line fits clearly worse stays steps).  When the steps-first
 *      start itself ends with a slope, its first segmentation (no slope)
 *      stands if its penalised cost is the lower: a staircase whose
 *      small steps are not found yet leaves a slope within its
 *      segments, and with that slope out fewer steps are found, until
 *      the slope is all there is.  With a slope in the model a
 *      step's t carries the slope's own error.
 *  2b. a commit other series stepped at: a point where step 2 found a
 *      change point in PV_CP_CAND_SUPPORT or more gated series is a
 *      candidate in every series.  Each is tested at its place, within
 *      the segment around it (and beside the segment's best split when
 *      that lies outside the best's location interval: a step elsewhere
 *      makes every split of the segment differ), at alpha over every pair of
 *      candidate and series; when none is, each pair of candidates in
 *      one segment as a bump, at alpha over every such pair and series;
 *      the gross-point test is step 2's, the strongest goes in first
 *      (only where the candidates' level is looser than step 2's, which
 *      searched every split and bump at its own; a bump at most
 *      PV_CP_MAX_BUMP points).
 *      In a series step 2 fitted with a slope, the candidates are tested
 *      without it, and their steps stand when the slope within the new
 *      segments is no longer significant (a small step is often fitted
 *      as a slope) and they fit the series better than the slope, each
 *      step past the first paying the candidates' squared critical t, the
 *      residuals weighed by their segment's own noise (a slow drift cut
 *      at the candidates stays a drift); and in a family that drifts,
 *      each such step must also differ net of the slope within the new
 *      segments, with that slope's error, at PV_CP_STEP_SEEN (0.01): a
 *      drift's halves differ, and at 20 points a step fitted them
 *      better than the slope in 411 of 1,052 trials (cpsim's drift at
 *      three runs and 20 points: 152.5 false change points per 1,000
 *      series -> 14.2).  Under the family's null step 2 finds nothing,
 *      there is no candidate, and the family-wise level is step 2's; the
 *      shared effect (step 0) is estimated about step 2's levels alone.
 *   3. the sd of the t is the residual sd of the point values around
 *      their levels (and slope), each residual counted as at most the
 *      gross limit, in the sd and in the slope (a cluster of wild points
 *      that step 1 cannot call gross, such as runs that stopped half-way
 *      at three of four points, or a stretch that flips between two
 *      levels, is not the noise of the clean steps beside it, nor a
 *      slope: on the real corpus 7 shifts more and 1 flag more on
 *      noise; in the sd alone three 1.5x runs in four points made
 *      slopes, cpsim's outliers at n = 1 an A/A FWER of 0.06): the
 *      between-point variance, which more runs inside a point do not
 *      shrink, moderated across the family
 *      (Smyth's empirical Bayes, pv_fit_prior), and never below its
 *      posterior under the prior from the log-variances' median and MAD
 *      (pv_fit_prior_median: a few series with unclipped clusters of
 *      outliers spread the family's variances and left a quiet series
 *      unmoderated).  Steps 2-3 alternate
 *      three times, from the robust sd of step 1 moderated the same way.
 *      A neighbourhood noisier than its series has its own scale: a
 *      point's variance is the square of the median |successive
 *      difference| within PV_CP_LOCAL_W points of it, read as a normal
 *      sd, where that is more than PV_CP_LOCAL_K times the series' sd
 *      (a noisy early period no longer makes steps of its noise, and
 *      the search's best split moves to the clean step beside it; two-
 *      level noise reads at most 2.1 sds this way, so it stays).
 *      A scale per segment (shrunk to the series' by 8 points' worth)
 *      was measured and not kept: on cpsim's machine noise it cost 0.07
 *      of recall (a segment holding an unfound step inflates its own
 *      scale) and on the real corpus it found 1 shift more of 99.
 *   4. the trend: the final slope within the segments (its residuals
 *      capped as in step 3), its t with the sd
 *      of step 3, and its p, Bonferroni over the family's series.
 *
 * No variance at all leaves rounding's (a billionth of the values): a
 * step between constant levels (0 -> 1 allocs) has a t in the billions.
 */
#ifndef PV_STATS_CHANGEPOINT_H
#define PV_STATS_CHANGEPOINT_H

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
void pv_cp_series_release(struct pv_cp_series *s);

/*
 * A point's value (history): the mean of its n runs x, on the log scale
 * when logscale (NAN if a run is not positive), leaving out runs further
 * than tau from the runs' median; with one or two runs, their mean.
 * tau comes from pv_cp_run_tau(): 5 robust within-point sds, the MAD of
 * the runs around their point medians pooled over the series (lv: the
 * runs on the scale used; point j's runs are lv[off[j] .. off[j]+n[j])),
 * INFINITY when no point has 3 runs.
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
/* E[sd^2] / sigma^2 of pv_cp_clip()'s robust sd for normal noise at L
 * points (> 1): the tests' variance is sd^2 over it. */
double pv_cp_scale_bias(size_t L);

/* The number of split positions of a series of L points. */
size_t pv_cp_positions(size_t L);

#endif

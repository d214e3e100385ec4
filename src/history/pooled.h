/*
 * pooled.h - a candidate point against a baseline pooled from K past
 * points (compare --baseline-history).
 *
 * Each point contributes one value (its robust log mean,
 * history/analyse.c), not its runs: every point may have run on another
 * machine, and that between-point variance does not shrink with more
 * runs inside a point.
 * The candidate is one more point, so the test is a prediction t,
 *
 *     t = (y_cand - mean(y_1..y_K)) / (s * sqrt(1 + 1/K)),
 *
 * with s^2 the variance of the K point values (K - 1 df), moderated
 * across the metrics by Smyth's empirical Bayes (pv_fit_prior): the
 * posterior (d0 s0^2 + (K-1) s^2) / (d0 + K - 1) with d0 + K - 1 df.
 *
 * The shared point effect.  When every metric of a point ran on the
 * same machine, a slow runner moves them all: that part of the point
 * noise is one draw per point for the whole family, not one per metric.
 * Moderated as if it were each metric's own, the metrics' s^2 agree far
 * better than independent ones would, d0 comes out infinite, and the
 * shared part -- seen on only K points -- is taken as known: a family
 * whose K runners happened to agree calls every metric of a candidate
 * on a slow runner a regression.  So where history found a shared
 * effect in the archive (its step 0 applied; point != NULL, the metric
 * on the log scale), it is a variance component of its own: each
 * archive point's effect is the median over the members of their
 * residuals y - (level), at points with PV_POOL_SHARED_MIN members or
 * more; its variance vs over the P points with one has P - 1 df.  The
 * level, the end excursion and the member's own s^2 (moderated as
 * above, across the members) are of the values less the effect; the
 * candidate's own effect is unknown, so against the level
 *
 *     se^2 = (vs + own) (1 + 1/kept),
 *
 * against main's newest k points vs (1 + 1/kept) + own (1 + 1/k), each
 * on Welch and Satterthwaite's df, (a + b)^2 / (a^2 / (P - 1) + b^2 /
 * df_own) for the parts a (shared) and b (own).  The end excursion is
 * found in the values less the effect with the own sd alone: the
 * newest point's runner is no longer a metric's move.  A family
 * without a shared effect is tested as before, to the bit.  Measured
 * with cpsim --mode gate, machine:0.005:0.02 (docs/history.md,
 * "Runners shared by a point's metrics").
 *
 * Spikes.  A point further than PV_CP_GROSS sds (spike_sd, the history's
 * between-point sd of the metric; none when history took a shared
 * machine effect out of it, as that sd is not of the values the gate
 * pools) from the median of its K baseline
 * points is a spike, as history's clipping calls one (changepoint.h,
 * step 1); a whole spike when every run of it is that far on the same
 * side (a slow machine for the whole job), else a split one (two of
 * three runs beside a noisy neighbour).  When the family's pooled points
 * hold spikes, a candidate that is a spike is judged against their rate
 * too: its p in that direction is at least the rate of whole spikes
 * when all its runs are that far, of all spikes when some are not -- the
 * chance that a point of this family is such a spike -- and at least the
 * binomial chance of as many of its runs as far, at the rate of the
 * baseline's gross runs as far (history's noisy-neighbour test, whose
 * side_outliers() it follows).  A run counts when it is as far as a
 * spike and history's point value leaves it out, further than 5 robust
 * within-point sds from its point's median (pv_cp_run_tau(); with fewer
 * than 3 runs a point, when it is as far as a spike).  The binomial floor holds in a family whose
 * points hold no spike too, where its runs hold gross ones: 5 runs a
 * point, 5% of them at 1.5x, give a point spike about once in 860
 * points, so a family of 100 metrics x 10 points often holds none, and
 * a candidate with 3 gross runs of 5 (once in 860 metrics) was a
 * regression in 3-4% of cpsim's A/A comparisons.  One run slower by
 * half, which a noisy neighbour gives 5% of runs, is then not a
 * regression in a family of 100 metrics (it was, in 93% of cpsim's A/A
 * comparisons at one run), while three runs 10% slower in a family
 * whose spikes are split ones still are.  A family with no spike and no
 * gross run in its baseline is tested as before; history finds a level
 * that stays at its third point.
 *
 * The end of the archive.  Main's newest points are where a new level is
 * most likely, and history confirms one only at its third point
 * (PV_CP_MIN_SEG), so its newest one or two points are neither spikes
 * nor noise until later points come back down.  First the family is fit
 * on each member's points before its newest h = min(2, K - 2) (spikes
 * left out as above): their level L (of kept points), their moderated
 * sd and df; with c = t(1 - PV_POOL_END_ALPHA / 2, df), the newest two
 * points are an *end excursion* when they lie on one side of L, their
 * mean beyond c * sd * sqrt(1/2 + 1/kept) of it, and they agree with each
 * other (apart by at most c * sd * sqrt(2)); else the newest point alone
 * is one when beyond c * sd * sqrt(1 + 1/kept).  An excursion's points
 * are then out of everything above -- the level, the variance, the spike
 * rates -- which come from the K - k points before them, so they neither
 * widen the noise nor make a candidate as far a spike.  The candidate is
 * tested twice, with the one posterior sd and df: against the long-run
 * level L (se sd * sqrt(1 + 1/kept)) and against the newest level N, the
 * mean of the k points (se sd * sqrt(1 + 1/k)), where a candidate beyond
 * N, away from L, as far as a spike is a spike of N's (its p at least
 * their rate, as above); its p in each direction is the larger of the
 * two.  It is worse only when worse than both
 * levels, and the change the threshold is applied to is measured from the
 * worse of L and N (verdict.c).  A member with no excursion is tested as
 * before.  Measured with cpsim --mode gate --end-step 0.1 (normal:0.02,
 * n = 5, 40 comparisons, seed 29) against the other choice, judging the
 * candidate against L alone and saying that main moved too: that one
 * calls every metric that merely inherits main's unconfirmed step a
 * regression (A/A FWER 1.000 with 1 or 2 end points; this rule 0.000,
 * power 0.993 with 2).  Every model's figures are in the commit that
 * chose PV_POOL_END_ALPHA.
 */
#ifndef PV_HISTORY_POOLED_H
#define PV_HISTORY_POOLED_H

#include <stddef.h>
#include "../util/err.h"

/* The members a point's shared effect needs: a median residual over
 * fewer metrics is one metric's own noise (pooled.h). */
#define PV_POOL_SHARED_MIN 3

/* The two-sided level at which main's newest points are an end
 * excursion (a point beyond about 2 sds; pooled.h). */
#define PV_POOL_END_ALPHA 0.05

struct pv_pooled {
	const double *y;        /* the K baseline point values */
	size_t K;
	double cand;            /* the candidate's point value */
	double spike_sd;        /* the between-point sd history found (its
				 * clipped values'), for the spike test */
	const double *runs;     /* point j's runs: runs[roff[j] .. roff[j+1]) */
	const size_t *roff;     /* (NULL: a run a point, its value) */
	const double *cruns;    /* the candidate's runs, on the same scale */
	size_t ncruns;
	const size_t *point;    /* the archive point each of y is (NULL: the
				 * member takes no part in the shared point
				 * effect, as one not on the log scale) */
	/* filled by pv_pooled_family() */
	size_t kept;            /* the points of y that are not spikes */
	double level;           /* mean of those */
	double s2, d;           /* the sample variance of y and its df */
	double sd, df;          /* the point sd and its df: the shared
				 * effect's and the member's own moderated
				 * variance (pooled.h) */
	double delta, se, t;    /* cand - level, its se, their ratio */
	double p_up, p_down, p_two;     /* one-sided (cand larger, smaller)
					 * and two-sided */
	double lo, hi;          /* delta's 1 - alpha interval */
	int testable;           /* K >= 2 and a finite sd */
	/* the end excursion: its newest points end of y (0: none), their
	 * mean, the candidate against it, and the interval */
	size_t end;
	double end_level, end_delta, end_se, end_t, end_lo, end_hi;
	int spike;              /* the candidate is a spike, and its p in
				 * that direction was raised to spike_p */
	double spike_p;         /* the rate of its kind of spike */
};

/* Test every member; alpha sets the interval.  Members with K < 2 are
 * left untestable (and out of the prior). */
int pv_pooled_family(struct pv_pooled *x, size_t n, double alpha,
		     struct pv_err *err);

#endif

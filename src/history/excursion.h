/*
 * excursion.h - a move in a series' newest points that the change-point
 * detector cannot confirm yet (the history's "watch").
 *
 * The detector (changepoint.h) splits a segment only where both sides
 * hold at least PV_CP_MIN_SEG points, so a step in the newest one or two
 * points stays unseen until more points come.  This is the same test it
 * would apply at the end of the series without that requirement: the
 * newest k points (k = 1 .. PV_CP_MIN_SEG - 1) against the rest of the
 * last segment (from the last change point, at least PV_CP_MIN_SEG
 * points), a two-sample t with the sd and degrees of freedom the
 * detector's final tests used (between-point, moderated across the
 * family), two-sided, Bonferroni over the k tried and the family's
 * gated series.  The k of the largest |t| (the smallest p) is reported.
 * Pure.
 *
 * Measured (400 families of 4 series of 12 points, each the log mean of
 * 5 runs; the rule of history/analyse.c's watch_end()): with no move, a
 * family had a significant end in 0.022 of them at 2% and at 5% noise
 * (0.000 and 0.015 also beyond the 5% threshold); a +10% move of the newest
 * point was watched in 1.000 at 2% noise, of the newest 2 in 1.000 at
 * 2% and 0.993 at 5%; a +5% move of the newest 2 (the threshold itself)
 * was significant in 0.998 at 2%.
 */
#ifndef PV_HISTORY_EXCURSION_H
#define PV_HISTORY_EXCURSION_H

#include <stddef.h>

struct pv_cp_excursion {
	size_t k;               /* the newest k points moved (0: none tried) */
	double before, after;   /* the rest's mean and the newest k's */
	double delta;           /* after - before, on the values' scale */
	double t, df, p;        /* two-sided p of t */
	double q;               /* p times the tests of the family, at most 1 */
	int significant;        /* q <= alpha */
};

/*
 * The excursion of y[from .. L)'s newest points (from: the last change
 * point's index, or 0), with the detector's sd and df for the series,
 * tests: the family's gated series (the Bonferroni count, at least 1),
 * at level alpha.  out->k is 0 when the segment is too short (fewer than
 * PV_CP_MIN_SEG points beside the newest one) or sd is not positive and
 * finite.
 */
void pv_cp_end_excursion(const double *y, size_t from, size_t L, double sd,
			 double df, size_t tests, double alpha,
			 struct pv_cp_excursion *out);

#endif

/*
 * changepoint_fit.c - steps against a slope (changepoint.h, steps 2-4):
 * the slope common to a series' segments, the fixed point of levels and
 * slope from two starts and the penalised cost that chooses between
 * them, the residuals the scale is estimated from, the trend test, and
 * whether the family drifts.
 */
#include "changepoint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "../stats.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* A step of the steps-first fit is weak when its p net of the line's
 * slope is above this many times the split level ... */
#define PV_CP_TREND_STRICT 3.0
/* ... and a weak step gives way to the line when the line's penalised
 * cost is below the steps' plus this fraction of a split's penalty. */
#define PV_CP_TREND_MARGIN 0.5
/* The line's start keeps its slope at this p: a slow drift is too weak
 * for the trend test (alpha over the series) more often than not. */
#define PV_CP_LINE_KEEP_P 0.01
/* The family drifts when the sign test of its slopes has a p at most
 * this; only then is the line's start tried (it would explain two real
 * steps as a line often enough to cost recall). */
#define PV_CP_DRIFT_P 1e-3
/* The residuals capped at the gross limit and the slope fitted again, at
 * most this many times (it converges in one or two). */
#define CAP_REFITS 4
/* The fixed point of levels and slope: at most this many turns (the same
 * slope segments the same values the same way, so it stops sooner). */
#define FIXED_POINT_TURNS 6

/* The mean of y[a, b) less the slope beta (a segment's level at 0). */
static double level_of(const double *y, size_t a, size_t b, double beta)
{
	double m = 0;

	for (size_t j = a; j < b; j++)
		m += y[j] - beta * (double)j;
	return m / (double)(b - a);
}

/*
 * The least-squares slope common to the segments of s, each with its own
 * level (for no split, the line through the series), of the values y:
 * the slope, the positions' sum of squares about their segments' means
 * it is estimated over, and the residual sum of squares.
 */
static void seg_slope_ls(const double *y, size_t L, const struct cpset *s,
			 double *slope, double *sxx, double *rss)
{
	double sxy = 0, ss = 0;
	size_t a = 0;

	*sxx = 0;
	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double xbar = 0.5 * (double)(a + b - 1), m = level_of(y, a, b, 0);

		for (size_t j = a; j < b; j++) {
			ss += (y[j] - m) * (y[j] - m);
			sxy += ((double)j - xbar) * (y[j] - m);
		}
		*sxx += pos_ss(a, b);
		a = b;
	}
	*slope = *sxx > 0 ? sxy / *sxx : 0;
	*rss = ss - *slope * sxy;
	if (*rss < 0)
		*rss = 0;
}

/* Each y[j] further than cap from the fit of levels (w's segment means)
 * and slope pulled to that distance, into w; how many were pulled. */
static size_t pull_to_fit(const double *y, double *w, size_t L,
			  const struct cpset *s, double slope, double cap)
{
	size_t a = 0, moved = 0;

	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double xbar = 0.5 * (double)(a + b - 1), m = level_of(w, a, b, 0);

		for (size_t j = a; j < b; j++) {
			double f = m + slope * ((double)j - xbar);
			double r = y[j] - f;

			if (fabs(r) > cap) {
				r = r > 0 ? cap : -cap;
				moved++;
			}
			w[j] = f + r;
		}
		a = b;
	}
	return moved;
}

/*
 * seg_slope_ls() with each residual counted as at most cap (step 3):
 * the values beyond it about the fitted levels and slope are pulled to
 * that distance and the slope fitted again, at most CAP_REFITS times.
 * Three 1.5x runs in four points at the end of a segment made a slope
 * of 0.7% a point in 1% noise, and a step beside it; the sd they are
 * judged with counts them as at most cap too (pvs_cp_seg_rss()).
 */
void pvs_cp_seg_slope(const double *y, size_t L, const struct cpset *s,
		      double cap, double *slope, double *sxx, double *rss)
{
	double *w;

	seg_slope_ls(y, L, s, slope, sxx, rss);
	if (!(cap < INFINITY) || !L)
		return;
	w = pv_malloc(st_mult(L, sizeof(*w)));
	memcpy(w, y, L * sizeof(*w));
	for (int it = 0; it < CAP_REFITS; it++) {
		if (!pull_to_fit(y, w, L, s, *slope, cap))
			break;
		seg_slope_ls(w, L, s, slope, sxx, rss);
	}
	free(w);
}

/* The t of a slope, its positions' sum of squares sxx, sd known. */
double pvs_cp_slope_t(double slope, double sxx, double sd)
{
	if (!(sxx > 0))
		return 0;
	if (sd > 0)
		return slope / (sd / sqrt(sxx));
	return slope > 0 ? INFINITY : slope < 0 ? -INFINITY : 0;
}

/*
 * One fixed point of levels and a common slope, from the slope beta:
 * segment the values less the line, fit the slope within the segments
 * found, keep it only when it is significant at line_p (the trend test's
 * level), and repeat until neither changes.  The slope is never taken
 * from across a step.  Returns the slope kept (0 if none).
 */
static double fixed_point(const double *y, const double *var, size_t L,
			  struct psum *c, const struct limits *lim,
			  double beta, double *bvar, struct cpset *s)
{
	double df = lim->df, line_p = lim->line_p;
	double sd = 0;

	for (size_t j = 0; j < L; j++)
		sd += var[j];
	sd = L ? sqrt(sd / (double)L) : 0;
	for (int it = 0; it < FIXED_POINT_TURNS; it++) {
		double slope, sxx, rss, t;

		pvs_cp_psum_build(c, y, var, L, beta, *bvar);
		pvs_cp_segment(c, L, lim, s);
		pvs_cp_seg_slope(y, L, s, lim->cap, &slope, &sxx, &rss);
		t = pvs_cp_slope_t(slope, sxx, sd);
		if (!(sxx > 0) || two_sided_p(t, df) > line_p)
			slope = 0;
		/* the same slope segments the same values the same way */
		if (slope == beta)
			break;
		*bvar = sxx > 0 ? sd * sd / sxx : 0;
		beta = slope;
	}
	return beta;
}

/* The sum of squares of y[a, b) about its level less the slope beta,
 * each residual at most cap and over w[j] (w NULL: 1). */
static double seg_ss(const double *y, const double *w, size_t a, size_t b,
		     double beta, double cap)
{
	double m = level_of(y, a, b, beta), ss = 0;

	for (size_t j = a; j < b; j++) {
		double r = fabs(y[j] - beta * (double)j - m);

		r = r < cap ? r : cap;
		ss += r * r / (w ? w[j] : 1);
	}
	return ss;
}

/* seg_ss() over the segments of s. */
double pvs_cp_fit_ss(const double *y, const double *w, size_t L,
		     const struct cpset *s, double beta, double cap)
{
	double tot = 0;

	for (size_t i = 0, a = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;

		tot += seg_ss(y, w, a, b, beta, cap);
		a = b;
	}
	return tot;
}

/* The least variance a fit's cost divides by: with no noise at all,
 * rounding's (a billionth of the values). */
double pvs_cp_var_floor(const double *y, size_t L)
{
	double big = 0;

	for (size_t j = 0; j < L; j++)
		if (fabs(y[j]) > big)
			big = fabs(y[j]);
	return 1e-24 * (big * big + 1);
}

/* The fit's penalised cost: the residuals in units of their variances,
 * plus the squared critical t of each parameter beyond one level (a
 * split's, the slope's), the same thresholds the tests use. */
static double fit_cost(const double *y, const double *var, size_t L,
		       const struct cpset *s, double beta, double pen_cp,
		       double pen_slope)
{
	double floor = pvs_cp_var_floor(y, L), s2 = 0;

	/* one variance for both fits: the local ones would favour the fit
	 * they were estimated from */
	for (size_t j = 0; j < L; j++)
		s2 += var[j];
	s2 = L ? s2 / (double)L : 0;
	return (double)s->n * pen_cp + (beta != 0 ? pen_slope : 0) +
	       pvs_cp_fit_ss(y, NULL, L, s, beta, INFINITY) / (s2 > floor ? s2 : floor);
}

/*
 * Steps and a trend told apart: a level per segment and one slope common
 * to all of them, fitted from two starts: steps first (no slope), and
 * the line through the whole series (when it is significant).  A
 * staircase's steps leave no slope within its segments, so from either
 * start they stay steps; a slow drift cut into a staircase is, from the
 * line, no step at all.  When the two starts end apart, the one with the
 * smaller penalised cost is kept (fit_cost).  Leaves c built for the fit
 * kept and returns its slope.
 */
double pvs_cp_fit_steps(const double *y, const double *var, size_t L,
			struct psum *c, const struct limits *lim,
			struct cpset *s, int *replaced, int drifting,
			double *drift_t2)
{
	double df = lim->df, limit_p = lim->split_p, line_p = lim->line_p;
	struct cpset alt = { NULL, 0, 0 };
	struct cpset none = { NULL, 0, 0 };
	double beta, beta2, slope, sxx, rss, sd = 0, bv = 0, bv2, bs, sx2;
	/* the penalties of fit_cost(): a split's and the slope's squared
	 * critical t */
	double pc = pv_t_quantile(1 - limit_p / 2, df);
	double pl = pv_t_quantile(1 - line_p / 2, df);

	*replaced = 0;
	beta = fixed_point(y, var, L, c, lim, 0, &bv, s);
	for (size_t j = 0; j < L; j++)
		sd += var[j];
	sd = L ? sqrt(sd / (double)L) : 0;
	pvs_cp_seg_slope(y, L, &none, lim->cap, &slope, &sxx, &rss);
	/* the t^2 of the slope within the steps-first segments, for the
	 * family's drift (pvs_cp_family_drifts()) */
	pvs_cp_psum_build(c, y, var, L, beta, bv);
	bs = pvs_cp_common_slope(c, L, s, &sx2);
	if (beta != 0)
		*drift_t2 = beta * beta / bv;
	else if (s->n)
		*drift_t2 = sx2 > 0 && sd > 0 ? bs * bs * sx2 / (sd * sd) : 0;
	else
		*drift_t2 = pvs_cp_slope_t(slope, sxx, sd) * pvs_cp_slope_t(slope, sxx, sd);
	/* the line's start is tried whenever the steps came without a
	 * slope, and keeps its slope at PV_CP_LINE_KEEP_P: a drift of 2%
	 * over 40 points in 1% noise is too weak for the trend test (alpha
	 * over the series) more often than not, while a split of it is
	 * often significant (the halves' means do differ) */
	if (drifting && s->n && beta == 0 && sxx > 0) {
		struct limits alim = *lim;

		if (PV_CP_LINE_KEEP_P > alim.line_p)
			alim.line_p = PV_CP_LINE_KEEP_P;
		int weak = 0;

		bv2 = sd * sd / sxx;
		beta2 = fixed_point(y, var, L, c, &alim, slope, &bv2, &alt);
		/* a step is weak when it is not significant net of the
		 * line's slope, with that slope's error: judged on the
		 * values as the steps-first fit has them (the line's start
		 * left c built for its own fit, values less its slope) */
		pvs_cp_psum_build(c, y, var, L, 0, 0);
		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double sx = pvs_cp_step_t_sloped(c, a, s->k[i], b, beta2, 1,
							 beta2 != 0 ? bv2 : 0);

			if (two_sided_p(sx, df) > PV_CP_TREND_STRICT * limit_p)
				weak = 1;
		}
		double ca = fit_cost(y, var, L, &alt, beta2, pc * pc, pl * pl);
		double cs = fit_cost(y, var, L, s, beta, pc * pc, pl * pl);

		/* a step that only the steps-first fit needs (weak net of
		 * the slope) goes when the line costs at most a fraction
		 * of a step more: a slow drift cut into a staircase; a
		 * staircase or a bump that the line fits clearly worse
		 * stays, however short its segments */
		if ((weak && ca < cs + PV_CP_TREND_MARGIN * pc * pc) || ca < cs) {
			*replaced = s->n > alt.n;
			pvs_cp_cpset_swap(s, &alt);
			beta = beta2;
			bv = bv2;
		}
	}
	free(alt.k);
	pvs_cp_psum_build(c, y, var, L, beta, bv);
	return beta;
}

/*
 * The residual sum of squares of each segment of s about its mean (the
 * values less the slope beta), into rss[0 .. s->n]; the total.  A
 * residual counts as at most cap (step 3: the gross limit): a cluster of
 * wild points that step 1 could not call gross (two 0.7x runs side by
 * side, a stretch that flips between two levels) is not the noise the
 * other points' steps are judged against.
 */
double pvs_cp_seg_rss(const double *y, size_t L, const struct cpset *s,
		      double beta, double cap, double *rss)
{
	double tot = 0;

	for (size_t i = 0, a = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;

		rss[i] = seg_ss(y, NULL, a, b, beta, cap);
		tot += rss[i];
		a = b;
	}
	return tot;
}

/* The fitted values of s's levels and slope beta on y, into fit[0 .. L). */
void pvs_cp_seg_fit(const double *y, size_t L, const struct cpset *s,
		    double beta, double *fit)
{
	size_t a = 0;

	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double m = level_of(y, a, b, beta);
		for (size_t j = a; j < b; j++)
			fit[j] = m + beta * (double)j;
		a = b;
	}
}

/* The trend of a series beyond its steps, Bonferroni over ntrend. */
void pvs_cp_trend(struct pv_cp_series *x, const struct cpset *s,
		  double ntrend, double alpha)
{
	struct pv_cp_trend *t = &x->trend;
	double sxx, rss;

	memset(t, 0, sizeof(*t));
	t->slope = t->se = t->t = t->p = t->q = NAN;
	if (x->L < 3 || !(x->sd >= 0))
		return;
	pvs_cp_seg_slope(x->clipped, x->L, s, cap_of(x), &t->slope, &sxx, &rss);
	if (!(sxx > 0))
		return;
	t->se = x->sd / sqrt(sxx);
	t->t = t->se > 0 ? t->slope / t->se :
	       t->slope > 0 ? INFINITY : t->slope < 0 ? -INFINITY : 0;
	t->df = x->df;
	t->p = two_sided_p(t->t, t->df);
	t->q = t->p * ntrend > 1 ? 1 : t->p * ntrend;
	t->significant = t->q <= alpha;
}

/*
 * Whether the family's series drift, from a round's fits: a sign test of
 * the t^2 of each series' slope within its steps-first segments against
 * chi-square's median (one degree of freedom), at PV_CP_DRIFT_P.  A few
 * series with steps the fit missed have large t^2; a drift makes most of
 * them large.  A family of too few series to tell drifts.
 */
int pvs_cp_family_drifts(const struct pv_cp_series *s, size_t n,
			 const double *t2)
{
	/* the median of chi-square with one degree of freedom */
	const double median_t2 = 0.45493642311957283;
	size_t k = 0, above = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i].L >= 3 && isfinite(t2[i])) {
			above += t2[i] > median_t2;
			k++;
		}
	/* too few series to tell: as if they drift */
	if (!k || gsl_cdf_binomial_Q((unsigned)(k - 1), 0.5, (unsigned)k) > PV_CP_DRIFT_P)
		return 1;
	return above &&
	       gsl_cdf_binomial_Q((unsigned)(above - 1), 0.5, (unsigned)k) <= PV_CP_DRIFT_P;
}

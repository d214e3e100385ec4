/*
 * changepoint_cand.c - step 2b of changepoint.h: a commit that other
 * series of the family stepped at is tested in every series, as a step
 * or, two of them, as a bump, at a level counted over the candidates.
 */
#include "changepoint_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../stats.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* In a family that drifts, a candidate's step that takes a slope's place
 * must be seen net of the slope within the new segments at this p: a
 * drift's two halves differ, and a step fits them about as well. */
#define PV_CP_STEP_SEEN 0.01

/*
 * A candidate at j of [a, b) is tested beside the segment's best split k
 * when k is another step (a step the segment holds elsewhere makes every
 * split of it differ): when j lies outside k's location interval (the
 * splits whose t^2 is within chi of k's, describe()'s), within [a, k) or
 * [k, b), whichever holds it; 0 when that part is too short.
 */
static int beside_best(const struct psum *c, size_t j, double chi,
		       size_t *a, size_t *b)
{
	double t, tj = pvs_cp_split_t(c, *a, j, *b);
	size_t k = pvs_cp_best_split(c, *a, *b, &t);

	if (!k || k == j || (isfinite(t) && t * t - tj * tj <= chi))
		return 1;
	if (j < k)
		*b = k;
	else
		*a = k;
	return j - *a >= PV_CP_MIN_SEG && *b - j >= PV_CP_MIN_SEG;
}

/* The segment of s around each candidate js[u] (sorted), into sa[u] and
 * sb[u]; sb[u] = 0 when js[u] is a split of s already. */
static void segments_of(const struct cpset *s, size_t L, const size_t *js,
			size_t m, size_t *sa, size_t *sb)
{
	size_t i = 0;

	for (size_t u = 0; u < m; u++) {
		while (i < s->n && s->k[i] < js[u])
			i++;
		sa[u] = i ? s->k[i - 1] : 0;
		sb[u] = i < s->n && s->k[i] == js[u] ? 0 :
			i < s->n ? s->k[i] : L;
	}
}

/*
 * A step of s whose location interval (describe()'s) holds a candidate
 * moves to it, the candidate of the largest t when several (itself, when
 * it is one and the best): where its
 * location is uncertain, the commit other series stepped at is where it
 * happened (a +2.5% step in 2% noise is often best at 3-5 points off).
 */
static void snap_to_candidates(const struct psum *c, size_t L,
			       const struct cands *cs, struct cpset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		size_t a = i ? s->k[i - 1] : 0;
		size_t b = i + 1 < s->n ? s->k[i + 1] : L, to = 0;
		double t = fabs(pvs_cp_split_t(c, a, s->k[i], b)), bt = 0;

		if (!isfinite(t))
			continue;
		for (size_t u = 0; u < cs->m; u++) {
			size_t j = cs->js[u];
			double tj;

			if (j < a + PV_CP_MIN_SEG || j + PV_CP_MIN_SEG > b)
				continue;
			tj = fabs(pvs_cp_split_t(c, a, j, b));
			if (t * t - tj * tj <= cs->chi && tj > bt) {
				bt = tj;
				to = j;
			}
		}
		if (to)
			s->k[i] = to;
	}
}

static void add_candidates(const struct psum *c, const struct pv_cp_series *x,
			   const struct limits *lim, const struct cands *cs,
			   struct cpset *s, struct cpset *added)
{
	/* the levels as |t|: one quantile a series, not a p a test */
	double tc = cs->singles ?
		    pv_t_quantile(1 - lim->split_p / 2, lim->df) : INFINITY;
	double bc = cs->bumps && lim->bump_p > 0 ?
		    pv_t_quantile(1 - lim->bump_p / 2, lim->df) : INFINITY;
	const size_t *js = cs->js;
	size_t m = cs->m, *sa = cs->scratch, *sb = cs->scratch + m;

	snap_to_candidates(c, x->L, cs, s);
	for (;;) {
		size_t best = 0, best2 = 0;
		double bt = 0;

		segments_of(s, x->L, js, m, sa, sb);
		for (size_t u = 0; u < m; u++) {
			size_t j = js[u], a = sa[u], b = sb[u];
			double t, t2;

			/* significant in its segment, and beside the
			 * segment's best split when that is elsewhere */
			if (!b || j - a < PV_CP_MIN_SEG || b - j < PV_CP_MIN_SEG)
				continue;
			t = fabs(pvs_cp_split_t(c, a, j, b));
			if (!(t >= tc) || t <= bt ||
			    !beside_best(c, j, cs->chi, &a, &b))
				continue;
			t2 = fabs(pvs_cp_split_t(c, a, j, b));
			if (t2 < t)
				t = t2;
			if (t >= tc && t > bt &&
			    pvs_cp_split_outliers(c, lim, a, j, b,
						  lim->split_p) <= lim->split_p) {
				bt = t;
				best = j;
			}
		}
		/* a bump: two candidates of one segment */
		for (size_t u = 0; !best && isfinite(bc) && u < m; u++) {
			size_t i = js[u], a = sa[u], b = sb[u];

			if (!b || i - a < PV_CP_MIN_SEG)
				continue;
			for (size_t v = u + 1; v < m; v++) {
				size_t j = js[v];
				double t;

				if (j + PV_CP_MIN_SEG > b || j - i > PV_CP_MAX_BUMP)
					break;
				if (j - i < PV_CP_MIN_SEG)
					continue;
				t = sqrt(pvs_cp_bump_t2(c, a, i, j, b,
							c->s[i] - c->s[a] + c->s[b],
							c->v[i] - c->v[a] + c->v[b]));
				if (t >= bc && t > bt &&
				    pvs_cp_bump_outliers(c, lim, a, i, j, b,
							 lim->split_p) <= lim->split_p) {
					bt = t;
					best2 = i;
					best = j;
				}
			}
		}
		if (!best)
			return;
		pvs_cp_cpset_insert(s, best);
		pvs_cp_cpset_insert(added, best);
		if (best2) {
			pvs_cp_cpset_insert(s, best2);
			pvs_cp_cpset_insert(added, best2);
		}
	}
}

/*
 * Whether the steps of s (no slope: keep's, and nadd candidates') explain
 * the series better than keep's steps and step 2's slope beta.  The
 * staircase replaces one parameter, the slope, by nadd: each candidate
 * past the first pays what its own test charges a step, the candidates'
 * squared critical t.  The residuals are weighed by the noise of the
 * staircase's segment they lie in (the median |difference| within it,
 * which neither fit moves much), so that a quiet segment's misfit is
 * not drowned by a noisy one's (unweighted, a clean step lost to a
 * noisy tail).  A slow drift that candidates
 * cut into a staircase leaves a sawtooth the line does not.  scratch
 * holds 3L.
 */
static int staircase_wins(const double *y, const double *var, size_t L,
			  const struct cpset *s, const struct cpset *keep,
			  double beta, const struct limits *lim, double nadd,
			  double *scratch)
{
	double tc = pv_t_quantile(1 - lim->split_p / 2, lim->df);
	double *w = scratch, *d = scratch + L, *tmp = scratch + 2 * L;
	double pooled = 0, floor = pvs_cp_var_floor(y, L);
	size_t a = 0;

	for (size_t j = 0; j < L; j++)
		pooled += var[j];
	pooled = L ? pooled / (double)L : 0;
	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double v = pooled;

		/* a segment too short for a median of its own takes the
		 * series' variance */
		if (b - a >= 2 * PV_CP_MIN_SEG) {
			for (size_t j = a + 1; j < b; j++)
				d[j - a - 1] = fabs(y[j] - y[j - 1]);
			v = pvs_cp_median_of(d, b - a - 1, tmp) / MEDIAN_DIFF_SD;
			v *= v;
		}
		for (size_t j = a; j < b; j++)
			w[j] = v > floor ? v : floor;
		a = b;
	}
	return (nadd - 1) * tc * tc + pvs_cp_fit_ss(y, w, L, s, 0, lim->cap) <
	       pvs_cp_fit_ss(y, w, L, keep, beta, lim->cap);
}

/*
 * Each step of added (in s) is seen net of the slope common to s's
 * segments, with that slope's error: its p at most PV_CP_STEP_SEEN.  A
 * drift's two halves differ, and a step fits them about as well as the
 * slope does (better in about two trials of five at 20 points); net of
 * the slope they do not differ.
 */
static int steps_seen(const struct psum *c, size_t L, const struct cpset *s,
		      const struct cpset *added, double df)
{
	double sxx, beta = pvs_cp_common_slope(c, L, s, &sxx), s2 = mean_var(c, L);
	size_t h = 0;

	for (size_t i = 0; i < s->n; i++) {
		size_t a = i ? s->k[i - 1] : 0, b = i + 1 < s->n ? s->k[i + 1] : L;

		while (h < added->n && added->k[h] < s->k[i])
			h++;
		if (h < added->n && added->k[h] == s->k[i] &&
		    two_sided_p(pvs_cp_step_t_sloped(c, a, s->k[i], b, beta, sxx, s2),
				df) > PV_CP_STEP_SEEN)
			return 0;
	}
	return 1;
}

/*
 * Step 2b for one series: add_candidates(), and when step 2 fitted a
 * slope, first without it (a step of the series at a commit others
 * stepped at is often fitted as a slope, whose error then hides the
 * step): the steps it adds stand when the slope within the new segments
 * is no longer significant at the trend's level and they fit better than
 * the slope (staircase_wins()), and the slope goes; else the series keeps
 * step 2's fit.  Returns the slope kept.  keep is scratch; scratch holds
 * 3L.
 */
double pvs_cp_candidates(const struct pv_cp_series *x, struct psum *c,
			 const double *var, const struct limits *lim,
			 const struct cands *cs, double beta, struct cpset *s,
			 struct cpset *added, double *scratch)
{
	double bvar = c->bvar, slope, sxx, rss;

	if (beta == 0) {
		add_candidates(c, x, lim, cs, s, added);
		return 0;
	}
	pvs_cp_cpset_copy(cs->keep, s);
	pvs_cp_psum_build(c, x->clipped, var, x->L, 0, 0);
	add_candidates(c, x, lim, cs, s, added);
	if (added->n) {
		pvs_cp_seg_slope(x->clipped, x->L, s, lim->cap, &slope, &sxx, &rss);
		if (two_sided_p(pvs_cp_slope_t(slope, sxx, x->sd), lim->df) > lim->line_p &&
		    staircase_wins(x->clipped, var, x->L, s, cs->keep, beta,
				   lim, (double)added->n, scratch) &&
		    (!cs->drifts || steps_seen(c, x->L, s, added, lim->df)))
			return 0;
	}
	/* the slope stands: step 2's fit */
	pvs_cp_cpset_copy(s, cs->keep);
	added->n = 0;
	pvs_cp_psum_build(c, x->clipped, var, x->L, beta, bvar);
	return beta;
}

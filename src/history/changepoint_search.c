/*
 * changepoint_search.c - the search for levels in one series
 * (changepoint.h, step 2): prefix sums, the t of a split and of a bump,
 * the best split and the best bump of a segment, the noisy-neighbour
 * test, binary segmentation and its refinement.
 */
#include "changepoint_int.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "../stats.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* A split goes as the trend's only when the slope common to the
 * segments is significant at this p: net of a slope that is not there, a
 * short level's step carries the slope's error and is lost. */
#define PV_CP_SLOPE_SEEN 0.05
/* The refinement's passes: it ends when a pass changes nothing; this
 * only bounds it. */
#define REFINE_PASSES 50

size_t pv_cp_positions(size_t L)
{
	return L >= 2 * PV_CP_MIN_SEG ? L - 2 * PV_CP_MIN_SEG + 1 : 0;
}

void pvs_cp_psum_build(struct psum *c, const double *y, const double *var,
		       size_t L, double beta, double bvar)
{
	double big = 0;

	c->s[0] = c->v[0] = c->sx[0] = 0;
	c->ref = L ? y[0] : 0;
	c->beta = beta;
	c->bvar = beta != 0 ? bvar : 0;
	for (size_t j = 0; j < L; j++)
		if (fabs(y[j]) > big)
			big = fabs(y[j]);
	/* differences below a billionth of the values' size are rounding
	 * (a line taken out of a noiseless series leaves them) */
	c->tol2 = 1e-9 * (big + 1);
	c->tol2 *= c->tol2;
	c->cvar = L && isfinite(var[0]) && var[0] >= 0 ? var[0] : NAN;
	for (size_t j = 1; j < L && !isnan(c->cvar); j++)
		if (var[j] != c->cvar)
			c->cvar = NAN;
	for (size_t j = 0; j < L; j++) {
		double z = y[j] - beta * (double)j - c->ref;

		c->s[j + 1] = c->s[j] + z;
		c->sx[j + 1] = c->sx[j] + (double)j * z;
		c->v[j + 1] = c->v[j] + var[j];
	}
}

/*
 * The t of splitting [a, b) at k: the difference of the two parts'
 * means over its standard error, each point with its own variance, and
 * with a slope in the model, the slope's own error over the distance of
 * the two parts' centres (a step net of a fitted slope is less certain
 * than the slope's absence would make it).  No
 * variance at all (constant levels) leaves rounding's: a step between
 * constant levels has a t in the billions, equal levels 0.
 */
double pvs_cp_split_t(const struct psum *c, size_t a, size_t k, size_t b)
{
	double d = seg_mean(c, k, b) - seg_mean(c, a, k);
	double dx = 0.5 * (double)(b - a);
	double se2 = seg_var(c, a, k) + seg_var(c, k, b) + dx * dx * c->bvar;

	return d / sqrt(se2 > c->tol2 ? se2 : c->tol2);
}

/* The same difference scaled as if every variance were 1: it breaks the
 * ties of infinite t's (a step between constant levels). */
static double split_score(const struct psum *c, size_t a, size_t k, size_t b)
{
	double d = seg_mean(c, k, b) - seg_mean(c, a, k);

	return fabs(d) / sqrt(1.0 / (double)(k - a) + 1.0 / (double)(b - k));
}

/* The best split of [a, b), or 0 when the segment is too short. */
size_t pvs_cp_best_split(const struct psum *c, size_t a, size_t b,
			 double *tbest)
{
	size_t best = 0;
	double sbest = 0;

	*tbest = 0;
	if (b - a < 2 * PV_CP_MIN_SEG)
		return 0;
	for (size_t k = a + PV_CP_MIN_SEG; k + PV_CP_MIN_SEG <= b; k++) {
		double t = fabs(pvs_cp_split_t(c, a, k, b));
		double sc = isinf(t) ? split_score(c, a, k, b) : 0;

		if (!best || t > *tbest || (t == *tbest && sc > sbest)) {
			best = k;
			*tbest = t;
			sbest = sc;
		}
	}
	return best;
}

void pvs_cp_cpset_insert(struct cpset *s, size_t k)
{
	size_t i;

	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 8;
		s->k = pv_reallocarray(s->k, s->alloc, sizeof(*s->k));
	}
	for (i = s->n; i > 0 && s->k[i - 1] > k; i--)
		s->k[i] = s->k[i - 1];
	s->k[i] = k;
	s->n++;
}

static void cpset_remove(struct cpset *s, size_t i)
{
	memmove(s->k + i, s->k + i + 1, (s->n - i - 1) * sizeof(*s->k));
	s->n--;
}

void pvs_cp_cpset_copy(struct cpset *to, const struct cpset *from)
{
	if (to->alloc < from->n) {
		to->alloc = from->n;
		to->k = pv_reallocarray(to->k, to->alloc, sizeof(*to->k));
	}
	if (from->n)
		memcpy(to->k, from->k, from->n * sizeof(*to->k));
	to->n = from->n;
}

void pvs_cp_cpset_swap(struct cpset *a, struct cpset *b)
{
	struct cpset t = *a;

	*a = *b;
	*b = t;
}

/*
 * The best bump of [a, b): a level [i, j) inside it, at least
 * PV_CP_MIN_SEG points, as are the parts before and after it, against
 * the mean of those two parts (a dip that is fixed again, which no
 * single split of the segment finds: circular binary segmentation).
 * Returns 0 when the segment is too short.
 *
 * Each bump's t^2 is first bounded from above with reciprocals of its
 * lengths, multiplied (no division); only a bump whose bound reaches
 * the best so far is computed exactly (pvs_cp_bump_t2(), the same operations
 * in the same order as always), so the bump chosen and its t are
 * exactly those of the full search.  Why the bound holds: |d| is at
 * most the products' difference plus 1e-14 of their sizes (90 units in
 * the last place; the reciprocals' and products' rounding is 4; the
 * sizes bounded once a segment, from its prefix sums' range) plus
 * 1e-300 (a subnormal's rounding); the variance is at least the
 * products' sum less 1e-14 of it -- or, when every point has one
 * variance c (the family's scale, psum.cvar), c (1/n_in + 1/n_out) less
 * the prefix sums' rounding (8 b^2 units; used up to b = 30,000), so
 * that the sums of variances need not be read -- or tol2, which is
 * 1e-18 or more (a subnormal variance is tol2 both ways); rounding is
 * monotone, so d^2 / se2 rounds to no more than the bound's; and the
 * bound is compared with the best t^2 times the variance only where
 * both lie within 1e+-150 (no overflow, no subnormal: rounding
 * relative).  A NaN fails the test and takes the exact path.  (Checked
 * against the full search on 10^6 random segments: constant levels,
 * ties, subnormal and 1e300 values.)
 */
double pvs_cp_bump_t2(const struct psum *c, size_t a, size_t i, size_t j,
		      size_t b, double s0, double v0)
{
	double nin = (double)(j - i), nout = (double)(b - a) - nin;
	double sout = s0 - c->s[j], vout = v0 - c->v[j];
	double d = (c->s[j] - c->s[i]) / nin - sout / nout;
	double se2 = (c->v[j] - c->v[i]) / (nin * nin) + vout / (nout * nout);

	return d * d / (se2 > c->tol2 ? se2 : c->tol2);
}

/* Two doubles, for the bound of two bumps at once (GCC's and Clang's
 * vector extension: SSE2 on x86-64, plain code elsewhere). */
typedef double v2d __attribute__((vector_size(16)));
typedef long long v2i __attribute__((vector_size(16)));

/* Bump [i, j) computed exactly, and taken when it is the first or beats
 * the best; *bs the best as the bound uses it: NAN (no skipping)
 * outside 1e+-150. */
static void bump_take(const struct psum *c, size_t a, size_t i, size_t j,
		      size_t b, double s0, double v0, size_t *ibest,
		      size_t *jb, double *best, v2d *bs)
{
	double t2 = pvs_cp_bump_t2(c, a, i, j, b, s0, v0);

	if (!*ibest || t2 > *best) {
		*ibest = i;
		*jb = j;
		*best = t2;
		(*bs)[0] = (*bs)[1] = t2 >= 1e-150 && t2 <= 1e150 ? t2 : NAN;
	}
}

/* 1/n and 1/n^2 of a bump's points and of the rest's, by the bump's
 * length; with one variance, the bound's variance (pvs_cp_best_bump()). */
struct bump_table {
	double rin[PV_CP_MAX_BUMP + 1], rin2[PV_CP_MAX_BUMP + 1];
	double rout[PV_CP_MAX_BUMP + 1], rout2[PV_CP_MAX_BUMP + 1];
	double lbc[PV_CP_MAX_BUMP + 1];
};

/*
 * The margin of pvs_cp_best_bump()'s bound on |d| for the segment
 * [a, b) of the prefix sums cs: |d1| + |d2| <= 2/3 w: the bump's sum is
 * at most the range of the prefix sums, the rest's twice that, and the
 * rest's rounding (shared by both paths) a few units of the sums' size;
 * divided by n_in >= 3 and n_out >= 6.
 */
static double bump_margin(const double *cs, size_t a, size_t b)
{
	double lo = cs[a], hi = cs[a], big = 0, w;

	for (size_t k = a; k <= b; k++) {
		if (cs[k] < lo)
			lo = cs[k];
		if (cs[k] > hi)
			hi = cs[k];
		if (fabs(cs[k]) > big)
			big = fabs(cs[k]);
	}
	w = (hi - lo) * (1 + 1e-12) + big * 1e-12;
	return 1e-14 * w + 1e-300;
}

/* The table of the bumps of [a, b) up to maxlen points long. */
static void bump_table(const struct psum *c, size_t a, size_t b,
		       size_t maxlen, double eps, struct bump_table *t)
{
	for (size_t len = PV_CP_MIN_SEG; len <= maxlen; len++) {
		double nin = (double)len, nout = (double)(b - a) - nin, lb;

		t->rin[len] = 1 / nin;
		t->rin2[len] = 1 / (nin * nin);
		t->rout[len] = 1 / nout;
		t->rout2[len] = 1 / (nout * nout);
		lb = c->cvar * (t->rin[len] + t->rout[len]) * (1 - eps);
		if (!(lb > c->tol2))
			lb = c->tol2;
		lb *= 1 - 1e-13;
		t->lbc[len] = lb <= 1e150 ? lb : NAN;
	}
}

size_t pvs_cp_best_bump(const struct psum *c, size_t a, size_t b,
			size_t *jbest, double *tbest)
{
	struct bump_table tab;
	const double *rin = tab.rin, *rin2 = tab.rin2, *rout = tab.rout;
	const double *rout2 = tab.rout2, *lbc = tab.lbc;
	const double *cs = c->s, *cv = c->v, tol2 = c->tol2;
	double eps = 8 * (double)b * (double)b * DBL_EPSILON / 2 + 1e-14;
	int one_var = c->cvar >= 0 && c->cvar < 1e250 && eps <= 1e-6;
	size_t ibest = 0, jb = 0, maxlen;
	double best = 0, margin;
	v2d vbs = { NAN, NAN }, vmargin;
	v2i vabs = { INT64_MAX, INT64_MAX };

	*tbest = 0;
	*jbest = 0;
	if (b - a < 3 * PV_CP_MIN_SEG)
		return 0;
	maxlen = b - a - 2 * PV_CP_MIN_SEG;
	if (maxlen > PV_CP_MAX_BUMP)
		maxlen = PV_CP_MAX_BUMP;
	margin = bump_margin(cs, a, b);
	vmargin[0] = vmargin[1] = margin;
	bump_table(c, a, b, maxlen, eps, &tab);
	for (size_t i = a + PV_CP_MIN_SEG; i + 2 * PV_CP_MIN_SEG <= b; i++) {
		/* the first terms of the rest's sums, in their order */
		double s0 = cs[i] - cs[a] + cs[b];
		double v0 = cv[i] - cv[a] + cv[b];
		size_t jend = i + PV_CP_MAX_BUMP < b - PV_CP_MIN_SEG ?
			      i + PV_CP_MAX_BUMP : b - PV_CP_MIN_SEG;

		size_t j = i + PV_CP_MIN_SEG;

		/* one variance: two bumps at a time (the same bound, lane by
		 * lane; a bound passed with the best before the pair's first
		 * bump is still one, the best only grows) */
		if (one_var) {
			v2d vi = { cs[i], cs[i] }, vs0 = { s0, s0 };

			for (; j < jend; j += 2) {
				size_t len = j - i;
				v2d x, ri, ro, lb, d, ub;
				v2i bits, skip;

				memcpy(&x, cs + j, sizeof(x));
				memcpy(&ri, rin + len, sizeof(ri));
				memcpy(&ro, rout + len, sizeof(ro));
				memcpy(&lb, lbc + len, sizeof(lb));
				d = (x - vi) * ri - (vs0 - x) * ro;
				memcpy(&bits, &d, sizeof(bits));
				bits &= vabs;
				memcpy(&d, &bits, sizeof(d));
				ub = d + vmargin;
				skip = ub * ub <= vbs * lb;
				if (skip[0] && skip[1])
					continue;
				for (size_t q = 0; q < 2; q++)
					if (!skip[q])
						bump_take(c, a, i, j + q, b, s0, v0,
							  &ibest, &jb, &best, &vbs);
			}
		}
		for (; j <= jend; j++) {
			size_t len = j - i;
			double d1 = (cs[j] - cs[i]) * rin[len];
			double d2 = (s0 - cs[j]) * rout[len];
			double ub = fabs(d1 - d2) + margin;
			double rhs;

			if (one_var) {
				rhs = vbs[0] * lbc[len];
			} else {
				double lb = ((cv[j] - cv[i]) * rin2[len] +
					     (v0 - cv[j]) * rout2[len]) * (1 - 1e-14);

				if (!(lb > tol2))
					lb = tol2;
				rhs = vbs[0] * (lb * (1 - 1e-13));
				if (!(rhs < 1e300))
					rhs = NAN;
			}
			if (ub * ub <= rhs)
				continue;
			bump_take(c, a, i, j, b, s0, v0, &ibest, &jb, &best, &vbs);
		}
	}
	*jbest = jb;
	*tbest = sqrt(best);
	return ibest;
}

/* The number of bumps pvs_cp_best_bump() weighs in a series of L points: for
 * each start i, the ends j that leave PV_CP_MIN_SEG points on each side
 * and a bump of at most PV_CP_MAX_BUMP (m(m+1)/2, m = L - 3 MIN_SEG + 1,
 * when no bump reaches that length). */
double pvs_cp_bump_positions(size_t L)
{
	double n = 0;

	if (L < 3 * PV_CP_MIN_SEG)
		return 0;
	for (size_t i = PV_CP_MIN_SEG; i + 2 * PV_CP_MIN_SEG <= L; i++) {
		size_t last = L - PV_CP_MIN_SEG;      /* the largest j */

		if (last > i + PV_CP_MAX_BUMP)
			last = i + PV_CP_MAX_BUMP;
		n += (double)(last - (i + PV_CP_MIN_SEG) + 1);
	}
	return n;
}

/*
 * The p of "the side (the points of [a, b) and of [a2, b2)) differs from
 * the level m0 (variance v0 of that mean) only by noisy neighbours": its
 * points beyond the gross limit from m0, on the side's side, are the
 * outliers; when the rest of the side alone still differs from m0 at
 * level_p, or no point is gross, outliers do not explain it (0).
 * Otherwise the chance of at least that many gross points among the
 * side's, at the series' rate (pvs_cp_outlier_rates(), the side's own
 * gross points counted).  Three neighbouring 1.5x runs among 40
 * points at a 5% rate are a family's daily event, not a level.  A short
 * side inside the series is gross against the smaller of the limit and
 * PV_CP_GROSS scales with a quarter of the differences trimmed
 * (pvs_cp_clip_series()'s find scale): its own edges inflate the series' sd.
 */
static double side_outliers(const struct psum *c, const struct limits *lim,
			    size_t a, size_t b, size_t a2, size_t b2,
			    double m0, double v0, double level_p)
{
	double n = (double)(b - a + b2 - a2);
	double mean = (c->s[b] - c->s[a] + c->s[b2] - c->s[a2]) / n + c->ref;
	double dir = mean >= m0 ? 1 : -1, sum = 0;
	size_t m = 0, rest = 0;
	/* a short level that came and went: neither end of the series */
	int inner = a > 0 && (a2 < b2 ? b2 : b) < lim->L &&
		    n <= 2 * PV_CP_MIN_SEG;
	double g = inner ? lim->gross_in : lim->gross;

	if (!(lim->rate > 0) || !lim->raw)
		return 0;
	for (size_t j = a; j < b2; j++) {
		double z;

		if (j == b)
			j = a2;
		if (j >= b2)
			break;
		z = lim->raw[j] - c->beta * (double)j;
		if (dir * (z - m0) > g) {
			m++;
		} else if (-dir * (z - m0) > g) {
			/* gross the other way: an outlier too, and no
			 * evidence on the side's level */
			continue;
		} else {
			sum += z;
			rest++;
		}
	}
	if (!m)
		return 0;
	if (rest) {
		double pv = (c->v[b] - c->v[a] + c->v[b2] - c->v[a2]) / n;
		double se2 = pv / (double)rest + v0;
		double t = (sum / (double)rest - m0) /
			   sqrt(se2 > c->tol2 ? se2 : c->tol2);

		if (dir * t > 0 && two_sided_p(t, lim->df) <= level_p)
			return 0;
	}
	return gsl_cdf_binomial_Q((unsigned)(m - 1), lim->rate, (unsigned)n);
}

/* The same for a split of [a, b) at k: either side may be the outliers. */
double pvs_cp_split_outliers(const struct psum *c, const struct limits *lim,
			     size_t a, size_t k, size_t b, double level_p)
{
	double p0 = side_outliers(c, lim, a, k, b, b, seg_mean(c, k, b),
				  seg_var(c, k, b), level_p);
	double p1 = side_outliers(c, lim, k, b, b, b, seg_mean(c, a, k),
				  seg_var(c, a, k), level_p);

	return p0 > p1 ? p0 : p1;
}

/* ... and for a bump [i, j) of [a, b): the bump or the rest. */
double pvs_cp_bump_outliers(const struct psum *c, const struct limits *lim,
			    size_t a, size_t i, size_t j, size_t b,
			    double level_p)
{
	double nout = (double)(b - a - (j - i));
	double mout = (c->s[i] - c->s[a] + c->s[b] - c->s[j]) / nout + c->ref;
	double vout = (c->v[i] - c->v[a] + c->v[b] - c->v[j]) / (nout * nout);
	double p0 = side_outliers(c, lim, i, j, b, b, mout, vout, level_p);
	double p1 = side_outliers(c, lim, a, i, j, b, seg_mean(c, i, j),
				  seg_var(c, i, j), level_p);

	return p0 > p1 ? p0 : p1;
}

/*
 * Binary segmentation of [a, b) into out: its best split when that is
 * significant at lim->split_p and not the noisy neighbours' (both halves
 * then searched again), else its best bump at lim->bump_p (the three
 * parts searched again), else nothing.
 */
static void bisect(const struct psum *c, size_t a, size_t b,
		   const struct limits *lim, struct cpset *out)
{
	double t;
	size_t k = pvs_cp_best_split(c, a, b, &t), j;

	if (!k || two_sided_p(t, lim->df) > lim->split_p ||
	    pvs_cp_split_outliers(c, lim, a, k, b, lim->split_p) >
	    lim->split_p) {
		/* no step: perhaps a level that came and went */
		k = pvs_cp_best_bump(c, a, b, &j, &t);
		/* the noisy neighbours' chance at a split's level: the
		 * refinement tests each of the bump's two splits so */
		if (!k || two_sided_p(t, lim->df) > lim->bump_p ||
		    pvs_cp_bump_outliers(c, lim, a, k, j, b, lim->split_p) >
		    lim->split_p)
			return;
		pvs_cp_cpset_insert(out, k);
		pvs_cp_cpset_insert(out, j);
		bisect(c, a, k, lim, out);
		bisect(c, k, j, lim, out);
		bisect(c, j, b, lim, out);
		return;
	}
	pvs_cp_cpset_insert(out, k);
	bisect(c, a, k, lim, out);
	bisect(c, k, b, lim, out);
}

/* The slope common to the segments of s, each with its own level, of
 * the values of c; sxx: the positions' sum of squares it stands on. */
double pvs_cp_common_slope(const struct psum *c, size_t L,
			   const struct cpset *s, double *sxx)
{
	double sxy = 0;
	size_t a = 0;

	*sxx = 0;
	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double xbar = 0.5 * (double)(a + b - 1);

		sxy += c->sx[b] - c->sx[a] - xbar * (c->s[b] - c->s[a]);
		*sxx += pos_ss(a, b);
		a = b;
	}
	return *sxx > 0 ? sxy / *sxx : 0;
}

/*
 * The t of the step at k between [a, k) and [k, b) net of a slope beta
 * common to the segments (sxx its positions' sum of squares, s2 the
 * variance it is estimated with): a slow trend makes two halves' means
 * differ; it does not make this t large.
 */
double pvs_cp_step_t_sloped(const struct psum *c, size_t a, size_t k,
			    size_t b, double beta, double sxx, double s2)
{
	double dx = 0.5 * (double)(b - a);
	double d = seg_mean(c, k, b) - seg_mean(c, a, k) - beta * dx;
	double se2 = seg_var(c, a, k) + seg_var(c, k, b) +
		     (sxx > 0 ? dx * dx * s2 / sxx : 0) + dx * dx * c->bvar;

	return d / sqrt(se2 > c->tol2 ? se2 : c->tol2);
}

/*
 * Binary segmentation, then refinement: each split moves to its best
 * place between its neighbours, and the weakest goes while it is not
 * significant.  Ends when a pass changes nothing (bounded, to be safe).
 */
void pvs_cp_segment(const struct psum *c, size_t L, const struct limits *lim,
		    struct cpset *s)
{
	double df = lim->df, limit_p = lim->split_p, line_p = lim->line_p;
	double s2 = mean_var(c, L);

	s->n = 0;
	bisect(c, 0, L, lim, s);
	for (int pass = 0; pass < REFINE_PASSES && s->n; pass++) {
		int moved = 0, sloped;
		size_t weakest = 0;
		double wp = -1, beta, sxx;

		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double t;
			size_t k = pvs_cp_best_split(c, a, b, &t);

			if (k && k != s->k[i]) {
				s->k[i] = k;
				moved = 1;
			}
		}
		beta = pvs_cp_common_slope(c, L, s, &sxx);
		sloped = sxx > 0 && s2 > 0 &&
			 two_sided_p(beta / sqrt(s2 / sxx), df) <= PV_CP_SLOPE_SEEN;
		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			size_t k = s->k[i];
			double p = two_sided_p(pvs_cp_split_t(c, a, k, b), df);
			double pl = two_sided_p(pvs_cp_step_t_sloped(c, a, k, b,
								     beta, sxx,
								     s2), df);

			/* a split a slope within the segments explains is
			 * the trend's, not a step, when there is a slope;
			 * one a few noisy neighbours explain is theirs */
			if (sloped && pl > line_p)
				p = 1;
			if (p <= limit_p) {
				double po = pvs_cp_split_outliers(c, lim, a, k, b,
								  limit_p);

				if (po > p)
					p = po;
			}
			if (p > wp) {
				wp = p;
				weakest = i;
			}
		}
		if (wp > limit_p)
			cpset_remove(s, weakest);
		else if (!moved)
			break;
	}
}

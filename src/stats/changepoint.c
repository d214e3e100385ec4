/*
 * changepoint.c - binary segmentation with a family-wise threshold, on
 * clipped point values, with the between-point sd moderated across the
 * family.  See changepoint.h for the method.
 */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include "../stats.h"
#include "../util/banned.h"

/* MAD to sd, for normal data. */
#define MAD_SD 1.482602218505602
/* sd of a standard normal within its central 90%: sqrt(E[Z^2 | |Z| < z_.95]) */
#define TRIM_SD 0.7893132991

size_t pv_cp_positions(size_t L)
{
	return L >= 2 * PV_CP_MIN_SEG ? L - 2 * PV_CP_MIN_SEG + 1 : 0;
}

static double med3(double a, double b, double c)
{
	if (a > b) {
		double t = a; a = b; b = t;
	}
	return c <= a ? a : c >= b ? b : c;
}

/* x[0..n) in ascending order: an insertion sort for the few values of
 * a window or a point's runs (gsl_sort's call and heap cost more than
 * the sort there: 11% of history's time at 10k metrics), else GSL's. */
static void sort_values(double *x, size_t n)
{
	if (n > 16) {
		gsl_sort(x, 1, n);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		for (; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

static double med5(double *x)
{
	sort_values(x, 5);
	return x[2];
}

/* The median of x[0..n), which is left sorted (callers use that). */
static double median_sorted(double *x, size_t n)
{
	sort_values(x, n);
	return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Runs further than this many robust within-point sds from their
 * point's median are left out of the point's value. */
#define RUN_REJECT 5.0

double pv_cp_run_tau(const double *lv, const uint32_t *n, const size_t *off,
		     size_t npoints, size_t nruns)
{
	double *dev = pv_malloc(st_mult(nruns ? nruns : 1, sizeof(*dev)));
	double *tmp = pv_malloc(st_mult(nruns ? nruns : 1, sizeof(*tmp)));
	double tau = INFINITY;
	size_t nd = 0;

	/* deviations from the point medians, the median run itself left
	 * out once per point of odd n */
	for (size_t j = 0; j < npoints; j++) {
		double med;

		if (n[j] < 3)
			continue;
		memcpy(tmp, lv + off[j], n[j] * sizeof(*tmp));
		med = median_sorted(tmp, n[j]);
		for (size_t i = 0; i < n[j]; i++)
			if (!(n[j] % 2 && i == n[j] / 2))
				dev[nd++] = fabs(tmp[i] - med);
	}
	if (nd)
		tau = RUN_REJECT * MAD_SD * median_sorted(dev, nd);
	free(dev);
	free(tmp);
	return tau;
}

double pv_cp_point_value(const double *x, size_t n, int logscale,
			 double tau)
{
	double *l, *tmp, med, sum = 0;
	size_t k = 0;

	if (!n)
		return NAN;
	ALLOC_ARRAY(l, n);
	for (size_t i = 0; i < n; i++) {
		if (logscale && !(x[i] > 0 && isfinite(x[i]))) {
			free(l);
			return NAN;
		}
		l[i] = logscale ? log(x[i]) : x[i];
	}
	if (n < 3) {
		for (size_t i = 0; i < n; i++)
			sum += l[i];
		free(l);
		return sum / (double)n;
	}
	ALLOC_ARRAY(tmp, n);
	memcpy(tmp, l, n * sizeof(*tmp));
	med = median_sorted(tmp, n);
	free(tmp);
	for (size_t i = 0; i < n; i++)
		if (fabs(l[i] - med) <= tau) {
			sum += l[i];
			k++;
		}
	free(l);
	return k ? sum / (double)k : med;
}

/*
 * The robust sd of the values from their successive differences, after
 * the median difference (a slow trend) is taken out: the larger of the
 * MAD's estimate and the 90%-trimmed root mean square's, each made
 * consistent for normal data.  The MAD alone collapses for values that
 * take few distinct levels (two CPU frequencies); the trimmed RMS alone
 * gives way sooner to heavy tails; steps fall in the trimmed tenth.
 */
static double diff_scale(const double *y, size_t L)
{
	double *d = pv_malloc(st_mult(L - 1, sizeof(*d)));
	double md, mad, ss = 0;
	size_t keep = (size_t)ceil(0.9 * (double)(L - 1));

	for (size_t i = 1; i < L; i++)
		d[i - 1] = y[i] - y[i - 1];
	md = median_sorted(d, L - 1);
	for (size_t i = 1; i < L; i++)
		d[i - 1] = fabs(y[i] - y[i - 1] - md);
	mad = MAD_SD * median_sorted(d, L - 1);
	for (size_t i = 0; i < keep; i++)
		ss += d[i] * d[i];
	free(d);
	ss = sqrt(ss / (double)keep) / TRIM_SD;
	return (mad > ss ? mad : ss) / sqrt(2.0);
}

size_t pv_cp_clip(const double *y, size_t L, double *out, double *sd)
{
	double ref, lim;
	size_t nclip = 0;

	memcpy(out, y, L * sizeof(*y));
	*sd = NAN;
	if (L < 3)
		return 0;
	*sd = diff_scale(y, L);
	lim = PV_CP_CLIP * *sd;
	for (size_t i = 0; i < L; i++) {
		/* The median of the point and its nearest neighbours (five,
		 * or three in a short series): one or two wild points never
		 * move another, and a step is never clipped once
		 * PV_CP_MIN_SEG points confirm it. */
		size_t w = L >= 5 ? 5 : 3, c = i < w / 2 ? w / 2 :
			   i + w / 2 >= L ? L - 1 - w / 2 : i;
		double win[5], d;

		for (size_t k = 0; k < w; k++)
			win[k] = y[c - w / 2 + k];
		ref = w == 5 ? med5(win) : med3(win[0], win[1], win[2]);
		d = y[i] - ref;
		if (fabs(d) > PV_CP_GROSS * *sd) {
			/* gross: a noisy neighbour, not a value */
			out[i] = ref;
			nclip++;
		} else if (fabs(d) > lim) {
			out[i] = ref + (d > 0 ? lim : -lim);
			nclip++;
		}
	}
	return nclip;
}

/* Prefix sums of the values less ref: s[i] = y[0] + ... + y[i-1], and
 * sx[i] the same of j * y[j], for the line's fit. */
struct psum {
	double *s, *sx, ref;
};

static double seg_mean(const struct psum *c, size_t a, size_t b)
{
	return (c->s[b] - c->s[a]) / (double)(b - a) + c->ref;
}

/* The t of splitting [a, b) at k, with sd known. */
static double split_t(const struct psum *c, size_t a, size_t k, size_t b,
		      double sd)
{
	double d = seg_mean(c, k, b) - seg_mean(c, a, k);
	double se = sd * sqrt(1.0 / (double)(k - a) + 1.0 / (double)(b - k));

	if (se > 0)
		return d / se;
	return d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
}

/* The best split of [a, b), or 0 when the segment is too short. */
static size_t best_split(const struct psum *c, size_t a, size_t b, double sd,
			 double *tbest)
{
	size_t best = 0;

	*tbest = 0;
	if (b - a < 2 * PV_CP_MIN_SEG)
		return 0;
	for (size_t k = a + PV_CP_MIN_SEG; k + PV_CP_MIN_SEG <= b; k++) {
		double t = fabs(split_t(c, a, k, b, sd));

		if (!best || t > *tbest) {
			best = k;
			*tbest = t;
		}
	}
	return best;
}

static double two_sided_p(double t, double df)
{
	double p;

	if (isinf(t))
		return 0;
	p = 2 * pv_t_sf(fabs(t), df);
	return p > 1 ? 1 : p;
}

struct cpset {
	size_t *k;
	size_t n, alloc;
};

static void cpset_insert(struct cpset *s, size_t k)
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

/* Sum of squares of the positions a..b-1 about their mean. */
static double pos_ss(size_t a, size_t b)
{
	double n = (double)(b - a);

	return n * (n * n - 1) / 12;
}

/*
 * The slope common to the segments of s, each with its own level: the
 * within-segment least-squares slope, and the positions' sum of squares
 * it is estimated over.
 */
static double common_slope(const struct psum *c, size_t L,
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
 * The t of the step at k between segments [a, k) and [k, b) in the model
 * of a level per segment and one slope common to all: the difference of
 * the levels net of the slope over the distance of the segments'
 * centres, over its standard error, sd known.  A slow trend makes two
 * halves' means differ; it does not make this t large.
 */
static double step_t_sloped(const struct psum *c, size_t a, size_t k,
			    size_t b, double beta, double sxx, double sd)
{
	double dx = 0.5 * (double)(b - a);
	double d = seg_mean(c, k, b) - seg_mean(c, a, k) - beta * dx;
	double v = 1.0 / (double)(k - a) + 1.0 / (double)(b - k) +
		   (sxx > 0 ? dx * dx / sxx : 0);
	double se = sd * sqrt(v);

	if (se > 0)
		return d / se;
	return d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
}

static void bisect(const struct psum *c, size_t a, size_t b, double sd, double df,
		   double limit_p, struct cpset *out)
{
	double t;
	size_t k = best_split(c, a, b, sd, &t);

	if (!k || two_sided_p(t, df) > limit_p)
		return;
	cpset_insert(out, k);
	bisect(c, a, k, sd, df, limit_p, out);
	bisect(c, k, b, sd, df, limit_p, out);
}

/*
 * Binary segmentation, then refinement: each split moves to its best
 * place between its neighbours, and the weakest goes while it is not
 * significant.  Ends when a pass changes nothing (bounded, to be safe).
 */
static void segment(const struct psum *c, size_t L, double sd, double df,
		    double limit_p, double line_p, struct cpset *s)
{
	s->n = 0;
	if (!(sd >= 0))
		return;
	bisect(c, 0, L, sd, df, limit_p, s);
	for (int pass = 0; pass < 50 && s->n; pass++) {
		int moved = 0;
		size_t weakest = 0;
		double wp = -1, beta, sxx;

		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double t;
			size_t k = best_split(c, a, b, sd, &t);

			if (k && k != s->k[i]) {
				s->k[i] = k;
				moved = 1;
			}
		}
		beta = common_slope(c, L, s, &sxx);
		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double p = two_sided_p(split_t(c, a, s->k[i], b, sd), df);
			double pl = two_sided_p(step_t_sloped(c, a, s->k[i], b,
							      beta, sxx, sd), df);

			/* a split the common slope explains is the trend's */
			if (pl > line_p)
				p = 1;

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

/* Residual variance around the segment means, and its df. */
static void resid_var(const double *y, const struct psum *c, size_t L,
		      const struct cpset *s, double *s2, double *df)
{
	double ss = 0;
	size_t a = 0;

	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double m = seg_mean(c, a, b);

		for (size_t j = a; j < b; j++)
			ss += (y[j] - m) * (y[j] - m);
		a = b;
	}
	*df = (double)L - (double)(s->n + 1);
	*s2 = *df > 0 ? ss / *df : NAN;
}

/*
 * The least-squares slope common to the segments of s, each with its own
 * level (for no split, the line through the series): the slope, the sum
 * of squares of the positions about their segments' means it is
 * estimated over, and the residual sum of squares.
 */
static void seg_slope(const double *y, const struct psum *c, size_t L,
		      const struct cpset *s, double *slope, double *sxx,
		      double *rss)
{
	double sxy = 0, ss = 0;
	size_t a = 0;

	*sxx = 0;
	for (size_t i = 0; i <= s->n; i++) {
		size_t b = i < s->n ? s->k[i] : L;
		double n = (double)(b - a), xbar = 0.5 * (double)(a + b - 1);
		double m = seg_mean(c, a, b);

		for (size_t j = a; j < b; j++) {
			ss += (y[j] - m) * (y[j] - m);
			sxy += ((double)j - xbar) * (y[j] - m);
		}
		*sxx += n * (n * n - 1) / 12;
		a = b;
	}
	*slope = *sxx > 0 ? sxy / *sxx : 0;
	*rss = ss - *slope * sxy;
	if (*rss < 0)
		*rss = 0;
}

/*
 * A slow trend makes two halves' means differ: when a line through the
 * series leaves a residual variance no larger than the segments' levels
 * do, the splits are the line's, not steps, and go.  Returns 1 then, with
 * the line's residual variance and df.
 */
static int line_explains(const double *y, const struct psum *c, size_t L,
			 struct cpset *s, double *s2, double *df)
{
	struct cpset none = { NULL, 0, 0 };
	double slope, sxx, rss, line_s2, step_s2, step_df;

	if (!s->n || L < 3)
		return 0;
	resid_var(y, c, L, s, &step_s2, &step_df);
	seg_slope(y, c, L, &none, &slope, &sxx, &rss);
	line_s2 = rss / (double)(L - 2);
	if (step_df > 0 && !(line_s2 <= step_s2))
		return 0;
	s->n = 0;
	*s2 = line_s2;
	*df = (double)(L - 2);
	return 1;
}

void pv_cp_series_release(struct pv_cp_series *s)
{
	free(s->clipped);
	free(s->cp);
	s->clipped = NULL;
	s->cp = NULL;
	s->ncp = 0;
}

static void describe(const struct psum *c, size_t L, const struct cpset *s,
		     double sd, double df, double alpha, double ntests,
		     struct pv_cp *out)
{
	double tq = pv_t_quantile(1 - alpha / 2, df);
	double chi = gsl_cdf_chisq_Pinv(1 - alpha, 1);

	for (size_t i = 0; i < s->n; i++) {
		size_t a = i ? s->k[i - 1] : 0;
		size_t b = i + 1 < s->n ? s->k[i + 1] : L;
		size_t k = s->k[i];
		struct pv_cp *o = &out[i];
		double se = sd * sqrt(1.0 / (double)(k - a) + 1.0 / (double)(b - k));
		double t2;

		o->index = k;
		o->before = seg_mean(c, a, k);
		o->after = seg_mean(c, k, b);
		o->delta = o->after - o->before;
		o->delta_low = o->delta - tq * se;
		o->delta_high = o->delta + tq * se;
		o->t = split_t(c, a, k, b, sd);
		o->df = df;
		o->p = two_sided_p(o->t, df);
		o->q = o->p * ntests > 1 ? 1 : o->p * ntests;
		/* The location's profile interval: every split whose fit is
		 * within the chi-square(1) quantile of the best one's. */
		t2 = o->t * o->t;
		o->index_low = o->index_high = k;
		for (size_t j = a + PV_CP_MIN_SEG; j + PV_CP_MIN_SEG <= b; j++) {
			double tj = split_t(c, a, j, b, sd);

			if (isinf(t2) ? tj * tj == t2 : t2 - tj * tj <= chi) {
				if (j < o->index_low)
					o->index_low = j;
				if (j > o->index_high)
					o->index_high = j;
			}
		}
	}
}

/* The trend of a series beyond its steps, Bonferroni over ntrend. */
static void trend(struct pv_cp_series *x, const struct psum *c,
		  const struct cpset *s, double ntrend, double alpha)
{
	struct pv_cp_trend *t = &x->trend;
	double sxx, rss;

	memset(t, 0, sizeof(*t));
	t->slope = t->se = t->t = t->p = t->q = NAN;
	if (x->L < 3 || !(x->sd >= 0))
		return;
	seg_slope(x->clipped, c, x->L, s, &t->slope, &sxx, &rss);
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

int pv_cp_family(struct pv_cp_series *s, size_t n, double alpha,
		 struct pv_err *err)
{
	double ntests = 0, ntrend = 0;
	struct psum *csum = pv_calloc(n ? n : 1, sizeof(*csum));
	double *s2 = pv_calloc(n ? n : 1, sizeof(*s2));
	double *d = pv_calloc(n ? n : 1, sizeof(*d));
	double *sa = pv_calloc(n ? n : 1, sizeof(*sa));
	double *da = pv_calloc(n ? n : 1, sizeof(*da));
	struct cpset set = { NULL, 0, 0 };
	struct pv_prior prior;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i].ungated)
			continue;
		ntests += (double)pv_cp_positions(s[i].L);
		ntrend += s[i].L >= 3;
	}
	/* Step 1, and a first segmentation with the robust sd. */
	for (size_t i = 0; i < n; i++) {
		struct pv_cp_series *x = &s[i];

		ALLOC_ARRAY(x->clipped, x->L ? x->L : 1);
		x->nclipped = pv_cp_clip(x->y, x->L, x->clipped, &x->robust_sd);
		ALLOC_ARRAY(csum[i].s, st_add(x->L, 1));
		ALLOC_ARRAY(csum[i].sx, st_add(x->L, 1));
		csum[i].s[0] = csum[i].sx[0] = 0;
		csum[i].ref = x->L ? x->clipped[0] : 0;
		for (size_t j = 0; j < x->L; j++) {
			double v = x->clipped[j] - csum[i].ref;

			csum[i].s[j + 1] = csum[i].s[j] + v;
			csum[i].sx[j + 1] = csum[i].sx[j] + (double)j * v;
		}
		x->sd = x->robust_sd;
		x->df = INFINITY;
		x->cp = NULL;
		x->ncp = 0;
	}
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < n; i++) {
			double a = s[i].alpha > 0 ? s[i].alpha : alpha;
			/* a split goes when the common slope explains it at
			 * the trend test's level: alpha over the family's
			 * series */
			double limit_p = ntests > 0 ? a / ntests : 0;
			double line_p = ntrend > 0 ? a / ntrend : 0;
			int line;

			segment(&csum[i], s[i].L, s[i].sd, s[i].df, limit_p, line_p, &set);
			line = line_explains(s[i].clipped, &csum[i], s[i].L, &set,
					     &s2[i], &d[i]);
			if (round == 2) {
				trend(&s[i], &csum[i], &set, ntrend, a);
				s[i].trend.replaced = line;
				s[i].cp = pv_calloc(set.n ? set.n : 1, sizeof(struct pv_cp));
				s[i].ncp = set.n;
				describe(&csum[i], s[i].L, &set, s[i].sd, s[i].df,
					 a, ntests, s[i].cp);
				continue;
			}
			if (!line)
				resid_var(s[i].clipped, &csum[i], s[i].L, &set,
					  &s2[i], &d[i]);
			if (!(d[i] > 0)) {
				s2[i] = NAN;
				d[i] = 0;
			}
		}
		for (size_t i = 0; i < n; i++)
			if (s[i].alone)
				sa[i] = NAN, da[i] = 0;
			else
				sa[i] = s2[i], da[i] = d[i];
		if (round == 2)
			break;
		if (pv_fit_prior(sa, da, n, &prior, err)) {
			rc = -1;
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			double post;

			if (s[i].alone) {
				if (d[i] > 0) {
					s[i].sd = sqrt(s2[i]);
					s[i].df = d[i];
				}
				continue;
			}
			if (!(d[i] > 0) && !(prior.d0 > 0))
				continue;   /* keep the robust sd */
			post = pv_posterior_var(&prior, s2[i], d[i], &s[i].df);
			if (post >= 0)
				s[i].sd = sqrt(post);
		}
	}
out:
	for (size_t i = 0; i < n; i++) {
		free(csum[i].s);
		free(csum[i].sx);
	}
	free(csum);
	free(s2);
	free(d);
	free(sa);
	free(da);
	free(set.k);
	return rc;
}

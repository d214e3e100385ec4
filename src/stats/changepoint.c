/*
 * changepoint.c - binary segmentation with a family-wise threshold, on
 * clipped point values, with the between-point sd moderated across the
 * family: steps 1-4 of changepoint.h (pvs_cp_detect); pointeffect.c has
 * step 0 and the family's entry point.
 */
#include "changepoint.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include "../stats.h"
#include "ttest.h"
#include "internal.h"
#include "../util/banned.h"


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


static double med5(double *x)
{
	pvs_sort_small(x, 5);
	return x[2];
}

/* The median of x[0..n), which is left sorted (callers use that). */
static double median_sorted(double *x, size_t n)
{
	if (n <= 32)
		pvs_sort_small(x, n);   /* a point's runs: pvs_sort(), inline */
	else
		pvs_sort(x, n);
	return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/*
 * The median of x[0..n) (n >= 1), the value median_sorted() gives, by
 * selection in O(n) (pvs_median_select(), x untouched, tmp[0..n)
 * scratch); a NaN, which has no order, takes median_sorted()'s sort on
 * tmp as before.
 */
static double median_of(const double *x, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i])) {
			memcpy(tmp, x, n * sizeof(*tmp));
			return median_sorted(tmp, n);
		}
	return pvs_median_select(x, n, tmp);
}

/* Runs further than this many robust within-point sds from their
 * point's median are left out of the point's value. */
#define RUN_REJECT 5.0

/* pv_cp_run_tau(), and into med[j] (when med is not NULL) point j's
 * median run, NAN below 3 runs. */
static double run_tau(const double *lv, const uint32_t *n, const size_t *off,
		      size_t npoints, size_t nruns, double *med)
{
	double *dev = pv_malloc(st_mult(nruns ? nruns : 1, sizeof(*dev)));
	double *tmp = pv_malloc(st_mult(nruns ? nruns : 1, sizeof(*tmp)));
	double tau = INFINITY;
	size_t nd = 0;

	/* deviations from the point medians, the median run itself left
	 * out once per point of odd n */
	for (size_t j = 0; j < npoints; j++) {
		double m;

		if (med)
			med[j] = NAN;
		if (n[j] < 3)
			continue;
		memcpy(tmp, lv + off[j], n[j] * sizeof(*tmp));
		m = median_sorted(tmp, n[j]);
		if (med)
			med[j] = m;
		for (size_t i = 0; i < n[j]; i++)
			if (!(n[j] % 2 && i == n[j] / 2))
				dev[nd++] = fabs(tmp[i] - m);
	}
	if (nd)
		tau = RUN_REJECT * PVS_MAD_SD * median_of(dev, nd, tmp);
	free(dev);
	free(tmp);
	return tau;
}

double pv_cp_run_tau(const double *lv, const uint32_t *n, const size_t *off,
		     size_t npoints, size_t nruns)
{
	return run_tau(lv, n, off, npoints, nruns, NULL);
}

/* pv_cp_point_value() of runs l[0..n) (n >= 3) already on the values'
 * scale, whose median is med. */
static double point_value_med(const double *l, size_t n, double tau,
			      double med)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (fabs(l[i] - med) <= tau) {
			sum += l[i];
			k++;
		}
	return k ? sum / (double)k : med;
}

/* The same for n >= 1, tmp: n doubles of scratch. */
static double point_value(const double *l, size_t n, double tau, double *tmp)
{
	double sum = 0;

	if (n < 3) {
		for (size_t i = 0; i < n; i++)
			sum += l[i];
		return sum / (double)n;
	}
	memcpy(tmp, l, n * sizeof(*tmp));
	return point_value_med(l, n, tau, median_sorted(tmp, n));
}

double pv_cp_point_value(const double *x, size_t n, int logscale,
			 double tau)
{
	/* a point's handful of runs on the stack */
	double small[2 * SMALL_N], *l, *buf = NULL, v;

	if (!n)
		return NAN;
	l = n <= SMALL_N ? small : ALLOC_ARRAY(buf, st_mult(n, 2));
	for (size_t i = 0; i < n; i++) {
		if (logscale && !(x[i] > 0 && isfinite(x[i]))) {
			free(buf);
			return NAN;
		}
		l[i] = logscale ? log(x[i]) : x[i];
	}
	v = point_value(l, n, tau, l + n);
	free(buf);
	return v;
}

double pv_cp_point_values(const double *lv, const uint32_t *n,
			  const size_t *off, size_t npoints, size_t nruns,
			  double *value)
{
	double *med = pv_malloc(st_mult(npoints ? npoints : 1, sizeof(*med)));
	double tau = run_tau(lv, n, off, npoints, nruns, med);

	for (size_t j = 0; j < npoints; j++) {
		const double *l = lv + off[j];

		/* below 3 runs point_value() needs no scratch */
		value[j] = n[j] >= 3 ? point_value_med(l, n[j], tau, med[j]) :
			   n[j] ? point_value(l, n[j], tau, NULL) : NAN;
	}
	free(med);
	return tau;
}

/*
 * Sort x[0..n) ascending, x free of NaN and of -0 (absolute values):
 * quicksort, a median-of-3 pivot, pvs_sort() for short parts and when
 * the partitions go deep.  Such values have one sorted order, so it is
 * pvs_sort()'s to the bit, about four times faster than GSL's heapsort
 * at a hundred values.
 */
static void sort_abs(double *x, size_t n, int depth)
{
	while (n > 32) {
		size_t i, j;

		if (depth-- <= 0) {
			pvs_sort(x, n);
			return;
		}
		pvs_partition(x, n, &i, &j);
		/* x[0..j] <= piv <= x[i..n): the shorter part first */
		if (j + 1 < n - i) {
			sort_abs(x, j + 1, depth);
			x += i;
			n -= i;
		} else {
			sort_abs(x + i, n - i, depth);
			n = j + 1;
		}
	}
	pvs_sort(x, n);
}

/*
 * What the robust scales of y need of its L - 1 successive differences,
 * found once for every fraction kept (diff_scale()): the absolute
 * deviations from their median (a slow trend) sorted, the MAD's
 * estimate, the median absolute difference and the largest |y|.
 * d and tmp: L - 1 doubles each (d holds the deviations after).
 */
struct diffs {
	const double *dev;      /* sorted */
	size_t n;
	double mad;             /* PVS_MAD_SD x their median */
	double med_abs;         /* the median |y[i] - y[i - 1]| */
	double big;             /* the largest |y[i]| */
};

static void diffs_of(const double *y, size_t L, double *d, double *tmp,
		     struct diffs *o)
{
	double md;
	int nan;

	o->big = 0;
	for (size_t i = 0; i < L; i++)
		if (fabs(y[i]) > o->big)
			o->big = fabs(y[i]);
	for (size_t i = 1; i < L; i++)
		d[i - 1] = fabs(y[i] - y[i - 1]);
	o->med_abs = median_of(d, L - 1, tmp);
	for (size_t i = 1; i < L; i++)
		d[i - 1] = y[i] - y[i - 1];
	md = median_of(d, L - 1, tmp);
	nan = 0;
	for (size_t i = 1; i < L; i++) {
		d[i - 1] = fabs(y[i] - y[i - 1] - md);
		nan |= isnan(d[i - 1]);
	}
	if (nan) {
		o->mad = PVS_MAD_SD * median_sorted(d, L - 1);
	} else {
		size_t n = L - 1;

		sort_abs(d, n, 64);
		o->mad = PVS_MAD_SD * (n % 2 ? d[n / 2] :
				   0.5 * (d[n / 2 - 1] + d[n / 2]));
	}
	o->dev = d;
	o->n = L - 1;
}

/*
 * The robust sd of the values from their successive differences, after
 * the median difference (a slow trend) is taken out: the larger of the
 * MAD's estimate and the 90%-trimmed root mean square's, each made
 * consistent for normal data.  The MAD alone collapses for values that
 * take few distinct levels (two CPU frequencies); the trimmed RMS alone
 * gives way sooner to heavy tails; steps fall in the trimmed tenth.
 */
static double diff_scale(const struct diffs *x, double kept)
{
	double ss = 0, f, z, trim_sd;
	size_t keep = (size_t)ceil(kept * (double)x->n);

	/* at least one difference is left out, however short the series:
	 * one step's difference must not set the scale (10 points with a
	 * step at the fifth would otherwise trim nothing) */
	if (keep > x->n - 1)
		keep = x->n - 1;
	for (size_t i = 0; i < keep; i++)
		ss += x->dev[i] * x->dev[i];
	/* the trimmed RMS made consistent for normal data: the sd of a
	 * standard normal within its central fraction f,
	 * E[Z^2 | |Z| < z] = 1 - 2 z phi(z) / f, z = Phi^-1((1 + f) / 2) */
	f = (double)keep / (double)x->n;
	z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * f);
	trim_sd = sqrt(1 - 2 * z * gsl_ran_ugaussian_pdf(z) / f);
	ss = keep && trim_sd > 0 ? sqrt(ss / (double)keep) / trim_sd : 0;
	return (x->mad > ss ? x->mad : ss) / sqrt(2.0);
}

/* pv_cp_clip(), and the gross limit and how many points went as gross
 * (a noisy neighbour's rate, see outlier_rates()). */
/* The median of point i and its nearest neighbours (five, or three in a
 * short series): one or two wild points never move another, and a step
 * is never clipped once PV_CP_MIN_SEG points confirm it. */
static double local_median(const double *y, size_t L, size_t i)
{
	size_t w = L >= 5 ? 5 : 3, c = i < w / 2 ? w / 2 :
		   i + w / 2 >= L ? L - 1 - w / 2 : i;
	double win[5];

	for (size_t k = 0; k < w; k++)
		win[k] = y[c - w / 2 + k];
	return w == 5 ? med5(win) : med3(win[0], win[1], win[2]);
}

/* The robust sd of y's differences x (diff_scale()), never below the
 * median absolute difference's estimate (median |d| = 0.6745 sqrt(2) sd
 * for normal noise: a noiseless line's equal differences are its scale,
 * and its points are not pulled to a median); rounding's sd is none
 * (0). */
/* The median |difference| of normal noise of sd 1 (Phi^-1(3/4) sqrt 2). */
#define MEDIAN_DIFF_SD (0.6744897501960817 * M_SQRT2)

static double robust_scale(const struct diffs *x, double kept)
{
	double sd = diff_scale(x, kept);
	double md = x->med_abs / MEDIAN_DIFF_SD;

	if (md > sd)
		sd = md;
	return sd <= 1e-9 * (x->big + 1) ? 0 : sd;
}

/*
 * The mean of robust_scale()'s square over sigma^2 for normal noise at L
 * points (tests/lib/scale_bias.py, Monte Carlo; s.e. about 0.1%): the
 * larger of two estimators, and never below a third, is biased up, and
 * most for short series.  Odd and even counts of differences differ
 * (their medians).  Between the longer lengths, linear in log L; beyond
 * 1,000 points the excess falls as 1 / sqrt(L).
 */
double pv_cp_scale_bias(size_t L)
{
	static const double shrt[] = {	/* L = 4 .. 40 */
		1.9128, 1.6468, 1.7171, 1.5024, 1.5936, 1.4513, 1.5045,
		1.4026, 1.4446, 1.3673, 1.4013, 1.3403, 1.3654, 1.3155,
		1.3349, 1.2919, 1.3109, 1.2651, 1.2802, 1.2513, 1.2650,
		1.2380, 1.2513, 1.2286, 1.2395, 1.2188, 1.2290, 1.2038,
		1.2126, 1.1976, 1.2055, 1.1895, 1.1996, 1.1840, 1.1909,
		1.1782, 1.1852
	};
	static const double len[] = {
		40, 50, 60, 80, 100, 150, 200, 300, 500, 1000
	};
	static const double lng[] = {
		1.1852, 1.1591, 1.1401, 1.1144, 1.0987, 1.0746, 1.0626,
		1.0489, 1.0361, 1.0239
	};
	size_t n = sizeof(len) / sizeof(len[0]);

	if (L < 4)
		return 1;
	if (L <= 40)
		return shrt[L - 4];
	if (L >= 1000)
		return 1 + (lng[n - 1] - 1) * sqrt(1000 / (double)L);
	for (size_t i = 1; i < n; i++)
		if ((double)L <= len[i]) {
			double f = log((double)L / len[i - 1]) /
				   log(len[i] / len[i - 1]);

			return lng[i - 1] + f * (lng[i] - lng[i - 1]);
		}
	return lng[n - 1];
}

/* The fractions of the differences the trimmed RMS keeps: for the scale,
 * and for finding the gross points the scale is estimated without. */
#define SCALE_KEPT 0.9
#define FIND_KEPT 0.75

/* What step 1 found of a series besides its values. */
struct clip {
	double sd;              /* the robust sd */
	double first;           /* ... before the gross points went */
	double gross;           /* the gross limit */
	double gross_in;        /* ... of a short level inside the series
				 * (side_outliers()) */
	size_t ngross;          /* how many went as gross (a noisy
				 * neighbour's rate, outlier_rates()) */
};

/* pv_cp_clip(), its limits' scale never below floor, with what it found
 * into *o and the gross points into flag (when not NULL). */
static size_t clip_series(const double *y, size_t L, double floor,
			  double *out, struct clip *o, unsigned char *flag)
{
	double lim, gross, sdl, *d, *tmp, *ref, find = INFINITY;
	double *sd = &o->sd;
	struct diffs dy;
	size_t nclip = 0;

	memcpy(out, y, L * sizeof(*y));
	*o = (struct clip){ NAN, NAN, INFINITY, INFINITY, 0 };
	if (L < 3)
		return 0;
	/* the differences' scratch, and each point's local median (the
	 * same in both passes below) */
	d = pv_malloc(st_mult(st_mult(L, 3), sizeof(*d)));
	tmp = d + L;
	ref = tmp + L;
	for (size_t i = 0; i < L; i++)
		ref[i] = local_median(y, L, i);
	diffs_of(y, L, d, tmp, &dy);
	*sd = o->first = robust_scale(&dy, SCALE_KEPT);
	/*
	 * Noisy neighbours' differences inflate that scale: each makes two
	 * wild differences, so 5% of 1.5x points make a tenth of them wild,
	 * as many as the trimmed RMS leaves out, and 1.5x points at a scale
	 * of 6-15% are not gross (on cpsim's outliers at one run a point,
	 * most stayed, and three close together made a level).  So the
	 * gross points are found first with a quarter of the differences
	 * trimmed (up to an eighth of the points wild; two CPU frequencies'
	 * differences, half of them large, still set that scale), and the
	 * scale is estimated again without them, never above the first.
	 * Normal noise has no gross point: the same scale.
	 */
	if (*sd > 0) {
		double sd2 = *sd;
		size_t k = 0;

		find = robust_scale(&dy, FIND_KEPT);

		for (size_t i = 0; i < L; i++) {
			out[i] = y[i];
			if (fabs(y[i] - ref[i]) > PV_CP_GROSS * find) {
				out[i] = ref[i];
				k++;
			}
		}
		if (k) {
			struct diffs dout;

			diffs_of(out, L, d, tmp, &dout);
			sd2 = robust_scale(&dout, SCALE_KEPT);
		}
		if (sd2 < *sd)
			*sd = sd2;
	}
	memcpy(out, y, L * sizeof(*y));
	/* the limits' scale: never below the floor (the family's) */
	sdl = *sd > floor ? *sd : floor;
	lim = PV_CP_CLIP * sdl;
	/* No noise: only a gross point goes, judged by the differences
	 * themselves (a line's ends, one difference off a median anchored
	 * inside, stay; a spike in constant levels goes). */
	gross = *sd > 0 ? PV_CP_GROSS * sdl : PV_CP_GROSS * dy.med_abs;
	if (!(*sd > 0))
		lim = gross;
	o->gross = gross;
	o->gross_in = gross < PV_CP_GROSS * find ? gross : PV_CP_GROSS * find;
	for (size_t i = 0; i < L; i++) {
		double dv = y[i] - ref[i];

		if (fabs(dv) > gross) {
			/* gross: a noisy neighbour, not a value */
			out[i] = ref[i];
			nclip++;
			o->ngross++;
			if (flag)
				flag[i] = 1;
		} else if (fabs(dv) > lim) {
			out[i] = ref[i] + (dv > 0 ? lim : -lim);
			nclip++;
		}
	}
	free(d);
	return nclip;
}

size_t pv_cp_clip(const double *y, size_t L, double *out, double *sd)
{
	struct clip o;
	size_t k = clip_series(y, L, 0, out, &o, NULL);

	*sd = o.sd;
	return k;
}

/*
 * A neighbourhood noisier than its series (step 3): each point's
 * variance is the series' sd squared, or the square of the scale of the
 * successive differences within PV_CP_LOCAL_W of it (their median
 * |difference|, read as a normal sd: one step's or a transition's
 * difference does not move it) where that is more than PV_CP_LOCAL_K
 * times the sd.  d is scratch of 2 L.
 */
static void local_var(const double *y, size_t L, double sd, double *var,
		      double *d)
{
	double *t = d + L, lim = PV_CP_LOCAL_K * sd * MEDIAN_DIFF_SD;

	for (size_t j = 0; j < L; j++)
		var[j] = sd * sd;
	if (!(sd > 0) || L < 2 * PV_CP_MIN_SEG)
		return;
	for (size_t i = 1; i < L; i++)
		d[i - 1] = fabs(y[i] - y[i - 1]);
	/* over counts the differences above the limit in d[a..b), the
	 * window, whose ends only move up: each difference enters and
	 * leaves the count once */
	for (size_t j = 0, wa = 0, wb = 0, over = 0; j < L; j++) {
		size_t a = j > PV_CP_LOCAL_W ? j - PV_CP_LOCAL_W : 0;
		size_t b = j + PV_CP_LOCAL_W < L - 1 ? j + PV_CP_LOCAL_W : L - 1;
		double md;

		for (; wb < b; wb++)
			over += d[wb] > lim;
		for (; wa < a; wa++)
			over -= d[wa] > lim;
		/* the median is above the limit only when half the
		 * differences are: most windows need no median */
		if (2 * over < b - a)
			continue;
		md = median_of(d + a, b - a, t);
		if (md > lim) {
			md /= MEDIAN_DIFF_SD;
			var[j] = md * md;
		}
	}
}

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
			 * (finite), else NAN: best_bump()'s bound */
};

static void psum_build(struct psum *c, const double *y, const double *var,
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

/* The mean of the detrended values of [a, b) (ref added back). */
static double seg_mean(const struct psum *c, size_t a, size_t b)
{
	return (c->s[b] - c->s[a]) / (double)(b - a) + c->ref;
}

/* The variance of that mean: the points' variances over (b - a)^2. */
static double seg_var(const struct psum *c, size_t a, size_t b)
{
	double n = (double)(b - a);

	return (c->v[b] - c->v[a]) / (n * n);
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
static double split_t(const struct psum *c, size_t a, size_t k, size_t b)
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
static size_t best_split(const struct psum *c, size_t a, size_t b,
			 double *tbest)
{
	size_t best = 0;
	double sbest = 0;

	*tbest = 0;
	if (b - a < 2 * PV_CP_MIN_SEG)
		return 0;
	for (size_t k = a + PV_CP_MIN_SEG; k + PV_CP_MIN_SEG <= b; k++) {
		double t = fabs(split_t(c, a, k, b));
		double sc = isinf(t) ? split_score(c, a, k, b) : 0;

		if (!best || t > *tbest || (t == *tbest && sc > sbest)) {
			best = k;
			*tbest = t;
			sbest = sc;
		}
	}
	return best;
}

static double two_sided_p(double t, double df)
{
	double p;

	if (isinf(t))
		return 0;
	if (isnan(t))
		return 1;
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

static void cpset_copy(struct cpset *to, const struct cpset *from)
{
	if (to->alloc < from->n) {
		to->alloc = from->n;
		to->k = pv_reallocarray(to->k, to->alloc, sizeof(*to->k));
	}
	if (from->n)
		memcpy(to->k, from->k, from->n * sizeof(*to->k));
	to->n = from->n;
}

static void cpset_swap(struct cpset *a, struct cpset *b)
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
 * the best so far is computed exactly (bump_t2(), the same operations
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
static double bump_t2(const struct psum *c, size_t a, size_t i, size_t j,
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
	double t2 = bump_t2(c, a, i, j, b, s0, v0);

	if (!*ibest || t2 > *best) {
		*ibest = i;
		*jb = j;
		*best = t2;
		(*bs)[0] = (*bs)[1] = t2 >= 1e-150 && t2 <= 1e150 ? t2 : NAN;
	}
}

static size_t best_bump(const struct psum *c, size_t a, size_t b,
			size_t *jbest, double *tbest)
{
	/* 1/n and 1/n^2 of the bump's points and of the rest's, by the
	 * bump's length; with one variance, the bound's variance */
	double rin[PV_CP_MAX_BUMP + 1], rin2[PV_CP_MAX_BUMP + 1];
	double rout[PV_CP_MAX_BUMP + 1], rout2[PV_CP_MAX_BUMP + 1];
	double lbc[PV_CP_MAX_BUMP + 1];
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
	{
		/* |d1| + |d2| <= 2/3 w: the bump's sum is at most the range
		 * of the prefix sums, the rest's twice that, and the rest's
		 * rounding (shared by both paths) a few units of the sums'
		 * size; divided by n_in >= 3 and n_out >= 6 */
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
		margin = 1e-14 * w + 1e-300;
		vmargin[0] = vmargin[1] = margin;
	}
	for (size_t len = PV_CP_MIN_SEG; len <= maxlen; len++) {
		double nin = (double)len, nout = (double)(b - a) - nin, lb;

		rin[len] = 1 / nin;
		rin2[len] = 1 / (nin * nin);
		rout[len] = 1 / nout;
		rout2[len] = 1 / (nout * nout);
		lb = c->cvar * (rin[len] + rout[len]) * (1 - eps);
		if (!(lb > tol2))
			lb = tol2;
		lb *= 1 - 1e-13;
		lbc[len] = lb <= 1e150 ? lb : NAN;
	}
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

/* The number of bumps best_bump() weighs in a series of L points: for
 * each start i, the ends j that leave PV_CP_MIN_SEG points on each side
 * and a bump of at most PV_CP_MAX_BUMP (m(m+1)/2, m = L - 3 MIN_SEG + 1,
 * when no bump reaches that length). */
static double bump_positions(size_t L)
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
 * A series' gross points (the clipping's) and the family's beta prior on
 * their rate (outlier_rates()): a side's chance of its gross points is
 * taken at the rate of the series' other points, so that a cluster does
 * not explain itself.
 */
struct gross_rate {
	const unsigned char *flag;      /* L: the point went as gross */
	double count;           /* the series' gross points */
	double len;             /* its points */
	double w, mu;           /* the prior: weight in points, mean */
};

struct limits {
	double df;
	double split_p;         /* a split's p at most this: alpha over all
				 * the family's split positions */
	double bump_p;          /* a bump's: alpha over all its bumps */
	double line_p;          /* a slope's: alpha over the series */
	const double *raw;      /* the values before the clipping */
	double gross;           /* the clipping's gross limit */
	double gross_in;        /* ... for a level inside the series */
	size_t L;
	double rate;            /* the series' rate of gross points */
	const struct gross_rate *gr;    /* how it was estimated */
	double cap;             /* a residual's most in the sd and the slope
				 * (step 3: cap_of()) */
};

/*
 * The most a residual counts for in a series' sd and slope (step 3): the
 * gross limit, PV_CP_GROSS robust sds; none without noise.  A cluster of
 * wild points that step 1 cannot call gross (runs that stopped half-way
 * at three of four points, a stretch that flips between two levels) is
 * not the noise of the clean steps beside it, nor a slope.
 */
static double cap_of(const struct pv_cp_series *x)
{
	return x->robust_sd > 0 ? PV_CP_GROSS * x->robust_sd : INFINITY;
}

/*
 * The p of "the side (the points of [a, b) and of [a2, b2)) differs from
 * the level m0 (variance v0 of that mean) only by noisy neighbours": its
 * points beyond the gross limit from m0, on the side's side, are the
 * outliers; when the rest of the side alone still differs from m0 at
 * level_p, or no point is gross, outliers do not explain it (0).
 * Otherwise the chance of at least that many gross points among the
 * side's, at the series' rate.  Three neighbouring 1.5x runs among 40
 * points at a 5% rate are a family's daily event, not a level.  A short
 * side inside the series is gross against the smaller of the limit and
 * PV_CP_GROSS scales with a quarter of the differences trimmed
 * (clip_series()'s find scale): its own edges inflate the series' sd.
 */
static double side_outliers(const struct psum *c, const struct limits *lim,
			    size_t a, size_t b, size_t a2, size_t b2,
			    double m0, double v0, double level_p)
{
	double n = (double)(b - a + b2 - a2);
	double mean = (c->s[b] - c->s[a] + c->s[b2] - c->s[a2]) / n + c->ref;
	double dir = mean >= m0 ? 1 : -1, sum = 0;
	size_t m = 0, rest = 0, own = 0;
	const struct gross_rate *gr = lim->gr;
	/* a short level that came and went: neither end of the series */
	int inner = a > 0 && (a2 < b2 ? b2 : b) < lim->L &&
		    n <= 2 * PV_CP_MIN_SEG;
	double rate, g = inner ? lim->gross_in : lim->gross;

	if (!(lim->rate > 0) || !lim->raw)
		return 0;
	for (size_t j = a; j < b2; j++) {
		double z;

		if (j == b)
			j = a2;
		if (j >= b2)
			break;
		z = lim->raw[j] - c->beta * (double)j;
		own += gr && gr->flag && gr->flag[j];
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
	/* the rate of the series' other points, shrunk to the family's */
	rate = lim->rate;
	if (gr && !isinf(gr->w) && gr->len - n + gr->w > 0)
		rate = (gr->count - (double)own + gr->w * gr->mu) /
		       (gr->len - n + gr->w);
	if (!(rate > 0))
		return 0;
	return gsl_cdf_binomial_Q((unsigned)(m - 1), rate, (unsigned)n);
}

/* The same for a split of [a, b) at k: either side may be the outliers. */
static double split_outliers(const struct psum *c, const struct limits *lim,
			     size_t a, size_t k, size_t b, double level_p)
{
	double p0 = side_outliers(c, lim, a, k, b, b, seg_mean(c, k, b),
				  seg_var(c, k, b), level_p);
	double p1 = side_outliers(c, lim, k, b, b, b, seg_mean(c, a, k),
				  seg_var(c, a, k), level_p);

	return p0 > p1 ? p0 : p1;
}

/* ... and for a bump [i, j) of [a, b): the bump or the rest. */
static double bump_outliers(const struct psum *c, const struct limits *lim,
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

static void bisect(const struct psum *c, size_t a, size_t b,
		   const struct limits *lim, struct cpset *out)
{
	double t;
	size_t k = best_split(c, a, b, &t), j;

	if (!k || two_sided_p(t, lim->df) > lim->split_p ||
	    split_outliers(c, lim, a, k, b, lim->split_p) > lim->split_p) {
		/* no step: perhaps a level that came and went */
		k = best_bump(c, a, b, &j, &t);
		/* the noisy neighbours' chance at a split's level: the
		 * refinement tests each of the bump's two splits so */
		if (!k || two_sided_p(t, lim->df) > lim->bump_p ||
		    bump_outliers(c, lim, a, k, j, b, lim->split_p) > lim->split_p)
			return;
		cpset_insert(out, k);
		cpset_insert(out, j);
		bisect(c, a, k, lim, out);
		bisect(c, k, j, lim, out);
		bisect(c, j, b, lim, out);
		return;
	}
	cpset_insert(out, k);
	bisect(c, a, k, lim, out);
	bisect(c, k, b, lim, out);
}

/* Sum of squares of the positions a..b-1 about their mean. */
static double pos_ss(size_t a, size_t b)
{
	double n = (double)(b - a);

	return n * (n * n - 1) / 12;
}

/* The slope common to the segments of s, each with its own level, of
 * the values of c; sxx: the positions' sum of squares it stands on. */
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
 * The t of the step at k between [a, k) and [k, b) net of a slope beta
 * common to the segments (sxx its positions' sum of squares, s2 the
 * variance it is estimated with): a slow trend makes two halves' means
 * differ; it does not make this t large.
 */
static double step_t_sloped(const struct psum *c, size_t a, size_t k,
			    size_t b, double beta, double sxx, double s2)
{
	double dx = 0.5 * (double)(b - a);
	double d = seg_mean(c, k, b) - seg_mean(c, a, k) - beta * dx;
	double se2 = seg_var(c, a, k) + seg_var(c, k, b) +
		     (sxx > 0 ? dx * dx * s2 / sxx : 0) + dx * dx * c->bvar;

	return d / sqrt(se2 > c->tol2 ? se2 : c->tol2);
}

/* The mean of the L points' variances c was built with. */
static double mean_var(const struct psum *c, size_t L)
{
	return L ? (c->v[L] - c->v[0]) / (double)L : 0;
}

/*
 * Binary segmentation, then refinement: each split moves to its best
 * place between its neighbours, and the weakest goes while it is not
 * significant.  Ends when a pass changes nothing (bounded, to be safe).
 */
static void segment(const struct psum *c, size_t L, const struct limits *lim,
		    struct cpset *s)
{
	double df = lim->df, limit_p = lim->split_p, line_p = lim->line_p;
	double s2 = mean_var(c, L);

	s->n = 0;
	bisect(c, 0, L, lim, s);
	for (int pass = 0; pass < 50 && s->n; pass++) {
		int moved = 0, sloped;
		size_t weakest = 0;
		double wp = -1, beta, sxx;

		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double t;
			size_t k = best_split(c, a, b, &t);

			if (k && k != s->k[i]) {
				s->k[i] = k;
				moved = 1;
			}
		}
		beta = common_slope(c, L, s, &sxx);
		sloped = sxx > 0 && s2 > 0 &&
			 two_sided_p(beta / sqrt(s2 / sxx), df) <= PV_CP_SLOPE_SEEN;
		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double p = two_sided_p(split_t(c, a, s->k[i], b), df);
			double pl = two_sided_p(step_t_sloped(c, a, s->k[i], b,
							      beta, sxx, s2), df);

			/* a split a slope within the segments explains is
			 * the trend's, not a step, when there is a slope;
			 * one a few noisy neighbours explain is theirs */
			if (sloped && pl > line_p)
				p = 1;
			if (p <= limit_p) {
				double po = split_outliers(c, lim, a, s->k[i], b,
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
		double xbar = 0.5 * (double)(a + b - 1), m = 0;

		for (size_t j = a; j < b; j++)
			m += y[j];
		m /= (double)(b - a);
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

/*
 * seg_slope_ls() with each residual counted as at most cap (step 3):
 * the values beyond it about the fitted levels and slope are pulled to
 * that distance and the slope fitted again, twice.  Three 1.5x runs in
 * four points at the end of a segment made a slope of 0.7% a point in
 * 1% noise, and a step beside it; the sd they are judged with counts
 * them as at most cap too (seg_rss()).
 */
static void seg_slope(const double *y, size_t L, const struct cpset *s,
		      double cap, double *slope, double *sxx, double *rss)
{
	double *w = NULL;

	seg_slope_ls(y, L, s, slope, sxx, rss);
	for (int it = 0, fill = 0; it < 4 && cap < INFINITY; it++) {
		const double *v = w ? w : y;
		size_t a = 0, moved = 0;

		/* one pass to see whether any value is beyond cap, the
		 * next to pull it (and its segment's) to the fit */
		for (size_t i = 0; i <= s->n; i++) {
			size_t b = i < s->n ? s->k[i] : L;
			double xbar = 0.5 * (double)(a + b - 1), m = 0;

			for (size_t j = a; j < b; j++)
				m += v[j];
			m /= (double)(b - a);
			for (size_t j = a; j < b; j++) {
				double f = m + *slope * ((double)j - xbar);
				double r = y[j] - f;

				if (fabs(r) > cap) {
					r = r > 0 ? cap : -cap;
					moved++;
				}
				if (fill)
					w[j] = f + r;
			}
			a = b;
		}
		if (!moved)
			break;
		if (!fill) {
			if (!w)
				w = pv_malloc(st_mult(L, sizeof(*w)));
			memcpy(w, y, L * sizeof(*w));
			fill = 1;
			it--;           /* the same fit again, filling w */
			continue;
		}
		fill = 0;
		seg_slope_ls(w, L, s, slope, sxx, rss);
	}
	free(w);
}

/* The t of a slope, its positions' sum of squares sxx, sd known. */
static double slope_t(double slope, double sxx, double sd)
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
	for (int it = 0; it < 6; it++) {
		double slope, sxx, rss, t;

		psum_build(c, y, var, L, beta, *bvar);
		segment(c, L, lim, s);
		seg_slope(y, L, s, lim->cap, &slope, &sxx, &rss);
		t = slope_t(slope, sxx, sd);
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

/* The mean of y[a, b) less the slope beta (a segment's level at 0). */
static double level_of(const double *y, size_t a, size_t b, double beta)
{
	double m = 0;

	for (size_t j = a; j < b; j++)
		m += y[j] - beta * (double)j;
	return m / (double)(b - a);
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
static double fit_ss(const double *y, const double *w, size_t L,
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
static double var_floor(const double *y, size_t L)
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
	double floor = var_floor(y, L), s2 = 0;

	/* one variance for both fits: the local ones would favour the fit
	 * they were estimated from */
	for (size_t j = 0; j < L; j++)
		s2 += var[j];
	s2 = L ? s2 / (double)L : 0;
	return (double)s->n * pen_cp + (beta != 0 ? pen_slope : 0) +
	       fit_ss(y, NULL, L, s, beta, INFINITY) / (s2 > floor ? s2 : floor);
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
static double fit_steps(const double *y, const double *var, size_t L,
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
	/* a staircase whose small steps were not found yet leaves a
	 * slope within its segments, and with that slope taken out the
	 * segmentation finds fewer of its steps, until the slope is all
	 * there is (maxtext's test duration: seven steps, one change point
	 * and 0.6% a point): the steps with no slope stand when their
	 * penalised cost is the lower */
	if (beta != 0) {
		psum_build(c, y, var, L, 0, 0);
		segment(c, L, lim, &alt);
		if (fit_cost(y, var, L, &alt, 0, pc * pc, pl * pl) <
		    fit_cost(y, var, L, s, beta, pc * pc, pl * pl)) {
			cpset_swap(s, &alt);
			beta = 0;
			bv = 0;
		}
	}
	seg_slope(y, L, &none, lim->cap, &slope, &sxx, &rss);
	/* the t^2 of the slope within the steps-first segments, for the
	 * family's drift (family_drifts()) */
	psum_build(c, y, var, L, beta, bv);
	bs = common_slope(c, L, s, &sx2);
	if (beta != 0)
		*drift_t2 = beta * beta / bv;
	else if (s->n)
		*drift_t2 = sx2 > 0 && sd > 0 ? bs * bs * sx2 / (sd * sd) : 0;
	else
		*drift_t2 = slope_t(slope, sxx, sd) * slope_t(slope, sxx, sd);
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
		psum_build(c, y, var, L, 0, 0);
		for (size_t i = 0; i < s->n; i++) {
			size_t a = i ? s->k[i - 1] : 0;
			size_t b = i + 1 < s->n ? s->k[i + 1] : L;
			double sx = step_t_sloped(c, a, s->k[i], b, beta2, 1,
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
			cpset_swap(s, &alt);
			beta = beta2;
			bv = bv2;
		}
	}
	free(alt.k);
	psum_build(c, y, var, L, beta, bv);
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
static double seg_rss(const double *y, size_t L, const struct cpset *s,
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
static void seg_fit(const double *y, size_t L, const struct cpset *s,
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

/* The values a series' tests see. */
static const double *values(const struct pv_cp_series *x)
{
	return x->adjusted ? x->adjusted : x->y;
}

/*
 * Step 1 in the values less the shared effect (step 0): a point gross in
 * the series' own values stays a noisy neighbour where the effect took
 * most of its excursion (PV_CP_EXPLAINED).  The effect's estimate at a
 * wild point is rough, the median of the other series' excursions (at
 * hyper's slow runners they ranged from 20% to 45%), and what it leaves
 * is the size of a step in a series of 1% noise.  A point the effect did
 * not explain is the series' own, judged in these values.  Into out
 * (step 1's values), where flag (step 1's gross points) is not set;
 * returns how many values changed.
 */
static size_t own_gross(const struct pv_cp_series *x, const unsigned char *flag,
			double *out)
{
	const double *v = values(x);
	size_t k = 0;

	for (size_t j = 0; j < x->L; j++) {
		double own, took;

		if (!x->own_gross[j] || flag[j])
			continue;
		own = x->y[j] - local_median(x->y, x->L, j);
		took = x->y[j] - v[j];
		if (took * own > 0 && fabs(took) >= PV_CP_EXPLAINED * fabs(own)) {
			k += out[j] == v[j];
			out[j] = local_median(v, x->L, j);
		}
	}
	return k;
}

/*
 * A change point found in the values less the shared effect must show
 * in the series' own values (step 0): the two sides of its segment
 * (from the change point before it to the one after), without the
 * points gross there, differ the same way with a p of at most
 * PV_CP_OWN_P (Student's t, pv_ttest()).  The effect is estimated about
 * the first run's levels: a level the first run missed in several
 * series becomes a false level of the effect, and a false step in every
 * other series (cppmicroservices' ModifyServices, 5 of 12 series, back
 * up at point 21: 9 flags on noise in the others).  A real step the
 * effect hid shows in the series' own values too, if less clearly.  The
 * splits that fail go from s, all at once.  0, or -1 with err set when
 * the t-test fails.
 */
static int own_support(const struct pv_cp_series *x, struct cpset *s,
		       struct pv_err *err)
{
	size_t keep = 0;
	int *ok = pv_calloc(s->n ? s->n : 1, sizeof(*ok));
	unsigned char *out = pv_malloc(x->L ? x->L : 1);
	double *side = pv_malloc(st_mult(x->L ? x->L : 1, sizeof(*side)));
	int rc = 0;

	for (size_t j = 0; j < x->L; j++)
		out[j] = x->own_gross[j] ||
			 fabs(x->y[j] - x->adjusted[j]) > PV_CP_GROSS * x->sd;

	for (size_t i = 0; i < s->n && !rc; i++) {
		size_t a = i ? s->k[i - 1] : 0, k = s->k[i];
		size_t b = i + 1 < s->n ? s->k[i + 1] : x->L;
		size_t n0 = 0, n1 = 0;
		double adj[2] = { 0, 0 };
		struct pv_test_out t;

		/* the two sides' own values: before k from the start of
		 * side[], from k on from its end */
		for (size_t j = a; j < b; j++) {
			adj[j >= k] += x->clipped[j];
			if (!out[j]) {
				if (j < k)
					side[n0++] = x->y[j];
				else
					side[x->L - ++n1] = x->y[j];
			}
		}
		ok[i] = 1;
		if (n0 < 2 || n1 < 2)
			continue;
		rc = pv_ttest(side, n0, side + x->L - n1, n1, 1, PV_ALT_TWO,
			      0.95, &t, err);
		/* the same way as the step in the values the tests saw */
		if (!rc)
			ok[i] = t.shift * (adj[1] / (double)(b - k) -
					   adj[0] / (double)(k - a)) > 0 &&
				t.p <= PV_CP_OWN_P;
	}
	for (size_t i = 0; i < s->n && !rc; i++)
		if (ok[i])
			s->k[keep++] = s->k[i];
	if (!rc)
		s->n = keep;
	free(ok);
	free(out);
	free(side);
	return rc;
}

void pv_cp_series_release(struct pv_cp_series *s)
{
	free(s->adjusted);
	free(s->own_gross);
	free(s->clipped);
	free(s->cp);
	s->adjusted = NULL;
	s->own_gross = NULL;
	s->clipped = NULL;
	s->cp = NULL;
	s->ncp = 0;
}

/*
 * A segment's level as reported: the mean of its tested (clipped) values
 * and its variance from the series' scale (df: the scale's) -- unless the
 * clipping moved most of its points (a short level at an end, noisier
 * than the series, whose points the median of five replaced by one of
 * them: "taken from one point"), then the mean of its own points, with
 * its own variance when larger (df: its points less one), so that its
 * interval says how few they are.
 */
static void seg_level(const struct psum *c, const double *raw,
		      const double *y, size_t a, size_t b, double sd2,
		      double sdf, double *mean, double *var, double *df)
{
	double n = (double)(b - a), m = 0, ss = 0;
	size_t moved = 0;

	*mean = seg_mean(c, a, b);
	*var = seg_var(c, a, b);
	*df = sdf;
	for (size_t j = a; j < b; j++)
		moved += raw[j] != y[j];
	if (2 * moved <= b - a || b - a < 2)
		return;
	for (size_t j = a; j < b; j++)
		m += raw[j] - c->beta * (double)j;
	m /= n;
	for (size_t j = a; j < b; j++) {
		double r = raw[j] - c->beta * (double)j - m;

		ss += r * r;
	}
	*mean = m;
	if (ss / (n - 1) > sd2) {
		*var = ss / (n - 1) / n;
		*df = n - 1;
	}
}

static void describe(const struct psum *c, const double *raw, const double *y,
		     size_t L, const struct cpset *s, const struct cpset *added,
		     double sd, double df, double alpha, double ntests,
		     double ncand, struct pv_cp *out)
{
	/* a root search: not for the many series with no change point */
	double chi = s->n ? gsl_cdf_chisq_Pinv(1 - alpha, 1) : 0;

	for (size_t i = 0, h = 0; i < s->n; i++) {
		size_t a = i ? s->k[i - 1] : 0;
		size_t b = i + 1 < s->n ? s->k[i + 1] : L;
		size_t k = s->k[i];
		struct pv_cp *o = &out[i];
		double t2, m0, m1, v0, v1, d0, d1, se, dfw, tq, mb = 0;

		/* the levels: each segment's own (seg_level()); the step
		 * and its test net of the slope; the interval's df the
		 * Welch-Satterthwaite df of the two levels' variances */
		seg_level(c, raw, y, a, k, sd * sd, df, &m0, &v0, &d0);
		seg_level(c, raw, y, k, b, sd * sd, df, &m1, &v1, &d1);
		for (size_t j = a; j < k; j++)
			mb += y[j];
		se = sqrt(v0 + v1);
		dfw = v0 + v1 > 0 ? (v0 + v1) * (v0 + v1) /
		      ((isinf(d0) ? 0 : v0 * v0 / d0) +
		       (isinf(d1) ? 0 : v1 * v1 / d1)) : df;
		/* both from the series' scale: one estimate, its df */
		if (!(dfw > 0) || isnan(dfw) || (d0 == df && d1 == df))
			dfw = df;
		tq = pv_t_quantile(1 - alpha / 2, dfw);
		o->index = k;
		o->before = d0 == df && m0 == seg_mean(c, a, k) ?
			    mb / (double)(k - a) : m0 + c->beta * 0.5 * (double)(a + k - 1);
		o->delta = m1 - m0;
		o->after = o->before + o->delta;
		o->delta_low = o->delta - tq * se;
		o->delta_high = o->delta + tq * se;
		o->t = split_t(c, a, k, b);
		o->df = df;
		o->p = two_sided_p(o->t, df);
		/* a candidate's (step 2b) over the candidates' tests */
		while (h < added->n && added->k[h] < k)
			h++;
		o->candidate = h < added->n && added->k[h] == k;
		o->q = o->p * (o->candidate ? ncand : ntests);
		if (o->q > 1)
			o->q = 1;
		/* The location's profile interval: every split whose fit is
		 * within the chi-square(1) quantile of the best one's. */
		t2 = o->t * o->t;
		o->index_low = o->index_high = k;
		for (size_t j = a + PV_CP_MIN_SEG; j + PV_CP_MIN_SEG <= b; j++) {
			double tj = split_t(c, a, j, b);

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
static void trend(struct pv_cp_series *x, const struct cpset *s,
		  double ntrend, double alpha)
{
	struct pv_cp_trend *t = &x->trend;
	double sxx, rss;

	memset(t, 0, sizeof(*t));
	t->slope = t->se = t->t = t->p = t->q = NAN;
	if (x->L < 3 || !(x->sd >= 0))
		return;
	seg_slope(x->clipped, x->L, s, cap_of(x), &t->slope, &sxx, &rss);
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
 * Moderate the variances s2 (df d) across the family's members that are
 * not alone; a member alone keeps its own.  Into sd and df.
 */
static int moderate(struct pv_cp_series *s, size_t n, const double *s2,
		    const double *d, double *sd, double *df,
		    struct pv_err *err)
{
	double *sa = pv_calloc(n ? n : 1, sizeof(*sa));
	double *da = pv_calloc(n ? n : 1, sizeof(*da));
	struct pv_prior prior, rprior;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		int ok = d[i] > 0 && s2[i] >= 0;

		sa[i] = s[i].alone || !ok ? NAN : s2[i];
		da[i] = s[i].alone || !ok ? 0 : d[i];
	}
	if (pv_fit_prior(sa, da, n, &prior, err) ||
	    pv_fit_prior_median(sa, da, n, &rprior, err)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int ok = d[i] > 0 && s2[i] >= 0;
		double post;

		if (s[i].alone || !(prior.d0 > 0)) {
			if (ok) {
				sd[i] = sqrt(s2[i]);
				df[i] = d[i];
			}
			continue;
		}
		post = pv_posterior_var(&prior, ok ? s2[i] : NAN, ok ? d[i] : 0,
					&df[i]);
		/* the larger of the two priors' posteriors: the robust one
		 * moderates a series the others' spread left alone */
		if (rprior.d0 > 0) {
			double df2, p2 = pv_posterior_var(&rprior, ok ? s2[i] : NAN,
							  ok ? d[i] : 0, &df2);

			if (p2 > post) {
				post = p2;
				df[i] = df2;
			}
		}
		if (post >= 0)
			sd[i] = sqrt(post);
	}
out:
	free(sa);
	free(da);
	return rc;
}

/*
 * Each series' rate of gross points (noisy neighbours: cl[i].ngross of
 * L[i]), shrunk to the family's by a beta prior fitted by the method of
 * moments (the beta-binomial's spread beyond the binomial's): a family whose
 * series share one rate (cpsim's) gives every series that rate; one
 * spiky series among clean ones keeps most of its own.  A series of
 * fewer than 5 points (no median of 5) has no rate.
 */
static void outlier_rates(const struct pv_cp_series *s, size_t n,
			  const struct clip *cl, double *rate, double *w_out,
			  double *mu_out)
{
	double sg = 0, sl = 0, mu, ss = 0, inv = 0, tau2, w;
	size_t k = 0;

	*w_out = INFINITY;
	*mu_out = 0;
	for (size_t i = 0; i < n; i++) {
		rate[i] = 0;
		if (s[i].L < 5)
			continue;
		sg += (double)cl[i].ngross;
		sl += (double)s[i].L;
		k++;
	}
	if (!k || !(sg > 0))
		return;
	mu = sg / sl;
	for (size_t i = 0; i < n; i++) {
		double d;

		if (s[i].L < 5)
			continue;
		d = (double)cl[i].ngross / (double)s[i].L - mu;
		ss += d * d;
		inv += 1.0 / (double)s[i].L;
	}
	tau2 = k > 1 ? ss / (double)(k - 1) - mu * (1 - mu) * inv / (double)k : 0;
	/* the prior's weight in points: infinite when the rates spread no
	 * more than binomially; a family of one series has only its own */
	w = k < 2 ? 0 : tau2 > 0 ? mu * (1 - mu) / tau2 - 1 : INFINITY;
	if (w < 0)
		w = 0;
	*w_out = w;
	*mu_out = mu;
	for (size_t i = 0; i < n; i++)
		if (s[i].L >= 5)
			rate[i] = isinf(w) ? mu :
				  ((double)cl[i].ngross + w * mu) / ((double)s[i].L + w);
}

/* Segmentation and scale alternate this many times. */
#define ROUNDS 3

/*
 * A series with one variance for all its points is tested by statistics
 * that scale as 1 / sd: its best split's t, its best bump's and its
 * line's, each at sd 1.  When none of them, at a round's sd and df, is
 * significant, fit_steps() would find no step, no bump and no slope (the
 * gross-point tests only take splits away, the line's start is tried only
 * after a step), so the round need not search: most series of an archive
 * have no change point, and the bump search was a fifth of history's
 * time.  The margin keeps the rounding of the two computations apart.
 */
struct quiet {
	int ok;
	double split, bump, line;
};

static void quiet_stats(const struct pv_cp_series *x, struct psum *c,
			struct quiet *q)
{
	size_t k, j;
	double sxx, rss, slope, *one;

	q->ok = 0;
	if (x->L < 3 || !(x->robust_sd > 0))
		return;
	ALLOC_ARRAY(one, x->L);
	for (size_t i = 0; i < x->L; i++)
		one[i] = 1;
	psum_build(c, x->clipped, one, x->L, 0, 0);
	free(one);
	k = best_split(c, 0, x->L, &q->split);
	if (!k)
		q->split = 0;
	k = best_bump(c, 0, x->L, &j, &q->bump);
	if (!k)
		q->bump = 0;
	seg_slope(x->clipped, x->L, &(struct cpset){ NULL, 0, 0 }, cap_of(x),
		  &slope, &sxx, &rss);
	q->line = sxx > 0 ? slope * sqrt(sxx) : 0;
	q->ok = isfinite(q->split) && isfinite(q->bump) && isfinite(q->line);
}

static int quiet_at(const struct quiet *q, double sd, double df,
		    double split_p, double bump_p, double line_p)
{
	const double margin = 1 + 1e-6;

	return q->ok && sd > 0 && isfinite(sd) &&
	       two_sided_p(margin * fabs(q->split) / sd, df) > split_p &&
	       two_sided_p(margin * fabs(q->bump) / sd, df) > bump_p &&
	       two_sided_p(margin * fabs(q->line) / sd, df) > line_p;
}

/*
 * Whether the family's series drift, from a round's fits: a sign test of
 * the t^2 of each series' slope within its steps-first segments against
 * chi-square's median (one degree of freedom), at PV_CP_DRIFT_P.  A few
 * series with steps the fit missed have large t^2; a drift makes most of
 * them large.  A family of too few series to tell drifts.
 */
static int family_drifts(const struct pv_cp_series *s, size_t n,
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

size_t pvs_cp_point(const struct pv_cp_series *x, size_t j)
{
	return x->point ? x->point[j] : j;
}

/* A series' limits for a round (struct limits), gr its gross points'
 * rate as estimated. */
static void series_limits(const struct pv_cp_series *x, double alpha,
			  double ntests, double nbumps, double ntrend,
			  const unsigned char *gflag, size_t ngross,
			  double prior_w, double prior_mu, double gross,
			  double gross_in, double rate, struct gross_rate *gr,
			  struct limits *lim)
{
	double a = x->alpha > 0 ? x->alpha : alpha;

	*gr = (struct gross_rate){ gflag, (double)ngross, (double)x->L,
				   prior_w, prior_mu };
	/* a split at alpha over every split position of the family; a
	 * bump (two splits at once) over all its bumps, a test apart; a
	 * slope at the trend test's level, alpha over the family's series */
	*lim = (struct limits){ x->df, ntests > 0 ? a / ntests : 0,
				nbumps > 0 ? a / nbumps : 0,
				ntrend > 0 ? a / ntrend : 0, values(x), gross,
				gross_in, x->L, rate, gr, cap_of(x) };
}

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
	double t, tj = split_t(c, *a, j, *b);
	size_t k = best_split(c, *a, *b, &t);

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
	int drifts;             /* the family drifts (family_drifts()) */
};

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
		double t = fabs(split_t(c, a, s->k[i], b)), bt = 0;

		if (!isfinite(t))
			continue;
		for (size_t u = 0; u < cs->m; u++) {
			size_t j = cs->js[u];
			double tj;

			if (j < a + PV_CP_MIN_SEG || j + PV_CP_MIN_SEG > b)
				continue;
			tj = fabs(split_t(c, a, j, b));
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
			t = fabs(split_t(c, a, j, b));
			if (!(t >= tc) || t <= bt ||
			    !beside_best(c, j, cs->chi, &a, &b))
				continue;
			t2 = fabs(split_t(c, a, j, b));
			if (t2 < t)
				t = t2;
			if (t >= tc && t > bt &&
			    split_outliers(c, lim, a, j, b,
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
				t = sqrt(bump_t2(c, a, i, j, b,
						 c->s[i] - c->s[a] + c->s[b],
						 c->v[i] - c->v[a] + c->v[b]));
				if (t >= bc && t > bt &&
				    bump_outliers(c, lim, a, i, j, b,
						  lim->split_p) <= lim->split_p) {
					bt = t;
					best2 = i;
					best = j;
				}
			}
		}
		if (!best)
			return;
		cpset_insert(s, best);
		cpset_insert(added, best);
		if (best2) {
			cpset_insert(s, best2);
			cpset_insert(added, best2);
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
 * not drowned by a noisy one's (unweighted, dynamodb's Unmarshall_Bool
 * lost its step at 12 to a noisy tail).  A slow drift that candidates
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
	double pooled = 0, floor = var_floor(y, L);
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
			v = median_of(d, b - a - 1, tmp) / MEDIAN_DIFF_SD;
			v *= v;
		}
		for (size_t j = a; j < b; j++)
			w[j] = v > floor ? v : floor;
		a = b;
	}
	return (nadd - 1) * tc * tc + fit_ss(y, w, L, s, 0, lim->cap) <
	       fit_ss(y, w, L, keep, beta, lim->cap);
}

/*
 * Each step of added (in s) is seen net of the slope common to s's
 * segments, with that slope's error: its p at most PV_CP_STEP_SEEN.  A
 * drift's two halves differ, and a step fits them about as well as the
 * slope does (better in 411 of 1,052 trials at 20 points); net of the
 * slope they do not differ.
 */
static int steps_seen(const struct psum *c, size_t L, const struct cpset *s,
		      const struct cpset *added, double df)
{
	double sxx, beta = common_slope(c, L, s, &sxx), s2 = mean_var(c, L);
	size_t h = 0;

	for (size_t i = 0; i < s->n; i++) {
		size_t a = i ? s->k[i - 1] : 0, b = i + 1 < s->n ? s->k[i + 1] : L;

		while (h < added->n && added->k[h] < s->k[i])
			h++;
		if (h < added->n && added->k[h] == s->k[i] &&
		    two_sided_p(step_t_sloped(c, a, s->k[i], b, beta, sxx, s2),
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
static double candidates(const struct pv_cp_series *x, struct psum *c,
			 const double *var, const struct limits *lim,
			 const struct cands *cs, double beta, struct cpset *s,
			 struct cpset *added, double *scratch)
{
	double bvar = c->bvar, slope, sxx, rss;

	if (beta == 0) {
		add_candidates(c, x, lim, cs, s, added);
		return 0;
	}
	cpset_copy(cs->keep, s);
	psum_build(c, x->clipped, var, x->L, 0, 0);
	add_candidates(c, x, lim, cs, s, added);
	if (added->n) {
		seg_slope(x->clipped, x->L, s, lim->cap, &slope, &sxx, &rss);
		if (two_sided_p(slope_t(slope, sxx, x->sd), lim->df) > lim->line_p &&
		    staircase_wins(x->clipped, var, x->L, s, cs->keep, beta,
				   lim, (double)added->n, scratch) &&
		    (!cs->drifts || steps_seen(c, x->L, s, added, lim->df)))
			return 0;
	}
	/* the slope stands: step 2's fit */
	cpset_copy(s, cs->keep);
	added->n = 0;
	psum_build(c, x->clipped, var, x->L, beta, bvar);
	return beta;
}

/*
 * Step 1 of series x into x->clipped, its limits never below floor (on
 * the robust sd's scale), what it found into *o and flag.  In the first
 * run before step 0 (shared) the series' own gross points are kept; in
 * the run after it, those the effect explained go as well (own_gross()).
 */
static void first_clip(struct pv_cp_series *x, int shared, double floor,
		       struct clip *o, unsigned char *flag)
{
	x->nclipped = clip_series(values(x), x->L, floor, x->clipped, o,
				  flag);
	x->robust_sd = o->sd;
	if (shared && !x->adjusted) {
		free(x->own_gross);
		ALLOC_ARRAY(x->own_gross, x->L ? x->L : 1);
		memcpy(x->own_gross, flag, x->L);
	} else if (x->own_gross && x->adjusted) {
		x->nclipped += own_gross(x, flag, x->clipped);
	}
}

/*
 * Steps 1-4 on the family; with fit, each series' fitted values (its
 * levels and slope, L of them) into fit[i].
 */
int pvs_cp_detect(struct pv_cp_series *s, size_t n, double alpha,
		  double **fit, struct pv_err *err)
{
	double ntests = 0, nbumps = 0, ntrend = 0;
	struct psum *csum = pv_calloc(n ? n : 1, sizeof(*csum));
	double **var = pv_calloc(n ? n : 1, sizeof(*var));
	struct quiet *quiet = pv_calloc(n ? n : 1, sizeof(*quiet));
	double *s2 = pv_calloc(n ? n : 1, sizeof(*s2));
	double *d = pv_calloc(n ? n : 1, sizeof(*d));
	double *beta = pv_calloc(n ? n : 1, sizeof(*beta));
	double *drift = pv_calloc(n ? n : 1, sizeof(*drift));
	int drifting = 1;
	struct clip *cl = pv_calloc(n ? n : 1, sizeof(*cl));
	double *rate = pv_calloc(n ? n : 1, sizeof(*rate));
	unsigned char **gflag = pv_calloc(n ? n : 1, sizeof(*gflag));
	double prior_w, prior_mu;
	struct cpset *sets = pv_calloc(n ? n : 1, sizeof(*sets));
	struct cpset *added = pv_calloc(n ? n : 1, sizeof(*added));
	int *replaced = pv_calloc(n ? n : 1, sizeof(*replaced));
	unsigned char *cand;
	size_t *js;
	struct cpset keep = { NULL, 0, 0 };
	double *rss = NULL, ngated = 0;
	size_t maxL = 0, npoints = 1;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i].L > maxL)
			maxL = s[i].L;
		if (s[i].L && pvs_cp_point(&s[i], s[i].L - 1) >= npoints)
			npoints = pvs_cp_point(&s[i], s[i].L - 1) + 1;
		if (s[i].ungated)
			continue;
		ngated += s[i].L >= 2 * PV_CP_MIN_SEG;
		ntests += (double)pv_cp_positions(s[i].L);
		nbumps += bump_positions(s[i].L);
		ntrend += s[i].L >= 3;
	}
	ALLOC_ARRAY(rss, st_mult(3, st_add(maxL, 1)));  /* local_var(), staircase_wins() */
	cand = pv_calloc(npoints, 1);
	/* the candidates of a series, then two scratch arrays of as many */
	ALLOC_ARRAY(js, st_mult(3, maxL ? maxL : 1));
	/* Step 1, and the robust sds, moderated across the family (each is
	 * worth about a third of its differences: the MAD's efficiency). */
	for (size_t i = 0; i < n; i++) {
		struct pv_cp_series *x = &s[i];

		ALLOC_ARRAY(x->clipped, x->L ? x->L : 1);
		gflag[i] = pv_calloc(x->L ? x->L : 1, 1);
		first_clip(x, fit != NULL, 0, &cl[i], gflag[i]);
		ALLOC_ARRAY(csum[i].s, st_add(x->L, 1));
		ALLOC_ARRAY(csum[i].v, st_add(x->L, 1));
		ALLOC_ARRAY(csum[i].sx, st_add(x->L, 1));
		ALLOC_ARRAY(var[i], x->L ? x->L : 1);
		x->sd = x->robust_sd;
		x->df = INFINITY;
		x->cp = NULL;
		x->ncp = 0;
		/* the tests' variance: unbiased for normal noise */
		s2[i] = x->robust_sd * x->robust_sd / pv_cp_scale_bias(x->L);
		d[i] = x->L >= 3 ? (double)(x->L - 1) / 3 : 0;
	}
	{
		double *sd0 = pv_calloc(n ? n : 1, sizeof(*sd0));
		double *df0 = pv_calloc(n ? n : 1, sizeof(*df0));

		for (size_t i = 0; i < n; i++) {
			sd0[i] = sqrt(s2[i]);
			df0[i] = INFINITY;
		}
		rc = moderate(s, n, s2, d, sd0, df0, err);
		for (size_t i = 0; i < n && !rc; i++) {
			struct pv_cp_series *x = &s[i];
			/* the moderated sd on the robust sd's scale */
			double fl = sd0[i] * sqrt(pv_cp_scale_bias(x->L));

			/* the gross points' going may not make a series
			 * PV_CP_FLOOR_K times quieter than its family says
			 * it is (changepoint.h, step 1) */
			if (fl > cl[i].first)
				fl = cl[i].first;
			if (x->nclipped && fl > PV_CP_FLOOR_K * x->robust_sd) {
				memset(gflag[i], 0, x->L);
				first_clip(x, fit != NULL, fl, &cl[i], gflag[i]);
			}
			s[i].sd = sd0[i];
			local_var(s[i].clipped, s[i].L, sd0[i], var[i], rss);
		}
		free(sd0);
		free(df0);
		if (rc)
			goto out;
	}
	outlier_rates(s, n, cl, rate, &prior_w, &prior_mu);
	for (size_t i = 0; i < n; i++)
		quiet_stats(&s[i], &csum[i], &quiet[i]);
	for (int round = 0; round < ROUNDS; round++) {
		size_t ncandpts = 0;
		double ncand, nbcand;
		int singles, bumps;

		for (size_t i = 0; i < n; i++) {
			struct pv_cp_series *x = &s[i];
			struct gross_rate gr;
			struct limits lim;

			sets[i].n = 0;
			replaced[i] = 0;
			if (x->L < 3 || !(x->sd >= 0))
				continue;
			series_limits(x, alpha, ntests, nbumps, ntrend,
				      gflag[i], cl[i].ngross, prior_w,
				      prior_mu, cl[i].gross, cl[i].gross_in,
				      rate[i], &gr, &lim);
			if (quiet_at(&quiet[i], x->sd, x->df, lim.split_p,
				     lim.bump_p, lim.line_p)) {
				/* what fit_steps() finds, without the search */
				beta[i] = 0;
				psum_build(&csum[i], x->clipped, var[i], x->L, 0, 0);
				drift[i] = quiet[i].line / x->sd * (quiet[i].line / x->sd);
			} else {
				beta[i] = fit_steps(x->clipped, var[i], x->L,
						    &csum[i], &lim, &sets[i],
						    &replaced[i], drifting,
						    &drift[i]);
			}
		}
		/* step 2b: the commits some gated series stepped at */
		memset(cand, 0, npoints);
		for (size_t i = 0; i < n; i++) {
			if (s[i].ungated)
				continue;
			for (size_t j = 0; j < sets[i].n; j++) {
				size_t pt = pvs_cp_point(&s[i], sets[i].k[j]);

				if (cand[pt] < UCHAR_MAX)
					cand[pt]++;
				ncandpts += cand[pt] == PV_CP_CAND_SUPPORT;
			}
		}
		ncand = (double)ncandpts * ngated;
		nbcand = (double)ncandpts * (double)(ncandpts - 1) / 2 * ngated;
		/* only where the candidates' level is looser than step 2's,
		 * which searched every split and bump at its own */
		singles = ncandpts && ncand < ntests;
		bumps = ncandpts > 1 && nbcand < nbumps;
		for (size_t i = 0; i < n; i++) {
			struct pv_cp_series *x = &s[i];
			double a = x->alpha > 0 ? x->alpha : alpha;
			double tot, dof;
			struct gross_rate gr;
			struct limits lim;
			size_t m = 0;

			added[i].n = 0;
			if (x->L < 3 || !(x->sd >= 0)) {
				if (fit)
					for (size_t j = 0; j < x->L; j++)
						fit[i][j] = NAN;
				s2[i] = NAN;
				d[i] = 0;
				continue;
			}
			/* the shared effect's residuals are about step 2's
			 * levels alone: a candidate that a machine's point
			 * made in one series is not made again in all */
			if (fit && round == ROUNDS - 1)
				seg_fit(x->clipped, x->L, &sets[i], beta[i],
					fit[i]);
			/* a series with no step whose best split and bump,
			 * anywhere, are not significant at the candidates'
			 * levels has no candidate that is (quiet_at()) */
			if ((singles || bumps) &&
			    (sets[i].n || !quiet_at(&quiet[i], x->sd, x->df,
						    a / ncand, nbcand > 0 ?
						    a / nbcand : 0, 0)))
				for (size_t j = 0; j < x->L; j++)
					if (cand[pvs_cp_point(x, j)] >=
					    PV_CP_CAND_SUPPORT)
						js[m++] = j;
			if (m) {
				double b0 = beta[i];
				struct cands cs = { js, m,
						   gsl_cdf_chisq_Pinv(1 - a, 1),
						   singles, bumps, js + maxL,
						   &keep, drifting };

				series_limits(x, alpha, ntests, nbumps, ntrend,
					      gflag[i], cl[i].ngross, prior_w,
					      prior_mu, cl[i].gross,
					      cl[i].gross_in, rate[i], &gr,
					      &lim);
				lim.split_p = a / ncand;
				lim.bump_p = nbcand > 0 ? a / nbcand : 0;
				beta[i] = candidates(x, &csum[i], var[i], &lim,
						     &cs, b0, &sets[i],
						     &added[i], rss);
				/* the line's steps are steps again */
				if (b0 != 0 && beta[i] == 0)
					replaced[i] = 0;
			}
			if (round == ROUNDS - 1) {
				if (x->adjusted && x->own_gross &&
				    own_support(x, &sets[i], err)) {
					rc = -1;
					goto out;
				}
				trend(x, &sets[i], ntrend, a);
				x->trend.replaced = replaced[i];
				x->cp = pv_calloc(sets[i].n ? sets[i].n : 1,
						  sizeof(struct pv_cp));
				x->ncp = sets[i].n;
				describe(&csum[i], values(x), x->clipped, x->L,
					 &sets[i], &added[i], x->sd, x->df, a,
					 ntests, ncand, x->cp);
				continue;
			}
			tot = seg_rss(x->clipped, x->L, &sets[i], beta[i],
				      cap_of(x), rss);
			dof = (double)x->L - (double)(sets[i].n + 1) - (beta[i] != 0);
			s2[i] = dof > 0 ? tot / dof : NAN;
			d[i] = dof > 0 ? dof : 0;
		}
		if (round == ROUNDS - 1)
			break;
		drifting = family_drifts(s, n, drift);

		{
			double *sdn = pv_calloc(n ? n : 1, sizeof(*sdn));
			double *dfn = pv_calloc(n ? n : 1, sizeof(*dfn));

			for (size_t i = 0; i < n; i++) {
				sdn[i] = s[i].sd;
				dfn[i] = s[i].df;
			}
			rc = moderate(s, n, s2, d, sdn, dfn, err);
			/* one scale a series, and a noisier neighbourhood's
			 * own (local_var()); a segment's own was measured
			 * and not kept, see changepoint.h */
			for (size_t i = 0; i < n && !rc; i++) {
				s[i].sd = sdn[i];
				s[i].df = dfn[i];
				local_var(s[i].clipped, s[i].L, sdn[i],
					  var[i], rss);
			}
			free(sdn);
			free(dfn);
			if (rc)
				goto out;
		}
	}
out:
	for (size_t i = 0; i < n; i++) {
		free(csum[i].s);
		free(csum[i].v);
		free(csum[i].sx);
		free(var[i]);
		free(gflag[i]);
		free(sets[i].k);
		free(added[i].k);
	}
	free(sets);
	free(added);
	free(replaced);
	free(cand);
	free(js);
	free(keep.k);
	free(gflag);
	free(csum);
	free(var);
	free(quiet);
	free(s2);
	free(d);
	free(beta);
	free(drift);
	free(cl);
	free(rate);
	free(rss);
	return rc;
}

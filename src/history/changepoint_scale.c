/*
 * changepoint_scale.c - the noise a series' tests are judged against
 * (changepoint.h): a point's value from its runs, the robust sd of a
 * series from its successive differences, spikes (clipping, step 1), a
 * noisier neighbourhood's own variance, the sd moderated across the
 * family, and each series' rate of gross points.
 */
#include "changepoint_int.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include "../stats.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* Runs further than this many robust within-point sds from their
 * point's median are left out of the point's value. */
#define RUN_REJECT 5.0
/* The fractions of the differences the trimmed RMS keeps: for the scale
 * (steps fall in the trimmed tenth), and for finding the gross points
 * the scale is estimated without (up to an eighth of the points wild). */
#define SCALE_KEPT 0.9
#define FIND_KEPT 0.75
/* A noisier neighbourhood (step 3): the differences within this many
 * points of a point, wide enough for a median that one step's difference
 * does not move ... */
#define PV_CP_LOCAL_W 8
/* ... have their own scale where it is this many times the series' sd
 * (two-level noise, read this way, reaches about 2.1: it stays one). */
#define PV_CP_LOCAL_K 2.25

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
double pvs_cp_median_of(const double *x, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i])) {
			memcpy(tmp, x, n * sizeof(*tmp));
			return median_sorted(tmp, n);
		}
	return pvs_median_select(x, n, tmp);
}

/*
 * The root mean square of the smallest keep of a[0..n) (sorted, absolute
 * deviations; keep at most n - 1, so at least one is left out), made
 * consistent for normal data: over the sd of a standard normal within
 * its central fraction f = keep / n, E[Z^2 | |Z| < z] = 1 - 2 z phi(z) / f,
 * z = Phi^-1((1 + f) / 2).  0 when keep is 0.
 */
static double trimmed_sd(const double *a, size_t n, size_t keep)
{
	double ss = 0, f, z, c;

	if (keep > n - 1)
		keep = n - 1;
	if (!keep)
		return 0;
	for (size_t i = 0; i < keep; i++)
		ss += a[i] * a[i];
	f = (double)keep / (double)n;
	z = gsl_cdf_ugaussian_Pinv(0.5 + 0.5 * f);
	c = 1 - 2 * z * gsl_ran_ugaussian_pdf(z) / f;
	return c > 0 ? sqrt(ss / (double)keep) / sqrt(c) : 0;
}

/*
 * The robust within-point sd from the runs' absolute deviations
 * dev[0..n) from their points' medians (n >= 1; sorted here): the larger
 * of the MAD's estimate and trimmed_sd() of the smallest FIND_KEPT of
 * them, the fraction step 1 keeps to find gross points.  The MAD alone
 * reads only one mode's jitter when the runs take two modes (two CPU
 * frequencies), and a point's value would then keep only the runs of its
 * commoner mode; the trimmed RMS sees both modes, while gross runs (a
 * run at 1.5x, 5% of runs) fall in the trimmed quarter even where a
 * series has more than its share of them.
 */
static double run_sd(double *dev, size_t n, double *tmp)
{
	double mad = PVS_MAD_SD * pvs_cp_median_of(dev, n, tmp), trim;

	pvs_sort(dev, n);
	trim = trimmed_sd(dev, n, (size_t)ceil(FIND_KEPT * (double)n));
	return mad > trim ? mad : trim;
}

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
		tau = RUN_REJECT * run_sd(dev, nd, tmp);
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
 * What the robust scale of y needs of its L - 1 successive differences,
 * found once for every fraction kept (robust_scale()): the absolute
 * deviations from their median (a slow trend) sorted, the median
 * absolute difference (the scale's floor, and the gross limit of a
 * series with no noise) and the largest |y|.  d and tmp: L - 1 doubles each (d holds the
 * deviations after).
 */
struct diffs {
	const double *dev;      /* sorted */
	size_t n;
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
	o->med_abs = pvs_cp_median_of(d, L - 1, tmp);
	for (size_t i = 1; i < L; i++)
		d[i - 1] = y[i] - y[i - 1];
	md = pvs_cp_median_of(d, L - 1, tmp);
	nan = 0;
	for (size_t i = 1; i < L; i++) {
		d[i - 1] = fabs(y[i] - y[i - 1] - md);
		nan |= isnan(d[i - 1]);
	}
	if (nan)
		(void)median_sorted(d, L - 1);
	else
		sort_abs(d, L - 1, 64);
	o->dev = d;
	o->n = L - 1;
}

/*
 * The robust sd of the values from their successive differences, after
 * the median difference (a slow trend) is taken out: the root mean
 * square of the smallest fraction kept of them (SCALE_KEPT: steps fall
 * in the trimmed tenth), made consistent for normal data, never below
 * the median absolute difference's estimate.  Rounding's sd is none
 * (0).
 */
static double robust_scale(const struct diffs *x, double kept)
{
	/* at least one difference is left out, however short the series:
	 * one step's difference must not set the scale (10 points with a
	 * step at the fifth would otherwise trim nothing) */
	double ss = trimmed_sd(x->dev, x->n, (size_t)ceil(kept * (double)x->n));

	ss /= sqrt(2.0);
	/* never below the median absolute difference read as a normal sd
	 * (median |d| = 0.6745 sqrt(2) sd): a noiseless line's equal
	 * differences are its scale, and its points are not pulled to a
	 * median */
	if (x->med_abs / MEDIAN_DIFF_SD > ss)
		ss = x->med_abs / MEDIAN_DIFF_SD;
	return ss <= 1e-9 * (x->big + 1) ? 0 : ss;
}

/* The median of point i and its nearest neighbours (five, or three in a
 * short series): one or two wild points never move another, and a step
 * is never clipped once PV_CP_MIN_SEG points confirm it. */
double pvs_cp_local_median(const double *y, size_t L, size_t i)
{
	size_t w = L >= 5 ? 5 : 3, c = i < w / 2 ? w / 2 :
		   i + w / 2 >= L ? L - 1 - w / 2 : i;
	double win[5];

	for (size_t k = 0; k < w; k++)
		win[k] = y[c - w / 2 + k];
	return w == 5 ? med5(win) : med3(win[0], win[1], win[2]);
}

/* pv_cp_clip(), its limits' scale never below floor, with what it found
 * into *o and the gross points into flag (when not NULL). */
size_t pvs_cp_clip_series(const double *y, size_t L, double floor,
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
		ref[i] = pvs_cp_local_median(y, L, i);
	diffs_of(y, L, d, tmp, &dy);
	*sd = o->first = robust_scale(&dy, SCALE_KEPT);
	/*
	 * Noisy neighbours' differences inflate that scale: each makes two
	 * wild differences, so 5% of 1.5x points make a tenth of them wild,
	 * as many as the trimmed RMS leaves out, and 1.5x points at a scale
	 * of 6-15% are not gross (most would stay, and three close
	 * together would make a level).  So the
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
	size_t k = pvs_cp_clip_series(y, L, 0, out, &o, NULL);

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
void pvs_cp_local_var(const double *y, size_t L, double sd, double *var,
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
		md = pvs_cp_median_of(d + a, b - a, t);
		if (md > lim) {
			md /= MEDIAN_DIFF_SD;
			var[j] = md * md;
		}
	}
}

/*
 * Moderate the variances s2 (df d) across the family's members that are
 * not alone; a member alone keeps its own.  Into sd and df.
 */
int pvs_cp_moderate(struct pv_cp_series *s, size_t n, const double *s2,
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
 * series share one rate gives every series that rate; one
 * spiky series among clean ones keeps most of its own.  A series of
 * fewer than 5 points (no median of 5) has no rate.
 */
void pvs_cp_outlier_rates(const struct pv_cp_series *s, size_t n,
			  const struct clip *cl, double *rate)
{
	double sg = 0, sl = 0, mu, ss = 0, inv = 0, tau2, w;
	size_t k = 0;

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
	for (size_t i = 0; i < n; i++)
		if (s[i].L >= 5)
			rate[i] = isinf(w) ? mu :
				  ((double)cl[i].ngross + w * mu) / ((double)s[i].L + w);
}

/*
 * stats.c - descriptive statistics, two-sample tests, p-value adjustment
 * and the empirical-Bayes moderated t.  Everything here is a pure
 * function of its arguments; nothing prints.
 *
 * Agreement with scipy is taken seriously: the t-tests must match
 * scipy.stats.ttest_ind to 1e-9 relative, and they do to a few ulps
 * because
 *  - means and variances are summed in numpy's pairwise order and
 *    combined with scipy's formulas operation for operation;
 *  - the t tail comes from the regularized incomplete beta function,
 *    fed with whichever of df/(df+t^2) and t^2/(df+t^2) carries the
 *    precision, with ln B(df/2, 1/2) computed once per df and the
 *    prefactor's logs taken without rounding x near 1 (see t_tail());
 *    for large df, the far side of the mean uses DiDonato and Morris's
 *    asymptotic series instead of the continued fraction.  It is
 *    within 1e-13 of scipy.stats.t.sf for df up to 1e6 while p >= 1e-60
 *    (gsl_cdf_tdist_Q's Cornish-Fisher expansion for df > 30 is only
 *    good to about 1e-6 relative up to df ~ 1000).
 */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_psi.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Sort ascending: insertion sort for the handful of runs a benchmark
 * has (much faster there than a general sort), GSL's sort beyond. */
static void sort_doubles(double *x, size_t n)
{
	if (n > 32) {
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

/* ---- Summation in numpy's order ------------------------------------- */

/*
 * numpy's pairwise_sum for float64: sequential below 8 values, eight
 * interleaved accumulators up to 128, recursive halving above.  With
 * sq set, sums (x[i] - c)^2 instead, as numpy does for
 * np.mean((x - c)**2).  np.add.reduce starts from 0.0 and adds this.
 * TERM is the summand; the two instances differ only in it (they are
 * apart so that the hot small-n loops carry no test of sq).
 */
#define NP_PAIRWISE(name, TERM)						\
static double name(const double *x, size_t n, double c)		\
{									\
	double r[8], res;						\
	size_t i, j;							\
									\
	(void)c;							\
	if (n < 8) {							\
		res = 0.0;						\
		for (i = 0; i < n; i++)					\
			res += TERM(x[i]);				\
		return res;						\
	}								\
	if (n <= 128) {							\
		for (j = 0; j < 8; j++)					\
			r[j] = TERM(x[j]);				\
		for (i = 8; i < n - n % 8; i += 8)			\
			for (j = 0; j < 8; j++)				\
				r[j] += TERM(x[i + j]);			\
		res = ((r[0] + r[1]) + (r[2] + r[3])) +			\
		      ((r[4] + r[5]) + (r[6] + r[7]));			\
		for (; i < n; i++)					\
			res += TERM(x[i]);				\
		return res;						\
	}								\
	i = n / 2;							\
	i -= i % 8;							\
	return name(x, i, c) + name(x + i, n - i, c);			\
}

#define NP_VALUE(v) (v)
#define NP_SHIFT(v) ((v) - c)
#define NP_SQDEV(v) (((v) - c) * ((v) - c))
NP_PAIRWISE(np_pairwise_sum, NP_VALUE)
NP_PAIRWISE(np_pairwise_shift, NP_SHIFT)
NP_PAIRWISE(np_pairwise_sq, NP_SQDEV)
#undef NP_VALUE
#undef NP_SHIFT
#undef NP_SQDEV
#undef NP_PAIRWISE

static double np_pairwise(const double *x, size_t n, double c, int sq)
{
	return sq ? np_pairwise_sq(x, n, c) : np_pairwise_sum(x, n, c);
}

/*
 * The mean as x[0] + mean(x - x[0]): identical values give that value
 * exactly, so their variance is exactly 0 (numpy's plain sum makes
 * three runs of 2833.37 2833.3700000000003, sd 5.6e-13).  Elsewhere it
 * differs from np.mean in the last bits at most.  Should the shift
 * overflow (or x[0] be infinite), the plain sum is used.
 */
static double np_mean(const double *x, size_t n)
{
	double m;

	if (n == 0)
		return NAN;
	m = x[0] + (0.0 + np_pairwise_shift(x, n, x[0])) / (double)n;
	if (!isfinite(m))
		m = (0.0 + np_pairwise(x, n, 0.0, 0)) / (double)n;
	return m;
}

/* scipy's _var(x, ddof=1): mean of squared deviations times n/(n-1). */
static double np_var1(const double *x, size_t n, double mean)
{
	double v = (0.0 + np_pairwise(x, n, mean, 1)) / (double)n;

	return v * ((double)n / (double)(n - 1));
}

static int all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * Rearrange x[0..n) so that x[k] is the k-th smallest (0-based), those
 * before it no larger and those after it no smaller (Hoare's find with
 * a median-of-3 pivot).  No NaN in x.
 */
static void select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo + 16) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double a = x[lo], b = x[mid], c = x[hi], piv, t;

		piv = a < b ? (b < c ? b : a < c ? c : a) :
			      (a < c ? a : b < c ? c : b);
		while (i <= j) {
			while (x[i] < piv)
				i++;
			while (x[j] > piv)
				j--;
			if (i <= j) {
				t = x[i];
				x[i++] = x[j];
				x[j--] = t;
			}
		}
		/* now x[lo..j] <= piv <= x[i..hi], and j < i */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;         /* between j and i: equal to piv */
	}
	sort_doubles(x + lo, hi - lo + 1);
}

/*
 * Median of x[0..n), n >= 1, no NaN, using tmp[0..n) as scratch: the
 * same two middle order statistics gsl_stats_median_from_sorted_data
 * takes from a sorted copy, found by selection in O(n).
 */
static double median_select(const double *x, size_t n, double *tmp)
{
	double hi, lo;
	size_t i;

	memcpy(tmp, x, n * sizeof(*tmp));
	if (n <= 32) {
		sort_doubles(tmp, n);
		return gsl_stats_median_from_sorted_data(tmp, 1, n);
	}
	select_kth(tmp, n, n / 2);
	hi = tmp[n / 2];
	if (n % 2)
		return hi;
	lo = tmp[0];
	for (i = 1; i < n / 2; i++)
		if (tmp[i] > lo)
			lo = tmp[i];
	return (lo + hi) / 2;
}

/* Median of x[0..n), n >= 1, using tmp[0..n) as scratch. */
static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof(*tmp));
	sort_doubles(tmp, n);
	return gsl_stats_median_from_sorted_data(tmp, 1, n);
}

/* ---- Distributions -------------------------------------------------- */

/*
 * The t distribution at one df.  P(T > t) = I_x(a, 1/2) / 2 with
 * a = df/2, x = df/(df+t^2), and I_x(a, b) = x^a y^b / (a B(a, b)) times
 * a continued fraction (y = 1 - x).  GSL's gsl_sf_beta_inc_e computes
 * exactly that, but from scratch on every call: ln B(a, b) alone is
 * ~90% of its cost, and it has no entry point that takes the constant,
 * while a family shares one df (the moderated t) and a Welch metric
 * asks for a p-value and three quantiles at its own.  So ln B(df/2, 1/2)
 * comes from GSL once per df (tdf_lnbeta(), memoized) and the rest is
 * done here:
 *  - the logs of x and y are taken from u = t^2/df (or df/t^2 when that
 *    is smaller) with log1p, never from a rounded x near 1.  Then
 *    a ln x keeps its digits for any df: GSL's ln(x) with x near 1 is
 *    off by eps/(1-x) relative, which a = df/2 multiplies (2e-13 at
 *    df = 3000, worse beyond, which is why gsl_cdf_tdist_Q used to take
 *    over there);
 *  - the continued fraction is GSL's beta_cont_frac (Lentz's method,
 *    Numerical Recipes 6.4), operation for operation;
 *  - the prefactor's exponent is not rounded through exp() before the
 *    fraction is applied when it is near the underflow limit, so tails
 *    down to the smallest subnormal come out right.
 * From df = T_BGRAT_DF on, the far side of the mean comes from BGRAT
 * instead of the fraction (bgrat_log()).  Measured against
 * scipy.stats.t.sf (tests/stats_vs_scipy.py, test_stats.c): within
 * 6e-14 relative for df in [1, 1e6] and t in [1e-6, 1e3] while
 * p >= 1e-60, and within 5e-13 down to p = 1e-300, where a tail's own
 * conditioning is 2 eps ln(1/p) per ulp of t; still within 4e-13 up to
 * df = 1e300.
 */

/* Arrays of up to this many doubles live on the stack. */
#define SMALL_N 64

/*
 * ln B(df/2, 1/2) from GSL, memoized for a few df (NAN when GSL
 * fails).  A new df replaces the least used one (uses counted up to
 * 64, and aged by every miss), so that the df a moderated family
 * shares stays while each Welch metric's own df (used for its p-value
 * and three quantiles in a row) passes through.
 * B is symmetric and GSL's value is too (it orders its arguments), so
 * this serves both I_x(a, 1/2) and I_y(1/2, a).
 */
static double tdf_lnbeta(double df)
{
	static struct { double df, lnb; unsigned uses; } memo[4];
	gsl_sf_result r;
	unsigned i, low = 0;

	for (i = 0; i < 4; i++) {
		if (memo[i].df == df && df > 0) {
			memo[i].uses += memo[i].uses < 64;
			return memo[i].lnb;
		}
	}
	/* uses age on every miss, so an old family's df goes too */
	for (i = 0; i < 4; i++) {
		memo[i].uses -= memo[i].uses > 0;
		if (memo[i].uses < memo[low].uses)
			low = i;
	}
	memo[low].df = df;
	memo[low].uses = 1;
	memo[low].lnb = gsl_sf_lnbeta_e(df / 2, 0.5, &r) == GSL_SUCCESS ?
			r.val : NAN;
	return memo[low].lnb;
}

/* Below this a continued fraction's partial term is taken as this. */
#define CF_TINY (2.0 * DBL_MIN)

/* One step of the modified Lentz method with coefficient d: updates the
 * running C and 1/D terms and returns the factor C * (1/D) by which the
 * fraction changes. */
static double lentz_step(double d, double *c, double *dinv)
{
	double den = 1.0 + d * *dinv;

	*c = 1.0 + d / *c;
	if (fabs(den) < CF_TINY)
		den = CF_TINY;
	if (fabs(*c) < CF_TINY)
		*c = CF_TINY;
	*dinv = 1.0 / den;
	return *dinv * *c;
}

/*
 * The continued fraction of I_x(a, b) x^-a y^-b a B(a, b) (Abramowitz
 * and Stegun 26.5.8), converging fast for x < (a+1)/(a+b+2), evaluated
 * as GSL's beta_cont_frac does, step for step, so that the tail agrees
 * with gsl_sf_beta_inc to the bit: GSL has no entry point that takes
 * ln B(a, b) from the caller, and recomputing it was 94% of the cost.
 * NAN when 512 rounds do not converge.
 */
static double t_cf(double a, double b, double x)
{
	double c = 1.0, dinv = 1.0 - (a + b) * x / (a + 1.0), cf;

	if (fabs(dinv) < CF_TINY)
		dinv = CF_TINY;
	dinv = 1.0 / dinv;
	cf = dinv;
	for (unsigned k = 1; k <= 512; k++) {
		double delta;

		cf *= lentz_step(k * (b - k) * x /
				 (((a - 1.0) + 2 * k) * (a + 2 * k)), &c, &dinv);
		delta = lentz_step(-(a + k) * (a + b + k) * x /
				   ((a + 2 * k) * (a + 2 * k + 1.0)), &c, &dinv);
		cf *= delta;
		if (fabs(delta - 1.0) < 2.0 * DBL_EPSILON)
			return cf;
	}
	return NAN;
}

/* From this df on, the far side of the mean (t^2 > ~3) comes from
 * BGRAT: there the continued fraction loses up to 1e-13 at df = 3000
 * and 1e-11 at 1e6 (it converges, but cancels: its odd coefficients
 * tend to -1). */
#define T_BGRAT_DF 200.0

/*
 * DiDonato and Morris's BGRAT (ACM TOMS 708, eqs. 9 to 9.6, as in
 * Boost's beta_small_b_large_a_series), the asymptotic expansion of
 * I_x(a, b) for large a and b <= 1, here with b = 1/2, where its
 * incomplete gamma Q(1/2, u) is erfc(sqrt(u)):
 *	I_x(a, 1/2) = Gamma(a+1/2)/Gamma(a) T^(-1/2) h(u) sum_n p_n J_n
 * with T = a - 1/4, u = -T ln x, h(u) = sqrt(u/pi) e^-u and
 * J_0 = erfc(sqrt(u))/h(u).  Returns ln I_x(a, 1/2) (lx = ln x, lnb =
 * ln B(a, 1/2)), NAN when the series does not settle (ln x must be
 * within its radius, |ln x| < 2 pi; callers keep it above -1).
 */
static double bgrat_log(double a, double lx, double lnb)
{
	static double p[30];
	double T = a - 0.25, u = -T * lx, s = sqrt(u), lerfc, j0, j, sum;
	double lx2 = (lx / 2) * (lx / 2), lxp = 1, t4 = 4 * T * T, b2n = 0.5;
	gsl_sf_result r;
	unsigned n, m;

	if (!p[0]) {
		/* eq. 9.4 for b = 1/2: p_n = (b-1)/(2n+1)! +
		 * 1/n sum_{m=1}^{n-1} (m b - n) p_{n-m} / (2m+1)! */
		double fact[62];

		fact[0] = 1;
		for (n = 1; n < 62; n++)
			fact[n] = fact[n - 1] * n;
		for (n = 1; n < 30; n++) {
			double v = 0;

			for (m = 1; m < n; m++)
				v += (m * 0.5 - n) * p[n - m] / fact[2 * m + 1];
			p[n] = v / n - 0.5 / fact[2 * n + 1];
		}
		p[0] = 1;
	}
	if (s < 26) {
		lerfc = log(erfc(s));
	} else {
		if (gsl_sf_log_erfc_e(s, &r) != GSL_SUCCESS)
			return NAN;
		lerfc = r.val;
	}
	/* J_0 = erfc(s) / h(u), in logs so that neither underflows */
	j0 = j = exp(lerfc + u - 0.5 * log(u / M_PI));
	sum = 0;
	for (n = 1; n < 30; n++) {
		double term;

		j = (b2n * (b2n + 1) * j + (u + b2n + 1) * lxp) / t4;
		lxp *= lx2;
		b2n += 2;
		term = p[n] * j;
		sum += term;
		if (fabs(term) <= DBL_EPSILON / 4 * fabs(sum))
			break;
	}
	if (n == 30)
		return NAN;
	/* ln of the leading term, erfc(s) Gamma(a+1/2)/Gamma(a)/sqrt(T)
	 * with Gamma(a+1/2)/Gamma(a) = sqrt(pi)/B(a, 1/2), and of the
	 * corrections relative to it */
	return lerfc + 0.5 * log(M_PI / T) - lnb + log1p(sum / j0);
}

/*
 * P(T > t) for t > 0 and df > 0, both finite, with lnb =
 * ln B(df/2, 1/2); the density at t too when pdf is not NULL.
 */
static double t_tail(double t, double df, double lnb, double *pdf)
{
	double a = df / 2, r = t * t, u, x, y, lx, ly, e, cf;
	int far;

	/* ln x and ln y from whichever of t^2/df and df/t^2 is below 1;
	 * GSL's switch x < (a+1)/(a+b+2), decided on u so that it still
	 * holds where x and the bound both round to 1 */
	if (isfinite(r) && r <= df) {
		u = r / df;
		lx = -log1p(u);
		ly = log(u) + lx;
		x = 1 / (1 + u);
		y = u / (1 + u);
		far = (a + 1) * u > 1.5;
	} else {
		u = df / t / t;
		ly = -log1p(u);
		lx = log(u) + ly;
		x = u / (1 + u);
		y = 1 / (1 + u);
		far = 1;
	}
	/* ln(x^a y^(1/2) / B(a, 1/2)) */
	e = a * lx + 0.5 * ly - lnb;
	if (pdf)
		*pdf = exp((a + 0.5) * lx - lnb) / sqrt(df);
	if (far) {
		if (df >= T_BGRAT_DF && lx > -1) {
			e = bgrat_log(a, lx, lnb);
			if (!isnan(e))
				return 0.5 * exp(e);
		}
		cf = t_cf(a, 0.5, x);
		if (e > -700)
			return 0.5 * exp(e) * cf / a;
		return exp(e + log(0.5 * cf / a));
	}
	/* 1 - I_y(1/2, a), as 1/2 - I_y/2; the tail is above ~0.04 here */
	cf = t_cf(0.5, a, y);
	return 0.5 - exp(e) * cf;
}

/*
 * P(T > t) for Student's t with df degrees of freedom, as
 * scipy.stats.t.sf (df = inf: the normal tail).
 */
static double t_sf(double t, double df)
{
	if (isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0.0 : 1.0;
	if (isnan(df) || df <= 0)
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Q(t);
	if (t == 0)
		return 0.5;
	if (t < 0)
		return 1.0 - t_sf(-t, df);
	return t_tail(t, df, tdf_lnbeta(df), NULL);
}

double pv_t_sf(double t, double df)
{
	return t_sf(t, df);
}

/*
 * A first guess at the upper quantile x with P(T > x) = tail <= 1/2,
 * from the formulas gsl_cdf_tdist_Pinv starts from: exact for df = 1
 * and 2; the leading term of the tail's asymptotic series (lnb =
 * ln B(df/2, 1/2)) where that lands beyond 2 sqrt(df), deep in a tail
 * of power-law shape; otherwise a Cornish-Fisher expansion about the
 * normal quantile.
 */
static double t_quantile_start(double tail, double df, double lnb)
{
	double x, z, a, b, z2, y;

	if (df == 1)
		return tan(M_PI * (0.5 - tail));
	if (df == 2)
		return (1 - 2 * tail) / sqrt(2 * tail * (1 - tail));
	x = sqrt(df) * exp(-(lnb + log(df * tail)) / df);
	x /= sqrt(1 + df / (x * x));
	if (x * x > 4 * df)
		return x;
	z = gsl_cdf_ugaussian_Qinv(tail);
	a = 1 / (df - 0.5);
	b = 48 / (a * a);
	z2 = z * z;
	y = z - z * (3 + z2) / b +
	    z * (945 + z2 * (360 + z2 * (63 + z2 * 4))) / (10 * b * b);
	return sqrt(df * expm1(a * y * y));
}

/*
 * The p quantile of t with df degrees of freedom (df = inf: normal):
 * Halley's iteration on t_tail() from t_quantile_start(), with the
 * density and its log-derivative -(df+1) x / (df + x^2) that come
 * nearly free with the tail, until a Halley step is below 1e-6 relative
 * over 1 + (df+1) x^2/(df + x^2), the curvature of ln P in ln x (the
 * next error is then of order the step's cube times it, below an ulp),
 * or a plain Newton step below 4 eps.  The
 * answer thus agrees with the p-values to the last digits (and with
 * R's qt to about 1e-15).  GSL's gsl_cdf_tdist_Pinv, which this used
 * to polish, costs as much again in its own Newton steps on a tail
 * that is only good to 1e-6 above df = 30; it remains the fallback.
 */
static double t_quantile_uncached(double p, double df)
{
	double x, tail, lnb;
	int i, halley;

	if (isnan(df) || df <= 0 || !(p > 0 && p < 1))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	if (p == 0.5)
		return 0;
	/* solve P(T > x) = the smaller tail, on the side of p */
	tail = p < 0.5 ? p : 1 - p;
	lnb = tdf_lnbeta(df);
	x = isnan(lnb) ? NAN : t_quantile_start(tail, df, lnb);
	for (i = 0; i < 32 && x > 0 && isfinite(x); i++) {
		double pdf, sf = t_tail(x, df, lnb, &pdf), step, h;

		if (!(sf > tail / 4 && sf < tail * 4)) {
			/* far off (a start deep in a tail): Newton on
			 * ln P(T > e^w), nearly linear in w out there with
			 * slope -x pdf/P, which tends to -df */
			double k = pdf > 0 && sf > 0 ? x * pdf / sf : df;
			double dw = (log(sf) - log(tail)) / k;

			if (isnan(dw))
				break;
			x *= exp(dw > 50 ? 50 : dw < -50 ? -50 : dw);
			continue;
		}
		if (!(pdf > 0))
			break;
		step = (sf - tail) / pdf;
		h = 1 - step * (df + 1) * x / (2 * (df + x * x));
		halley = h > 0.5;
		if (halley)
			step /= h;
		if (!isfinite(step))
			break;
		if (x + step <= 0) {
			x /= 2;                 /* overshoot below 0 */
			continue;
		}
		x += step;
		/* Halley's error after a step s is O(s^3): done */
		if (fabs(step) <= (halley ? 1e-6 / (1 + (df + 1) * x * x /
						     (df + x * x)) :
				   4 * DBL_EPSILON) * x)
			return p < 0.5 ? -x : x;
	}
	/* not settled: GSL's answer, polished by Newton as before */
	x = fabs(gsl_cdf_tdist_Pinv(p, df));
	for (i = 0; i < 8 && isfinite(x) && !isnan(lnb); i++) {
		double pdf, sf = t_tail(x, df, lnb, &pdf), step;

		if (!(pdf > 0))
			break;
		step = (sf - tail) / pdf;
		if (!isfinite(step))
			break;
		x += step;
		if (fabs(step) <= 4 * DBL_EPSILON * fabs(x))
			break;
	}
	return p < 0.5 ? -x : x;
}

/*
 * Quantiles are asked for again and again with the same (p, df): every
 * metric of a moderated family shares its df, and every interval and
 * minimum detectable effect its levels, while each Welch metric asks
 * for three at a df of its own that never recurs.  So the memo is
 * segmented (SLRU): an answer enters a probation ring and moves to a
 * protected ring only when it is asked for again; a run of one-off
 * Welch answers then cannot push out the family's.  The answers are
 * those of t_quantile_uncached(), so the function stays pure in effect.
 */
static double t_quantile(double p, double df)
{
	enum { NRING = 8 };
	struct qmemo { double p, df, x; };
	static struct qmemo prot[NRING], prob[NRING];
	static unsigned nprot, nprob;
	unsigned i;
	double x;

	if (!(p > 0 && p < 1) || !(df > 0))
		return t_quantile_uncached(p, df);
	for (i = 0; i < NRING; i++)
		if (prot[i].p == p && prot[i].df == df)
			return prot[i].x;
	for (i = 0; i < NRING; i++) {
		if (prob[i].p == p && prob[i].df == df) {
			x = prob[i].x;
			prob[i].p = 0;          /* moved, not copied */
			prot[nprot++ % NRING] = (struct qmemo){ p, df, x };
			return x;
		}
	}
	x = t_quantile_uncached(p, df);
	prob[nprob++ % NRING] = (struct qmemo){ p, df, x };
	return x;
}

double pv_t_quantile(double p, double df)
{
	return t_quantile(p, df);
}

/* The p-value of t for the alternative, as scipy's _ttest_finish:
 * scipy's t is (mean a - mean b)/se, so "b greater" is its 'less'. */
static double t_pvalue(double t, double df, enum pv_alt alt)
{
	switch (alt) {
	case PV_ALT_GREATER:
		return t_sf(-t, df);
	case PV_ALT_LESS:
		return t_sf(t, df);
	case PV_ALT_TWO:
	default:
		return 2.0 * t_sf(fabs(t), df);
	}
}

/*
 * Fill statistic, p, shift and interval of o from the difference of
 * means d = mean a - mean b, its standard error and df.  A zero se means
 * zero variance: equal means are no evidence at all (t = 0, p = 1),
 * different means a certain change.
 */
static void t_finish(double d, double se, double df, enum pv_alt alt,
		     double conf, struct pv_test_out *o)
{
	double q;

	o->shift = d == 0 ? 0.0 : -d;
	o->se = se;
	o->df = df;
	o->exact = 0;
	if (se == 0) {
		o->ci_low = o->ci_high = o->shift;
		if (d == 0) {
			o->statistic = 0;
			o->p = 1;
		} else {
			o->statistic = d > 0 ? INFINITY : -INFINITY;
			o->p = t_pvalue(o->statistic, df, alt);
		}
		return;
	}
	o->statistic = d / se;
	o->p = t_pvalue(o->statistic, df, alt);
	q = t_quantile(0.5 + conf / 2, df);
	o->ci_low = o->shift - q * se;
	o->ci_high = o->shift + q * se;
}

static const char *alt_ok(enum pv_alt alt)
{
	return alt == PV_ALT_TWO || alt == PV_ALT_GREATER ||
	       alt == PV_ALT_LESS ? NULL : "unknown alternative";
}

/* ---- Descriptive statistics ----------------------------------------- */

void pv_summarize_fast(const double *x, size_t n, struct pv_summary *s)
{
	s->n = n;
	s->mean = s->sd = s->cv = s->median = s->min = s->max = NAN;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return;
	s->mean = np_mean(x, n);
	if (n >= 2)
		s->sd = sqrt(np_var1(x, n, s->mean));
	if (!isnan(s->sd) && s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
	s->min = s->max = x[0];
	for (size_t i = 1; i < n; i++) {
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
}

/*
 * No scan for NaN first: a NaN in x makes the sum, and so the mean and
 * every squared deviation, NaN by itself, which is what
 * pv_summarize_fast() sets when it finds one.
 */
void pv_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double m = n ? np_mean(x, n) : NAN;

	*mean = m;
	if (sd)
		*sd = n >= 2 ? sqrt(np_var1(x, n, m)) : NAN;
}

double pv_median(const double *x, size_t n)
{
	double small[SMALL_N], *tmp, m;

	if (n == 0)
		return NAN;
	tmp = n <= SMALL_N ? small : pv_malloc(n * sizeof(*tmp));
	m = median_of(x, n, tmp);
	if (tmp != small)
		free(tmp);
	return m;
}

void pv_order_stats(const double *x, size_t n, double *median, double *min,
		    double *max)
{
	double small[SMALL_N], *tmp;

	*median = *min = *max = NAN;
	if (n == 0)
		return;
	tmp = n <= SMALL_N ? small : pv_malloc(n * sizeof(*tmp));
	*median = median_of(x, n, tmp);
	*min = tmp[0];
	*max = tmp[n - 1];
	if (tmp != small)
		free(tmp);
}

void pv_summarize(const double *x, size_t n, struct pv_summary *s)
{
	double small[SMALL_N], *tmp;
	size_t i;

	s->n = n;
	s->mean = s->sd = s->cv = s->median = s->min = s->max = NAN;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return;
	s->mean = np_mean(x, n);
	if (n >= 2)
		s->sd = sqrt(np_var1(x, n, s->mean));
	if (!isnan(s->sd) && s->mean != 0)
		s->cv = s->sd / fabs(s->mean);
	tmp = n <= SMALL_N ? small : pv_malloc(n * sizeof(*tmp));
	memcpy(tmp, x, n * sizeof(*tmp));
	sort_doubles(tmp, n);
	s->median = gsl_stats_median_from_sorted_data(tmp, 1, n);
	s->min = tmp[0];
	s->max = tmp[n - 1];
	if (tmp != small)
		free(tmp);
}

/* ---- t-tests -------------------------------------------------------- */

/*
 * The t-test from both sides' means and variances (n-1), as scipy's
 * _ttest_ind_from_stats with _equal_var_ttest_denom or
 * _unequal_var_ttest_denom, operation for operation.
 */
static int t_from_moments(double m1, double v1, double n1, double m2,
			  double v2, double n2, int equal_var, enum pv_alt alt,
			  double conf, struct pv_test_out *o, struct pv_err *err)
{
	double df, se;

	if (equal_var) {
		/* scipy's _equal_var_ttest_denom */
		double svar;

		df = n1 + n2 - 2.0;
		svar = ((n1 - 1) * v1 + (n2 - 1) * v2) / df;
		se = sqrt(svar * (1.0 / n1 + 1.0 / n2));
	} else {
		/* scipy's _unequal_var_ttest_denom (Welch-Satterthwaite) */
		double vn1 = v1 / n1, vn2 = v2 / n2;

		df = (vn1 + vn2) * (vn1 + vn2) /
		     (vn1 * vn1 / (n1 - 1) + vn2 * vn2 / (n2 - 1));
		se = sqrt(vn1 + vn2);
	}
	t_finish(m1 - m2, se, df, alt, conf, o);
	if (isnan(o->p))
		return pv_error(err, PV_EINPUT,
			"t distribution failed for t = %g, df = %g",
			o->statistic, df);
	return 0;
}

static int t_args_ok(size_t na, size_t nb, enum pv_alt alt, double conf,
		     struct pv_err *err)
{
	if (na < 2 || nb < 2)
		return pv_error(err, PV_EINPUT,
			"t-test needs at least 2 values per side, "
			"got %zu and %zu", na, nb);
	if (!(conf > 0 && conf < 1))
		return pv_error(err, PV_EUSAGE,
			"confidence level %g is not between 0 and 1", conf);
	if (alt_ok(alt))
		return pv_error(err, PV_EUSAGE, "%s", alt_ok(alt));
	return 0;
}

int pv_ttest(const double *a, size_t na, const double *b, size_t nb,
	     int equal_var, enum pv_alt alt, double conf,
	     struct pv_test_out *o, struct pv_err *err)
{
	double m1, m2;

	if (na < 2 || nb < 2)
		return t_args_ok(na, nb, alt, conf, err);
	if (!all_finite(a, na) || !all_finite(b, nb))
		return pv_error(err, PV_EINPUT,
			"t-test got a value that is not a finite number");
	if (t_args_ok(na, nb, alt, conf, err))
		return -1;
	m1 = np_mean(a, na);
	m2 = np_mean(b, nb);
	return t_from_moments(m1, np_var1(a, na, m1), (double)na, m2,
			      np_var1(b, nb, m2), (double)nb, equal_var, alt,
			      conf, o, err);
}

int pv_ttest_summary(double mean_a, double sd_a, size_t na, double mean_b,
		     double sd_b, size_t nb, int equal_var, enum pv_alt alt,
		     double conf, struct pv_test_out *o, struct pv_err *err)
{
	if (t_args_ok(na, nb, alt, conf, err))
		return -1;
	if (!isfinite(mean_a) || !isfinite(mean_b) || !isfinite(sd_a) ||
	    !isfinite(sd_b) || sd_a < 0 || sd_b < 0)
		return pv_error(err, PV_EINPUT,
			"t-test from summaries needs finite means and standard deviations >= 0");
	/* scipy's ttest_ind_from_stats squares the sds as given. */
	return t_from_moments(mean_a, sd_a * sd_a, (double)na, mean_b,
			      sd_b * sd_b, (double)nb, equal_var, alt, conf,
			      o, err);
}

/* ---- Mann-Whitney U ------------------------------------------------- */

/*
 * Counts of U = 0..m*n over the binom(m+n, m) equally likely
 * arrangements: the coefficients of the Gaussian binomial
 * [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built one
 * factor at a time (multiply by 1 - q^(n+i), then divide by 1 - q^i,
 * which is a running sum with stride i).  m is the smaller size, so this
 * costs O(m * m * n).  The counts are integers, exact while they stay
 * below 2^53 (binom(m+n, m) < 9e15: m = 8 up to n = 370); beyond that
 * they are rounded, and the lower-half cdf stays within 1e-14 relative
 * of R's pwilcox (measured up to 49 x 49 and 8 x 1000).
 * c must hold m*n + m + 1 values; returns the total count.
 */
static double mwu_counts(size_t m, size_t n, double *c)
{
	size_t i, k, deg = 0, top;
	double total = 0;

	if (m > n) {
		size_t t = m;
		m = n;
		n = t;
	}
	memset(c, 0, (m * n + m + 1) * sizeof(*c));
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		top = deg + n + i;
		for (k = top; k >= n + i; k--)
			c[k] -= c[k - (n + i)];
		for (k = i; k <= top; k++)
			c[k] += c[k - i];
		deg += n;
		/* exactly 0 in exact arithmetic; drop rounding residue */
		for (k = deg + 1; k <= top; k++)
			c[k] = 0;
	}
	for (k = 0; k <= m * n; k++)
		total += c[k];
	return total;
}

/* P(U <= K) from the counts; only the lower half of the counts is ever
 * summed (the distribution is symmetric), which keeps small tails
 * accurate. */
static double mwu_cdf(const double *c, double total, size_t mn, size_t K)
{
	double s = 0;
	size_t k;

	if (K >= mn)
		return 1.0;
	if (K <= mn / 2) {
		for (k = 0; k <= K; k++)
			s += c[k];
		return s / total;
	}
	/* P(U > K) = P(U < mn - K) by symmetry */
	for (k = 0; k < mn - K; k++)
		s += c[k];
	return 1.0 - s / total;
}

struct ranked {
	double v;
	int side;       /* 0: a, 1: b */
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* Work space of pair_select, sized for m rows. */
struct hl_scratch {
	size_t *lo, *hi, *plt, *ple;
	double *pairs;          /* 2 per row: a middle candidate, weight */
	double *buf;
	size_t nbuf;
};

#define DIFF(r, j) (bs[(j)] - as[m - 1 - (r)])

static int cmp_mid(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;

	return (a[0] > b[0]) - (a[0] < b[0]);
}

/*
 * The k-th smallest (0-based) of the m*n differences b[j] - a[i], with
 * as and bs sorted ascending, without forming them.  Row r holds
 * b[.] - as[m-1-r], so the matrix is sorted along rows and columns
 * (floating-point subtraction is monotone, so this holds for the
 * computed differences too).  Candidates of row r are columns
 * [lo[r], hi[r]); each round takes the weighted median of the rows'
 * middle candidates as pivot, counts the elements below and at it with
 * one staircase walk, and drops at least a quarter of the candidates.
 * Once few remain they are sorted directly.
 */
static double pair_select(const double *as, size_t m, const double *bs,
			  size_t n, size_t k, struct hl_scratch *w)
{
	size_t r, j, cand, below, nmid, cnt_lt, cnt_le;
	double pivot, half, acc, *pairs;

	for (r = 0; r < m; r++) {
		w->lo[r] = 0;
		w->hi[r] = n;
	}
	pairs = w->pairs;
	for (;;) {
		cand = below = 0;
		for (r = 0; r < m; r++) {
			cand += w->hi[r] - w->lo[r];
			below += w->lo[r];
		}
		if (cand <= w->nbuf) {
			size_t t = 0;

			for (r = 0; r < m; r++)
				for (j = w->lo[r]; j < w->hi[r]; j++)
					w->buf[t++] = DIFF(r, j);
			qsort(w->buf, t, sizeof(*w->buf), cmp_double);
			return w->buf[k - below];
		}
		nmid = 0;
		for (r = 0; r < m; r++) {
			if (w->hi[r] == w->lo[r])
				continue;
			pairs[2 * nmid] = DIFF(r, (w->lo[r] + w->hi[r]) / 2);
			pairs[2 * nmid + 1] = (double)(w->hi[r] - w->lo[r]);
			nmid++;
		}
		qsort(pairs, nmid, 2 * sizeof(*pairs), cmp_mid);
		half = (double)cand / 2;
		acc = 0;
		pivot = pairs[0];
		for (r = 0; r < nmid; r++) {
			acc += pairs[2 * r + 1];
			if (acc >= half) {
				pivot = pairs[2 * r];
				break;
			}
		}
		/* staircase: the count below the pivot shrinks down the rows */
		cnt_lt = cnt_le = 0;
		j = n;
		for (r = 0; r < m; r++) {
			while (j > 0 && DIFF(r, j - 1) >= pivot)
				j--;
			w->plt[r] = j;
			cnt_lt += j;
		}
		j = n;
		for (r = 0; r < m; r++) {
			while (j > 0 && DIFF(r, j - 1) > pivot)
				j--;
			w->ple[r] = j;
			cnt_le += j;
		}
		if (k < cnt_lt) {
			for (r = 0; r < m; r++)
				if (w->hi[r] > w->plt[r])
					w->hi[r] = w->plt[r];
		} else if (k < cnt_le) {
			return pivot;
		} else {
			for (r = 0; r < m; r++)
				if (w->lo[r] < w->ple[r])
					w->lo[r] = w->ple[r];
		}
		for (r = 0; r < m; r++)
			if (w->lo[r] > w->hi[r])
				w->lo[r] = w->hi[r];
	}
}

#undef DIFF

int pv_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		   enum pv_alt alt, double conf, struct pv_test_out *o,
		   struct pv_err *err)
{
	size_t n = na + nb, mn = na * nb, i, j, k, t, qu;
	struct ranked *rk;
	double r1 = 0, tie_term = 0, u1, u2, u, f, p, alpha;
	double *counts = NULL, total = 0;
	double *as, *bs;
	struct hl_scratch w;
	int ties = 0;

	if (na == 0 || nb == 0)
		return pv_error(err, PV_EINPUT,
			"Mann-Whitney test needs at least 1 value per side, "
			"got %zu and %zu", na, nb);
	if (nb != 0 && mn / nb != na)
		return pv_error(err, PV_EINPUT,
			"Mann-Whitney test: %zu x %zu samples is too many",
			na, nb);
	if (!all_finite(a, na) || !all_finite(b, nb))
		return pv_error(err, PV_EINPUT,
			"Mann-Whitney test got a value that is not a finite "
			"number");
	if (!(conf > 0 && conf < 1))
		return pv_error(err, PV_EUSAGE,
			"confidence level %g is not between 0 and 1", conf);
	if (alt_ok(alt))
		return pv_error(err, PV_EUSAGE, "%s", alt_ok(alt));

	/* Average ranks of the pooled sample; R1 and the tie term. */
	rk = pv_malloc(n * sizeof(*rk));
	for (i = 0; i < na; i++) {
		rk[i].v = a[i];
		rk[i].side = 0;
	}
	for (i = 0; i < nb; i++) {
		rk[na + i].v = b[i];
		rk[na + i].side = 1;
	}
	qsort(rk, n, sizeof(*rk), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double rank;

		for (j = i + 1; j < n && rk[j].v == rk[i].v; j++)
			;
		t = j - i;
		/* ranks i+1..j share their average */
		rank = ((double)(i + 1) + (double)j) / 2;
		for (k = i; k < j; k++)
			if (rk[k].side == 0)
				r1 += rank;
		if (t > 1) {
			ties = 1;
			tie_term += (double)t * t * t - (double)t;
		}
	}
	free(rk);
	u1 = r1 - (double)na * ((double)na + 1) / 2;
	u2 = (double)mn - u1;

	switch (alt) {
	case PV_ALT_GREATER:    /* scipy 'less': b stochastically larger */
		u = u2;
		f = 1;
		break;
	case PV_ALT_LESS:       /* scipy 'greater' */
		u = u1;
		f = 1;
		break;
	case PV_ALT_TWO:
	default:
		u = u1 > u2 ? u1 : u2;
		f = 2;
		break;
	}

	o->statistic = u1;
	o->df = NAN;
	o->se = NAN;
	o->exact = !(na > 8 && nb > 8) && !ties;
	/* The interval uses the exact distribution whenever the test does,
	 * and, as R's wilcox.test, for any tie-free pair below 50 each. */
	if (!ties && (o->exact || (na < 50 && nb < 50))) {
		counts = pv_malloc((mn + (na < nb ? na : nb) + 1) *
				   sizeof(*counts));
		total = mwu_counts(na, nb, counts);
	}
	if (o->exact) {
		/* P(U' >= u) = P(U' <= mn - u) by symmetry */
		p = mwu_cdf(counts, total, mn, mn - (size_t)u);
	} else {
		double n1 = (double)na, n2 = (double)nb, nn = (double)n;
		double s = sqrt(n1 * n2 / 12 *
				((nn + 1) - tie_term / (nn * (nn - 1))));
		double num = u - n1 * n2 / 2 - 0.5;
		double z;

		if (s > 0)
			z = num / s;
		else
			z = num < 0 ? -INFINITY : num > 0 ? INFINITY : NAN;
		p = gsl_cdf_ugaussian_Q(z);
	}
	p *= f;
	o->p = p > 1 ? 1 : p < 0 ? 0 : p;

	/* Hodges-Lehmann and the Moses interval: order statistics qu and
	 * mn + 1 - qu (1-based) of the differences.  qu is the smallest q
	 * with P(U <= q) >= alpha/2, as R's qwilcox (with its fuzz), or its
	 * normal approximation with continuity correction:
	 * P(U <= q) ~ Phi((q + 0.5 - mn/2) / sigma). */
	alpha = 1 - conf;
	if (counts) {
		double x = alpha / 2 - 10 * DBL_EPSILON, cum = 0;

		for (qu = 0; qu < mn; qu++) {
			cum += counts[qu] / total;
			if (cum >= x)
				break;
		}
	} else {
		double n1 = (double)na, n2 = (double)nb, nn = (double)n;
		double s = sqrt(n1 * n2 / 12 *
				((nn + 1) - tie_term / (nn * (nn - 1))));
		double q = ceil((double)mn / 2 - 0.5 -
				gsl_cdf_ugaussian_Pinv(1 - alpha / 2) * s);

		qu = q < 0 ? 0 : (size_t)q;
	}
	if (qu == 0)
		qu = 1;
	if (qu > (mn + 1) / 2)
		qu = (mn + 1) / 2;
	free(counts);

	as = pv_malloc(n * sizeof(*as));
	bs = as + na;
	memcpy(as, a, na * sizeof(*as));
	memcpy(bs, b, nb * sizeof(*bs));
	sort_doubles(as, na);
	sort_doubles(bs, nb);
	w.lo = pv_malloc(4 * na * sizeof(*w.lo));
	w.hi = w.lo + na;
	w.plt = w.hi + na;
	w.ple = w.plt + na;
	w.pairs = pv_malloc(2 * na * sizeof(*w.pairs));
	w.nbuf = 4 * (na + nb) < mn ? 4 * (na + nb) : mn;
	w.buf = pv_malloc(w.nbuf * sizeof(*w.buf));
	if (mn % 2)
		o->shift = pair_select(as, na, bs, nb, mn / 2, &w);
	else
		o->shift = (pair_select(as, na, bs, nb, mn / 2 - 1, &w) +
			    pair_select(as, na, bs, nb, mn / 2, &w)) / 2;
	o->ci_low = pair_select(as, na, bs, nb, qu - 1, &w);
	o->ci_high = pair_select(as, na, bs, nb, mn - qu, &w);
	free(w.buf);
	free(w.pairs);
	free(w.lo);
	free(as);
	return 0;
}

/* ---- p-value adjustment --------------------------------------------- */

/* A double's bits as an unsigned key in the same order (-0 as +0). */
static uint64_t order_key(double v)
{
	uint64_t b;

	if (v == 0)
		v = 0;
	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

#define RADIX_BITS 16
#define RADIX_SIZE (1u << RADIX_BITS)

/* Order of (full key, index) for the entries of a tie run. */
static int cmp_keyed(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The entries of a tie run are in order already: most often the long
 * runs are of one value (p = 1 for every unchanged metric). */
static int runs_ordered(const uint64_t *e, size_t n, const double *p)
{
	uint32_t prev = (uint32_t)order_key(p[(uint32_t)e[0]]);

	for (size_t i = 1; i < n; i++) {
		uint32_t lo = (uint32_t)order_key(p[(uint32_t)e[i]]);

		if (lo < prev)
			return 0;
		prev = lo;
	}
	return 1;
}

/*
 * Sort e[0..n) (each the top 32 bits of an order key above a 32-bit
 * index) by the full order key of p[index], ties by index: the entries
 * of a run that shares the top bits are put in order by the low bits.
 * Insertion sort for the short runs that are the rule (values that
 * agree in 20 mantissa bits), a general sort for long ones.
 */
static void order_runs(uint64_t *e, size_t n, const double *p)
{
	for (size_t s = 0, t; s < n; s = t) {
		for (t = s + 1; t < n && e[t] >> 32 == e[s] >> 32; t++)
			;
		if (t - s <= 1 || runs_ordered(e + s, t - s, p))
			continue;
		if (t - s <= 32) {
			for (size_t i = s + 1; i < t; i++) {
				uint64_t v = e[i];
				uint32_t lo = (uint32_t)order_key(p[(uint32_t)v]);
				size_t j = i;

				/* stable: equal keys keep index order */
				for (; j > s && (uint32_t)order_key(
					p[(uint32_t)e[j - 1]]) > lo; j--)
					e[j] = e[j - 1];
				e[j] = v;
			}
		} else {
			uint64_t (*kv)[2] = pv_malloc((t - s) * sizeof(*kv));

			for (size_t i = s; i < t; i++) {
				kv[i - s][0] = order_key(p[(uint32_t)e[i]]);
				kv[i - s][1] = (uint32_t)e[i];
			}
			qsort(kv, t - s, sizeof(*kv), cmp_keyed);
			for (size_t i = s; i < t; i++)
				e[i] = (e[i] >> 32) << 32 | kv[i - s][1];
			free(kv);
		}
	}
}

/*
 * The indices of the non-NaN entries of p in ascending order of p, ties
 * by index as R's stable order(), into o; returns their count.  A
 * family is ~100k p-values sorted three times per comparison, where
 * glibc's merge sort with a comparison function cost 80 M instructions
 * each.  An LSD radix sort (stable) on the top 32 bits of the order
 * keys, in two 16-bit passes that carry the index in the low half of
 * the same word, leaves only runs of values that agree in sign,
 * exponent and 20 mantissa bits to order by the rest (see order_runs());
 * a full 64-bit radix sort took six passes.  Passes over a digit that
 * every key shares are skipped.
 */
static size_t sorted_family(const double *p, size_t n, size_t *o)
{
	uint32_t (*cnt)[RADIX_SIZE];
	uint64_t *e, *e2, *et;
	size_t i, k = 0;
	unsigned pass;

	/* indices fit the low half of a word: a model of 2^32 metrics
	 * would not fit in memory in the first place */
	if (n > UINT32_MAX)
		abort();
	cnt = pv_calloc(2, sizeof(*cnt));
	e = pv_malloc(2 * (n ? n : 1) * sizeof(*e));
	e2 = e + n;
	for (i = 0; i < n; i++) {
		uint64_t v;

		if (isnan(p[i]))
			continue;
		v = (order_key(p[i]) >> 32) << 32 | i;
		cnt[0][(v >> 32) & (RADIX_SIZE - 1)]++;
		cnt[1][v >> 48]++;
		e[k++] = v;
	}
	for (pass = 0; pass < 2; pass++) {
		uint32_t *c = cnt[pass], sum = 0, t;
		unsigned shift = 32 + pass * RADIX_BITS, d;

		if (k == 0 || c[(e[0] >> shift) & (RADIX_SIZE - 1)] == k)
			continue;
		for (d = 0; d < RADIX_SIZE; d++) {
			t = c[d];
			c[d] = sum;
			sum += t;
		}
		for (i = 0; i < k; i++)
			e2[c[(e[i] >> shift) & (RADIX_SIZE - 1)]++] = e[i];
		et = e, e = e2, e2 = et;
	}
	order_runs(e, k, p);
	for (i = 0; i < k; i++)
		o[i] = (uint32_t)e[i];
	free(e < e2 ? e : e2);
	free(cnt);
	return k;
}

/* R: pmin(1, cummax((n - i + 1) * p[o]))[ro].  With q = p, each p[o[i]]
 * is read at step i, before q[o[i]] is written, and no other step
 * touches it. */
void pv_adjust_holm(const double *p, size_t n, double *q)
{
	size_t *o = pv_malloc((n ? n : 1) * sizeof(*o));
	size_t k = sorted_family(p, n, o), i;
	double run = -INFINITY, v;

	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	for (i = 0; i < k; i++) {
		v = (double)(k - i) * p[o[i]];
		if (v > run)
			run = v;
		q[o[i]] = run < 1 ? run : 1;
	}
	free(o);
}

/* R: i <- lp:1; o <- order(p, decreasing = TRUE);
 *    pmin(1, cummin(n/i * p[o]))[ro] */
void pv_adjust_bh(const double *p, size_t n, double *q)
{
	size_t *o = pv_malloc((n ? n : 1) * sizeof(*o));
	size_t k = sorted_family(p, n, o), i;
	double run = INFINITY, v;

	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	for (i = k; i-- > 0;) {
		v = (double)k / (double)(i + 1) * p[o[i]];
		if (v < run)
			run = v;
		q[o[i]] = run < 1 ? run : 1;
	}
	free(o);
}

/* ---- Empirical Bayes ------------------------------------------------ */

double pv_trigamma_inverse(double x)
{
	gsl_sf_result tri, d2;
	double y, dif;
	int iter;

	if (isnan(x) || x < 0)
		return NAN;
	if (x > 1e7)
		return 1 / sqrt(x);
	if (x < 1e-6)
		return 1 / x;
	y = 0.5 + 1 / x;
	for (iter = 0; iter < 50; iter++) {
		if (gsl_sf_psi_1_e(y, &tri) != GSL_SUCCESS ||
		    gsl_sf_psi_n_e(2, y, &d2) != GSL_SUCCESS)
			return NAN;
		dif = tri.val * (1 - tri.val / x) / d2.val;
		y += dif;
		if (fabs(dif) / y < 1e-8)
			break;
	}
	return y;
}

static int sf_fail(struct pv_err *err, const char *what, double x, int st)
{
	return pv_error(err, PV_EINPUT, "%s(%g) failed: %s", what, x,
			gsl_strerror(st));
}

int pv_fit_prior(const double *s2, const double *d, size_t n,
		 struct pv_prior *prior, struct pv_err *err)
{
	return pv_fit_prior_shrunk(s2, d, n, 0, prior, err);
}

int pv_fit_prior_shrunk(const double *s2, const double *d, size_t n,
			double shrink, struct pv_prior *prior,
			struct pv_err *err)
{
	double *x, *dd, *tmp, med, emean = 0, evar = 0, trimean = 0, xmean;
	double m4 = 0, m2 = 0, last_h = NAN, psi = 0, psi1 = 0, logh = 0;
	gsl_sf_result r;
	size_t i, k = 0;
	int st;

	x = pv_malloc(3 * (n ? n : 1) * sizeof(*x));
	dd = x + n;
	tmp = dd + n;
	for (i = 0; i < n; i++) {
		if (!(isfinite(d[i]) && d[i] > 1e-15 && isfinite(s2[i]) &&
		      s2[i] > -1e-15))
			continue;
		x[k] = s2[i] > 0 ? s2[i] : 0;
		dd[k] = d[i];
		k++;
	}
	prior->d0 = 0;
	if (k < 2) {
		prior->s0sq = k == 1 ? x[0] : NAN;
		free(x);
		return 0;
	}

	med = median_select(x, k, tmp);
	if (med == 0)
		med = 1;
	for (i = 0; i < k; i++)
		if (x[i] < 1e-5 * med)
			x[i] = 1e-5 * med;
	/* e = log(x) - digamma(d/2) + log(d/2), kept in tmp.  The df of a
	 * family are nearly all the same (2n - 2 for n runs a side), so
	 * the last df's digamma, trigamma and log are reused. */
	for (i = 0; i < k; i++) {
		double h = dd[i] / 2;

		if (h != last_h) {
			if ((st = gsl_sf_psi_e(h, &r)) != GSL_SUCCESS) {
				free(x);
				return sf_fail(err, "digamma", h, st);
			}
			psi = r.val;
			if ((st = gsl_sf_psi_1_e(h, &r)) != GSL_SUCCESS) {
				free(x);
				return sf_fail(err, "trigamma", h, st);
			}
			psi1 = r.val;
			logh = log(h);
			last_h = h;
		}
		tmp[i] = log(x[i]) - psi + logh;
		trimean += psi1;
		emean += tmp[i];
	}
	emean /= (double)k;
	trimean /= (double)k;
	for (i = 0; i < k; i++)
		evar += (tmp[i] - emean) * (tmp[i] - emean);
	/* The sampling sd of var(e), from the e values themselves:
	 * sqrt((m4 - m2^2) / k) with central moments m2, m4 (divisor k).
	 * shrink > 0 subtracts that many sds from the excess spread, so
	 * that spread within sampling noise is not read as heterogeneity. */
	if (shrink > 0) {
		for (i = 0; i < k; i++) {
			double c2 = (tmp[i] - emean) * (tmp[i] - emean);

			m2 += c2;
			m4 += c2 * c2;
		}
		m2 /= (double)k;
		m4 /= (double)k;
	}
	evar = evar / (double)(k - 1) - trimean;
	if (shrink > 0 && m4 > m2 * m2)
		evar -= shrink * sqrt((m4 - m2 * m2) / (double)k);
	xmean = 0;
	for (i = 0; i < k; i++)
		xmean += x[i];
	xmean /= (double)k;
	free(x);

	if (evar > 0) {
		double d0 = 2 * pv_trigamma_inverse(evar);

		if (isnan(d0))
			return pv_error(err, PV_EINPUT,
				"trigamma inverse of %g failed", evar);
		if ((st = gsl_sf_psi_e(d0 / 2, &r)) != GSL_SUCCESS)
			return sf_fail(err, "digamma", d0 / 2, st);
		prior->d0 = d0;
		prior->s0sq = exp(emean + r.val - log(d0 / 2));
	} else {
		prior->d0 = INFINITY;
		prior->s0sq = xmean;
	}
	return 0;
}

/* Sum of squared deviations from the mean, and the mean (numpy order). */
static double sum_sq_dev(const double *x, size_t n, double *mean)
{
	*mean = np_mean(x, n);
	return 0.0 + np_pairwise(x, n, *mean, 1);
}

/*
 * Trimmed mean and winsorized sum of squared deviations of sorted
 * x[0..n), g = floor(0.2 n) from each end; x is winsorized in place.
 * Returns h = n - 2g.
 */
static size_t yuen_side(double *x, size_t n, double *tmean, double *ssw)
{
	size_t g = n / 5, h = n - 2 * g, i;
	double wmean;

	*tmean = np_mean(x + g, h);
	for (i = 0; i < g; i++) {
		x[i] = x[g];
		x[n - 1 - i] = x[n - 1 - g];
	}
	*ssw = sum_sq_dev(x, n, &wmean);
	return h;
}

void pv_modvar_logs(const double *la, size_t na, const double *lb, size_t nb,
		    struct pv_modvar *mv)
{
	double ma, mb, ssa = sum_sq_dev(la, na, &ma);
	double ssb = sum_sq_dev(lb, nb, &mb);

	mv->d = (double)(na - 1) + (double)(nb - 1);
	mv->u = sqrt(1.0 / (double)na + 1.0 / (double)nb);
	mv->s2 = (ssa + ssb) / mv->d;
	mv->diff = mb - ma;
}

int pv_modvar_log(const double *a, size_t na, const double *b, size_t nb,
		  int trimmed, struct pv_modvar *mv, struct pv_err *err)
{
	double small[SMALL_N], *la, *lb, ma, mb, ssa, ssb;
	size_t i;

	if (na < 2 || nb < 2)
		return pv_error(err, PV_EINPUT,
			"moderated test needs at least 2 values per side, "
			"got %zu and %zu", na, nb);
	for (i = 0; i < na + nb; i++) {
		double v = i < na ? a[i] : b[i - na];

		if (!(isfinite(v) && v > 0))
			return pv_error(err, PV_EINPUT,
				"cannot take the log of %g: moderated tests "
				"need positive values", v);
	}
	la = na + nb <= SMALL_N ? small : pv_malloc((na + nb) * sizeof(*la));
	lb = la + na;
	for (i = 0; i < na; i++)
		la[i] = log(a[i]);
	for (i = 0; i < nb; i++)
		lb[i] = log(b[i]);
	if (trimmed) {
		size_t h1, h2;

		sort_doubles(la, na);
		sort_doubles(lb, nb);
		h1 = yuen_side(la, na, &ma, &ssa);
		h2 = yuen_side(lb, nb, &mb, &ssb);
		mv->d = (double)(h1 - 1) + (double)(h2 - 1);
		mv->u = sqrt(1.0 / (double)h1 + 1.0 / (double)h2);
	} else {
		ssa = sum_sq_dev(la, na, &ma);
		ssb = sum_sq_dev(lb, nb, &mb);
		mv->d = (double)(na - 1) + (double)(nb - 1);
		mv->u = sqrt(1.0 / (double)na + 1.0 / (double)nb);
	}
	mv->s2 = (ssa + ssb) / mv->d;
	mv->diff = mb - ma;
	if (la != small)
		free(la);
	return 0;
}

void pv_moderated_t(const struct pv_modvar *mv, const struct pv_prior *prior,
		    double df_cap, enum pv_alt alt, double conf,
		    struct pv_test_out *o)
{
	double d0 = prior->d0, s2post, df;

	if (!(d0 > 0) || isnan(prior->s0sq)) {
		s2post = mv->s2;
		df = mv->d;
	} else if (isinf(d0)) {
		s2post = prior->s0sq;
		df = INFINITY;
	} else {
		s2post = (mv->d * mv->s2 + d0 * prior->s0sq) / (mv->d + d0);
		df = mv->d + d0;
	}
	if (df > df_cap)
		df = df_cap;
	t_finish(-mv->diff, sqrt(s2post) * mv->u, df, alt,
		 conf > 0 && conf < 1 ? conf : NAN, o);
}

/* ---- Gross-error selector ------------------------------------------- */

/* gsl_stats_median_from_sorted_data, inline: n >= 1. */
static double median_sorted(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : (x[(n - 1) / 2] + x[n / 2]) / 2.0;
}

/* The sorted x[0..nx) minus cx, and y[0..ny) minus cy, merged into out:
 * subtracting a constant keeps the order, so these are the residuals
 * sorted. */
static void merge_shifted(const double *x, size_t nx, double cx,
			  const double *y, size_t ny, double cy, double *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < nx && j < ny) {
		double u = x[i] - cx, v = y[j] - cy;

		if (u <= v)
			out[k++] = u, i++;
		else
			out[k++] = v, j++;
	}
	while (i < nx)
		out[k++] = x[i++] - cx;
	while (j < ny)
		out[k++] = y[j++] - cy;
}

/*
 * Copy x[0..n) to out in ascending order.  Ten runs a side is the
 * common case, and for it a sorting network (Waksman's 29 comparators,
 * checked on all 2^10 inputs of zeros and ones) sorts in registers
 * without branches, at half the instructions of an insertion sort.
 * x holds no NaN (the caller checked the sums), and equal values are
 * equal bit for bit (logs are never -0), so the order of the output is
 * that of sort_doubles() exactly.
 */
static void sorted_copy(const double *x, size_t n, double *out)
{
	double v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, t;

	if (n != 10) {
		memcpy(out, x, n * sizeof(*out));
		sort_doubles(out, n);
		return;
	}
	v0 = x[0], v1 = x[1], v2 = x[2], v3 = x[3], v4 = x[4];
	v5 = x[5], v6 = x[6], v7 = x[7], v8 = x[8], v9 = x[9];
#define CX(i, j) (t = v##i < v##j ? v##i : v##j, \
		  v##j = v##i < v##j ? v##j : v##i, v##i = t)
	CX(4, 9); CX(3, 8); CX(2, 7); CX(1, 6);
	CX(0, 5); CX(1, 4); CX(6, 9); CX(0, 3);
	CX(5, 8); CX(0, 2); CX(3, 6); CX(7, 9);
	CX(0, 1); CX(2, 4); CX(5, 7); CX(8, 9);
	CX(1, 2); CX(4, 6); CX(7, 8); CX(3, 5);
	CX(2, 5); CX(6, 8); CX(1, 3); CX(4, 7);
	CX(2, 3); CX(6, 7); CX(3, 4); CX(5, 6);
	CX(4, 5);
#undef CX
	out[0] = v0, out[1] = v1, out[2] = v2, out[3] = v3, out[4] = v4;
	out[5] = v5, out[6] = v6, out[7] = v7, out[8] = v8, out[9] = v9;
}

/*
 * The median of |r[i] - med| for sorted r[0..n): below the first index
 * at or above med these grow leftwards, from it on rightwards, so the
 * two runs are merged from the middle out, and only up to the median.
 */
static double mad_sorted(const double *r, size_t n, double med)
{
	size_t right = 0, stop = n / 2, k;
	ptrdiff_t left;
	double prev = 0, d = 0;

	while (right < n && r[right] < med)
		right++;
	left = (ptrdiff_t)right - 1;
	for (k = 0; k <= stop; k++) {
		double dl = left >= 0 ? fabs(r[left] - med) : INFINITY;
		double dr = right < n ? fabs(r[right] - med) : INFINITY;

		prev = d;
		if (dl <= dr)
			d = dl, left--;
		else
			d = dr, right++;
	}
	return n % 2 ? d : (prev + d) / 2.0;
}

void pv_selector_add(struct pv_selector *sel, const double *la, size_t na,
		     const double *lb, size_t nb, double *scratch)
{
	double *sa = scratch, *sb = sa + na, *r = sb + nb;
	double ma = 0, mb = 0, m2 = 0, m4 = 0, med, scale, t;
	size_t n = na + nb, i, j;

	if (na < PV_GROSS_MIN_N || nb < PV_GROSS_MIN_N)
		return;
	for (i = 0; i < na; i++)
		ma += la[i];
	for (i = 0; i < nb; i++)
		mb += lb[i];
	/* a log that is not finite makes its sum so (|log| < 745 cannot
	 * overflow): a value that was not positive and finite */
	if (!isfinite(ma) || !isfinite(mb))
		return;

	/* kurtosis of the residuals from each side's mean */
	ma /= (double)na;
	mb /= (double)nb;
	for (i = 0; i < na; i++) {
		t = la[i] - ma;
		m2 += t * t;
		m4 += t * t * t * t;
	}
	for (i = 0; i < nb; i++) {
		t = lb[i] - mb;
		m2 += t * t;
		m4 += t * t * t * t;
	}
	m2 /= (double)n;
	m4 /= (double)n;
	if (m2 > 0) {
		sel->ksum += m4 / (m2 * m2);
		sel->kused++;
	}

	/* gross errors: residuals from each side's median beyond K robust
	 * sd (1.4826 MAD of the pooled residuals) */
	sorted_copy(la, na, sa);
	sorted_copy(lb, nb, sb);
	merge_shifted(sa, na, median_sorted(sa, na), sb, nb,
		      median_sorted(sb, nb), r);
	med = median_sorted(r, n);
	scale = 1.4826 * mad_sorted(r, n, med);
	if (!(scale > 0))
		return;
	sel->total += n;
	/* |r| > K scale at the two ends of the sorted residuals */
	t = PV_GROSS_K * scale;
	for (i = 0; i < n && r[i] < -t; i++)
		sel->gross++;
	for (j = n; j > i && r[j - 1] > t; j--)
		sel->gross++;
}

double pv_selector_gross(const struct pv_selector *sel)
{
	return sel->total ? (double)sel->gross / (double)sel->total : NAN;
}

double pv_selector_kurtosis(const struct pv_selector *sel)
{
	return sel->kused ? sel->ksum / (double)sel->kused : NAN;
}

/* Both selectors over a family of raw samples: each metric's logs into
 * one scratch buffer, then pv_selector_add(). */
static void selector_family(struct pv_selector *sel, const double *const *a,
			    const size_t *na, const double *const *b,
			    const size_t *nb, size_t m)
{
	double small[4 * SMALL_N], *buf = NULL, *l;
	size_t k, i, n, cap = 0;
	int ok;

	memset(sel, 0, sizeof(*sel));
	for (k = 0; k < m; k++)
		if (na[k] + nb[k] > cap)
			cap = na[k] + nb[k];
	l = cap <= SMALL_N ? small : (buf = pv_malloc(4 * cap * sizeof(*l)));
	for (k = 0; k < m; k++) {
		n = na[k] + nb[k];
		ok = 1;
		for (i = 0; i < n && ok; i++) {
			double v = i < na[k] ? a[k][i] : b[k][i - na[k]];

			ok = isfinite(v) && v > 0;
			l[i] = log(v);
		}
		if (ok)
			pv_selector_add(sel, l, na[k], l + na[k], nb[k], l + n);
	}
	free(buf);
}

double pv_gross_fraction(const double *const *a, const size_t *na,
			 const double *const *b, const size_t *nb, size_t m)
{
	struct pv_selector sel;

	selector_family(&sel, a, na, b, nb, m);
	return pv_selector_gross(&sel);
}

double pv_tail_kurtosis(const double *const *a, const size_t *na,
			const double *const *b, const size_t *nb, size_t m)
{
	struct pv_selector sel;

	selector_family(&sel, a, na, b, nb, m);
	return pv_selector_kurtosis(&sel);
}

/* ---- Minimum detectable effect -------------------------------------- */

double pv_mde(double se, double df, double alpha, int two_sided,
	      double power)
{
	if (!(se >= 0) || !(df > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return NAN;
	return (t_quantile(1 - (two_sided ? alpha / 2 : alpha), df) +
		t_quantile(power, df)) * se;
}

/*
 * tdist.c - Student's t distribution: tail and quantile; see tdist.h.
 */
#include "tdist.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_gamma.h>
#include "../util/banned.h"

/*
 * The t distribution at one df.  P(T > t) = I_x(a, 1/2) / 2 with
 * a = df/2, x = df/(df+t^2), and I_x(a, b) = x^a y^b / (a B(a, b)) times
 * a continued fraction (y = 1 - x).  GSL's gsl_sf_beta_inc_e computes
 * that, but with ln B(a, b) from scratch on every call, and it has no
 * entry point that takes the constant, while a family shares one df
 * (the moderated t) and a Welch metric asks for a p-value and three
 * quantiles at its own.  So ln B(df/2, 1/2) comes from GSL once per df
 * (tdf_lnbeta(), through a caller's memo) and the rest is done here:
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
 * instead of the fraction (bgrat_log()).  The accuracy this gives is
 * stated in tdist.h and checked by test_stats.c.
 */

/*
 * ln B(df/2, 1/2) from GSL (NAN when GSL fails), through the memo m
 * when there is one.  A new df replaces the least used one (uses
 * counted up to 64, and aged by every miss), so that the df a
 * moderated family shares stays while each Welch metric's own df (used
 * for its p-value and three quantiles in a row) passes through.
 * B is symmetric and GSL's value is too (it orders its arguments), so
 * this serves both I_x(a, 1/2) and I_y(1/2, a).
 */
static double tdf_lnbeta(struct pv_tmemo *m, double df)
{
	gsl_sf_result r;
	unsigned i, low = 0;

	if (!m)
		return gsl_sf_lnbeta_e(df / 2, 0.5, &r) == GSL_SUCCESS ?
		       r.val : NAN;
	for (i = 0; i < PV_TMEMO_DF; i++) {
		if (m->lnb[i].df == df && df > 0) {
			m->lnb[i].uses += m->lnb[i].uses < 64;
			return m->lnb[i].lnb;
		}
	}
	/* uses age on every miss, so an old family's df goes too */
	for (i = 0; i < PV_TMEMO_DF; i++) {
		m->lnb[i].uses -= m->lnb[i].uses > 0;
		if (m->lnb[i].uses < m->lnb[low].uses)
			low = i;
	}
	m->lnb[low].df = df;
	m->lnb[low].uses = 1;
	m->lnb[low].lnb = gsl_sf_lnbeta_e(df / 2, 0.5, &r) == GSL_SUCCESS ?
			  r.val : NAN;
	return m->lnb[low].lnb;
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
 * as GSL's beta_cont_frac does, step for step (Lentz's method), so the
 * fraction is GSL's to the bit; only its prefactor is computed
 * differently (see above).  A transcription of GSL's code, it is under
 * GSL's GPL, which the program is under anyway by linking GSL.  NAN
 * when 512 rounds do not converge.
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
	/* eq. 9.4 for b = 1/2: p_0 = 1, p_n = (b-1)/(2n+1)! +
	 * 1/n sum_{m=1}^{n-1} (m b - n) p_{n-m} / (2m+1)!, evaluated in
	 * double precision (as the recurrence, term by term) */
	static const double p[30] = {
	1, -0.083333333333333329, 0.0062499999999999995,
	-0.00050429894179894181, 4.3437224426807749e-05, -3.8963857323232303e-06,
	3.583335463450789e-07, -3.3497470720605759e-08, 3.1675854343161121e-09,
	-3.0210368517370937e-10, 2.9004157876692506e-11, -2.7993967483752667e-12,
	2.7136393200172009e-13, -2.6400478921841506e-14, 2.5763452761114161e-15,
	-2.5208132554200528e-16, 2.4721275074517443e-17, -2.4292486395023496e-18,
	2.3913480187649285e-19, -2.3577559464117395e-20, 2.3279246157682306e-21,
	-2.3014011079062014e-22, 2.2778073573447338e-23, -2.2568250552677501e-24,
	2.2381841130778092e-25, -2.2216537345132615e-26, 2.207035426746864e-27,
	-2.1941574717669037e-28, 2.1828705107634843e-29, -2.1730439861920944e-30,
	};
	double T = a - 0.25, u = -T * lx, s = sqrt(u), lerfc, j0, j, sum;
	double lx2 = (lx / 2) * (lx / 2), lxp = 1, t4 = 4 * T * T, b2n = 0.5;
	gsl_sf_result r;
	unsigned n;

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
		/* beyond t ~ 1e154 u underflows: its log from the parts */
		lx = u >= DBL_MIN ? log(u) + ly : log(df) - 2 * log(t) + ly;
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
static double t_sf(struct pv_tmemo *m, double t, double df)
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
		return 1.0 - t_sf(m, -t, df);
	return t_tail(t, df, tdf_lnbeta(m, df), NULL);
}

double pv_t_sf(double t, double df)
{
	return t_sf(NULL, t, df);
}

double pv_t_sf_memo(struct pv_tmemo *m, double t, double df)
{
	return t_sf(m, t, df);
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
		return 1 / tan(M_PI * tail);    /* no 0.5 - tail to round */
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
 * or a plain Newton step below 4 eps.  The answer thus agrees with the
 * p-values to the last digits.  GSL's gsl_cdf_tdist_Pinv (whose own
 * tail is only good to 1e-6 above df = 30), polished by Newton on
 * t_tail(), is the fallback when this does not settle.
 */
static double t_quantile_solve(struct pv_tmemo *m, double p, double df)
{
	double x, tail, lnb, curv;
	int i, halley;

	if (isnan(df) || df <= 0 || !(p > 0 && p < 1))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	if (p == 0.5)
		return 0;
	/* solve P(T > x) = the smaller tail, on the side of p */
	tail = p < 0.5 ? p : 1 - p;
	lnb = tdf_lnbeta(m, df);
	x = isnan(lnb) ? NAN : t_quantile_start(tail, df, lnb);
	for (i = 0; i < 32 && x > 0 && isfinite(x); i++) {
		double pdf, sf = t_tail(x, df, lnb, &pdf), step, h;
		int near = sf > tail / 4 && sf < tail * 4;

		if (!near || !(pdf > 0)) {
			/* far off (a start deep in a tail), or so deep that
			 * the density underflows: Newton on ln P(T > e^w),
			 * nearly linear in w out there with slope -x pdf/P,
			 * which tends to -df */
			double k = pdf > 0 && sf > 0 ? x * pdf / sf : df;
			double dw = (log(sf) - log(tail)) / k;

			if (isnan(dw))
				break;
			x *= exp(dw > 50 ? 50 : dw < -50 ? -50 : dw);
			/* where the density underflows, x^2/df is beyond
			 * 1e20 and ln P linear in w to the last bit: one
			 * step from near the answer lands on it */
			if (near)
				return p < 0.5 ? -x : x;
			continue;
		}
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
		/* Halley's error after a step s is O(s^3): done (the
		 * curvature tends to df + 1 where x^2 overflows) */
		curv = isfinite(x * x) ? (df + 1) * x * x / (df + x * x) :
		       df + 1;
		if (fabs(step) <= (halley ? 1e-6 / (1 + curv) :
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
 * Welch answers then cannot push out the family's.
 */
static double t_quantile(struct pv_tmemo *m, double p, double df)
{
	unsigned i;
	double x;

	if (!m || !(p > 0 && p < 1) || !(df > 0))
		return t_quantile_solve(m, p, df);
	for (i = 0; i < PV_TMEMO_Q; i++)
		if (m->prot[i].p == p && m->prot[i].df == df)
			return m->prot[i].x;
	for (i = 0; i < PV_TMEMO_Q; i++) {
		if (m->prob[i].p == p && m->prob[i].df == df) {
			x = m->prob[i].x;
			m->prob[i].p = 0;       /* moved, not copied */
			i = m->nprot++ % PV_TMEMO_Q;
			m->prot[i].p = p;
			m->prot[i].df = df;
			m->prot[i].x = x;
			return x;
		}
	}
	x = t_quantile_solve(m, p, df);
	i = m->nprob++ % PV_TMEMO_Q;
	m->prob[i].p = p;
	m->prob[i].df = df;
	m->prob[i].x = x;
	return x;
}

double pv_t_quantile(double p, double df)
{
	return t_quantile(NULL, p, df);
}

double pv_t_quantile_memo(struct pv_tmemo *m, double p, double df)
{
	return t_quantile(m, p, df);
}

void pv_tmemo_init(struct pv_tmemo *m)
{
	memset(m, 0, sizeof(*m));
}

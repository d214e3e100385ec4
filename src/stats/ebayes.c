/*
 * ebayes.c - the empirical-Bayes prior and the moderated t; see
 * ebayes.h.
 */
#include "ebayes.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_psi.h>
#include "../util/banned.h"

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
	return pv_error(err, PV_M_STATS_FAILED, "%s(%g) failed: %s", what, x,
			gsl_strerror(st));
}

/* The pairs a prior is fitted from, as limma takes them: s2 finite and
 * above -1e-15 (then at least 0), d finite and above 1e-15; into x and
 * dd, their count returned. */
static size_t usable_pairs(const double *s2, const double *d, size_t n,
			   double *x, double *dd)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(d[i]) && d[i] > 1e-15 && isfinite(s2[i]) &&
		      s2[i] > -1e-15))
			continue;
		x[k] = s2[i] > 0 ? s2[i] : 0;
		dd[k] = d[i];
		k++;
	}
	return k;
}

/*
 * limma's log-variance terms: x floored at 1e-5 of its median (a median
 * of 0 counts as 1), then e = log(x) - digamma(d/2) + log(d/2), and the
 * mean of trigamma(d/2) into *tri.  e is also the median's scratch.  The
 * df of a family are nearly all the same (2n - 2 for n runs a side), so
 * the last df's digamma, trigamma and log are reused.
 */
static int log_terms(double *x, const double *dd, size_t k, double *e,
		     double *tri, struct pv_err *err)
{
	double med = pvs_median_select(x, k, e), last_h = NAN;
	double psi = 0, psi1 = 0, logh = 0;
	gsl_sf_result r;
	int st;

	if (med == 0)
		med = 1;
	*tri = 0;
	for (size_t i = 0; i < k; i++) {
		double h = dd[i] / 2;

		if (x[i] < 1e-5 * med)
			x[i] = 1e-5 * med;
		if (h != last_h) {
			if ((st = gsl_sf_psi_e(h, &r)) != GSL_SUCCESS)
				return sf_fail(err, "digamma", h, st);
			psi = r.val;
			if ((st = gsl_sf_psi_1_e(h, &r)) != GSL_SUCCESS)
				return sf_fail(err, "trigamma", h, st);
			psi1 = r.val;
			logh = log(h);
			last_h = h;
		}
		e[i] = log(x[i]) - psi + logh;
		*tri += psi1;
	}
	*tri /= (double)k;
	return 0;
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
	double *x, *dd, *tmp, emean = 0, evar = 0, trimean = 0, xmean;
	double m4 = 0, m2 = 0;
	gsl_sf_result r;
	size_t i, k = 0;
	int st;

	ALLOC_ARRAY(x, st_mult(3, n ? n : 1));
	dd = x + n;
	tmp = dd + n;
	k = usable_pairs(s2, d, n, x, dd);
	prior->d0 = 0;
	if (k < 2) {
		prior->s0sq = k == 1 ? x[0] : NAN;
		free(x);
		return 0;
	}

	if ((st = log_terms(x, dd, k, tmp, &trimean, err))) {
		free(x);
		return st;
	}
	for (i = 0; i < k; i++)
		emean += tmp[i];
	emean /= (double)k;
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
			return pv_error(err, PV_M_STATS_FAILED,
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

int pv_fit_prior_median(const double *s2, const double *d, size_t n,
			struct pv_prior *prior, struct pv_err *err)
{
	double *x, *e, *tmp, med, mad, tri = 0, ev;
	gsl_sf_result r;
	size_t k = 0;
	int st;

	ALLOC_ARRAY(x, st_mult(3, n ? n : 1));
	e = x + n;
	tmp = e + n;
	k = usable_pairs(s2, d, n, x, tmp);
	prior->d0 = 0;
	prior->s0sq = NAN;
	if (k < 10) {
		free(x);
		return 0;
	}
	/* as pv_fit_prior: a variance of 0 counts as 1e-5 of the median */
	if ((st = log_terms(x, tmp, k, e, &tri, err))) {
		free(x);
		return st;
	}
	med = pvs_median_select(e, k, x);
	for (size_t i = 0; i < k; i++)
		tmp[i] = fabs(e[i] - med);
	mad = PVS_MAD_SD * pvs_median_select(tmp, k, x);
	free(x);
	ev = mad * mad - tri;
	if (!(ev > 0)) {
		prior->d0 = INFINITY;
		prior->s0sq = exp(med);
		return 0;
	}
	prior->d0 = 2 * pv_trigamma_inverse(ev);
	if (isnan(prior->d0))
		return pv_error(err, PV_M_STATS_FAILED,
				"trigamma inverse of %g failed", ev);
	if ((st = gsl_sf_psi_e(prior->d0 / 2, &r)) != GSL_SUCCESS)
		return sf_fail(err, "digamma", prior->d0 / 2, st);
	prior->s0sq = exp(med + r.val - log(prior->d0 / 2));
	return 0;
}

/* Sum of squared deviations from the mean, and the mean (numpy order). */
static double sum_sq_dev(const double *x, size_t n, double *mean)
{
	*mean = pvs_np_mean(x, n);
	return pvs_np_sumsq(x, n, *mean);
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

	*tmean = pvs_np_mean(x + g, h);
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
		return pv_error(err, PV_M_TOO_FEW_VALUES,
			"moderated test needs at least 2 values per side, "
			"got %zu and %zu", na, nb);
	for (i = 0; i < na + nb; i++) {
		double v = i < na ? a[i] : b[i - na];

		if (!(isfinite(v) && v > 0))
			return pv_error(err, PV_M_NOT_POSITIVE,
				"cannot take the log of %g: moderated tests "
				"need positive values", v);
	}
	la = na + nb <= SMALL_N ? small :
	     pv_reallocarray(NULL, st_add(na, nb), sizeof(*la));
	lb = la + na;
	for (i = 0; i < na; i++)
		la[i] = log(a[i]);
	for (i = 0; i < nb; i++)
		lb[i] = log(b[i]);
	if (trimmed) {
		size_t h1, h2;

		pvs_sort(la, na);
		pvs_sort(lb, nb);
		h1 = yuen_side(la, na, &ma, &ssa);
		h2 = yuen_side(lb, nb, &mb, &ssb);
		mv->d = (double)(h1 - 1) + (double)(h2 - 1);
		mv->u = sqrt(1.0 / (double)h1 + 1.0 / (double)h2);
		mv->s2 = (ssa + ssb) / mv->d;
		mv->diff = mb - ma;
	} else {
		pv_modvar_logs(la, na, lb, nb, mv);
	}
	if (la != small)
		free(la);
	return 0;
}

double pv_posterior_var(const struct pv_prior *prior, double s2, double d,
			double *df)
{
	double d0 = prior->d0;

	if (!(d0 > 0) || isnan(prior->s0sq)) {
		*df = d;
		return s2;
	}
	if (isinf(d0)) {
		*df = INFINITY;
		return prior->s0sq;
	}
	*df = d0 + d;
	return (d0 * prior->s0sq + (d > 0 ? d * s2 : 0)) / (d0 + d);
}

void pv_moderated_t_memo(const struct pv_modvar *mv,
			 const struct pv_prior *prior, double df_cap,
			 enum pv_alt alt, double conf, struct pv_tmemo *m,
			 struct pv_test_out *o)
{
	double df, s2post = pv_posterior_var(prior, mv->s2, mv->d, &df);

	if (df > df_cap)
		df = df_cap;
	pvs_t_finish(-mv->diff, sqrt(s2post) * mv->u, df, alt,
		     conf > 0 && conf < 1 ? conf : NAN, m, o);
}

void pv_moderated_t(const struct pv_modvar *mv, const struct pv_prior *prior,
		    double df_cap, enum pv_alt alt, double conf,
		    struct pv_test_out *o)
{
	pv_moderated_t_memo(mv, prior, df_cap, alt, conf, NULL, o);
}

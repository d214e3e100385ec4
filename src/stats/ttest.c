/*
 * ttest.c - Welch's and Student's t-tests; see ttest.h.
 */
#include "ttest.h"
#include "internal.h"

#include <math.h>
#include "../util/banned.h"

/* The p-value of t for the alternative, as scipy's _ttest_finish:
 * scipy's t is (mean a - mean b)/se, so "b greater" is its 'less'. */
static double t_pvalue(struct pv_tmemo *m, double t, double df,
		       enum pv_alt alt)
{
	switch (alt) {
	case PV_ALT_GREATER:
		return pv_t_sf_memo(m, -t, df);
	case PV_ALT_LESS:
		return pv_t_sf_memo(m, t, df);
	case PV_ALT_TWO:
	default:
		return 2.0 * pv_t_sf_memo(m, fabs(t), df);
	}
}

/*
 * Fill statistic, p, shift and interval of o from the difference of
 * means d = mean a - mean b, its standard error and df.  A zero se means
 * zero variance: equal means are no evidence at all (t = 0, p = 1),
 * different means a certain change.
 */
void pvs_t_finish(double d, double se, double df, enum pv_alt alt,
		  double conf, struct pv_tmemo *m, struct pv_test_out *o)
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
			o->p = t_pvalue(m, o->statistic, df, alt);
		}
		return;
	}
	o->statistic = d / se;
	o->p = t_pvalue(m, o->statistic, df, alt);
	q = pv_t_quantile_memo(m, 0.5 + conf / 2, df);
	o->ci_low = o->shift - q * se;
	o->ci_high = o->shift + q * se;
}

int pvs_check_level(double conf, enum pv_alt alt, struct pv_err *err)
{
	if (!(conf > 0 && conf < 1))
		return pv_error(err, PV_M_BAD_ARGUMENT,
			"confidence level %g is not between 0 and 1", conf);
	if (alt != PV_ALT_TWO && alt != PV_ALT_GREATER && alt != PV_ALT_LESS)
		return pv_error(err, PV_M_BAD_ARGUMENT, "unknown alternative");
	return 0;
}

/*
 * The t-test from both sides' means and variances (n-1), as scipy's
 * _ttest_ind_from_stats with _equal_var_ttest_denom or
 * _unequal_var_ttest_denom, operation for operation.
 */
static int t_from_moments(double m1, double v1, double n1, double m2,
			  double v2, double n2, int equal_var, enum pv_alt alt,
			  double conf, struct pv_tmemo *m, struct pv_test_out *o,
			  struct pv_err *err)
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
	pvs_t_finish(m1 - m2, se, df, alt, conf, m, o);
	if (isnan(o->p))
		return pv_error(err, PV_M_STATS_FAILED,
			"t distribution failed for t = %g, df = %g",
			o->statistic, df);
	return 0;
}

static int t_args_ok(size_t na, size_t nb, enum pv_alt alt, double conf,
		     struct pv_err *err)
{
	if (na < 2 || nb < 2)
		return pv_error(err, PV_M_TOO_FEW_VALUES,
			"t-test needs at least 2 values per side, "
			"got %zu and %zu", na, nb);
	return pvs_check_level(conf, alt, err);
}

int pv_ttest_memo(const double *a, size_t na, const double *b, size_t nb,
		  int equal_var, enum pv_alt alt, double conf,
		  struct pv_tmemo *m, struct pv_test_out *o, struct pv_err *err)
{
	double m1, m2;

	if (na < 2 || nb < 2)
		return t_args_ok(na, nb, alt, conf, err);
	if (!pvs_all_finite(a, na) || !pvs_all_finite(b, nb))
		return pv_error(err, PV_M_NOT_FINITE,
			"t-test got a value that is not a finite number");
	if (t_args_ok(na, nb, alt, conf, err))
		return -1;
	m1 = pvs_np_mean(a, na);
	m2 = pvs_np_mean(b, nb);
	return t_from_moments(m1, pvs_np_var1(a, na, m1), (double)na, m2,
			      pvs_np_var1(b, nb, m2), (double)nb, equal_var,
			      alt, conf, m, o, err);
}

int pv_ttest(const double *a, size_t na, const double *b, size_t nb,
	     int equal_var, enum pv_alt alt, double conf,
	     struct pv_test_out *o, struct pv_err *err)
{
	return pv_ttest_memo(a, na, b, nb, equal_var, alt, conf, NULL, o, err);
}

int pv_ttest_summary_memo(double mean_a, double sd_a, size_t na,
			  double mean_b, double sd_b, size_t nb, int equal_var,
			  enum pv_alt alt, double conf, struct pv_tmemo *m,
			  struct pv_test_out *o, struct pv_err *err)
{
	if (t_args_ok(na, nb, alt, conf, err))
		return -1;
	if (!isfinite(mean_a) || !isfinite(mean_b) || !isfinite(sd_a) ||
	    !isfinite(sd_b) || sd_a < 0 || sd_b < 0)
		return pv_error(err, PV_M_NOT_FINITE,
			"t-test from summaries needs finite means and standard deviations >= 0");
	/* scipy's ttest_ind_from_stats squares the sds as given. */
	return t_from_moments(mean_a, sd_a * sd_a, (double)na, mean_b,
			      sd_b * sd_b, (double)nb, equal_var, alt, conf,
			      m, o, err);
}

int pv_ttest_summary(double mean_a, double sd_a, size_t na, double mean_b,
		     double sd_b, size_t nb, int equal_var, enum pv_alt alt,
		     double conf, struct pv_test_out *o, struct pv_err *err)
{
	return pv_ttest_summary_memo(mean_a, sd_a, na, mean_b, sd_b, nb,
				     equal_var, alt, conf, NULL, o, err);
}

/*
 * tdist.h - Student's t distribution: the upper tail and the quantile,
 * built on GSL's ln B and the normal distribution.
 *
 * Accuracy, checked by test_stats.c against scipy.stats.t values
 * recorded in tests/ref/tdist_ref.txt (df from 1 to 2e6, t from 1e-6 to
 * 1e3, p from 1e-100 to 1 - 1e-6): the tail within 1e-13 relative while
 * p >= 1e-60 and within 4 eps ln(1/p) below (a tail's own conditioning
 * per ulp of t is 2 eps ln(1/p)), down to 1e-300; the quantile within
 * 1e-13 relative.  Tails beyond t^2 = DBL_MAX and quantiles down to
 * p = 1e-300 are checked by their closed forms and round trips.
 *
 * Every function is a pure function of its arguments, and the _memo
 * variants give the same answers bit for bit: the memo only saves the
 * work of a df or a (p, df) seen before.
 */
#ifndef PV_STATS_TDIST_H
#define PV_STATS_TDIST_H

/*
 * P(T > t) for Student's t with df degrees of freedom (df = INFINITY:
 * the normal tail), as scipy.stats.t.sf(t, df).  NAN for a NaN t or
 * df, or df <= 0.
 */
double pv_t_sf(double t, double df);

/* The p quantile of Student's t with df degrees of freedom (INFINITY:
 * normal), as scipy.stats.t.ppf, consistent with pv_t_sf to the last
 * digits.  NAN for p outside (0, 1), a NaN or df <= 0. */
double pv_t_quantile(double p, double df);

/*
 * A memo the caller owns, for a run of calls that share df and levels
 * (a moderated family shares one df; a Welch metric asks for a p-value
 * and three quantiles at its own): ln B(df/2, 1/2) of the last
 * PV_TMEMO_DF df, and the last quantiles solved (a segmented LRU, so a
 * stream of one-off Welch quantiles cannot push out a family's).  Set
 * it up with pv_tmemo_init(); it holds no pointers and needs no
 * release.  One memo per thread.
 */
#define PV_TMEMO_DF 4
#define PV_TMEMO_Q 8
struct pv_tmemo {
	struct { double df, lnb; unsigned uses; } lnb[PV_TMEMO_DF];
	struct { double p, df, x; } prot[PV_TMEMO_Q], prob[PV_TMEMO_Q];
	unsigned nprot, nprob;
};
void pv_tmemo_init(struct pv_tmemo *m);

/* pv_t_sf and pv_t_quantile through the memo m (NULL: none). */
double pv_t_sf_memo(struct pv_tmemo *m, double t, double df);
double pv_t_quantile_memo(struct pv_tmemo *m, double p, double df);

#endif

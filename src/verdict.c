/*
 * verdict.c - tests, family correction and rules, on the model alone;
 * see verdict.h.
 *
 * The model (model.c) holds each metric's rule, samples, moments and
 * change.  decide() runs the test the settings ask for on every metric
 * with enough samples on both sides, corrects the p-values of the gated
 * ones as one family, and applies the rules; `merge` reruns it over the
 * union of shards, `calibrate` over A/A splits.
 *
 * The default rule (test auto), chosen by simulation (docs/statistics.md,
 * "The rules" and "Why these defaults"): the empirical-Bayes
 * moderated t on log values (Smyth 2004), switching the whole family to
 * the moderated Yuen test when gross outliers are common and n >= 8,
 * one-sided in the worse direction, Benjamini-Hochberg over the gated
 * metrics, and an observed change of at least the threshold.  Three
 * refinements: the prior's excess spread is reduced by half its sampling
 * sd before d0 is solved for; the Yuen switch also needs heavy tails
 * (kurtosis > 3); and a family gate lets alarms through only when the
 * family as a whole shows a change (family_gate()).
 */
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "policy.h"
#include "stats.h"
#include "history/changepoint.h"
#include "history/pooled.h"
#include "util/strbuf.h"
#include "util/banned.h"

#define POWER 0.8           /* for the minimum detectable effect */
#define GROSS_MIN_N 8       /* Hogg switch: only with this many runs */
#define GROSS_LIMIT 0.01
#define KURT_LIMIT 3.0      /* ... and only when tails are heavier than normal */
#define PRIOR_SHRINK 0.5    /* sds of sampling noise taken off the prior's spread */

/* A side's number of observations: its samples, or its summary's n. */
static size_t side_n(const struct pv_side_result *s)
{
	return s->summary_only ? s->s.n : s->nsamples;
}

/*
 * The per-metric working state of decide(), one per model metric: only
 * what the verdict needs is kept (what decide_one() reads of the test,
 * not all of pv_test_out), and the moderated test's input shares its
 * place with the q-values, which correct() writes only after every test
 * has run.
 */
struct work {
	unsigned testable : 1;      /* a test runs (enough samples, both sides) */
	unsigned deterministic : 1; /* zero variance on both sides */
	unsigned logok : 1;         /* every sample > 0: the log tests apply
				     * (set by prepare_moderated()) */
	unsigned summary : 1;       /* a side has only a summary: Welch from
				     * (mean, sd, n), outside the prior */
	unsigned test : 4;          /* enum pv_test */
	/* The two-sided p and both one-sided ones.  The rest of the
	 * two-sided test (statistic, df, interval, detectable effect) goes
	 * straight into the result: see keep_two(). */
	double p_two, p_worse, p_better;
	union {
		struct pv_modvar mv;        /* until run_test() */
		struct {
			double worse, better, two;
		} q;                        /* from correct() on */
	} u;
};

/*
 * Keep a two-sided test: its p in w, and its statistic, df, interval
 * and minimum detectable effect in res, the last two as fractions of
 * the baseline mean (from the log scale for the moderated tests), so
 * that struct work need not hold the whole pv_test_out.  The detectable
 * effect is worked out here, from the test's own standard error and df.
 */
static void keep_two(struct pv_result *res, struct work *w,
		     const struct pv_test_out *o, int two_sided,
		     struct pv_tmemo *tm)
{
	int logs = w->test == PV_TEST_MODERATED || w->test == PV_TEST_YUEN;
	double base = fabs(res->side[0].s.mean), mde = NAN;

	w->p_two = o->p;
	res->statistic = o->statistic;
	res->df = o->df;
	if (isfinite(o->se)) {
		double df = isfinite(o->df) && o->df > 0 ? o->df : INFINITY;

		mde = pv_mde_memo(o->se, df, res->alpha, two_sided, POWER, tm);
	}
	if (logs) {
		res->ci_low = expm1(o->ci_low);
		res->ci_high = expm1(o->ci_high);
		res->mde = expm1(mde);
	} else if (base != 0) {
		res->ci_low = o->ci_low / base;
		res->ci_high = o->ci_high / base;
		res->mde = mde / base;
	}
}

static enum pv_alt worse_alt(enum pv_dir d)
{
	return d == PV_DIR_HIGHER ? PV_ALT_LESS : PV_ALT_GREATER;
}

static enum pv_alt better_alt(enum pv_dir d)
{
	return d == PV_DIR_HIGHER ? PV_ALT_GREATER : PV_ALT_LESS;
}

/*
 * Run test w->test on one metric: two-sided, and both one-sided p-values.
 * For the t-tests (moderated included) the one-sided p-values follow
 * from the two-sided one, so one tail evaluation serves all three: the
 * smaller one-sided p is half the two-sided p, in the direction of the
 * statistic, and the other is its complement.  Mann-Whitney's discrete
 * p-values are asked for separately.
 */
static int run_test(struct pv_result *res, struct work *w,
		    const struct pv_prior *prior, double df_cap, double conf,
		    int two_sided, struct pv_tmemo *tm, struct pv_err *err)
{
	const double *a = res->side[0].samples, *b = res->side[1].samples;
	size_t na = res->side[0].nsamples, nb = res->side[1].nsamples;
	struct pv_test_out one, two;

	if (w->summary) {
		const struct pv_moments *sa = &res->side[0].s;
		const struct pv_moments *sb = &res->side[1].s;

		if (pv_ttest_summary_memo(sa->mean, sa->sd, sa->n, sb->mean,
					  sb->sd, sb->n, 0, PV_ALT_TWO, conf,
					  tm, &two, err))
			return -1;
	} else switch (w->test) {
	case PV_TEST_MODERATED:
	case PV_TEST_YUEN:
		pv_moderated_t_memo(&w->u.mv, prior, df_cap, PV_ALT_TWO, conf,
				    tm, &two);
		break;
	case PV_TEST_MANNWHITNEY:
		if (pv_mannwhitney(a, na, b, nb, PV_ALT_TWO, conf, &two, err) ||
		    pv_mannwhitney(a, na, b, nb, worse_alt(res->direction), conf,
				   &one, err))
			return -1;
		w->p_worse = one.p;
		if (pv_mannwhitney(a, na, b, nb, better_alt(res->direction), conf,
				   &one, err))
			return -1;
		w->p_better = one.p;
		keep_two(res, w, &two, two_sided, tm);
		return 0;
	default:
		if (pv_ttest_memo(a, na, b, nb, w->test == PV_TEST_STUDENT,
				  PV_ALT_TWO, conf, tm, &two, err))
			return -1;
	}
	keep_two(res, w, &two, two_sided, tm);
	{
		/* scipy's t is (mean a - mean b)/se: negative when the
		 * candidate is larger. */
		double half = two.p / 2, t = two.statistic;
		double p_up = t < 0 ? half : t > 0 ? 1 - half : 0.5;
		double p_down = t > 0 ? half : t < 0 ? 1 - half : 0.5;
		int up_is_worse = worse_alt(res->direction) == PV_ALT_GREATER;

		w->p_worse = up_is_worse ? p_up : p_down;
		w->p_better = up_is_worse ? p_down : p_up;
	}
	return 0;
}

/* The logs of x[0..n) into l: LOGS_BAD if some x is not > 0 (no log
 * test then), else LOGS_INF if some x is +inf (an error), else 0. */
enum { LOGS_INF = 1, LOGS_BAD = 2 };

static int logs_of(const double *x, size_t n, double *l)
{
	for (size_t j = 0; j < n; j++) {
		if (!(x[j] > 0 && x[j] < INFINITY)) {
			/* rare: a non-positive value anywhere decides */
			for (size_t i = j; i < n; i++)
				if (!(x[i] > 0))
					return LOGS_BAD;
			return LOGS_INF;
		}
		l[j] = log(x[j]);
	}
	return 0;
}

/*
 * The test `auto` and `moderated` use, family-wide; fills w[].u.mv.
 * One pass takes each metric's logs once, into a scratch buffer, for
 * both the untrimmed ingredients and the Hogg-style selector (one
 * decision per comparison); only when the selector picks the Yuen arm
 * are the trimmed ingredients computed, in a second pass.
 */
static int prepare_moderated(struct pv_report *r, struct work *w,
			     enum pv_test asked, struct pv_prior *prior,
			     double *df_cap, struct pv_err *err)
{
	struct pv_selector sel = { 0, 0, 0, 0 };
	size_t nfam = 0, cap = 0;
	double *s2, *d, *l;
	int yuen = 0, rc = 0;
	double dmax = 0;

	for (size_t i = 0; i < r->n; i++) {
		size_t n = r->m[i].side[0].nsamples + r->m[i].side[1].nsamples;

		if (w[i].testable && !w[i].summary && n > cap)
			cap = n;
	}
	ALLOC_ARRAY(l, st_add(st_mult(3, cap), 1));
	for (size_t i = 0; i < r->n && !rc; i++) {
		const struct pv_side_result *a = &r->m[i].side[0];
		const struct pv_side_result *b = &r->m[i].side[1];
		size_t na = a->nsamples, nb = b->nsamples;
		int bad;

		if (!w[i].testable)
			continue;
		/* whether every sample is > 0 is found out with the logs,
		 * which are taken for the rest anyway */
		bad = w[i].summary ? LOGS_BAD : logs_of(a->samples, na, l);
		if (bad != LOGS_BAD)
			bad |= logs_of(b->samples, nb, l + na);
		w[i].logok = !(bad & LOGS_BAD);
		if (!w[i].logok) {
			w[i].test = PV_TEST_WELCH;  /* logs need positive data */
			continue;
		}
		w[i].test = PV_TEST_MODERATED;
		if (bad) {
			/* pv_modvar_log says what is wrong */
			rc = pv_modvar_log(a->samples, na, b->samples, nb, 0,
					   &w[i].u.mv, err);
			break;
		}
		pv_modvar_logs(l, na, l + na, nb, &w[i].u.mv);
		if (asked == PV_TEST_AUTO && na >= GROSS_MIN_N &&
		    nb >= GROSS_MIN_N)
			pv_selector_add(&sel, l, na, l + na, nb, l + na + nb);
	}
	free(l);
	/* Trim only for rare gross errors in heavy tails: two-mode noise
	 * also has many residuals beyond 6 MAD (its MAD is the width of one
	 * mode), but light tails, and there trimming is what breaks. */
	if (!rc && asked == PV_TEST_AUTO &&
	    pv_selector_gross(&sel) > GROSS_LIMIT &&
	    pv_selector_kurtosis(&sel) > KURT_LIMIT)
		yuen = 1;
	for (size_t i = 0; yuen && i < r->n && !rc; i++) {
		const struct pv_result *res = &r->m[i];

		if (w[i].test != PV_TEST_MODERATED ||
		    res->side[0].nsamples < GROSS_MIN_N ||
		    res->side[1].nsamples < GROSS_MIN_N)
			continue;
		w[i].test = PV_TEST_YUEN;
		rc = pv_modvar_log(res->side[0].samples, res->side[0].nsamples,
				   res->side[1].samples, res->side[1].nsamples,
				   1, &w[i].u.mv, err);
	}
	if (rc)
		return rc;

	ALLOC_ARRAY(s2, st_add(r->n, 1));
	ALLOC_ARRAY(d, st_add(r->n, 1));
	for (size_t i = 0; i < r->n; i++) {
		if (!w[i].testable || !w[i].logok || !r->m[i].gated)
			continue;
		s2[nfam] = w[i].u.mv.s2;
		d[nfam++] = w[i].u.mv.d;
		if (w[i].u.mv.d > dmax)
			dmax = w[i].u.mv.d;
	}
	rc = pv_fit_prior_shrunk(s2, d, nfam, asked == PV_TEST_AUTO ?
				 PRIOR_SHRINK : 0, prior, err);
	/* The pooled-df cap: no more information than the family holds. */
	*df_cap = nfam ? (double)nfam * dmax : INFINITY;
	free(s2);
	free(d);
	return rc;
}

static void adjust(enum pv_correction c, double *p, size_t n)
{
	if (c == PV_CORR_HOLM)
		pv_adjust_holm(p, n, p);
	else if (c == PV_CORR_BH)
		pv_adjust_bh(p, n, p);
}

/* The p-value of one alternative: 0 worse, 1 better, 2 two-sided. */
static double *p_of(struct work *w, int alt)
{
	return alt == 0 ? &w->p_worse : alt == 1 ? &w->p_better : &w->p_two;
}

static double *q_of(struct work *w, int alt)
{
	return alt == 0 ? &w->u.q.worse : alt == 1 ? &w->u.q.better :
	       &w->u.q.two;
}

/* q-values over the gated, testable metrics, for each alternative in
 * turn through one buffer. */
static void correct(struct pv_report *r, struct work *w,
		    enum pv_correction c)
{
	double *p = pv_reallocarray(NULL, st_add(r->n, 1), sizeof(*p));
	size_t *idx = pv_reallocarray(NULL, st_add(r->n, 1), sizeof(*idx));
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++)
		if (w[i].testable && r->m[i].gated)
			idx[k++] = i;
	for (int alt = 0; alt < 3; alt++) {
		for (size_t j = 0; j < k; j++)
			p[j] = *p_of(&w[idx[j]], alt);
		adjust(c, p, k);
		for (size_t j = 0; j < k; j++)
			*q_of(&w[idx[j]], alt) = p[j];
	}
	/* Ungated metrics are not part of the family: q = p. */
	for (size_t i = 0; i < r->n; i++) {
		if (w[i].testable && !r->m[i].gated) {
			w[i].u.q.worse = w[i].p_worse;
			w[i].u.q.better = w[i].p_better;
			w[i].u.q.two = w[i].p_two;
		}
	}
	free(p);
	free(idx);
}

/* Both sides' means are finite numbers.  The model's always are (an
 * avg_update side whose denominator's mean is 0 keeps the column's own
 * mean); a report read back may hold null. */
static int mean_defined(const struct pv_result *res)
{
	return isfinite(res->side[0].s.mean) && isfinite(res->side[1].s.mean);
}

/* The observed change reaches the metric's threshold and abs_threshold
 * (policy.h). */
static int beyond_floor(const struct pv_result *res)
{
	return pv_policy_beyond(res->threshold, res->abs_threshold,
				res->side[0].s.mean, res->change_abs,
				res->change_rel);
}

/*
 * The family gate of the default rule (test auto, BH, one-sided).  For
 * each direction, alarms are allowed only when the family as a whole
 * shows a change at level a_g = PV_GATE_FRAC * alpha, by either of
 *   - Simes: some metric has q < a_g (BH) and moves beyond the floor;
 *   - a count test: N = #{p < alpha} is improbable if every metric is
 *     null, P(Binomial(k, alpha) >= N) < a_g, over the k family members.
 * Under the complete null this keeps P(any alarm) at or below
 * min(alpha, 2 a_g), whatever the misfit of the prior, and the
 * rejections are otherwise exactly BH's.  Simes catches one large
 * regression, the count test many moderate ones.
 */
static void family_gate(struct pv_report *r, const struct work *w,
			int *open_worse, int *open_better)
{
	const struct pv_gate *g = &r->settings.gate;
	double ag = PV_GATE_FRAC * g->alpha, tau = g->alpha;
	size_t k = 0, nw = 0, nb = 0;
	int simes_w = 0, simes_b = 0, open_w = 1, open_b = 1;

	if (g->test == PV_TEST_AUTO && g->correction == PV_CORR_BH &&
	    g->sided == PV_SIDED_WORSE) {
		for (size_t i = 0; i < r->n; i++) {
			const struct pv_result *res = &r->m[i];
			int move = pv_policy_move(res->direction, res->change_abs);
			int wm = move > 0, bm = move < 0;

			if (!w[i].testable || !res->gated)
				continue;
			k++;
			nw += w[i].p_worse < tau;
			nb += w[i].p_better < tau;
			if (beyond_floor(res)) {
				simes_w |= wm && w[i].u.q.worse < ag;
				simes_b |= bm && w[i].u.q.better < ag;
			}
		}
		open_w = simes_w || (nw > 0 &&
			gsl_cdf_binomial_Q((unsigned)nw - 1, tau, (unsigned)k) < ag);
		open_b = simes_b || (nb > 0 &&
			gsl_cdf_binomial_Q((unsigned)nb - 1, tau, (unsigned)k) < ag);
	}
	*open_worse = open_w;
	*open_better = open_b;
}

/*
 * The verdicts that need no test: a side absent, a reader's note, too
 * few observations, or a mean that is not a number.  1 when one of them
 * applies.  With a pooled baseline (compare --baseline-history) the unit
 * of the test is the point, not the run: one candidate run is a value to
 * predict, and the baseline's points are counted by the pooled test
 * (pooled_tests(): fewer than 2 comparable points, not tested), so
 * min_samples does not apply.
 */
static int policy_verdict(const struct pv_gate *g, struct pv_result *res,
			  int pooled)
{
	size_t min = pooled ? 1 : g->min_samples;

	enum pv_why why;

	if (!res->side[0].present) {
		res->verdict = PV_V_NEW;
		res->why = PV_WHY_NEW;
		return 1;
	}
	if (!res->side[1].present) {
		res->verdict = PV_V_MISSING;
		res->why = PV_WHY_MISSING;
		return 1;
	}
	if (res->side[0].note || res->side[1].note)
		why = PV_WHY_NOTE;
	else if (side_n(&res->side[0]) < min || side_n(&res->side[1]) < min)
		why = PV_WHY_FEW;
	else if (!mean_defined(res))
		why = PV_WHY_UNDEFINED;
	else
		return 0;
	res->verdict = why == PV_WHY_UNDEFINED ? PV_V_INCONCLUSIVE :
		       PV_V_INSUFFICIENT;
	res->why = why;
	return 1;
}

/* A regression, unless a waiver holds (policy.h: an expired one is a
 * warning). */
static void regression(const struct pv_config *cfg, const char *today,
		       struct pv_result *res, struct pv_diag *diag)
{
	res->waiver = pv_policy_waiver(cfg, today, res->group, res->benchmark,
				       res->metric, diag);
	res->verdict = res->waiver ? PV_V_WAIVED : PV_V_REGRESSION;
	res->why = PV_WHY_WORSE;
}

static void decide_one(struct pv_report *r, const struct pv_config *cfg,
		       const char *today, struct pv_result *res,
		       const struct work *w, int open_worse, int open_better,
		       struct pv_diag *diag)
{
	const struct pv_gate *g = &r->settings.gate;
	double rel = res->change_rel, thr = res->threshold;
	int worse_move, better_move, beyond, sig_worse, sig_better;

	res->tested = w->testable;
	res->sided = g->sided;
	res->waiver = NULL;
	res->held = 0;
	res->p = res->q = NAN;
	if (policy_verdict(g, res, r->side[PV_BASE].is_archive))
		return;

	/* By the absolute change: the relative one is not defined from a
	 * zero baseline mean, and has the same sign otherwise. */
	worse_move = pv_policy_move(res->direction, res->change_abs) > 0;
	better_move = pv_policy_move(res->direction, res->change_abs) < 0;
	beyond = beyond_floor(res);

	if (g->sided == PV_SIDED_TWO || !res->gated) {
		sig_worse = sig_better = w->u.q.two < res->alpha;
		sig_worse &= worse_move;
		sig_better &= better_move;
	} else {
		sig_worse = w->u.q.worse < res->alpha;
		sig_better = w->u.q.better < res->alpha;
		res->held = beyond && ((sig_worse && !open_worse && worse_move) ||
				       (sig_better && !open_better &&
					better_move));
		sig_worse &= open_worse;
		sig_better &= open_better;
	}
	/* The p reported is that of the test whose verdict it supports. */
	res->test_used = w->test;
	if (g->sided == PV_SIDED_TWO || !res->gated) {
		res->p = w->p_two, res->q = w->u.q.two;
		res->sided = PV_SIDED_TWO;
	} else if ((sig_better && !sig_worse) || (!sig_worse && better_move)) {
		res->p = w->p_better, res->q = w->u.q.better;
	} else {
		res->p = w->p_worse, res->q = w->u.q.worse;
	}

	if (w->deterministic) {
		res->ci_low = res->ci_high = rel;
		res->mde = 0;
	}

	if (!res->gated) {
		res->verdict = PV_V_UNGATED;
		res->why = PV_WHY_UNGATED;
		return;
	}
	if (sig_worse && worse_move && beyond) {
		regression(cfg, today, res, diag);
		return;
	}
	if (sig_better && better_move && beyond) {
		res->verdict = PV_V_IMPROVEMENT;
		res->why = PV_WHY_BETTER;
		return;
	}
	if (g->max_cv > 0 && (pv_cv(&res->side[0].s) > g->max_cv ||
			      pv_cv(&res->side[1].s) > g->max_cv)) {
		res->verdict = PV_V_NOISY;
		res->why = PV_WHY_NOISY;
		return;
	}
	/* Unchanged only when shown: equal means with no spread at all, or
	 * the interval inside +-threshold. */
	if (w->deterministic && res->change_abs == 0) {
		res->verdict = PV_V_UNCHANGED;
		res->why = PV_WHY_IDENTICAL;
	} else if (thr > 0 && res->ci_low >= -thr && res->ci_high <= thr) {
		res->verdict = PV_V_UNCHANGED;
		res->why = sig_worse || sig_better ? PV_WHY_WITHIN :
			   PV_WHY_EQUIVALENT;
	} else {
		res->verdict = PV_V_INCONCLUSIVE;
		res->why = sig_worse || sig_better ? PV_WHY_SMALL :
			   PV_WHY_INCONCLUSIVE;
	}
}

static int is_noisy(const struct pv_result *m)
{
	return m->verdict == PV_V_NOISY;
}

/*
 * With an end excursion, the baseline's mean is that of the level the
 * candidate is judged against (its points' means: main's newest, or those
 * before them), and the change is from it, as model.c takes a change from
 * the means.
 */
static void base_level(struct pv_result *res, const struct pv_pooled *p,
		       int newest)
{
	struct pv_side_result *b = &res->side[0];
	size_t from = newest ? p->K - p->end : 0;
	size_t to = newest ? p->K : p->K - p->end;
	double m = 0;

	if (b->nsamples != p->K || b->summary_only)
		return;
	for (size_t j = from; j < to; j++)
		m += b->samples[j];
	b->s.mean = m / (double)(to - from);
	res->change_abs = res->side[1].s.mean - b->s.mean;
	res->change_rel = res->change_abs == 0 ? 0 :
			  pv_rel_change(b->s.mean, res->side[1].s.mean);
}

/*
 * The pooled test's statistic, interval and (with an end excursion) its
 * change, from the level the candidate is judged against: the long-run
 * one, or main's newest when that is the worse of the two in the metric's
 * direction (history/pooled.h).
 */
static void end_change(struct pv_result *res, const struct pv_pooled *p,
		       int up_worse, int logs)
{
	int newest = p->end && (up_worse ? p->end_level > p->level :
				p->end_level < p->level);
	double ref = newest ? p->end_level : p->level;
	double lo = newest ? p->end_lo : p->lo, hi = newest ? p->end_hi : p->hi;

	res->statistic = -(newest ? p->end_t : p->t);
	res->ci_low = logs ? expm1(lo) : ref != 0 ? lo / fabs(ref) : NAN;
	res->ci_high = logs ? expm1(hi) : ref != 0 ? hi / fabs(ref) : NAN;
	res->end_points = p->end;
	res->end_from_newest = newest;
	res->end_move = NAN;
	if (!p->end)
		return;
	res->end_move = logs ? expm1(p->end_level - p->level) :
			p->level != 0 ? (p->end_level - p->level) /
					fabs(p->level) : NAN;
	base_level(res, p, newest);
}

/*
 * A baseline pooled from an archive's points (res->points): the
 * candidate's runs are valued as the points were, and each metric with a
 * candidate value is tested against its points by the prediction t,
 * moderated over all of them as one family (history/pooled.h).  The
 * statistic follows scipy's sign (baseline - candidate), the interval is
 * relative.  Metrics with fewer than two comparable points are not
 * tested, and one warning counts them.
 */
static int pooled_tests(struct pv_report *r, struct work *w,
			struct pv_diag *diag, struct pv_err *err)
{
	struct pv_pooled *x;
	size_t *at, n = 0, lost = 0, nruns = 0, used = 0;
	double *runs, spike_lo = INFINITY, spike_hi = 0;
	struct pv_names spikes = PV_NAMES_INIT(3);
	int rc;

	ALLOC_ARRAY(x, st_add(r->n, 1));
	ALLOC_ARRAY(at, st_add(r->n, 1));
	for (size_t i = 0; i < r->n; i++)
		if (r->m[i].points)
			nruns = st_add(nruns, r->m[i].side[1].nsamples);
	ALLOC_ARRAY(runs, st_add(nruns, 1));
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *res = &r->m[i];
		const struct pv_points *pt = res->points;
		const struct pv_side_result *c = &res->side[1];
		double cand;

		if (!pt || !res->side[1].nsamples)
			continue;
		cand = pv_cp_point_value(res->side[1].samples,
					 res->side[1].nsamples, pt->logscale,
					 pt->tau);
		if (isnan(cand))
			continue;
		memset(&x[n], 0, sizeof(x[n]));
		x[n].y = pt->y;
		x[n].K = pt->K;
		x[n].cand = cand;
		x[n].spike_sd = pt->sd;
		x[n].runs = pt->runs;
		x[n].roff = pt->roff;
		/* a shared point effect where history found one in the
		 * archive, on the log scale */
		x[n].point = pt->logscale && pt->shared ? pt->point : NULL;
		/* the candidate's runs on the points' scale (all > 0 when
		 * it is logs: the point value was not NAN) */
		x[n].cruns = runs + used;
		x[n].ncruns = c->nsamples;
		for (size_t k = 0; k < c->nsamples; k++)
			runs[used++] = pt->logscale ? log(c->samples[k]) :
						      c->samples[k];
		at[n++] = i;
	}
	rc = pv_pooled_family(x, n, r->settings.gate.alpha, err);
	for (size_t j = 0, i = 0; !rc && i < r->n; i++) {
		struct pv_result *res = &r->m[i];
		const struct pv_pooled *p = j < n && at[j] == i ? &x[j++] : NULL;
		int up_worse = pv_policy_move(res->direction, 1) > 0;
		int logs = res->points && res->points->logscale;

		if (!p || !p->testable) {
			if (res->points && res->side[1].present)
				lost++;
			w[i].testable = 0;
			continue;
		}
		if (!w[i].testable)
			continue;
		if (p->spike && (up_worse ? p->delta > 0 : p->delta < 0)) {
			pv_names_add(&spikes, res->group, res->benchmark,
				     res->metric);
			if (p->spike_p < spike_lo)
				spike_lo = p->spike_p;
			if (p->spike_p > spike_hi)
				spike_hi = p->spike_p;
		}
		res->spike = p->spike;
		res->spike_p = p->spike_p;
		res->df = p->df;
		end_change(res, p, up_worse, logs);
		w[i].p_two = p->p_two;
		w[i].p_worse = up_worse ? p->p_up : p->p_down;
		w[i].p_better = up_worse ? p->p_down : p->p_up;
	}
	if (!rc && spikes.n) {
		size_t k = spikes.n;
		const char *names = pv_names_end(&spikes);

		if (spike_lo == spike_hi)
			pv_diag_add(diag, PV_M_SPIKE_CANDIDATE, "%zu metric%s (%s) moved the worse way as far as the baseline's spikes, %.2g%% of its pooled points: p was at least that rate, the chance that a point is such a spike (history confirms a level that stays)",
				    k, k == 1 ? "" : "s", names, 100 * spike_lo);
		else
			pv_diag_add(diag, PV_M_SPIKE_CANDIDATE, "%zu metrics (%s) moved the worse way as far as the baseline's spikes, %.2g-%.2g%% of its pooled points: p was at least that rate, the chance that a point is such a spike (history confirms a level that stays)",
				    k, names, 100 * spike_lo, 100 * spike_hi);
	}
	strbuf_release(&spikes.sb);
	if (!rc && lost)
		pv_diag_add(diag, PV_M_FEW_BASELINE_POINTS, "%zu metric%s had fewer than 2 comparable baseline points: not tested",
			    lost, lost == 1 ? "" : "s");
	free(x);
	free(at);
	free(runs);
	return rc;
}

static int decide(struct pv_report *r, const struct pv_config *cfg,
		  const char *today, struct pv_diag *diag, struct pv_err *err)
{
	const struct pv_gate *g = &r->settings.gate;
	struct work *w = pv_calloc(st_add(r->n, 1), sizeof(*w));
	struct pv_prior prior = { 0, 0 };
	struct pv_tmemo tm;
	double df_cap = INFINITY;
	int need_mod = g->test == PV_TEST_AUTO || g->test == PV_TEST_MODERATED;
	int pooled = r->side[PV_BASE].is_archive;
	int rc = 0;

	for (size_t i = 0; i < r->n; i++) {
		struct pv_result *res = &r->m[i];
		const struct pv_side_result *a = &res->side[0], *b = &res->side[1];
		size_t min = pooled ? 1 :
			     g->min_samples > 2 ? g->min_samples : 2;

		/* What a test fills in (keep_two()); undefined without one. */
		res->statistic = res->df = NAN;
		res->ci_low = res->ci_high = res->mde = NAN;
		w[i].testable = a->present && b->present && !a->note &&
				!b->note && side_n(a) >= min &&
				side_n(b) >= min && mean_defined(res);
		w[i].deterministic = w[i].testable && a->s.sd == 0 &&
				     b->s.sd == 0;
		w[i].summary = a->summary_only || b->summary_only;
		w[i].test = g->test == PV_TEST_AUTO ? PV_TEST_MODERATED : g->test;
		if (w[i].summary)
			w[i].test = PV_TEST_WELCH;
		if (pooled) {
			w[i].deterministic = 0;
			w[i].summary = 0;
			w[i].test = PV_TEST_HISTORY;
		}
	}
	pv_tmemo_init(&tm);
	if (pooled)
		rc = pooled_tests(r, w, diag, err);
	else if (need_mod)
		rc = prepare_moderated(r, w, g->test, &prior, &df_cap, err);

	for (size_t i = 0; !rc && i < r->n; i++) {
		struct pv_result *res = &r->m[i];
		double conf = 1 - res->alpha;

		if (!w[i].testable || pooled)
			continue;
		if (w[i].deterministic) {
			/* No spread at all: equal means are unchanged (p=1),
			 * different ones a certain change (p=0).  The t of a
			 * change would be infinite: it is left undefined,
			 * as the JSON (null) and its read-back state it. */
			double diff = res->change_abs;
			int move = pv_policy_move(res->direction, diff);

			w[i].p_two = diff != 0 ? 0 : 1;
			w[i].p_worse = move > 0 ? 0 : 1;
			w[i].p_better = move < 0 ? 0 : 1;
			res->statistic = diff == 0 ? 0 : NAN;
			continue;
		}
		rc = run_test(res, &w[i], &prior, df_cap, conf,
			      g->sided == PV_SIDED_TWO || !res->gated, &tm, err);
	}
	if (!rc) {
		int open_worse, open_better;

		correct(r, w, g->correction);
		family_gate(r, w, &open_worse, &open_better);
		for (size_t i = 0; i < r->n; i++)
			decide_one(r, cfg, today, &r->m[i], &w[i], open_worse,
				   open_better, diag);
		pv_report_tally(r);
		if (r->count[PV_V_NOISY]) {
			struct strbuf names = STRBUF_INIT;

			pv_report_some_names(r, is_noisy, 3, &names);
			pv_diag_add(diag, PV_M_TOO_NOISY, "%zu metric%s too noisy to judge (%s; CV above max_cv = %g%%): run more repeats or raise max_cv",
				    r->count[PV_V_NOISY],
				    r->count[PV_V_NOISY] == 1 ? " is" : "s are",
				    names.buf, g->max_cv * 100);
			strbuf_release(&names);
		}
	}
	free(w);
	return rc;
}

int pv_redecide(struct pv_report *r, const struct pv_config *cfg,
		const char *today, struct pv_diag *diag, struct pv_err *err)
{
	return decide(r, cfg, today, diag, err);
}

int pv_decide(struct pv_table *t, const struct pv_config *cfg,
	      const char *today, struct pv_report *r, struct pv_diag *diag,
	      struct pv_err *err)
{
	pv_model_from_table(t, cfg, r, diag);
	pv_table_drop_metrics(t);
	return decide(r, cfg, today, diag, err);
}

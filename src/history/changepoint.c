/*
 * changepoint.c - the driver of steps 1-4 of changepoint.h on a family
 * (pvs_cp_detect()): step 1 and the family's scale, rounds of search and
 * scale, the candidates of step 2b, and the change points as reported.
 * pointeffect.c runs it around step 0 and is the family's entry point.
 */
#include "changepoint_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "../stats.h"
#include "../stats/ttest.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* Step 1: the gross points' going may not make a series more than this
 * many times quieter than its family's moderated sd says it is. */
#define PV_CP_FLOOR_K 2.0
/* Step 0: a point gross in the series' own values whose excursion the
 * shared effect took at least this fraction of stays a noisy neighbour. */
#define PV_CP_EXPLAINED 0.7
/* Step 0: a change point found in the values less the shared effect must
 * show in the series' own values, the same way, at this p. */
#define PV_CP_OWN_P 0.01
/* Step 2b: a point is a candidate when at least this many gated series
 * stepped there (one large step of one series is no commit to look at). */
#define PV_CP_CAND_SUPPORT 2
/* Search and scale alternate this many times (the scale of the second
 * round is the residuals' about the first round's levels). */
#define ROUNDS 3

/* The values a series' tests see. */
static const double *values(const struct pv_cp_series *x)
{
	return x->adjusted ? x->adjusted : x->y;
}

/*
 * Step 1 in the values less the shared effect (step 0): a point gross in
 * the series' own values stays a noisy neighbour where the effect took
 * most of its excursion (PV_CP_EXPLAINED).  The effect's estimate at a
 * wild point is rough, the median of the other series' excursions
 * (which can range from 20% to 45% at one slow runner), and what it
 * leaves is the size of a step in a series of 1% noise.  A point the effect did
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
		own = x->y[j] - pvs_cp_local_median(x->y, x->L, j);
		took = x->y[j] - v[j];
		if (took * own > 0 && fabs(took) >= PV_CP_EXPLAINED * fabs(own)) {
			k += out[j] == v[j];
			out[j] = pvs_cp_local_median(v, x->L, j);
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
 * other series.  A real step the
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
		o->t = pvs_cp_split_t(c, a, k, b);
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
			double tj = pvs_cp_split_t(c, a, j, b);

			if (isinf(t2) ? tj * tj == t2 : t2 - tj * tj <= chi) {
				if (j < o->index_low)
					o->index_low = j;
				if (j > o->index_high)
					o->index_high = j;
			}
		}
	}
}


/*
 * A series with one variance for all its points is tested by statistics
 * that scale as 1 / sd: its best split's t, its best bump's and its
 * line's, each at sd 1.  When none of them, at a round's sd and df, is
 * significant, pvs_cp_fit_steps() would find no step, no bump and no slope (the
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
	pvs_cp_psum_build(c, x->clipped, one, x->L, 0, 0);
	free(one);
	k = pvs_cp_best_split(c, 0, x->L, &q->split);
	if (!k)
		q->split = 0;
	k = pvs_cp_best_bump(c, 0, x->L, &j, &q->bump);
	if (!k)
		q->bump = 0;
	pvs_cp_seg_slope(x->clipped, x->L, &(struct cpset){ NULL, 0, 0 }, cap_of(x),
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

size_t pvs_cp_point(const struct pv_cp_series *x, size_t j)
{
	return x->point ? x->point[j] : j;
}

/* A series' limits for a round (struct limits). */
static void series_limits(const struct pv_cp_series *x, double alpha,
			  double ntests, double nbumps, double ntrend,
			  double gross, double gross_in, double rate,
			  struct limits *lim)
{
	double a = x->alpha > 0 ? x->alpha : alpha;

	/* a split at alpha over every split position of the family; a
	 * bump (two splits at once) over all its bumps, a test apart; a
	 * slope at the trend test's level, alpha over the family's series */
	*lim = (struct limits){ x->df, ntests > 0 ? a / ntests : 0,
				nbumps > 0 ? a / nbumps : 0,
				ntrend > 0 ? a / ntrend : 0, values(x), gross,
				gross_in, x->L, rate, cap_of(x) };
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
	x->nclipped = pvs_cp_clip_series(values(x), x->L, floor, x->clipped, o,
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
 * What pvs_cp_detect() keeps of a family between its steps: the counts
 * its Bonferroni levels are taken over, and each series' state, indexed
 * as the series are.
 */
struct family {
	struct pv_cp_series *s;
	size_t n;
	double alpha;
	double **fit;           /* each series' fitted values, or NULL */
	/* over the gated series: split positions, bumps, series with a
	 * trend test, series long enough for a split */
	double ntests, nbumps, ntrend, ngated;
	size_t maxL;            /* the longest series */
	size_t npoints;         /* 1 + the largest point index */
	struct psum *csum;      /* the prefix sums of the fit in hand */
	double **var;           /* each point's variance (local_var()) */
	struct quiet *quiet;
	double *s2, *d;         /* the scale's variance and its df */
	double *beta;           /* the slope fitted, 0 for none */
	double *drift;          /* the t^2 of the slope within the steps */
	struct clip *cl;        /* what step 1 found */
	double *rate;           /* the rate of gross points */
	unsigned char **gflag;  /* the gross points */
	struct cpset *sets;     /* the change points */
	struct cpset *added;    /* ... of them that step 2b added */
	int *replaced;          /* the line's start replaced the steps */
	int drifting;           /* the family drifts (family_drifts()) */
	unsigned char *cand;    /* npoints: how many series stepped there */
	size_t *js;             /* 3 maxL: candidates and their scratch */
	struct cpset keep;      /* step 2b's scratch */
	double *rss;            /* 3 (maxL + 1): local_var()'s and
				 * staircase_wins()'s scratch */
};

/* The candidates' levels of a round (step 2b). */
struct round_cands {
	double ncand;           /* candidate points x gated series */
	double nbcand;          /* pairs of candidate points x series */
	int singles, bumps;     /* tested: looser than step 2's level */
};

/* The family's counts and every array of f, for the n series s. */
static void family_open(struct family *f, struct pv_cp_series *s, size_t n,
			double alpha, double **fit)
{
	size_t m = n ? n : 1;

	memset(f, 0, sizeof(*f));
	f->s = s;
	f->n = n;
	f->alpha = alpha;
	f->fit = fit;
	f->npoints = 1;
	f->drifting = 1;
	f->csum = pv_calloc(m, sizeof(*f->csum));
	f->var = pv_calloc(m, sizeof(*f->var));
	f->quiet = pv_calloc(m, sizeof(*f->quiet));
	f->s2 = pv_calloc(m, sizeof(*f->s2));
	f->d = pv_calloc(m, sizeof(*f->d));
	f->beta = pv_calloc(m, sizeof(*f->beta));
	f->drift = pv_calloc(m, sizeof(*f->drift));
	f->cl = pv_calloc(m, sizeof(*f->cl));
	f->rate = pv_calloc(m, sizeof(*f->rate));
	f->gflag = pv_calloc(m, sizeof(*f->gflag));
	f->sets = pv_calloc(m, sizeof(*f->sets));
	f->added = pv_calloc(m, sizeof(*f->added));
	f->replaced = pv_calloc(m, sizeof(*f->replaced));
	for (size_t i = 0; i < n; i++) {
		if (s[i].L > f->maxL)
			f->maxL = s[i].L;
		if (s[i].L && pvs_cp_point(&s[i], s[i].L - 1) >= f->npoints)
			f->npoints = pvs_cp_point(&s[i], s[i].L - 1) + 1;
		if (s[i].ungated)
			continue;
		f->ngated += s[i].L >= 2 * PV_CP_MIN_SEG;
		f->ntests += (double)pv_cp_positions(s[i].L);
		f->nbumps += pvs_cp_bump_positions(s[i].L);
		f->ntrend += s[i].L >= 3;
	}
	ALLOC_ARRAY(f->rss, st_mult(3, st_add(f->maxL, 1)));
	f->cand = pv_calloc(f->npoints, 1);
	/* the candidates of a series, then two scratch arrays of as many */
	ALLOC_ARRAY(f->js, st_mult(3, f->maxL ? f->maxL : 1));
}

static void family_close(struct family *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->csum[i].s);
		free(f->csum[i].v);
		free(f->csum[i].sx);
		free(f->var[i]);
		free(f->gflag[i]);
		free(f->sets[i].k);
		free(f->added[i].k);
	}
	free(f->sets);
	free(f->added);
	free(f->replaced);
	free(f->cand);
	free(f->js);
	free(f->keep.k);
	free(f->gflag);
	free(f->csum);
	free(f->var);
	free(f->quiet);
	free(f->s2);
	free(f->d);
	free(f->beta);
	free(f->drift);
	free(f->cl);
	free(f->rate);
	free(f->rss);
}

/* Step 1 of series i, its arrays, and its scale's variance and df for
 * the moderation (each robust sd is taken as worth about a third of its
 * differences). */
static void first_series(struct family *f, size_t i)
{
	struct pv_cp_series *x = &f->s[i];

	ALLOC_ARRAY(x->clipped, x->L ? x->L : 1);
	f->gflag[i] = pv_calloc(x->L ? x->L : 1, 1);
	first_clip(x, f->fit != NULL, 0, &f->cl[i], f->gflag[i]);
	ALLOC_ARRAY(f->csum[i].s, st_add(x->L, 1));
	ALLOC_ARRAY(f->csum[i].v, st_add(x->L, 1));
	ALLOC_ARRAY(f->csum[i].sx, st_add(x->L, 1));
	ALLOC_ARRAY(f->var[i], x->L ? x->L : 1);
	x->sd = x->robust_sd;
	x->df = INFINITY;
	x->cp = NULL;
	x->ncp = 0;
	f->s2[i] = x->robust_sd * x->robust_sd;
	f->d[i] = x->L >= 3 ? (double)(x->L - 1) / 3 : 0;
}

/*
 * Step 1 on the family: each series clipped, its robust sd moderated
 * across the family, and clipped again where the gross points' going
 * made it PV_CP_FLOOR_K times quieter than its family says it is
 * (changepoint.h, step 1).  Then each point's variance, the family's
 * rates of gross points, and what a quiet series needs (quiet_stats()).
 */
static int first_scale(struct family *f, struct pv_err *err)
{
	size_t n = f->n;
	double *sd0 = pv_calloc(n ? n : 1, sizeof(*sd0));
	double *df0 = pv_calloc(n ? n : 1, sizeof(*df0));
	int rc;

	for (size_t i = 0; i < n; i++)
		first_series(f, i);
	for (size_t i = 0; i < n; i++) {
		sd0[i] = sqrt(f->s2[i]);
		df0[i] = INFINITY;
	}
	rc = pvs_cp_moderate(f->s, n, f->s2, f->d, sd0, df0, err);
	for (size_t i = 0; i < n && !rc; i++) {
		struct pv_cp_series *x = &f->s[i];
		/* the moderated sd on the robust sd's scale */
		double fl = sd0[i];

		if (fl > f->cl[i].first)
			fl = f->cl[i].first;
		if (x->nclipped && fl > PV_CP_FLOOR_K * x->robust_sd) {
			memset(f->gflag[i], 0, x->L);
			first_clip(x, f->fit != NULL, fl, &f->cl[i],
				   f->gflag[i]);
		}
		x->sd = sd0[i];
		pvs_cp_local_var(x->clipped, x->L, sd0[i], f->var[i], f->rss);
	}
	free(sd0);
	free(df0);
	if (rc)
		return rc;
	pvs_cp_outlier_rates(f->s, n, f->cl, f->rate);
	for (size_t i = 0; i < n; i++)
		quiet_stats(&f->s[i], &f->csum[i], &f->quiet[i]);
	return 0;
}

/* series_limits() of series i. */
static void limits_of(const struct family *f, size_t i, struct limits *lim)
{
	series_limits(&f->s[i], f->alpha, f->ntests, f->nbumps, f->ntrend,
		      f->cl[i].gross, f->cl[i].gross_in, f->rate[i], lim);
}

/* Step 2 on every series: levels and a slope (fit_steps()), or, for a
 * series quiet at its round's scale, what that would find. */
static void fit_round(struct family *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct pv_cp_series *x = &f->s[i];
		struct limits lim;

		f->sets[i].n = 0;
		f->replaced[i] = 0;
		if (x->L < 3 || !(x->sd >= 0))
			continue;
		limits_of(f, i, &lim);
		if (quiet_at(&f->quiet[i], x->sd, x->df, lim.split_p,
			     lim.bump_p, lim.line_p)) {
			/* what fit_steps() finds, without the search */
			f->beta[i] = 0;
			pvs_cp_psum_build(&f->csum[i], x->clipped, f->var[i],
					  x->L, 0, 0);
			f->drift[i] = f->quiet[i].line / x->sd *
				      (f->quiet[i].line / x->sd);
		} else {
			f->beta[i] = pvs_cp_fit_steps(x->clipped, f->var[i],
						      x->L, &f->csum[i], &lim,
						      &f->sets[i],
						      &f->replaced[i],
						      f->drifting,
						      &f->drift[i]);
		}
	}
}

/* Step 2b's candidates: the points where PV_CP_CAND_SUPPORT gated series
 * stepped (f->cand), and the levels they are tested at. */
static struct round_cands count_candidates(struct family *f)
{
	struct round_cands rc;
	size_t ncandpts = 0;

	memset(f->cand, 0, f->npoints);
	for (size_t i = 0; i < f->n; i++) {
		if (f->s[i].ungated)
			continue;
		for (size_t j = 0; j < f->sets[i].n; j++) {
			size_t pt = pvs_cp_point(&f->s[i], f->sets[i].k[j]);

			if (f->cand[pt] < UCHAR_MAX)
				f->cand[pt]++;
			ncandpts += f->cand[pt] == PV_CP_CAND_SUPPORT;
		}
	}
	rc.ncand = (double)ncandpts * f->ngated;
	rc.nbcand = (double)ncandpts * (double)(ncandpts - 1) / 2 * f->ngated;
	/* only where the candidates' level is looser than step 2's,
	 * which searched every split and bump at its own */
	rc.singles = ncandpts && rc.ncand < f->ntests;
	rc.bumps = ncandpts > 1 && rc.nbcand < f->nbumps;
	return rc;
}

/* Step 2b in series i at its level a: its candidates, tested. */
static void series_candidates(struct family *f, size_t i, double a,
			      const struct round_cands *rc)
{
	struct pv_cp_series *x = &f->s[i];
	size_t m = 0;

	/* a series with no step whose best split and bump, anywhere, are
	 * not significant at the candidates' levels has no candidate that
	 * is (quiet_at()) */
	if ((rc->singles || rc->bumps) &&
	    (f->sets[i].n || !quiet_at(&f->quiet[i], x->sd, x->df,
				       a / rc->ncand, rc->nbcand > 0 ?
				       a / rc->nbcand : 0, 0)))
		for (size_t j = 0; j < x->L; j++)
			if (f->cand[pvs_cp_point(x, j)] >= PV_CP_CAND_SUPPORT)
				f->js[m++] = j;
	if (m) {
		double b0 = f->beta[i];
		struct cands cs = { f->js, m, gsl_cdf_chisq_Pinv(1 - a, 1),
				    rc->singles, rc->bumps, f->js + f->maxL,
				    &f->keep, f->drifting };
		struct limits lim;

		limits_of(f, i, &lim);
		lim.split_p = a / rc->ncand;
		lim.bump_p = rc->nbcand > 0 ? a / rc->nbcand : 0;
		f->beta[i] = pvs_cp_candidates(x, &f->csum[i], f->var[i], &lim,
					       &cs, b0, &f->sets[i],
					       &f->added[i], f->rss);
		/* the line's steps are steps again */
		if (b0 != 0 && f->beta[i] == 0)
			f->replaced[i] = 0;
	}
}

/* The last round's end for series i at its level a: the change points
 * the shared effect did not make (own_support()), the trend, and the
 * change points described. */
static int finish_series(struct family *f, size_t i, double a,
			 const struct round_cands *rc, struct pv_err *err)
{
	struct pv_cp_series *x = &f->s[i];

	if (x->adjusted && x->own_gross &&
	    own_support(x, &f->sets[i], err))
		return -1;
	pvs_cp_trend(x, &f->sets[i], f->ntrend, a);
	x->trend.replaced = f->replaced[i];
	x->cp = pv_calloc(f->sets[i].n ? f->sets[i].n : 1,
			  sizeof(struct pv_cp));
	x->ncp = f->sets[i].n;
	describe(&f->csum[i], values(x), x->clipped, x->L, &f->sets[i],
		 &f->added[i], x->sd, x->df, a, f->ntests, rc->ncand, x->cp);
	return 0;
}

/*
 * Step 2b and the end of a round for every series: the candidates, then
 * in the last round the change points, in the others the residuals'
 * variance and df (step 3) for the next round's scale.
 */
static int series_round(struct family *f, int last,
			const struct round_cands *rc, struct pv_err *err)
{
	for (size_t i = 0; i < f->n; i++) {
		struct pv_cp_series *x = &f->s[i];
		double a = x->alpha > 0 ? x->alpha : f->alpha;
		double tot, dof;

		f->added[i].n = 0;
		if (x->L < 3 || !(x->sd >= 0)) {
			if (f->fit)
				for (size_t j = 0; j < x->L; j++)
					f->fit[i][j] = NAN;
			f->s2[i] = NAN;
			f->d[i] = 0;
			continue;
		}
		/* the shared effect's residuals are about step 2's levels
		 * alone: a candidate that a machine's point made in one
		 * series is not made again in all */
		if (f->fit && last)
			pvs_cp_seg_fit(x->clipped, x->L, &f->sets[i],
				       f->beta[i], f->fit[i]);
		series_candidates(f, i, a, rc);
		if (last) {
			if (finish_series(f, i, a, rc, err))
				return -1;
			continue;
		}
		tot = pvs_cp_seg_rss(x->clipped, x->L, &f->sets[i], f->beta[i],
				     cap_of(x), f->rss);
		dof = (double)x->L - (double)(f->sets[i].n + 1) -
		      (f->beta[i] != 0);
		f->s2[i] = dof > 0 ? tot / dof : NAN;
		f->d[i] = dof > 0 ? dof : 0;
	}
	return 0;
}

/*
 * The next round's scale: the residuals' variances moderated across the
 * family, one scale a series, and a noisier neighbourhood's own
 * (local_var()); a segment's own was measured and not kept
 * (docs/changepoint.md).
 */
static int rescale(struct family *f, struct pv_err *err)
{
	size_t n = f->n;
	double *sdn = pv_calloc(n ? n : 1, sizeof(*sdn));
	double *dfn = pv_calloc(n ? n : 1, sizeof(*dfn));
	int rc;

	for (size_t i = 0; i < n; i++) {
		sdn[i] = f->s[i].sd;
		dfn[i] = f->s[i].df;
	}
	rc = pvs_cp_moderate(f->s, n, f->s2, f->d, sdn, dfn, err);
	for (size_t i = 0; i < n && !rc; i++) {
		f->s[i].sd = sdn[i];
		f->s[i].df = dfn[i];
		pvs_cp_local_var(f->s[i].clipped, f->s[i].L, sdn[i], f->var[i],
				 f->rss);
	}
	free(sdn);
	free(dfn);
	return rc;
}

/*
 * Steps 1-4 on the family; with fit, each series' fitted values (its
 * levels and slope, L of them) into fit[i].  Step 1 once, then ROUNDS
 * rounds of search (step 2, 2b) and scale (step 3); the last describes
 * the change points and tests the trend (step 4).
 */
int pvs_cp_detect(struct pv_cp_series *s, size_t n, double alpha,
		  double **fit, struct pv_err *err)
{
	struct family f;
	int rc;

	family_open(&f, s, n, alpha, fit);
	rc = first_scale(&f, err);
	for (int round = 0; round < ROUNDS && !rc; round++) {
		int last = round == ROUNDS - 1;
		struct round_cands cands;

		fit_round(&f);
		cands = count_candidates(&f);
		rc = series_round(&f, last, &cands, err);
		if (rc || last)
			break;
		f.drifting = pvs_cp_family_drifts(s, n, f.drift);
		rc = rescale(&f, err);
	}
	family_close(&f);
	return rc;
}

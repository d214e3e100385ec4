/*
 * pooled.c - the prediction t of a candidate point against K pooled
 * baseline points, with the between-point variance moderated across
 * metrics (pooled.h).
 */
#include "pooled.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "../stats.h"
#include "changepoint.h"
#include "../stats/order.h"
#include "../util/banned.h"

/* What a family's pooled points say of spikes (pooled.h): the share of
 * points that are spikes, of whole ones, and of runs as far. */
struct spikes {
	double all, whole, q;
};

/* The spike limit of a member (PV_CP_GROSS history sds), INFINITY
 * when it has none. */
static double spike_limit(const struct pv_pooled *p)
{
	return p->spike_sd > 0 && isfinite(p->spike_sd) ?
	       PV_CP_GROSS * p->spike_sd : INFINITY;
}

/* Whether v is a spike: further than lim from med. */
static int is_spike(double v, double med, double lim)
{
	return fabs(v - med) > lim;
}

/* How many of the n runs r lie beyond lim from med on the side of dev
 * (dev 0: either side). */
static size_t runs_beyond(const double *r, size_t n, double med, double lim,
			  double dev)
{
	size_t k = 0;

	for (size_t j = 0; j < n; j++) {
		double e = r[j] - med;

		k += dev > 0 ? e > lim : dev < 0 ? -e > lim : fabs(e) > lim;
	}
	return k;
}

/* 0: v is no spike about med; 1: a split one; 2: a whole one (each of
 * its n runs r is as far on the same side; pooled.h). */
static int spike_kind(double v, const double *r, size_t n, double med,
		      double lim)
{
	if (!is_spike(v, med, lim))
		return 0;
	return runs_beyond(r, n, med, lim, v - med) == n ? 2 : 1;
}

/* How many runs of member p's first pk points are gross and as far as a
 * spike: history's point value leaves them out, further than
 * pv_cp_run_tau() (5 robust within-point sds) from their point's median,
 * and they lie further than lim from med.  Gross by the runs' own noise
 * too, so a run's ordinary spread about its point (wider than a point's
 * about the level) is not counted; as far as a spike, so the other mode
 * of two-mode runs is not either.  Without a run scale (no point has 3
 * runs) the runs further than lim from med. */
static size_t gross_runs(const struct pv_pooled *p, size_t pk, double med,
			 double lim)
{
	uint32_t *cnt = pv_malloc(st_mult(pk, sizeof(*cnt)));
	double *tmp = pv_malloc(st_mult(p->roff[pk] ? p->roff[pk] : 1,
					sizeof(*tmp)));
	double tau;
	size_t k = 0;

	for (size_t j = 0; j < pk; j++)
		cnt[j] = (uint32_t)(p->roff[j + 1] - p->roff[j]);
	tau = pv_cp_run_tau(p->runs, cnt, p->roff, pk, p->roff[pk]);
	if (!isfinite(tau))
		k = runs_beyond(p->runs, p->roff[pk], med, lim, 0);
	for (size_t j = 0; j < pk && isfinite(tau); j++) {
		size_t nj = cnt[j];
		double m;

		if (nj < 3)
			continue;
		m = pvs_median_select(p->runs + p->roff[j], nj, tmp);
		for (size_t r = 0; r < nj; r++) {
			double v = p->runs[p->roff[j] + r];

			k += fabs(v - m) > tau && fabs(v - med) > lim;
		}
	}
	free(cnt);
	free(tmp);
	return k;
}

/* The rates of spikes and of whole spikes among the members' baseline
 * points before their end excursions, and of runs as far (q); med[i]:
 * member i's median of those points (NAN when fewer than 2). */
static void spike_rates(const struct pv_pooled *x, size_t n, double *med,
			double *tmp, struct spikes *sp)
{
	double spikes = 0, wholes = 0, seen = 0, far = 0, runs = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pv_pooled *p = &x[i];
		double lim = spike_limit(p);

		size_t pk = p->K - p->end;

		med[i] = NAN;
		if (pk < 2 || !isfinite(lim))
			continue;
		med[i] = pvs_median_select(p->y, pk, tmp);
		for (size_t j = 0; j < pk; j++) {
			int k = p->roff ?
				spike_kind(p->y[j], p->runs + p->roff[j],
					   p->roff[j + 1] - p->roff[j], med[i],
					   lim) :
				spike_kind(p->y[j], p->y + j, 1, med[i], lim);

			spikes += k > 0;
			wholes += k == 2;
		}
		seen += (double)pk;
		if (p->roff) {
			far += (double)gross_runs(p, pk, med[i], lim);
			runs += (double)p->roff[pk];
		} else {
			far += (double)runs_beyond(p->y, pk, med[i], lim, 0);
			runs += (double)pk;
		}
	}
	sp->all = seen > 0 ? spikes / seen : 0;
	sp->whole = seen > 0 ? wholes / seen : 0;
	sp->q = runs > 0 ? far / runs : 0;
}

/* The mean of the first k of y that are not spikes (further than lim
 * from med; all of them when every one is), their count and the sum of
 * their squared deviations. */
static double level_of(const double *y, size_t k, double med, double lim,
		       size_t *kept, double *ss)
{
	double m = 0;

	*kept = 0;
	*ss = 0;
	for (size_t j = 0; j < k; j++)
		*kept += !is_spike(y[j], med, lim);
	if (!*kept) {
		lim = INFINITY;
		*kept = k;
	}
	if (!k)
		return NAN;
	for (size_t j = 0; j < k; j++)
		m += is_spike(y[j], med, lim) ? 0 : y[j];
	m /= (double)*kept;
	for (size_t j = 0; j < k; j++)
		*ss += is_spike(y[j], med, lim) ? 0 : (y[j] - m) * (y[j] - m);
	return m;
}

/* The newest points held out to look for an end excursion (pooled.h):
 * fewer than history confirms a level with, and 2 left before them. */
static size_t end_room(size_t K)
{
	size_t h = PV_CP_MIN_SEG - 1;

	return K < 4 ? (K == 3 ? 1 : 0) : h < K - 2 ? h : K - 2;
}

/* The family's shared point effect (pooled.h): each archive point's
 * median residual of the members taking part (NAN where fewer than
 * PV_POOL_SHARED_MIN have the point), and the effect's variance over
 * the points on df (0 and 0: none, fewer than 3 points had one). */
struct shared {
	double *effect;
	size_t np;
	double var, df;
};

/* A member's fit of the points it uses (pooled.h): its level (of the
 * values less the shared effect), the points kept and their sample
 * variance (of the values as they are), its own posterior variance on
 * own_df, and the shared effect's variance it carries (0: none). */
struct fit {
	double level, s2, own, own_df, vs, vs_df;
	size_t kept;
};

/* Member p's value j less the family's shared effect at its point. */
static double adjusted(const struct pv_pooled *p, size_t j,
		       const struct shared *sh)
{
	double e = p->point && p->point[j] < sh->np ?
		   sh->effect[p->point[j]] : NAN;

	return p->y[j] - (isfinite(e) ? e : 0);
}

/* The spike limit level_of() keeps member p's first use points by: lim,
 * or INFINITY when none of them is within it. */
static double kept_limit(const struct pv_pooled *p, size_t use, double med)
{
	double lim = spike_limit(p);

	for (size_t j = 0; j < use; j++)
		if (!is_spike(p->y[j], med, lim))
			return lim;
	return INFINITY;
}

/* The family's shared effect: per archive point, the median over the
 * members with point indexes and a level lv[i] of their residuals
 * y - lv[i] (all K of their points but spikes about med[i]). */
static void shared_effect(const struct pv_pooled *x, size_t n,
			  const size_t *use, const double *med,
			  const double *lv, const size_t *kept,
			  struct shared *sh)
{
	size_t *cnt, *off, ne = 0;
	double *r, *tmp, sum = 0, ss = 0;

	sh->np = 0;
	sh->var = sh->df = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; x[i].point && kept[i] >= 2 && j < x[i].K; j++)
			if (x[i].point[j] >= sh->np)
				sh->np = x[i].point[j] + 1;
	sh->effect = pv_calloc(st_add(sh->np, 1), sizeof(*sh->effect));
	cnt = pv_calloc(st_add(sh->np, 1), sizeof(*cnt));
	off = pv_calloc(st_add(sh->np, 1), sizeof(*off));
	r = NULL;
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			for (size_t q = 0; q < sh->np; q++)
				off[q + 1] = off[q] + cnt[q];
			memset(cnt, 0, st_mult(sh->np, sizeof(*cnt)));
			r = pv_calloc(st_add(off[sh->np], 1), sizeof(*r));
		}
		for (size_t i = 0; i < n; i++) {
			const struct pv_pooled *p = &x[i];
			double lim;

			if (!p->point || kept[i] < 2)
				continue;
			lim = kept_limit(p, use[i], med[i]);
			for (size_t j = 0; j < p->K; j++) {
				size_t q = p->point[j];

				if (is_spike(p->y[j], med[i], lim))
					continue;
				if (pass)
					r[off[q] + cnt[q]] = p->y[j] - lv[i];
				cnt[q]++;
			}
		}
	}
	tmp = pv_calloc(st_add(off[sh->np], 1), sizeof(*tmp));
	for (size_t q = 0; q < sh->np; q++) {
		sh->effect[q] = cnt[q] >= PV_POOL_SHARED_MIN ?
				pvs_median_select(r + off[q], cnt[q], tmp) : NAN;
		if (isfinite(sh->effect[q])) {
			sum += sh->effect[q];
			ne++;
		}
	}
	for (size_t q = 0; ne >= 3 && q < sh->np; q++)
		if (isfinite(sh->effect[q]))
			ss += (sh->effect[q] - sum / (double)ne) *
			      (sh->effect[q] - sum / (double)ne);
	if (ne >= 3) {
		sh->df = (double)(ne - 1);
		sh->var = ss / sh->df;
	}
	free(tmp);
	free(r);
	free(cnt);
	free(off);
}

/* The level and the sample variance (about it, on kept - 1 df) of
 * member p's first use points but spikes, less the shared effect. */
static double own_level(const struct pv_pooled *p, size_t use, double med,
			size_t kept, const struct shared *sh, double *s2)
{
	double lim = kept_limit(p, use, med), m = 0, ss = 0;

	for (size_t j = 0; j < use; j++)
		if (!is_spike(p->y[j], med, lim))
			m += adjusted(p, j, sh);
	m /= (double)kept;
	for (size_t j = 0; j < use; j++)
		if (!is_spike(p->y[j], med, lim))
			ss += (adjusted(p, j, sh) - m) * (adjusted(p, j, sh) - m);
	*s2 = ss / (double)(kept - 1);
	return m;
}

/*
 * Fit every member on its first use[i] points, spikes about med[i] left
 * out (pooled.h): the family's shared effect into *sh (release its
 * effect), and each member's level and own variance, moderated across
 * the members, into f[i] (own NAN where there is none).
 */
static int fit_family(const struct pv_pooled *x, size_t n, const size_t *use,
		      const double *med, struct fit *f, struct shared *sh,
		      struct pv_err *err)
{
	double *own = pv_calloc(n ? n : 1, sizeof(*own));
	double *d = pv_calloc(n ? n : 1, sizeof(*d));
	double *lv = pv_calloc(n ? n : 1, sizeof(*lv));
	size_t *kept = pv_calloc(n ? n : 1, sizeof(*kept));
	struct pv_prior prior;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		double ss;

		lv[i] = own[i] = NAN;
		d[i] = 0;
		kept[i] = 0;
		if (use[i])
			lv[i] = level_of(x[i].y, use[i], med[i],
					 spike_limit(&x[i]), &kept[i], &ss);
		if (kept[i] >= 2) {
			d[i] = (double)(kept[i] - 1);
			own[i] = ss / d[i];
		}
	}
	shared_effect(x, n, use, med, lv, kept, sh);
	for (size_t i = 0; i < n; i++) {
		struct fit *fi = &f[i];

		fi->kept = kept[i];
		fi->level = lv[i];
		fi->s2 = own[i];
		fi->own = fi->own_df = NAN;
		fi->vs = fi->vs_df = 0;
		if (x[i].point && kept[i] >= 2 && sh->df > 0) {
			fi->level = own_level(&x[i], use[i], med[i], kept[i],
					      sh, &own[i]);
			fi->vs = sh->var;
			fi->vs_df = sh->df;
		}
	}
	if (pv_fit_prior(own, d, n, &prior, err)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		double post, df;

		if (!isfinite(own[i]))
			continue;
		post = pv_posterior_var(&prior, own[i], d[i], &df);
		if (post >= 0) {
			f[i].own = post;
			f[i].own_df = df;
		}
	}
out:
	free(own);
	free(d);
	free(lv);
	free(kept);
	return rc;
}

/* The se of a difference whose variance is a * vs + b * own, and its
 * Welch and Satterthwaite df from the two parts' (pooled.h); with no
 * shared part, sqrt(own) sqrt(b) on the own df. */
static double combine(const struct fit *f, double a, double b, double *df)
{
	double s = a * f->vs, o = b * f->own, v = s + o;

	if (!(s > 0)) {
		*df = f->own_df;
		return sqrt(f->own) * sqrt(b);
	}
	*df = v * v / (s * s / f->vs_df +
		       (isfinite(f->own_df) ? o * o / f->own_df : 0));
	return sqrt(v);
}

/* How many of p's newest points, at most h (<= 2), are an end excursion
 * from its level, less the shared effect: a point's own sd and df
 * (pooled.h). */
static size_t end_run(const struct pv_pooled *p, size_t h,
		      const struct fit *f, const struct shared *sh)
{
	double sd = sqrt(f->own), kept = (double)f->kept;
	double tq = pv_t_quantile(1 - PV_POOL_END_ALPHA / 2, f->own_df);
	double a = adjusted(p, p->K - 1, sh) - f->level, b;

	if (h >= 2) {
		b = adjusted(p, p->K - 2, sh) - f->level;
		if ((a > 0) == (b > 0) &&
		    fabs(a + b) / 2 > tq * sd * sqrt(0.5 + 1.0 / kept) &&
		    fabs(a - b) <= tq * sd * sqrt(2.0))
			return 2;
	}
	return h && fabs(a) > tq * sd * sqrt(1 + 1.0 / kept);
}

/* Each member's end excursion (pooled.h): its newest points against the
 * fit of the points before them. */
static int find_ends(struct pv_pooled *x, size_t n, double *tmp,
		     struct pv_err *err)
{
	size_t *use = pv_calloc(n ? n : 1, sizeof(*use));
	double *med = pv_calloc(n ? n : 1, sizeof(*med));
	struct fit *f = pv_calloc(n ? n : 1, sizeof(*f));
	struct shared sh;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		size_t h = end_room(x[i].K);

		x[i].end = 0;
		use[i] = h ? x[i].K - h : 0;
		med[i] = h ? pvs_median_select(x[i].y, use[i], tmp) : NAN;
	}
	if (fit_family(x, n, use, med, f, &sh, err)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (f[i].kept >= 2 && f[i].own >= 0)
			x[i].end = end_run(&x[i], end_room(x[i].K), &f[i], &sh);
out:
	free(sh.effect);
	free(use);
	free(med);
	free(f);
	return rc;
}

/* The prediction test of delta with se on df: t and the one-sided p's
 * (no spread: equal is no change, anything else a certain one). */
static void predict(double delta, double se, double df, double *t,
		    double *up, double *down)
{
	if (se > 0) {
		*t = delta / se;
		*up = pv_t_sf(*t, df);
		*down = pv_t_sf(-*t, df);
		return;
	}
	*t = delta > 0 ? INFINITY : delta < 0 ? -INFINITY : 0;
	*up = delta > 0 ? 0 : 1;
	*down = delta < 0 ? 0 : 1;
}

static void two_sided(struct pv_pooled *p)
{
	p->p_two = 2 * (p->p_up < p->p_down ? p->p_up : p->p_down);
	if (p->p_two > 1)
		p->p_two = 1;
}

/* A candidate that is a spike about med: no p in its direction (*up,
 * *down) below the rate of its kind, nor below the chance of as many of
 * its runs as far at the baseline runs' rate.  Marks p a spike when a p
 * was raised, with the rate. */
static void spike_floor(struct pv_pooled *p, double med,
			const struct spikes *sp, double *up, double *down)
{
	double dev = p->cand - med, rate, lim = spike_limit(p);
	const double *r = p->ncruns ? p->cruns : &p->cand;
	size_t nr = p->ncruns ? p->ncruns : 1;
	int k = spike_kind(p->cand, r, nr, med, lim);
	double *side = dev > 0 ? up : down;

	/* a family with no spike in its pooled points has no floor of
	 * points; one whose runs hold gross ones (sp->q) still has the
	 * chance that as many of the candidate's runs are (pooled.h) */
	if (!(sp->all > 0) && !(sp->q > 0))
		return;
	rate = k == 2 ? sp->whole : sp->all;
	if (k && sp->q > 0) {
		size_t m = runs_beyond(r, nr, med, lim, dev);
		double b = m ? gsl_cdf_binomial_Q((unsigned)(m - 1), sp->q,
						  (unsigned)nr) : 1;

		if (b > rate)
			rate = b;
	}
	if (!k || !(rate > 0) || dev == 0 || !(*side < rate))
		return;
	*side = rate;
	if (!p->spike || rate > p->spike_p)
		p->spike_p = rate;
	p->spike = 1;
}


/* A member with an end excursion: the candidate against its newest
 * level too, each one-sided p the larger of the two (pooled.h).  The
 * newest level is of the values less the shared effect; its spike test
 * is of the values as they are. */
static void against_end(struct pv_pooled *p, const struct fit *f,
			const struct shared *sh, double alpha,
			const struct spikes *sp)
{
	double lvl = 0, raw = 0, up, down, df, tq;

	for (size_t j = p->K - p->end; j < p->K; j++) {
		lvl += adjusted(p, j, sh);
		raw += p->y[j];
	}
	p->end_level = lvl / (double)p->end;
	raw /= (double)p->end;
	p->end_delta = p->cand - p->end_level;
	p->end_se = combine(f, 1 + 1.0 / (double)f->kept,
			    1 + 1.0 / (double)p->end, &df);
	predict(p->end_delta, p->end_se, df, &p->end_t, &up, &down);
	/* a spike of main's newest level, beyond it away from the long-run
	 * one (toward that one the long-run test speaks) */
	if ((p->end_delta > 0) == (p->end_level > p->level))
		spike_floor(p, raw, sp, &up, &down);
	if (up > p->p_up)
		p->p_up = up;
	if (down > p->p_down)
		p->p_down = down;
	two_sided(p);
	tq = pv_t_quantile(1 - alpha / 2, df);
	p->end_lo = p->end_delta - tq * p->end_se;
	p->end_hi = p->end_delta + tq * p->end_se;
}

/* Member p's prediction test against its long-run level (pooled.h). */
static void against_level(struct pv_pooled *p, const struct fit *f,
			  double med, double alpha, const struct spikes *sp)
{
	double b = 1 + 1.0 / (double)f->kept, tq;

	p->sd = sqrt(f->vs + f->own);
	p->se = combine(f, b, b, &p->df);
	p->testable = 1;
	predict(p->delta, p->se, p->df, &p->t, &p->p_up, &p->p_down);
	two_sided(p);
	spike_floor(p, med, sp, &p->p_up, &p->p_down);
	two_sided(p);
	tq = pv_t_quantile(1 - alpha / 2, p->df);
	p->lo = p->delta - tq * p->se;
	p->hi = p->delta + tq * p->se;
}

int pv_pooled_family(struct pv_pooled *x, size_t n, double alpha,
		     struct pv_err *err)
{
	size_t *use = pv_calloc(n ? n : 1, sizeof(*use));
	double *med = pv_calloc(n ? n : 1, sizeof(*med));
	struct fit *f = pv_calloc(n ? n : 1, sizeof(*f));
	struct shared sh = { NULL, 0, 0, 0 };
	double *tmp;
	struct spikes sp;
	size_t maxK = 1;
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		if (x[i].K > maxK)
			maxK = x[i].K;
	ALLOC_ARRAY(tmp, maxK);
	if (find_ends(x, n, tmp, err))
		goto out;
	spike_rates(x, n, med, tmp, &sp);
	/* the baseline's spikes and its end excursion are not its level
	 * (med is NAN, and every point kept, when no spike can be told;
	 * two points far apart are both kept) */
	for (size_t i = 0; i < n; i++)
		use[i] = x[i].K - x[i].end;
	if (fit_family(x, n, use, med, f, &sh, err))
		goto out;

	for (size_t i = 0; i < n; i++) {
		struct pv_pooled *p = &x[i];

		p->testable = 0;
		p->spike = 0;
		p->spike_p = NAN;
		p->sd = p->df = NAN;
		p->se = p->t = NAN;
		p->p_up = p->p_down = p->p_two = NAN;
		p->lo = p->hi = NAN;
		p->end_level = p->end_delta = p->end_se = p->end_t = NAN;
		p->end_lo = p->end_hi = NAN;
		p->kept = f[i].kept;
		p->level = f[i].level;
		p->delta = p->cand - p->level;
		p->s2 = f[i].s2;
		p->d = f[i].kept >= 2 ? (double)(f[i].kept - 1) : 0;
		if (f[i].kept < 2 || !(f[i].own >= 0))
			continue;
		against_level(p, &f[i], med[i], alpha, &sp);
		if (p->end)
			against_end(p, &f[i], &sh, alpha, &sp);
	}
	rc = 0;
out:
	free(sh.effect);
	free(use);
	free(med);
	free(f);
	free(tmp);
	return rc;
}

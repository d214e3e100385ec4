/*
 * cp_fit.c - the driver of the designed detector (docs/changepoint.md):
 * each series' scale and spikes (cp_scale.c), its penalty from the
 * family's alpha (section 4), steps against steps with a slope by their
 * penalised costs (section 5, the search in cp_search.c), and the
 * figures reported (section 7).  Costs are in units of each point's
 * variance (weights 1 / sd_i^2), so the penalties are plain t^2.
 */
#include "cp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "internal.h"
#include "../util/banned.h"

/* The slope model alternates slope and search at most this often; it
 * settles in two or three rounds when it settles at all. */
#define SLOPE_ROUNDS 5
/* The longest minimum segment a series' spikes can call for. */
#define MIN_SEG_MAX 8
/* With no noise at all, rounding's: a billionth of the values. */
#define SD_FLOOR_REL 1e-9

/* What a family shares: its tests' counts (section 4). */
struct family {
	double ntests;          /* split positions over the gated series */
	double nseries;         /* gated series: one slope test each */
	double spikes, points;  /* spikes replaced, of all points */
};

/* One series' fit: the values the search saw and its penalties. */
struct fit {
	const double *y;        /* the values less their spikes */
	const double *w;        /* 1 / each point's variance */
	size_t L, m;            /* points, the least segment's */
	double df, alpha;
	double pen, pen_slope;  /* t^2 of a step and of the slope */
	double slope;           /* 0 in the steps model */
	size_t *cp, ncp;
	double *z;              /* scratch: y less the slope */
	int no_slope;           /* steps only (the ablation) */
};

double pvs_cpn_crit2(double a, double df)
{
	double t = -pv_t_quantile(a / 2, df);

	return t * t;
}

static double two_sided_p(double t, double df)
{
	double p = 2 * pv_t_sf(fabs(t), df);

	return p > 1 ? 1 : p;
}

static size_t positions(size_t L)
{
	return L >= 2 * PVS_CPN_MIN_SEG ? L - 2 * PVS_CPN_MIN_SEG + 1 : 0;
}

/* The weighted least-squares slope common to the segments cp[0..ncp)
 * of the fit's values, and its weighted sum of squares of positions
 * about their segments' centres (1 / the slope's variance). */
static double seg_slope(const struct fit *f, const size_t *cp, size_t ncp,
			double *sxx_out)
{
	const double *y = f->y, *w = f->w;
	double sxy = 0, sxx = 0;

	for (size_t i = 0; i <= ncp; i++) {
		size_t a = i ? cp[i - 1] : 0, b = i < ncp ? cp[i] : f->L;
		double sw = 0, xc = 0, m = 0;

		for (size_t j = a; j < b; j++) {
			sw += w[j];
			xc += w[j] * (double)j;
			m += w[j] * y[j];
		}
		xc /= sw;
		m /= sw;
		for (size_t j = a; j < b; j++) {
			sxy += w[j] * ((double)j - xc) * (y[j] - m);
			sxx += w[j] * ((double)j - xc) * ((double)j - xc);
		}
	}
	*sxx_out = sxx;
	return sxx > 0 ? sxy / sxx : 0;
}

/* The weighted residual sum of squares of levels on cp[0..ncp) of the
 * values less slope (left in f->z). */
static double rss(struct fit *f, double slope, const size_t *cp, size_t ncp)
{
	double r = 0;

	for (size_t j = 0; j < f->L; j++)
		f->z[j] = f->y[j] - slope * (double)j;
	for (size_t i = 0; i <= ncp; i++)
		r += pvs_cpn_ss(f->z, f->w, i ? cp[i - 1] : 0,
				i < ncp ? cp[i] : f->L, NULL);
	return r;
}

/* The slope model from the change points cp[0..*ncp): slope and search
 * alternate until the change points stand still.  Its penalised cost;
 * its slope into f->slope. */
static double fit_slope(struct fit *f, size_t *cp, size_t *ncp)
{
	double sxx, b;

	for (int round = 0; round < SLOPE_ROUNDS; round++) {
		size_t k;

		b = seg_slope(f, cp, *ncp, &sxx);
		for (size_t j = 0; j < f->L; j++)
			f->z[j] = f->y[j] - b * (double)j;
		k = pvs_cpn_search(f->z, f->w, f->L, f->m, f->pen, f->cp);
		if (k == *ncp && !memcmp(f->cp, cp, k * sizeof(*cp)))
			break;
		memcpy(cp, f->cp, k * sizeof(*cp));
		*ncp = k;
	}
	f->slope = seg_slope(f, cp, *ncp, &sxx);
	return rss(f, f->slope, cp, *ncp) + (double)*ncp * f->pen +
	       f->pen_slope;
}

/* Section 5: steps, or steps and a slope, whichever costs less.  The
 * slope model starts from the steps' change points and from none (the
 * line through the series), and keeps the cheaper. */
static void choose(struct fit *f)
{
	size_t *alt, *line, nalt, nline = 0;
	double c0, c1, c2, b1;

	f->ncp = pvs_cpn_search(f->y, f->w, f->L, f->m, f->pen, f->cp);
	c0 = rss(f, 0, f->cp, f->ncp) + (double)f->ncp * f->pen;
	f->slope = 0;
	if (f->no_slope) {
		rss(f, 0, f->cp, f->ncp);
		return;
	}
	ALLOC_ARRAY(alt, f->L / f->m + 1);
	ALLOC_ARRAY(line, f->L / f->m + 1);
	memcpy(alt, f->cp, f->ncp * sizeof(*alt));
	nalt = f->ncp;
	c1 = fit_slope(f, alt, &nalt);
	b1 = f->slope;
	c2 = fit_slope(f, line, &nline);
	if (c2 < c1) {
		memcpy(alt, line, nline * sizeof(*alt));
		nalt = nline;
		c1 = c2;
		b1 = f->slope;
	}
	if (c1 < c0) {
		memcpy(f->cp, alt, nalt * sizeof(*alt));
		f->ncp = nalt;
		f->slope = b1;
	} else {
		f->slope = 0;
		f->ncp = pvs_cpn_search(f->y, f->w, f->L, f->m, f->pen, f->cp);
	}
	for (size_t j = 0; j < f->L; j++)
		f->z[j] = f->y[j] - f->slope * (double)j;
	free(alt);
	free(line);
}

static double weight_of(const double *w, size_t a, size_t b)
{
	double s = 0;

	for (size_t j = a; j < b; j++)
		s += w[j];
	return s;
}

/* Section 7: change point i's figures (f->z: the values less the slope). */
static void describe(const struct fit *f, size_t i, double ntests,
		     struct pv_cp *o)
{
	size_t a = i ? f->cp[i - 1] : 0, k = f->cp[i];
	size_t b = i + 1 < f->ncp ? f->cp[i + 1] : f->L;
	double se = sqrt(1 / weight_of(f->w, a, k) + 1 / weight_of(f->w, k, b));
	double tq = -pv_t_quantile(f->alpha / 2, f->df);
	double chi = gsl_cdf_chisq_Pinv(1 - f->alpha, 1), m0, m1, best;

	best = pvs_cpn_ss(f->z, f->w, a, k, &m0) +
	       pvs_cpn_ss(f->z, f->w, k, b, &m1);
	memset(o, 0, sizeof(*o));
	o->index = o->index_low = o->index_high = k;
	pvs_cpn_ss(f->y, f->w, a, k, &o->before);
	o->delta = m1 - m0;
	o->after = o->before + o->delta;
	o->delta_low = o->delta - tq * se;
	o->delta_high = o->delta + tq * se;
	o->t = se > 0 ? o->delta / se : o->delta > 0 ? INFINITY : -INFINITY;
	o->df = f->df;
	o->p = two_sided_p(o->t, f->df);
	o->q = o->p * ntests > 1 ? 1 : o->p * ntests;
	for (size_t j = a + f->m; j + f->m <= b; j++) {
		double c = pvs_cpn_ss(f->z, f->w, a, j, NULL) +
			   pvs_cpn_ss(f->z, f->w, j, b, NULL);

		if (c - best <= chi) {
			o->index_low = j < o->index_low ? j : o->index_low;
			o->index_high = j > o->index_high ? j : o->index_high;
		}
	}
}

/* The slope within the final segments, significant when the slope
 * model won (section 7). */
static void trend(struct pv_cp_series *x, const struct fit *f,
		  double nseries)
{
	struct pv_cp_trend *t = &x->trend;
	double sxx;

	memset(t, 0, sizeof(*t));
	t->slope = t->se = t->t = t->p = t->q = NAN;
	if (f->L < 3)
		return;
	t->slope = seg_slope(f, f->cp, f->ncp, &sxx);
	if (!(sxx > 0))
		return;
	t->se = 1 / sqrt(sxx);
	t->t = t->slope / t->se;
	t->df = f->df;
	t->p = two_sided_p(t->t, f->df);
	t->q = t->p * nseries > 1 ? 1 : t->p * nseries;
	t->significant = f->slope != 0;
}

/* Sections 1-2: the scale of each point, the values less their spikes
 * into x->clipped, the weights into w. */
static void prepare(struct pv_cp_series *x, double *w, double *tmp,
		    const struct pvs_cpn_without *wo)
{
	double floor_sd, sd;

	sd = x->L >= 2 ? pvs_cpn_scale(x->y, x->L, tmp) : 0;
	floor_sd = SD_FLOOR_REL * fmax(1, fabs(x->L ? x->y[x->L / 2] : 0));
	x->robust_sd = x->sd = fmax(sd, floor_sd);
	for (size_t j = 0; j < x->L; j++)
		w[j] = x->sd;
	if (x->L >= 2 && !wo->local)
		pvs_cpn_local_scale(x->y, x->L, x->sd, w, tmp);
	if (wo->spikes) {
		memcpy(x->clipped, x->y, x->L * sizeof(*x->y));
		x->nclipped = 0;
	} else {
		x->nclipped = pvs_cpn_despike(x->y, x->L, w, x->clipped);
	}
	for (size_t j = 0; j < x->L; j++)
		w[j] = 1 / (w[j] * w[j]);
}

/*
 * Section 2: a level of k points that are all spikes is as likely as k
 * spikes in a row.  At a spike rate r (the series' own or the family's,
 * the larger), k in a row happen somewhere among the family's split
 * positions with chance about ntests r^k; the least segment is the
 * smallest k >= PVS_CPN_MIN_SEG that makes that at most alpha.
 */
static size_t min_seg(const struct pv_cp_series *x, const struct family *fam,
		      double alpha)
{
	double r = fam->points > 0 ? fam->spikes / fam->points : 0;
	size_t k = PVS_CPN_MIN_SEG;

	if (x->L && (double)x->nclipped / (double)x->L > r)
		r = (double)x->nclipped / (double)x->L;
	while (k < MIN_SEG_MAX && fam->ntests * pow(r, (double)k) > alpha)
		k++;
	return k;
}

/* One series: sections 3-5 and 7, on its values less their spikes
 * (x->clipped) with weights w. */
static void series(struct pv_cp_series *x, const double *w,
		   const struct family *fam, double alpha,
		   const struct pvs_cpn_without *wo)
{
	struct fit f = { .L = x->L, .alpha = x->alpha > 0 ? x->alpha : alpha };

	f.m = min_seg(x, fam, f.alpha);
	ALLOC_ARRAY(f.z, x->L ? x->L : 1);
	ALLOC_ARRAY(f.cp, x->L / f.m + 1);
	f.y = x->clipped;
	f.w = w;
	x->df = f.df = pvs_cpn_scale_df(x->L >= 2 ? x->L : 2);
	f.pen = pvs_cpn_crit2(f.alpha / fam->ntests, f.df);
	f.pen_slope = pvs_cpn_crit2(f.alpha / fam->nseries, f.df);
	f.no_slope = wo->slope;
	choose(&f);
	ALLOC_ARRAY(x->cp, f.ncp ? f.ncp : 1);
	x->ncp = f.ncp;
	for (size_t i = 0; i < f.ncp; i++)
		describe(&f, i, fam->ntests, &x->cp[i]);
	trend(x, &f, fam->nseries);
	free(f.cp);
	free(f.z);
}

int pvs_cpn_family(struct pv_cp_series *s, size_t n, double alpha,
		   const struct pvs_cpn_without *wo, struct pv_err *err)
{
	struct family fam = { 0, 0, 0, 0 };
	double **w, *tmp;

	(void)err;
	CALLOC_ARRAY(w, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		ALLOC_ARRAY(s[i].clipped, s[i].L ? s[i].L : 1);
		ALLOC_ARRAY(w[i], s[i].L ? s[i].L : 1);
		ALLOC_ARRAY(tmp, 3 * s[i].L + 40);
		prepare(&s[i], w[i], tmp, wo);
		free(tmp);
		s[i].cp = NULL;
		s[i].ncp = 0;
		if (s[i].ungated)
			continue;
		fam.ntests += (double)positions(s[i].L);
		fam.nseries += 1;
		fam.spikes += (double)s[i].nclipped;
		fam.points += (double)s[i].L;
	}
	fam.ntests = fmax(fam.ntests, 1);
	fam.nseries = fmax(fam.nseries, 1);
	for (size_t i = 0; i < n; i++) {
		series(&s[i], w[i], &fam, alpha, wo);
		free(w[i]);
	}
	free(w);
	return 0;
}

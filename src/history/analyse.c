/*
 * analyse.c - each metric's series analysed: its point values, its
 * change points (history/changepoint.h), the watch on its newest points
 * (history/excursion.h); then the gate: each change point's verdict, floor
 * and waiver, and each metric's status (policy.h).
 *
 * A point's value is the mean of its runs on the log scale (when every
 * run of the metric is positive), leaving out runs more than
 * 5 robust within-point sds from the point's median: the
 * within-point sd is pooled over the whole series (the MAD of the runs
 * around their point medians), so that one noisy-neighbour run among
 * three does not move a point by a third of its size.  With one or two
 * runs the point value is their mean.
 */
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../verdict.h"
#include "../util/banned.h"

/* The robust point values of one metric (see the top of this file;
 * the statistics are history/changepoint.c's). */
static void point_values(struct pv_hist_metric *m)
{
	size_t k = m->nobs ? m->nobs : 1;
	double *lv, *val;
	uint32_t *n;
	size_t *off;

	ALLOC_ARRAY(lv, m->nruns ? m->nruns : 1);
	ALLOC_ARRAY(val, k);
	ALLOC_ARRAY(n, k);
	ALLOC_ARRAY(off, k);
	m->logscale = 1;
	for (size_t i = 0; i < m->nruns; i++)
		if (!(m->runs[i] > 0) || !isfinite(m->runs[i]))
			m->logscale = 0;
	for (size_t i = 0; i < m->nruns; i++)
		lv[i] = m->logscale ? log(m->runs[i]) : m->runs[i];
	for (size_t j = 0; j < m->nobs; j++) {
		n[j] = m->obs[j].n;
		off[j] = m->obs[j].off;
	}
	/* the run scale and each point's value (pv_cp_point_value()),
	 * from the runs on the scale */
	m->tau = pv_cp_point_values(lv, n, off, m->nobs, m->nruns, val);
	for (size_t j = 0; j < m->nobs; j++)
		m->obs[j].value = val[j];
	free(lv);
	free(val);
	free(n);
	free(off);
}

static double level_of(const struct pv_hist_metric *m, double v)
{
	return m->logscale ? exp(v) : v;
}

static double rel_of(const struct pv_hist_metric *m, double before,
		     double delta)
{
	if (m->logscale)
		return expm1(delta);
	return before != 0 ? delta / fabs(before) : NAN;
}

/*
 * m's watch: the excursion of its newest points after its last change
 * point (history/excursion.h), on the values the detector saw before its
 * clipping (a newest point off its level is no spike until a later one
 * comes back), Bonferroni over the gated series.
 */
static void watch_end(const struct pv_history *h, struct pv_hist_metric *m,
		      const struct pv_cp_series *s, size_t gated)
{
	const double *y = s->adjusted ? s->adjusted : s->y;
	size_t from = s->ncp ? s->cp[s->ncp - 1].index : 0;
	struct pv_cp_excursion *w = &m->watch;

	pv_cp_end_excursion(y, from, s->L, s->sd, s->df, gated,
			    s->alpha > 0 ? s->alpha : h->alpha, w);
	m->watched = 0;
	if (!w->k || !m->nobs || m->obs[m->nobs - 1].point != h->np - 1)
		return;
	m->watch_before = level_of(m, w->before);
	m->watch_after = level_of(m, w->after);
	m->watch_rel = rel_of(m, w->before, w->delta);
	m->watched = w->significant &&
		     pv_policy_beyond(m->rule.threshold, m->rule.abs_threshold,
				      m->watch_before,
				      m->watch_after - m->watch_before,
				      m->watch_rel);
}

int pv_history_analyse(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_err *err)
{
	struct pv_cp_series *s = pv_calloc(h->nm ? h->nm : 1, sizeof(*s));
	double **y = pv_calloc(h->nm ? h->nm : 1, sizeof(*y));
	size_t **pt = pv_calloc(h->nm ? h->nm : 1, sizeof(*pt));
	size_t gated = 0;
	int rc = -1;

	h->alpha = o->cfg->gate.alpha;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		point_values(m);
		ALLOC_ARRAY(y[i], m->nobs ? m->nobs : 1);
		ALLOC_ARRAY(pt[i], m->nobs ? m->nobs : 1);
		for (size_t j = 0; j < m->nobs; j++) {
			y[i][j] = m->obs[j].value;
			pt[i][j] = m->obs[j].point;
		}
		s[i].y = y[i];
		s[i].L = m->nobs;
		s[i].alone = !m->logscale;
		/* a slow machine makes times go up and rates down */
		s[i].point = pt[i];
		s[i].sign = m->rule.direction == PV_DIR_HIGHER ? -1 : 1;
		s[i].alpha = m->rule.alpha;
		s[i].ungated = !m->rule.gated;
	}
	pv_cp_shared_release(&h->shared);
	if (pv_cp_family_shared(s, h->nm, h->alpha, &h->shared, err))
		goto out;
	for (size_t i = 0; i < h->nm; i++)
		gated += !s[i].ungated;
	h->shared_metrics = 0;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		m->sd = s[i].sd;
		m->df = s[i].df;
		m->nclipped = s[i].nclipped;
		m->shared_weight = s[i].shared_beta;
		h->shared_metrics += m->shared_weight != 0;
		for (size_t j = 0; j < m->nobs; j++)
			m->obs[j].tested = s[i].clipped ? s[i].clipped[j] :
					   m->obs[j].value;
		m->trend = s[i].trend;
		{
			double sum = 0;

			for (size_t j = 0; j < m->nobs; j++)
				sum += m->obs[j].value;
			m->trend_rel = m->nobs ? rel_of(m, sum / (double)m->nobs,
							m->trend.slope) : NAN;
		}
		m->ncp = s[i].ncp;
		m->cp = pv_calloc(m->ncp ? m->ncp : 1, sizeof(*m->cp));
		for (size_t j = 0; j < m->ncp; j++) {
			struct pv_hist_cp *c = &m->cp[j];
			const struct pv_cp *x = &s[i].cp[j];

			c->s = *x;
			c->point = m->obs[x->index].point;
			c->point_low = m->obs[x->index_low].point;
			c->point_high = m->obs[x->index_high].point;
			c->before = level_of(m, x->before);
			c->after = level_of(m, x->after);
			c->rel = rel_of(m, x->before, x->delta);
			c->rel_low = rel_of(m, x->before, x->delta_low);
			c->rel_high = rel_of(m, x->before, x->delta_high);
		}
		watch_end(h, m, &s[i], gated);
	}
	rc = 0;
out:
	for (size_t i = 0; i < h->nm; i++) {
		pv_cp_series_release(&s[i]);
		free(y[i]);
		free(pt[i]);
	}
	free(s);
	free(y);
	free(pt);
	return rc;
}

/* A change point's status, in the verdicts' severity order (policy.h). */
static const enum pv_verdict status_verdict[PV_HS_COUNT] = {
	[PV_HS_REGRESSION] = PV_V_REGRESSION,
	[PV_HS_IMPROVEMENT] = PV_V_IMPROVEMENT,
	[PV_HS_CHANGED] = PV_V_UNGATED,
	[PV_HS_WAIVED] = PV_V_WAIVED,
	[PV_HS_UNCHANGED] = PV_V_UNCHANGED,
	[PV_HS_INSUFFICIENT] = PV_V_INSUFFICIENT,
	[PV_HS_MISSING] = PV_V_MISSING,
};

/*
 * One metric's change points by its rule: the direction says regression
 * or improvement, the threshold and abs_threshold whether it is beyond
 * the floor, and the waiver (looked up once) whether it is waived; an
 * expired waiver is warned about when a recent regression beyond the
 * floor makes it matter.  Then whether each fails the gate, and the
 * metric's status: its most severe recent change beyond the floor.
 */
static void decide_metric(struct pv_history *h, struct pv_hist_metric *m,
			  size_t first_recent, const struct pv_history_opts *o,
			  struct pv_diag *diag)
{
	const struct pv_waiver *wv = NULL;
	int any = 0, matters = 0, best = 0;

	for (size_t j = 0; j < m->ncp; j++) {
		struct pv_hist_cp *c = &m->cp[j];
		int worse = m->rule.direction != PV_DIR_NONE &&
			    pv_policy_move(m->rule.direction, c->s.delta) > 0;

		c->verdict = m->rule.direction == PV_DIR_NONE ? PV_HS_CHANGED :
			     worse ? PV_HS_REGRESSION : PV_HS_IMPROVEMENT;
		c->beyond = pv_policy_beyond(m->rule.threshold, m->rule.abs_threshold,
					     c->before, c->after - c->before,
					     c->rel);
		any |= worse;
		matters |= worse && c->beyond && c->point >= first_recent;
	}
	if (any)
		wv = pv_policy_waiver(o->cfg, o->today, m->group, m->benchmark,
				      m->metric, matters ? diag : NULL);
	m->status_cp = 0;
	for (size_t j = 0; j < m->ncp; j++) {
		struct pv_hist_cp *c = &m->cp[j];
		enum pv_hist_status st = c->verdict;
		int rank;

		c->waiver = st == PV_HS_REGRESSION ? wv : NULL;
		if (c->waiver)
			st = PV_HS_WAIVED;
		c->fails = 0;
		if (c->point < first_recent || !c->beyond)
			continue;
		c->fails = pv_policy_fails(&o->cfg->gate, status_verdict[st]);
		h->fail_cp += (size_t)c->fails;
		rank = pv_verdict_severity(status_verdict[st]);
		if (!m->status_cp || rank < best) {
			best = rank;
			m->status = st;
			m->status_cp = j + 1;
		}
	}
	if (m->status_cp)
		return;
	if (!m->nobs || m->obs[m->nobs - 1].point != h->np - 1)
		m->status = PV_HS_MISSING;
	else if (m->nobs < 2 * PV_CP_MIN_SEG)
		m->status = PV_HS_INSUFFICIENT;
	else
		m->status = PV_HS_UNCHANGED;
}

void pv_history_decide(struct pv_history *h, const struct pv_history_opts *o,
		       struct pv_diag *diag)
{
	size_t first_recent = h->np > o->recent ? h->np - o->recent : 0;
	struct pv_names assumed = PV_NAMES_INIT(3);

	memset(h->count, 0, sizeof(h->count));
	h->fail_cp = 0;
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		if (m->rule.dir_assumed)
			pv_names_add(&assumed, m->group, m->benchmark, m->metric);
		decide_metric(h, m, first_recent, o, diag);
		h->count[m->status]++;
	}
	h->fail = h->fail_cp > 0;
	if (h->shared.applied) {
		struct strbuf size = STRBUF_INIT;
		size_t top = 0;

		/* the largest effect; a point with too few series for one
		 * (NAN) is never it */
		for (size_t p = 1; p < h->shared.np && p < h->np; p++)
			if (isfinite(h->shared.effect[p]) &&
			    !(fabs(h->shared.effect[top]) >= fabs(h->shared.effect[p])))
				top = p;
		h->shared_top = top;
		pv_history_shared_size(h, &size);
		pv_diag_add(diag, PV_M_SHARED_EFFECT, "the points shared a machine effect (%s'%s'): taken out of %zu metrics' values before the tests",
			    size.buf, h->p[top].label, h->shared_metrics);
		strbuf_release(&size);
	}
	pv_policy_note_assumed(diag, assumed.n, pv_names_end(&assumed));
	strbuf_release(&assumed.sb);
}

void pv_history_shared_size(const struct pv_history *h, struct strbuf *sb)
{
	double e = h->shared.effect[h->shared_top];

	strbuf_addf(sb, "sd %.1f%% a point; at most %.1f%% %s at ",
		    100 * h->shared.sd, 100 * fabs(expm1(e)),
		    e > 0 ? "slower" : "faster");
}

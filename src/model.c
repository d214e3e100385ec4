/*
 * model.c - the report model built from the sample table; see model.h.
 *
 * Everything a metric's verdict will rest on is fixed here, once: its
 * rule (direction, thresholds, alpha: policy.c's), each side's samples
 * and moments, and the change.  verdict.c then works on the model alone.
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "policy.h"
#include "stats.h"
#include "util/banned.h"

/* ratio: the side's mean(num)/mean(den) for an avg_update metric, or
 * NAN to keep the metric's own mean. */
static void side_from_table(const struct pv_metric *m, int s, double ratio,
			    struct pv_side_result *out)
{
	out->samples = m->v[s];
	out->nsamples = m->n[s];
	out->present = m->seen[s] != 0;
	out->files = m->files[s];
	out->per_file = m->per_file[s];
	out->note = m->note[s];
	if (m->sum[s] && m->sum[s]->only) {
		const struct pv_msum *su = m->sum[s];

		out->summary_only = 1;
		out->samples = NULL;
		out->nsamples = 0;
		out->s.n = su->n;
		out->s.mean = su->mean;
		out->s.sd = su->sd;
		return;
	}
	pv_moments_of(m->v[s], m->n[s], &out->s);
	/* Values near DBL_MAX (1e308, 1e308, -1e308) overflow the sums: no
	 * test can use them, and a verdict on them would be a guess. */
	if (out->nsamples && !out->note && (!isfinite(out->s.mean) ||
	    (out->nsamples > 1 && !isfinite(out->s.sd))))
		out->note = "its values overflow a double: their mean or standard deviation is not a finite number";
	/* avg_update: the mean shown is mean(num)/mean(den); the test and
	 * the sd still use this column's own per-run values. */
	if (!isnan(ratio))
		out->s.mean = ratio;
}

/* mean(num)/mean(den) of an avg_update metric's side, or NAN. */
static double ratio_mean(const struct pv_table *t, const struct pv_metric *m,
			 int s)
{
	const struct pv_metric *num = &t->m[m->ratio_num];
	const struct pv_metric *den = &t->m[m->ratio_den];
	double mn, md;

	if (!num->n[s] || !den->n[s])
		return NAN;
	pv_mean_sd(num->v[s], num->n[s], &mn, NULL);
	pv_mean_sd(den->v[s], den->n[s], &md, NULL);
	return md != 0 ? mn / md : NAN;
}

static void copy_context(struct pv_report *r, const struct pv_table *t)
{
	for (int s = 0; s < 2; s++) {
		const struct pv_sidemeta *src = &t->side[s];
		struct pv_sidemeta *dst = &r->side[s];

		*dst = *src;
		ALLOC_ARRAY(dst->context, st_add(src->ncontext, 1));
		dst->alloc_context = src->ncontext + 1;
		if (src->ncontext)
			memcpy(dst->context, src->context,
			       src->ncontext * sizeof(*dst->context));
	}
	r->pooled = t->side[PV_BASE].pooled;
	r->npooled = t->side[PV_BASE].npooled;
}

/* One metric of the table into the model.  A metric that a rule
 * ignores stays in, ungated, so that every report shows how it moved. */
static void result_from_table(const struct pv_metric *m,
			     const struct pv_config *cfg,
			     const struct pv_gate *g, const double ratio[2],
			     struct pv_result *res, size_t *assumed)
{
	res->suite = m->key.suite;
	res->test = m->key.test;
	res->group = m->key.group;
	res->benchmark = m->key.benchmark;
	res->metric = m->key.metric;
	res->unit = m->unit;
	pv_policy_result(cfg, g, m->dir_hint, res);
	*assumed += res->dir_assumed;
	res->ratio = m->ratio_num >= 0;
	for (int s = 0; s < 2; s++)
		side_from_table(m, s, ratio[s], &res->side[s]);
	pv_model_change(res);
}

void pv_model_change(struct pv_result *res)
{
	double a = res->side[0].s.mean, b = res->side[1].s.mean;

	if (!res->side[0].s.n || !res->side[1].s.n) {
		res->change_abs = res->change_rel = NAN;
		return;
	}
	/* Equal means are no change, 0 against -0 too: +0, relative 0.
	 * From a zero baseline mean any other change has no relative size
	 * (NAN; the reason says so). */
	res->change_abs = b - a == 0 ? 0 : b - a;
	res->change_rel = res->change_abs == 0 ? 0 : pv_rel_change(a, b);
}

static int is_assumed(const struct pv_result *m)
{
	return m->dir_assumed;
}

/* How many metrics of the table are handed back at a time. */
#define TRIM_STEP 4096

/*
 * The model is built back to front, and the table gives back the metrics
 * already taken every TRIM_STEP (pv_table_trim() shrinks its array), so
 * the resident parts of the table's metric array and of the model do
 * not both reach full size: the model's array comes from calloc, whose
 * pages become resident only as results are written.  Ratio means need
 * other metrics of the table, which may lie behind, so they are computed
 * first.
 */
void pv_model_from_table(struct pv_table *t, const struct pv_config *cfg,
			 struct pv_report *r, struct pv_diag *diag)
{
	size_t n = t->n, assumed = 0, nratio = 0, k = 0;
	double (*ratio)[2];

	for (size_t i = 0; i < n; i++)
		nratio += t->m[i].ratio_num >= 0;
	ALLOC_ARRAY(ratio, st_add(nratio, 1));
	for (size_t i = 0; i < n; i++) {
		if (t->m[i].ratio_num < 0)
			continue;
		ratio[k][0] = ratio_mean(t, &t->m[i], 0);
		ratio[k++][1] = ratio_mean(t, &t->m[i], 1);
	}
	r->m = pv_calloc(st_add(n, 1), sizeof(*r->m));
	copy_context(r, t);
	for (size_t i = n; i-- > 0;) {
		static const double none[2] = { NAN, NAN };
		const struct pv_metric *m = &t->m[i];

		result_from_table(m, cfg, &r->settings.gate,
				  m->ratio_num >= 0 ? ratio[--k] : none,
				  &r->m[i], &assumed);
		r->m[i].points = i < t->npoints ? t->points[i] : NULL;
		if (i % TRIM_STEP == 0)
			pv_table_trim(t, i);
	}
	r->n = n;
	free(ratio);
	if (assumed) {
		struct strbuf names = STRBUF_INIT;

		pv_report_some_names(r, is_assumed, 3, &names);
		pv_policy_note_assumed(diag, assumed, names.buf);
		strbuf_release(&names);
	}
}

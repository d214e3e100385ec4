/*
 * history_json.c - the history report as JSON (schemas/history.schema.json),
 * through json.c's emitter (jw.h), with compare's names for what both
 * reports hold (test_id, warnings[] with each code's level).  Numbers
 * that are not finite are written as null.
 */
#include <math.h>
#include <string.h>
#include "history_writers.h"
#include "jw.h"
#include "writers.h"
#include "../util/banned.h"

static void write_cp(struct jw *w, const struct pv_history *h,
		     const struct pv_hist_cp *c)
{
	size_t first_recent = h->np > h->recent ? h->np - h->recent : 0;

	jw_begin(w, '{');
	JW_INT(w, "index", c->point);
	JW_STR(w, "label", h->p[c->point].label);
	if (h->p[c->point].commit)
		JW_STR(w, "commit", h->p[c->point].commit);
	JW_INT(w, "index_low", c->point_low);
	JW_INT(w, "index_high", c->point_high);
	JW_NUM(w, "before", c->before);
	JW_NUM(w, "after", c->after);
	JW_NUM(w, "rel", c->rel);
	JW_NUM(w, "ci_low", c->rel_low);
	JW_NUM(w, "ci_high", c->rel_high);
	JW_OPEN(w, "test", '{');
	JW_STR(w, "name", "segment-t");
	JW_NUM(w, "statistic", c->s.t);
	JW_NUM(w, "df", c->s.df);
	jw_close(w, '}');
	JW_NUM(w, "p_value", c->s.p);
	JW_NUM(w, "q_value", c->s.q);
	JW_BOOL(w, "commit_candidate", c->s.candidate);
	JW_STR(w, "verdict", pv_hist_status_name((enum pv_hist_status)c->verdict));
	JW_BOOL(w, "beyond_threshold", c->beyond);
	JW_BOOL(w, "recent", c->point >= first_recent);
	JW_BOOL(w, "waived", c->waiver != NULL);
	JW_BOOL(w, "fails_gate", c->fails);
	if (c->waiver) {
		JW_OPEN(w, "waiver", '{');
		JW_STR(w, "glob", c->waiver->glob);
		JW_STR(w, "until", c->waiver->until);
		JW_STR(w, "reason", c->waiver->reason);
		jw_close(w, '}');
	}
	jw_close(w, '}');
}

static void write_metric(struct jw *w, const struct pv_history *h,
			 const struct pv_hist_metric *m)
{
	strbuf_reset(w->tmp);
	strbuf_addf(w->tmp, "%s/%s/%s/%s/%s", m->suite, m->test, m->group,
		    m->benchmark, m->metric);
	jw_begin(w, '{');
	jw_metric_name(w, w->tmp->buf, m->suite, m->test, m->group,
		       m->benchmark, m->metric, m->unit, m->rule.direction,
		       m->rule.dir_assumed);
	if (m->rule.ignored)
		JW_BOOL(w, "ignored", 1);
	JW_NUM(w, "threshold", m->rule.threshold);
	JW_NUM(w, "abs_threshold", m->rule.abs_threshold);
	JW_NUM(w, "alpha", m->rule.alpha);
	JW_STR(w, "scale", m->logscale ? "log" : "linear");
	JW_NUM(w, "between_point_sd", m->sd);
	JW_NUM(w, "df", m->df);
	JW_INT(w, "clipped", m->nclipped);
	if (m->shared_weight != 0)
		JW_NUM(w, "shared_weight", m->shared_weight);
	JW_OPEN(w, "trend", '{');
	JW_NUM(w, "slope", m->trend.slope);
	JW_NUM(w, "rel_per_point", m->trend_rel);
	JW_NUM(w, "t", m->trend.t);
	JW_NUM(w, "df", m->trend.df);
	JW_NUM(w, "p_value", m->trend.p);
	JW_NUM(w, "q_value", m->trend.q);
	JW_BOOL(w, "significant", m->trend.significant);
	JW_BOOL(w, "replaced_steps", m->trend.replaced);
	jw_close(w, '}');
	JW_STR(w, "status", pv_hist_status_name(m->status));
	if (m->status_cp)
		JW_INT(w, "status_index", m->cp[m->status_cp - 1].point);
	else
		JW_STR(w, "status_index", NULL);
	if (m->watched) {
		/* the newest points' move, not confirmed yet */
		JW_OPEN(w, "watch", '{');
		JW_INT(w, "points", m->watch.k);
		JW_NUM(w, "before", m->watch_before);
		JW_NUM(w, "after", m->watch_after);
		JW_NUM(w, "rel", m->watch_rel);
		JW_NUM(w, "t", m->watch.t);
		JW_NUM(w, "df", m->watch.df);
		JW_NUM(w, "p_value", m->watch.p);
		JW_NUM(w, "q_value", m->watch.q);
		jw_close(w, '}');
	} else {
		JW_STR(w, "watch", NULL);
	}
	JW_OPEN(w, "series", '[');
	for (size_t j = 0; j < m->nobs; j++) {
		const struct pv_hist_obs *ob = &m->obs[j];

		jw_begin(w, '{');
		JW_INT(w, "index", ob->point);
		JW_INT(w, "n", ob->n);
		JW_NUM(w, "mean", ob->mean);
		JW_NUM(w, "sd", ob->sd);
		JW_NUM(w, "value", pv_hist_value(m, ob));
		jw_close(w, '}');
	}
	jw_close(w, ']');
	JW_OPEN(w, "change_points", '[');
	for (size_t j = 0; j < m->ncp; j++)
		write_cp(w, h, &m->cp[j]);
	jw_close(w, ']');
	jw_close(w, '}');
}

static void config_json(struct jw *w, const struct pv_history *h)
{
	JW_OPEN(w, "config", '{');
	JW_STR(w, "path", h->config_path);
	JW_STR(w, "suite", h->suite);
	JW_STR(w, "format", h->format);
	JW_STR(w, "order", h->order == PV_ORDER_TIME ? "time" : "name");
	JW_INT(w, "recent", h->recent);
	JW_NUM(w, "alpha", h->alpha);
	JW_STR(w, "method", "binary segmentation, segment t on clipped log point values, between-point sd moderated across metrics, Bonferroni over splits and metrics; at commits two or more metrics stepped at, over those commits and the metrics");
	jw_close(w, '}');
}

static void points_json(struct jw *w, const struct pv_history *h)
{
	JW_OPEN(w, "points", '[');
	for (size_t i = 0; i < h->np; i++) {
		const struct pv_hist_point *p = &h->p[i];

		jw_begin(w, '{');
		JW_INT(w, "index", i);
		JW_STR(w, "label", p->label);
		JW_STR(w, "kind", pv_point_kind_name(p->is_report));
		if (p->commit)
			JW_STR(w, "commit", p->commit);
		JW_STR(w, "time", p->time);
		JW_INT(w, "metrics", p->metrics);
		if (h->shared.applied)
			JW_NUM(w, "shared_effect", i < h->shared.np ?
			       expm1(h->shared.effect[i]) : NAN);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void summary_json(struct jw *w, const struct pv_history *h)
{
	size_t ncp = 0;

	for (size_t i = 0; i < h->nm; i++)
		ncp += h->m[i].ncp;
	JW_OPEN(w, "summary", '{');
	JW_INT(w, "metrics", h->nm);
	JW_INT(w, "change_points", ncp);
	for (int s = 0; s < PV_HS_COUNT; s++) {
		jw_key(w, pv_hist_status_name((enum pv_hist_status)s));
		jw_int(w, h->count[s]);
	}
	jw_close(w, '}');
}

int pv_write_history_json(const struct pv_history *h,
			  const struct pv_write_opts *o, FILE *fp,
			  struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	struct jw w = JW_INIT(&sb, &tmp, 2);
	int e = 0;

	jw_open(&w, '{');
	JW_INT(&w, "schema_version", PV_HISTORY_SCHEMA_VERSION);
	JW_STR(&w, "kind", "history");
	JW_OPEN(&w, "tool", '{');
	JW_STR(&w, "name", "perfverdict");
	JW_STR(&w, "version", h->tool_version);
	jw_close(&w, '}');
	JW_STR(&w, "generated_at", h->generated_at);
	JW_STR(&w, "archive", h->archive);
	config_json(&w, h);
	points_json(&w, h);
	summary_json(&w, h);
	JW_STR(&w, "verdict", h->fail ? "fail" : "pass");
	pv_jw_warnings(&w, h->warnings, h->warning_codes, h->nwarnings);
	JW_OPEN(&w, "metrics", '[');
	for (size_t i = 0; i < h->nm && !e; i++) {
		write_metric(&w, h, &h->m[i]);
		if (sb.len > (1 << 20))
			e = pv_jw_flush(&sb, fp);
	}
	jw_close(&w, ']');
	jw_close(&w, '}');
	strbuf_addch(&sb, '\n');
	if (!e)
		e = pv_jw_flush(&sb, fp);
	strbuf_release(&sb);
	strbuf_release(&tmp);
	return e ? pv_write_failed(o, e, err) : 0;
}

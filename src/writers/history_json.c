/*
 * history_json.c - the history report as JSON (schemas/history.schema.json).
 * Numbers that are not finite are written as null.
 */
#include <math.h>
#include <string.h>
#include "history_writers.h"
#include "writers.h"
#include "../util/text.h"
#include "../util/banned.h"

/* A string, or null. */
static void jstr(struct strbuf *sb, const char *s)
{
	if (s)
		pv_json_string(sb, s);
	else
		strbuf_addstr(sb, "null");
}

static void jkey(struct strbuf *sb, const char *k)
{
	jstr(sb, k);
	strbuf_addch(sb, ':');
}

static void jnum(struct strbuf *sb, double v)
{
	if (isfinite(v))
		pv_json_number(sb, v);
	else
		strbuf_addstr(sb, "null");
}

/* A comma, unless the object or array was just opened. */
static void sep(struct strbuf *sb)
{
	char last = sb->len ? sb->buf[sb->len - 1] : '{';

	if (last != '{' && last != '[')
		strbuf_addch(sb, ',');
}

static void kv_str(struct strbuf *sb, const char *k, const char *v)
{
	sep(sb);
	jkey(sb, k);
	jstr(sb, v);
}

static void kv_num(struct strbuf *sb, const char *k, double v)
{
	sep(sb);
	jkey(sb, k);
	jnum(sb, v);
}

static void kv_uint(struct strbuf *sb, const char *k, size_t v)
{
	sep(sb);
	jkey(sb, k);
	strbuf_addf(sb, "%zu", v);
}

static void kv_bool(struct strbuf *sb, const char *k, int v)
{
	sep(sb);
	jkey(sb, k);
	strbuf_addstr(sb, v ? "true" : "false");
}

/* "k":{ ... the caller closes it */
static void kv_open(struct strbuf *sb, const char *k, char c)
{
	sep(sb);
	jkey(sb, k);
	strbuf_addch(sb, c);
}

static void write_cp(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_cp *c)
{
	size_t first_recent = h->np > h->recent ? h->np - h->recent : 0;

	strbuf_addch(sb, '{');
	kv_uint(sb, "index", c->point);
	kv_str(sb, "label", h->p[c->point].label);
	if (h->p[c->point].commit)
		kv_str(sb, "commit", h->p[c->point].commit);
	kv_uint(sb, "index_low", c->point_low);
	kv_uint(sb, "index_high", c->point_high);
	kv_num(sb, "before", c->before);
	kv_num(sb, "after", c->after);
	kv_num(sb, "rel", c->rel);
	kv_num(sb, "ci_low", c->rel_low);
	kv_num(sb, "ci_high", c->rel_high);
	kv_open(sb, "test", '{');
	kv_str(sb, "name", "segment-t");
	kv_num(sb, "statistic", c->s.t);
	kv_num(sb, "df", c->s.df);
	strbuf_addch(sb, '}');
	kv_num(sb, "p_value", c->s.p);
	kv_num(sb, "q_value", c->s.q);
	kv_str(sb, "verdict", pv_hist_status_name((enum pv_hist_status)c->verdict));
	kv_bool(sb, "beyond_threshold", c->beyond);
	kv_bool(sb, "recent", c->point >= first_recent);
	kv_bool(sb, "waived", c->waiver != NULL);
	kv_bool(sb, "fails_gate", c->fails);
	if (c->waiver) {
		kv_open(sb, "waiver", '{');
		kv_str(sb, "glob", c->waiver->glob);
		kv_str(sb, "until", c->waiver->until);
		kv_str(sb, "reason", c->waiver->reason);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, '}');
}

static void write_metric(struct strbuf *sb, const struct pv_history *h,
			 const struct pv_hist_metric *m)
{
	struct strbuf id = STRBUF_INIT;

	strbuf_addf(&id, "%s/%s/%s/%s/%s", m->suite, m->test, m->group,
		    m->benchmark, m->metric);
	strbuf_addch(sb, '{');
	kv_str(sb, "id", id.buf);
	strbuf_release(&id);
	kv_str(sb, "suite", m->suite);
	kv_str(sb, "test", m->test);
	kv_str(sb, "group", m->group);
	kv_str(sb, "benchmark", m->benchmark);
	kv_str(sb, "metric", m->metric);
	kv_str(sb, "unit", m->unit);
	kv_str(sb, "direction", pv_dir_name(m->rule.direction));
	kv_bool(sb, "direction_assumed", m->rule.dir_assumed);
	if (m->rule.ignored)
		kv_bool(sb, "ignored", 1);
	kv_num(sb, "threshold", m->rule.threshold);
	kv_num(sb, "abs_threshold", m->rule.abs_threshold);
	kv_num(sb, "alpha", m->rule.alpha);
	kv_str(sb, "scale", m->logscale ? "log" : "linear");
	kv_num(sb, "between_point_sd", m->sd);
	kv_num(sb, "df", m->df);
	kv_uint(sb, "clipped", m->nclipped);
	kv_open(sb, "trend", '{');
	kv_num(sb, "slope", m->trend.slope);
	kv_num(sb, "rel_per_point", m->trend_rel);
	kv_num(sb, "t", m->trend.t);
	kv_num(sb, "df", m->trend.df);
	kv_num(sb, "p_value", m->trend.p);
	kv_num(sb, "q_value", m->trend.q);
	kv_bool(sb, "significant", m->trend.significant);
	kv_bool(sb, "replaced_steps", m->trend.replaced);
	strbuf_addch(sb, '}');
	kv_str(sb, "status", pv_hist_status_name(m->status));
	if (m->status_cp)
		kv_uint(sb, "status_index", m->cp[m->status_cp - 1].point);
	else
		kv_str(sb, "status_index", NULL);
	kv_open(sb, "series", '[');
	for (size_t j = 0; j < m->nobs; j++) {
		const struct pv_hist_obs *ob = &m->obs[j];

		sep(sb);
		strbuf_addch(sb, '{');
		kv_uint(sb, "index", ob->point);
		kv_uint(sb, "n", ob->n);
		kv_num(sb, "mean", ob->mean);
		kv_num(sb, "sd", ob->sd);
		kv_num(sb, "value", m->logscale ? exp(ob->value) : ob->value);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
	kv_open(sb, "change_points", '[');
	for (size_t j = 0; j < m->ncp; j++) {
		sep(sb);
		write_cp(sb, h, &m->cp[j]);
	}
	strbuf_addstr(sb, "]}");
}

int pv_write_history_json(const struct pv_history *h, FILE *fp,
			  struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t ncp = 0;
	int rc = 0;

	for (size_t i = 0; i < h->nm; i++)
		ncp += h->m[i].ncp;
	strbuf_addstr(&sb, "{\n");
	strbuf_addf(&sb, "\"schema_version\":%d,\n", PV_HISTORY_SCHEMA_VERSION);
	strbuf_addstr(&sb, "\"kind\":\"history\",\n");
	strbuf_addstr(&sb, "\"tool\":{\"name\":\"perfverdict\",\"version\":");
	jstr(&sb, h->tool_version);
	strbuf_addstr(&sb, "},\n\"generated_at\":");
	jstr(&sb, h->generated_at);
	strbuf_addstr(&sb, ",\n\"archive\":");
	jstr(&sb, h->archive);
	strbuf_addstr(&sb, ",\n\"config\":{\"path\":");
	jstr(&sb, h->config_path);
	strbuf_addstr(&sb, ",\"suite\":");
	jstr(&sb, h->suite);
	strbuf_addstr(&sb, ",\"format\":");
	jstr(&sb, h->format);
	strbuf_addstr(&sb, ",\"order\":");
	jstr(&sb, h->order == PV_ORDER_TIME ? "time" : "name");
	strbuf_addf(&sb, ",\"recent\":%zu,\"alpha\":", h->recent);
	jnum(&sb, h->alpha);
	strbuf_addstr(&sb, ",\"method\":\"binary segmentation, segment t on clipped log point values, between-point sd moderated across metrics, Bonferroni over splits and metrics\"},\n");
	strbuf_addstr(&sb, "\"points\":[");
	for (size_t i = 0; i < h->np; i++) {
		const struct pv_hist_point *p = &h->p[i];

		strbuf_addstr(&sb, i ? ",\n{" : "\n{");
		strbuf_addf(&sb, "\"index\":%zu,\"label\":", i);
		jstr(&sb, p->label);
		strbuf_addstr(&sb, ",\"kind\":");
		jstr(&sb, p->is_report ? "report" : "tree");
		if (p->commit) {
			strbuf_addstr(&sb, ",\"commit\":");
			jstr(&sb, p->commit);
		}
		strbuf_addstr(&sb, ",\"time\":");
		jstr(&sb, p->time);
		strbuf_addf(&sb, ",\"metrics\":%zu}", p->metrics);
	}
	strbuf_addstr(&sb, "],\n\"summary\":{");
	strbuf_addf(&sb, "\"metrics\":%zu,\"change_points\":%zu", h->nm, ncp);
	for (int s = 0; s < PV_HS_COUNT; s++)
		strbuf_addf(&sb, ",\"%s\":%zu", pv_hist_status_name((enum pv_hist_status)s),
			    h->count[s]);
	strbuf_addstr(&sb, "},\n\"verdict\":");
	jstr(&sb, h->fail ? "fail" : "pass");
	strbuf_addstr(&sb, ",\n\"warnings\":[");
	for (size_t i = 0; i < h->nwarnings; i++) {
		strbuf_addstr(&sb, i ? ",{\"code\":" : "{\"code\":");
		jstr(&sb, h->warning_codes ? h->warning_codes[i] : "uncoded");
		strbuf_addstr(&sb, ",\"level\":\"warning\",\"message\":");
		jstr(&sb, h->warnings[i]);
		strbuf_addch(&sb, '}');
	}
	strbuf_addstr(&sb, "],\n\"metrics\":[");
	for (size_t i = 0; i < h->nm; i++) {
		strbuf_addstr(&sb, i ? ",\n" : "\n");
		write_metric(&sb, h, &h->m[i]);
		if (sb.len > (1 << 20)) {
			if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
				rc = -1;
			strbuf_reset(&sb);
		}
	}
	strbuf_addstr(&sb, "]\n}\n");
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = -1;
	strbuf_release(&sb);
	if (rc)
		return pv_error(err, PV_M_CANNOT_WRITE, "cannot write the history JSON");
	return 0;
}

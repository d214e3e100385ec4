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

static void jstr(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	size_t len;

	if (!s) {
		strbuf_addstr(sb, "null");
		return;
	}
	len = strlen(s);
	if (!pv_text_is_clean(s, len)) {
		pv_text_clean(&clean, s, len);
		s = clean.buf;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
		} else if (c < 0x20) {
			strbuf_addf(sb, "\\u%04x", c);
		} else {
			strbuf_addch(sb, c);
		}
	}
	strbuf_addch(sb, '"');
	strbuf_release(&clean);
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

static const char *dir_name(enum pv_dir d)
{
	return pv_dir_name(d);
}

static void write_cp(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c)
{
	size_t first_recent = h->np > h->recent ? h->np - h->recent : 0;

	strbuf_addstr(sb, "{");
	jkey(sb, "index");
	strbuf_addf(sb, "%zu,", c->point);
	jkey(sb, "label");
	jstr(sb, h->p[c->point].label);
	strbuf_addstr(sb, ",");
	if (h->p[c->point].commit) {
		jkey(sb, "commit");
		jstr(sb, h->p[c->point].commit);
		strbuf_addstr(sb, ",");
	}
	jkey(sb, "index_low");
	strbuf_addf(sb, "%zu,", c->point_low);
	jkey(sb, "index_high");
	strbuf_addf(sb, "%zu,", c->point_high);
	jkey(sb, "before");
	jnum(sb, c->before);
	strbuf_addstr(sb, ",");
	jkey(sb, "after");
	jnum(sb, c->after);
	strbuf_addstr(sb, ",");
	jkey(sb, "rel");
	jnum(sb, c->rel);
	strbuf_addstr(sb, ",");
	jkey(sb, "ci_low");
	jnum(sb, c->rel_low);
	strbuf_addstr(sb, ",");
	jkey(sb, "ci_high");
	jnum(sb, c->rel_high);
	strbuf_addstr(sb, ",");
	jkey(sb, "test");
	strbuf_addstr(sb, "{\"name\":\"segment-t\",\"statistic\":");
	jnum(sb, c->s.t);
	strbuf_addstr(sb, ",\"df\":");
	jnum(sb, c->s.df);
	strbuf_addstr(sb, "},");
	jkey(sb, "p_value");
	jnum(sb, c->s.p);
	strbuf_addstr(sb, ",");
	jkey(sb, "q_value");
	jnum(sb, c->s.q);
	strbuf_addstr(sb, ",");
	jkey(sb, "verdict");
	jstr(sb, pv_hist_status_name((enum pv_hist_status)c->verdict));
	strbuf_addstr(sb, ",");
	jkey(sb, "beyond_threshold");
	strbuf_addstr(sb, c->beyond ? "true," : "false,");
	jkey(sb, "recent");
	strbuf_addstr(sb, c->point >= first_recent ? "true," : "false,");
	jkey(sb, "waived");
	strbuf_addstr(sb, c->waiver ? "true" : "false");
	if (c->waiver) {
		strbuf_addstr(sb, ",");
		jkey(sb, "waiver");
		strbuf_addstr(sb, "{");
		jkey(sb, "glob");
		jstr(sb, c->waiver->glob);
		strbuf_addstr(sb, ",");
		jkey(sb, "until");
		jstr(sb, c->waiver->until);
		strbuf_addstr(sb, ",");
		jkey(sb, "reason");
		jstr(sb, c->waiver->reason);
		strbuf_addstr(sb, "}");
	}
	(void)m;
	strbuf_addstr(sb, "}");
}

static void write_metric(struct strbuf *sb, const struct pv_history *h,
			 const struct pv_hist_metric *m)
{
	strbuf_addstr(sb, "{");
	jkey(sb, "id");
	{
		struct strbuf id = STRBUF_INIT;

		strbuf_addf(&id, "%s/%s/%s/%s/%s", m->suite, m->test, m->group,
			    m->benchmark, m->metric);
		jstr(sb, id.buf);
		strbuf_release(&id);
	}
	strbuf_addstr(sb, ",");
	jkey(sb, "suite"); jstr(sb, m->suite); strbuf_addstr(sb, ",");
	jkey(sb, "test"); jstr(sb, m->test); strbuf_addstr(sb, ",");
	jkey(sb, "group"); jstr(sb, m->group); strbuf_addstr(sb, ",");
	jkey(sb, "benchmark"); jstr(sb, m->benchmark); strbuf_addstr(sb, ",");
	jkey(sb, "metric"); jstr(sb, m->metric); strbuf_addstr(sb, ",");
	jkey(sb, "unit"); jstr(sb, m->unit); strbuf_addstr(sb, ",");
	jkey(sb, "direction"); jstr(sb, dir_name(m->direction));
	strbuf_addstr(sb, ",");
	jkey(sb, "direction_assumed");
	strbuf_addstr(sb, m->dir_assumed ? "true," : "false,");
	jkey(sb, "threshold"); jnum(sb, m->threshold); strbuf_addstr(sb, ",");
	jkey(sb, "scale"); jstr(sb, m->logscale ? "log" : "linear");
	strbuf_addstr(sb, ",");
	jkey(sb, "between_point_sd"); jnum(sb, m->sd); strbuf_addstr(sb, ",");
	jkey(sb, "df"); jnum(sb, m->df); strbuf_addstr(sb, ",");
	jkey(sb, "clipped"); strbuf_addf(sb, "%zu,", m->nclipped);
	jkey(sb, "status"); jstr(sb, pv_hist_status_name(m->status));
	strbuf_addstr(sb, ",");
	jkey(sb, "status_index");
	if (m->status_cp)
		strbuf_addf(sb, "%zu,", m->cp[m->status_cp - 1].point);
	else
		strbuf_addstr(sb, "null,");
	jkey(sb, "series");
	strbuf_addstr(sb, "[");
	for (size_t j = 0; j < m->nobs; j++) {
		const struct pv_hist_obs *ob = &m->obs[j];

		strbuf_addstr(sb, j ? ",{" : "{");
		jkey(sb, "index");
		strbuf_addf(sb, "%u,", ob->point);
		jkey(sb, "n");
		strbuf_addf(sb, "%u,", ob->n);
		jkey(sb, "mean");
		jnum(sb, ob->mean);
		strbuf_addstr(sb, ",");
		jkey(sb, "sd");
		jnum(sb, ob->sd);
		strbuf_addstr(sb, ",");
		jkey(sb, "value");
		jnum(sb, m->logscale ? exp(ob->value) : ob->value);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, "],");
	jkey(sb, "change_points");
	strbuf_addstr(sb, "[");
	for (size_t j = 0; j < m->ncp; j++) {
		if (j)
			strbuf_addstr(sb, ",");
		write_cp(sb, h, m, &m->cp[j]);
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

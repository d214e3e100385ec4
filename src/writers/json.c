/*
 * json.c - the archived JSON report (schemas/report.schema.json).
 *
 * The top-level object is written key by key and the metrics array is
 * streamed: each metric is built as a jansson object, dumped on its own
 * line and freed, so memory does not grow with the report.  Every value
 * is encoded by jansson.  Doubles use 17 significant digits so they read
 * back bit-exact; values that are not finite are written as null.
 */
#include "writers.h"

#include <jansson.h>
#include <math.h>
#include <string.h>
#include "../util/strbuf.h"
#include "../util/text.h"

#define DUMP_FLAGS (JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

/* A string jansson accepts: valid UTF-8, no control characters. */
static json_t *jstr(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (!s)
		return json_null();
	if (pv_text_is_clean(s, strlen(s)))
		return json_string(s);
	pv_text_clean(&sb, s, strlen(s));
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j;
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jsize(size_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *side_json(const struct pv_side_result *s)
{
	json_t *o = json_object(), *samples = json_array();

	json_object_set_new(o, "n", jsize(s->s.n));
	json_object_set_new(o, "mean", jnum(s->s.mean));
	json_object_set_new(o, "sd", jnum(s->s.sd));
	json_object_set_new(o, "cv", jnum(s->s.cv));
	json_object_set_new(o, "median", jnum(s->s.median));
	json_object_set_new(o, "min", jnum(s->s.min));
	json_object_set_new(o, "max", jnum(s->s.max));
	json_object_set_new(o, "present", json_boolean(s->present));
	json_object_set_new(o, "files", jsize(s->files));
	json_object_set_new(o, "per_file", jsize(s->per_file));
	json_object_set_new(o, "note", jstr(s->note));
	for (size_t i = 0; i < s->nsamples; i++)
		json_array_append_new(samples, jnum(s->samples[i]));
	json_object_set_new(o, "samples", samples);
	return o;
}

static json_t *metric_json(const struct pv_report *r, const struct pv_result *m)
{
	json_t *o = json_object(), *ch = json_object(), *t = json_object();

	json_object_set_new(o, "id", jstr(m->id));
	json_object_set_new(o, "suite", jstr(m->suite));
	json_object_set_new(o, "test", jstr(m->test));
	json_object_set_new(o, "group", jstr(m->group));
	json_object_set_new(o, "benchmark", jstr(m->benchmark));
	json_object_set_new(o, "metric", jstr(m->metric));
	json_object_set_new(o, "unit", jstr(m->unit));
	json_object_set_new(o, "direction", jstr(pv_dir_name(m->direction)));
	json_object_set_new(o, "direction_assumed", json_boolean(m->dir_assumed));
	json_object_set_new(o, "gated", json_boolean(m->gated));
	json_object_set_new(o, "ratio", json_boolean(m->ratio));
	json_object_set_new(o, "baseline", side_json(&m->side[0]));
	json_object_set_new(o, "candidate", side_json(&m->side[1]));
	json_object_set_new(ch, "abs", jnum(m->change_abs));
	json_object_set_new(ch, "rel", jnum(m->change_rel));
	json_object_set_new(ch, "ci_low", jnum(m->ci_low));
	json_object_set_new(ch, "ci_high", jnum(m->ci_high));
	json_object_set_new(ch, "ci_level", jnum(1 - m->alpha));
	json_object_set_new(ch, "mde", jnum(m->mde));
	json_object_set_new(o, "change", ch);
	json_object_set_new(t, "name", m->tested ?
			    jstr(pv_test_name(m->test_used)) : json_null());
	json_object_set_new(t, "sided", jstr(pv_sided_name(m->sided)));
	json_object_set_new(t, "correction",
			    jstr(pv_correction_name(r->settings.gate.correction)));
	json_object_set_new(t, "statistic", jnum(m->statistic));
	json_object_set_new(t, "df", jnum(m->df));
	json_object_set_new(t, "p_value", jnum(m->p));
	json_object_set_new(o, "test", t);
	json_object_set_new(o, "q_value", jnum(m->q));
	json_object_set_new(o, "threshold", jnum(m->threshold));
	json_object_set_new(o, "abs_threshold", jnum(m->abs_threshold));
	json_object_set_new(o, "alpha", jnum(m->alpha));
	json_object_set_new(o, "verdict", jstr(pv_verdict_name(m->verdict)));
	json_object_set_new(o, "reason", jstr(m->reason));
	return o;
}

static json_t *config_json(const struct pv_report *r)
{
	const struct pv_settings *s = &r->settings;
	const struct pv_gate *g = &s->gate;
	json_t *o = json_object();

	json_object_set_new(o, "path", jstr(s->config_path));
	json_object_set_new(o, "suite", jstr(s->suite));
	json_object_set_new(o, "format", jstr(s->format ? s->format : "auto"));
	json_object_set_new(o, "alpha", json_real(g->alpha));
	json_object_set_new(o, "test", jstr(pv_test_name(g->test)));
	json_object_set_new(o, "correction", jstr(pv_correction_name(g->correction)));
	json_object_set_new(o, "sided", jstr(pv_sided_name(g->sided)));
	json_object_set_new(o, "threshold", json_real(g->threshold));
	json_object_set_new(o, "min_samples", json_integer(g->min_samples));
	json_object_set_new(o, "max_cv", json_real(g->max_cv));
	json_object_set_new(o, "missing", jstr(pv_policy_name(g->missing)));
	json_object_set_new(o, "new", jstr(pv_policy_name(g->new_)));
	json_object_set_new(o, "inconclusive", jstr(pv_policy_name(g->inconclusive)));
	json_object_set_new(o, "direction", jstr(pv_dir_name(g->direction)));
	json_object_set_new(o, "markdown_limit", json_integer(s->markdown_limit));
	return o;
}

static json_t *sidemeta_json(const struct pv_sidemeta *sm)
{
	json_t *o = json_object(), *ctx = json_object();

	json_object_set_new(o, "path", jstr(sm->path));
	json_object_set_new(o, "files", jsize(sm->files));
	json_object_set_new(o, "runs", jsize(sm->runs));
	for (size_t i = 0; i < sm->ncontext; i++) {
		struct strbuf key = STRBUF_INIT;

		pv_text_clean(&key, sm->context[i].key, strlen(sm->context[i].key));
		json_object_set_new(ctx, key.buf, jstr(sm->context[i].value));
		strbuf_release(&key);
	}
	json_object_set_new(o, "context", ctx);
	return o;
}

static json_t *summary_json(const struct pv_report *r)
{
	static const struct { const char *key; enum pv_verdict v; } keys[] = {
		{ "regressions", PV_V_REGRESSION },
		{ "improvements", PV_V_IMPROVEMENT },
		{ "unchanged", PV_V_UNCHANGED },
		{ "inconclusive", PV_V_INCONCLUSIVE },
		{ "noisy", PV_V_NOISY },
		{ "insufficient", PV_V_INSUFFICIENT },
		{ "missing", PV_V_MISSING },
		{ "new", PV_V_NEW },
		{ "waived", PV_V_WAIVED },
	};
	json_t *o = json_object();

	json_object_set_new(o, "metrics", jsize(r->n));
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		json_object_set_new(o, keys[i].key, jsize(r->count[keys[i].v]));
	return o;
}

/* Write `"key": value` (dumped by jansson) and steal value. */
static int put(FILE *fp, const char *key, json_t *value, int first)
{
	char *text = json_dumps(value, DUMP_FLAGS | JSON_INDENT(2));
	int rc = -1;

	if (text) {
		/* Indent nested lines by one level to sit inside the object. */
		fprintf(fp, "%s\n  \"%s\": ", first ? "" : ",", key);
		for (const char *p = text; *p; p++) {
			fputc(*p, fp);
			if (*p == '\n')
				fputs("  ", fp);
		}
		rc = 0;
	}
	free(text);
	json_decref(value);
	return rc;
}

int pv_write_json(const struct pv_report *r, FILE *fp, struct pv_err *err)
{
	json_t *tool = json_object(), *warnings = json_array();
	int rc = 0;

	json_object_set_new(tool, "name", json_string("perfverdict"));
	json_object_set_new(tool, "version", jstr(r->tool_version));
	for (size_t i = 0; i < r->nwarnings; i++)
		json_array_append_new(warnings, jstr(r->warnings[i]));

	fputc('{', fp);
	rc |= put(fp, "schema_version", json_integer(PV_SCHEMA_VERSION), 1);
	rc |= put(fp, "tool", tool, 0);
	rc |= put(fp, "generated_at", jstr(r->generated_at), 0);
	rc |= put(fp, "config", config_json(r), 0);
	rc |= put(fp, "baseline", sidemeta_json(&r->side[0]), 0);
	rc |= put(fp, "candidate", sidemeta_json(&r->side[1]), 0);
	rc |= put(fp, "summary", summary_json(r), 0);
	rc |= put(fp, "verdict", json_string(r->fail ? "fail" : "pass"), 0);
	rc |= put(fp, "warnings", warnings, 0);
	fputs(",\n  \"metrics\": [", fp);
	for (size_t i = 0; i < r->n && !rc; i++) {
		json_t *m = metric_json(r, &r->m[i]);
		char *text = json_dumps(m, DUMP_FLAGS | JSON_COMPACT);

		if (!text)
			rc = -1;
		else
			fprintf(fp, "%s\n    %s", i ? "," : "", text);
		free(text);
		json_decref(m);
	}
	fputs(r->n ? "\n  ]\n}\n" : "]\n}\n", fp);
	if (rc)
		return pv_error(err, PV_EINPUT, "cannot encode the JSON report");
	if (ferror(fp))
		return pv_error(err, PV_EUSAGE, "cannot write the JSON report");
	return 0;
}

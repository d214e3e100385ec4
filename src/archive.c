/*
 * archive.c - the JSON report read back with jansson; see archive.h.
 */
#include "archive.h"

#include <stdint.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "readers/jsonutil.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* Reports are read whole, from a regular file only, like result files
 * but following a symlink (the user named it); the limit is
 * limits.max_file_size's default. */
static const struct pv_read_spec report_file = {
	.expect = "a JSON report", .max = (size_t)1 << 30,
	.status = PV_EINPUT,
};

struct rd {
	struct pv_report *r;
	const char *path;
	struct pv_err *err;
	char where[256];        /* the JSON path being read */
	int failed;
};

static int bad(struct rd *d, const char *key, const char *expected)
{
	if (!d->failed)
		pv_error(d->err, PV_M_BAD_REPORT, "%s: %s%s%s: expected %s", d->path,
			 d->where, *d->where && key ? "." : "", key ? key : "",
			 expected);
	d->failed = 1;
	return -1;
}

static const char *get_str(struct rd *d, json_t *o, const char *key,
			   int nullable)
{
	json_t *v = json_object_get(o, key);

	if (nullable && (!v || json_is_null(v)))
		return NULL;
	if (!json_is_string(v)) {
		bad(d, key, nullable ? "a string or null" : "a string");
		return NULL;
	}
	return arena_strdup(&d->r->arena, json_string_value(v));
}

static double num_of(json_t *v, int *ok)
{
	*ok = 1;
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_null(v))
		return NAN;
	*ok = 0;
	return NAN;
}

static double get_num(struct rd *d, json_t *o, const char *key)
{
	int ok;
	double v = num_of(json_object_get(o, key), &ok);

	if (!ok)
		bad(d, key, "a number or null");
	return v;
}

static size_t get_count(struct rd *d, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		bad(d, key, "a non-negative integer");
		return 0;
	}
	return (size_t)json_integer_value(v);
}

static int get_bool(struct rd *d, json_t *o, const char *key, int dflt)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return dflt;
	if (!json_is_boolean(v))
		return bad(d, key, "true or false"), dflt;
	return json_is_true(v);
}

static json_t *get_obj(struct rd *d, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_object(v))
		bad(d, key, "an object");
	return v;
}

#define ENUM(d, o, key, parse, out) do { \
	const char *s_ = get_str(d, o, key, 0); \
	if (s_ && parse(s_, out)) \
		bad(d, key, "one of the documented names"); \
} while (0)

static int parse_policy_any(const char *s, enum pv_policy *p)
{
	static const char *const names[] = { "fail", "warn", "ignore" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i]))
			return *p = (enum pv_policy)i, 0;
	return -1;
}

static void read_config(struct rd *d, json_t *c)
{
	struct pv_settings *s = &d->r->settings;
	struct pv_gate *g = &s->gate;

	snprintf(d->where, sizeof(d->where), "config");
	s->config_path = get_str(d, c, "path", 1);
	s->suite = get_str(d, c, "suite", 0);
	s->format = get_str(d, c, "format", 0);
	g->alpha = get_num(d, c, "alpha");
	ENUM(d, c, "test", pv_parse_test, &g->test);
	ENUM(d, c, "correction", pv_parse_correction, &g->correction);
	ENUM(d, c, "sided", pv_parse_sided, &g->sided);
	g->threshold = get_num(d, c, "threshold");
	g->min_samples = (unsigned)get_count(d, c, "min_samples");
	g->max_cv = get_num(d, c, "max_cv");
	ENUM(d, c, "missing", parse_policy_any, &g->missing);
	ENUM(d, c, "new", parse_policy_any, &g->new_);
	ENUM(d, c, "inconclusive", parse_policy_any, &g->inconclusive);
	if (json_object_get(c, "insufficient"))
		ENUM(d, c, "insufficient", parse_policy_any, &g->insufficient);
	ENUM(d, c, "direction", pv_parse_dir, &g->direction);
	s->markdown_limit = (unsigned)get_count(d, c, "markdown_limit");
}

/* config.waivers (schema version 2; a version 1 report has none). */
static void read_waivers(struct rd *d, json_t *c, int version)
{
	struct pv_settings *s = &d->r->settings;
	json_t *a = json_object_get(c, "waivers"), *o;
	struct pv_waiver *w;
	size_t i;

	if (!a && version < 2)
		return;
	snprintf(d->where, sizeof(d->where), "config");
	if (!json_is_array(a)) {
		bad(d, "waivers", "an array");
		return;
	}
	s->nwaivers = json_array_size(a);
	w = arena_alloc(&d->r->arena, st_mult(st_add(s->nwaivers, 1), sizeof(*w)));
	memset(w, 0, (s->nwaivers + 1) * sizeof(*w));
	s->waivers = w;
	json_array_foreach(a, i, o) {
		const char *until;

		snprintf(d->where, sizeof(d->where), "config.waivers[%zu]", i);
		if (!json_is_object(o)) {
			bad(d, NULL, "an object {glob, until, reason}");
			return;
		}
		w[i].glob = (char *)get_str(d, o, "glob", 0);
		w[i].reason = (char *)get_str(d, o, "reason", 0);
		until = get_str(d, o, "until", 0);
		if (d->failed)
			return;
		if (!pv_valid_date(until)) {
			bad(d, "until", "a date YYYY-MM-DD");
			return;
		}
		memcpy(w[i].until, until, sizeof(w[i].until));
	}
}

/* baseline.pooled_points (compare --baseline-history; version 2). */
static void read_pooled(struct rd *d, json_t *t)
{
	json_t *a = json_object_get(t, "pooled_points"), *e;
	struct pv_pooled_point *p;
	size_t i;

	if (!a)
		return;
	if (!json_is_array(a)) {
		bad(d, "pooled_points", "an array");
		return;
	}
	p = arena_alloc(&d->r->arena,
			st_mult(st_add(json_array_size(a), 1), sizeof(*p)));
	json_array_foreach(a, i, e) {
		snprintf(d->where, sizeof(d->where), "baseline.pooled_points[%zu]", i);
		if (!json_is_object(e)) {
			bad(d, NULL, "an object");
			return;
		}
		p[i].label = get_str(d, e, "label", 0);
		p[i].commit = get_str(d, e, "commit", 1);
		p[i].age = get_count(d, e, "age");
		p[i].metrics = get_count(d, e, "metrics");
	}
	d->r->pooled = p;
	d->r->npooled = json_array_size(a);
}

static void read_tree(struct rd *d, json_t *t, const char *name,
		      struct pv_sidemeta *sm, const char **label)
{
	json_t *ctx, *v;
	const char *k;

	snprintf(d->where, sizeof(d->where), "%s", name);
	sm->path = get_str(d, t, "path", 1);
	*label = get_str(d, t, "label", 1);     /* version 2 */
	sm->files = get_count(d, t, "files");
	sm->runs = get_count(d, t, "runs");
	ctx = get_obj(d, t, "context");
	if (!ctx)
		return;
	sm->ncontext = 0;
	sm->alloc_context = json_object_size(ctx) + 1;
	sm->context = pv_calloc(sm->alloc_context, sizeof(*sm->context));
	json_object_foreach(ctx, k, v) {
		if (!json_is_string(v)) {
			bad(d, "context", "string values");
			return;
		}
		sm->context[sm->ncontext].key = arena_strdup(&d->r->arena, k);
		sm->context[sm->ncontext++].value =
			arena_strdup(&d->r->arena, json_string_value(v));
	}
}

static void read_side(struct rd *d, json_t *s, struct pv_side_result *out)
{
	json_t *samples = json_object_get(s, "samples");
	size_t n = get_count(d, s, "n");
	double *v;

	if (n > UINT32_MAX || json_array_size(samples) > UINT32_MAX) {
		bad(d, "n", "fewer than 2^32 samples");
		return;
	}
	out->s.n = (uint32_t)n;
	out->s.mean = get_num(d, s, "mean");
	out->s.sd = get_num(d, s, "sd");
	out->present = get_bool(d, s, "present", out->s.n > 0);
	out->files = json_object_get(s, "files") ?
		     (unsigned)get_count(d, s, "files") : 0;
	out->per_file = json_object_get(s, "per_file") ?
			(unsigned)get_count(d, s, "per_file") : 1;
	out->note = get_str(d, s, "note", 1);
	out->summary_only = get_bool(d, s, "summary_only", 0);
	if (!json_is_array(samples)) {
		bad(d, "samples", "an array of numbers");
		return;
	}
	out->nsamples = (uint32_t)json_array_size(samples);
	v = arena_alloc(&d->r->arena,
			st_mult(st_add(out->nsamples, 1), sizeof(*v)));
	for (size_t i = 0; i < out->nsamples; i++) {
		int ok;

		v[i] = num_of(json_array_get(samples, i), &ok);
		if (!ok || isnan(v[i])) {
			bad(d, "samples", "an array of finite numbers");
			return;
		}
	}
	out->samples = v;
	if (out->summary_only && out->nsamples)
		bad(d, "samples", "an empty array (summary_only)");
	else if (out->summary_only && out->s.n >= 2 &&
		 (!isfinite(out->s.mean) || !(out->s.sd >= 0)))
		bad(d, "sd", "a number >= 0 with a finite mean (summary_only)");
	else if (!out->summary_only && out->nsamples != out->s.n)
		bad(d, "n", "the number of samples");
}

static void read_metric(struct rd *d, json_t *m, size_t i,
			struct pv_result *res)
{
	json_t *side, *ch, *t;
	const char *name;

	snprintf(d->where, sizeof(d->where), "metrics[%zu]", i);
	if (!json_is_object(m)) {
		bad(d, NULL, "an object");
		return;
	}
	if (!get_str(d, m, "id", 0))
		return;
	res->suite = get_str(d, m, "suite", 0);
	res->test = get_str(d, m, "test_id", 0);
	res->group = get_str(d, m, "group", 0);
	res->benchmark = get_str(d, m, "benchmark", 0);
	res->metric = get_str(d, m, "metric", 0);
	res->unit = get_str(d, m, "unit", 0);
	ENUM(d, m, "direction", pv_parse_dir, &res->direction);
	res->dir_assumed = get_bool(d, m, "direction_assumed", 0);
	res->gated = get_bool(d, m, "gated", res->direction == PV_DIR_LOWER ||
			      res->direction == PV_DIR_HIGHER);
	res->ratio = get_bool(d, m, "ratio", 0);
	res->ignored = get_bool(d, m, "ignored", 0);
	if (res->ignored)
		res->gated = 0;
	if ((side = get_obj(d, m, "baseline"))) {
		snprintf(d->where, sizeof(d->where), "metrics[%zu].baseline", i);
		read_side(d, side, &res->side[0]);
	}
	snprintf(d->where, sizeof(d->where), "metrics[%zu]", i);
	if ((side = get_obj(d, m, "candidate"))) {
		snprintf(d->where, sizeof(d->where), "metrics[%zu].candidate", i);
		read_side(d, side, &res->side[1]);
	}
	snprintf(d->where, sizeof(d->where), "metrics[%zu]", i);
	if ((ch = get_obj(d, m, "change"))) {
		snprintf(d->where, sizeof(d->where), "metrics[%zu].change", i);
		res->change_abs = get_num(d, ch, "abs");
		res->change_rel = get_num(d, ch, "rel");
		res->ci_low = get_num(d, ch, "ci_low");
		res->ci_high = get_num(d, ch, "ci_high");
		res->mde = json_object_get(ch, "mde") ? get_num(d, ch, "mde") : NAN;
	}
	snprintf(d->where, sizeof(d->where), "metrics[%zu]", i);
	if ((t = get_obj(d, m, "test"))) {
		snprintf(d->where, sizeof(d->where), "metrics[%zu].test", i);
		name = get_str(d, t, "name", 1);
		res->tested = name != NULL;
		if (name && strcmp(name, "yuen") && strcmp(name, "history") &&
		    pv_parse_test(name, &res->test_used))
			bad(d, "name", "a test name");
		else if (name && !strcmp(name, "yuen"))
			res->test_used = PV_TEST_YUEN;
		ENUM(d, t, "sided", pv_parse_sided, &res->sided);
		res->statistic = get_num(d, t, "statistic");
		res->df = get_num(d, t, "df");
		res->p = get_num(d, t, "p_value");
	}
	snprintf(d->where, sizeof(d->where), "metrics[%zu]", i);
	res->q = get_num(d, m, "q_value");
	res->threshold = get_num(d, m, "threshold");
	res->abs_threshold = json_object_get(m, "abs_threshold") ?
			     get_num(d, m, "abs_threshold") : NAN;
	res->alpha = get_num(d, m, "alpha");
	ENUM(d, m, "verdict", pv_verdict_parse, &res->verdict);
	res->reason = get_str(d, m, "reason", 0);
	res->why = PV_WHY_TEXT;
}

int pv_archive_read(struct pv_report *r, const char *path, struct pv_err *err)
{
	struct rd d = { r, path, err, "", 0 };
	struct strbuf buf = STRBUF_INIT;
	json_error_t je;
	json_int_t version;
	json_t *root, *metrics, *warnings, *tool, *o;

	if (pv_read_file_spec(path, &report_file, &buf, err))
		return -1;
	root = json_loadb(buf.buf, buf.len, JSON_REJECT_DUPLICATES, &je);
	strbuf_release(&buf);
	if (!root && pv_json_oom(path, &je, err))
		return -1;
	if (!root)
		return pv_error(err, PV_M_MALFORMED_JSON, "%s:%d:%d: %s", path, je.line,
				je.column, je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return pv_error(err, PV_M_BAD_REPORT,
				"%s: expected a perfverdict JSON report (an object)",
				path);
	}
	version = json_integer_value(json_object_get(root, "schema_version"));
	/* A history report (any version: 1 and 2 both say their kind) is
	 * an output, never an input: say so rather than fail on its keys. */
	if (json_is_string(json_object_get(root, "kind")) &&
	    !strcmp(json_string_value(json_object_get(root, "kind")), "history")) {
		json_decref(root);
		return pv_error(err, PV_M_BAD_REPORT,
				"%s: expected a compare report, not a history report (schema_version %d of 'perfverdict history --json')",
				path, (int)version);
	}
	if (version < PV_SCHEMA_VERSION_MIN || version > PV_SCHEMA_VERSION) {
		json_decref(root);
		return pv_error(err, PV_M_BAD_SCHEMA_VERSION,
				"%s: expected schema_version %d to %d (a perfverdict JSON report)",
				path, PV_SCHEMA_VERSION_MIN, PV_SCHEMA_VERSION);
	}
	if ((tool = get_obj(&d, root, "tool")))
		r->tool_version = get_str(&d, tool, "version", 0);
	r->generated_at = get_str(&d, root, "generated_at", 0);
	if ((o = get_obj(&d, root, "config"))) {
		read_config(&d, o);
		read_waivers(&d, o, (int)version);
	}
	d.where[0] = '\0';
	if ((o = get_obj(&d, root, "baseline"))) {
		read_tree(&d, o, "baseline", &r->side[0], &r->label[0]);
		read_pooled(&d, o);
	}
	d.where[0] = '\0';
	if ((o = get_obj(&d, root, "candidate")))
		read_tree(&d, o, "candidate", &r->side[1], &r->label[1]);
	d.where[0] = '\0';
	warnings = json_object_get(root, "warnings");
	if (json_is_array(warnings)) {
		r->nwarnings = json_array_size(warnings);
		r->warnings = arena_calloc(&r->arena, st_add(r->nwarnings, 1),
					   sizeof(*r->warnings));
		r->warning_codes = arena_calloc(&r->arena,
						st_add(r->nwarnings, 1),
						sizeof(*r->warning_codes));
		for (size_t i = 0; i < r->nwarnings; i++) {
			json_t *w = json_array_get(warnings, i);

			/* Version 1: a string; 2: {code, level, message}. */
			if (json_is_object(w)) {
				const char *code = json_string_value(
					json_object_get(w, "code"));

				if (code)
					r->warning_codes[i] = arena_strdup(
						&r->arena, code);
				w = json_object_get(w, "message");
			}
			r->warnings[i] = arena_strdup(&r->arena,
				json_is_string(w) ? json_string_value(w) : "");
		}
	}
	metrics = json_object_get(root, "metrics");
	if (!json_is_array(metrics)) {
		bad(&d, "metrics", "an array");
	} else {
		r->n = json_array_size(metrics);
		r->m = pv_calloc(r->n + 1, sizeof(*r->m));
		for (size_t i = 0; i < r->n && !d.failed; i++) {
			struct pv_result *m = &r->m[i];

			read_metric(&d, json_array_get(metrics, i), i, m);
			/* Version 1 called a metric that is never gated
			 * "unchanged" even when it moved. */
			if (version < 2 && m->verdict == PV_V_UNCHANGED &&
			    !m->gated)
				m->verdict = PV_V_UNGATED;
		}
	}
	json_decref(root);
	if (d.failed)
		return -1;
	pv_report_tally(r);
	return 0;
}

static int same_gate(const struct pv_gate *a, const struct pv_gate *b)
{
	return a->alpha == b->alpha && a->test == b->test &&
	       a->correction == b->correction && a->sided == b->sided &&
	       a->threshold == b->threshold &&
	       a->min_samples == b->min_samples && a->max_cv == b->max_cv &&
	       a->missing == b->missing && a->new_ == b->new_ &&
	       a->inconclusive == b->inconclusive &&
	       a->insufficient == b->insufficient &&
	       a->direction == b->direction;
}

static void merge_context(struct pv_report *dst, struct pv_sidemeta *d,
			  const struct pv_sidemeta *s)
{
	for (size_t i = 0; i < s->ncontext; i++) {
		size_t j;

		for (j = 0; j < d->ncontext; j++)
			if (!strcmp(d->context[j].key, s->context[i].key))
				break;
		if (j < d->ncontext) {
			if (strcmp(d->context[j].value, s->context[i].value))
				d->context[j].value = arena_printf(&dst->arena,
					"%s; %s", d->context[j].value,
					s->context[i].value);
			continue;
		}
		if (d->ncontext == d->alloc_context) {
			d->alloc_context = d->alloc_context * 2 + 4;
			d->context = pv_reallocarray(d->context, d->alloc_context,
						     sizeof(*d->context));
		}
		d->context[d->ncontext++] = s->context[i];
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const struct pv_waiver *find_waiver(const struct pv_waiver *w,
					   size_t n, const char *glob)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].glob, glob))
			return &w[i];
	return NULL;
}

/* The union of both reports' waivers into dst (its arena); one glob
 * with two different dates or reasons is an error. */
static int merge_waivers(struct pv_report *dst, const struct pv_report *src,
			 const char *src_path, struct pv_err *err)
{
	const struct pv_settings *s = &src->settings;
	struct pv_settings *d = &dst->settings;
	struct pv_waiver *w;
	size_t n = d->nwaivers;

	for (size_t i = 0; i < s->nwaivers; i++) {
		const struct pv_waiver *o = find_waiver(d->waivers, d->nwaivers,
							s->waivers[i].glob);

		if (o && strcmp(o->until, s->waivers[i].until))
			return pv_error(err, PV_M_SHARD_WAIVER_DIFFERS,
					"%s: waiver \"%s\" holds until %s, but until %s in the first report; shards of one comparison must share their waivers",
					src_path, o->glob, s->waivers[i].until,
					o->until);
		if (o && strcmp(o->reason, s->waivers[i].reason))
			return pv_error(err, PV_M_SHARD_WAIVER_DIFFERS,
					"%s: waiver \"%s\" gives another reason than in the first report; shards of one comparison must share their waivers",
					src_path, o->glob);
		n += !o;
	}
	if (n == d->nwaivers)
		return 0;
	w = arena_alloc(&dst->arena, st_mult(n, sizeof(*w)));
	if (d->nwaivers)
		memcpy(w, d->waivers, st_mult(d->nwaivers, sizeof(*w)));
	n = d->nwaivers;
	for (size_t i = 0; i < s->nwaivers; i++) {
		const struct pv_waiver *sw = &s->waivers[i];

		if (find_waiver(w, n, sw->glob))
			continue;
		w[n] = *sw;
		w[n].glob = arena_strdup(&dst->arena, sw->glob);
		w[n].reason = arena_strdup(&dst->arena, sw->reason);
		n++;
	}
	d->waivers = w;
	d->nwaivers = n;
	return 0;
}

void pv_archive_waivers(struct pv_report *r, struct pv_config *cfg)
{
	const struct pv_settings *s = &r->settings;
	size_t n = cfg->nwaivers;

	for (size_t i = 0; i < s->nwaivers; i++) {
		const struct pv_waiver *w = &s->waivers[i];

		if (find_waiver(cfg->waivers, cfg->nwaivers, w->glob))
			continue;
		REALLOC_ARRAY(cfg->waivers, st_add(n, 1));
		cfg->waivers[n] = *w;
		cfg->waivers[n].glob = pv_strdup(w->glob);
		cfg->waivers[n].reason = pv_strdup(w->reason);
		cfg->waivers[n].line = 0;
		cfg->nwaivers = ++n;
	}
	r->settings.waivers = cfg->waivers;
	r->settings.nwaivers = cfg->nwaivers;
}

int pv_archive_merge(struct pv_report *dst, const struct pv_report *src,
		     const char *src_path, struct pv_err *err)
{
	char **ids;
	size_t n = dst->n + src->n, dup = 0;

	if (!same_gate(&dst->settings.gate, &src->settings.gate))
		return pv_error(err, PV_M_SHARD_GATE_DIFFERS,
				"%s: its gate settings differ from the first report's; shards of one comparison must share them",
				src_path);
	dst->m = pv_reallocarray(dst->m, n + 1, sizeof(*dst->m));
	memcpy(dst->m + dst->n, src->m, src->n * sizeof(*src->m));
	dst->n = n;
	/* A metric in two shards: sort the ids to find it. */
	ALLOC_ARRAY(ids, st_add(n, 1));
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		ids[i] = strbuf_detach((pv_result_id(&dst->m[i], &sb), &sb), NULL);
	}
	qsort(ids, n, sizeof(*ids), cmp_str);
	for (size_t i = 1; i < n && !dup; i++)
		if (!strcmp(ids[i], ids[i - 1]))
			dup = i;
	if (dup)
		pv_error(err, PV_M_SHARD_OVERLAP,
			 "%s: metric '%s' is already in another report; each metric must come from one shard",
			 src_path, ids[dup]);
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	if (dup)
		return -1;
	if (merge_waivers(dst, src, src_path, err))
		return -1;
	for (int s = 0; s < 2; s++) {
		dst->side[s].files += src->side[s].files;
		if (src->side[s].runs > dst->side[s].runs)
			dst->side[s].runs = src->side[s].runs;
		merge_context(dst, &dst->side[s], &src->side[s]);
	}
	return 0;
}

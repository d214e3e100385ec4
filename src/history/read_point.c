/*
 * read_point.c - history's reader of a compact history point (point.h):
 * its label, commit, time and context, and its metrics' samples as
 * rows.
 */
#include "reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "point.h"
#include "../scan.h"
#include "../readers/jsonutil.h"
#include "../util/file.h"
#include "../util/isotime.h"
#include "../util/text.h"
#include "../util/banned.h"

/* Reading: the state of one point's reader. */
struct prd {
	struct pv_hist_input *in;
	const char *path;
	struct pv_err *err;
	int failed;
};

static int bad(struct prd *d, const char *where, const char *expected)
{
	if (!d->failed)
		pv_error(d->err, PV_M_BAD_POINT, "%s: %s: expected %s", d->path,
			 where, expected);
	d->failed = 1;
	return -1;
}

static const char *str_of(struct prd *d, json_t *o, const char *key,
			  const char *where, int nullable)
{
	json_t *v = json_object_get(o, key);
	char w[96];

	if (nullable && (!v || json_is_null(v)))
		return NULL;
	if (json_is_string(v))
		return json_string_value(v);
	snprintf(w, sizeof(w), "%s%s%s", where, *where ? "." : "", key);
	bad(d, w, nullable ? "a string or null" : "a string");
	return NULL;
}

/* Load path (inflated when it ends in .gz) and parse it. */
static json_t *load(const char *path, const struct pv_limits *l,
		     struct pv_err *err)
{
	static const struct pv_read_spec spec = {
		.expect = "a history point (.json or .json.gz)",
		.status = PV_EINPUT,
	};
	struct pv_read_spec sp = spec;
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	const struct strbuf *in = &raw;
	json_error_t je;
	json_t *root = NULL;

	sp.max = l->max_file_size;
	if (pv_read_file_spec(path, &sp, &raw, err))
		return NULL;
	if (pv_ends_with(path, ".gz", 0)) {
		if (pv_gunzip(path, &raw, l, &text, err))
			goto out;
		in = &text;
	}
	root = json_loadb(in->buf, in->len, JSON_REJECT_DUPLICATES, &je);
	if (!root && !pv_json_oom(path, &je, err))
		pv_error(err, PV_M_MALFORMED_JSON, "%s:%d:%d: %s", path, je.line,
			 je.column, je.text);
out:
	strbuf_release(&raw);
	strbuf_release(&text);
	return root;
}

static void read_context(struct prd *d, struct pv_hist_point *p, json_t *c)
{
	const char *k;
	json_t *v;
	size_t i = 0;

	if (!c)
		return;
	if (!json_is_object(c)) {
		bad(d, "context", "an object of strings");
		return;
	}
	p->ncontext = json_object_size(c);
	p->context = arena_alloc(d->in->arena,
				 st_mult(p->ncontext ? p->ncontext : 1,
					 sizeof(*p->context)));
	json_object_foreach(c, k, v) {
		if (!json_is_string(v)) {
			bad(d, "context", "an object of strings");
			return;
		}
		p->context[i].key = arena_strdup(d->in->arena, k);
		p->context[i++].value = arena_strdup(d->in->arena,
						     json_string_value(v));
	}
}

/* Metric i of the point, m, as a row; its samples go to in->vals from
 * *nvals on (size_vals() made room for all of the point's). */
static void read_metric(struct prd *d, json_t *m, size_t i, size_t *nvals)
{
	const char *key[6] = { 0 };
	static const char *const names[6] = {
		"suite", "test", "group", "benchmark", "metric", "unit",
	};
	const char *dir;
	enum pv_dir hint = PV_DIR_UNSET;
	struct pv_hist_row *r;
	json_t *s, *x;
	char where[64];
	size_t j;

	snprintf(where, sizeof(where), "metrics[%zu]", i);
	if (!json_is_object(m)) {
		bad(d, where, "an object");
		return;
	}
	for (int k = 0; k < 6 && !d->failed; k++)
		key[k] = str_of(d, m, names[k], where, 0);
	dir = str_of(d, m, "direction", where, 1);
	if (d->failed)
		return;
	if (dir && (pv_parse_dir(dir, &hint) || hint == PV_DIR_UNSET)) {
		snprintf(where, sizeof(where), "metrics[%zu].direction", i);
		bad(d, where, "lower, higher or none");
		return;
	}
	s = json_object_get(m, "samples");
	snprintf(where, sizeof(where), "metrics[%zu].samples", i);
	if (!json_is_array(s) || !json_array_size(s)) {
		bad(d, where, "a non-empty array of finite numbers");
		return;
	}
	json_array_foreach(s, j, x) {
		if (!json_is_number(x) || !isfinite(json_number_value(x))) {
			bad(d, where, "a non-empty array of finite numbers");
			return;
		}
		d->in->vals[*nvals + j] = json_number_value(x);
	}
	r = pv_hist_input_row(d->in);
	r->suite = key[0];
	r->test = key[1];
	r->group = key[2];
	r->bench = key[3];
	r->metric = key[4];
	r->unit = key[5];
	r->hint = hint;
	r->v = d->in->vals + *nvals;
	r->n = json_array_size(s);
	*nvals += r->n;
}

/* Room in in->vals for every sample of the metrics ms. */
static void size_vals(struct pv_hist_input *in, json_t *ms)
{
	size_t n = 0, i;
	json_t *m;

	json_array_foreach(ms, i, m)
		n += json_array_size(json_object_get(m, "samples"));
	ALLOC_ARRAY(in->vals, n ? n : 1);
}

/* The point's label, commit and time, then its context. */
static void read_head(struct prd *d, json_t *root)
{
	struct pv_hist_point *p = d->in->p;
	const char *label, *commit, *t;

	label = str_of(d, root, "label", "", 1);
	commit = str_of(d, root, "commit", "", 1);
	t = str_of(d, root, "time", "", 0);
	if (d->failed)
		return;
	if (label)
		p->label = arena_strdup(d->in->arena, label);
	if (commit)
		p->commit = arena_strdup(d->in->arena, commit);
	p->time = arena_strdup(d->in->arena, t);
	p->mtime = pv_iso_time(t);
	if (isnan(p->mtime))
		bad(d, "time", "an ISO 8601 UTC time (YYYY-MM-DDTHH:MM:SSZ)");
	if (!d->failed)
		read_context(d, p, json_object_get(root, "context"));
}

int pv_hist_read_point(struct pv_hist_input *in, struct pv_err *err)
{
	struct prd d = { in, in->path, err, 0 };
	json_t *root, *ms, *m;
	size_t nvals = 0, i;

	root = load(in->path, &in->o->cfg->limits, err);
	if (!root)
		return -1;
	if (!json_is_object(root) ||
	    json_integer_value(json_object_get(root, "point_version")) !=
	    PV_POINT_VERSION) {
		json_decref(root);
		pv_error(err, PV_M_BAD_POINT,
			 "%s: expected a perfverdict history point (an object with \"point_version\": %d)",
			 in->path, PV_POINT_VERSION);
		return -2;
	}
	in->json = root;
	read_head(&d, root);
	ms = json_object_get(root, "metrics");
	if (!d.failed && !json_is_array(ms))
		bad(&d, "metrics", "an array");
	if (d.failed)
		return -1;
	/* an error in a metric comes after the rows before it */
	d.err = &in->late_err;
	size_vals(in, ms);
	json_array_foreach(ms, i, m) {
		read_metric(&d, m, i, &nvals);
		if (d.failed)
			break;
	}
	in->late = d.failed;
	return 0;
}

int pv_hist_point_none(const struct pv_hist_input *in,
		       const struct pv_hist_point *p, struct pv_err *err)
{
	(void)p;
	pv_error(err, PV_M_NO_RESULTS, "%s: \"metrics\" is empty", in->path);
	return 1;
}

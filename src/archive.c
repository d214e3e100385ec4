/*
 * archive.c - the JSON report read back with jansson; see archive.h.
 */
#include "archive.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/strbuf.h"

/* Reports are read whole; like limits.max_file_size's default. */
#define PV_ARCHIVE_MAX ((size_t)1 << 30)

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
		pv_error(d->err, PV_EINPUT, "%s: %s%s%s: expected %s", d->path,
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

static void read_tree(struct rd *d, json_t *t, const char *name,
		      struct pv_sidemeta *sm)
{
	json_t *ctx, *v;
	const char *k;

	snprintf(d->where, sizeof(d->where), "%s", name);
	sm->path = get_str(d, t, "path", 1);
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
	v = arena_alloc(&d->r->arena, (out->nsamples + 1) * sizeof(*v));
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

/*
 * The whole report, from a regular file only: a directory or a FIFO
 * named like a report must neither block nor read as "empty" (the open
 * is non-blocking, so a FIFO with no writer cannot hang it).
 */
static int read_file(const char *path, struct strbuf *out, struct pv_err *err)
{
	struct stat st;
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return pv_error(err, PV_EINPUT, "cannot read '%s': %s", path,
				strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		const char *why = strerror(errno);

		if (!fstat(fd, &st))
			why = S_ISDIR(st.st_mode) ? "it is a directory" :
			      "not a regular file";
		close(fd);
		return pv_error(err, PV_EINPUT,
				"cannot read '%s': %s (expected a JSON report)",
				path, why);
	}
	strbuf_grow(out, (size_t)st.st_size);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || out->len + (size_t)n > PV_ARCHIVE_MAX) {
			int e = n < 0 ? errno : EFBIG;

			close(fd);
			strbuf_release(out);
			return pv_error(err, PV_EINPUT, "cannot read '%s': %s",
					path, strerror(e));
		}
		strbuf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

int pv_archive_read(struct pv_report *r, const char *path, struct pv_err *err)
{
	struct rd d = { r, path, err, "", 0 };
	struct strbuf buf = STRBUF_INIT;
	json_error_t je;
	json_t *root, *metrics, *warnings, *tool, *o;

	if (read_file(path, &buf, err))
		return -1;
	root = json_loadb(buf.buf, buf.len, JSON_REJECT_DUPLICATES, &je);
	strbuf_release(&buf);
	if (!root)
		return pv_error(err, PV_EINPUT, "%s:%d:%d: %s", path, je.line,
				je.column, je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return pv_error(err, PV_EINPUT,
				"%s: expected a perfverdict JSON report (an object)",
				path);
	}
	/* Version 1 reads as it is: version 2 only added to it. */
	{
		json_int_t v = json_integer_value(json_object_get(root, "schema_version"));

		if (v < 1 || v > PV_SCHEMA_VERSION) {
			json_decref(root);
			return pv_error(err, PV_EINPUT,
					"%s: expected schema_version 1 to %d (a perfverdict JSON report)",
					path, PV_SCHEMA_VERSION);
		}
	}
	if ((tool = get_obj(&d, root, "tool")))
		r->tool_version = get_str(&d, tool, "version", 0);
	r->generated_at = get_str(&d, root, "generated_at", 0);
	if ((o = get_obj(&d, root, "config")))
		read_config(&d, o);
	d.where[0] = '\0';
	if ((o = get_obj(&d, root, "baseline")))
		read_tree(&d, o, "baseline", &r->side[0]);
	d.where[0] = '\0';
	if ((o = get_obj(&d, root, "candidate")))
		read_tree(&d, o, "candidate", &r->side[1]);
	d.where[0] = '\0';
	warnings = json_object_get(root, "warnings");
	if (json_is_array(warnings)) {
		r->nwarnings = json_array_size(warnings);
		r->warnings = pv_calloc(r->nwarnings + 1, sizeof(*r->warnings));
		for (size_t i = 0; i < r->nwarnings; i++) {
			json_t *w = json_array_get(warnings, i);

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
		for (size_t i = 0; i < r->n && !d.failed; i++)
			read_metric(&d, json_array_get(metrics, i), i, &r->m[i]);
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

int pv_archive_merge(struct pv_report *dst, const struct pv_report *src,
		     const char *src_path, struct pv_err *err)
{
	char **ids;
	size_t n = dst->n + src->n, dup = 0;

	if (!same_gate(&dst->settings.gate, &src->settings.gate))
		return pv_error(err, PV_EUSAGE,
				"%s: its gate settings differ from the first report's; shards of one comparison must share them",
				src_path);
	dst->m = pv_reallocarray(dst->m, n + 1, sizeof(*dst->m));
	memcpy(dst->m + dst->n, src->m, src->n * sizeof(*src->m));
	dst->n = n;
	/* A metric in two shards: sort the ids to find it. */
	ids = pv_malloc((n + 1) * sizeof(*ids));
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		ids[i] = strbuf_detach((pv_result_id(&dst->m[i], &sb), &sb), NULL);
	}
	qsort(ids, n, sizeof(*ids), cmp_str);
	for (size_t i = 1; i < n && !dup; i++)
		if (!strcmp(ids[i], ids[i - 1]))
			dup = i;
	if (dup)
		pv_error(err, PV_EINPUT,
			 "%s: metric '%s' is already in another report; each metric must come from one shard",
			 src_path, ids[dup]);
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	if (dup)
		return -1;
	for (int s = 0; s < 2; s++) {
		dst->side[s].files += src->side[s].files;
		if (src->side[s].runs > dst->side[s].runs)
			dst->side[s].runs = src->side[s].runs;
		merge_context(dst, &dst->side[s], &src->side[s]);
	}
	return 0;
}

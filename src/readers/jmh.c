/*
 * jmh.c - JMH JSON (-rf json -rff F): an array with one entry per
 * benchmark, parameter set and mode.
 *
 * Samples are primaryMetric.rawData flattened (one score per measurement
 * iteration of each fork).  Sample mode writes rawDataHistogram instead
 * ([fork][iteration][[value, count]...]); each iteration's histogram
 * mean is one sample, which is the score JMH itself computes.
 * secondaryMetrics (profilers, @AuxCounters, @Group members) with
 * rawData are further metrics.
 *
 * Keys: group = the class ("org.example.MyBench"), benchmark = the method
 * followed by " (k=v, k2=v2)" for params in the file's order; metric =
 * the mode ("thrpt", "avgt", "sample", "ss") for the primary metric and
 * the secondary's name without JMH's leading middle dot ("gc.alloc.rate")
 * for the others.  When one benchmark appears in several modes, its
 * secondary metrics are named "<mode>:<name>" so that they stay apart.
 *
 * Directions: thrpt is higher-is-better and the other modes lower; a
 * secondary metric with the primary's unit follows the mode, gc.* metrics
 * are lower-is-better, and the rest have no direction of their own.
 * JMH writes non-finite scores as the strings "NaN", "+INF", "-INF":
 * they are skipped with a warning.
 */
#include "reader.h"

#include <string.h>
#include "jsonutil.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

static const char middle_dot[] = "\xc2\xb7";    /* U+00B7, UTF-8 */

static enum pv_dir mode_dir(const char *mode)
{
	if (!strcmp(mode, "thrpt"))
		return PV_DIR_HIGHER;
	if (!strcmp(mode, "avgt") || !strcmp(mode, "sample") ||
	    !strcmp(mode, "ss"))
		return PV_DIR_LOWER;
	return PV_DIR_UNSET;
}

/* One entry, checked. */
struct entry {
	char jpath[PV_JPATH_MAX];
	const char *mode;
	struct strbuf group, bench;
	const json_t *primary, *secondary;
};

static int parse_entry(struct pv_read_ctx *ctx, const json_t *obj, size_t i,
		       struct entry *e, struct pv_err *err)
{
	const json_t *v, *params;
	const char *name, *dot, *key;
	char jp[PV_JPATH_MAX + 32];
	json_t *pv;
	int n = 0;

	pv_jpathf(e->jpath, sizeof(e->jpath), "[%zu]", i);
	strbuf_reset(&e->group);
	strbuf_reset(&e->bench);
	if (!json_is_object(obj))
		return pv_json_expect(err, ctx->path, e->jpath, "an object",
				      obj);
	v = json_object_get(obj, "benchmark");
	if (!json_is_string(v)) {
		pv_jpathf(jp, sizeof(jp), "%s.benchmark", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", v);
	}
	name = json_string_value(v);
	v = json_object_get(obj, "mode");
	if (!json_is_string(v)) {
		pv_jpathf(jp, sizeof(jp), "%s.mode", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", v);
	}
	e->mode = json_string_value(v);

	dot = strrchr(name, '.');
	if (dot) {
		strbuf_add(&e->group, name, (size_t)(dot - name));
		strbuf_addstr(&e->bench, dot + 1);
	} else {
		strbuf_addstr(&e->bench, name);
	}
	params = json_object_get(obj, "params");
	if (params && !json_is_null(params) && !json_is_object(params)) {
		pv_jpathf(jp, sizeof(jp), "%s.params", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "an object", params);
	}
	json_object_foreach((json_t *)params, key, pv) {
		strbuf_addstr(&e->bench, n++ ? ", " : " (");
		if (json_is_string(pv)) {
			strbuf_addf(&e->bench, "%s=%s", key,
				    json_string_value(pv));
		} else if (json_is_integer(pv)) {
			strbuf_addf(&e->bench, "%s=%lld", key,
				    (long long)json_integer_value(pv));
		} else {
			pv_jpathf(jp, sizeof(jp), "%s.params.%s", e->jpath, key);
			return pv_json_expect(err, ctx->path, jp, "a string",
					      pv);
		}
	}
	if (n)
		strbuf_addch(&e->bench, ')');

	e->primary = json_object_get(obj, "primaryMetric");
	if (!json_is_object(e->primary)) {
		pv_jpathf(jp, sizeof(jp), "%s.primaryMetric", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "an object",
				      e->primary);
	}
	e->secondary = json_object_get(obj, "secondaryMetrics");
	if (e->secondary && !json_is_null(e->secondary) &&
	    !json_is_object(e->secondary)) {
		pv_jpathf(jp, sizeof(jp), "%s.secondaryMetrics", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "an object",
				      e->secondary);
	}
	return 0;
}

/* The mean of one iteration's histogram [[value, count], ...]. */
static int histogram_mean(struct pv_read_ctx *ctx, const json_t *hist,
			  const char *jpath, struct pv_sample *s,
			  struct pv_jskip *skip, struct pv_err *err)
{
	char jp[PV_JPATH_MAX + 48];
	double sum = 0, count = 0;
	size_t i;
	json_t *bin;

	if (!json_is_array(hist))
		return pv_json_expect(err, ctx->path, jpath, "an array", hist);
	json_array_foreach(hist, i, bin) {
		const json_t *v = json_array_get(bin, 0);
		const json_t *c = json_array_get(bin, 1);
		double x, k;

		pv_jpathf(jp, sizeof(jp), "%s[%zu]", jpath, i);
		if (!json_is_array(bin) || json_array_size(bin) != 2)
			return pv_json_expect(err, ctx->path, jp,
					      "a [value, count] pair", bin);
		switch (pv_json_num(v, &x)) {
		case PV_JNUM_OK:
			break;
		case PV_JNUM_NONFINITE:
		case PV_JNUM_NULL:
			pv_jskip_add(skip, jp, v);
			continue;
		case PV_JNUM_BAD:
			return pv_json_expect(err, ctx->path, jp,
					      "a [value, count] pair", bin);
		}
		if (pv_json_num(c, &k) != PV_JNUM_OK || k < 0)
			return pv_json_expect(err, ctx->path, jp,
					      "a [value, count] pair", bin);
		sum += x * k;
		count += k;
	}
	if (count <= 0)
		return 0;
	s->value = sum / count;
	skip->good++;
	return pv_emit(ctx, s, err);
}

/* Emit the samples of one metric object ({scoreUnit, rawData...}). */
static int read_metric(struct pv_read_ctx *ctx, const json_t *m,
		       const char *jpath, struct pv_sample *s,
		       struct pv_err *err)
{
	const json_t *raw, *hist, *unit;
	struct pv_jskip skip = { 0, 0, "" };
	char jp[PV_JPATH_MAX + 48], label[PV_JPATH_MAX + 600];
	size_t i, j;
	json_t *fork, *it;

	if (!json_is_object(m))
		return pv_json_expect(err, ctx->path, jpath, "an object", m);
	unit = json_object_get(m, "scoreUnit");
	if (unit && !json_is_string(unit)) {
		pv_jpathf(jp, sizeof(jp), "%s.scoreUnit", jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", unit);
	}
	s->unit = unit ? json_string_value(unit) : "";
	raw = json_object_get(m, "rawData");
	hist = json_object_get(m, "rawDataHistogram");
	if (raw && !json_is_null(raw)) {
		pv_jpathf(jp, sizeof(jp), "%s.rawData", jpath);
		if (!json_is_array(raw))
			return pv_json_expect(err, ctx->path, jp, "an array",
					      raw);
		json_array_foreach(raw, i, fork) {
			pv_jpathf(jp, sizeof(jp), "%s.rawData[%zu]", jpath, i);
			if (!json_is_array(fork))
				return pv_json_expect(err, ctx->path, jp,
						      "an array", fork);
			if (pv_json_emit_array(ctx, fork, jp, s, &skip,
					       err) < 0)
				return -1;
		}
	} else if (hist && !json_is_null(hist)) {
		pv_jpathf(jp, sizeof(jp), "%s.rawDataHistogram", jpath);
		if (!json_is_array(hist))
			return pv_json_expect(err, ctx->path, jp, "an array",
					      hist);
		json_array_foreach(hist, i, fork) {
			pv_jpathf(jp, sizeof(jp), "%s.rawDataHistogram[%zu]",
				 jpath, i);
			if (!json_is_array(fork))
				return pv_json_expect(err, ctx->path, jp,
						      "an array", fork);
			json_array_foreach(fork, j, it) {
				pv_jpathf(jp, sizeof(jp),
					 "%s.rawDataHistogram[%zu][%zu]",
					 jpath, i, j);
				if (histogram_mean(ctx, it, jp, s, &skip,
						   err) < 0)
					return -1;
			}
		}
	}
	if (!skip.good && !skip.skipped)
		return pv_emit_note(ctx, s, "JMH saved no raw data (rawData) "
				    "for this metric", err);
	pv_jpathf(label, sizeof(label), "%s%s%s/%s", s->group,
		 *s->group ? "." : "", s->benchmark, s->metric);
	return pv_jskip_finish(ctx, s, label, &skip, err);
}

static int read_entry(struct pv_read_ctx *ctx, const struct entry *e,
		      int multimode, struct pv_err *err)
{
	struct pv_sample s = { e->group.buf, e->bench.buf, e->mode, NULL,
			       mode_dir(e->mode), 0 };
	const char *primary_unit, *key;
	char jp[PV_JPATH_MAX + 32];
	struct strbuf metric = STRBUF_INIT;
	json_t *m;
	int rc = 0;

	pv_jpathf(jp, sizeof(jp), "%s.primaryMetric", e->jpath);
	if (read_metric(ctx, e->primary, jp, &s, err) < 0)
		return -1;
	primary_unit = s.unit;
	json_object_foreach((json_t *)e->secondary, key, m) {
		const char *name = key;

		if (!strncmp(name, middle_dot, 2))
			name += 2;
		strbuf_reset(&metric);
		if (multimode)
			strbuf_addf(&metric, "%s:", e->mode);
		strbuf_addstr(&metric, name);
		s.metric = metric.buf;
		s.dir = PV_DIR_UNSET;
		if (!strncmp(name, "gc.", 3))
			s.dir = PV_DIR_LOWER;
		if (json_is_object(m) &&
		    json_is_string(json_object_get(m, "scoreUnit")) &&
		    !strcmp(json_string_value(json_object_get(m, "scoreUnit")),
			    primary_unit))
			s.dir = mode_dir(e->mode);
		pv_jpathf(jp, sizeof(jp), "%s.secondaryMetrics.%s", e->jpath,
			 key);
		if ((rc = read_metric(ctx, m, jp, &s, err)) < 0)
			break;
	}
	strbuf_release(&metric);
	return rc;
}

static void read_context(struct pv_read_ctx *ctx, const json_t *obj)
{
	static const char *const keys[] = {
		"jmhVersion", "jdkVersion", "vmName", "vmVersion", "jvm", NULL
	};
	const json_t *args = json_object_get(obj, "jvmArgs");

	for (size_t i = 0; keys[i]; i++)
		if (pv_json_str(obj, keys[i]))
			pv_context(ctx, keys[i], pv_json_str(obj, keys[i]));
	if (json_is_array(args) && json_array_size(args)) {
		struct strbuf sb = STRBUF_INIT;
		size_t i;
		json_t *a;

		json_array_foreach(args, i, a)
			if (json_is_string(a))
				strbuf_addf(&sb, "%s%s", sb.len ? " " : "",
					    json_string_value(a));
		pv_context(ctx, "jvmArgs", sb.buf);
		strbuf_release(&sb);
	}
}

static int jmh_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		    struct pv_err *err)
{
	struct entry e = { "", NULL, STRBUF_INIT, STRBUF_INIT, NULL, NULL };
	struct strbuf key = STRBUF_INIT;
	json_t *root, *modes = json_object();
	const json_t *obj;
	size_t i;
	int rc = -1;

	if (!(root = pv_json_parse(ctx->path, buf, len, err)))
		goto out;
	if (!json_is_array(root)) {
		pv_json_expect(err, ctx->path, "$", "an array", root);
		goto out;
	}
	if (!json_array_size(root))
		pv_no_results(ctx, 0, "no benchmarks in the file: the "
			      "array is empty");
	/* First pass: which benchmarks were run in more than one mode. */
	json_array_foreach(root, i, obj) {
		const json_t *seen;

		if (parse_entry(ctx, obj, i, &e, err) < 0)
			goto out;
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.%s", e.group.buf, e.bench.buf);
		seen = json_object_get(modes, key.buf);
		if (!seen)
			json_object_set_new_nocheck(modes, key.buf,
						    json_string_nocheck(e.mode));
		else if (json_is_string(seen) &&
			 strcmp(json_string_value(seen), e.mode))
			json_object_set_new_nocheck(modes, key.buf,
						    json_true());
	}
	json_array_foreach(root, i, obj) {
		if (parse_entry(ctx, obj, i, &e, err) < 0)
			goto out;
		read_context(ctx, obj);
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.%s", e.group.buf, e.bench.buf);
		if (read_entry(ctx, &e,
			       json_is_true(json_object_get(modes, key.buf)),
			       err) < 0)
			goto out;
	}
	rc = 0;
out:
	strbuf_release(&e.group);
	strbuf_release(&e.bench);
	strbuf_release(&key);
	json_decref(modes);
	json_decref(root);
	return rc;
}

static int jmh_probe(const char *relpath, const char *head, size_t len)
{
	(void)relpath, (void)len;
	if (pv_probe_first(head) != '[')
		return 0;
	if (pv_probe_key(head, "jmhVersion"))
		return 95;
	if (pv_probe_key(head, "benchmark") && pv_probe_key(head, "mode") &&
	    (pv_probe_key(head, "primaryMetric") ||
	     pv_probe_key(head, "forks") || pv_probe_key(head, "threads")))
		return 85;
	return 0;
}

const struct pv_reader pv_reader_jmh = {
	"jmh",
	"JMH JSON (-rf json): an array of {\"jmhVersion\", \"benchmark\", "
	"\"mode\", \"primaryMetric\"}; thrpt higher is better, avgt, sample "
	"and ss lower",
	jmh_probe,
	jmh_read,
};

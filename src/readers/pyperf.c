/*
 * pyperf.c - pyperf JSON (pyperf's -o/--output, `python -m pyperf
 * dump`), plain or as .json.gz (the loader inflates it).
 *
 * Samples are benchmarks[].runs[].values[]; values are already per loop
 * (pyperf divides by loops and inner_loops).  A run with only warmups is
 * a calibration run and is skipped.  pyperf hoists metadata that all
 * runs share into the benchmark, and what all benchmarks share into the
 * suite, so name and unit are looked up run -> benchmark -> suite.
 *
 * Keys: group "", benchmark = name, metric by unit: "second" -> "time"
 * (unit s, lower is better), "byte" -> "memory" (unit B, lower is
 * better, written by --track-memory), anything else -> "value" with the
 * unit as pyperf spells it and no direction.  A benchmark with no name is
 * called "benchmarks[i]", with a warning.
 *
 * Context: the stable machine and interpreter keys of the suite and
 * benchmark metadata (hostname, cpu_model_name, python_version...); the
 * keys that change on every run (date, boot_time, load_avg_1min...) are
 * left out so that real differences stand out.
 */
#include "reader.h"

#include <string.h>
#include "jsonutil.h"
#include "../util/text.h"
#include "../util/banned.h"

static const char *const context_keys[] = {
	"hostname", "platform", "cpu_model_name", "cpu_count",
	"cpu_affinity", "cpu_config", "aslr", "python_implementation",
	"python_version", "python_compiler", "python_executable", "timer",
	"perf_version", "pyperf_version", NULL
};

/* The string metadata value key of the innermost level that has it. */
static const char *meta_str(const json_t *const *levels, size_t n,
			    const char *key)
{
	for (size_t i = n; i-- > 0;) {
		const char *s = pv_json_str(levels[i], key);

		if (s)
			return s;
	}
	return NULL;
}

static void read_context(struct pv_read_ctx *ctx, const json_t *meta)
{
	for (size_t i = 0; context_keys[i]; i++) {
		const json_t *v = json_object_get(meta, context_keys[i]);
		char num[32];

		if (json_is_string(v)) {
			pv_context(ctx, context_keys[i], json_string_value(v));
		} else if (json_is_integer(v)) {
			pv_jpathf(num, sizeof(num), "%lld",
				 (long long)json_integer_value(v));
			pv_context(ctx, context_keys[i], num);
		}
	}
}

/* Metadata, when present, must be an object. */
static int get_meta(struct pv_read_ctx *ctx, const json_t *obj,
		    const char *jpath, const json_t **out, struct pv_err *err)
{
	const json_t *m = json_object_get(obj, "metadata");
	char jp[PV_JPATH_MAX + 16];

	if (m && !json_is_object(m)) {
		pv_jpathf(jp, sizeof(jp), "%s%smetadata", jpath,
			 *jpath ? "." : "");
		return pv_json_expect(err, ctx->path, jp, "an object", m);
	}
	*out = m;
	return 0;
}

static void sample_for_unit(struct pv_sample *s, const char *unit)
{
	s->metric = "value";
	s->unit = unit;
	s->dir = PV_DIR_UNSET;
	if (!unit || !strcmp(unit, "second")) {
		s->metric = "time";
		s->unit = "s";
		s->dir = PV_DIR_LOWER;
	} else if (!strcmp(unit, "byte")) {
		s->metric = "memory";
		s->unit = "B";
		s->dir = PV_DIR_LOWER;
	}
}

static int read_benchmark(struct pv_read_ctx *ctx, const json_t *bench,
			  size_t bi, const json_t *suite_meta,
			  struct pv_err *err)
{
	const json_t *levels[3] = { suite_meta, NULL, NULL };
	const json_t *runs, *run;
	char jp[PV_JPATH_MAX], rjp[PV_JPATH_MAX + 32], vjp[PV_JPATH_MAX + 48];
	char fallback[48];
	struct pv_sample s = { "", NULL, NULL, NULL, PV_DIR_UNSET, 0 };
	struct pv_jskip skip = { 0, 0, "" };
	int named_warned = 0;
	size_t ri;

	pv_jpathf(jp, sizeof(jp), "benchmarks[%zu]", bi);
	pv_jpathf(fallback, sizeof(fallback), "benchmarks[%zu]", bi);
	if (!json_is_object(bench))
		return pv_json_expect(err, ctx->path, jp, "an object", bench);
	if (get_meta(ctx, bench, jp, &levels[1], err) < 0)
		return -1;
	if (levels[1])
		read_context(ctx, levels[1]);
	runs = json_object_get(bench, "runs");
	pv_jpathf(rjp, sizeof(rjp), "%s.runs", jp);
	if (!json_is_array(runs))
		return pv_json_expect(err, ctx->path, rjp, "an array", runs);

	json_array_foreach(runs, ri, run) {
		const json_t *values;

		pv_jpathf(rjp, sizeof(rjp), "%s.runs[%zu]", jp, ri);
		if (!json_is_object(run))
			return pv_json_expect(err, ctx->path, rjp, "an object",
					      run);
		if (get_meta(ctx, run, rjp, &levels[2], err) < 0)
			return -1;
		values = json_object_get(run, "values");
		if (!values || json_is_null(values))
			continue;       /* calibration: warmups only */
		pv_jpathf(vjp, sizeof(vjp), "%s.values", rjp);
		if (!json_is_array(values))
			return pv_json_expect(err, ctx->path, vjp, "an array",
					      values);
		s.benchmark = meta_str(levels, 3, "name");
		if (!s.benchmark) {
			s.benchmark = fallback;
			if (!named_warned++)
				pv_warn(ctx, PV_M_NO_NAME, 0, "%s has no name in its "
					"metadata; calling it '%s'", jp,
					fallback);
		}
		sample_for_unit(&s, meta_str(levels, 3, "unit"));
		if (pv_json_emit_array(ctx, values, vjp, &s, &skip, err) < 0)
			return -1;
	}
	if (s.benchmark)
		return pv_jskip_finish(ctx, &s, s.benchmark, &skip, err);
	return 0;
}

static int pyperf_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		       struct pv_err *err)
{
	json_t *root;
	const json_t *benches, *suite_meta = NULL, *b;
	size_t i;
	int rc = -1;

	if (!(root = pv_json_parse_object(ctx->path, buf, len, err)))
		return -1;
	if (get_meta(ctx, root, "", &suite_meta, err) < 0)
		goto out;
	if (suite_meta)
		read_context(ctx, suite_meta);
	if (!(benches = pv_json_array_member(ctx, root, "benchmarks", err)))
		goto out;
	json_array_foreach(benches, i, b)
		if (read_benchmark(ctx, b, i, suite_meta, err) < 0)
			goto out;
	rc = 0;
out:
	json_decref(root);
	return rc;
}

static int pyperf_probe(const char *relpath, const char *head, size_t len)
{
	(void)len;
	if (pv_probe_first(head) != '{' || !pv_probe_key(head, "benchmarks"))
		return 0;
	/* Not pytest-benchmark's or Google Benchmark's "benchmarks". */
	if (pv_probe_key(head, "machine_info") ||
	    pv_probe_key(head, "commit_info") ||
	    pv_probe_key(head, "context") || pv_probe_key(head, "stats"))
		return 0;
	if (pv_probe_key(head, "runs") &&
	    (pv_probe_key(head, "values") || pv_probe_key(head, "warmups") ||
	     pv_probe_key(head, "metadata")))
		return 85;
	if (pv_probe_key(head, "perf_version"))
		return 85;
	if (pv_ends_with(relpath, ".json.gz", 1) &&
	    pv_probe_key(head, "metadata"))
		return 50;
	return 0;
}

const struct pv_reader pv_reader_pyperf = {
	"pyperf",
	"pyperf JSON (.json or .json.gz): an object with \"benchmarks\" "
	"holding \"runs\" of \"values\"; time lower is better",
	pyperf_probe,
	pyperf_read,
};

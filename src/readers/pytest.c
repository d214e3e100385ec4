/*
 * pytest.c - pytest-benchmark JSON (--benchmark-json=F, or the files that
 * --benchmark-autosave / --benchmark-save write under .benchmarks/).
 *
 * Samples are benchmarks[].stats.data[], seconds per iteration, one per
 * round.  Keys: group = the benchmark's group ("" when null), benchmark
 * = fullname ("tests/test_x.py::test_y[param]"), or name when fullname is
 * absent, metric "time" (unit s, lower is better).  Saved files hold
 * data only when run with --benchmark-save-data (--benchmark-json always
 * does); without it the benchmark is declared with a note, so its
 * verdict is insufficient rather than a comparison of means.
 *
 * Context: machine_info (node, cpu, python...) and commit_info (commit,
 * branch, dirty).
 */
#include "reader.h"

#include <string.h>
#include "jsonutil.h"
#include "../util/banned.h"

static const char no_data_note[] =
	"pytest-benchmark saved no per-round data (stats.data); run with "
	"--benchmark-save-data, or export with --benchmark-json";

static void context_str(struct pv_read_ctx *ctx, const json_t *obj,
			const char *member, const char *key)
{
	const json_t *v = json_object_get(obj, member);
	char num[32];

	if (json_is_string(v) && *json_string_value(v)) {
		pv_context(ctx, key, json_string_value(v));
	} else if (json_is_integer(v)) {
		pv_jpathf(num, sizeof(num), "%lld",
			 (long long)json_integer_value(v));
		pv_context(ctx, key, num);
	} else if (json_is_boolean(v)) {
		pv_context(ctx, key, json_is_true(v) ? "true" : "false");
	}
}

static void read_context(struct pv_read_ctx *ctx, const json_t *root)
{
	const json_t *mi = json_object_get(root, "machine_info");
	const json_t *ci = json_object_get(root, "commit_info");

	context_str(ctx, mi, "node", "node");
	context_str(ctx, mi, "machine", "machine");
	context_str(ctx, mi, "system", "system");
	context_str(ctx, mi, "release", "release");
	context_str(ctx, mi, "python_implementation", "python_implementation");
	context_str(ctx, mi, "python_version", "python_version");
	/* py-cpuinfo 7 and later say brand_raw, earlier ones brand. */
	if (pv_json_str(json_object_get(mi, "cpu"), "brand_raw"))
		context_str(ctx, json_object_get(mi, "cpu"), "brand_raw",
			    "cpu");
	else
		context_str(ctx, json_object_get(mi, "cpu"), "brand", "cpu");
	context_str(ctx, json_object_get(mi, "cpu"), "count", "cpu_count");
	context_str(ctx, ci, "id", "commit");
	context_str(ctx, ci, "branch", "branch");
	context_str(ctx, ci, "dirty", "dirty");
	context_str(ctx, root, "version", "pytest_benchmark_version");
}

static int read_benchmark(struct pv_read_ctx *ctx, const json_t *b,
			  size_t i, struct pv_err *err)
{
	struct pv_sample s = { "", NULL, "time", "s", PV_DIR_LOWER, 0 };
	struct pv_jskip skip = { 0, 0, "" };
	char jp[PV_JPATH_MAX], mjp[PV_JPATH_MAX + 32];
	const json_t *v, *stats, *data;

	pv_jpathf(jp, sizeof(jp), "benchmarks[%zu]", i);
	if (!json_is_object(b))
		return pv_json_expect(err, ctx->path, jp, "an object", b);
	v = json_object_get(b, "fullname");
	if (!v || json_is_null(v))
		v = json_object_get(b, "name");
	if (!json_is_string(v)) {
		pv_jpathf(mjp, sizeof(mjp), "%s.%s", jp,
			 json_object_get(b, "fullname") ? "fullname" : "name");
		return pv_json_expect(err, ctx->path, mjp, "a string", v);
	}
	s.benchmark = json_string_value(v);
	v = json_object_get(b, "group");
	if (json_is_string(v)) {
		s.group = json_string_value(v);
	} else if (v && !json_is_null(v)) {
		pv_jpathf(mjp, sizeof(mjp), "%s.group", jp);
		return pv_json_expect(err, ctx->path, mjp, "a string or null",
				      v);
	}
	stats = json_object_get(b, "stats");
	pv_jpathf(mjp, sizeof(mjp), "%s.stats", jp);
	if (!json_is_object(stats))
		return pv_json_expect(err, ctx->path, mjp, "an object", stats);
	data = json_object_get(stats, "data");
	pv_jpathf(mjp, sizeof(mjp), "%s.stats.data", jp);
	if (!data || json_is_null(data))
		return pv_emit_note(ctx, &s, no_data_note, err);
	if (!json_is_array(data))
		return pv_json_expect(err, ctx->path, mjp, "an array", data);
	if (!json_array_size(data))
		return pv_emit_note(ctx, &s, "pytest-benchmark recorded no "
				    "rounds", err);
	if (pv_json_emit_array(ctx, data, mjp, &s, &skip, err) < 0)
		return -1;
	return pv_jskip_finish(ctx, &s, s.benchmark, &skip, err);
}

static int pytest_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		       struct pv_err *err)
{
	json_t *root;
	const json_t *benches, *b;
	size_t i, nodata = 0;
	int rc = -1;

	if (!(root = pv_json_parse_object(ctx->path, buf, len, err)))
		return -1;
	read_context(ctx, root);
	if (!(benches = pv_json_array_member(ctx, root, "benchmarks", err)))
		goto out;
	json_array_foreach(benches, i, b) {
		const json_t *stats = json_object_get(b, "stats");
		const json_t *data = json_object_get(stats, "data");

		if (read_benchmark(ctx, b, i, err) < 0)
			goto out;
		if (!data || json_is_null(data))
			nodata++;
	}
	if (nodata)
		pv_warn(ctx, PV_M_NO_ROUNDS, 0, "%zu benchmark%s without per-round data: %s",
			nodata, nodata == 1 ? "" : "s", no_data_note);
	rc = 0;
out:
	json_decref(root);
	return rc;
}

static int pytest_probe(const char *relpath, const char *head, size_t len)
{
	(void)relpath, (void)len;
	if (pv_probe_first(head) != '{')
		return 0;
	if ((pv_probe_key(head, "machine_info") ||
	     pv_probe_key(head, "commit_info")) &&
	    !pv_probe_key(head, "context"))
		return 90;
	if (pv_probe_key(head, "benchmarks") && pv_probe_key(head, "stats") &&
	    (pv_probe_key(head, "fullname") || pv_probe_key(head, "rounds")))
		return 80;
	return 0;
}

const struct pv_reader pv_reader_pytest = {
	"pytest",
	"pytest-benchmark JSON: an object with \"machine_info\", "
	"\"commit_info\" and \"benchmarks\" with \"stats\"; time lower is "
	"better",
	pytest_probe,
	pytest_read,
};

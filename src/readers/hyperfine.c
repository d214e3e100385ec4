/*
 * hyperfine.c - hyperfine --export-json.
 *
 * Samples are results[].times[], wall-clock seconds of each timed run
 * (warmup runs are not in the file).  Keys: group "", benchmark = the
 * command, followed by " (k=v, k2=v2)" when the result has parameters
 * (from --parameter-scan or --parameter-list, in the file's order);
 * metric "time" (unit s, lower is better).  memory_usage_byte[] (max RSS
 * per run, hyperfine 1.17 and later) is a second metric, "memory" (unit
 * B, lower is better).  mean, stddev, user, system and the rest are
 * summaries and are not read.
 *
 * Runs that exited non-zero (kept with -i) are still samples; a warning
 * says how many there were.  Parameter values go to the side's context
 * as "param.<name>".
 */
#include "reader.h"

#include <string.h>
#include "jsonutil.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

static int benchmark_name(struct pv_read_ctx *ctx, const json_t *res,
			  const char *jpath, struct strbuf *sb,
			  struct pv_err *err)
{
	const json_t *cmd = json_object_get(res, "command");
	const json_t *params = json_object_get(res, "parameters");
	char jp[PV_JPATH_MAX + 32];
	const char *key;
	json_t *v;
	int n = 0;

	if (!json_is_string(cmd)) {
		pv_jpathf(jp, sizeof(jp), "%s.command", jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", cmd);
	}
	strbuf_addstr(sb, json_string_value(cmd));
	if (!params || json_is_null(params))
		return 0;
	if (!json_is_object(params)) {
		pv_jpathf(jp, sizeof(jp), "%s.parameters", jpath);
		return pv_json_expect(err, ctx->path, jp, "an object", params);
	}
	json_object_foreach((json_t *)params, key, v) {
		char ckey[PV_JPATH_MAX];

		if (!json_is_string(v) && !json_is_number(v)) {
			pv_jpathf(jp, sizeof(jp), "%s.parameters.%s", jpath,
				 key);
			return pv_json_expect(err, ctx->path, jp,
					      "a string or a number", v);
		}
		strbuf_addstr(sb, n++ ? ", " : " (");
		strbuf_addf(sb, "%s=", key);
		if (json_is_string(v)) {
			strbuf_addstr(sb, json_string_value(v));
			pv_jpathf(ckey, sizeof(ckey), "param.%s", key);
			pv_context(ctx, ckey, json_string_value(v));
		} else if (json_is_integer(v)) {
			strbuf_addf(sb, "%lld",
				    (long long)json_integer_value(v));
		} else {
			strbuf_addnum(sb, "%.17g", json_real_value(v));
		}
	}
	if (n)
		strbuf_addch(sb, ')');
	return 0;
}

static void check_exit_codes(struct pv_read_ctx *ctx, const json_t *res,
			     const char *bench)
{
	const json_t *codes = json_object_get(res, "exit_codes");
	size_t i, bad = 0;
	json_t *c;

	json_array_foreach(codes, i, c)
		if (!json_is_integer(c) || json_integer_value(c) != 0)
			bad++;
	if (bad)
		pv_warn(ctx, PV_M_FAILED_RUNS, 0, "'%s': %zu of %zu runs exited non-zero or were "
			"killed; their times are still samples", bench, bad,
			json_array_size(codes));
}

static int read_metric(struct pv_read_ctx *ctx, const json_t *res,
		       const char *jpath, const char *member,
		       struct pv_sample *s, int required, struct pv_err *err)
{
	const json_t *arr = json_object_get(res, member);
	char jp[PV_JPATH_MAX + 32];
	struct pv_jskip skip = { 0, 0, "" };

	pv_jpathf(jp, sizeof(jp), "%s.%s", jpath, member);
	if (!arr && !required)
		return 0;
	if (!json_is_array(arr))
		return pv_json_expect(err, ctx->path, jp, "an array", arr);
	if (pv_json_emit_array(ctx, arr, jp, s, &skip, err) < 0)
		return -1;
	if (!json_array_size(arr))
		return pv_emit_note(ctx, s, "hyperfine recorded no runs", err);
	return pv_jskip_finish(ctx, s, jp, &skip, err);
}

static int hyperfine_read(struct pv_read_ctx *ctx, const char *buf,
			  size_t len, struct pv_err *err)
{
	struct strbuf name = STRBUF_INIT;
	json_t *root;
	const json_t *results, *res;
	size_t i;
	int rc = -1;

	if (!(root = pv_json_parse_object(ctx->path, buf, len, err)))
		return -1;
	if (!(results = pv_json_array_member(ctx, root, "results", err)))
		goto out;
	json_array_foreach(results, i, res) {
		char jp[PV_JPATH_MAX];
		struct pv_sample s = { "", NULL, "time", "s", PV_DIR_LOWER, 0 };

		pv_jpathf(jp, sizeof(jp), "results[%zu]", i);
		if (!json_is_object(res)) {
			pv_json_expect(err, ctx->path, jp, "an object", res);
			goto out;
		}
		strbuf_reset(&name);
		if (benchmark_name(ctx, res, jp, &name, err) < 0)
			goto out;
		s.benchmark = name.buf;
		if (read_metric(ctx, res, jp, "times", &s, 1, err) < 0)
			goto out;
		s.metric = "memory";
		s.unit = "B";
		if (read_metric(ctx, res, jp, "memory_usage_byte", &s, 0,
				err) < 0)
			goto out;
		check_exit_codes(ctx, res, name.buf);
	}
	rc = 0;
out:
	strbuf_release(&name);
	json_decref(root);
	return rc;
}

static int hyperfine_probe(const char *relpath, const char *head, size_t len)
{
	(void)relpath, (void)len;
	if (pv_probe_first(head) != '{' || !pv_probe_key(head, "results") ||
	    !pv_probe_key(head, "command"))
		return 0;
	if (pv_probe_key(head, "times") || pv_probe_key(head, "mean") ||
	    pv_probe_key(head, "stddev") || pv_probe_key(head, "exit_codes"))
		return 90;
	return 60;
}

const struct pv_reader pv_reader_hyperfine = {
	"hyperfine",
	"hyperfine --export-json: an object with \"results\" of "
	"{\"command\", \"times\"}; time lower is better",
	hyperfine_probe,
	hyperfine_read,
};

/*
 * gbench.c - Google Benchmark JSON (--benchmark_format=json, or
 * --benchmark_out=F --benchmark_out_format=json).
 *
 * Samples are the entries with "run_type": "iteration", one per
 * repetition, keyed by benchmark = run_name (plus "/threads:N" when the
 * name does not say it already), group "" and metric real_time, cpu_time
 * (unit time_unit) or the name of a user counter (every other numeric
 * member; *_per_second counters are higher-is-better, the MemoryManager's
 * allocs_per_iter, max_bytes_used, total_allocated_bytes and
 * net_heap_growth lower-is-better, others have no direction).  Aggregates
 * (mean, median, stddev, cv) are summaries: they are skipped, and a
 * benchmark that has nothing else (--benchmark_report_aggregates_only)
 * is given as summaries, pv_emit_summary() of its mean and stddev
 * aggregates with n = repetitions, so that Welch's test can compare it
 * from them; without a stddev aggregate or a repetition count it is
 * declared with a note so that its verdict is insufficient.  Entries
 * that carry error_occurred or skipped, and the complexity entries
 * (_BigO, _RMS), are skipped.  Files from versions before run_type
 * existed name aggregates "<name>_mean" and so on; they are read too.
 *
 * Google Benchmark prints non-finite doubles as bare NaN and Infinity,
 * which are not JSON; pv_json_parse() quotes them, and such samples are
 * skipped with a warning naming each one.
 *
 * The context object goes to the side's context, less "date" and
 * "load_avg", which differ on every run and would only hide the keys
 * that matter; "caches" is summarised on one line.
 */
#include "reader.h"

#include <string.h>
#include "jsonutil.h"
#include "../util/num.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

/* Numeric members that describe an entry rather than measure it. */
static const char *const not_counters[] = {
	"family_index", "per_family_instance_index", "repetitions",
	"repetition_index", "threads", "iterations", "real_time", "cpu_time",
	"cpu_coefficient", "real_coefficient", "rms", NULL
};

/* String members; a string elsewhere may be a quoted NaN counter. */
static const char *const string_members[] = {
	"name", "run_name", "run_type", "aggregate_name", "aggregate_unit",
	"time_unit", "label", "error_message", "skip_message", "big_o",
	"error_occurred", "skipped", NULL
};

static const char *const old_aggregate_suffixes[] = {
	"_mean", "_median", "_stddev", "_cv", NULL
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

enum kind { ITERATION, AGGREGATE, COMPLEXITY, FAILED };

/* One entry of "benchmarks", checked enough to be used. */
struct entry {
	const json_t *obj;
	char jpath[PV_JPATH_MAX];
	const char *name;
	char bench[2048];       /* the benchmark key (longer ones are cut) */
	const char *time_unit;
	const char *agg;        /* an aggregate's name: "mean", "stddev"... */
	enum kind kind;
	/* For summaries: the stddev aggregate and the repetition count. */
	const json_t *sd;
	size_t reps;
};

static int truthy(const json_t *v)
{
	return v && !json_is_false(v) && !json_is_null(v);
}

static int parse_entry(struct pv_read_ctx *ctx, const json_t *arr, size_t i,
		       struct entry *e, struct pv_err *err)
{
	const json_t *v, *run_type, *threads;
	const char *base, *agg;
	char jp[PV_JPATH_MAX + 32];
	size_t baselen;

	memset(e, 0, sizeof(*e));
	e->obj = json_array_get(arr, i);
	pv_jpathf(e->jpath, sizeof(e->jpath), "benchmarks[%zu]", i);
	if (!json_is_object(e->obj))
		return pv_json_expect(err, ctx->path, e->jpath, "an object",
				      e->obj);
	v = json_object_get(e->obj, "name");
	if (!json_is_string(v)) {
		pv_jpathf(jp, sizeof(jp), "%s.name", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", v);
	}
	e->name = json_string_value(v);
	base = e->name;
	baselen = strlen(base);
	v = json_object_get(e->obj, "run_name");
	if (v) {
		if (!json_is_string(v)) {
			pv_jpathf(jp, sizeof(jp), "%s.run_name", e->jpath);
			return pv_json_expect(err, ctx->path, jp, "a string", v);
		}
		base = json_string_value(v);
		baselen = strlen(base);
	}
	run_type = json_object_get(e->obj, "run_type");
	if (run_type && !json_is_string(run_type)) {
		pv_jpathf(jp, sizeof(jp), "%s.run_type", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", run_type);
	}
	agg = pv_json_str(e->obj, "aggregate_name");

	if (truthy(json_object_get(e->obj, "error_occurred")) ||
	    truthy(json_object_get(e->obj, "skipped")))
		e->kind = FAILED;
	else if (json_object_get(e->obj, "big_o") ||
		 json_object_get(e->obj, "rms") ||
		 pv_ends_with(e->name, "_BigO", 0) ||
		 pv_ends_with(e->name, "_RMS", 0) ||
		 (agg && (!strcmp(agg, "BigO") || !strcmp(agg, "RMS"))))
		e->kind = COMPLEXITY;
	else if (run_type)
		e->kind = strcmp(json_string_value(run_type), "aggregate") ?
			  ITERATION : AGGREGATE;
	else
		e->kind = ITERATION;
	if (e->kind == AGGREGATE)
		e->agg = agg;
	/* Before run_type, aggregates were "<name>_mean" and so on. */
	if (!run_type && !agg && e->kind == ITERATION) {
		for (size_t k = 0; old_aggregate_suffixes[k]; k++) {
			if (pv_ends_with(e->name, old_aggregate_suffixes[k], 0)) {
				e->kind = AGGREGATE;
				e->agg = old_aggregate_suffixes[k] + 1;
				if (base == e->name)
					baselen -= strlen(
						old_aggregate_suffixes[k]);
				break;
			}
		}
	}

	/* ->Threads(n) puts "/threads:n" in the name; should a file say
	 * threads > 1 without it, add it, so that runs at different thread
	 * counts stay apart. */
	threads = json_object_get(e->obj, "threads");
	if (json_is_integer(threads) && json_integer_value(threads) > 1 &&
	    !strstr(base, "threads:"))
		pv_jpathf(e->bench, sizeof(e->bench), "%.*s/threads:%lld",
			 (int)baselen, base,
			 (long long)json_integer_value(threads));
	else
		pv_jpathf(e->bench, sizeof(e->bench), "%.*s", (int)baselen,
			 base);

	v = json_object_get(e->obj, "time_unit");
	if (v && !json_is_string(v)) {
		pv_jpathf(jp, sizeof(jp), "%s.time_unit", e->jpath);
		return pv_json_expect(err, ctx->path, jp, "a string", v);
	}
	e->time_unit = v ? json_string_value(v) : "ns";
	return 0;
}

/* What the library's MemoryManager reports (lower is better). */
static const char *const memory_counters[] = {
	"allocs_per_iter", "max_bytes_used", "total_allocated_bytes",
	"net_heap_growth", NULL
};

static const char *counter_unit(const char *name)
{
	if (!strcmp(name, "bytes_per_second"))
		return "B/s";
	if (!strcmp(name, "items_per_second"))
		return "items/s";
	if (in_list(memory_counters, name) && strcmp(name, "allocs_per_iter"))
		return "B";
	return "";
}

static enum pv_dir counter_dir(const char *name)
{
	if (pv_ends_with(name, "_per_second", 0))
		return PV_DIR_HIGHER;
	if (in_list(memory_counters, name))
		return PV_DIR_LOWER;
	return PV_DIR_UNSET;
}

/*
 * Call fn for every metric of an entry: the two times, then the
 * counters.  Counters are the members that are numbers, or strings
 * spelling a non-finite number, and are not known members.
 */
typedef int (*metric_fn)(struct pv_read_ctx *ctx, const struct entry *e,
			 const char *metric, const json_t *v,
			 struct pv_sample *s, struct pv_err *err);

static int each_metric(struct pv_read_ctx *ctx, const struct entry *e,
		       metric_fn fn, struct pv_err *err)
{
	struct pv_sample s = { "", e->bench, NULL, e->time_unit,
			       PV_DIR_LOWER, 0 };
	const char *key;
	json_t *v;

	s.metric = "real_time";
	if (fn(ctx, e, s.metric, json_object_get(e->obj, "real_time"), &s,
	       err) < 0)
		return -1;
	s.metric = "cpu_time";
	if (fn(ctx, e, s.metric, json_object_get(e->obj, "cpu_time"), &s,
	       err) < 0)
		return -1;
	json_object_foreach((json_t *)e->obj, key, v) {
		double d;

		if (in_list(not_counters, key) ||
		    in_list(string_members, key))
			continue;
		if (!json_is_number(v) &&
		    pv_json_num(v, &d) != PV_JNUM_NONFINITE)
			continue;
		s.metric = key;
		s.unit = counter_unit(key);
		s.dir = counter_dir(key);
		if (fn(ctx, e, key, v, &s, err) < 0)
			return -1;
	}
	return 0;
}

static int emit_value(struct pv_read_ctx *ctx, const struct entry *e,
		      const char *metric, const json_t *v,
		      struct pv_sample *s, struct pv_err *err)
{
	char jp[PV_JPATH_MAX + 64];

	switch (pv_json_num(v, &s->value)) {
	case PV_JNUM_OK:
		return pv_emit(ctx, s, err);
	case PV_JNUM_NONFINITE:
	case PV_JNUM_NULL:
		pv_warn(ctx, PV_M_SKIPPED_SAMPLE, 0, "%s.%s of '%s' is %s; sample skipped",
			e->jpath, metric, e->name,
			json_is_string(v) ? json_string_value(v) : "null");
		return 0;
	case PV_JNUM_BAD:
		break;
	}
	pv_jpathf(jp, sizeof(jp), "%s.%s", e->jpath, metric);
	return pv_json_expect(err, ctx->path, jp, "a number", v);
}

static const char aggregates_only_note[] =
	"only aggregates (mean/median/stddev) were saved; rerun without "
	"--benchmark_report_aggregates_only for per-repetition samples";

static int emit_note(struct pv_read_ctx *ctx, const struct entry *e,
		     const char *metric, const json_t *v,
		     struct pv_sample *s, struct pv_err *err)
{
	(void)e, (void)metric;
	if (!v)         /* the cv aggregate of a counter may lack a time */
		return 0;
	return pv_emit_note(ctx, s, aggregates_only_note, err);
}

/* A mean aggregate's value with its stddev aggregate's: one summary. */
static int emit_summary(struct pv_read_ctx *ctx, const struct entry *e,
			const char *metric, const json_t *v,
			struct pv_sample *s, struct pv_err *err)
{
	double mean, sd;

	if (!v)
		return 0;
	if (pv_json_num(v, &mean) != PV_JNUM_OK ||
	    pv_json_num(json_object_get(e->sd, metric), &sd) != PV_JNUM_OK ||
	    !(sd >= 0))
		return pv_emit_note(ctx, s, "the mean or stddev aggregate is "
				    "not a finite number", err);
	return pv_emit_summary(ctx, s, e->reps, mean, sd, err);
}

/* The repetition count of an aggregate entry, 0 when it has none. */
static size_t repetitions(const json_t *obj)
{
	const json_t *r = json_object_get(obj, "repetitions");

	return json_is_integer(r) && json_integer_value(r) > 0 ?
	       (size_t)json_integer_value(r) : 0;
}

static void read_caches(struct pv_read_ctx *ctx, const json_t *caches)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *c;

	json_array_foreach(caches, i, c) {
		const json_t *level = json_object_get(c, "level");
		const json_t *size = json_object_get(c, "size");
		const json_t *share = json_object_get(c, "num_sharing");
		const char *type = pv_json_str(c, "type");

		if (!json_is_integer(level) || !json_is_integer(size) || !type)
			continue;
		strbuf_addf(&sb, "%sL%lld %s %lld KiB", sb.len ? ", " : "",
			    (long long)json_integer_value(level), type,
			    (long long)json_integer_value(size) / 1024);
		if (json_is_integer(share) && json_integer_value(share) > 1)
			strbuf_addf(&sb, " (shared by %lld)",
				    (long long)json_integer_value(share));
	}
	if (sb.len)
		pv_context(ctx, "caches", sb.buf);
	strbuf_release(&sb);
}

static void read_context(struct pv_read_ctx *ctx, const json_t *context)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)context, key, v) {
		char num[64];

		if (!strcmp(key, "date") || !strcmp(key, "load_avg"))
			continue;
		if (!strcmp(key, "caches") && json_is_array(v)) {
			read_caches(ctx, v);
			continue;
		}
		if (json_is_string(v)) {
			pv_context(ctx, key, json_string_value(v));
		} else if (json_is_integer(v)) {
			pv_jpathf(num, sizeof(num), "%lld",
				 (long long)json_integer_value(v));
			pv_context(ctx, key, num);
		} else if (json_is_real(v)) {
			pv_snprintf(num, sizeof(num), "%.15g",
				    json_real_value(v));
			pv_context(ctx, key, num);
		} else if (json_is_boolean(v)) {
			pv_context(ctx, key, json_is_true(v) ? "true" : "false");
		}
	}
	if (json_is_true(json_object_get(context, "cpu_scaling_enabled")))
		pv_warn(ctx, PV_M_CPU_SCALING, 0, "CPU frequency scaling was enabled while "
			"benchmarking; real time will be noisy");
	/* library_build_type "debug" is not warned about: Debian's
	 * libbenchmark always says so, and the context shows it. */
}

static int gbench_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		       struct pv_err *err)
{
	json_t *root, *context, *with_iter = NULL, *sdmap = NULL;
	const json_t *benches;
	struct entry e;
	const char *last_failed = NULL;
	size_t i, naggonly = 0, nsummary = 0;
	int rc = -1;

	if (!(root = pv_json_parse_object(ctx->path, buf, len, err)))
		return -1;
	context = json_object_get(root, "context");
	if (context && !json_is_object(context)) {
		pv_json_expect(err, ctx->path, "context", "an object", context);
		goto out;
	}
	if (context)
		read_context(ctx, context);
	if (!(benches = pv_json_array_member(ctx, root, "benchmarks", err)))
		goto out;

	/* Samples first; remember which benchmarks had some. */
	with_iter = json_object();
	for (i = 0; i < json_array_size(benches); i++) {
		if (parse_entry(ctx, benches, i, &e, err) < 0)
			goto out;
		if (e.kind == FAILED) {
			const char *msg = pv_json_str(e.obj, "error_message");

			if (!msg)
				msg = pv_json_str(e.obj, "skip_message");
			if (!last_failed || strcmp(last_failed, e.name))
				pv_warn(ctx, PV_M_FAILED_BENCHMARK, 0, "'%s' %s%s%s; no samples from it",
					e.name, truthy(json_object_get(e.obj,
					"error_occurred")) ? "failed" :
					"was skipped", msg ? ": " : "",
					msg ? msg : "");
			last_failed = e.name;
			continue;
		}
		if (e.kind != ITERATION)
			continue;
		json_object_set_new_nocheck(with_iter, e.bench, json_true());
		if (each_metric(ctx, &e, emit_value, err) < 0)
			goto out;
	}
	/* Then benchmarks whose repetitions were not saved: their mean and
	 * stddev aggregates, as summaries. */
	sdmap = json_object();
	for (i = 0; i < json_array_size(benches); i++) {
		if (parse_entry(ctx, benches, i, &e, err) < 0)
			goto out;
		if (e.kind == AGGREGATE && e.agg && !strcmp(e.agg, "stddev") &&
		    !json_object_get(with_iter, e.bench))
			json_object_set_new_nocheck(sdmap, e.bench,
						    json_integer((json_int_t)i));
	}
	for (i = 0; i < json_array_size(benches); i++) {
		const json_t *k;

		if (parse_entry(ctx, benches, i, &e, err) < 0)
			goto out;
		if (e.kind != AGGREGATE || !e.agg || strcmp(e.agg, "mean") ||
		    json_object_get(with_iter, e.bench) ||
		    !(k = json_object_get(sdmap, e.bench)) ||
		    !(e.reps = repetitions(e.obj)))
			continue;
		e.sd = json_array_get(benches, (size_t)json_integer_value(k));
		if (each_metric(ctx, &e, emit_summary, err) < 0)
			goto out;
		json_object_set_new_nocheck(with_iter, e.bench, json_false());
		nsummary++;
	}
	/* The rest cannot be compared. */
	for (i = 0; i < json_array_size(benches); i++) {
		if (parse_entry(ctx, benches, i, &e, err) < 0)
			goto out;
		if (e.kind != AGGREGATE || json_object_get(with_iter, e.bench))
			continue;
		if (each_metric(ctx, &e, emit_note, err) < 0)
			goto out;
		json_object_set_new_nocheck(with_iter, e.bench, json_false());
		naggonly++;
	}
	if (nsummary)
		pv_warn(ctx, PV_M_AGGREGATES_ONLY, 0, "only aggregates were saved for %zu "
			"benchmark%s (--benchmark_report_aggregates_only); "
			"compared from the summaries (mean, stddev, "
			"repetitions) by Welch's test", nsummary,
			nsummary == 1 ? "" : "s");
	if (naggonly)
		pv_warn(ctx, PV_M_AGGREGATES_ONLY, 0, "only aggregates were saved for %zu "
			"benchmark%s (--benchmark_report_aggregates_only), "
			"without a stddev aggregate or a repetition count; no "
			"test is possible for %s", naggonly,
			naggonly == 1 ? "" : "s", naggonly == 1 ? "it" : "them");
	rc = 0;
out:
	json_decref(sdmap);
	json_decref(with_iter);
	json_decref(root);
	return rc;
}

static int gbench_probe(const char *relpath, const char *head, size_t len)
{
	(void)relpath, (void)len;
	if (pv_probe_first(head) != '{')
		return 0;
	if (pv_probe_key(head, "context") &&
	    (pv_probe_key(head, "num_cpus") ||
	     pv_probe_key(head, "mhz_per_cpu") ||
	     pv_probe_key(head, "library_build_type") ||
	     pv_probe_key(head, "json_schema_version")))
		return 90;
	/* A file cut short inside its context. */
	if (pv_probe_key(head, "context") &&
	    (pv_probe_key(head, "host_name") || pv_probe_key(head, "executable")))
		return 70;
	/* A file without its context. */
	if (pv_probe_key(head, "benchmarks") &&
	    (pv_probe_key(head, "run_type") || pv_probe_key(head, "run_name") ||
	     pv_probe_key(head, "time_unit")) &&
	    (pv_probe_key(head, "real_time") || pv_probe_key(head, "cpu_time")))
		return 80;
	return 0;
}

const struct pv_reader pv_reader_gbench = {
	"gbench",
	"Google Benchmark JSON: an object with \"context\" (num_cpus, "
	"mhz_per_cpu...) and \"benchmarks\"; time lower is better, "
	"*_per_second counters higher",
	gbench_probe,
	gbench_read,
};

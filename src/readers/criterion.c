/*
 * criterion.c - criterion.rs result directories (target/criterion/).
 *
 * Each benchmark has <id>/new/sample.json, {"sampling_mode", "iters":
 * [...], "times": [...]}, with the total nanoseconds of times[i] for
 * iters[i] iterations; each times[i]/iters[i] is one sample (unit ns,
 * lower is better).  criterion 0.2 and older wrote the same two arrays
 * as a pair, [[iters...], [times...]]; that is read too.  Its name comes from benchmark.json next to it:
 * group = group_id, benchmark = full_id less the "group_id/" prefix
 * ("Recursive/20"), or full_id with group "" for a lone bench_function.
 * Without benchmark.json the directory path is the name, with a warning.
 *
 * criterion also keeps the saved baseline in <id>/base/ (or the name
 * given to --save-baseline).  When cfg->criterion_baseline is set, the
 * baseline side reads <id>/<that name>/sample.json instead of
 * <id>/new/sample.json, so BASELINE and CANDIDATE may be the same tree.
 * A benchmark with no saved baseline of that name gives no baseline
 * samples (it is new), with a warning.
 *
 * The other files criterion writes (benchmark.json, estimates.json,
 * tukey.json, raw.csv, and sample.json outside new/) are recognised as
 * companion files that yield no samples, so neither a broad
 * result_file_pattern nor auto-detection trips over them.
 * Throughput is not read: it is the time's reciprocal and would count
 * the same change twice.
 */
#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "jsonutil.h"
#include "../util/file.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Is relpath ".../new/sample.json"?  Sets *dirlen to the length of the
 * benchmark directory part ("" + "group/bench"), without the slash. */
static int is_new_sample(const char *relpath, size_t *dirlen)
{
	static const char tail[] = "new/sample.json";
	size_t n = strlen(relpath), m = sizeof(tail) - 1;

	if (!pv_ends_with(relpath, tail, 0))
		return 0;
	if (n > m && relpath[n - m - 1] != '/')
		return 0;
	*dirlen = n > m ? n - m - 1 : 0;
	return 1;
}

/*
 * Read a whole file into sb.  Returns 0, 1 when it does not exist, or -1
 * with err filled.
 */
/* A sibling file, read as safely as the loader reads result files
 * (regular files only, within the size limit); 1 when it is absent. */
static int slurp(const struct pv_read_ctx *ctx, const char *fspath,
		 const char *shown, struct strbuf *sb, struct pv_err *err)
{
	size_t max = ctx->cfg && ctx->cfg->limits.max_file_size ?
		     ctx->cfg->limits.max_file_size : (size_t)-1;

	return pv_read_file(fspath, shown, max, sb, err);
}

/* "<root>/<dir>/<sub>/<file>" and the same relative to what the user sees. */
static void sibling(const struct pv_read_ctx *ctx, size_t dirlen,
		    const char *sub, const char *file, struct strbuf *fs,
		    struct strbuf *shown)
{
	size_t plen = strlen(ctx->path), rlen = strlen(ctx->relpath);

	strbuf_reset(fs);
	strbuf_reset(shown);
	strbuf_addf(fs, "%s/", ctx->root ? ctx->root : ".");
	if (dirlen)
		strbuf_addf(fs, "%.*s/", (int)dirlen, ctx->relpath);
	strbuf_addf(fs, "%s/%s", sub, file);
	/* ctx->path normally ends with relpath: keep its prefix. */
	if (pv_ends_with(ctx->path, ctx->relpath, 0))
		strbuf_add(shown, ctx->path, plen - rlen);
	if (dirlen)
		strbuf_addf(shown, "%.*s/", (int)dirlen, ctx->relpath);
	strbuf_addf(shown, "%s/%s", sub, file);
}

/* Name the benchmark from benchmark.json in sub/ (then new/). */
static int read_name(struct pv_read_ctx *ctx, size_t dirlen, const char *sub,
		     struct strbuf *group, struct strbuf *bench,
		     struct pv_err *err)
{
	struct strbuf fs = STRBUF_INIT, shown = STRBUF_INIT, buf = STRBUF_INIT;
	const char *subs[2] = { sub, "new" };
	json_t *root = NULL;
	int rc = 1;

	for (int i = 0; i < 2 && rc == 1; i++) {
		if (i && !strcmp(sub, "new"))
			break;
		sibling(ctx, dirlen, subs[i], "benchmark.json", &fs, &shown);
		strbuf_reset(&buf);
		rc = slurp(ctx, fs.buf, shown.buf, &buf, err);
	}
	if (rc == 0) {
		const char *gid, *fid;

		root = pv_json_parse(shown.buf, buf.buf, buf.len, err);
		if (!root) {
			rc = -1;
			goto out;
		}
		gid = pv_json_str(root, "group_id");
		fid = pv_json_str(root, "full_id");
		if (!fid) {
			rc = pv_json_expect(err, shown.buf, "full_id",
					    "a string",
					    json_object_get(root, "full_id"));
			goto out;
		}
		if (gid && strcmp(gid, fid)) {
			size_t g = strlen(gid);

			strbuf_addstr(group, gid);
			if (!strncmp(fid, gid, g) && fid[g] == '/')
				fid += g + 1;
		}
		strbuf_addstr(bench, fid);
	} else if (rc == 1) {
		rc = 0;
		strbuf_add(bench, ctx->relpath, dirlen);
		if (!dirlen)
			strbuf_addstr(bench, ctx->test);
		pv_warn(ctx, PV_M_NO_BENCHMARK_JSON, 0, "no benchmark.json beside it; naming the "
			"benchmark '%s' after its directory", bench->buf);
	}
out:
	json_decref(root);
	strbuf_release(&fs);
	strbuf_release(&shown);
	strbuf_release(&buf);
	return rc < 0 ? -1 : 0;
}

static int read_samples(struct pv_read_ctx *ctx, const char *shown,
			const char *buf, size_t len, struct pv_sample *s,
			struct pv_err *err)
{
	const json_t *iters, *times;
	struct pv_jskip skip = { 0, 0, "" };
	char jp[64];
	json_t *root;
	size_t i;
	int rc = -1;

	if (!(root = pv_json_parse(shown, buf, len, err)))
		return -1;
	if (json_is_array(root)) {
		/* criterion <= 0.2: [[iters...], [times...]] */
		iters = json_array_get(root, 0);
		times = json_array_get(root, 1);
		if (json_array_size(root) != 2 || !json_is_array(iters) ||
		    !json_is_array(times)) {
			pv_json_expect(err, shown, "$", "a pair of arrays "
				       "[[iters...], [times...]] (criterion "
				       "0.2) or an object with \"iters\" and "
				       "\"times\"", root);
			goto out;
		}
	} else {
		iters = json_object_get(root, "iters");
		times = json_object_get(root, "times");
		if (!json_is_array(iters)) {
			pv_json_expect(err, shown, "iters", "an array", iters);
			goto out;
		}
		if (!json_is_array(times)) {
			pv_json_expect(err, shown, "times", "an array", times);
			goto out;
		}
	}
	if (json_array_size(iters) != json_array_size(times)) {
		pv_error(err, PV_M_BAD_STRUCTURE, "%s: iters has %zu entries but times "
			 "has %zu; expected one count per time", shown,
			 json_array_size(iters), json_array_size(times));
		goto out;
	}
	for (i = 0; i < json_array_size(times); i++) {
		const json_t *t = json_array_get(times, i);
		const json_t *n = json_array_get(iters, i);
		double tv, nv;

		if (pv_json_num(n, &nv) != PV_JNUM_OK || !(nv > 0)) {
			pv_jpathf(jp, sizeof(jp), "iters[%zu]", i);
			pv_json_expect(err, shown, jp,
				       "a positive iteration count", n);
			goto out;
		}
		switch (pv_json_num(t, &tv)) {
		case PV_JNUM_OK:
			s->value = tv / nv;
			if (pv_emit(ctx, s, err) < 0)
				goto out;
			skip.good++;
			break;
		case PV_JNUM_NONFINITE:
		case PV_JNUM_NULL:
			pv_jpathf(jp, sizeof(jp), "times[%zu]", i);
			pv_jskip_add(&skip, jp, t);
			break;
		case PV_JNUM_BAD:
			pv_jpathf(jp, sizeof(jp), "times[%zu]", i);
			pv_json_expect(err, shown, jp, "a number", t);
			goto out;
		}
	}
	if (!i)
		rc = pv_emit_note(ctx, s, "criterion saved no samples", err);
	else
		rc = pv_jskip_finish(ctx, s, s->benchmark, &skip, err);
out:
	json_decref(root);
	return rc;
}

static int criterion_read(struct pv_read_ctx *ctx, const char *buf,
			  size_t len, struct pv_err *err)
{
	struct strbuf group = STRBUF_INIT, bench = STRBUF_INIT;
	struct strbuf fs = STRBUF_INIT, shown = STRBUF_INIT;
	struct strbuf other = STRBUF_INIT;
	struct pv_sample s = { NULL, NULL, "time", "ns", PV_DIR_LOWER, 0 };
	const char *saved = ctx->cfg ? ctx->cfg->criterion_baseline : NULL;
	const char *sub = "new", *shown_path = ctx->path;
	size_t dirlen;
	int rc = -1;

	/* benchmark.json, estimates.json, base/sample.json...: no samples. */
	if (!is_new_sample(ctx->relpath, &dirlen)) {
		ctx->companion = 1;
		return 0;
	}
	if (ctx->side == PV_BASE && saved && *saved) {
		if (strchr(saved, '/') || !strcmp(saved, ".") ||
		    !strcmp(saved, ".."))
			return pv_error(err, PV_M_BAD_CRITERION_BASELINE, "criterion baseline "
					"'%s' is not a directory name", saved);
		sub = saved;
		sibling(ctx, dirlen, sub, "sample.json", &fs, &shown);
		switch (slurp(ctx, fs.buf, shown.buf, &other, err)) {
		case 1:
			pv_warn(ctx, PV_M_NO_SAVED_BASELINE, 0, "no saved criterion baseline '%s' "
				"(%s); the benchmark has no baseline samples",
				saved, shown.buf);
			rc = 0;
			goto out;
		case -1:
			goto out;
		}
		buf = other.buf;
		len = other.len;
		shown_path = shown.buf;
	}
	if (read_name(ctx, dirlen, sub, &group, &bench, err) < 0)
		goto out;
	s.group = group.buf;
	s.benchmark = bench.buf;
	rc = read_samples(ctx, shown_path, buf, len, &s, err);
out:
	strbuf_release(&group);
	strbuf_release(&bench);
	strbuf_release(&fs);
	strbuf_release(&shown);
	strbuf_release(&other);
	return rc;
}

/* Does head start "[[" (blanks allowed), an array of arrays? */
static int old_pair(const char *head)
{
	const char *p = head;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p++ != '[')
		return 0;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return *p == '[';
}

static int criterion_probe(const char *relpath, const char *head,
			   size_t len)
{
	const char *base = base_name(relpath);
	int first = pv_probe_first(head);

	(void)len;
	if (first == '{' && pv_probe_key(head, "iters") &&
	    pv_probe_key(head, "times"))
		return !strcmp(base, "sample.json") ||
		       pv_probe_key(head, "sampling_mode") ? 95 : 70;
	if (first == '{' && !strcmp(base, "benchmark.json") &&
	    pv_probe_key(head, "group_id") && pv_probe_key(head, "full_id"))
		return 90;
	if (first == '{' && !strcmp(base, "estimates.json") &&
	    pv_probe_key(head, "point_estimate") &&
	    pv_probe_key(head, "confidence_interval"))
		return 90;
	if (first == '[' && !strcmp(base, "tukey.json"))
		return 60;
	/* criterion <= 0.2's sample.json: [[iters...], [times...]] */
	if (first == '[' && !strcmp(base, "sample.json") && old_pair(head))
		return 90;
	/* The samples again, as CSV for other tools (criterion >= 0.3). */
	if (!strcmp(base, "raw.csv") &&
	    !strncmp(head, "group,function,value,", 21) &&
	    strstr(head, "sample_measured_value"))
		return 95;
	return 0;
}

const struct pv_reader pv_reader_criterion = {
	"criterion",
	"criterion.rs: <id>/new/sample.json ({\"iters\", \"times\"}) named by "
	"benchmark.json; --criterion-baseline NAME reads <id>/NAME/ for the "
	"baseline; time lower is better",
	criterion_probe,
	criterion_read,
};

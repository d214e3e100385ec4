/*
 * benchaction.c - a github-action-benchmark data.js (or the same object
 * as JSON) as one side of a comparison: the newest entry of each suite
 * by time (history's order, whatever the array's), one sample per
 * bench.  Its metrics are keyed as benchdata.h keys an archive's (test
 * "", group the suite, metric "value"), not by file, so
 * that `compare --baseline-history data.js CANDIDATE` meets the
 * archive's series; a data.js that github-action-benchmark wrote with
 * the run under test appended (external-data-json-path) is a candidate.
 */
#include <string.h>
#include "reader.h"
#include "jsonutil.h"
#include "benchdata.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

/* The entry of list with the newest time (of equal ones, the last), as
 * history orders the points; every entry is checked on the way. */
static int newest_entry(const char *path, const char *suite, json_t *list,
			struct pv_bd_entry *out, struct pv_err *err)
{
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		struct pv_bd_entry en;

		if (pv_benchdata_entry(path, suite, i, e, &en, err))
			return -1;
		if (!i || en.time >= out->time)
			*out = en;
	}
	return 0;
}

static int benchaction_read(struct pv_read_ctx *ctx, const char *buf,
			    size_t len, struct pv_err *err)
{
	json_t *root = pv_benchdata_parse(ctx->path, buf, len, err), *list;
	const char *suite;
	struct strbuf unit = STRBUF_INIT;
	int rc = -1;

	if (!root)
		return -1;
	ctx->test = "";
	json_object_foreach(json_object_get(root, "entries"), suite, list) {
		struct pv_bd_entry en = { 0 };
		json_t *b;
		size_t n = json_is_array(list) ? json_array_size(list) : 0, j;

		if (!json_is_array(list)) {
			pv_error(err, PV_M_BAD_STRUCTURE,
				 "%s: entries[\"%s\"]: expected an array of entries",
				 ctx->path, suite);
			goto out;
		}
		if (!n)
			continue;
		if (newest_entry(ctx->path, suite, list, &en, err))
			goto out;
		json_array_foreach(en.benches, j, b) {
			const char *u =
				json_string_value(json_object_get(b, "unit"));
			struct pv_sample s = {
				suite, json_string_value(json_object_get(b, "name")),
				"value", u, pv_benchdata_tool_dir(en.tool),
				json_number_value(json_object_get(b, "value")),
			};
			size_t ulen = pv_benchdata_unit_len(en.tool, u);

			/* go's rest of the line: its first word (benchdata.h) */
			if (u[ulen]) {
				strbuf_reset(&unit);
				strbuf_add(&unit, u, ulen);
				s.unit = unit.buf;
			}
			if (pv_emit(ctx, &s, err))
				goto out;
		}
	}
	rc = 0;
out:
	strbuf_release(&unit);
	json_decref(root);
	return rc;
}

static int benchaction_probe(const char *relpath, const char *head, size_t len)
{
	(void)relpath, (void)len;
	while (*head == ' ' || *head == '\t' || *head == '\r' || *head == '\n')
		head++;
	if (!strncmp(head, "window.BENCHMARK_DATA", 21))
		return 95;
	if (pv_probe_first(head) == '{' && pv_probe_key(head, "entries") &&
	    pv_probe_key(head, "benches"))
		return 85;
	return 0;
}

const struct pv_reader pv_reader_benchaction = {
	"benchmark-action",
	"github-action-benchmark data.js (window.BENCHMARK_DATA = {...}) or "
	"the same JSON object: the newest entry of each suite by time; direction "
	"from the tool",
	benchaction_probe,
	benchaction_read,
};

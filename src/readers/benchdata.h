/*
 * benchdata.h - a github-action-benchmark history (its gh-pages
 * data.js, "window.BENCHMARK_DATA = {...}", or the same object as plain
 * JSON), parsed and checked: its newest entries are a side of a
 * comparison (the reader "benchmark-action", benchaction.c), and all of
 * it a history archive (history/read_datajs.c).
 *
 * The object is {"entries": {SUITE: [ENTRY...]}}, each ENTRY
 * {"commit": {"id", "timestamp"}, "date", "tool", "benches": [{"name",
 * "value", "unit"}]}.  Each commit is one point (its entries in every
 * suite): label the short commit id, commit the full one, time the
 * commit's timestamp (else the entry's date), points in time order.
 * Each bench is a metric keyed (test "", group SUITE, benchmark name,
 * metric "value") with one sample per entry, in its unit; its direction
 * is github-action-benchmark's own biggerIsBetter() for the entry's
 * tool (higher for benchmarkjs, pytest and customBiggerIsBetter, lower
 * for the others) unless a [metric] rule says otherwise.  What is lost:
 * one value per commit, so the noise between runs inside a point is
 * unknown (history estimates it between points only).
 */
#ifndef PV_BENCHDATA_H
#define PV_BENCHDATA_H

#include <jansson.h>
#include "../config.h"
#include "../util/err.h"

/* The direction github-action-benchmark gives tool; PV_DIR_UNSET for a
 * tool it does not know. */
enum pv_dir pv_benchdata_tool_dir(const char *tool);

/*
 * The length of the unit proper of a bench of tool.  github-action-
 * benchmark's go tool took the rest of go test's line as the unit until
 * it gave a benchmark's other metrics benches of their own, and then
 * still did for a while: "ns/op\t  819453 B/op\t       5 allocs/op",
 * whose B/op changes from commit to commit, so that every point would be
 * a metric of its own.  The unit is then the first word (the value is
 * that metric's; the others are not read from it, and the action's
 * "NAME - B/op" benches, where it wrote them, are read as they are).
 * Any other tool, or a unit not of the form UNIT (NUMBER UNIT)...: the
 * whole of it.
 */
size_t pv_benchdata_unit_len(const char *tool, const char *unit);

/* One entry, checked: its benches are json_array_get(benches, i). */
struct pv_bd_entry {
	const char *id, *tool;
	double time;            /* seconds since the epoch (UTC) */
	json_t *benches;
};

/* Parse buf (len bytes, NUL-terminated) of path: a data.js or the plain
 * JSON object; checks the object and its "entries" object.  NULL with
 * err naming path:line:column on a syntax error. */
json_t *pv_benchdata_parse(const char *path, const char *buf, size_t len,
			   struct pv_err *err);
/* Check entries[suite][i] = e (and each bench) into out. */
int pv_benchdata_entry(const char *path, const char *suite, size_t i,
		       json_t *e, struct pv_bd_entry *out, struct pv_err *err);

#endif

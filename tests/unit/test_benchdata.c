/*
 * test_benchdata.c - github-action-benchmark's data.js (readers/benchdata.h):
 * the direction of every tool the action knows (its src/write.ts
 * biggerIsBetter(), copied by hand from benchmark-action/
 * github-action-benchmark at c38cce9), the script prefix, go's units
 * (the rest of go test's line), and errors that name the file and the
 * line.
 */
#include "unit.h"

#include <string.h>
#include "readers/benchdata.h"

/* Upstream's rule as its src/write.ts states it: of the tools in
 * src/config.ts's VALID_TOOLS, biggerIsBetter() is true for these three
 * and false for every other; a tool it does not know has no direction
 * (names are case-sensitive). */
static void tool_directions(void **state)
{
	static const char *const valid[] = {
		"cargo", "go", "benchmarkjs", "benchmarkluau", "pytest",
		"googlecpp", "catch2", "julia", "jmh", "benchmarkdotnet",
		"customBiggerIsBetter", "customSmallerIsBetter",
	};
	static const char *const bigger[] = {
		"benchmarkjs", "pytest", "customBiggerIsBetter",
	};
	static const char *const unknown[] = { "nosuchtool", "Cargo", "" };

	(void)state;
	for (size_t i = 0; i < sizeof(valid) / sizeof(*valid); i++) {
		int big = 0;

		for (size_t j = 0; j < sizeof(bigger) / sizeof(*bigger); j++)
			big |= !strcmp(valid[i], bigger[j]);
		if (pv_benchdata_tool_dir(valid[i]) !=
		    (big ? PV_DIR_HIGHER : PV_DIR_LOWER))
			fail_msg("tool %s: direction %d, want %s", valid[i],
				 pv_benchdata_tool_dir(valid[i]),
				 big ? "higher" : "lower");
	}
	for (size_t i = 0; i < sizeof(unknown) / sizeof(*unknown); i++)
		assert_int_equal(pv_benchdata_tool_dir(unknown[i]), PV_DIR_UNSET);
}

/* go's rest of the line as a unit: its first word; anything else whole. */
static void go_units(void **state)
{
	static const struct {
		const char *tool, *unit;
		size_t len;
	} want[] = {
		{ "go", "ns/op\t  819453 B/op\t       5 allocs/op", 5 },
		{ "go", "ns/op 12.5 MB/s", 5 },
		{ "go", "ns/op", 5 },
		{ "go", "ns/op\t", 6 },                 /* no pair: whole */
		{ "go", "ns/op 819453", 12 },          /* a number alone */
		{ "go", "ns/op B/op 5", 12 },          /* not NUMBER UNIT */
		{ "go", " ns/op 5 B/op", 13 },         /* not a word first */
		{ "go", "", 0 },
		{ "customSmallerIsBetter", "ms 5 B/op", 9 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		size_t got = pv_benchdata_unit_len(want[i].tool, want[i].unit);

		if (got != want[i].len)
			fail_msg("%s '%s': %zu, want %zu", want[i].tool,
				 want[i].unit, got, want[i].len);
	}
}

static json_t *parse(const char *text, struct pv_err *err)
{
	memset(err, 0, sizeof(*err));
	return pv_benchdata_parse("d.js", text, strlen(text), err);
}

static void prefix_and_errors(void **state)
{
	struct pv_err err;
	json_t *r;

	(void)state;
	r = parse("window.BENCHMARK_DATA = {\"entries\": {}};\n", &err);
	assert_non_null(r);
	json_decref(r);
	r = parse("\n  {\"entries\": {\"s\": []}}", &err);
	assert_non_null(r);
	json_decref(r);
	r = parse("window.BENCHMARK_DATA = {\n\"entries\": {\n\"s\": [,]}}", &err);
	assert_null(r);
	assert_int_equal(err.status, PV_EINPUT);
	if (strncmp(err.msg, "d.js:3:", 7))
		fail_msg("line 3 expected: %s", err.msg);
	r = parse("window.BENCHMARK_DATA = {\"entries\" 1}", &err);
	assert_null(r);
	/* line 1: the column counts the prefix too (the 1 is column 36) */
	if (strncmp(err.msg, "d.js:1:36:", 10))
		fail_msg("d.js:1:36 expected: %s", err.msg);
	r = parse("window.BENCHMARK_DATA {}", &err);
	assert_null(r);
	if (strncmp(err.msg, "d.js:1: expected '='", 20))
		fail_msg("%s", err.msg);
	r = parse("{\"lastUpdate\": 1}", &err);
	assert_null(r);
	if (!strstr(err.msg, "\"entries\""))
		fail_msg("%s", err.msg);
}

static void entries(void **state)
{
	struct pv_err err;
	struct pv_bd_entry e;
	json_t *r = parse("{\"entries\": {\"s\": [{\"commit\": {\"id\": \"abc\", "
			  "\"timestamp\": \"2022-06-03T23:16:14+09:00\"}, \"date\": 1, "
			  "\"tool\": \"go\", \"benches\": [{\"name\": \"B\", \"value\": 2.5, "
			  "\"unit\": \"ns/op\"}]}, {\"commit\": {\"id\": \"d\"}, \"date\": 1654265838841, "
			  "\"tool\": \"go\", \"benches\": [{\"name\": \"B\", \"value\": \"x\", "
			  "\"unit\": \"ns/op\"}]}]}}", &err);
	json_t *list;

	(void)state;
	assert_non_null(r);
	list = json_object_get(json_object_get(r, "entries"), "s");
	assert_int_equal(pv_benchdata_entry("d.js", "s", 0, json_array_get(list, 0),
					    &e, &err), 0);
	/* 2022-06-03T14:16:14Z */
	assert_true(e.time == 1654265774.0);
	assert_string_equal(e.id, "abc");
	assert_int_equal(pv_benchdata_entry("d.js", "s", 1, json_array_get(list, 1),
					    &e, &err), -1);
	assert_string_equal(err.msg,
		"d.js: entries[\"s\"][1].benches[0].value: expected a finite number");
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tool_directions),
		cmocka_unit_test(go_units),
		cmocka_unit_test(prefix_and_errors),
		cmocka_unit_test(entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

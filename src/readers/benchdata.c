/*
 * benchdata.c - github-action-benchmark's data.js parsed and checked:
 * for its reader (benchaction.c) and history's (history/read_datajs.c);
 * see benchdata.h.
 */
#include "benchdata.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "jsonutil.h"
#include "../util/isotime.h"
#include "../util/num.h"
#include "../util/banned.h"

/* 9999-12-31T23:59:59Z, in seconds since the epoch. */
#define BD_TIME_MAX 253402300799.0

#define SCRIPT_PREFIX "window.BENCHMARK_DATA"

/* github-action-benchmark's src/write.ts biggerIsBetter(), tool by tool
 * (its VALID_TOOLS in src/config.ts). */
static const struct {
	const char *tool;
	enum pv_dir dir;
} tools[] = {
	{ "cargo", PV_DIR_LOWER }, { "go", PV_DIR_LOWER },
	{ "benchmarkjs", PV_DIR_HIGHER }, { "benchmarkluau", PV_DIR_LOWER },
	{ "pytest", PV_DIR_HIGHER }, { "googlecpp", PV_DIR_LOWER },
	{ "catch2", PV_DIR_LOWER }, { "julia", PV_DIR_LOWER },
	{ "jmh", PV_DIR_LOWER }, { "benchmarkdotnet", PV_DIR_LOWER },
	{ "customBiggerIsBetter", PV_DIR_HIGHER },
	{ "customSmallerIsBetter", PV_DIR_LOWER },
};

enum pv_dir pv_benchdata_tool_dir(const char *tool)
{
	for (size_t i = 0; i < sizeof(tools) / sizeof(*tools); i++)
		if (!strcmp(tools[i].tool, tool))
			return tools[i].dir;
	return PV_DIR_UNSET;
}

/* The word at *p (after blanks), its length; *p after it. */
static size_t word(const char **p)
{
	const char *s = *p;

	while (pv_num_blank((unsigned char)*s))
		s++;
	*p = s;
	while (*s && !pv_num_blank((unsigned char)*s))
		s++;
	return (size_t)(s - *p);
}

size_t pv_benchdata_unit_len(const char *tool, const char *unit)
{
	const char *p = unit;
	size_t n = word(&p), len = n;
	int pairs = 0;

	if (strcmp(tool, "go") || p != unit || !n)
		return strlen(unit);
	p += n;
	for (;;) {
		const char *num = p;
		size_t k = word(&num);
		double v;

		if (!k)
			break;
		p = num + k;
		if (pv_parse_double(num, k, &v) != PV_NUM_OK || !(k = word(&p)))
			return strlen(unit);
		p += k;
		pairs++;
	}
	return pairs ? len : strlen(unit);
}

json_t *pv_benchdata_parse(const char *path, const char *buf, size_t len,
			   struct pv_err *err)
{
	size_t start = 0, end = len, skip;
	json_error_t je;
	json_t *root, *entries;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		start = 3;
	while (start < len && strchr(" \t\r\n", buf[start]))
		start++;
	skip = start;
	if (!strncmp(buf + start, SCRIPT_PREFIX, strlen(SCRIPT_PREFIX))) {
		start += strlen(SCRIPT_PREFIX);
		while (start < len && (buf[start] == ' ' || buf[start] == '\t'))
			start++;
		if (start >= len || buf[start] != '=')
			return pv_error(err, PV_M_MALFORMED_JSON,
					"%s:1: expected '=' after " SCRIPT_PREFIX,
					path), NULL;
		start++;
	}
	/* A script may end its statement with a semicolon. */
	while (end > start && strchr(" \t\r\n", buf[end - 1]))
		end--;
	if (end > start && buf[end - 1] == ';')
		end--;
	root = json_loadb(buf + start, end - start, JSON_REJECT_DUPLICATES, &je);
	if (!root && pv_json_oom(path, &je, err))
		return NULL;
	if (!root) {
		/* Lines count from the file's start: the prefix holds no
		 * newline but the leading blank lines might. */
		int line = je.line;
		int col = je.column;

		for (size_t i = 0; i < skip; i++)
			line += buf[i] == '\n';
		if (je.line <= 1) {
			size_t bol = skip;

			while (bol > 0 && buf[bol - 1] != '\n')
				bol--;
			col += (int)(start - bol);
		}
		pv_error(err, PV_M_MALFORMED_JSON, "%s:%d:%d: %s", path, line, col,
			 je.text);
		return NULL;
	}
	entries = json_is_object(root) ? json_object_get(root, "entries") : NULL;
	if (!json_is_object(entries)) {
		json_decref(root);
		pv_error(err, PV_M_BAD_STRUCTURE,
			 "%s: expected a github-action-benchmark data.js: an object (or window.BENCHMARK_DATA = object) with \"entries\": {SUITE: [...]}",
			 path);
		return NULL;
	}
	return root;
}

int pv_benchdata_entry(const char *path, const char *suite, size_t i,
		       json_t *e, struct pv_bd_entry *out, struct pv_err *err)
{
	json_t *c = json_object_get(e, "commit"), *b, *x;
	json_t *id = json_object_get(c, "id"), *ts = json_object_get(c, "timestamp");
	json_t *date = json_object_get(e, "date"), *tool = json_object_get(e, "tool");
	const char *what = NULL, *key = "";
	size_t j;

	if (!json_is_object(e))
		what = "an object {commit, date, tool, benches}";
	else if (!json_is_object(c))
		key = ".commit", what = "an object";
	else if (!json_is_string(id) || !*json_string_value(id))
		key = ".commit.id", what = "a commit id";
	else if (ts && !json_is_string(ts))
		key = ".commit.timestamp", what = "a string";
	else if (!json_is_string(tool))
		key = ".tool", what = "a string";
	else if (!json_is_array(b = json_object_get(e, "benches")))
		key = ".benches", what = "an array";
	if (what)
		return pv_error(err, PV_M_BAD_STRUCTURE,
				"%s: entries[\"%s\"][%zu]%s: expected %s", path, suite,
				i, key, what);
	out->id = json_string_value(id);
	out->tool = json_string_value(tool);
	out->benches = b;
	out->time = ts ? pv_iso_time(json_string_value(ts)) :
		    json_is_number(date) ? json_number_value(date) / 1000 : NAN;
	if (isnan(out->time))
		return pv_error(err, PV_M_BAD_STRUCTURE,
				"%s: entries[\"%s\"][%zu]: expected commit.timestamp (ISO 8601) or date (milliseconds)",
				path, suite, i);
	/* A point's name and ISO time have a four-digit year, and a time
	 * converts to time_t only when it is in range. */
	if (!(out->time >= 0 && out->time <= BD_TIME_MAX))
		return ts ? pv_error(err, PV_M_BAD_STRUCTURE,
				     "%s: entries[\"%s\"][%zu].commit.timestamp: '%s' is outside 1970-01-01 to 9999-12-31: expected the commit's time",
				     path, suite, i, json_string_value(ts)) :
			    pv_error(err, PV_M_BAD_STRUCTURE,
				     "%s: entries[\"%s\"][%zu].date: %.17g ms is outside 1970-01-01 to 9999-12-31: expected the run's time in milliseconds since 1970",
				     path, suite, i, json_number_value(date));
	json_array_foreach(b, j, x) {
		json_t *v = json_object_get(x, "value");

		if (!json_is_object(x))
			what = "an object {name, value, unit}";
		else if (!json_is_string(json_object_get(x, "name")))
			key = "name", what = "a string";
		else if (!json_is_number(v) || !isfinite(json_number_value(v)))
			key = "value", what = "a finite number";
		else if (!json_is_string(json_object_get(x, "unit")))
			key = "unit", what = "a string";
		if (what)
			return pv_error(err, PV_M_BAD_STRUCTURE,
					"%s: entries[\"%s\"][%zu].benches[%zu]%s%s: expected %s",
					path, suite, i, j, *key ? "." : "", key, what);
	}
	return 0;
}

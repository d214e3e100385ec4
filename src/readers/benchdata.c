/*
 * benchdata.c - github-action-benchmark's data.js as a history archive;
 * see benchdata.h.
 */
#include "benchdata.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "jsonutil.h"
#include "../util/file.h"
#include "../util/num.h"
#include "../util/strbuf.h"
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
	out->time = ts ? pv_history_parse_time(json_string_value(ts)) :
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

/* One bench value of one entry, before grouping. */
struct rec {
	size_t point;           /* into the points, in time order */
	const char *suite, *name, *unit;
	enum pv_dir dir;
	double v;
	size_t seq;             /* file order, for a stable sort */
};

static int by_key(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int c;

	if (a->point != b->point)
		return a->point < b->point ? -1 : 1;
	if ((c = strcmp(a->suite, b->suite)) || (c = strcmp(a->name, b->name)) ||
	    (c = strcmp(a->unit, b->unit)))
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A commit: its first time and the order it was met in. */
struct commit {
	const char *id;
	double time;
	size_t seq;
};

static int by_time(const void *pa, const void *pb)
{
	const struct commit *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_id(const void *pa, const void *pb)
{
	return strcmp(((const struct commit *)pa)->id,
		      ((const struct commit *)pb)->id);
}

static void iso_of(double t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* Walk every entry: with c == NULL count them into *nc and collect the
 * commits; else give each bench value its point (by id in sorted). */
static int walk(const char *path, json_t *entries, struct commit *cs,
		size_t *nc, const struct commit *sorted, size_t nsorted,
		struct rec *r, size_t *nr, struct arena *a,
		struct pv_diag *diag, struct pv_err *err)
{
	const char *suite;
	json_t *list, *e;

	json_object_foreach(entries, suite, list) {
		size_t i;

		if (!json_is_array(list))
			return pv_error(err, PV_M_BAD_STRUCTURE,
					"%s: entries[\"%s\"]: expected an array of entries",
					path, suite);
		json_array_foreach(list, i, e) {
			struct pv_bd_entry en;
			json_t *b;
			size_t j;

			if (pv_benchdata_entry(path, suite, i, e, &en, err))
				return -1;
			if (!r) {
				cs[*nc].id = en.id;
				cs[*nc].time = en.time;
				cs[*nc].seq = *nc;
				(*nc)++;
				continue;
			}
			{
				struct commit key = { en.id, 0, 0 };
				const struct commit *c = bsearch(&key, sorted, nsorted,
								 sizeof(*sorted), by_id);
				enum pv_dir dir = pv_benchdata_tool_dir(en.tool);

				if (dir == PV_DIR_UNSET && diag)
					pv_diag_add(diag, PV_M_UNKNOWN_DIRECTION,
						    "%s: entries[\"%s\"][%zu]: tool '%s' is not one github-action-benchmark knows; its direction is inferred",
						    path, suite, i, en.tool);
				json_array_foreach(en.benches, j, b) {
					struct rec *x = &r[*nr];
					const char *u = json_string_value(
						json_object_get(b, "unit"));
					size_t ulen =
						pv_benchdata_unit_len(en.tool, u);

					x->point = c->seq;
					x->suite = suite;
					x->name = json_string_value(json_object_get(b, "name"));
					x->unit = u[ulen] ?
						  arena_strndup(a, u, ulen) : u;
					x->dir = dir;
					x->v = json_number_value(json_object_get(b, "value"));
					x->seq = (*nr)++;
				}
			}
		}
	}
	return 0;
}

static size_t count_benches(json_t *entries, size_t *nentries)
{
	const char *suite;
	json_t *list, *e;
	size_t n = 0;

	*nentries = 0;
	json_object_foreach(entries, suite, list) {
		size_t i;

		if (!json_is_array(list))
			continue;
		*nentries += json_array_size(list);
		json_array_foreach(list, i, e)
			n += json_array_size(json_object_get(e, "benches"));
	}
	return n;
}

int pv_benchdata_read(struct pv_history *h, const char *archive,
		      const struct pv_history_opts *o, struct pv_diag *diag,
		      struct pv_err *err)
{
	struct pv_read_spec spec = {
		.expect = "a github-action-benchmark data.js",
		.status = PV_EINPUT,
	};
	struct strbuf buf = STRBUF_INIT;
	struct commit *cs = NULL;
	struct rec *r = NULL;
	json_t *root, *entries;
	size_t ne, nb, nc = 0, np = 0, nr = 0;
	const char *suite = o->suite && o->suite->name ? o->suite->name : "";
	double *v = NULL;
	int rc = -1;

	spec.max = o->cfg->limits.max_file_size;
	if (pv_read_file_spec(archive, &spec, &buf, err))
		return -1;
	root = pv_benchdata_parse(archive, buf.buf, buf.len, err);
	strbuf_release(&buf);
	if (!root)
		return -1;
	entries = json_object_get(root, "entries");
	nb = count_benches(entries, &ne);
	CALLOC_ARRAY(cs, ne ? ne : 1);
	CALLOC_ARRAY(r, nb ? nb : 1);
	ALLOC_ARRAY(v, nb ? nb : 1);
	if (walk(archive, entries, cs, &nc, NULL, 0, NULL, NULL, NULL, NULL,
		 err))
		goto out;
	/* One point per commit, at its first time; then in time order. */
	qsort(cs, nc, sizeof(*cs), by_id);
	for (size_t i = 0; i < nc; i++)
		if (!np || strcmp(cs[np - 1].id, cs[i].id))
			cs[np++] = cs[i];
		else if (cs[i].seq < cs[np - 1].seq)
			cs[np - 1].seq = cs[i].seq, cs[np - 1].time = cs[i].time;
	qsort(cs, np, sizeof(*cs), by_time);
	h->p = pv_calloc(np ? np : 1, sizeof(*h->p));
	h->np = np;
	for (size_t i = 0; i < np; i++) {
		struct pv_hist_point *p = &h->p[i];
		char iso[32];

		cs[i].seq = i;
		p->commit = arena_strdup(&h->arena, cs[i].id);
		p->label = arena_printf(&h->arena, "%.7s", cs[i].id);
		p->path = h->archive;
		p->is_report = PV_PK_BENCHDATA;
		p->mtime = cs[i].time;
		iso_of(cs[i].time, iso, sizeof(iso));
		p->time = arena_strdup(&h->arena, iso);
	}
	qsort(cs, np, sizeof(*cs), by_id);
	if (walk(archive, entries, NULL, NULL, cs, np, r, &nr, &h->arena, diag,
		 err))
		goto out;
	qsort(r, nr, sizeof(*r), by_key);
	for (size_t i = 0, j; i < nr; i = j) {
		size_t n = 0;

		for (j = i; j < nr && r[j].point == r[i].point &&
		     !strcmp(r[j].suite, r[i].suite) &&
		     !strcmp(r[j].name, r[i].name) && !strcmp(r[j].unit, r[i].unit);
		     j++)
			v[n++] = r[j].v;
		if (pv_history_add(h, r[i].point, o, suite, "", r[i].suite,
				   r[i].name, "value", r[i].unit, r[i].dir, v, n,
				   err))
			goto out;
	}
	rc = 0;
out:
	free(cs);
	free(r);
	free(v);
	json_decref(root);
	return rc;
}

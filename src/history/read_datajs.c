/*
 * read_datajs.c - history's reader of a github-action-benchmark data.js
 * (readers/benchdata.h keys and orders it): the archive is the one file,
 * each commit a point, each bench value a run.
 */
#include "reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../readers/benchdata.h"
#include "../util/file.h"
#include "../util/isotime.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

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

	return pv_hist_time_cmp(a->time, a->seq, b->time, b->seq);
}

static int by_id(const void *pa, const void *pb)
{
	return strcmp(((const struct commit *)pa)->id,
		      ((const struct commit *)pb)->id);
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

/* The commits cs[0..nc) as points: one per commit, at its first time,
 * in time order (cs then sorted by id, each seq its point). */
static void make_points(struct pv_hist_input *in, struct commit *cs,
			size_t nc)
{
	size_t np = 0;

	qsort(cs, nc, sizeof(*cs), by_id);
	for (size_t i = 0; i < nc; i++)
		if (!np || strcmp(cs[np - 1].id, cs[i].id))
			cs[np++] = cs[i];
		else if (cs[i].seq < cs[np - 1].seq)
			cs[np - 1].seq = cs[i].seq, cs[np - 1].time = cs[i].time;
	qsort(cs, np, sizeof(*cs), by_time);
	in->p = pv_calloc(np ? np : 1, sizeof(*in->p));
	in->np = np;
	for (size_t i = 0; i < np; i++) {
		struct pv_hist_point *p = &in->p[i];
		char iso[32];

		cs[i].seq = i;
		p->commit = arena_strdup(in->arena, cs[i].id);
		p->label = arena_printf(in->arena, "%.7s", cs[i].id);
		p->path = in->path;
		p->is_report = PV_PK_BENCHDATA;
		p->mtime = cs[i].time;
		pv_iso_format(cs[i].time, iso, sizeof(iso));
		p->time = arena_strdup(in->arena, iso);
	}
	qsort(cs, np, sizeof(*cs), by_id);
}

/* The bench values r[0..nr), sorted by point and key, as rows: the
 * values of one key at one point are one row's runs (in->vals). */
static void make_rows(struct pv_hist_input *in, struct rec *r, size_t nr)
{
	const struct pv_suite *su = in->o->suite;
	const char *suite = su && su->name ? su->name : "";
	size_t nv = 0;

	qsort(r, nr, sizeof(*r), by_key);
	ALLOC_ARRAY(in->vals, nr ? nr : 1);
	for (size_t i = 0, j; i < nr; i = j) {
		struct pv_hist_row *row = pv_hist_input_row(in);

		row->point = r[i].point;
		row->suite = suite;
		row->test = "";
		row->group = r[i].suite;
		row->bench = r[i].name;
		row->metric = "value";
		row->unit = r[i].unit;
		row->hint = r[i].dir;
		row->v = in->vals + nv;
		for (j = i; j < nr && r[j].point == r[i].point &&
		     !strcmp(r[j].suite, r[i].suite) &&
		     !strcmp(r[j].name, r[i].name) && !strcmp(r[j].unit, r[i].unit);
		     j++)
			in->vals[nv++] = r[j].v;
		row->n = nv - (size_t)(row->v - in->vals);
	}
}

/* Errors name the file, and the line of a syntax error or the JSON path
 * of what is wrong (exit status 3). */
int pv_hist_read_datajs(struct pv_hist_input *in, struct pv_err *err)
{
	struct pv_read_spec spec = {
		.expect = "a github-action-benchmark data.js",
		.status = PV_EINPUT,
	};
	struct strbuf buf = STRBUF_INIT;
	struct commit *cs = NULL;
	struct rec *r = NULL;
	json_t *entries;
	size_t ne, nb, nc = 0, nr = 0;
	int rc = -1;

	spec.max = in->o->cfg->limits.max_file_size;
	if (pv_read_file_spec(in->path, &spec, &buf, err))
		return -1;
	in->json = pv_benchdata_parse(in->path, buf.buf, buf.len, err);
	strbuf_release(&buf);
	if (!in->json)
		return -1;
	entries = json_object_get(in->json, "entries");
	nb = count_benches(entries, &ne);
	CALLOC_ARRAY(cs, ne ? ne : 1);
	CALLOC_ARRAY(r, nb ? nb : 1);
	if (walk(in->path, entries, cs, &nc, NULL, 0, NULL, NULL, NULL, NULL,
		 err))
		goto out;
	make_points(in, cs, nc);
	if (walk(in->path, entries, NULL, NULL, cs, in->np, r, &nr, in->arena,
		 in->diag, err))
		goto out;
	make_rows(in, r, nr);
	rc = 0;
out:
	free(cs);
	free(r);
	return rc;
}

/*
 * registry.c - the table of history's archive readers (reader.h), and
 * the input each one fills.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>
#include "../util/text.h"
#include "../util/banned.h"

static int report_none(const struct pv_hist_input *in,
		       const struct pv_hist_point *p, struct pv_err *err)
{
	return pv_error(err, PV_M_BAD_POINT,
			"point '%s' of archive '%s': the report has no candidate samples",
			p->label, in->archive);
}

/* In enum pv_point_kind's order.  A file goes to the reader of the
 * longest suffix it ends in. */
const struct pv_hist_reader pv_hist_readers[] = {
	[PV_PK_TREE] = { PV_PK_TREE, "tree", 1, NULL,
			 pv_hist_read_tree, NULL },
	[PV_PK_REPORT] = { PV_PK_REPORT, "report", 0, ".json",
			   pv_hist_read_report, report_none },
	[PV_PK_POINT] = { PV_PK_POINT, "point", 0, ".json.gz",
			  pv_hist_read_point, pv_hist_point_none },
	[PV_PK_BENCHDATA] = { PV_PK_BENCHDATA, "benchmark-action", 0, NULL,
			      pv_hist_read_datajs, NULL },
};

#define NREADERS (sizeof(pv_hist_readers) / sizeof(*pv_hist_readers))

const struct pv_hist_reader *pv_hist_reader_for(const char *name, int dir)
{
	const struct pv_hist_reader *best = NULL;

	for (size_t i = 0; i < NREADERS; i++) {
		const struct pv_hist_reader *r = &pv_hist_readers[i];

		if (dir ? !r->dir : !r->suffix || !pv_ends_with(name, r->suffix, 0))
			continue;
		if (!best || (r->suffix && strlen(r->suffix) > strlen(best->suffix)))
			best = r;
	}
	return best;
}

const char *pv_point_kind_name(int kind)
{
	return kind >= 0 && (size_t)kind < NREADERS ?
	       pv_hist_readers[kind].name : "tree";
}

struct pv_hist_row *pv_hist_input_row(struct pv_hist_input *in)
{
	if (in->nrows == in->arows) {
		in->arows = in->arows ? 2 * in->arows : 64;
		REALLOC_ARRAY(in->rows, in->arows);
	}
	memset(&in->rows[in->nrows], 0, sizeof(*in->rows));
	return &in->rows[in->nrows++];
}

void pv_hist_point_context(struct pv_hist_input *in, struct pv_hist_point *p,
			   const struct pv_kv *kv, size_t n)
{
	p->ncontext = n;
	if (!n)
		return;
	p->context = arena_alloc(in->arena, st_mult(n, sizeof(*p->context)));
	for (size_t i = 0; i < n; i++) {
		p->context[i].key = arena_strdup(in->arena, kv[i].key);
		p->context[i].value = arena_strdup(in->arena, kv[i].value);
	}
}

void pv_hist_input_release(struct pv_hist_input *in)
{
	if (in->table) {
		pv_table_release(in->table);
		free(in->table);
	}
	if (in->report) {
		pv_report_release(in->report);
		free(in->report);
	}
	if (in->json)
		json_decref(in->json);
	if (in->p != &in->one)
		free(in->p);
	free(in->rows);
	free(in->vals);
	memset(in, 0, sizeof(*in));
}

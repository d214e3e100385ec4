/*
 * read_report.c - history's reader of an archived compare report: one
 * point, its candidate side (archive.c reads the report back).  A
 * ".json" entry that is no report but a history point is read as one.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>
#include "../archive.h"
#include "../util/isotime.h"
#include "../util/banned.h"

/* Not a report but a history point written as plain .json (it has no
 * schema_version): read as one.  Reports stay opened once; only such a
 * point is opened a second time.  -1 with the report's error else. */
static int as_point(struct pv_hist_input *in, struct pv_err *err)
{
	struct pv_err perr = { 0 };
	int prc = err && err->id == PV_M_BAD_SCHEMA_VERSION ?
		  pv_hist_read_point(in, &perr) : -2;

	if (prc != -2)
		*err = perr;    /* a point: its own error, or none */
	if (prc == 0 || prc == 1) {
		in->p->is_report = PV_PK_POINT;
		return prc;
	}
	return -1;
}

/* The candidate's time, context and label, as a tree's. */
static void report_point(struct pv_hist_input *in, const struct pv_report *r)
{
	struct pv_hist_point *p = in->p;

	p->time = r->generated_at ? arena_strdup(in->arena, r->generated_at) : NULL;
	p->mtime = pv_iso_time(r->generated_at);
	/* The candidate's context, as a tree's preamble: the machine rule
	 * of --baseline-history reads it. */
	pv_hist_point_context(in, p, r->side[PV_CAND].context,
			      r->side[PV_CAND].ncontext);
	/* candidate.label, as pv_archive_read() read it: the file is
	 * parsed once. */
	if (r->label[PV_CAND])
		p->commit = arena_strdup(in->arena, r->label[PV_CAND]);
}

int pv_hist_read_report(struct pv_hist_input *in, struct pv_err *err)
{
	struct pv_report *r = pv_malloc(sizeof(*r));

	pv_report_init(r);
	in->report = r;
	if (pv_archive_read(r, in->path, err))
		return as_point(in, err);
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *res = &r->m[i];
		const struct pv_side_result *sd = &res->side[PV_CAND];
		struct pv_hist_row *row;

		if (!sd->present || !sd->s.n)
			continue;
		if (!sd->nsamples) {
			pv_error(&in->late_err, PV_M_BAD_POINT,
				 "point '%s' of archive '%s': the report keeps no candidate samples of %s/%s/%s; history needs the samples (a tree, or a report written with them)",
				 in->p->label, in->archive, res->group,
				 res->benchmark, res->metric);
			in->late = 1;
			return 0;
		}
		row = pv_hist_input_row(in);
		row->suite = res->suite ? res->suite : "";
		row->test = res->test ? res->test : "";
		row->group = res->group ? res->group : "";
		row->bench = res->benchmark;
		row->metric = res->metric;
		row->unit = res->unit;
		row->hint = res->direction;
		row->v = sd->samples;
		row->n = sd->nsamples;
	}
	report_point(in, r);
	return 0;
}

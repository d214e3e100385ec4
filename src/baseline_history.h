/*
 * baseline_history.h - compare --baseline-history ARCHIVE CANDIDATE: the
 * baseline side pooled from the archive's points since each metric's
 * most recent change point, at most --history-window of them, tested
 * with stats/pooled.h (between-point variance counted).
 *
 * Use: load the candidate side into the table; pv_bh_pool() reads the
 * archive and adds each pooled point's runs to the baseline side (one
 * file per point, so the table keeps each point's mean as one sample);
 * finish the table and build the model; pv_bh_attach() gives the model
 * its tests (r->ext) before pv_redecide().
 */
#ifndef PV_BASELINE_HISTORY_H
#define PV_BASELINE_HISTORY_H

#include "diag.h"
#include "history.h"
#include "report.h"
#include "stats/pooled.h"
#include "table.h"

struct pv_bh {
	struct pv_history h;
	struct pv_pooled *tests;        /* per history metric */
	double **y;
	size_t *used;                   /* per point: metrics that pooled it */
	unsigned char *excluded;        /* per point: environment differs */
	struct pv_ext_test *ext;        /* per model metric (pv_bh_attach) */
	struct pv_pooled_point *pooled; /* the points used (pv_bh_attach) */
	size_t npooled;
	size_t window;
};

int pv_bh_pool(struct pv_bh *bh, struct pv_table *t, const char *archive,
	       size_t window, const struct pv_history_opts *o,
	       struct pv_diag *diag, struct pv_err *err);
int pv_bh_attach(struct pv_bh *bh, struct pv_report *r, struct pv_diag *diag,
		 struct pv_err *err);
void pv_bh_release(struct pv_bh *bh);

#endif

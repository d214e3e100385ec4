/*
 * baseline_history.h - compare --baseline-history ARCHIVE CANDIDATE: a
 * source of the baseline side, like a tree.  The archive's points since
 * each metric's most recent change point, at most window of them, are
 * pooled into the table's baseline side when it is loaded, before the
 * model is built; the model carries each metric's point values
 * (pv_result.points) to verdict.c, whose test is then history/pooled.h's
 * prediction t (between-point variance counted).
 *
 * The end of the archive: main's newest one or two points may be a new
 * level history has not confirmed yet (it needs a third point).  They
 * are pooled like the others; the test (history/pooled.h) tells whether
 * they moved, and then judges the candidate against both main's long-run
 * level and its newest one.  The side's context is the pooled points'
 * (each key as the newest point that has it), so a report compares the
 * candidate's environment with main's as it is now.
 */
#ifndef PV_BASELINE_HISTORY_H
#define PV_BASELINE_HISTORY_H

#include "../util/diag.h"
#include "history.h"
#include "../table.h"

/* --history-window's default: at most this many points pooled. */
#define PV_POOL_WINDOW 10

/*
 * Load the baseline side of t from the archive: each pooled point's
 * runs are the side's samples (one file per point, so the table keeps
 * each point's mean as one sample), t->points[metric] its point values,
 * and t->side[PV_BASE] says what was pooled.  The candidate side must be
 * loaded first: points that ran on another kind of machine than the
 * candidate are left out.  o->recent does not matter here.  Returns 0,
 * or -1 with err.
 */
int pv_load_pooled_baseline(struct pv_table *t, const char *archive,
			    size_t window, const struct pv_history_opts *o,
			    struct pv_diag *diag, struct pv_err *err);

#endif

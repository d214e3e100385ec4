/*
 * verdict.h - the decision: tests, family correction and rules over a
 * report model (model.h builds it).
 *
 * Guarantees: every result of the model gets a verdict and the facts
 * its reason states (p, q, interval, detectable effect, the rule that
 * applied); the q-values are over the gated, tested metrics of this one
 * model; r->count and r->fail are tallied.  Only the decision's own
 * fields are written, so deciding again (merge, calibrate) gives the
 * same result from the same model.  No I/O: warnings go to diag.
 */
#ifndef PV_VERDICT_H
#define PV_VERDICT_H

#include "config.h"
#include "util/diag.h"
#include "model.h"
#include "report.h"
#include "table.h"
#include "util/err.h"

/*
 * Both steps: pv_model_from_table(), then pv_redecide().  r->settings
 * must be set; today (YYYY-MM-DD) decides which waivers still hold.
 * Warnings (expired waivers, assumed directions) go to diag.
 */
int pv_decide(struct pv_table *t, const struct pv_config *cfg,
	      const char *today, struct pv_report *r, struct pv_diag *diag,
	      struct pv_err *err);

/*
 * Recompute tests, correction and verdicts of r->m from the samples they
 * carry (merge does this over the union of shards).
 */
int pv_redecide(struct pv_report *r, const struct pv_config *cfg,
		const char *today, struct pv_diag *diag, struct pv_err *err);

#endif

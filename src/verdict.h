/*
 * verdict.h - from the sample table to the verdict model.
 *
 * For every metric: each side's statistics, the test the settings ask
 * for, the family's multiple-comparison correction, and the rules
 * (direction, threshold, noise, missing policy, waivers).  No I/O.
 */
#ifndef PV_VERDICT_H
#define PV_VERDICT_H

#include "config.h"
#include "diag.h"
#include "report.h"
#include "table.h"
#include "util/err.h"

/*
 * Fill r->m from the finished table t.  r->settings must be set; today
 * (YYYY-MM-DD) decides which waivers still hold.  Warnings (expired
 * waivers, assumed directions) go to diag.
 */
int pv_decide(struct pv_table *t, const struct pv_config *cfg,
	      const char *today, struct pv_report *r, struct pv_diag *diag,
	      struct pv_err *err);

/* Phase 1 alone: the model's metrics with identity, direction, rules
 * and summaries, but no tests or verdicts yet.  The table's metric array
 * is consumed (t->n is 0 afterwards); its strings and samples stay, and
 * the model points into them. */
void pv_model_from_table(struct pv_table *t, const struct pv_config *cfg,
			 struct pv_report *r, struct pv_diag *diag);

/*
 * Recompute tests, correction and verdicts of r->m from the samples they
 * carry (merge does this over the union of shards).
 */
int pv_redecide(struct pv_report *r, const struct pv_config *cfg,
		const char *today, struct pv_diag *diag, struct pv_err *err);

/* The direction a metric's name and unit suggest, or PV_DIR_UNSET. */
enum pv_dir pv_guess_direction(const char *metric, const char *unit);

#endif

/*
 * model.h - the report model built from the sample table, before any
 * test or verdict.
 *
 * What pv_model_from_table() guarantees of each result:
 *   - one per table metric, in table order (one that a rule ignores
 *     too: ungated, direction none);
 *   - identity (suite, test, group, benchmark, metric, unit) pointing
 *     into the table's strings, which must outlive the model;
 *   - its rule from policy.h (pv_policy_result(), the reader's hint
 *     as the hint): direction, gated, ignored, dir_assumed, threshold,
 *     abs_threshold and alpha;
 *   - for each side: presence, notes, file counts, the samples (borrowed
 *     from the table) or a reader's summary, and the moments (for an
 *     avg_update metric the mean is mean(num)/mean(den), or the column's
 *     own mean on a side whose denominator's mean is 0);
 *   - change_abs and change_rel: both NAN when a side has no
 *     observations; both +0 when the means are equal (0 and -0 too);
 *     change_rel NAN when the baseline mean is 0 and the candidate's is
 *     not (pv_model_change()).
 * Tests, q-values and verdicts are left for verdict.c.  No I/O; the only
 * message is one diag line counting the assumed directions.
 */
#ifndef PV_MODEL_H
#define PV_MODEL_H

#include "config.h"
#include "policy.h"
#include "util/diag.h"
#include "report.h"
#include "table.h"

/* Fill r->m and r->side from the finished table t; r->settings.gate
 * must be set.  The table's metric array is consumed (t->n is 0
 * afterwards); its strings and samples stay, and the model points into
 * them. */
void pv_model_from_table(struct pv_table *t, const struct pv_config *cfg,
			 struct pv_report *r, struct pv_diag *diag);

/* res->change_abs and change_rel from the two sides' moments, as above;
 * for any caller that replaces a result's samples (calibrate.c's A/A
 * splits still compute their change themselves). */
void pv_model_change(struct pv_result *res);

#endif

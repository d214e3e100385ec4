/*
 * calibrate.h - A/A self-test on one tree: how often would the gate
 * cry wolf on this data, with this config?
 *
 * Each iteration splits every test's runs into two random halves, calls
 * one half the baseline and the other the candidate, and runs the full
 * decision.  Nothing changed between the halves, so every regression is
 * a false alarm; the share of iterations with at least one is the
 * family-wise false-alarm rate the gate would have on such data.
 */
#ifndef PV_CALIBRATE_H
#define PV_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "util/diag.h"
#include "report.h"
#include "table.h"
#include "util/err.h"

struct pv_calib {
	unsigned iterations;
	unsigned alarmed;           /* iterations with >= 1 regression */
	size_t metrics;             /* metrics with enough runs to split */
	size_t skipped;             /* metrics with fewer than 4 runs */
	size_t min_runs, max_runs;
	double rate_lo, rate_hi;    /* 95% Wilson interval of alarmed/iterations */
	unsigned *alarms;           /* per metric of model, times it alarmed */
	struct pv_report model;     /* identity of each metric */
};

/* The table's baseline side is the tree; r->settings must be set in
 * c->model.settings before the call. */
int pv_calibrate(struct pv_table *t, const struct pv_config *cfg,
		 unsigned iterations, uint64_t seed, struct pv_calib *c,
		 struct pv_diag *diag, struct pv_err *err);
void pv_calib_release(struct pv_calib *c);

#endif

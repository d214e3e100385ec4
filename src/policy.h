/*
 * policy.h - what a config means for one metric, the same in every
 * command: its rule ([metric "GLOB"]: direction, threshold,
 * abs_threshold, alpha, ignore), its waiver ([waiver "GLOB"], with the
 * warning when one has expired), the severity order of the verdicts, and
 * whether a verdict fails the gate.
 *
 * compare (model.c, verdict.c), merge (main.c), history
 * (history/model.c, history/analyse.c) and the writers ask here; once
 * config.c has parsed them, nothing else reads the config's [metric]
 * rules, and nothing else decides what a [waiver] means.  The waivers themselves travel: main.c puts the
 * config's into a report's settings, writers/json.c writes them, and
 * archive.c reads them back and, for merge, hands them to the
 * config (pv_archive_waivers()).  No I/O; the only messages are the two
 * named below, into the caller's diag.
 */
#ifndef PV_POLICY_H
#define PV_POLICY_H

#include <stddef.h>
#include "config.h"
#include "util/diag.h"
#include "report.h"

/*
 * One metric's resolved rule.  direction is never PV_DIR_UNSET: it is
 * the [metric] rule's, else the input's hint (a reader's, or a merged
 * shard's settled one), else [gate]'s, else guessed from the name and
 * unit (dir_assumed; lower when nothing suggests one).  A metric a rule
 * ignores has direction none (reported, never gated).  threshold and
 * alpha are the rule's, else [gate]'s; abs_threshold is NAN when no rule
 * sets one.
 */
struct pv_metric_policy {
	enum pv_dir direction;
	double threshold;       /* relative, as a fraction */
	double abs_threshold;   /* in the metric's unit; NAN: none */
	double alpha;
	unsigned ignored : 1;
	unsigned gated : 1;     /* direction lower or higher */
	unsigned dir_assumed : 1;
};

/* g: the effective [gate] (the command line's overrides applied). */
void pv_policy_of(const struct pv_config *cfg, const struct pv_gate *g,
		  const char *group, const char *benchmark,
		  const char *metric, const char *unit, enum pv_dir hint,
		  struct pv_metric_policy *out);

/* The same, stored into the result's rule fields (direction, gated,
 * ignored, dir_assumed, threshold, abs_threshold, alpha). */
void pv_policy_result(const struct pv_config *cfg, const struct pv_gate *g,
		      enum pv_dir hint, struct pv_result *res);

/* The direction a metric's name and unit suggest, or PV_DIR_UNSET. */
enum pv_dir pv_guess_direction(const char *metric, const char *unit);

/*
 * Which way a change goes for a metric of direction d: 1 worse, -1
 * better, 0 none (0 or NAN).  Up is worse unless d is higher (a metric
 * without direction is never gated; the sign only names its tail).
 */
int pv_policy_move(enum pv_dir d, double change);

/*
 * A change of change_abs (candidate - baseline, in the unit) and
 * change_rel (a fraction of base, the baseline level) reaches the floor:
 * |rel| >= threshold and > 0, and |abs| >= abs_threshold when that is
 * set.  From a zero base any change is beyond every relative threshold
 * (the relative change would be infinite).
 */
int pv_policy_beyond(double threshold, double abs_threshold, double base,
		     double change_abs, double change_rel);

/* A metric without direction that would have been a verdict if it had
 * one: tested, q below its alpha and beyond its floor (what the
 * reports list as "moved"). */
int pv_policy_ungated_moved(const struct pv_result *m);

/*
 * The waiver that holds today (YYYY-MM-DD, inclusive) for a regression
 * of this metric, or NULL: the first [waiver] whose glob matches like a
 * rule's.  A matching one that has expired is a waiver-expired warning
 * into diag (none when diag is NULL), naming cfg->path:line, or "the
 * reports" for one a merged report carried (line 0).  today NULL: none
 * holds.
 */
const struct pv_waiver *pv_policy_waiver(const struct pv_config *cfg,
					 const char *today,
					 const char *group,
					 const char *benchmark,
					 const char *metric,
					 struct pv_diag *diag);

/* Lower is more severe: the order every report ranks rows in, and the
 * one a history status takes its most severe change by. */
int pv_verdict_severity(enum pv_verdict v);

/*
 * Does a metric with verdict v fail the gate g?  A regression always;
 * missing, inconclusive and insufficient when g says fail for them.
 * (A report also fails when nothing could be compared at all:
 * pv_report_tally().)
 */
int pv_policy_fails(const struct pv_gate *g, enum pv_verdict v);

/*
 * The one no-direction warning: n metrics had their direction guessed,
 * names the first few of them (pv_names in report.h).
 */
void pv_policy_note_assumed(struct pv_diag *diag, size_t n,
			    const char *names);

#endif

/* calibrate_text.c - calibrate's findings for a terminal; see
 * calibrate_text.h. */
#include "calibrate_text.h"

#include <errno.h>
#include <stdlib.h>
#include "../config.h"
#include "../report.h"
#include "../util/atomic.h"
#include "../util/strbuf.h"
#include "writers.h"
#include "../util/banned.h"

/* The metrics that alarmed, most alarms first, at most 10. */
static void most_alarmed(const struct pv_calib *c, FILE *fp)
{
	const struct pv_report *r = &c->model;
	size_t *idx = pv_calloc(st_add(r->n, 1), sizeof(*idx));
	size_t k = 0;

	for (size_t i = 0; i < r->n; i++)
		if (c->alarms[i])
			idx[k++] = i;
	/* A stable insertion sort: equal counts keep the model's order. */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && c->alarms[idx[j]] >
		     c->alarms[idx[j - 1]]; j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	if (k)
		fprintf(fp, "\nmetrics that alarmed most:\n");
	for (size_t i = 0; i < k && i < 10; i++) {
		struct strbuf id = STRBUF_INIT;

		fprintf(fp, "  %5.1f%%  %s\n",
			100.0 * c->alarms[idx[i]] / c->iterations,
			pv_result_id(&r->m[idx[i]], &id));
		strbuf_release(&id);
	}
	free(idx);
}

int pv_write_calibration(const struct pv_calib *c, const char *tree,
			 FILE *fp, struct pv_err *err)
{
	const struct pv_gate *g = &c->model.settings.gate;
	double rate = (double)c->alarmed / c->iterations;

	fprintf(fp, "perfverdict calibrate: %u random A/A splits of %s\n",
		c->iterations, tree);
	if (c->min_runs == c->max_runs)
		fprintf(fp, "  %zu metric%s with %zu runs each", c->metrics,
			c->metrics == 1 ? "" : "s", c->min_runs);
	else
		fprintf(fp, "  %zu metrics with %zu to %zu runs", c->metrics,
			c->min_runs, c->max_runs);
	fprintf(fp, ", split in halves (min_samples is 2 for them)");
	if (c->skipped)
		fprintf(fp, " (%zu with fewer than 4 runs left out)", c->skipped);
	fprintf(fp, "\n  settings: test %s, correction %s, sided %s, alpha %g, threshold %g%%\n",
		pv_test_name(g->test), pv_correction_name(g->correction),
		pv_sided_name(g->sided), g->alpha, g->threshold * 100);
	fprintf(fp, "\nfamily false-alarm rate: %.1f%% (%u of %u splits raised a regression)\n",
		rate * 100, c->alarmed, c->iterations);
	fprintf(fp, "  95%% interval (Wilson): %.1f%% to %.1f%%; alpha: %g%%\n",
		c->rate_lo * 100, c->rate_hi * 100, g->alpha * 100);
	most_alarmed(c, fp);
	if (c->rate_hi < g->alpha)
		fprintf(fp, "\nBelow alpha: on data like this the gate raises false alarms less often than\nalpha (%g%%) allows, with 95%% confidence.\n",
			g->alpha * 100);
	else if (c->rate_lo > g->alpha)
		fprintf(fp, "\nAbove alpha: on data like this the gate would raise false alarms more often\nthan alpha (%g%%) allows. To lower the rate, %s,\nraise --threshold, set max_cv in [gate], or run more repeats; then\ncalibrate again.\n",
			g->alpha * 100, g->correction == PV_CORR_NONE ?
			"correct for the family (--correction bh or holm)" :
			"use a smaller --alpha");
	else
		fprintf(fp, "\nConsistent with alpha (%g%%): the interval holds it. More --iterations narrow\nthe interval.\n",
			g->alpha * 100);
	if (ferror(fp))
		return pv_atomic_error(err, NULL, errno);
	return 0;
}

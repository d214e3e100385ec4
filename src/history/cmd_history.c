/*
 * cmd_history.c - the history command: read the archive, find the
 * change points, write the reports (all of them or none) and the
 * terminal summary.
 */
#include "cmd_history.h"

#include <errno.h>
#include <string.h>
#include "point.h"
#include "../writers/history_writers.h"
#include "../util/atomic.h"
#include "../util/banned.h"

int pv_cmd_history(const struct pv_history_args *a, struct pv_diag *diag,
		   struct pv_err *err)
{
	struct pv_history h;
	struct pv_history_opts o = {
		.cfg = a->cfg, .suite = a->suite, .format = a->format,
		.order = a->order, .recent = a->recent, .today = a->today,
	};
	struct pv_hist_text_opts to = {
		a->out->quiet, a->out->verbose, pv_terminal_width(),
	};
	int rc = -1;

	/* A step is confirmed with PV_CP_MIN_SEG points at its new level,
	 * so one that began in a shorter window is never flagged there. */
	if (a->recent < PV_CP_MIN_SEG)
		return pv_error(err, PV_M_BAD_OPTION_VALUE,
				"--recent %zu: a step is confirmed only when %d points show its new level, so one that began in the newest %zu can never fail the gate; use --recent %d or more",
				a->recent, PV_CP_MIN_SEG, a->recent, PV_CP_MIN_SEG);
	pv_history_init(&h);
	h.tool_version = a->tool_version;
	h.generated_at = a->generated_at;
	h.config_path = a->cfg->path;
	h.suite = a->suite->name;
	h.format = a->format ? a->format : "auto";
	if (pv_history_read(&h, a->archive, &o, diag, err) ||
	    pv_history_analyse(&h, &o, err))
		goto out;
	pv_history_decide(&h, &o, diag);
	if (a->save_points && pv_point_save_all(&h, a->save_points, err))
		goto out;
	h.warnings = (const char **)diag->msg;
	h.warning_codes = diag->code;
	h.nwarnings = diag->n;
	if (pv_write_history_reports(&h, a->out, err))
		goto out;
	/* the summary also when reports are written: more than the
	 * closing line, unless -q */
	if (!pv_outputs_to_stdout(a->out) &&
	    pv_write_history_text(&h, &to, stdout, err))
		goto out;
	errno = 0;
	if (fflush(stdout)) {
		pv_atomic_error(err, NULL, errno);
		goto out;
	}
	rc = h.fail ? PV_FAIL : PV_OK;
out:
	pv_history_release(&h);
	return rc;
}

/*
 * cmd_history.c - the history command: read the archive, find the
 * change points, write the reports (all of them or none) and the
 * terminal summary.
 */
#include "cmd_history.h"

#include <errno.h>
#include <string.h>
#include "writers/history_writers.h"
#include "util/atomic.h"
#include "util/banned.h"

int pv_cmd_history(const struct pv_history_args *a, struct pv_diag *diag,
		   struct pv_err *err)
{
	struct pv_history h;
	struct pv_history_opts o = {
		.cfg = a->cfg, .suite = a->suite, .format = a->format,
		.order = a->order, .recent = a->recent, .today = a->today,
	};
	int rc = -1;

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
	h.warnings = (const char **)diag->msg;
	h.warning_codes = diag->code;
	h.nwarnings = diag->n;
	if (pv_write_history_reports(&h, a->out, err))
		goto out;
	if (!pv_outputs_to_stdout(a->out) &&
	    pv_write_history_text(&h, a->out->quiet || pv_outputs_any(a->out),
				  stdout, err))
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

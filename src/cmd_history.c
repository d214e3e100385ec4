/*
 * cmd_history.c - the history command: read the archive, find the
 * change points, write the reports (all of them or none) and the
 * terminal summary.
 */
#include "cmd_history.h"

#include <string.h>
#include "util/atomic.h"
#include "writers/history_writers.h"
#include "util/banned.h"

int pv_cmd_history(const struct pv_history_args *a, struct pv_diag *diag,
		   struct pv_err *err)
{
	struct pv_history h;
	struct pv_history_opts o = {
		a->cfg, a->suite, a->format, a->order, a->recent, a->today,
	};
	struct pv_atomic at[3];
	const char *paths[3] = { a->json, a->markdown, a->html };
	struct pv_hist_md_opts mo = {
		a->markdown_limit,
		a->json && strcmp(a->json, "-") ? a->json : NULL,
	};
	struct pv_hist_text_opts to = { a->quiet, a->verbose, a->width };
	int rc = -1;

	memset(at, 0, sizeof(at));
	/* A step is confirmed with PV_CP_MIN_SEG points at its new level,
	 * so one that began in a shorter window is never flagged there. */
	if (a->recent < PV_CP_MIN_SEG)
		return pv_error(err, PV_M_BAD_OPTION_VALUE,
				"--recent %zu: a step is confirmed only when %d points show its new level, so one that began in the newest %zu can never fail the gate; use --recent %d or more",
				a->recent, PV_CP_MIN_SEG, a->recent, PV_CP_MIN_SEG);
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (paths[i] && paths[j] && strcmp(paths[i], "-") &&
			    !strcmp(paths[i], paths[j]))
				return pv_error(err, PV_M_SAME_OUTPUT,
						"'%s' is given for two reports: each report needs its own file",
						paths[i]);
	pv_history_init(&h);
	h.tool_version = a->tool_version;
	h.generated_at = a->generated_at;
	h.config_path = a->cfg->path;
	h.suite = a->suite->name;
	h.format = a->format ? a->format : "auto";
	if (pv_history_read(&h, a->archive, &o, diag, err) ||
	    pv_history_analyse(&h, &o, diag, err))
		goto out;
	h.warnings = (const char **)diag->msg;
	h.warning_codes = diag->code;
	h.nwarnings = diag->n;
	for (int i = 0; i < 3; i++) {
		if (!paths[i])
			continue;
		if (pv_atomic_open(&at[i], paths[i], err))
			goto abort;
		if (i == 0 ? pv_write_history_json(&h, at[i].fp, err) :
		    i == 1 ? pv_write_history_markdown(&h, &mo, at[i].fp, err) :
			     pv_write_history_html(&h, at[i].fp, err))
			goto abort;
	}
	if (pv_atomic_commit_all(at, 3, err))
		goto out;
	{
		int to_stdout = (a->json && !strcmp(a->json, "-")) ||
				(a->markdown && !strcmp(a->markdown, "-")) ||
				(a->html && !strcmp(a->html, "-"));

		if (!to_stdout && pv_write_history_text(&h, &to, stdout, err))
			goto out;
		if (fflush(stdout)) {
			pv_error(err, PV_M_CANNOT_WRITE, "cannot write to standard output");
			goto out;
		}
	}
	rc = h.fail ? PV_FAIL : PV_OK;
	goto out;
abort:
	for (int i = 0; i < 3; i++)
		pv_atomic_abort(&at[i]);
out:
	pv_history_release(&h);
	return rc;
}

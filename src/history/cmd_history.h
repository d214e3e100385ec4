/*
 * cmd_history.h - `perfverdict history`: settings parsed by main.c in,
 * reports out, the exit status back (main.c prints and exits).
 */
#ifndef PV_CMD_HISTORY_H
#define PV_CMD_HISTORY_H

#include "../config.h"
#include "../util/diag.h"
#include "history.h"
#include "../outputs.h"
#include "../util/err.h"

struct pv_history_args {
	const struct pv_config *cfg;    /* overrides applied */
	const struct pv_suite *suite;
	const char *format;             /* NULL: auto */
	const char *archive;
	const struct pv_outputs *out;   /* the report files, and -q */
	const char *save_points;        /* --save-points DIR, or NULL */
	enum pv_hist_order order;
	size_t recent;
	const char *tool_version;
	const char *generated_at, *today;
};

/* 0 pass, 1 a recent regression, or -1 with err (and warnings in diag,
 * which main.c prints). */
int pv_cmd_history(const struct pv_history_args *a, struct pv_diag *diag,
		   struct pv_err *err);

#endif

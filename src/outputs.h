/*
 * outputs.h - the reports one run writes, all of them or none
 * (util/atomic.h), and the terminal summary on standard output.
 */
#ifndef PV_OUTPUTS_H
#define PV_OUTPUTS_H

#include <stddef.h>
#include "report.h"
#include "util/err.h"

struct pv_history;

/* The kinds of report file, one row each in outputs.c's table (with its
 * writer for compare's model and for history's).  A new format is a
 * writer, a kind here and a row there; the options that name its file
 * are in main.c's tables. */
enum pv_out {
	PV_OUT_JSON,
	PV_OUT_JUNIT,
	PV_OUT_MARKDOWN,
	PV_OUT_HTML,
	PV_OUT_POINT,   /* compare --save-point: the candidate as a history
			 * point (point.h), committed with the reports */
	PV_NOUT
};

/* The report files of one run, by kind ("-" is standard output, NULL
 * not written), written together: all of them or none. */
struct pv_outputs {
	const char *path[PV_NOUT];
	unsigned long markdown_limit;
	const char *commit;     /* the point's commit id, or NULL */
	int quiet, verbose;
};

/* Some report is asked for (the point is no report: with only a point
 * the terminal summary is the full one); some file of the set goes to
 * standard output (then no terminal summary does). */
int pv_outputs_any(const struct pv_outputs *o);
int pv_outputs_to_stdout(const struct pv_outputs *o);

/* A file (or standard output) named for two reports of the set: a usage
 * error (same-output), before any work is done. */
int pv_outputs_check(const struct pv_outputs *o, struct pv_err *err);

/* SOURCE_DATE_EPOCH (reproducible builds) or now: ISO 8601 UTC into
 * iso, the day (YYYY-MM-DD) into day. */
void pv_now_utc(char *iso, size_t isolen, char *day, size_t daylen);
/* The last component of path, as the Markdown names the JSON report;
 * NULL for standard output. */
const char *pv_json_name(const char *path);
/* Write every report o names; jname is the JSON's name the Markdown
 * mentions.  A file named for two reports, or standard output for two,
 * is a usage error (same-output) and writes nothing. */
int pv_write_reports_named(const struct pv_report *r,
			   const struct pv_outputs *o, const char *jname,
			   struct pv_err *err);
int pv_write_reports(const struct pv_report *r, const struct pv_outputs *o,
		     struct pv_err *err);
/* The same for history's model: every report o names that history
 * writes (a kind it has no writer for is a usage error). */
int pv_write_history_reports(const struct pv_history *h,
			     const struct pv_outputs *o, struct pv_err *err);
/* COLUMNS, else the terminal's width, else 80. */
unsigned pv_terminal_width(void);
/* The terminal summary on stdout (colour on a terminal, no NO_COLOR). */
int pv_write_summary(const struct pv_report *r, int quiet, int verbose,
		     struct pv_err *err);

#endif

/*
 * outputs.h - the reports one run writes, all of them or none
 * (util/atomic.h), and the terminal summary on standard output.
 */
#ifndef PV_OUTPUTS_H
#define PV_OUTPUTS_H

#include <stddef.h>
#include "report.h"
#include "util/err.h"

/* The report files of one run ("-" is standard output), written
 * together: all of them or none. */
struct pv_outputs {
	const char *json, *junit, *markdown, *html;
	unsigned long markdown_limit;
	int quiet, verbose;
};

/* SOURCE_DATE_EPOCH (reproducible builds) or now: ISO 8601 UTC into
 * iso, the day (YYYY-MM-DD) into day. */
void pv_now_utc(char *iso, size_t isolen, char *day, size_t daylen);
/* The last component of path, as the Markdown names the JSON report;
 * NULL for standard output. */
const char *pv_json_name(const char *path);
/* Write every report o names; jname is the JSON's name the Markdown
 * mentions. */
int pv_write_reports_named(const struct pv_report *r,
			   const struct pv_outputs *o, const char *jname,
			   struct pv_err *err);
int pv_write_reports(const struct pv_report *r, const struct pv_outputs *o,
		     struct pv_err *err);
/* COLUMNS, else the terminal's width, else 80. */
unsigned pv_terminal_width(void);
/* The terminal summary on stdout (colour on a terminal, no NO_COLOR). */
int pv_write_summary(const struct pv_report *r, int quiet, int verbose,
		     struct pv_err *err);

#endif

/*
 * outputs.c - the reports of one run, written together, and the terminal
 * summary: what every command that decides writes at its end.  One
 * table lists the kinds of report and their writers, for compare's
 * model (compare, render, merge) and history's.
 */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "history/point.h"
#include "writers/history_writers.h"
#include "writers/writers.h"
#include "util/atomic.h"
#include "util/num.h"
#include "util/banned.h"

/* SOURCE_DATE_EPOCH (reproducible builds) or now, as UTC strings. */
void pv_now_utc(char *iso, size_t isolen, char *day, size_t daylen)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;

	if (sde && *sde) {
		char *end;
		long long v = strtoll(sde, &end, 10);

		/* Up to 9999-12-31T23:59:59Z: ISO 8601 has four-digit years. */
		if (!*end && v >= 0 && v <= 253402300799LL)
			t = (time_t)v;
	}
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	strftime(iso, isolen, "%Y-%m-%dT%H:%M:%SZ", &tm);
	strftime(day, daylen, "%Y-%m-%d", &tm);
}

/* The JSON report's file name, as the Markdown mentions it. */
const char *pv_json_name(const char *path)
{
	const char *slash;

	if (!path || !strcmp(path, "-"))
		return NULL;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The point is written like a report, in the same set: all or none. */
static int write_point(const struct pv_report *r, const struct pv_write_opts *o,
		       FILE *fp, struct pv_err *err)
{
	return pv_point_write_to(r, o->commit, o->path, fp, err);
}

/* The output table: each kind of report file and its writers; NULL where
 * a model has no such report. */
static const struct pv_format {
	enum pv_out kind;
	const char *option;             /* --json: for messages */
	pv_report_writer *report;       /* compare, render, merge */
	pv_history_writer *history;     /* history */
} formats[PV_NOUT] = {
	{ PV_OUT_JSON, "--json", pv_write_json, pv_write_history_json },
	{ PV_OUT_JUNIT, "--junit", pv_write_junit, NULL },
	{ PV_OUT_MARKDOWN, "--markdown", pv_write_markdown,
	  pv_write_history_markdown },
	{ PV_OUT_HTML, "--html", pv_write_html, pv_write_history_html },
	{ PV_OUT_POINT, "--save-point", write_point, NULL },
};

int pv_outputs_any(const struct pv_outputs *o)
{
	for (int k = 0; k < PV_NOUT; k++)
		if (o->path[k] && k != PV_OUT_POINT)
			return 1;
	return 0;
}

int pv_outputs_to_stdout(const struct pv_outputs *o)
{
	for (int k = 0; k < PV_NOUT; k++)
		if (o->path[k] && !strcmp(o->path[k], "-"))
			return 1;
	return 0;
}

/*
 * Two reports in one file would leave only the last one; two on standard
 * output would be two documents in one stream, which no consumer reads.
 */
int pv_outputs_check(const struct pv_outputs *o, struct pv_err *err)
{
	for (int i = 0; i < PV_NOUT; i++)
		for (int j = i + 1; j < PV_NOUT; j++) {
			if (!o->path[i] || !o->path[j] ||
			    strcmp(o->path[i], o->path[j]))
				continue;
			if (!strcmp(o->path[i], "-"))
				return pv_error(err, PV_M_SAME_OUTPUT,
						"standard output ('-') is given for two reports (%s and %s): give one of them a file",
						formats[i].option, formats[j].option);
			return pv_error(err, PV_M_SAME_OUTPUT,
					"'%s' is given for two reports (%s and %s): each report needs its own file",
					o->path[i], formats[i].option,
					formats[j].option);
		}
	return 0;
}

/*
 * Write every report o names, with the table's writer for r (compare's
 * model) or else h (history's), through atomic files committed all or
 * none.
 */
static int write_set(const struct pv_report *r, const struct pv_history *h,
		     const struct pv_outputs *o, const char *jname,
		     struct pv_err *err)
{
	struct pv_atomic a[PV_NOUT];
	int rc = 0;

	memset(a, 0, sizeof(a));
	if (pv_outputs_check(o, err))
		return -1;
	for (int k = 0; k < PV_NOUT; k++)
		if (o->path[k] && (r ? !formats[k].report : !formats[k].history))
			return pv_error(err, PV_M_USAGE,
					"%s: this command writes no such report",
					formats[k].option);
	for (int k = 0; k < PV_NOUT && !rc; k++) {
		struct pv_write_opts wo = { o->path[k], o->markdown_limit, jname,
					     o->commit };

		if (!o->path[k])
			continue;
		rc = pv_atomic_open(&a[k], o->path[k], err);
		if (!rc)
			rc = r ? formats[k].report(r, &wo, a[k].fp, err) :
				 formats[k].history(h, &wo, a[k].fp, err);
	}
	if (rc) {
		for (int k = 0; k < PV_NOUT; k++)
			pv_atomic_abort(&a[k]);
		return rc;
	}
	/* All of them or none. */
	return pv_atomic_commit_all(a, PV_NOUT, err);
}

int pv_write_reports_named(const struct pv_report *r,
			   const struct pv_outputs *o, const char *jname,
			   struct pv_err *err)
{
	return write_set(r, NULL, o, jname, err);
}

int pv_write_reports(const struct pv_report *r, const struct pv_outputs *o,
		     struct pv_err *err)
{
	return pv_write_reports_named(r, o, pv_json_name(o->path[PV_OUT_JSON]),
				      err);
}

int pv_write_history_reports(const struct pv_history *h,
			     const struct pv_outputs *o, struct pv_err *err)
{
	return write_set(NULL, h, o, pv_json_name(o->path[PV_OUT_JSON]), err);
}

/* The terminal's width: COLUMNS, the terminal's own, else 80. */
unsigned pv_terminal_width(void)
{
	const char *c = getenv("COLUMNS");
	unsigned long u;
	struct winsize ws;

	if (c && !pv_parse_uint(c, 10000, &u) && u >= 20)
		return (unsigned)u;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* The terminal summary on stdout (colour on a terminal, no NO_COLOR). */
int pv_write_summary(const struct pv_report *r, int quiet, int verbose,
			 struct pv_err *err)
{
	const char *nc = getenv("NO_COLOR");
	struct pv_text_opts to = {
		isatty(STDOUT_FILENO) && !(nc && *nc), quiet, verbose,
		pv_terminal_width(),
	};

	if (pv_write_text(r, &to, stdout, err))
		return -1;
	errno = 0;
	if (fflush(stdout))
		return pv_atomic_error(err, NULL, errno);
	return 0;
}

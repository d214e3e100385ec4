/*
 * outputs.c - the reports of one run, written together, and the terminal
 * summary: what every command that decides writes at its end.
 */
#include "outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
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

int pv_write_reports_named(const struct pv_report *r,
			       const struct pv_outputs *o, const char *jname,
			       struct pv_err *err)
{
	struct pv_atomic a[4];
	const char *paths[4] = { o->json, o->junit, o->markdown, o->html };
	int rc = 0;

	memset(a, 0, sizeof(a));
	/* Two reports in one file would leave only the last one. */
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (paths[i] && paths[j] && strcmp(paths[i], "-") &&
			    !strcmp(paths[i], paths[j]))
				return pv_error(err, PV_M_SAME_OUTPUT,
						"'%s' is given for two reports: each report needs its own file",
						paths[i]);
	for (int i = 0; i < 4 && !rc; i++) {
		struct pv_md_opts md = { o->markdown_limit, jname };

		if (!paths[i])
			continue;
		rc = pv_atomic_open(&a[i], paths[i], err);
		if (rc)
			break;
		if (i == 0)
			rc = pv_write_json(r, a[i].fp, err);
		else if (i == 1)
			rc = pv_write_junit(r, a[i].fp, err);
		else if (i == 2)
			rc = pv_write_markdown(r, &md, a[i].fp, err);
		else
			rc = pv_write_html(r, a[i].fp, err);
	}
	if (rc) {
		for (int i = 0; i < 4; i++)
			pv_atomic_abort(&a[i]);
		return rc;
	}
	/* All of them or none. */
	return pv_atomic_commit_all(a, 4, err);
}

int pv_write_reports(const struct pv_report *r, const struct pv_outputs *o,
			 struct pv_err *err)
{
	return pv_write_reports_named(r, o, pv_json_name(o->json), err);
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
	if (fflush(stdout))
		return pv_error(err, PV_M_CANNOT_WRITE, "cannot write to standard output");
	return 0;
}

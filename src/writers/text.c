/*
 * text.c - the terminal summary, in the spirit of autotest's "AvgS
 * Augment Rate" view: per group, each side's mean and %SD, the change,
 * p and the verdict.  Regressions come first; one closing line gives the
 * verdict and the counts.
 */
#include "writers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../util/strbuf.h"
#include "../util/text.h"
#include "fmt.h"
#include "../util/banned.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

enum { C_GROUP, C_BENCH, C_METRIC, C_BASE, C_BSD, C_CAND, C_CSD, C_CHANGE,
       C_P, C_VERDICT, NCOL };

static const char *const headers[NCOL] = {
	"group", "benchmark", "metric", "baseline", "%SD", "candidate", "%SD",
	"change", "p", "verdict",
};

struct row {
	char *cell[NCOL];
	enum pv_verdict v;
};

static void clean(struct strbuf *sb, const char *s)
{
	pv_text_clean(sb, s, strlen(s));
}

static char *cell_sd(const struct pv_moments *s)
{
	struct strbuf sb = STRBUF_INIT;

	double cv = pv_cv(s);

	if (isfinite(cv))
		strbuf_addf(&sb, "%.1f%%", cv * 100);
	else
		strbuf_addstr(&sb, "-");
	return strbuf_detach(&sb, NULL);
}

static void make_row(const struct pv_report *r, const struct pv_result *m,
		     struct row *row)
{
	struct strbuf sb = STRBUF_INIT;

	(void)r;
	row->v = m->verdict;
	clean(&sb, m->group);
	row->cell[C_GROUP] = strbuf_detach(&sb, NULL);
	clean(&sb, m->benchmark);
	row->cell[C_BENCH] = strbuf_detach(&sb, NULL);
	clean(&sb, m->metric);
	row->cell[C_METRIC] = strbuf_detach(&sb, NULL);
	if (m->side[0].s.n)
		pv_fmt_num(&sb, m->side[0].s.mean);
	else
		strbuf_addstr(&sb, "-");
	row->cell[C_BASE] = strbuf_detach(&sb, NULL);
	row->cell[C_BSD] = cell_sd(&m->side[0].s);
	if (m->side[1].s.n)
		pv_fmt_num(&sb, m->side[1].s.mean);
	else
		strbuf_addstr(&sb, "-");
	row->cell[C_CAND] = strbuf_detach(&sb, NULL);
	row->cell[C_CSD] = cell_sd(&m->side[1].s);
	if (isfinite(m->change_rel))
		pv_fmt_pct(&sb, m->change_rel);
	else
		strbuf_addstr(&sb, "-");
	row->cell[C_CHANGE] = strbuf_detach(&sb, NULL);
	if (isfinite(m->p))
		pv_fmt_p(&sb, m->p);
	else
		strbuf_addstr(&sb, "-");
	row->cell[C_P] = strbuf_detach(&sb, NULL);
	strbuf_addstr(&sb, m->verdict == PV_V_REGRESSION ? "REGRESSION" :
		      pv_verdict_name(m->verdict));
	row->cell[C_VERDICT] = strbuf_detach(&sb, NULL);
}

static void free_row(struct row *row)
{
	for (int c = 0; c < NCOL; c++)
		free(row->cell[c]);
}

/* Display width: count UTF-8 lead bytes (names are mostly ASCII). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static const char *colour(enum pv_verdict v)
{
	switch (v) {
	case PV_V_REGRESSION:
	case PV_V_MISSING:
		return RED;
	case PV_V_IMPROVEMENT:
		return GREEN;
	case PV_V_INCONCLUSIVE:
	case PV_V_NOISY:
	case PV_V_INSUFFICIENT:
	case PV_V_WAIVED:
		return YELLOW;
	default:
		return NULL;
	}
}

/* Print rows[0..n) as an aligned table; skip_group drops that column. */
static void table(FILE *fp, struct row *rows, size_t n, int skip_group,
		  int color)
{
	size_t w[NCOL];
	int right[NCOL] = { 0, 0, 0, 1, 1, 1, 1, 1, 1, 0 };

	for (int c = 0; c < NCOL; c++) {
		w[c] = width(headers[c]);
		for (size_t i = 0; i < n; i++)
			if (width(rows[i].cell[c]) > w[c])
				w[c] = width(rows[i].cell[c]);
	}
	for (size_t i = 0; i <= n; i++) {
		const char *col = i ? colour(rows[i - 1].v) : NULL;

		fputs("  ", fp);
		for (int c = skip_group ? 1 : 0; c < NCOL; c++) {
			const char *s = i ? rows[i - 1].cell[c] : headers[c];
			size_t pad = w[c] - width(s);
			int last = c == NCOL - 1;

			if (c == C_VERDICT && color && col)
				fputs(col, fp);
			if (right[c])
				fprintf(fp, "%*s%s", (int)pad, "", s);
			else
				fprintf(fp, "%s%*s", s, last ? 0 : (int)pad, "");
			if (c == C_VERDICT && color && col)
				fputs(RESET, fp);
			if (!last)
				fputs("  ", fp);
		}
		fputc('\n', fp);
	}
}

static void closing_line(const struct pv_report *r, FILE *fp, int color)
{
	static const struct { enum pv_verdict v; const char *one, *many; } k[] = {
		{ PV_V_REGRESSION, "regression", "regressions" },
		{ PV_V_IMPROVEMENT, "improvement", "improvements" },
		{ PV_V_UNCHANGED, "unchanged", "unchanged" },
		{ PV_V_INCONCLUSIVE, "inconclusive", "inconclusive" },
		{ PV_V_NOISY, "noisy", "noisy" },
		{ PV_V_INSUFFICIENT, "insufficient", "insufficient" },
		{ PV_V_MISSING, "missing", "missing" },
		{ PV_V_NEW, "new", "new" },
		{ PV_V_WAIVED, "waived", "waived" },
	};

	if (color)
		fputs(r->fail ? BOLD RED : BOLD GREEN, fp);
	fprintf(fp, "%s", r->fail ? "FAIL" : "PASS");
	if (color)
		fputs(RESET, fp);
	fprintf(fp, ": %zu metric%s", r->n, r->n == 1 ? "" : "s");
	for (size_t i = 0; i < sizeof(k) / sizeof(*k); i++) {
		size_t c = r->count[k[i].v];

		if (c)
			fprintf(fp, ", %zu %s", c, c == 1 ? k[i].one : k[i].many);
	}
	fputc('\n', fp);
}

int pv_write_text(const struct pv_report *r, const struct pv_text_opts *o,
		  FILE *fp, struct pv_err *err)
{
	struct row *rows;
	size_t *rank, nreg = 0;

	if (o->quiet) {
		closing_line(r, fp, o->color);
		goto out;
	}
	rows = pv_calloc(r->n + 1, sizeof(*rows));
	rank = pv_report_ranked(r);
	for (size_t i = 0; i < r->n; i++)
		make_row(r, &r->m[rank[i]], &rows[i]);
	for (size_t i = 0; i < r->n; i++)
		nreg += r->m[rank[i]].verdict == PV_V_REGRESSION;

	fprintf(fp, "perfverdict: %s (%zu runs) vs %s (%zu runs)\n",
		r->side[0].path ? r->side[0].path : "baseline", r->side[0].runs,
		r->side[1].path ? r->side[1].path : "candidate", r->side[1].runs);
	if (nreg) {
		fprintf(fp, "\nRegressions\n");
		table(fp, rows, nreg, 0, o->color);
	}
	/* Then every metric, one table per (test, group), in table order. */
	free(rank);
	for (size_t i = 0; i < r->n; i++)
		free_row(&rows[i]);
	for (size_t i = 0; i < r->n;) {
		size_t j = i;

		while (j < r->n && !strcmp(r->m[j].test, r->m[i].test) &&
		       !strcmp(r->m[j].group, r->m[i].group))
			j++;
		for (size_t k = i; k < j; k++)
			make_row(r, &r->m[k], &rows[k - i]);
		{
			struct strbuf sb = STRBUF_INIT;

			clean(&sb, r->m[i].group[0] ? r->m[i].group : r->m[i].test);
			fprintf(fp, "\n== %s ==\n", sb.buf);
			strbuf_release(&sb);
		}
		table(fp, rows, j - i, 1, o->color);
		for (size_t k = i; k < j; k++)
			free_row(&rows[k - i]);
		i = j;
	}
	free(rows);
	fputc('\n', fp);
	closing_line(r, fp, o->color);
out:
	if (ferror(fp))
		return pv_error(err, PV_EUSAGE, "cannot write the summary");
	return 0;
}

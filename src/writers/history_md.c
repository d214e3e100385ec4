/*
 * history_md.c - the history report as Markdown (a PR or MR comment)
 * and as terminal text: the status, the recent change points, and a
 * compact trend of every flagged metric (a Unicode sparkline, and a
 * Mermaid xychart-beta block that GitHub renders).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "history_writers.h"
#include "md.h"
#include "../util/text.h"
#include "../util/banned.h"

void pv_hist_name(struct strbuf *sb, const struct pv_hist_metric *m)
{
	struct strbuf raw = STRBUF_INIT;

	if (m->group && *m->group)
		strbuf_addf(&raw, "%s/", m->group);
	if (m->benchmark && *m->benchmark)
		strbuf_addf(&raw, "%s/", m->benchmark);
	strbuf_addstr(&raw, m->metric);
	pv_text_clean(sb, raw.buf, raw.len);
	strbuf_release(&raw);
}

void pv_hist_put_plain(struct strbuf *sb, const char *foreign)
{
	pv_text_clean(sb, foreign, strlen(foreign));
}

/* Foreign text in Markdown, outside and inside a table (md_text.c). */
static void put_md(struct strbuf *sb, const char *foreign)
{
	md_text_in(sb, foreign, 3 * NAME_CHARS, 0);
}

static void put_md_cell(struct strbuf *sb, const char *foreign)
{
	md_text_in(sb, foreign, 3 * NAME_CHARS, 1);
}

void pv_hist_cp_line(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		     pv_hist_put *put)
{
	const struct pv_hist_point *p = &h->p[c->point];
	struct strbuf name = STRBUF_INIT;

	pv_hist_name(&name, m);
	put(sb, name.buf);
	strbuf_release(&name);
	strbuf_addstr(sb, c->rel > 0 ? " rose " : c->rel < 0 ? " dropped " : " changed ");
	{
		/* unsigned: the verb gives the sign */
		size_t at = sb->len;

		pv_fmt_pct(sb, fabs(c->rel));
		if (sb->buf[at] == '+') {
			memmove(sb->buf + at, sb->buf + at + 1, sb->len - at);
			sb->len--;
		}
	}
	strbuf_addstr(sb, " at ");
	put(sb, p->label);
	if (p->commit) {
		strbuf_addstr(sb, " (");
		put(sb, p->commit);
		strbuf_addstr(sb, ")");
	}
	strbuf_addstr(sb, " (");
	pv_fmt_num(sb, c->before);
	strbuf_addstr(sb, " -> ");
	pv_fmt_num(sb, c->after);
	if (m->unit && *m->unit) {
		strbuf_addch(sb, ' ');
		put(sb, m->unit);
	}
	strbuf_addstr(sb, ", p=");
	pv_fmt_p(sb, c->s.p);
	strbuf_addstr(sb, ", q=");
	pv_fmt_p(sb, c->s.q);
	strbuf_addstr(sb, ")");
}

static const char *verdict_word(const struct pv_hist_cp *c)
{
	if (c->verdict == PV_HS_REGRESSION)
		return c->waiver ? "waived" : c->beyond ? "regression" :
		       "regression within threshold";
	if (c->verdict == PV_HS_IMPROVEMENT)
		return c->beyond ? "improvement" : "improvement within threshold";
	return "change";
}

static int flagged(const struct pv_hist_metric *m)
{
	return m->ncp > 0;
}

static void sparkline(struct strbuf *sb, const struct pv_hist_metric *m)
{
	static const char *const bars[8] = {
		"\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	double lo = INFINITY, hi = -INFINITY;

	for (size_t j = 0; j < m->nobs; j++) {
		if (m->obs[j].mean < lo) lo = m->obs[j].mean;
		if (m->obs[j].mean > hi) hi = m->obs[j].mean;
	}
	for (size_t j = 0; j < m->nobs; j++) {
		int k = hi > lo ? (int)((m->obs[j].mean - lo) / (hi - lo) * 7.999) : 3;

		strbuf_addstr(sb, bars[k < 0 ? 0 : k > 7 ? 7 : k]);
	}
}

/* Foreign text as a Mermaid string inside a ``` fence: it can hold
 * neither a double quote nor a backquote (which could close the fence). */
static void mermaid_str(struct strbuf *sb, const char *s)
{
	size_t from = sb->len;

	strbuf_addch(sb, '"');
	pv_text_clean(sb, s, strlen(s));
	for (size_t i = from + 1; i < sb->len; i++)
		if (sb->buf[i] == '"' || sb->buf[i] == '`')
			sb->buf[i] = '\'';
	strbuf_addch(sb, '"');
}

static void mermaid(struct strbuf *sb, const struct pv_history *h,
		    const struct pv_hist_metric *m)
{
	struct strbuf name = STRBUF_INIT;

	pv_hist_name(&name, m);
	strbuf_addstr(sb, "```mermaid\nxychart-beta\n    title ");
	mermaid_str(sb, name.buf);
	strbuf_addstr(sb, "\n    x-axis [");
	for (size_t j = 0; j < m->nobs; j++) {
		strbuf_addstr(sb, j ? ", " : "");
		strbuf_addf(sb, "\"%u\"", m->obs[j].point);
	}
	strbuf_addstr(sb, "]\n    y-axis ");
	mermaid_str(sb, m->unit && *m->unit ? m->unit : "value");
	strbuf_addstr(sb, "\n    line [");
	for (size_t j = 0; j < m->nobs; j++) {
		strbuf_addstr(sb, j ? ", " : "");
		strbuf_addg(sb, m->obs[j].mean);
	}
	strbuf_addstr(sb, "]\n    line [");
	/* the fitted levels: each point's segment */
	for (size_t j = 0, c = 0; j < m->nobs; j++) {
		while (c < m->ncp && m->cp[c].s.index <= j)
			c++;
		strbuf_addstr(sb, j ? ", " : "");
		strbuf_addg(sb, c ? m->cp[c - 1].after : m->cp[0].before);
	}
	strbuf_addstr(sb, "]\n```\n");
	strbuf_release(&name);
	(void)h;
}

int pv_write_history_markdown(const struct pv_history *h,
			      const struct pv_write_opts *o, FILE *fp,
			      struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t first_recent = h->np > h->recent ? h->np - h->recent : 0;
	size_t nrecent = 0, nall = 0;
	int rc = 0;

	strbuf_addf(&sb, "## perfverdict history: %s\n\n",
		    h->fail ? "FAIL" : "pass");
	strbuf_addf(&sb, "%zu points (", h->np);
	put_md(&sb, h->p[0].label);
	strbuf_addstr(&sb, " to ");
	put_md(&sb, h->p[h->np - 1].label);
	strbuf_addf(&sb, "), %zu metrics; the newest %zu points are recent.\n\n",
		    h->nm, h->recent);
	strbuf_addstr(&sb, "| status at the newest point | metrics |\n|---|---:|\n");
	for (int s = 0; s < PV_HS_COUNT; s++)
		if (h->count[s])
			strbuf_addf(&sb, "| %s | %zu |\n",
				    pv_hist_status_name((enum pv_hist_status)s),
				    h->count[s]);
	strbuf_addstr(&sb, "\n### Recent change points\n\n");
	for (size_t i = 0; i < h->nm; i++)
		for (size_t j = 0; j < h->m[i].ncp; j++) {
			const struct pv_hist_cp *c = &h->m[i].cp[j];

			nall++;
			if (c->point < first_recent)
				continue;
			nrecent++;
			strbuf_addstr(&sb, "- ");
			strbuf_addstr(&sb, c->fails ? "**regression**: " : "");
			pv_hist_cp_line(&sb, h, &h->m[i], c, put_md);
			strbuf_addf(&sb, "; %s\n", verdict_word(c));
		}
	if (!nrecent)
		strbuf_addf(&sb, "None in the newest %zu points.\n", h->recent);
	if (nall) {
		strbuf_addstr(&sb, "\n### All change points\n\n");
		strbuf_addstr(&sb, "| metric | at | change [interval] | before → after | q | verdict | trend |\n|---|---|---|---|---|---|---|\n");
		for (size_t i = 0; i < h->nm; i++) {
			const struct pv_hist_metric *m = &h->m[i];

			for (size_t j = 0; j < m->ncp; j++) {
				const struct pv_hist_cp *c = &m->cp[j];
				struct strbuf name = STRBUF_INIT;

				pv_hist_name(&name, m);
				strbuf_addstr(&sb, "| ");
				put_md_cell(&sb, name.buf);
				strbuf_release(&name);
				strbuf_addstr(&sb, " | ");
				put_md_cell(&sb, h->p[c->point].label);
				strbuf_addstr(&sb, " | ");
				pv_fmt_pct(&sb, c->rel);
				strbuf_addstr(&sb, " [");
				pv_fmt_pct(&sb, c->rel_low);
				strbuf_addstr(&sb, ", ");
				pv_fmt_pct(&sb, c->rel_high);
				strbuf_addstr(&sb, "] | ");
				pv_fmt_num(&sb, c->before);
				strbuf_addstr(&sb, " → ");
				pv_fmt_num(&sb, c->after);
				strbuf_addstr(&sb, " | ");
				pv_fmt_p(&sb, c->s.q);
				strbuf_addf(&sb, " | %s | ", verdict_word(c));
				sparkline(&sb, m);
				strbuf_addstr(&sb, " |\n");
			}
		}
		strbuf_addstr(&sb, "\n<details><summary>Trends of the flagged metrics</summary>\n\n");
		for (size_t i = 0; i < h->nm; i++)
			if (flagged(&h->m[i]))
				mermaid(&sb, h, &h->m[i]);
		strbuf_addstr(&sb, "\n</details>\n");
	}
	strbuf_addstr(&sb, "\nChange points: binary segmentation with a two-sample t of the adjacent segments' point values; the between-point sd is estimated from the residuals and moderated across metrics; q is Bonferroni over every split position of every metric.\n");
	errno = 0;
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = pv_write_failed(o, errno, err);
	strbuf_release(&sb);
	return rc;
}

int pv_write_history_text(const struct pv_history *h, int quiet, FILE *fp,
			  struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t first_recent = h->np > h->recent ? h->np - h->recent : 0;
	size_t ncp = 0;
	int rc = 0;

	for (size_t i = 0; i < h->nm && !quiet; i++)
		for (size_t j = 0; j < h->m[i].ncp; j++) {
			const struct pv_hist_cp *c = &h->m[i].cp[j];

			ncp++;
			strbuf_addstr(&sb, c->point >= first_recent ? "recent  " : "        ");
			pv_hist_cp_line(&sb, h, &h->m[i], c, pv_hist_put_plain);
			strbuf_addf(&sb, "; %s\n", verdict_word(c));
		}
	if (!quiet && !ncp)
		strbuf_addstr(&sb, "no change points\n");
	strbuf_addf(&sb, "history %s: %zu points, %zu metrics, %zu regression%s in the newest %zu points\n",
		    h->fail ? "FAIL" : "PASS", h->np, h->nm, h->fail_cp,
		    h->fail_cp == 1 ? "" : "s", h->recent);
	errno = 0;
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = pv_atomic_error(err, NULL, errno);
	strbuf_release(&sb);
	return rc;
}

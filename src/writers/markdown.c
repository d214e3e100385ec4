/*
 * markdown.c - the report model as a GitHub-flavoured Markdown comment
 * (pull-request comments, $GITHUB_STEP_SUMMARY, GitLab notes).
 *
 * Sections, in this order, each separated by a blank line:
 *   1. headline: ✅/❌ and the counts of each verdict
 *   2. "Regressions": ranked by severity (largest change first); under
 *      it, those judged against main's moved newest points, and why
 *   3. "Other changes": improvements, then the other non-unchanged
 *      verdicts in severity order, each with its reason
 *   4. <details> "All N metrics": one table per (suite, test, group), in
 *      the classic layout (baseline, stdev, candidate, stdev, % change,
 *      verdict)
 *   5. "Environment differs": context keys whose values differ
 *   6. a note on what was left out, the footer with the settings, and
 *      the hidden marker <!-- perfverdict-report -->
 *
 * Size: the whole text fits o->markdown_limit, counted in bytes (never fewer than
 * characters, or UTF-16 units), so it fits whatever the host counts.
 * The headline, environment table (capped), notes and footer are always
 * written; the remaining budget admits table rows in one priority order
 * (regressions, improvements, other verdicts, then the detail rows in
 * the same ranking) and stops at the first row that does not fit, so
 * what is cut is always the long tail of the least severe rows.  Each
 * cut says how many rows it left out and that the JSON has them all.
 *
 * This file holds that budget and the section order; the pieces are in
 * md_parts.c, the escaping of foreign text and the cells in md_text.c
 * (see md.h).
 */
#include "md.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../policy.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

static void append_release(struct strbuf *out, struct strbuf *part)
{
	strbuf_add(out, part->buf, part->len);
	strbuf_release(part);
}

enum section { SEC_REGRESS, SEC_NUMBERS, SEC_OTHER, SEC_UNGATED, SEC_DETAIL,
	       SEC_COUNT };

struct admitted {
	char **row;                 /* per section, the rows in order */
	size_t n;
};

/* What render() decides, and what writing it out needs. */
struct layout {
	struct md *d;
	size_t *gid, ng;            /* each metric's detail group */
	char *gopen;                /* a group has a detail row */
	char **drow;                /* each metric's detail row, or NULL */
	char *in_table;             /* a metric has a row in some table */
	char **whys;                /* the other changes' reasons, in order */
	char *common;               /* the clause all those reasons share */
	char **ends;                /* each regression's end-of-main item */
	size_t nends;               /* how many of them are not NULL */
	size_t total[SEC_COUNT], shown[SEC_COUNT];
	struct admitted sec[SEC_COUNT];
};

/* Which section metric m's row goes to in admission pass `pass`, or -1. */
static int section_of(int pass, const struct pv_result *m)
{
	enum pv_verdict v = m->verdict;

	switch (pass) {
	case 0:
		return v == PV_V_REGRESSION ? SEC_REGRESS : -1;
	case 1:
		return v == PV_V_IMPROVEMENT ? SEC_OTHER : -1;
	case 2:
		return v != PV_V_IMPROVEMENT && v != PV_V_REGRESSION &&
		       v != PV_V_UNCHANGED && v != PV_V_UNGATED ? SEC_OTHER : -1;
	case 3:
		return v == PV_V_REGRESSION ? SEC_NUMBERS : -1;
	case 4:
		return pv_policy_ungated_moved(m) ? SEC_UNGATED : -1;
	case 5:
		return SEC_DETAIL;
	default:
		return -1;
	}
}

static void layout_init(struct layout *L, struct md *d)
{
	const struct pv_report *r = d->r;
	size_t n = r->n ? r->n : 1;

	memset(L, 0, sizeof(*L));
	L->d = d;
	L->gid = pv_calloc(n, sizeof(*L->gid));
	L->ng = pv_report_groups(r, 1, L->gid);
	L->gopen = pv_calloc(L->ng ? L->ng : 1, 1);
	L->drow = pv_calloc(n, sizeof(*L->drow));
	L->in_table = pv_calloc(n, 1);
	L->common = md_common_clause(d);
	L->total[SEC_REGRESS] = L->total[SEC_NUMBERS] = d->cnt[PV_V_REGRESSION];
	L->total[SEC_OTHER] = r->n - d->cnt[PV_V_REGRESSION] -
			      d->cnt[PV_V_UNCHANGED] - d->cnt[PV_V_UNGATED];
	L->total[SEC_UNGATED] = d->ungated_moved;
	L->total[SEC_DETAIL] = r->n;
	for (int s = 0; s < SEC_COUNT; s++)
		L->sec[s].row = pv_calloc(st_add(L->total[s], 1),
					  sizeof(char *));
	L->whys = pv_calloc(st_add(L->total[SEC_OTHER], 1), sizeof(char *));
	L->ends = pv_calloc(st_add(L->total[SEC_REGRESS], 1), sizeof(char *));
}

static void layout_release(struct layout *L)
{
	for (int s = 0; s < SEC_COUNT; s++) {
		for (size_t k = 0; k < L->sec[s].n; k++)
			free(L->sec[s].row[k]);
		free(L->sec[s].row);
	}
	for (size_t i = 0; i < L->d->r->n; i++)
		free(L->drow[i]);
	for (size_t k = 0; k < L->sec[SEC_OTHER].n; k++)
		free(L->whys[k]);
	free(L->whys);
	for (size_t k = 0; k < L->sec[SEC_REGRESS].n; k++)
		free(L->ends[k]);
	free(L->ends);
	free(L->common);
	free(L->drow);
	free(L->in_table);
	free(L->gopen);
	free(L->gid);
}

/*
 * The parts always written, into head, env, sh and foot; returns their
 * length plus that of the notes at their longest (every count is at
 * most r->n), which the rows must leave room for.
 */
static size_t fixed_parts(const struct layout *L, struct strbuf *head,
			  struct strbuf *env, struct strbuf *sh,
			  struct strbuf *foot, size_t limit,
			  const char *json_name)
{
	const struct pv_report *r = L->d->r;
	struct strbuf notes = STRBUF_INIT;
	size_t fixed;

	md_headline(head, L->d);
	md_provenance(head, r);
	md_environment(env, r, CTX_ROWS);
	md_legend(sh, r);
	md_footer(foot, r);
	md_omitted_note(&notes, r->n, "regressions", "regressions");
	md_omitted_note(&notes, r->n, "regressions", "regressions");
	md_omitted_note(&notes, r->n, "other changes", "other changes");
	md_omitted_note(&notes, r->n, "metrics", "metrics");
	md_omitted_note(&notes, r->n, "metrics", "metrics");
	md_final_note(&notes, r->n, limit, r->n, json_name);
	md_details_open(&notes, r->n, r->n ? r->n - 1 : 0);
	strbuf_addstr(&notes, md_no_detail);
	strbuf_addstr(&notes, "</details>\n\n</details>\n\n</details>\n\n");
	if (L->common) {
		strbuf_addstr(&notes, "Every one of them: ");
		md_text_in(&notes, L->common, REASON_CHARS, 0);
		strbuf_addstr(&notes, ".\n\n");
	}
	fixed = head->len + env->len + sh->len + foot->len + notes.len;
	strbuf_release(&notes);
	if (fixed > limit && env->len) {
		/* the environment warning is the only fixed part that can
		 * shrink: say only that it differs */
		fixed -= env->len;
		strbuf_reset(env);
		md_environment(env, r, 0);
		fixed += env->len;
	}
	return fixed;
}

/* Metric i's row of section s into row (and why), and into hd the
 * header the row would open. */
static void build_row(struct layout *L, int s, size_t i, struct strbuf *row,
		      struct strbuf *why, struct strbuf *hd)
{
	struct md *d = L->d;
	const struct pv_result *m = &d->r->m[i];

	switch (s) {
	case SEC_REGRESS:
		strbuf_reset(why);
		md_end_item(why, d, m);
		md_regress_row(row, d, m);
		if (!L->shown[s])
			md_regress_head(hd, d, L->total[s]);
		break;
	case SEC_NUMBERS:
		md_numbers_row(row, d, m);
		if (!L->shown[s])
			md_numbers_head(hd);
		break;
	case SEC_OTHER:
		strbuf_reset(why);
		md_other_row(row, why, d, m, L->common);
		if (!L->shown[s])
			strbuf_addf(hd, "%s\n%s\n</details>\n\n",
				    md_other_head, md_why_head);
		break;
	case SEC_UNGATED:
		md_ungated_row(row, d, m);
		if (!L->shown[s])
			md_ungated_head(hd, d);
		break;
	default:
		md_detail_row(row, m);
		if (!L->gopen[L->gid[i]])
			md_group_head(hd, d, m);
		break;
	}
}

/* Admit rows in priority order until one does not fit the budget. */
static void admit(struct layout *L, size_t budget)
{
	const struct pv_report *r = L->d->r;
	struct strbuf row = STRBUF_INIT, why = STRBUF_INIT;
	size_t used = 0;

	for (int pass = 0; pass < 6; pass++) {
		for (size_t k = 0; k < r->n; k++) {
			size_t i = L->d->rank[k], cost;
			int s = section_of(pass, &r->m[i]);
			struct strbuf hd = STRBUF_INIT;

			if (s < 0)
				continue;
			strbuf_reset(&row);
			build_row(L, s, i, &row, &why, &hd);
			cost = row.len + (hd.len ? hd.len + 1 : 0) +
			       (s == SEC_OTHER || s == SEC_REGRESS ?
				why.len : 0) +
			       (s == SEC_REGRESS && why.len && !L->nends ?
				strlen(md_end_head) : 0);
			strbuf_release(&hd);
			if (used + cost > budget)
				goto full;
			used += cost;
			L->in_table[i] = 1;
			if (s == SEC_DETAIL) {
				L->gopen[L->gid[i]] = 1;
				L->drow[i] = strbuf_detach(&row, NULL);
			} else {
				if (s == SEC_OTHER)
					L->whys[L->sec[s].n] =
						strbuf_detach(&why, NULL);
				if (s == SEC_REGRESS && why.len) {
					L->ends[L->sec[s].n] =
						strbuf_detach(&why, NULL);
					L->nends++;
				}
				L->sec[s].row[L->sec[s].n++] =
					strbuf_detach(&row, NULL);
			}
			L->shown[s]++;
		}
	}
full:
	strbuf_release(&why);
	strbuf_release(&row);
}

static void add_rows(struct strbuf *out, const struct admitted *a)
{
	for (size_t k = 0; k < a->n; k++)
		strbuf_addstr(out, a->row[k]);
	strbuf_addch(out, '\n');
}

static void write_regressions(struct strbuf *out, const struct layout *L)
{
	const size_t *total = L->total, *shown = L->shown;

	if (shown[SEC_REGRESS]) {
		md_regress_head(out, L->d, total[SEC_REGRESS]);
		add_rows(out, &L->sec[SEC_REGRESS]);
	}
	if (L->nends) {
		strbuf_addstr(out, md_end_head);
		for (size_t k = 0; k < L->sec[SEC_REGRESS].n; k++)
			if (L->ends[k])
				strbuf_addstr(out, L->ends[k]);
		strbuf_addch(out, '\n');
	}
	md_omitted_note(out, total[SEC_REGRESS] - shown[SEC_REGRESS],
			"regression", "regressions");
	if (shown[SEC_NUMBERS]) {
		md_numbers_head(out);
		add_rows(out, &L->sec[SEC_NUMBERS]);
		md_omitted_note(out, total[SEC_NUMBERS] - shown[SEC_NUMBERS],
				"regression", "regressions");
		strbuf_addstr(out, "</details>\n\n");
	}
}

static void write_other(struct strbuf *out, const struct layout *L)
{
	const struct admitted *a = &L->sec[SEC_OTHER];

	if (L->shown[SEC_OTHER]) {
		strbuf_addstr(out, md_other_head);
		add_rows(out, a);
		strbuf_addstr(out, md_why_head);
		for (size_t k = 0; k < a->n; k++)
			strbuf_addstr(out, L->whys[k]);
		strbuf_addch(out, '\n');
		if (L->common) {
			strbuf_addstr(out, "Every one of them: ");
			md_text_in(out, L->common, REASON_CHARS, 0);
			strbuf_addstr(out, ".\n\n");
		}
		strbuf_addstr(out, "</details>\n\n");
	}
	md_omitted_note(out, L->total[SEC_OTHER] - L->shown[SEC_OTHER],
			"other change", "other changes");
}

static void write_ungated(struct strbuf *out, const struct layout *L)
{
	md_ungated_head(out, L->d);
	add_rows(out, &L->sec[SEC_UNGATED]);
	md_omitted_note(out, L->total[SEC_UNGATED] - L->shown[SEC_UNGATED],
			"metric", "metrics");
	strbuf_addstr(out, "</details>\n\n");
}

/* "All N metrics": each group's admitted rows under its heading. */
static void write_details(struct strbuf *out, const struct layout *L)
{
	const struct pv_report *r = L->d->r;
	size_t shown = L->shown[SEC_DETAIL];

	md_details_open(out, r->n, shown);
	for (size_t g = 0; g < L->ng; g++) {
		int opened = 0;

		if (!L->gopen[g])
			continue;
		for (size_t i = 0; i < r->n; i++) {
			if (L->gid[i] != g || !L->drow[i])
				continue;
			if (!opened)
				md_group_head(out, L->d, &r->m[i]);
			opened = 1;
			strbuf_addstr(out, L->drow[i]);
		}
		strbuf_addch(out, '\n');
	}
	if (!shown)
		strbuf_addstr(out, md_no_detail);
	else
		md_omitted_note(out, r->n - shown, "metric", "metrics");
	strbuf_addstr(out, "</details>\n\n");
}

static void render(struct strbuf *out, struct md *d, size_t limit,
		   const char *json_name)
{
	const struct pv_report *r = d->r;
	struct strbuf head = STRBUF_INIT, env = STRBUF_INIT, foot = STRBUF_INIT;
	struct strbuf sh = STRBUF_INIT;
	struct layout L;
	size_t fixed;
	int cut = 0;

	layout_init(&L, d);
	fixed = fixed_parts(&L, &head, &env, &sh, &foot, limit, json_name);
	admit(&L, fixed < limit ? limit - fixed : 0);

	/* write it out in section order */
	append_release(out, &head);
	append_release(out, &env);
	append_release(out, &sh);
	if (L.total[SEC_REGRESS])
		write_regressions(out, &L);
	if (L.total[SEC_OTHER])
		write_other(out, &L);
	if (L.shown[SEC_UNGATED])
		write_ungated(out, &L);
	if (r->n)
		write_details(out, &L);
	for (int s = 0; s < SEC_COUNT; s++)
		cut |= L.total[s] != L.shown[s];
	if (cut) {
		size_t hidden = 0;

		for (size_t i = 0; i < r->n; i++)
			hidden += !L.in_table[i];
		md_final_note(out, hidden, limit, r->n, json_name);
	}
	append_release(out, &foot);
	layout_release(&L);
}

int pv_write_markdown(const struct pv_report *r, const struct pv_write_opts *o,
		      FILE *fp, struct pv_err *err)
{
	struct md d;
	struct strbuf out = STRBUF_INIT;
	size_t limit = o && o->markdown_limit ? o->markdown_limit :
		       r->settings.markdown_limit ? r->settings.markdown_limit :
		       MD_DEFAULT_LIMIT;
	int rc = 0;

	memset(&d, 0, sizeof(d));
	d.r = r;
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[i];

		if ((unsigned)m->verdict < PV_V_COUNT)
			d.cnt[m->verdict]++;
		d.ungated_moved += pv_policy_ungated_moved(m);
		if (m->verdict == PV_V_REGRESSION &&
		    (m->threshold != r->settings.gate.threshold ||
		     isfinite(m->abs_threshold)))
			d.thr_column = 1;
		if (!md_same(m->suite, r->m[0].suite))
			d.multi_suite = 1;
		if (!md_same(m->suite, r->m[0].suite) ||
		    !md_same(m->test, r->m[0].test))
			d.multi_test = 1;
	}
	d.rank = pv_report_ranked(r);
	render(&out, &d, limit, o ? o->json_name : NULL);
	free(d.rank);

	errno = 0;
	if (fwrite(out.buf, 1, out.len, fp) != out.len || fflush(fp) ||
	    ferror(fp))
		rc = pv_write_failed(o, errno, err);
	strbuf_release(&out);
	return rc;
}

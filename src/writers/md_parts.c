/*
 * md_parts.c - the pieces of the Markdown comment: each table's header
 * and rows, the groups of the detail tables, and the parts always
 * written (headline, provenance, environment, legend, notes, footer).
 * Every foreign string goes through md_text.c; every row has as many
 * cells as its header.
 */
#include "md.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

/* Regressions: benchmark, metric, the move, the interval, q (and the
 * threshold, only where one differs from the gate's). */
void md_regress_head(struct strbuf *sb, const struct md *d, size_t n)
{
	strbuf_addf(sb, "### Regressions (%zu)\n\n", n);
	strbuf_addstr(sb, "| Benchmark | Metric | Baseline \xe2\x86\x92 candidate "
		      "| Interval | q |");
	if (d->thr_column)
		strbuf_addstr(sb, " Threshold |");
	strbuf_addstr(sb, "\n|---|---|---:|---:|---:|");
	if (d->thr_column)
		strbuf_addstr(sb, "---:|");
	strbuf_addch(sb, '\n');
}

void md_regress_row(struct strbuf *sb, struct md *d,
		    const struct pv_result *m)
{
	md_name_cells(sb, d, m);
	md_cell_next(sb);
	md_move_cell(sb, m);
	md_cell_next(sb);
	md_interval_cell(sb, m);
	md_cell_next(sb);
	md_q_cell(sb, m);
	if (d->thr_column) {
		md_cell_next(sb);
		md_threshold_text(sb, m);
	}
	md_cell_end(sb);
}

/* The numbers behind each regression, collapsed: sd, n, the test. */
void md_numbers_head(struct strbuf *sb)
{
	strbuf_addstr(sb, "<details><summary>Regressions in detail: sd, n "
		      "and test</summary>\n\n"
		      "| Benchmark | Metric | Baseline | Candidate | Test | p |\n"
		      "|---|---|---:|---:|---|---:|\n");
}

void md_numbers_row(struct strbuf *sb, struct md *d,
		    const struct pv_result *m)
{
	md_name_cells(sb, d, m);
	md_cell_next(sb);
	md_side_cell(sb, m, 0);
	md_cell_next(sb);
	md_side_cell(sb, m, 1);
	md_cell_next(sb);
	if (m->tested) {
		strbuf_addf(sb, "%s, %s-sided", pv_test_name(m->test_used),
			    pv_sided_name(m->sided));
		if (isfinite(m->df)) {
			strbuf_addstr(sb, ", df ");
			pv_fmt_num(sb, m->df);
		}
	} else {
		strbuf_addstr(sb, DASH);
	}
	md_cell_next(sb);
	if (m->tested)
		pv_fmt_p(sb, m->p);
	else
		strbuf_addstr(sb, DASH);
	md_cell_end(sb);
}

const char md_other_head[] =
	"### Other changes\n\n"
	"| Verdict | Benchmark | Metric | Baseline \xe2\x86\x92 candidate | q |\n"
	"|---|---|---|---:|---:|\n";

const char md_end_head[] = "Main moved at the end of its archive:\n\n";

/* "- BM_Parse cpu_time: main's newest 2 points moved +10.2% ...", when
 * m was judged against main's newest points too; nothing otherwise. */
void md_end_item(struct strbuf *sb, struct md *d, const struct pv_result *m)
{
	struct strbuf t = STRBUF_INIT;

	if (!m->end_points)
		return;
	strbuf_addstr(sb, "- ");
	md_label(d, sb, m);
	strbuf_addch(sb, ' ');
	md_text(sb, m->metric, NAME_CHARS);
	strbuf_addstr(sb, ": ");
	md_text_in(sb, pv_result_end_note(m, &t), REASON_CHARS, 0);
	strbuf_addch(sb, '\n');
	strbuf_release(&t);
}

const char md_why_head[] = "<details><summary>Why: each verdict's reason</summary>\n\n";

/* The row of the other-changes table, and into why its list item. */
void md_other_row(struct strbuf *sb, struct strbuf *why, struct md *d,
		  const struct pv_result *m, const char *common)
{
	struct strbuf t = STRBUF_INIT;
	const char *word = pv_fmt_better_word(m);

	md_cell_begin(sb);
	strbuf_addstr(sb, md_verdict_cell(m->verdict));
	/* which way an undecided metric moved */
	if (word && m->verdict != PV_V_IMPROVEMENT &&
	    m->verdict != PV_V_REGRESSION)
		strbuf_addf(sb, ", %s", word);
	md_cell_next(sb);
	md_label(d, sb, m);
	md_cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	md_cell_next(sb);
	md_move_cell(sb, m);
	md_cell_next(sb);
	md_q_cell(sb, m);
	md_cell_end(sb);

	strbuf_addstr(why, "- ");
	md_label(d, why, m);
	strbuf_addch(why, ' ');
	md_text(why, m->metric, NAME_CHARS);
	strbuf_addstr(why, ": ");
	md_reason_cell(why, pv_result_reason(d->r, m, &t), common);
	strbuf_addch(why, '\n');
	strbuf_release(&t);
}

void md_ungated_head(struct strbuf *sb, const struct md *d)
{
	strbuf_addf(sb, "<details><summary>%zu ungated %s moved beyond the "
		    "threshold with p &lt; alpha (reported, never gated, "
		    "so not family-corrected)</summary>\n\n"
		    "| Benchmark | Metric | Baseline \xe2\x86\x92 candidate "
		    "| p |\n|---|---|---:|---:|\n",
		    d->ungated_moved,
		    d->ungated_moved == 1 ? "metric" : "metrics");
}

void md_ungated_row(struct strbuf *sb, struct md *d,
		    const struct pv_result *m)
{
	md_name_cells(sb, d, m);
	md_cell_next(sb);
	md_move_cell(sb, m);
	md_cell_next(sb);
	md_q_cell(sb, m);
	md_cell_end(sb);
}

static const char detail_head[] =
	"| Benchmark | Metric | Baseline \xe2\x86\x92 candidate | Verdict |\n"
	"|---|---|---:|---|\n";

void md_detail_row(struct strbuf *sb, const struct pv_result *m)
{
	const char *word = pv_fmt_better_word(m);

	md_cell_begin(sb);
	if (m->benchmark && *m->benchmark)
		md_text(sb, m->benchmark, NAME_CHARS);
	else
		strbuf_addstr(sb, DASH);
	md_cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	md_cell_next(sb);
	md_move_cell(sb, m);
	md_cell_next(sb);
	strbuf_addstr(sb, md_verdict_cell(m->verdict));
	if (word && m->verdict != PV_V_IMPROVEMENT &&
	    m->verdict != PV_V_REGRESSION && m->verdict != PV_V_UNCHANGED)
		strbuf_addf(sb, ", %s", word);
	md_cell_end(sb);
}

/* "#### suite / test / group" and the table header of one group. */
void md_group_head(struct strbuf *sb, struct md *d,
		   const struct pv_result *m)
{
	int first = 1;

	strbuf_addstr(sb, "#### ");
	if (d->multi_suite)
		md_join(sb, &first, m->suite);
	if (d->multi_test)
		md_join(sb, &first, m->test);
	md_join(sb, &first, m->group);
	if (first)
		md_join(sb, &first, m->suite);
	if (first)
		strbuf_addstr(sb, "Metrics");
	strbuf_addstr(sb, "\n\n");
	strbuf_addstr(sb, detail_head);
}

static const enum pv_verdict count_order[] = {
	PV_V_REGRESSION, PV_V_MISSING, PV_V_INCONCLUSIVE, PV_V_NOISY,
	PV_V_INSUFFICIENT, PV_V_WAIVED, PV_V_IMPROVEMENT, PV_V_NEW,
	PV_V_UNGATED, PV_V_UNCHANGED,
};

static void counts_line(struct strbuf *sb, const size_t *c)
{
	int first = 1;

	for (size_t k = 0; k < sizeof(count_order) / sizeof(*count_order); k++) {
		enum pv_verdict v = count_order[k];

		if (!c[v])
			continue;
		strbuf_addstr(sb, first ? "" : " \xc2\xb7 ");
		first = 0;
		strbuf_addf(sb, "%zu %s", c[v], pv_verdict_name(v));
		if (c[v] != 1 && (v == PV_V_REGRESSION || v == PV_V_IMPROVEMENT))
			strbuf_addch(sb, 's');
	}
	strbuf_addstr(sb, "\n\n");
}

/* The name of a metric in running text, bold. */
static void name_words(struct strbuf *sb, struct md *d,
		       const struct pv_result *m)
{
	strbuf_addstr(sb, "**");
	md_text_in(sb, m->metric, NAME_CHARS, 0);
	strbuf_addstr(sb, "** of ");
	{
		struct strbuf l = STRBUF_INIT;

		md_label(d, &l, m);
		strbuf_add(sb, l.buf, l.len);
		strbuf_release(&l);
	}
}

/* The outcome, the largest regression in words, the counts not zero. */
void md_headline(struct strbuf *sb, struct md *d)
{
	const struct pv_report *r = d->r;
	size_t nreg = d->cnt[PV_V_REGRESSION];

	strbuf_addstr(sb, r->fail ? "## \xe2\x9d\x8c Performance gate failed" :
		      "## \xe2\x9c\x85 Performance gate passed");
	strbuf_addstr(sb, "\n\n");
	if (nreg && r->n) {
		const struct pv_result *m = &r->m[d->rank[0]];

		name_words(sb, d, m);
		strbuf_addstr(sb, " got ");
		if (isfinite(m->change_rel)) {
			struct strbuf p = STRBUF_INIT;

			/* the size of the move, without its sign */
			pv_fmt_pct(&p, fabs(m->change_rel));
			strbuf_addstr(sb, p.buf[0] == '+' ? p.buf + 1 : p.buf);
			strbuf_release(&p);
			strbuf_addstr(sb, " worse");
		} else {
			strbuf_addstr(sb, "worse");
		}
		strbuf_addstr(sb, " (");
		pv_fmt_means(sb, m, md_unit);
		strbuf_addch(sb, ')');
		if (nreg > 1)
			strbuf_addf(sb, ", the largest of %zu regressions", nreg);
		strbuf_addstr(sb, ".\n\n");
	}
	counts_line(sb, d->cnt);
}

/* "Comparing candidate `abc` (5 runs) with baseline `main` (5 runs)." */
void md_provenance(struct strbuf *sb, const struct pv_report *r)
{
	strbuf_addstr(sb, "Comparing");
	for (int k = 1; k >= 0; k--) {
		const struct pv_sidemeta *s = &r->side[k];
		char buf[16];
		const char *l = pv_fmt_label(r->label[k], buf, sizeof(buf));
		const char *what = l ? l : s->path;

		strbuf_addstr(sb, k ? " candidate " : " with baseline ");
		if (what && *what) {
			strbuf_addstr(sb, "**");
			md_text_in(sb, what, CTX_CHARS, 0);
			strbuf_addstr(sb, "** ");
		}
		{
			struct strbuf n = STRBUF_INIT;

			strbuf_addf(sb, "(%s)", pv_side_count(r, k, &n));
			strbuf_release(&n);
		}
	}
	strbuf_addstr(sb, ".\n\n");
}

/* The first entry of key on a side: its value, and its index in *at. */
static const char *ctx_value(const struct pv_sidemeta *s, const char *key,
			     size_t *at)
{
	for (size_t i = 0; i < s->ncontext; i++) {
		if (md_same(s->context[i].key, key)) {
			if (at)
				*at = i;
			return md_str(s->context[i].value);
		}
	}
	return NULL;
}

/* Keys whose values differ between any two runs: paths of the binary,
 * host names, dates.  A key is one when a word of it is one of these. */
static int always_differs(const char *key)
{
	static const char *const words[] = {
		"path", "executable", "exe", "binary", "host", "hostname",
		"node", "date", "time", "timestamp", "cwd", "dir", "pid",
		"uuid", NULL,
	};
	char w[32];
	size_t n = 0;

	for (const char *p = key;; p++) {
		if (md_is_alnum((unsigned char)*p)) {
			if (n + 1 < sizeof(w))
				w[n++] = (char)(*p | 0x20);
			continue;
		}
		w[n] = '\0';
		for (size_t i = 0; n && words[i]; i++)
			if (!strcmp(w, words[i]))
				return 1;
		n = 0;
		if (!*p)
			return 0;
	}
}

/* The kind of a value: its last path component with every run of
 * digits as one '0', so two builds' paths or two dates are alike. */
static void value_kind(struct strbuf *sb, const char *v)
{
	const char *slash = strrchr(v, '/');

	if (slash && slash[1])
		v = slash + 1;
	for (; *v; v++) {
		if (*v >= '0' && *v <= '9') {
			if (!sb->len || sb->buf[sb->len - 1] != '0')
				strbuf_addch(sb, '0');
		} else {
			strbuf_addch(sb, *v);
		}
	}
}

static int differ_in_kind(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int d;

	value_kind(&x, a);
	value_kind(&y, b);
	d = strcmp(x.buf, y.buf) != 0;
	strbuf_release(&x);
	strbuf_release(&y);
	return d;
}

/*
 * The context keys whose values differ (or that one side lacks), as one
 * short warning: at most rows of them, then how many more.  Keys that
 * always differ are left out unless their values differ in kind.
 */
void md_environment(struct strbuf *sb, const struct pv_report *r,
		    size_t rows)
{
	const struct pv_sidemeta *b = &r->side[0], *c = &r->side[1];
	size_t shown = 0, more = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct pv_sidemeta *s = pass ? c : b;

		for (size_t i = 0; i < s->ncontext; i++) {
			const char *key = md_str(s->context[i].key);
			const char *bv, *cv;
			size_t at = 0;

			/* a key repeated on one side counts once */
			ctx_value(s, key, &at);
			if (at != i)
				continue;
			bv = ctx_value(b, key, NULL);
			cv = ctx_value(c, key, NULL);
			if (pass && bv)
				continue;   /* done in the first pass */
			if (bv && cv && !strcmp(bv, cv))
				continue;
			if (bv && cv && always_differs(key) &&
			    !differ_in_kind(bv, cv))
				continue;
			if (shown == rows) {
				more++;
				continue;
			}
			strbuf_addstr(sb, shown ? " \xc2\xb7 " :
				      "> \xe2\x9a\xa0\xef\xb8\x8f **Environment differs:** ");
			md_text_in(sb, key, NAME_CHARS, 0);
			strbuf_addstr(sb, " ");
			if (bv)
				md_text_in(sb, bv, CTX_CHARS, 0);
			else
				strbuf_addstr(sb, "(none)");
			strbuf_addstr(sb, " \xe2\x86\x92 ");
			if (cv)
				md_text_in(sb, cv, CTX_CHARS, 0);
			else
				strbuf_addstr(sb, "(none)");
			shown++;
		}
	}
	if (more)
		strbuf_addf(sb, "%s%zu more %s differ%s (see the JSON report)",
			    shown ? " \xc2\xb7 and " : "> \xe2\x9a\xa0\xef\xb8\x8f **Environment differs:** ",
			    more, more == 1 ? "key" : "keys", more == 1 ? "s" : "");
	if (shown || more)
		strbuf_addstr(sb, "\n\n");
}

/* One line that says what every term means. */
void md_legend(struct strbuf *sb, const struct pv_report *r)
{
	const struct pv_gate *g = &r->settings.gate;

	strbuf_addstr(sb, "<sub>Baseline \xe2\x86\x92 candidate: the means \xc2\xb7 interval: ");
	pv_fmt_threshold(sb, 1 - g->alpha);
	strbuf_addstr(sb, " confidence interval of the change \xc2\xb7 q: ");
	switch (g->correction) {
	case PV_CORR_BH:
		strbuf_addstr(sb, "BH-adjusted p-value");
		break;
	case PV_CORR_HOLM:
		strbuf_addstr(sb, "Holm-adjusted p-value");
		break;
	default:
		strbuf_addstr(sb, "p-value (no correction)");
		break;
	}
	strbuf_addstr(sb, " \xc2\xb7 threshold ");
	pv_fmt_threshold(sb, g->threshold);
	strbuf_addstr(sb, " unless stated</sub>\n\n");
}

void md_footer(struct strbuf *sb, const struct pv_report *r)
{
	const struct pv_settings *s = &r->settings;
	const struct pv_gate *g = &s->gate;

	strbuf_addf(sb, "---\n\n<sub>perfverdict %s", md_str(r->tool_version));
	strbuf_addf(sb, " \xc2\xb7 test %s \xc2\xb7 %s-sided \xc2\xb7 "
		    "correction %s \xc2\xb7 alpha ", pv_test_name(g->test),
		    pv_sided_name(g->sided), pv_correction_name(g->correction));
	pv_fmt_p(sb, g->alpha);
	strbuf_addstr(sb, " \xc2\xb7 threshold ");
	pv_fmt_threshold(sb, g->threshold);
	strbuf_addf(sb, " \xc2\xb7 min samples %u", g->min_samples);
	if (g->max_cv > 0) {
		strbuf_addstr(sb, " \xc2\xb7 max CV ");
		pv_fmt_threshold(sb, g->max_cv);
	}
	strbuf_addf(sb, " \xc2\xb7 missing %s", pv_policy_name(g->missing));
	if (s->config_path) {
		strbuf_addstr(sb, " \xc2\xb7 config ");
		md_text(sb, s->config_path, NAME_CHARS);
	}
	if (s->suite) {
		strbuf_addstr(sb, " \xc2\xb7 suite ");
		md_text(sb, s->suite, NAME_CHARS);
	}
	if (r->generated_at) {
		strbuf_addstr(sb, " \xc2\xb7 ");
		md_text(sb, r->generated_at, NAME_CHARS);
	}
	strbuf_addstr(sb, "</sub>\n\n<!-- perfverdict-report -->\n");
}

void md_omitted_note(struct strbuf *sb, size_t k, const char *one,
		     const char *many)
{
	if (k)
		strbuf_addf(sb, "_%zu more %s not shown._\n\n", k,
			    k == 1 ? one : many);
}

/*
 * Said once whenever a table was cut: how many metrics appear in no
 * table at all (hidden), and where all of them are.
 */
void md_final_note(struct strbuf *sb, size_t hidden, size_t limit,
		   size_t n, const char *json_name)
{
	strbuf_addf(sb, "> **Note:** to fit the %zu-character limit, ", limit);
	if (hidden)
		strbuf_addf(sb, "%zu of the %zu metrics %s in no table above",
			    hidden, n, hidden == 1 ? "is" : "are");
	else
		strbuf_addstr(sb, "some rows were left out");
	strbuf_addstr(sb, "; the JSON report");
	if (json_name && *json_name) {
		/* the file name only: `render` then writes the same text
		 * wherever the archived report sits */
		const char *slash = strrchr(json_name, '/');

		strbuf_addch(sb, ' ');
		md_text(sb, slash && slash[1] ? slash + 1 : json_name,
			JSON_NAME_CHARS);
	}
	strbuf_addf(sb, " has all %zu metrics.\n\n", n);
}

const char md_no_detail[] =
	"_No room left: the tables above hold the most severe rows._\n\n";

void md_details_open(struct strbuf *sb, size_t n, size_t shown)
{
	strbuf_addf(sb, "<details><summary>All %zu metrics", n);
	if (shown < n)
		strbuf_addf(sb, " (%zu shown)", shown);
	strbuf_addstr(sb, "</summary>\n\n");
}

/*
 * The clause ("; "-separated) that every reason of the other-changes
 * table has, when there are two rows or more: said once under the table.
 * Returns a new string or NULL.
 */
char *md_common_clause(struct md *d)
{
	const struct pv_report *r = d->r;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char *best = NULL;
	size_t rows = 0, first = 0;

	for (size_t k = 0; k < r->n; k++) {
		enum pv_verdict v = r->m[d->rank[k]].verdict;

		if (v == PV_V_REGRESSION || v == PV_V_UNCHANGED ||
		    v == PV_V_UNGATED)
			continue;
		if (!rows++)
			first = d->rank[k];
	}
	if (rows < 2)
		return NULL;
	{
		const char *p = strstr(pv_result_reason(r, &r->m[first], &a),
				       "; ");

		/* the first clause says the verdict: never common */
		while (p) {
			const char *c = p + 2, *e = strstr(c, "; ");
			size_t n = e ? (size_t)(e - c) : strlen(c);
			int all = 1;

			for (size_t k = 0; k < r->n && all; k++) {
				const struct pv_result *m = &r->m[d->rank[k]];
				const char *t, *hit;

				if (m->verdict == PV_V_REGRESSION ||
				    m->verdict == PV_V_UNCHANGED ||
				    m->verdict == PV_V_UNGATED)
					continue;
				t = pv_result_reason(r, m, &b);
				hit = strstr(t, c);
				/* as a whole clause */
				while (hit && !((hit - t >= 2 && hit[-2] == ';') &&
						(hit[n] == '\0' || hit[n] == ';')))
					hit = strstr(hit + 1, c);
				if (!hit || strncmp(hit, c, n))
					all = 0;
			}
			if (all && (!best || n > strlen(best))) {
				free(best);
				best = pv_malloc(n + 1);
				memcpy(best, c, n);
				best[n] = '\0';
			}
			p = e;
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return best;
}

/*
 * markdown.c - the report model as a GitHub-flavoured Markdown comment
 * (pull-request comments, $GITHUB_STEP_SUMMARY, GitLab notes).
 *
 * Sections, in this order, each separated by a blank line:
 *   1. headline: ✅/❌ and the counts of each verdict
 *   2. "Regressions": ranked by severity (largest change first)
 *   3. "Other changes": improvements, then the other non-unchanged
 *      verdicts in severity order, each with its reason
 *   4. <details> "All N metrics": one table per (suite, test, group), in
 *      the classic layout (baseline, stdev, candidate, stdev, % change,
 *      verdict)
 *   5. "Environment differs": context keys whose values differ
 *   6. a note on what was left out, the footer with the settings, and
 *      the hidden marker <!-- perfverdict-report -->
 *
 * Size: the whole text fits o->limit, counted in bytes (never fewer than
 * characters, or UTF-16 units), so it fits whatever the host counts.
 * The headline, environment table (capped), notes and footer are always
 * written; the remaining budget admits table rows in one priority order
 * (regressions, improvements, other verdicts, then the detail rows in
 * the same ranking) and stops at the first row that does not fit, so
 * what is cut is always the long tail of the least severe rows.  Each
 * cut says how many rows it left out and that the JSON has them all.
 *
 * Escaping: every foreign string is cleaned (pv_text_clean), capped in
 * length, and has the Markdown specials \ ` * _ [ ] < > # ~ | & $
 * backslash-escaped; '@' and '#' before a letter or digit get a zero
 * width space so names never mention users or link issues.  Cells never
 * hold a newline, and every row has as many cells as its header.
 */
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

#define MD_DEFAULT_LIMIT 65000
#define NAME_CHARS 80           /* per name component */
#define REASON_CHARS 240
#define CTX_CHARS 100
#define CTX_ROWS 20
#define JSON_NAME_CHARS 200

#define ZWSP "\xe2\x80\x8b"
#define ELLIPSIS "\xe2\x80\xa6"
#define DASH "\xe2\x80\x94"

static const char *str(const char *s)
{
	return s ? s : "";
}

static int is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* U+202A..U+202E and U+2066..U+2069: bidirectional overrides that can
 * make a name read as something else. */
static int is_bidi(const unsigned char *s)
{
	return s[0] == 0xe2 &&
	       ((s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae) ||
		(s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9));
}

/*
 * Append foreign text as inline Markdown that renders as itself: at most
 * maxchars characters (then "…"), specials escaped, no newline.
 */
static void md_text(struct strbuf *out, const char *s, size_t maxchars)
{
	struct strbuf t = STRBUF_INIT;
	size_t chars = 0, i = 0, n;

	s = str(s);
	pv_text_clean(&t, s, strlen(s));
	while (i < t.len) {
		const unsigned char *p = (const unsigned char *)t.buf + i;

		/* pv_text_clean left valid UTF-8 */
		n = p[0] < 0x80 ? 1 : p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
		if (n == 3 && is_bidi(p)) {
			i += n;
			continue;
		}
		if (chars++ == maxchars) {
			strbuf_addstr(out, ELLIPSIS);
			break;
		}
		if (p[0] == '\t') {
			strbuf_addch(out, ' ');
		} else if (n == 1 && strchr("\\`*_[]<>#~|&$", p[0])) {
			strbuf_addch(out, '\\');
			strbuf_addch(out, p[0]);
		} else {
			strbuf_add(out, p, n);
		}
		if ((p[0] == '@' || p[0] == '#') && i + 1 < t.len &&
		    is_alnum(p[1]))
			strbuf_addstr(out, ZWSP);
		i += n;
	}
	strbuf_release(&t);
}

/* ---- the layout of the report -------------------------------------- */

struct md {
	const struct pv_report *r;
	int multi_suite, multi_test;    /* show suite / test in labels */
	size_t *rank;
	size_t cnt[PV_V_COUNT];
	struct strbuf tmp;
};

static int same(const char *a, const char *b)
{
	return !strcmp(str(a), str(b));
}

static void join(struct strbuf *sb, int *first, const char *s)
{
	if (!s || !*s)
		return;
	if (!*first)
		strbuf_addstr(sb, " / ");
	*first = 0;
	md_text(sb, s, NAME_CHARS);
}

/* The benchmark as the ranked tables name it. */
static void label(struct md *d, struct strbuf *sb, const struct pv_result *m)
{
	int first = 1;

	if (d->multi_suite)
		join(sb, &first, m->suite);
	if (d->multi_test)
		join(sb, &first, m->test);
	join(sb, &first, m->group);
	join(sb, &first, m->benchmark);
	if (first)
		strbuf_addstr(sb, DASH);
}

static void metric_cell(struct strbuf *sb, const struct pv_result *m)
{
	md_text(sb, m->metric, NAME_CHARS);
	if (m->unit && *m->unit) {
		strbuf_addstr(sb, " (");
		md_text(sb, m->unit, NAME_CHARS);
		strbuf_addch(sb, ')');
	}
}

static const char *verdict_cell(enum pv_verdict v)
{
	switch (v) {
	case PV_V_REGRESSION:
		return "\xf0\x9f\x94\xb4 regression";       /* red circle */
	case PV_V_IMPROVEMENT:
		return "\xf0\x9f\x9f\xa2 improvement";      /* green circle */
	default:
		return pv_verdict_name(v);
	}
}

/* Table rows are built cell by cell so their count matches the header. */
static void cell_begin(struct strbuf *sb)
{
	strbuf_addstr(sb, "| ");
}

static void cell_next(struct strbuf *sb)
{
	strbuf_addstr(sb, " | ");
}

static void cell_end(struct strbuf *sb)
{
	strbuf_addstr(sb, " |\n");
}

static const char regress_head[] =
	"### Regressions\n\n"
	"| Benchmark | Metric | Baseline | Candidate | Change [CI] "
	"| p / q | Threshold |\n"
	"|---|---|---:|---:|---:|---:|---:|\n";

/* The cells both summary tables share: benchmark, metric, both sides'
 * mean +- sd (n) and the change with its interval. */
static void compared_cells(struct strbuf *sb, struct md *d,
			   const struct pv_result *m)
{
	label(d, sb, m);
	cell_next(sb);
	metric_cell(sb, m);
	cell_next(sb);
	pv_fmt_mean_sd(sb, &m->side[0].s);
	cell_next(sb);
	pv_fmt_mean_sd(sb, &m->side[1].s);
	cell_next(sb);
	pv_fmt_change(sb, m);
	cell_next(sb);
}

static void regress_row(struct strbuf *sb, struct md *d,
			const struct pv_result *m)
{
	cell_begin(sb);
	compared_cells(sb, d, m);
	if (m->tested) {
		pv_fmt_p(sb, m->p);
		strbuf_addstr(sb, " / ");
		pv_fmt_p(sb, m->q);
	} else {
		strbuf_addstr(sb, DASH);
	}
	cell_next(sb);
	pv_fmt_threshold(sb, m->threshold);
	if (isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, " and ");
		pv_fmt_num(sb, m->abs_threshold);
	}
	cell_end(sb);
}

static const char other_head[] =
	"### Other changes\n\n"
	"| Verdict | Benchmark | Metric | Baseline | Candidate | Change [CI] "
	"| Reason |\n"
	"|---|---|---|---:|---:|---:|---|\n";

static void other_row(struct strbuf *sb, struct md *d,
		      const struct pv_result *m)
{
	cell_begin(sb);
	strbuf_addstr(sb, verdict_cell(m->verdict));
	cell_next(sb);
	compared_cells(sb, d, m);
	{
		struct strbuf why = STRBUF_INIT;
		const char *reason = pv_result_reason(d->r, m, &why);

		if (*reason)
			md_text(sb, reason, REASON_CHARS);
		else
			strbuf_addstr(sb, DASH);
		strbuf_release(&why);
	}
	cell_end(sb);
}

static const char detail_head[] =
	"| Benchmark | Metric | Baseline | Stdev | Candidate | Stdev "
	"| Change | Verdict |\n"
	"|---|---|---:|---:|---:|---:|---:|---|\n";

static void detail_row(struct strbuf *sb, const struct pv_result *m)
{
	struct pv_result nci = *m;
	int b = pv_fmt_better(m);

	cell_begin(sb);
	if (m->benchmark && *m->benchmark)
		md_text(sb, m->benchmark, NAME_CHARS);
	else
		strbuf_addstr(sb, DASH);
	cell_next(sb);
	metric_cell(sb, m);
	for (int k = 0; k < 2; k++) {
		cell_next(sb);
		pv_fmt_num(sb, m->side[k].s.mean);
		cell_next(sb);
		pv_fmt_num(sb, m->side[k].s.sd);
	}
	cell_next(sb);
	nci.ci_low = nci.ci_high = NAN;
	pv_fmt_change(sb, &nci);
	if (b)
		strbuf_addstr(sb, b > 0 ? " (better)" : " (worse)");
	cell_next(sb);
	strbuf_addstr(sb, verdict_cell(m->verdict));
	cell_end(sb);
}

/* "#### suite / test / group" and the table header of one group. */
static void group_head(struct strbuf *sb, struct md *d,
		       const struct pv_result *m)
{
	int first = 1;

	strbuf_addstr(sb, "#### ");
	if (d->multi_suite)
		join(sb, &first, m->suite);
	if (d->multi_test)
		join(sb, &first, m->test);
	join(sb, &first, m->group);
	if (first)
		join(sb, &first, m->suite);
	if (first)
		strbuf_addstr(sb, "Metrics");
	strbuf_addstr(sb, "\n\n");
	strbuf_addstr(sb, detail_head);
}

/* ---- groups for the detail tables ---------------------------------- */

/* A metric's group key beside its index: the comparator needs no
 * context. */
struct group_key {
	const char *suite, *test, *group;
	size_t i;
};

static int cmp_group_key(const void *pa, const void *pb)
{
	const struct group_key *x = pa, *y = pb;
	int c = strcmp(x->suite, y->suite);

	if (!c)
		c = strcmp(x->test, y->test);
	if (!c)
		c = strcmp(x->group, y->group);
	if (!c)
		c = x->i < y->i ? -1 : x->i > y->i;
	return c;
}

/*
 * gid[i]: the group of metric i, numbered in order of first sight, so
 * walking the groups in number order and the metrics in model order
 * gives every group's rows together.  Returns the number of groups.
 */
static size_t group_ids(const struct pv_report *r, size_t *gid)
{
	size_t *o, *first, ng = 0, *renum;
	struct group_key *k;

	if (!r->n)
		return 0;
	o = pv_reallocarray(NULL, r->n, sizeof(*o));
	k = pv_reallocarray(NULL, r->n, sizeof(*k));
	for (size_t i = 0; i < r->n; i++) {
		k[i].suite = str(r->m[i].suite);
		k[i].test = str(r->m[i].test);
		k[i].group = str(r->m[i].group);
		k[i].i = i;
	}
	qsort(k, r->n, sizeof(*k), cmp_group_key);
	for (size_t i = 0; i < r->n; i++)
		o[i] = k[i].i;
	free(k);
	first = pv_reallocarray(NULL, r->n, sizeof(*first));
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[o[i]];

		if (i) {
			const struct pv_result *p = &r->m[o[i - 1]];

			if (same(m->suite, p->suite) &&
			    same(m->test, p->test) &&
			    same(m->group, p->group)) {
				gid[o[i]] = ng - 1;
				continue;
			}
		}
		first[ng] = o[i];   /* the smallest index: sorted by index */
		gid[o[i]] = ng++;
	}
	/* renumber by first sight */
	renum = pv_calloc(ng, sizeof(*renum));
	for (size_t i = 0, next = 0; i < r->n; i++) {
		size_t g = gid[i];

		if (first[g] == i)
			renum[g] = next++;
	}
	for (size_t i = 0; i < r->n; i++)
		gid[i] = renum[gid[i]];
	free(renum);
	free(first);
	free(o);
	return ng;
}

/* ---- the fixed parts ------------------------------------------------ */

static void count_word(struct strbuf *sb, int *first, size_t n,
		       const char *one, const char *many)
{
	strbuf_addstr(sb, *first ? "" : ", ");
	*first = 0;
	strbuf_addf(sb, "%zu %s", n, n == 1 ? one : many);
}

static void headline(struct strbuf *sb, struct md *d)
{
	const size_t *c = d->cnt;
	int first = 1;

	strbuf_addstr(sb, d->r->fail ?
		      "## \xe2\x9d\x8c Performance gate failed: " :
		      "## \xe2\x9c\x85 Performance gate passed: ");
	count_word(sb, &first, c[PV_V_REGRESSION], "regression", "regressions");
	count_word(sb, &first, c[PV_V_IMPROVEMENT], "improvement",
		   "improvements");
	count_word(sb, &first, c[PV_V_INCONCLUSIVE], "inconclusive",
		   "inconclusive");
	count_word(sb, &first, c[PV_V_NOISY], "noisy", "noisy");
	count_word(sb, &first, c[PV_V_MISSING], "missing", "missing");
	count_word(sb, &first, c[PV_V_NEW], "new", "new");
	count_word(sb, &first, c[PV_V_UNCHANGED], "unchanged", "unchanged");
	if (c[PV_V_INSUFFICIENT])
		count_word(sb, &first, c[PV_V_INSUFFICIENT], "insufficient",
			   "insufficient");
	if (c[PV_V_WAIVED])
		count_word(sb, &first, c[PV_V_WAIVED], "waived", "waived");
	strbuf_addstr(sb, "\n\n");
}

/* The first entry of key on a side: its value, and its index in *at. */
static const char *ctx_value(const struct pv_sidemeta *s, const char *key,
			     size_t *at)
{
	for (size_t i = 0; i < s->ncontext; i++) {
		if (same(s->context[i].key, key)) {
			if (at)
				*at = i;
			return str(s->context[i].value);
		}
	}
	return NULL;
}

static void ctx_row(struct strbuf *sb, const char *key, const char *b,
		    const char *c)
{
	cell_begin(sb);
	md_text(sb, key, NAME_CHARS);
	cell_next(sb);
	if (b)
		md_text(sb, b, CTX_CHARS);
	else
		strbuf_addstr(sb, DASH);
	cell_next(sb);
	if (c)
		md_text(sb, c, CTX_CHARS);
	else
		strbuf_addstr(sb, DASH);
	cell_end(sb);
}

/* The context keys whose values differ (or that one side lacks); at most
 * rows of them, then a count of the rest. */
static void environment(struct strbuf *sb, const struct pv_report *r,
			size_t rows)
{
	const struct pv_sidemeta *b = &r->side[0], *c = &r->side[1];
	size_t shown = 0, more = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct pv_sidemeta *s = pass ? c : b;

		for (size_t i = 0; i < s->ncontext; i++) {
			const char *key = str(s->context[i].key);
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
			if (shown == rows) {
				more++;
				continue;
			}
			if (!shown)
				strbuf_addstr(sb, "### Environment differs\n\n"
					      "| Key | Baseline | Candidate |\n"
					      "|---|---|---|\n");
			ctx_row(sb, key, bv, cv);
			shown++;
		}
	}
	if (shown)
		strbuf_addch(sb, '\n');
	if (more)
		strbuf_addf(sb, "_%zu more differing %s not shown._\n\n", more,
			    more == 1 ? "key" : "keys");
}

static void footer(struct strbuf *sb, const struct pv_report *r)
{
	const struct pv_settings *s = &r->settings;
	const struct pv_gate *g = &s->gate;

	strbuf_addf(sb, "---\n\n<sub>perfverdict %s", str(r->tool_version));
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

static void omitted_note(struct strbuf *sb, size_t k, const char *what)
{
	if (k)
		strbuf_addf(sb, "_%zu more %s not shown._\n\n", k, what);
}

/*
 * Said once whenever a table was cut: how many metrics appear in no
 * table at all (hidden), and where all of them are.
 */
static void final_note(struct strbuf *sb, size_t hidden, size_t limit,
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

static const char no_detail[] =
	"_No room left: the tables above hold the most severe rows._\n\n";

static void details_open(struct strbuf *sb, size_t n, size_t shown)
{
	strbuf_addf(sb, "<details><summary>All %zu metrics", n);
	if (shown < n)
		strbuf_addf(sb, " (%zu shown)", shown);
	strbuf_addstr(sb, "</summary>\n\n");
}

/* ---- putting it together ------------------------------------------- */

static void append_release(struct strbuf *out, struct strbuf *part)
{
	strbuf_add(out, part->buf, part->len);
	strbuf_release(part);
}

enum section { SEC_REGRESS, SEC_OTHER, SEC_DETAIL, SEC_COUNT };

struct admitted {
	char **row;                 /* per section, the rows in order */
	size_t n;
};

static void render(struct strbuf *out, struct md *d, size_t limit,
		   const char *json_name)
{
	const struct pv_report *r = d->r;
	struct strbuf head = STRBUF_INIT, env = STRBUF_INIT, foot = STRBUF_INIT;
	struct strbuf notes = STRBUF_INIT, row = STRBUF_INIT;
	size_t *gid = pv_calloc(r->n ? r->n : 1, sizeof(*gid));
	size_t ng = group_ids(r, gid);
	char *gopen = pv_calloc(ng ? ng : 1, 1);
	char **drow = pv_calloc(r->n ? r->n : 1, sizeof(*drow));
	size_t total[SEC_COUNT] = { 0 }, shown[SEC_COUNT] = { 0 };
	struct admitted sec[2] = { { NULL, 0 }, { NULL, 0 } };
	char *in_table = pv_calloc(r->n ? r->n : 1, 1);
	size_t fixed, budget, used = 0;
	int stop = 0, cut;

	headline(&head, d);
	environment(&env, r, CTX_ROWS);
	footer(&foot, r);
	total[SEC_REGRESS] = d->cnt[PV_V_REGRESSION];
	total[SEC_OTHER] = r->n - d->cnt[PV_V_REGRESSION] -
			   d->cnt[PV_V_UNCHANGED];
	total[SEC_DETAIL] = r->n;

	/* the notes at their longest: every count is at most r->n */
	omitted_note(&notes, r->n, "regressions");
	omitted_note(&notes, r->n, "other changes");
	omitted_note(&notes, r->n, "metrics");
	final_note(&notes, r->n, limit, r->n, json_name);
	details_open(&notes, r->n, r->n ? r->n - 1 : 0);
	strbuf_addstr(&notes, no_detail);
	strbuf_addstr(&notes, "</details>\n\n");
	fixed = head.len + env.len + foot.len + notes.len;
	if (fixed > limit && env.len) {
		/* the environment table is the only fixed part that can
		 * shrink: say only that it differs */
		fixed -= env.len;
		strbuf_reset(&env);
		environment(&env, r, 0);
		fixed += env.len;
	}
	budget = fixed < limit ? limit - fixed : 0;
	sec[0].row = pv_calloc(total[SEC_REGRESS] + 1, sizeof(char *));
	sec[1].row = pv_calloc(total[SEC_OTHER] + 1, sizeof(char *));

	/* admit rows in priority order until one does not fit */
	for (int pass = 0; pass < 4 && !stop; pass++) {
		for (size_t k = 0; k < r->n && !stop; k++) {
			size_t i = d->rank[k], cost;
			const struct pv_result *m = &r->m[i];
			enum pv_verdict v = m->verdict;
			int s;

			strbuf_reset(&row);
			if (pass == 0 && v == PV_V_REGRESSION) {
				s = SEC_REGRESS;
				regress_row(&row, d, m);
				cost = row.len + (shown[s] ? 0 :
					sizeof(regress_head) - 1 + 1);
			} else if ((pass == 1 && v == PV_V_IMPROVEMENT) ||
				   (pass == 2 && v != PV_V_IMPROVEMENT &&
				    v != PV_V_REGRESSION &&
				    v != PV_V_UNCHANGED)) {
				s = SEC_OTHER;
				other_row(&row, d, m);
				cost = row.len + (shown[s] ? 0 :
					sizeof(other_head) - 1 + 1);
			} else if (pass == 3) {
				s = SEC_DETAIL;
				detail_row(&row, m);
				cost = row.len;
				if (!gopen[gid[i]]) {
					struct strbuf gh = STRBUF_INIT;

					group_head(&gh, d, m);
					cost += gh.len + 1;
					strbuf_release(&gh);
				}
			} else {
				continue;
			}
			if (used + cost > budget) {
				stop = 1;
				break;
			}
			used += cost;
			in_table[i] = 1;
			if (s == SEC_DETAIL) {
				gopen[gid[i]] = 1;
				drow[i] = strbuf_detach(&row, NULL);
			} else {
				sec[s].row[sec[s].n++] =
					strbuf_detach(&row, NULL);
			}
			shown[s]++;
		}
	}

	/* write it out in section order */
	append_release(out, &head);
	if (total[SEC_REGRESS]) {
		if (shown[SEC_REGRESS]) {
			strbuf_addstr(out, regress_head);
			for (size_t k = 0; k < sec[0].n; k++)
				strbuf_addstr(out, sec[0].row[k]);
			strbuf_addch(out, '\n');
		}
		omitted_note(out, total[SEC_REGRESS] - shown[SEC_REGRESS],
			     total[SEC_REGRESS] - shown[SEC_REGRESS] == 1 ?
			     "regression" : "regressions");
	}
	if (total[SEC_OTHER]) {
		if (shown[SEC_OTHER]) {
			strbuf_addstr(out, other_head);
			for (size_t k = 0; k < sec[1].n; k++)
				strbuf_addstr(out, sec[1].row[k]);
			strbuf_addch(out, '\n');
		}
		omitted_note(out, total[SEC_OTHER] - shown[SEC_OTHER],
			     total[SEC_OTHER] - shown[SEC_OTHER] == 1 ?
			     "other change" : "other changes");
	}
	if (r->n) {
		details_open(out, r->n, shown[SEC_DETAIL]);
		for (size_t g = 0; g < ng; g++) {
			int opened = 0;

			if (!gopen[g])
				continue;
			for (size_t i = 0; i < r->n; i++) {
				if (gid[i] != g || !drow[i])
					continue;
				if (!opened)
					group_head(out, d, &r->m[i]);
				opened = 1;
				strbuf_addstr(out, drow[i]);
			}
			strbuf_addch(out, '\n');
		}
		if (!shown[SEC_DETAIL])
			strbuf_addstr(out, no_detail);
		else
			omitted_note(out, r->n - shown[SEC_DETAIL],
				     r->n - shown[SEC_DETAIL] == 1 ?
				     "metric" : "metrics");
		strbuf_addstr(out, "</details>\n\n");
	}
	append_release(out, &env);
	cut = 0;
	for (int s = 0; s < SEC_COUNT; s++)
		cut |= total[s] != shown[s];
	if (cut) {
		size_t hidden = 0;

		for (size_t i = 0; i < r->n; i++)
			hidden += !in_table[i];
		final_note(out, hidden, limit, r->n, json_name);
	}
	append_release(out, &foot);

	for (int s = 0; s < 2; s++) {
		for (size_t k = 0; k < sec[s].n; k++)
			free(sec[s].row[k]);
		free(sec[s].row);
	}
	for (size_t i = 0; i < r->n; i++)
		free(drow[i]);
	free(drow);
	free(in_table);
	free(gopen);
	free(gid);
	strbuf_release(&notes);
	strbuf_release(&row);
}

int pv_write_markdown(const struct pv_report *r, const struct pv_md_opts *o,
		      FILE *fp, struct pv_err *err)
{
	struct md d;
	struct strbuf out = STRBUF_INIT;
	size_t limit = o && o->limit ? o->limit :
		       r->settings.markdown_limit ? r->settings.markdown_limit :
		       MD_DEFAULT_LIMIT;
	int rc = 0;

	memset(&d, 0, sizeof(d));
	d.r = r;
	for (size_t i = 0; i < r->n; i++) {
		if ((unsigned)r->m[i].verdict < PV_V_COUNT)
			d.cnt[r->m[i].verdict]++;
		if (!same(r->m[i].suite, r->m[0].suite))
			d.multi_suite = 1;
		if (!same(r->m[i].suite, r->m[0].suite) ||
		    !same(r->m[i].test, r->m[0].test))
			d.multi_test = 1;
	}
	d.rank = pv_report_ranked(r);
	render(&out, &d, limit, o ? o->json_name : NULL);
	free(d.rank);

	errno = 0;
	if (fwrite(out.buf, 1, out.len, fp) != out.len || fflush(fp) ||
	    ferror(fp))
		rc = pv_error(err, PV_EUSAGE,
			      "cannot write Markdown report: %s",
			      strerror(errno ? errno : EIO));
	strbuf_release(&out);
	return rc;
}

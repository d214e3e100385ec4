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

#define ELLIPSIS "\xe2\x80\xa6"
#define DASH "\xe2\x80\x94"
#define NBSP "\xc2\xa0"

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

/* A '#' or '@' before a letter or digit: GitHub would link an issue or
 * mention a user. */
static int links(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if ((s[i] == '#' || s[i] == '@') &&
		    is_alnum((unsigned char)s[i + 1]))
			return 1;
	return 0;
}

/*
 * Append foreign text as inline Markdown that renders as itself: at most
 * maxchars characters (then "…"), no newline, bidirectional overrides
 * dropped.  Text that GitHub would turn into a mention or an issue link
 * ("@team", "#12") becomes a code span, where GitHub links nothing, so a
 * name copied from the comment is the name (no zero-width characters);
 * other text has the Markdown specials backslash-escaped.  In a table
 * (in_table) a '|' is escaped even inside the code span, as GFM asks.
 */
static void md_text_in(struct strbuf *out, const char *s, size_t maxchars,
		       int in_table)
{
	struct strbuf t = STRBUF_INIT, v = STRBUF_INIT;
	size_t chars = 0, i = 0, n, run = 0, maxrun = 0;
	int code;

	s = str(s);
	pv_text_clean(&t, s, strlen(s));
	/* the visible characters: cut, tabs and newlines as spaces */
	while (i < t.len) {
		const unsigned char *p = (const unsigned char *)t.buf + i;

		/* pv_text_clean left valid UTF-8 */
		n = p[0] < 0x80 ? 1 : p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
		if (n == 3 && is_bidi(p)) {
			i += n;
			continue;
		}
		if (chars++ == maxchars) {
			strbuf_addstr(&v, ELLIPSIS);
			break;
		}
		if (p[0] == '\t' || p[0] == '\n' || p[0] == '\r')
			strbuf_addch(&v, ' ');
		else
			strbuf_add(&v, p, n);
		i += n;
	}
	code = links(v.buf, v.len);
	if (code) {
		for (i = 0; i < v.len; i++) {
			run = v.buf[i] == '`' ? run + 1 : 0;
			if (run > maxrun)
				maxrun = run;
		}
		for (i = 0; i <= maxrun; i++)
			strbuf_addch(out, '`');
		/* a space keeps a leading or trailing backtick apart */
		if (v.len && (v.buf[0] == '`' || v.buf[v.len - 1] == '`' ||
			      v.buf[0] == ' '))
			strbuf_addch(out, ' ');
	}
	for (i = 0; i < v.len; i++) {
		char c = v.buf[i];

		if (code) {
			if (c == '|' && in_table)
				strbuf_addch(out, '\\');
		} else if (strchr("\\`*_[]<>#~|&$@", c)) {
			strbuf_addch(out, '\\');
		}
		strbuf_addch(out, c);
	}
	if (code) {
		if (v.len && (v.buf[0] == '`' || v.buf[v.len - 1] == '`' ||
			      v.buf[0] == ' '))
			strbuf_addch(out, ' ');
		for (i = 0; i <= maxrun; i++)
			strbuf_addch(out, '`');
	}
	strbuf_release(&v);
	strbuf_release(&t);
}

/* Foreign text in a table cell. */
static void md_text(struct strbuf *out, const char *s, size_t maxchars)
{
	md_text_in(out, s, maxchars, 1);
}

/* The text appended to sb since from, kept on one line: its spaces
 * become no-break spaces, so a number never parts from its unit. */
static void nowrap(struct strbuf *sb, size_t from)
{
	struct strbuf t = STRBUF_INIT;

	for (size_t i = from; i < sb->len; i++) {
		if (sb->buf[i] == ' ')
			strbuf_addstr(&t, NBSP);
		else
			strbuf_addch(&t, sb->buf[i]);
	}
	strbuf_setlen(sb, from);
	strbuf_add(sb, t.buf, t.len);
	strbuf_release(&t);
}

/* A unit inside a table cell (pv_fmt_move's escaping). */
static void md_unit(struct strbuf *out, const char *s)
{
	md_text(out, s, NAME_CHARS);
}

/* ---- the layout of the report -------------------------------------- */

struct md {
	const struct pv_report *r;
	int multi_suite, multi_test;    /* show suite / test in labels */
	int thr_column;                 /* a regression's threshold differs */
	size_t *rank;
	size_t cnt[PV_V_COUNT];
	size_t ungated_moved;
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
		strbuf_addstr(sb, NBSP);
	*first = 0;
	md_text(sb, s, NAME_CHARS);
}

#define LABEL_NOWRAP 34           /* a label up to this long stays on one line */

/* The benchmark as the ranked tables name it: its parts joined by
 * no-break spaces when it is short, so a row stays one line high; a
 * long one may wrap between its parts. */
static void label(struct md *d, struct strbuf *sb, const struct pv_result *m)
{
	size_t from = sb->len, chars = 0;
	int first = 1;

	if (d->multi_suite)
		join(sb, &first, m->suite);
	if (d->multi_test)
		join(sb, &first, m->test);
	join(sb, &first, m->group);
	join(sb, &first, m->benchmark);
	if (first)
		strbuf_addstr(sb, DASH);
	for (size_t i = from; i < sb->len; i++)
		chars += ((unsigned char)sb->buf[i] & 0xc0) != 0x80;
	if (chars > LABEL_NOWRAP) {
		struct strbuf t = STRBUF_INIT;

		for (size_t i = from; i < sb->len; i++) {
			if (!strncmp(sb->buf + i, NBSP, 2)) {
				strbuf_addch(&t, ' ');
				i++;
			} else {
				strbuf_addch(&t, sb->buf[i]);
			}
		}
		strbuf_setlen(sb, from);
		strbuf_add(sb, t.buf, t.len);
		strbuf_release(&t);
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

/* An ungated metric that moved beyond its threshold with q < alpha. */
static int ungated_moved(const struct pv_result *m)
{
	return m->verdict == PV_V_UNGATED && m->tested && m->q < m->alpha &&
	       isfinite(m->change_rel) && fabs(m->change_rel) > m->threshold;
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

static void move_cell(struct strbuf *sb, const struct pv_result *m)
{
	size_t from = sb->len;

	pv_fmt_move(sb, m, md_unit);
	nowrap(sb, from);
}

static void interval_cell(struct strbuf *sb, const struct pv_result *m)
{
	size_t from = sb->len;

	pv_fmt_interval(sb, m);
	nowrap(sb, from);
}

static void q_cell(struct strbuf *sb, const struct pv_result *m)
{
	if (m->tested && isfinite(m->q))
		pv_fmt_p(sb, m->q);
	else
		strbuf_addstr(sb, DASH);
}

/* Regressions: benchmark, metric, the move, the interval, q (and the
 * threshold, only where one differs from the gate's). */
static void regress_head(struct strbuf *sb, const struct md *d, size_t n)
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

static void threshold_text(struct strbuf *sb, const struct pv_result *m)
{
	pv_fmt_threshold(sb, m->threshold);
	if (isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, " and ");
		pv_fmt_human(sb, m->abs_threshold, NULL);
	}
}

static void regress_row(struct strbuf *sb, struct md *d,
			const struct pv_result *m)
{
	cell_begin(sb);
	label(d, sb, m);
	cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	cell_next(sb);
	move_cell(sb, m);
	cell_next(sb);
	interval_cell(sb, m);
	cell_next(sb);
	q_cell(sb, m);
	if (d->thr_column) {
		cell_next(sb);
		threshold_text(sb, m);
	}
	cell_end(sb);
}

/* The numbers behind each regression, collapsed: sd, n, the test. */
static void numbers_head(struct strbuf *sb)
{
	strbuf_addstr(sb, "<details><summary>Regressions in detail: sd, n "
		      "and test</summary>\n\n"
		      "| Benchmark | Metric | Baseline | Candidate | Test | p |\n"
		      "|---|---|---:|---:|---|---:|\n");
}

static void side_cell(struct strbuf *sb, const struct pv_result *m, int k)
{
	const struct pv_moments *s = &m->side[k].s;
	struct pv_scale sc;

	pv_scale_pick(&sc, m->unit, m->side[0].s.n ? m->side[0].s.mean :
		      m->side[1].s.mean);
	pv_fmt_scaled(sb, s->mean, &sc);
	if (s->n > 0 && !isnan(s->sd)) {
		strbuf_addstr(sb, " \xc2\xb1 ");
		pv_fmt_scaled(sb, s->sd, &sc);
	}
	pv_fmt_scale_unit(sb, &sc, m->unit, md_unit);
	strbuf_addf(sb, ", n=%zu", (size_t)s->n);
}

static void numbers_row(struct strbuf *sb, struct md *d,
			const struct pv_result *m)
{
	cell_begin(sb);
	label(d, sb, m);
	cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	cell_next(sb);
	side_cell(sb, m, 0);
	cell_next(sb);
	side_cell(sb, m, 1);
	cell_next(sb);
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
	cell_next(sb);
	if (m->tested)
		pv_fmt_p(sb, m->p);
	else
		strbuf_addstr(sb, DASH);
	cell_end(sb);
}

static const char other_head[] =
	"### Other changes\n\n"
	"| Verdict | Benchmark | Metric | Baseline \xe2\x86\x92 candidate | q |\n"
	"|---|---|---|---:|---:|\n";

static const char why_head[] = "<details><summary>Why: each verdict's reason</summary>\n\n";

/*
 * The reason without the clauses every row of the table shares (said
 * once under it), cut at a clause when it is long, never mid-word.
 */
static void reason_cell(struct strbuf *sb, const char *reason,
			const char *common)
{
	struct strbuf t = STRBUF_INIT;
	const char *p = reason;
	size_t clauses = 0;

	while (*p) {
		const char *e = strstr(p, "; ");
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (!(common && *common && strlen(common) == n &&
		      !strncmp(common, p, n))) {
			if (t.len && t.len + n + 2 > REASON_CHARS) {
				strbuf_addstr(&t, "; " ELLIPSIS);
				break;
			}
			if (t.len)
				strbuf_addstr(&t, "; ");
			strbuf_add(&t, p, n);
			clauses++;
		}
		p += n + (e ? 2 : 0);
	}
	if (t.len)
		md_text(sb, t.buf, REASON_CHARS + 2);
	else
		strbuf_addstr(sb, DASH);
	strbuf_release(&t);
}

/* The row of the other-changes table, and into why its list item. */
static void other_row(struct strbuf *sb, struct strbuf *why, struct md *d,
		      const struct pv_result *m, const char *common)
{
	struct strbuf t = STRBUF_INIT;
	const char *word = pv_fmt_better_word(m);

	cell_begin(sb);
	strbuf_addstr(sb, verdict_cell(m->verdict));
	/* which way an undecided metric moved */
	if (word && m->verdict != PV_V_IMPROVEMENT &&
	    m->verdict != PV_V_REGRESSION)
		strbuf_addf(sb, ", %s", word);
	cell_next(sb);
	label(d, sb, m);
	cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	cell_next(sb);
	move_cell(sb, m);
	cell_next(sb);
	q_cell(sb, m);
	cell_end(sb);

	strbuf_addstr(why, "- ");
	label(d, why, m);
	strbuf_addch(why, ' ');
	md_text(why, m->metric, NAME_CHARS);
	strbuf_addstr(why, ": ");
	reason_cell(why, pv_result_reason(d->r, m, &t), common);
	strbuf_addch(why, '\n');
	strbuf_release(&t);
}

static void ungated_head(struct strbuf *sb, const struct md *d)
{
	strbuf_addf(sb, "<details><summary>%zu ungated %s moved beyond the "
		    "threshold with p &lt; alpha (reported, never gated, "
		    "so not family-corrected)</summary>\n\n"
		    "| Benchmark | Metric | Baseline \xe2\x86\x92 candidate "
		    "| p |\n|---|---|---:|---:|\n",
		    d->ungated_moved,
		    d->ungated_moved == 1 ? "metric" : "metrics");
}

static void ungated_row(struct strbuf *sb, struct md *d,
			const struct pv_result *m)
{
	cell_begin(sb);
	label(d, sb, m);
	cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	cell_next(sb);
	move_cell(sb, m);
	cell_next(sb);
	q_cell(sb, m);
	cell_end(sb);
}

static const char detail_head[] =
	"| Benchmark | Metric | Baseline \xe2\x86\x92 candidate | Verdict |\n"
	"|---|---|---:|---|\n";

static void detail_row(struct strbuf *sb, const struct pv_result *m)
{
	const char *word = pv_fmt_better_word(m);

	cell_begin(sb);
	if (m->benchmark && *m->benchmark)
		md_text(sb, m->benchmark, NAME_CHARS);
	else
		strbuf_addstr(sb, DASH);
	cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
	cell_next(sb);
	move_cell(sb, m);
	cell_next(sb);
	strbuf_addstr(sb, verdict_cell(m->verdict));
	if (word && m->verdict != PV_V_IMPROVEMENT &&
	    m->verdict != PV_V_REGRESSION && m->verdict != PV_V_UNCHANGED)
		strbuf_addf(sb, ", %s", word);
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

		label(d, &l, m);
		strbuf_add(sb, l.buf, l.len);
		strbuf_release(&l);
	}
}

/* The outcome, the largest regression in words, the counts not zero. */
static void headline(struct strbuf *sb, struct md *d)
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
static void provenance(struct strbuf *sb, const struct pv_report *r)
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
		strbuf_addf(sb, "(%zu run%s)", s->runs, s->runs == 1 ? "" : "s");
	}
	strbuf_addstr(sb, ".\n\n");
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
		if (is_alnum((unsigned char)*p)) {
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
static void legend(struct strbuf *sb, const struct pv_report *r)
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

static void omitted_note(struct strbuf *sb, size_t k, const char *one,
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

/*
 * The clause ("; "-separated) that every reason of the other-changes
 * table has, when there are two rows or more: said once under the table.
 * Returns a new string or NULL.
 */
static char *common_clause(struct md *d)
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

/* ---- putting it together ------------------------------------------- */

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
		return ungated_moved(m) ? SEC_UNGATED : -1;
	case 5:
		return SEC_DETAIL;
	default:
		return -1;
	}
}

static void render(struct strbuf *out, struct md *d, size_t limit,
		   const char *json_name)
{
	const struct pv_report *r = d->r;
	struct strbuf head = STRBUF_INIT, env = STRBUF_INIT, foot = STRBUF_INIT;
	struct strbuf notes = STRBUF_INIT, row = STRBUF_INIT, sh = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	char **whys;
	size_t *gid = pv_calloc(r->n ? r->n : 1, sizeof(*gid));
	size_t ng = group_ids(r, gid);
	char *gopen = pv_calloc(ng ? ng : 1, 1);
	char **drow = pv_calloc(r->n ? r->n : 1, sizeof(*drow));
	size_t total[SEC_COUNT] = { 0 }, shown[SEC_COUNT] = { 0 };
	struct admitted sec[SEC_COUNT];
	char *in_table = pv_calloc(r->n ? r->n : 1, 1);
	char *common = common_clause(d);
	size_t fixed, budget, used = 0;
	int stop = 0, cut;

	memset(sec, 0, sizeof(sec));
	headline(&head, d);
	provenance(&head, r);
	environment(&env, r, CTX_ROWS);
	legend(&sh, r);
	footer(&foot, r);
	total[SEC_REGRESS] = total[SEC_NUMBERS] = d->cnt[PV_V_REGRESSION];
	total[SEC_OTHER] = r->n - d->cnt[PV_V_REGRESSION] -
			   d->cnt[PV_V_UNCHANGED] - d->cnt[PV_V_UNGATED];
	total[SEC_UNGATED] = d->ungated_moved;
	total[SEC_DETAIL] = r->n;

	/* the notes at their longest: every count is at most r->n */
	omitted_note(&notes, r->n, "regressions", "regressions");
	omitted_note(&notes, r->n, "regressions", "regressions");
	omitted_note(&notes, r->n, "other changes", "other changes");
	omitted_note(&notes, r->n, "metrics", "metrics");
	omitted_note(&notes, r->n, "metrics", "metrics");
	final_note(&notes, r->n, limit, r->n, json_name);
	details_open(&notes, r->n, r->n ? r->n - 1 : 0);
	strbuf_addstr(&notes, no_detail);
	strbuf_addstr(&notes, "</details>\n\n</details>\n\n</details>\n\n");
	if (common) {
		strbuf_addstr(&notes, "Every one of them: ");
		md_text_in(&notes, common, REASON_CHARS, 0);
		strbuf_addstr(&notes, ".\n\n");
	}
	fixed = head.len + env.len + sh.len + foot.len + notes.len;
	if (fixed > limit && env.len) {
		/* the environment warning is the only fixed part that can
		 * shrink: say only that it differs */
		fixed -= env.len;
		strbuf_reset(&env);
		environment(&env, r, 0);
		fixed += env.len;
	}
	budget = fixed < limit ? limit - fixed : 0;
	for (int s = 0; s < SEC_COUNT; s++)
		sec[s].row = pv_calloc(total[s] + 1, sizeof(char *));
	whys = pv_calloc(total[SEC_OTHER] + 1, sizeof(char *));

	/* admit rows in priority order until one does not fit */
	for (int pass = 0; pass < 6 && !stop; pass++) {
		for (size_t k = 0; k < r->n && !stop; k++) {
			size_t i = d->rank[k], cost;
			const struct pv_result *m = &r->m[i];
			int s = section_of(pass, m);
			struct strbuf hd = STRBUF_INIT;

			if (s < 0)
				continue;
			strbuf_reset(&row);
			switch (s) {
			case SEC_REGRESS:
				regress_row(&row, d, m);
				if (!shown[s])
					regress_head(&hd, d, total[s]);
				break;
			case SEC_NUMBERS:
				numbers_row(&row, d, m);
				if (!shown[s])
					numbers_head(&hd);
				break;
			case SEC_OTHER:
				strbuf_reset(&why);
				other_row(&row, &why, d, m, common);
				if (!shown[s])
					strbuf_addf(&hd, "%s\n%s\n</details>\n\n",
						    other_head, why_head);
				break;
			case SEC_UNGATED:
				ungated_row(&row, d, m);
				if (!shown[s])
					ungated_head(&hd, d);
				break;
			default:
				detail_row(&row, m);
				if (!gopen[gid[i]])
					group_head(&hd, d, m);
				break;
			}
			cost = row.len + (hd.len ? hd.len + 1 : 0) +
			       (s == SEC_OTHER ? why.len : 0);
			strbuf_release(&hd);
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
				if (s == SEC_OTHER)
					whys[sec[s].n] = strbuf_detach(&why, NULL);
				sec[s].row[sec[s].n++] =
					strbuf_detach(&row, NULL);
			}
			shown[s]++;
		}
	}

	/* write it out in section order */
	append_release(out, &head);
	append_release(out, &env);
	append_release(out, &sh);
	if (total[SEC_REGRESS]) {
		if (shown[SEC_REGRESS]) {
			regress_head(out, d, total[SEC_REGRESS]);
			for (size_t k = 0; k < sec[SEC_REGRESS].n; k++)
				strbuf_addstr(out, sec[SEC_REGRESS].row[k]);
			strbuf_addch(out, '\n');
		}
		omitted_note(out, total[SEC_REGRESS] - shown[SEC_REGRESS],
			     "regression", "regressions");
		if (shown[SEC_NUMBERS]) {
			numbers_head(out);
			for (size_t k = 0; k < sec[SEC_NUMBERS].n; k++)
				strbuf_addstr(out, sec[SEC_NUMBERS].row[k]);
			strbuf_addch(out, '\n');
			omitted_note(out, total[SEC_NUMBERS] - shown[SEC_NUMBERS],
				     "regression", "regressions");
			strbuf_addstr(out, "</details>\n\n");
		}
	}
	if (total[SEC_OTHER]) {
		if (shown[SEC_OTHER]) {
			strbuf_addstr(out, other_head);
			for (size_t k = 0; k < sec[SEC_OTHER].n; k++)
				strbuf_addstr(out, sec[SEC_OTHER].row[k]);
			strbuf_addch(out, '\n');
			strbuf_addstr(out, why_head);
			for (size_t k = 0; k < sec[SEC_OTHER].n; k++)
				strbuf_addstr(out, whys[k]);
			strbuf_addch(out, '\n');
			if (common) {
				strbuf_addstr(out, "Every one of them: ");
				md_text_in(out, common, REASON_CHARS, 0);
				strbuf_addstr(out, ".\n\n");
			}
			strbuf_addstr(out, "</details>\n\n");
		}
		omitted_note(out, total[SEC_OTHER] - shown[SEC_OTHER],
			     "other change", "other changes");
	}
	if (shown[SEC_UNGATED]) {
		ungated_head(out, d);
		for (size_t k = 0; k < sec[SEC_UNGATED].n; k++)
			strbuf_addstr(out, sec[SEC_UNGATED].row[k]);
		strbuf_addch(out, '\n');
		omitted_note(out, total[SEC_UNGATED] - shown[SEC_UNGATED],
			     "metric", "metrics");
		strbuf_addstr(out, "</details>\n\n");
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
			omitted_note(out, r->n - shown[SEC_DETAIL], "metric",
				     "metrics");
		strbuf_addstr(out, "</details>\n\n");
	}
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

	for (int s = 0; s < SEC_COUNT; s++) {
		for (size_t k = 0; k < sec[s].n; k++)
			free(sec[s].row[k]);
		free(sec[s].row);
	}
	for (size_t i = 0; i < r->n; i++)
		free(drow[i]);
	for (size_t k = 0; k < sec[SEC_OTHER].n; k++)
		free(whys[k]);
	free(whys);
	strbuf_release(&why);
	free(common);
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
		const struct pv_result *m = &r->m[i];

		if ((unsigned)m->verdict < PV_V_COUNT)
			d.cnt[m->verdict]++;
		d.ungated_moved += ungated_moved(m);
		if (m->verdict == PV_V_REGRESSION &&
		    (m->threshold != r->settings.gate.threshold ||
		     isfinite(m->abs_threshold)))
			d.thr_column = 1;
		if (!same(m->suite, r->m[0].suite))
			d.multi_suite = 1;
		if (!same(m->suite, r->m[0].suite) ||
		    !same(m->test, r->m[0].test))
			d.multi_test = 1;
	}
	d.rank = pv_report_ranked(r);
	render(&out, &d, limit, o ? o->json_name : NULL);
	free(d.rank);

	errno = 0;
	if (fwrite(out.buf, 1, out.len, fp) != out.len || fflush(fp) ||
	    ferror(fp))
		rc = pv_error(err, PV_M_CANNOT_WRITE,
			      "cannot write Markdown report: %s",
			      strerror(errno ? errno : EIO));
	strbuf_release(&out);
	return rc;
}

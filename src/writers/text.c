/*
 * text.c - the terminal summary.
 *
 *   Baseline:  LABEL PATH (N runs)          what was compared with what
 *   Candidate: LABEL PATH (N runs)
 *   one section per verdict that needs attention, most severe first:
 *     name  baseline → candidate unit  change  q
 *       (inconclusive: what this run could detect, and the runs needed)
 *   one line of counts per group (what was not listed)
 *   the counts, then the closing line naming the worst regression
 *
 * By default only the metrics that need attention are listed:
 * regressions, missing, inconclusive, noisy, insufficient, waived,
 * improvements, new, and the ungated ones that moved beyond their
 * threshold with q < alpha (the other ungated ones are counted).  A long
 * section shows its first rows and says how many more -v would list.
 * With verbose every metric is listed, unchanged ones too.
 *
 * Every line fits o->width columns (80 when 0): names are shortened in
 * the middle with "…", so both the group and the metric stay readable.
 * Widths are counted in code points; everything we print is one column
 * wide, and foreign names are cleaned of control characters first.
 */
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../policy.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "fmt.h"
#include "../util/banned.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

#define ELLIPSIS "\xe2\x80\xa6"
#define SECTION_ROWS 20         /* rows a section lists without -v */
#define UNGATED_ROWS 8          /* the ungated that moved: the largest */
#define GROUP_LINES 12          /* count lines of groups without -v */
#define MIN_NAME 16             /* the name column's least width */

enum { C_NAME, C_MOVE, C_CHANGE, C_Q, NCOL };

struct row {
	char *cell[NCOL];
	char *note;             /* a line under the row, or NULL */
	enum pv_verdict v;
};

struct tx {
	const struct pv_report *r;
	const struct pv_text_opts *o;
	FILE *fp;
	size_t width;
	int multi_suite, multi_test;
};

static const char *str(const char *s)
{
	return s ? s : "";
}

/* Display width in columns: code points (what we print is narrow). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The byte offset of the code point that starts column col of s. */
static size_t offset_of(const char *s, size_t col)
{
	size_t i = 0, w = 0;

	while (s[i] && w < col) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		w++;
	}
	return i;
}

/* s cut to at most max columns: its start and end, "…" between them. */
static void shorten(struct strbuf *out, const char *s, size_t max)
{
	size_t w = width(s), head, tail;

	if (w <= max) {
		strbuf_addstr(out, s);
		return;
	}
	if (max == 0)
		return;
	head = (max - 1) / 2;
	tail = max - 1 - head;
	strbuf_add(out, s, offset_of(s, head));
	strbuf_addstr(out, ELLIPSIS);
	strbuf_addstr(out, s + offset_of(s, w - tail));
}

/* Foreign text, cleaned, tabs as spaces. */
static void clean(struct strbuf *sb, const char *s)
{
	size_t from = sb->len;

	s = str(s);
	pv_text_clean(sb, s, strlen(s));
	for (size_t i = from; i < sb->len; i++)
		if (sb->buf[i] == '\t' || sb->buf[i] == '\n')
			sb->buf[i] = ' ';
}

static void name_part(struct strbuf *sb, const char *s)
{
	if (!s || !*s)
		return;
	if (sb->len)
		strbuf_addch(sb, ' ');
	clean(sb, s);
}

/* "group benchmark metric", with the suite and test when they vary. */
static void metric_name(const struct tx *t, struct strbuf *sb,
			const struct pv_result *m)
{
	strbuf_reset(sb);
	if (t->multi_suite)
		name_part(sb, m->suite);
	if (t->multi_test)
		name_part(sb, m->test);
	name_part(sb, m->group);
	name_part(sb, m->benchmark);
	name_part(sb, m->metric);
}

static void make_row(const struct tx *t, const struct pv_result *m,
		     struct row *row)
{
	struct strbuf sb = STRBUF_INIT;
	const char *word = pv_fmt_better_word(m);

	row->v = m->verdict;
	metric_name(t, &sb, m);
	row->cell[C_NAME] = strbuf_detach(&sb, NULL);
	pv_fmt_means(&sb, m, NULL);     /* the change has its own column */
	row->cell[C_MOVE] = strbuf_detach(&sb, NULL);
	if (isfinite(m->change_rel))
		pv_fmt_pct(&sb, m->change_rel);
	else if (m->side[0].present && m->side[1].present)
		pv_fmt_change(&sb, m);
	if (word && (m->verdict == PV_V_INCONCLUSIVE ||
		     m->verdict == PV_V_NOISY || m->verdict == PV_V_WAIVED))
		strbuf_addf(&sb, " %s", word);
	row->cell[C_CHANGE] = strbuf_detach(&sb, NULL);
	if (m->tested && isfinite(m->q))
		pv_fmt_p(&sb, m->q);
	row->cell[C_Q] = strbuf_detach(&sb, NULL);
	/* What "inconclusive" failed to measure: the reason's figures. */
	if (m->verdict == PV_V_INCONCLUSIVE &&
	    *pv_add_detectable(&sb, m, ";"))
		row->note = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
}

static void free_row(struct row *row)
{
	for (int c = 0; c < NCOL; c++)
		free(row->cell[c]);
	free(row->note);
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

/* A line of at most the width: cut with "…" when longer. */
static void put_line(const struct tx *t, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	shorten(&sb, s, t->width);
	fputs(sb.buf, t->fp);
	fputc('\n', t->fp);
	strbuf_release(&sb);
}

/*
 * rows[0..n) as an aligned table under a header line; the name column
 * takes what the other columns leave of the width.  Ungated metrics are
 * outside the family, so their last column is a plain p.
 */
static void table(const struct tx *t, const char *title, struct row *rows,
		  size_t n, int plain_p)
{
	const char *const head[NCOL] = {
		"", "base \xe2\x86\x92 cand", "change", plain_p ? "p" : "q",
	};
	size_t w[NCOL], rest = 2, namew;
	struct strbuf line = STRBUF_INIT, name = STRBUF_INIT;

	for (int c = 0; c < NCOL; c++) {
		w[c] = c ? width(head[c]) : 0;
		for (size_t i = 0; i < n; i++)
			if (width(rows[i].cell[c]) > w[c])
				w[c] = width(rows[i].cell[c]);
	}
	/* a move too wide for its header still fits: it takes its width */
	for (int c = 1; c < NCOL; c++)
		rest += 2 + w[c];
	namew = t->width > rest + MIN_NAME ? t->width - rest : MIN_NAME;
	if (w[C_NAME] < namew)
		namew = w[C_NAME] > width(title) ? w[C_NAME] : width(title);
	if (namew > (t->width > rest ? t->width - rest : MIN_NAME))
		namew = t->width > rest + MIN_NAME ? t->width - rest : MIN_NAME;
	for (size_t i = 0; i <= n; i++) {
		const char *col = i ? colour(rows[i - 1].v) : NULL;

		strbuf_reset(&line);
		strbuf_reset(&name);
		if (!i) {
			shorten(&name, title, namew + 2);
			strbuf_add(&line, name.buf, name.len);
			for (size_t k = width(name.buf); k < namew + 2; k++)
				strbuf_addch(&line, ' ');
		} else {
			strbuf_addstr(&line, "  ");
			shorten(&name, rows[i - 1].cell[C_NAME], namew);
			strbuf_add(&line, name.buf, name.len);
			for (size_t k = width(name.buf); k < namew; k++)
				strbuf_addch(&line, ' ');
		}
		for (int c = 1; c < NCOL; c++) {
			const char *s = i ? rows[i - 1].cell[c] : head[c];

			strbuf_addstr(&line, "  ");
			for (size_t k = width(s); k < w[c]; k++)
				strbuf_addch(&line, ' ');
			if (c == C_CHANGE && t->o->color && col)
				strbuf_addstr(&line, col);
			strbuf_addstr(&line, s);
			if (c == C_CHANGE && t->o->color && col)
				strbuf_addstr(&line, RESET);
		}
		/* no trailing blanks */
		while (line.len && line.buf[line.len - 1] == ' ')
			strbuf_setlen(&line, line.len - 1);
		fputs(line.buf, t->fp);
		fputc('\n', t->fp);
		if (i && rows[i - 1].note) {
			strbuf_reset(&line);
			strbuf_addf(&line, "    %s", rows[i - 1].note);
			put_line(t, line.buf);
		}
	}
	strbuf_release(&line);
	strbuf_release(&name);
}

static const struct {
	enum pv_verdict v;
	const char *title;
} sections[] = {
	{ PV_V_REGRESSION, "Regressions" },
	{ PV_V_MISSING, "Missing" },
	{ PV_V_INCONCLUSIVE, "Inconclusive" },
	{ PV_V_NOISY, "Noisy" },
	{ PV_V_INSUFFICIENT, "Insufficient" },
	{ PV_V_WAIVED, "Waived" },
	{ PV_V_IMPROVEMENT, "Improvements" },
	{ PV_V_NEW, "New" },
	{ PV_V_UNGATED, "Ungated" },
	{ PV_V_UNCHANGED, "Unchanged" },
};

static int listed(const struct tx *t, const struct pv_result *m)
{
	if (t->o->verbose)
		return 1;
	if (m->verdict == PV_V_UNCHANGED)
		return 0;
	if (m->verdict == PV_V_UNGATED)
		return pv_policy_ungated_moved(m);
	return 1;
}

/* One section: the listed metrics of verdict v, in rank order. */
static void section(const struct tx *t, const size_t *rank, size_t si)
{
	const struct pv_report *r = t->r;
	enum pv_verdict v = sections[si].v;
	size_t n = 0, shown, cap, total = r->count[v];
	struct row *rows;
	struct strbuf title = STRBUF_INIT;

	for (size_t k = 0; k < r->n; k++)
		n += r->m[rank[k]].verdict == v && listed(t, &r->m[rank[k]]);
	if (!n)
		return;
	cap = t->o->verbose ? n : v == PV_V_UNGATED ? UNGATED_ROWS :
	      SECTION_ROWS;
	/* cutting one row would say "1 more": show it instead */
	shown = n <= cap + 1 ? n : cap;
	rows = pv_calloc(st_add(shown, 1), sizeof(*rows));
	for (size_t k = 0, j = 0; k < r->n && j < shown; k++) {
		const struct pv_result *m = &r->m[rank[k]];

		if (m->verdict == v && listed(t, m))
			make_row(t, m, &rows[j++]);
	}
	if (v == PV_V_UNGATED && !t->o->verbose)
		strbuf_addf(&title, "Ungated, moved (%zu of %zu)", n, total);
	else
		strbuf_addf(&title, "%s (%zu)", sections[si].title, n);
	fputc('\n', t->fp);
	table(t, title.buf, rows, shown, v == PV_V_UNGATED);
	if (shown < n) {
		strbuf_reset(&title);
		strbuf_addf(&title, "  " ELLIPSIS " and %zu more (-v lists them)",
			    n - shown);
		put_line(t, title.buf);
	}
	for (size_t j = 0; j < shown; j++)
		free_row(&rows[j]);
	free(rows);
	strbuf_release(&title);
}

/* s as lines of at most the width, broken at spaces: the first indented
 * 2 columns, the rest 4. */
static void put_wrapped(const struct tx *t, const char *s)
{
	struct strbuf line = STRBUF_INIT;
	size_t indent = 2;

	while (*s) {
		size_t room = t->width - indent, n = strlen(s);

		if (width(s) > room) {
			size_t cut = offset_of(s, room);

			while (cut && s[cut] != ' ')
				cut--;
			n = cut ? cut : offset_of(s, room);
		}
		strbuf_reset(&line);
		for (size_t k = 0; k < indent; k++)
			strbuf_addch(&line, ' ');
		strbuf_add(&line, s, n);
		put_line(t, line.buf);
		for (s += n; *s == ' '; s++)
			;
		indent = 4;
	}
	strbuf_release(&line);
}

/*
 * Under the regressions, as the comment has it, each listed one that was
 * judged against main's moved newest points too (history/pooled.h): its
 * name and that clause of its reason, under a heading line:
 *   Main moved at the end of its archive:
 *     BM_Parse cpu_time: main's newest 2 points moved +10.2% from its ...
 */
static void end_notes(const struct tx *t, const size_t *rank)
{
	struct strbuf note = STRBUF_INIT;
	size_t seen = 0, cap = t->o->verbose ? SIZE_MAX : SECTION_ROWS + 1;
	int head = 0;

	for (size_t k = 0; k < t->r->n && seen < cap; k++) {
		const struct pv_result *m = &t->r->m[rank[k]];

		if (m->verdict != PV_V_REGRESSION || (seen++, !m->end_points))
			continue;
		if (!head++)
			fputs("\nMain moved at the end of its archive:\n", t->fp);
		metric_name(t, &note, m);
		strbuf_addstr(&note, ": ");
		pv_result_end_note(m, &note);
		put_wrapped(t, note.buf);
	}
	strbuf_release(&note);
}

static void count_word(struct strbuf *sb, size_t n, enum pv_verdict v)
{
	static const char *const many[PV_V_COUNT] = {
		[PV_V_REGRESSION] = "regressions",
		[PV_V_IMPROVEMENT] = "improvements",
	};
	const char *name = pv_verdict_name(v);

	if (!n)
		return;
	if (sb->len && sb->buf[sb->len - 1] != ' ')
		strbuf_addstr(sb, ", ");
	strbuf_addf(sb, "%zu %s", n, n != 1 && many[v] ? many[v] : name);
}

/* The order counts are given in. */
static const enum pv_verdict count_order[] = {
	PV_V_REGRESSION, PV_V_MISSING, PV_V_INCONCLUSIVE, PV_V_NOISY,
	PV_V_INSUFFICIENT, PV_V_WAIVED, PV_V_IMPROVEMENT, PV_V_NEW,
	PV_V_UNGATED, PV_V_UNCHANGED,
};

/* A group: its first metric (model order) and its counts. */
struct grp {
	size_t first, total;
	size_t c[PV_V_COUNT];
};

/* Per group (suite, test and group), one line of its counts, groups in
 * the order of their first metric; O(n log n) in the metrics. */
static void group_counts(const struct tx *t)
{
	const struct pv_report *r = t->r;
	struct strbuf line = STRBUF_INIT, name = STRBUF_INIT;
	size_t *gid = pv_calloc(st_add(r->n, 1), sizeof(*gid));
	struct grp *g = pv_calloc(st_add(r->n, 1), sizeof(*g));
	size_t ng = pv_report_groups(r, 1, gid), shown = 0;

	for (size_t i = 0; i < r->n; i++) {
		struct grp *p = &g[gid[i]];

		if (!p->total++)
			p->first = i;
		p->c[r->m[i].verdict]++;
	}
	for (size_t j = 0; j < ng; j++) {
		const struct pv_result *a = &r->m[g[j].first];

		if (!t->o->verbose && shown == GROUP_LINES)
			break;
		if (!shown)
			fputc('\n', t->fp);
		shown++;
		strbuf_reset(&name);
		if (t->multi_suite)
			name_part(&name, a->suite);
		if (t->multi_test)
			name_part(&name, a->test);
		name_part(&name, a->group);
		if (!name.len)
			name_part(&name, a->suite);
		strbuf_reset(&line);
		strbuf_addf(&line, "%s (%zu): ", name.buf, g[j].total);
		for (size_t c = 0; c < sizeof(count_order) / sizeof(*count_order); c++)
			count_word(&line, g[j].c[count_order[c]], count_order[c]);
		put_line(t, line.buf);
	}
	if (shown < ng) {
		strbuf_reset(&line);
		strbuf_addf(&line, ELLIPSIS " and %zu more groups", ng - shown);
		put_line(t, line.buf);
	}
	free(gid);
	free(g);
	strbuf_release(&line);
	strbuf_release(&name);
}

/* The side's line: "Baseline:  LABEL PATH (5 runs)". */
static void side_line(const struct tx *t, int k)
{
	const struct pv_sidemeta *s = &t->r->side[k];
	struct strbuf line = STRBUF_INIT, tail = STRBUF_INIT;
	struct strbuf count = STRBUF_INIT;
	char buf[16];
	const char *label = pv_fmt_label(t->r->label[k], buf, sizeof(buf));
	size_t room;

	strbuf_addstr(&line, k ? "Candidate: " : "Baseline:  ");
	if (label) {
		clean(&line, label);
		strbuf_addch(&line, ' ');
	}
	strbuf_addf(&tail, " (%s)", pv_side_count(t->r, k, &count));
	/* the path gives way first */
	room = t->width > width(line.buf) + width(tail.buf) ?
	       t->width - width(line.buf) - width(tail.buf) : 0;
	{
		struct strbuf p = STRBUF_INIT;

		clean(&p, s->path ? s->path : (k ? "candidate" : "baseline"));
		shorten(&line, p.buf, room);
		strbuf_release(&p);
	}
	strbuf_add(&line, tail.buf, tail.len);
	put_line(t, line.buf);
	strbuf_release(&line);
	strbuf_release(&count);
	strbuf_release(&tail);
}

/* The metric that decided the verdict: the most severe of those whose
 * verdict fails the gate (the worst regression first), or NULL. */
static const struct pv_result *worst(const struct pv_report *r)
{
	size_t i = r->fail ? pv_report_first_failing(r) : r->n;

	return i < r->n ? &r->m[i] : NULL;
}

/*
 * "FAIL: 16 regressions, worst NAME -8.7%", or
 * "PASS: 546 metrics, 2 improvements, 544 unchanged".
 */
static void closing_line(const struct tx *t)
{
	const struct pv_report *r = t->r;
	const struct pv_result *w = worst(r);
	struct strbuf head = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf tail = STRBUF_INIT, line = STRBUF_INIT;

	if (w) {
		size_t c = r->count[w->verdict];

		strbuf_addf(&head, ": %zu %s, %s ", c,
			    w->verdict == PV_V_REGRESSION ?
			    (c == 1 ? "regression" : "regressions") :
			    pv_verdict_name(w->verdict),
			    w->verdict == PV_V_REGRESSION ? "worst" : "first");
		metric_name(t, &name, w);
		if (isfinite(w->change_rel)) {
			strbuf_addch(&tail, ' ');
			pv_fmt_pct(&tail, w->change_rel);
		}
	} else {
		strbuf_addf(&head, ": %zu metric%s", r->n, r->n == 1 ? "" : "s");
		for (size_t k = 0; k < sizeof(count_order) / sizeof(*count_order); k++) {
			size_t c = r->count[count_order[k]];

			if (c) {
				strbuf_addstr(&head, ", ");
				strbuf_addf(&head, "%zu %s", c,
					    c != 1 && count_order[k] == PV_V_IMPROVEMENT ?
					    "improvements" :
					    pv_verdict_name(count_order[k]));
			}
		}
	}
	/* "FAIL" is 4 columns */
	{
		size_t fixed = 4 + width(head.buf) + width(tail.buf);

		shorten(&line, name.buf, t->width > fixed + 8 ?
			t->width - fixed : 8);
	}
	if (t->o->color)
		fputs(r->fail ? BOLD RED : BOLD GREEN, t->fp);
	fputs(r->fail ? "FAIL" : "PASS", t->fp);
	if (t->o->color)
		fputs(RESET, t->fp);
	fprintf(t->fp, "%s%s%s\n", head.buf, line.buf, tail.buf);
	strbuf_release(&head);
	strbuf_release(&name);
	strbuf_release(&tail);
	strbuf_release(&line);
}

/* What q is, in the legends of every report. */
static const char *q_words(enum pv_correction c)
{
	switch (c) {
	case PV_CORR_BH:
		return "BH-adjusted p-value";
	case PV_CORR_HOLM:
		return "Holm-adjusted p-value";
	default:
		return "p-value (no correction)";
	}
}

/* "546 metrics: 16 regressions, 5 inconclusive, 429 ungated, ..." and
 * what q is. */
static void totals(const struct tx *t)
{
	const struct pv_report *r = t->r;
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%zu metric%s: ", r->n, r->n == 1 ? "" : "s");
	for (size_t k = 0; k < sizeof(count_order) / sizeof(*count_order); k++)
		count_word(&line, r->count[count_order[k]], count_order[k]);
	fputc('\n', t->fp);
	put_line(t, line.buf);
	strbuf_reset(&line);
	strbuf_addf(&line, "base \xe2\x86\x92 cand: the means; change: of the baseline mean; q: %s",
		    q_words(r->settings.gate.correction));
	put_line(t, line.buf);
	strbuf_release(&line);
}

int pv_write_text(const struct pv_report *r, const struct pv_text_opts *o,
		  FILE *fp, struct pv_err *err)
{
	struct tx t = { r, o, fp, o->width ? o->width : 80, 0, 0 };
	/* -q needs only the closing line: no sort of every metric */
	size_t *rank = o->quiet ? NULL : pv_report_ranked(r);

	if (t.width < 40)
		t.width = 40;
	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(str(r->m[i].suite), str(r->m[0].suite)))
			t.multi_suite = 1;
		if (t.multi_suite ||
		    strcmp(str(r->m[i].test), str(r->m[0].test)))
			t.multi_test = 1;
	}
	if (!o->quiet) {
		side_line(&t, 0);
		side_line(&t, 1);
		for (size_t s = 0; s < sizeof(sections) / sizeof(*sections); s++) {
			section(&t, rank, s);
			if (sections[s].v == PV_V_REGRESSION)
				end_notes(&t, rank);
		}
		group_counts(&t);
		totals(&t);
	}
	closing_line(&t);
	free(rank);
	if (ferror(fp))
		return pv_atomic_error(err, NULL, errno);
	return 0;
}

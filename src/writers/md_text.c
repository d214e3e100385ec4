/*
 * md_text.c - foreign text as Markdown, and the cells of the tables.
 *
 * Escaping: every foreign string is cleaned (pv_text_clean), capped in
 * length, and has the Markdown specials \ ` * _ [ ] < > # ~ | & $
 * backslash-escaped; text GitHub would link ("@team", "#12") becomes a
 * code span instead.  Bidirectional controls are dropped (by
 * pv_text_clean, as in every writer).  Cells never
 * hold a newline, and numbers never part from their units.
 */
#include "md.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

const char *md_str(const char *s)
{
	return s ? s : "";
}

int md_is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* A '#' or '@' before a letter or digit: GitHub would link an issue or
 * mention a user. */
static int links(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if ((s[i] == '#' || s[i] == '@') &&
		    md_is_alnum((unsigned char)s[i + 1]))
			return 1;
	return 0;
}

/*
 * Append foreign text as inline Markdown that renders as itself: at most
 * maxchars characters (then "…"), no newline, bidirectional controls
 * dropped (pv_text_clean).  Text that GitHub would turn into a mention or an issue link
 * ("@team", "#12") becomes a code span, where GitHub links nothing, so a
 * name copied from the comment is the name (no zero-width characters);
 * other text has the Markdown specials backslash-escaped.  In a table
 * (in_table) a '|' is escaped even inside the code span, as GFM asks.
 */
void md_text_in(struct strbuf *out, const char *s, size_t maxchars,
		int in_table)
{
	struct strbuf t = STRBUF_INIT, v = STRBUF_INIT;
	size_t chars = 0, i = 0, n, run = 0, maxrun = 0;
	int code;

	s = md_str(s);
	pv_text_clean(&t, s, strlen(s));
	/* the visible characters: cut, tabs and newlines as spaces */
	while (i < t.len) {
		const unsigned char *p = (const unsigned char *)t.buf + i;

		/* pv_text_clean left valid UTF-8 */
		n = p[0] < 0x80 ? 1 : p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
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
void md_text(struct strbuf *out, const char *s, size_t maxchars)
{
	md_text_in(out, s, maxchars, 1);
}

void md_nowrap(struct strbuf *sb, size_t from)
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
void md_unit(struct strbuf *out, const char *s)
{
	md_text(out, s, NAME_CHARS);
}

int md_same(const char *a, const char *b)
{
	return !strcmp(md_str(a), md_str(b));
}

void md_join(struct strbuf *sb, int *first, const char *s)
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
void md_label(struct md *d, struct strbuf *sb, const struct pv_result *m)
{
	size_t from = sb->len, chars = 0;
	int first = 1;

	if (d->multi_suite)
		md_join(sb, &first, m->suite);
	if (d->multi_test)
		md_join(sb, &first, m->test);
	md_join(sb, &first, m->group);
	md_join(sb, &first, m->benchmark);
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

const char *md_verdict_cell(enum pv_verdict v)
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
void md_cell_begin(struct strbuf *sb)
{
	strbuf_addstr(sb, "| ");
}

void md_cell_next(struct strbuf *sb)
{
	strbuf_addstr(sb, " | ");
}

void md_cell_end(struct strbuf *sb)
{
	strbuf_addstr(sb, " |\n");
}

/* The first two cells of a ranked row, "| benchmark | metric". */
void md_name_cells(struct strbuf *sb, struct md *d, const struct pv_result *m)
{
	md_cell_begin(sb);
	md_label(d, sb, m);
	md_cell_next(sb);
	md_text(sb, m->metric, NAME_CHARS);
}

void md_move_cell(struct strbuf *sb, const struct pv_result *m)
{
	size_t from = sb->len;

	pv_fmt_move(sb, m, md_unit);
	md_nowrap(sb, from);
}

void md_interval_cell(struct strbuf *sb, const struct pv_result *m)
{
	size_t from = sb->len;

	pv_fmt_interval(sb, m);
	md_nowrap(sb, from);
}

void md_q_cell(struct strbuf *sb, const struct pv_result *m)
{
	if (m->tested && isfinite(m->q))
		pv_fmt_p(sb, m->q);
	else
		strbuf_addstr(sb, DASH);
}

void md_threshold_text(struct strbuf *sb, const struct pv_result *m)
{
	pv_fmt_threshold(sb, m->threshold);
	if (isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, " and ");
		pv_fmt_human(sb, m->abs_threshold, NULL);
	}
}

void md_side_cell(struct strbuf *sb, const struct pv_result *m, int k)
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

/*
 * The reason without the clauses every row of the table shares (said
 * once under it), cut at a clause when it is long, never mid-word.
 */
void md_reason_cell(struct strbuf *sb, const char *reason,
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

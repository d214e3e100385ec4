/*
 * history_md.c - the history report as Markdown (a PR or MR comment),
 * and the pieces the history writers share: names, the readable change,
 * the levels, the trend and the sparkline.
 *
 * The comment follows compare's rules (markdown.c): the whole text fits
 * the limit (compare's default, MD_DEFAULT_LIMIT), the tables have at
 * most 6 columns, and what is cut is the tail of a priority order, with
 * "... and N more" and the JSON and HTML holding every one.  One row per
 * metric, with its change points listed in it (newest first):
 *   1. headline, the verdict in a sentence and the status counts;
 *   2. the regressions that began in the recent window (the gate's
 *      failures), at most MD_VISIBLE rows outside <details>, so that the
 *      collapsed comment stays short;
 *   3. in <details>, everything else with a change point or a trend:
 *      the rest of those regressions, the other changes in the window,
 *      earlier change points (newest first), then trends;
 *   4. in <details>, a Mermaid chart of the first MD_CHARTS of them;
 *   5. the method, one line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "history_writers.h"
#include "md.h"
#include "../util/text.h"
#include "../util/banned.h"

#define MD_VISIBLE 10           /* recent regressions outside <details> */
#define MD_CHARTS 10            /* Mermaid charts at most */
#define MD_CPS 3                /* change points listed in a row */
#define MD_SPARK 24             /* bars of a sparkline, at most */

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


/* A factor of 10 or more: "707", "12.5", "70700", "7.07e+11". */
static void factor(struct strbuf *sb, double f)
{
	if (f < 1000)
		strbuf_addf(sb, "%.3g", f);
	else if (f < 1e6)
		strbuf_addf(sb, "%.0f", f);
	else
		strbuf_addf(sb, "%.3g", f);
}

void pv_hist_rel(struct strbuf *sb, double rel, int unsigned_)
{
	size_t at = sb->len;

	if (isfinite(rel) && rel >= 9) {
		strbuf_addstr(sb, "\xc3\x97");          /* × */
		factor(sb, 1 + rel);
		return;
	}
	if (isfinite(rel) && rel <= -0.9 && 1 + rel > 0) {
		strbuf_addstr(sb, "\xc3\xb7");          /* ÷ */
		factor(sb, 1 / (1 + rel));
		return;
	}
	pv_fmt_pct(sb, rel);
	if (unsigned_ && (sb->buf[at] == '+' || sb->buf[at] == '-')) {
		memmove(sb->buf + at, sb->buf + at + 1, sb->len - at);
		sb->len--;
	}
}

void pv_hist_change(struct strbuf *sb, const struct pv_hist_metric *m,
		    const struct pv_hist_cp *c, int unsigned_,
		    pv_hist_put *put)
{
	struct pv_scale sc;
	double d = c->after - c->before;

	if (isfinite(c->rel)) {
		pv_hist_rel(sb, c->rel, unsigned_);
		return;
	}
	/* from 0: in the metric's unit */
	pv_scale_pick(&sc, m->unit, d);
	if (!unsigned_ && d > 0)
		strbuf_addch(sb, '+');
	pv_fmt_scaled(sb, unsigned_ ? fabs(d) : d, &sc);
	pv_fmt_scale_unit(sb, &sc, m->unit, put);
}

void pv_hist_levels(struct strbuf *sb, const struct pv_hist_metric *m,
		    double before, double after, const char *arrow,
		    pv_hist_put *put)
{
	struct pv_scale sc;

	pv_scale_pick(&sc, m->unit, fabs(before) > fabs(after) ? before : after);
	pv_fmt_scaled(sb, before, &sc);
	strbuf_addf(sb, " %s ", arrow);
	pv_fmt_scaled(sb, after, &sc);
	pv_fmt_scale_unit(sb, &sc, m->unit, put);
}

double pv_hist_value(const struct pv_hist_metric *m,
		     const struct pv_hist_obs *ob)
{
	return m->logscale ? exp(ob->tested) : ob->tested;
}

double pv_hist_drawn(const struct pv_hist_metric *m, size_t j)
{
	const struct pv_hist_obs *ob = &m->obs[j];

	if (m->watched && j + m->watch.k >= m->nobs)
		return m->logscale ? exp(ob->value) : ob->value;
	return pv_hist_value(m, ob);
}

int pv_hist_trend(struct strbuf *sb, const struct pv_hist_metric *m,
		  int brief)
{
	double over;

	if (!m->trend.significant || !isfinite(m->trend_rel) || m->nobs < 2)
		return 0;
	over = m->logscale ? expm1(m->trend.slope * (double)(m->nobs - 1)) :
	       m->trend_rel * (double)(m->nobs - 1);
	pv_hist_rel(sb, m->trend_rel, 0);
	if (brief) {
		strbuf_addstr(sb, " a point");
		return 1;
	}
	strbuf_addstr(sb, " a point (");
	pv_hist_rel(sb, over, 0);
	strbuf_addf(sb, " over %zu points, q=", m->nobs);
	pv_fmt_p(sb, m->trend.q);
	strbuf_addch(sb, ')');
	return 1;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void pv_hist_sparkline(struct strbuf *sb, const struct pv_hist_metric *m,
		       size_t max)
{
	static const char *const bars[8] = {
		"\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	/* Bins of w points each, counted back from the newest point, so
	 * that every bar stands for as many points (the oldest bin may be
	 * short) and a step at the end keeps whole bars. */
	size_t w = max && m->nobs > max ? (m->nobs + max - 1) / max : 1;
	size_t nb = (m->nobs + w - 1) / w;
	double *v, *bin, lo = INFINITY, hi = -INFINITY;

	ALLOC_ARRAY(v, nb ? nb : 1);
	ALLOC_ARRAY(bin, m->nobs ? m->nobs : 1);

	for (size_t k = 0; k < nb; k++) {
		size_t b = m->nobs - (nb - 1 - k) * w;
		size_t a = b > w ? b - w : 0, n = 0;

		for (size_t j = a; j < b; j++)
			bin[n++] = pv_hist_drawn(m, j);
		qsort(bin, n, sizeof(*bin), by_double);
		v[k] = n % 2 ? bin[n / 2] : (bin[n / 2 - 1] + bin[n / 2]) / 2;
		if (v[k] < lo) lo = v[k];
		if (v[k] > hi) hi = v[k];
	}
	for (size_t k = 0; k < nb; k++) {
		int i = hi > lo ? (int)((v[k] - lo) / (hi - lo) * 7.999) : 3;

		strbuf_addstr(sb, bars[i < 0 ? 0 : i > 7 ? 7 : i]);
	}
	free(v);
	free(bin);
}

/* s, or its first abbrev digits when it is a full commit id, into buf. */
static const char *short_id(const struct pv_history *h, const char *s,
			    char *buf, size_t size)
{
	size_t k = h->abbrev >= 7 ? h->abbrev : 7;

	if (!pv_history_is_full_id(s) || k >= size || k >= strlen(s))
		return s;
	memcpy(buf, s, k);
	buf[k] = '\0';
	return buf;
}

void pv_hist_put_label(struct strbuf *sb, const struct pv_history *h,
		       size_t i, pv_hist_put *put)
{
	char buf[72];

	put(sb, short_id(h, h->p[i].label, buf, sizeof(buf)));
}

void pv_hist_cp_tail(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		     pv_hist_put *put)
{
	const struct pv_hist_point *p = &h->p[c->point];
	double d = c->after - c->before;

	strbuf_addstr(sb, d > 0 ? " rose " : d < 0 ? " dropped " : " changed ");
	pv_hist_change(sb, m, c, 1, put);
	strbuf_addstr(sb, " at ");
	pv_hist_put_label(sb, h, c->point, put);
	/* the commit, unless the label is it (a point saved under
	 * GIT_COMMIT is labelled with its commit) */
	if (p->commit && strcmp(p->commit, p->label)) {
		char buf[72];

		strbuf_addstr(sb, " (");
		put(sb, short_id(h, p->commit, buf, sizeof(buf)));
		strbuf_addstr(sb, ")");
	}
	strbuf_addstr(sb, " (");
	pv_hist_levels(sb, m, c->before, c->after, "->", put);
	strbuf_addstr(sb, ", q=");
	pv_fmt_p(sb, c->s.q);
	strbuf_addstr(sb, ")");
}

void pv_hist_watch_tail(struct strbuf *sb, const struct pv_hist_metric *m,
			int brief, pv_hist_put *put)
{
	const struct pv_cp_excursion *w = &m->watch;
	int move = pv_policy_move(m->rule.direction, w->delta);

	if (brief && w->k == 1)
		strbuf_addstr(sb, " newest point ");
	else if (brief)
		strbuf_addf(sb, " newest %zu points ", w->k);
	else if (w->k == 1)
		strbuf_addstr(sb, " the newest point is ");
	else
		strbuf_addf(sb, " the newest %zu points are ", w->k);
	pv_hist_rel(sb, m->watch_rel, 0);
	if (m->rule.direction != PV_DIR_NONE && move)
		strbuf_addstr(sb, move > 0 ? ", worse" : ", better");
	if (brief) {
		strbuf_addstr(sb, ", unconfirmed");
		return;
	}
	strbuf_addstr(sb, " (");
	pv_hist_levels(sb, m, m->watch_before, m->watch_after, "->", put);
	strbuf_addstr(sb, ", q=");
	pv_fmt_p(sb, w->q);
	strbuf_addf(sb, "), unconfirmed: a change point needs %d points",
		    PV_CP_MIN_SEG);
}

void pv_hist_cp_line(struct strbuf *sb, const struct pv_history *h,
		     const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		     pv_hist_put *put)
{
	struct strbuf name = STRBUF_INIT;

	pv_hist_name(&name, m);
	put(sb, name.buf);
	strbuf_release(&name);
	pv_hist_cp_tail(sb, h, m, c, put);
}

const char *pv_hist_cp_word(const struct pv_hist_cp *c)
{
	if (c->verdict == PV_HS_REGRESSION)
		return c->waiver ? "waived" : c->beyond ? "regression" :
		       "regression within threshold";
	if (c->verdict == PV_HS_IMPROVEMENT)
		return c->beyond ? "improvement" : "improvement within threshold";
	return "change";
}

/* ---- the Markdown comment -------------------------------------------- */

/* A metric's place in the comment: its class, then its key (larger
 * first) within the class. */
enum row_class { R_FAIL, R_RECENT, R_WATCH, R_EARLIER, R_TREND };

struct row {
	size_t i;
	int cls;
	double key;
};

static int by_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls - y->cls;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static size_t first_recent(const struct pv_history *h)
{
	return h->np > h->recent ? h->np - h->recent : 0;
}

/* The metrics with a change point or a significant trend, in order. */
static size_t rows_of(const struct pv_history *h, struct row *r)
{
	size_t n = 0, fr = first_recent(h);

	for (size_t i = 0; i < h->nm; i++) {
		const struct pv_hist_metric *m = &h->m[i];
		const struct pv_hist_cp *sc = m->status_cp ?
					      &m->cp[m->status_cp - 1] : NULL;

		if (sc && m->status == PV_HS_REGRESSION) {
			r[n++] = (struct row){ i, R_FAIL, fabs(sc->rel) };
		} else if (sc) {
			r[n++] = (struct row){ i, R_RECENT, fabs(sc->rel) };
		} else if (m->watched) {
			r[n++] = (struct row){ i, R_WATCH, fabs(m->watch_rel) };
		} else if (m->ncp) {
			const struct pv_hist_cp *c = &m->cp[m->ncp - 1];

			r[n++] = (struct row){ i, c->point >= fr ? R_RECENT :
					       R_EARLIER, (double)c->point };
		} else if (m->trend.significant) {
			r[n++] = (struct row){ i, R_TREND, fabs(m->trend_rel) };
		}
	}
	qsort(r, n, sizeof(*r), by_row);
	return n;
}

/* The status at the newest point, short: the table must fit 900 px. */
static const char *status_cell(enum pv_hist_status s)
{
	switch (s) {
	case PV_HS_REGRESSION:
		return "\xe2\x9d\x8c";              /* ❌ */
	case PV_HS_IMPROVEMENT:
		return "\xe2\x9c\x85";              /* ✅ */
	case PV_HS_UNCHANGED:
		return "";
	default:
		return pv_hist_status_name(s);
	}
}

/* A change point's verdict, short. */
static const char *cp_mark(const struct pv_hist_cp *c)
{
	if (c->verdict == PV_HS_REGRESSION)
		return c->waiver ? "waived" : c->beyond ? "worse" :
		       "worse, within threshold";
	if (c->verdict == PV_HS_IMPROVEMENT)
		return c->beyond ? "better" : "better, within threshold";
	return "changed";
}

static const char table_head[] =
	"| | Metric | Change points, newest first | Now | Trend |\n"
	"|---|---|---|---:|---|\n";

static void md_row(struct strbuf *sb, const struct pv_history *h,
		   const struct pv_hist_metric *m)
{
	size_t fr = first_recent(h), shown = 0;
	/* the change point of the status, else the newest (+ 1): its
	 * interval is given (the JSON has every one, and the q values) */
	size_t key = m->status_cp ? m->status_cp : m->ncp;

	md_cell_begin(sb);
	strbuf_addstr(sb, status_cell(m->status));
	md_cell_next(sb);
	/* a long name may break after its slashes (not inside a code
	 * span, which md_text_in() makes of a name that needs one) */
	{
		struct strbuf name = STRBUF_INIT, t = STRBUF_INIT;

		pv_hist_name(&name, m);
		put_md_cell(&t, name.buf);
		for (size_t k = 0; k < t.len; k++) {
			strbuf_addch(sb, t.buf[k]);
			if (t.buf[k] == '/' && !memchr(t.buf, '`', t.len))
				strbuf_addstr(sb, "<wbr>");
		}
		strbuf_release(&name);
		strbuf_release(&t);
	}
	md_cell_next(sb);
	for (size_t j = m->ncp; j-- > 0 && shown < MD_CPS; shown++) {
		const struct pv_hist_cp *c = &m->cp[j];
		int fail = c->point >= fr && c->fails;
		size_t from;

		if (shown)
			strbuf_addstr(sb, "<br>");
		strbuf_addstr(sb, fail ? "**" : "");
		pv_hist_put_label(sb, h, c->point, put_md_cell);
		strbuf_addstr(sb, fail ? "**" : "");
		strbuf_addstr(sb, " ");
		from = sb->len;
		pv_hist_change(sb, m, c, 0, put_md_cell);
		md_nowrap(sb, from);
		strbuf_addstr(sb, " ");
		from = sb->len;
		strbuf_addstr(sb, "(");
		pv_hist_levels(sb, m, c->before, c->after, "\xe2\x86\x92",
			       put_md_cell);
		strbuf_addch(sb, ')');
		md_nowrap(sb, from);
		if (j + 1 == key) {
			strbuf_addstr(sb, " ");
			from = sb->len;
			strbuf_addch(sb, '[');
			pv_hist_rel(sb, c->rel_low, 0);
			strbuf_addstr(sb, ", ");
			pv_hist_rel(sb, c->rel_high, 0);
			strbuf_addch(sb, ']');
			md_nowrap(sb, from);
		}
		strbuf_addf(sb, " %s", cp_mark(c));
	}
	if (m->ncp > shown)
		strbuf_addf(sb, "<br>and %zu earlier", m->ncp - shown);
	if (!m->ncp && m->watched) {
		strbuf_addf(sb, "watch: the newest %zu %s ", m->watch.k,
			    m->watch.k == 1 ? "point" : "points");
		pv_hist_rel(sb, m->watch_rel, 0);
	} else if (!m->ncp) {
		strbuf_addstr(sb, "none");
	}
	md_cell_next(sb);
	if (m->nobs) {
		double v = pv_hist_drawn(m, m->nobs - 1);

		struct pv_scale sc;
		size_t from = sb->len;

		pv_scale_pick(&sc, m->unit, v);
		pv_fmt_scaled(sb, v, &sc);
		pv_fmt_scale_unit(sb, &sc, m->unit, put_md_cell);
		md_nowrap(sb, from);
	}
	md_cell_next(sb);
	pv_hist_sparkline(sb, m, MD_SPARK);
	{
		struct strbuf t = STRBUF_INIT;

		if (pv_hist_trend(&t, m, 1)) {
			strbuf_addstr(sb, "<br>");
			strbuf_add(sb, t.buf, t.len);
		}
		strbuf_release(&t);
	}
	md_cell_end(sb);
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

/* The point values the test saw and the fitted levels, over the
 * points' labels (short commit ids, as elsewhere). */
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
		pv_hist_put_label(sb, h, m->obs[j].point, mermaid_str);
	}
	strbuf_addstr(sb, "]\n    y-axis ");
	mermaid_str(sb, m->unit && *m->unit ? m->unit : "value");
	strbuf_addstr(sb, "\n    line [");
	for (size_t j = 0; j < m->nobs; j++) {
		strbuf_addstr(sb, j ? ", " : "");
		strbuf_addg(sb, pv_hist_drawn(m, j));
	}
	strbuf_addstr(sb, "]\n");
	if (m->ncp) {
		strbuf_addstr(sb, "    line [");
		for (size_t j = 0, c = 0; j < m->nobs; j++) {
			while (c < m->ncp && m->cp[c].s.index <= j)
				c++;
			strbuf_addstr(sb, j ? ", " : "");
			strbuf_addg(sb, c ? m->cp[c - 1].after : m->cp[0].before);
		}
		strbuf_addstr(sb, "]\n");
	}
	strbuf_addstr(sb, "```\n\n");
	strbuf_release(&name);
}

static void headline(struct strbuf *sb, const struct pv_history *h,
		     size_t nfail, size_t earlier, size_t trends,
		     size_t watched)
{
	int first = 1;

	strbuf_addf(sb, "## perfverdict history: %s\n\n",
		    h->fail ? "\xe2\x9d\x8c FAIL" : "\xe2\x9c\x85 pass");
	if (nfail)
		strbuf_addf(sb, "**%zu regression%s began in the newest %zu points.** ",
			    nfail, nfail == 1 ? "" : "s", h->recent);
	else
		strbuf_addf(sb, "No regression began in the newest %zu points. ",
			    h->recent);
	strbuf_addf(sb, "%zu points (", h->np);
	pv_hist_put_label(sb, h, 0, put_md);
	strbuf_addstr(sb, " to ");
	pv_hist_put_label(sb, h, h->np - 1, put_md);
	strbuf_addf(sb, "), %zu metrics: ", h->nm);
	for (int s = 0; s < PV_HS_COUNT; s++) {
		if (!h->count[s])
			continue;
		/* the nouns take a plural: "2 regressions", "1 unchanged" */
		strbuf_addf(sb, "%s%zu %s%s", first ? "" : ", ", h->count[s],
			    pv_hist_status_name((enum pv_hist_status)s),
			    h->count[s] != 1 && (s == PV_HS_REGRESSION ||
						 s == PV_HS_IMPROVEMENT) ? "s" : "");
		first = 0;
	}
	strbuf_addstr(sb, " at the newest point");
	if (earlier)
		strbuf_addf(sb, "; %zu with change points before the window",
			    earlier);
	if (trends)
		strbuf_addf(sb, "; %zu with a trend", trends);
	if (watched)
		strbuf_addf(sb, "; %zu to watch: the newest points moved, not confirmed yet",
			    watched);
	strbuf_addstr(sb, ".");
	if (h->shared.applied) {
		strbuf_addstr(sb, " The values are taken less a machine effect that every metric of a point shared (");
		pv_history_shared_size(h, sb);
		pv_hist_put_label(sb, h, h->shared_top, put_md);
		strbuf_addstr(sb, ").");
	}
	strbuf_addstr(sb, "\n\n");
}

/*
 * "### Watch" and a line per watched metric (the newest points moved,
 * no change point yet), while they fit budget characters.
 */
static void watch_list(struct strbuf *sb, const struct pv_history *h,
		       size_t budget)
{
	struct strbuf line = STRBUF_INIT, name = STRBUF_INIT;
	size_t n = 0, shown = 0, from = sb->len;

	for (size_t i = 0; i < h->nm; i++)
		n += h->m[i].watched;
	if (!n)
		return;
	strbuf_addf(sb, "### Watch: the newest points moved, not confirmed yet (%zu)\n\n", n);
	for (size_t i = 0; i < h->nm; i++) {
		if (!h->m[i].watched)
			continue;
		strbuf_reset(&line);
		strbuf_reset(&name);
		pv_hist_name(&name, &h->m[i]);
		strbuf_addstr(&line, "- **");
		put_md(&line, name.buf);
		strbuf_addstr(&line, "**:");
		pv_hist_watch_tail(&line, &h->m[i], 0, put_md);
		strbuf_addch(&line, '\n');
		if (sb->len - from + line.len > budget)
			break;
		strbuf_add(sb, line.buf, line.len);
		shown++;
	}
	if (shown < n)
		strbuf_addf(sb, "- \xe2\x80\xa6 and %zu more\n", n - shown);
	strbuf_addch(sb, '\n');
	strbuf_release(&line);
	strbuf_release(&name);
}

static const char method[] =
	"<sub>Each point's value is the robust mean of its runs that the test "
	"sees (what the charts draw). Change points: binary segmentation with a "
	"two-sample t of the adjacent segments' point values; the between-point "
	"sd is estimated from the residuals and moderated across metrics; q is "
	"Bonferroni over every split position of every metric (at a commit two "
	"or more metrics stepped at, over those commits and the metrics)."
	"</sub>\n";

static void more_note(struct strbuf *sb, size_t k, const char *json_name)
{
	const char *slash;

	if (!k)
		return;
	strbuf_addf(sb, "_\xe2\x80\xa6 and %zu more: the JSON", k);
	if (json_name && *json_name) {
		slash = strrchr(json_name, '/');
		strbuf_addstr(sb, " (");
		md_text(sb, slash && slash[1] ? slash + 1 : json_name,
			JSON_NAME_CHARS);
		strbuf_addstr(sb, ")");
	}
	strbuf_addstr(sb, " and HTML reports list every one._\n\n");
}

int pv_write_history_markdown(const struct pv_history *h,
			      const struct pv_write_opts *o, FILE *fp,
			      struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT, head = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf notes = STRBUF_INIT, row = STRBUF_INIT;
	struct row *r = pv_calloc(h->nm ? h->nm : 1, sizeof(*r));
	size_t limit = o && o->markdown_limit ? o->markdown_limit :
		       MD_DEFAULT_LIMIT;
	size_t n = rows_of(h, r), nfail = 0, earlier = 0, trends = 0;
	size_t watched = 0;
	size_t shown = 0, used, visible = 0, charts = 0;
	const char *json_name = o ? o->json_name : NULL;
	int rc = 0, in_details = 0;

	for (size_t k = 0; k < n; k++) {
		nfail += r[k].cls == R_FAIL;
		earlier += r[k].cls == R_EARLIER;
	}
	for (size_t i = 0; i < h->nm; i++) {
		trends += h->m[i].trend.significant;
		watched += h->m[i].watched;
	}
	headline(&head, h, nfail, earlier, trends, watched);
	watch_list(&head, h, limit / 4);
	/* the longest notes and closing tags the rows must leave room for */
	strbuf_addstr(&notes, "<details><summary>99999999999999999999 other metrics with change points, a trend or a watch</summary>\n\n</details>\n\n");
	more_note(&notes, (size_t)-1, json_name);
	strbuf_addstr(&notes, "<details><summary>Charts of 99999999999999999999 metrics: point values and fitted levels</summary>\n\n</details>\n\n");
	used = head.len + notes.len + sizeof(method) + 2 * sizeof(table_head);
	for (size_t k = 0; k < n; k++) {
		const struct pv_hist_metric *m = &h->m[r[k].i];

		strbuf_reset(&row);
		md_row(&row, h, m);
		if (used + row.len > limit)
			break;
		used += row.len;
		if (r[k].cls == R_FAIL && visible < MD_VISIBLE) {
			if (!visible)
				strbuf_addf(&body, "### Regressions that began in the newest %zu points (%zu)\n\n%s",
					    h->recent, nfail, table_head);
			visible++;
		} else if (!in_details) {
			if (visible)
				strbuf_addch(&body, '\n');
			strbuf_addf(&body, "<details><summary>%zu %smetric%s with change points, a trend or a watch</summary>\n\n%s",
				    n - visible, visible ? "more " : "",
				    n - visible == 1 ? "" : "s", table_head);
			in_details = 1;
		}
		strbuf_add(&body, row.buf, row.len);
		shown++;
	}
	if (!n)
		strbuf_addstr(&body, "No change points and no trends.\n\n");
	else if (visible && !in_details && shown == n)
		strbuf_addch(&body, '\n');
	if (in_details || shown < n) {
		if (in_details)
			strbuf_addch(&body, '\n');
		more_note(&body, n - shown, json_name);
		if (in_details)
			strbuf_addstr(&body, "</details>\n\n");
	}
	/* the charts of the first rows, as the budget allows */
	{
		struct strbuf ch = STRBUF_INIT, c1 = STRBUF_INIT;

		for (size_t k = 0; k < shown && charts < MD_CHARTS; k++) {
			strbuf_reset(&c1);
			mermaid(&c1, h, &h->m[r[k].i]);
			if (used + c1.len > limit)
				break;
			used += c1.len;
			strbuf_add(&ch, c1.buf, c1.len);
			charts++;
		}
		if (charts) {
			strbuf_addf(&body, "<details><summary>Charts of %s%zu metric%s: point values and fitted levels</summary>\n\n",
				    charts < n ? "the first " : "", charts,
				    charts == 1 ? "" : "s");
			strbuf_add(&body, ch.buf, ch.len);
			strbuf_addstr(&body, "</details>\n\n");
		}
		strbuf_release(&ch);
		strbuf_release(&c1);
	}
	strbuf_add(&sb, head.buf, head.len);
	strbuf_add(&sb, body.buf, body.len);
	strbuf_addstr(&sb, method);
	errno = 0;
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = pv_write_failed(o, errno, err);
	strbuf_release(&sb);
	strbuf_release(&head);
	strbuf_release(&body);
	strbuf_release(&notes);
	strbuf_release(&row);
	free(r);
	return rc;
}

/*
 * history_html.c - the history report as one self-contained HTML page:
 * the status, the change points and trends, and an inline SVG chart per
 * metric with a change point or a significant trend (each point's value
 * as the test sees it, the range of its runs, the fitted levels, and a
 * marker at every change point).  No scripts, no external
 * files; the head, its Content-Security-Policy and the stylesheet are
 * compare's page's (html.c's pv_html_head()).
 *
 * The metrics that fail the gate come first, then the others, each in
 * archive order.  A page stays one a browser opens, as compare's does: at
 * most HIST_CHARTS charts, at most HIST_SECTIONS metrics listed, then a
 * note that counts what was
 * left out and points to the JSON report, which has every metric.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "history_writers.h"
#include "writers.h"
#include "../util/text.h"
#include "../util/banned.h"

#define W 640.0
#define H 200.0
#define PAD_L 64.0
#define PAD_R 12.0
#define PAD_T 12.0
#define PAD_B 28.0

#define HIST_CHARTS 100         /* charts drawn, failing metrics first */
#define HIST_SECTIONS 2000      /* metrics listed, with or without chart */

/* How many charts and sections the page has room for (HIST_CHARTS,
 * HIST_SECTIONS), and what it left out. */
struct budget {
	size_t charts;                     /* charts left */
	size_t sections;                   /* sections left */
	size_t unlisted, uncharted;        /* what was left out */
};

/* Text for HTML: html.c's escaping, uncut. */
static void esc(struct strbuf *sb, const char *s)
{
	pv_html_text(sb, s, 0);
}

static double px(const struct pv_history *h, double idx)
{
	double span = h->np > 1 ? (double)(h->np - 1) : 1;

	return PAD_L + (W - PAD_L - PAD_R) * idx / span;
}

static double py(double v, double lo, double hi)
{
	return PAD_T + (H - PAD_T - PAD_B) * (hi - v) / (hi - lo);
}

/* A y inside the frame: a run far off is cut at its edge. */
static double clampy(double y)
{
	return y < PAD_T ? PAD_T : y > H - PAD_B ? H - PAD_B : y;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* A run on the scale the point values are taken on. */
static double run_scale(const struct pv_hist_metric *m, double u)
{
	return m->logscale ? log(u) : u;
}

/*
 * Widen [*lo, *hi] to the runs of ob that its value kept: those within
 * m->tau of the point's median run (pv_cp_point_value()'s rule; all of
 * them with fewer than 3 runs).  A rejected outlier run is cut at the
 * frame, not made the scale.
 */
static void kept_runs_range(const struct pv_hist_metric *m,
			    const struct pv_hist_obs *ob, double *lo,
			    double *hi)
{
	double *x, med;

	if (!ob->n)
		return;
	ALLOC_ARRAY(x, ob->n);
	for (size_t r = 0; r < ob->n; r++)
		x[r] = run_scale(m, m->runs[ob->off + r]);
	qsort(x, ob->n, sizeof(*x), cmp_double);
	med = ob->n % 2 ? x[ob->n / 2] : (x[ob->n / 2 - 1] + x[ob->n / 2]) / 2;
	for (size_t r = 0; r < ob->n; r++) {
		double u = m->runs[ob->off + r];

		if (ob->n >= 3 && !(fabs(run_scale(m, u) - med) <= m->tau))
			continue;
		if (u < *lo) *lo = u;
		if (u > *hi) *hi = u;
	}
	free(x);
}

/*
 * The watch (the newest points' move, unconfirmed): a dotted line before
 * the newest points, the level they left (when no change point drew it)
 * and theirs, dashed in amber.
 */
static void watch_marks(struct strbuf *sb, const struct pv_history *h,
			const struct pv_hist_metric *m, double lo, double hi)
{
	static const char style[] =
		"stroke=\"#b45309\" stroke-width=\"2\" stroke-dasharray=\"5 3\"";
	size_t k = m->watch.k, first = m->nobs - k;
	size_t from = m->ncp ? m->cp[m->ncp - 1].s.index : 0;
	double x0 = px(h, (double)m->obs[first].point);
	double x1 = px(h, (double)m->obs[m->nobs - 1].point);
	double gap = first ? (x0 - px(h, (double)m->obs[first - 1].point)) / 2 : 6;

	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#b45309\" stroke-dasharray=\"2 3\"><title>watch: ",
		    x0 - gap, (double)PAD_T, x0 - gap, H - PAD_B);
	{
		struct strbuf t = STRBUF_INIT;

		pv_hist_name(&t, m);
		strbuf_addch(&t, ':');
		pv_hist_watch_tail(&t, m, 0, pv_hist_put_plain);
		esc(sb, t.buf);
		strbuf_release(&t);
	}
	strbuf_addstr(sb, "</title></line>\n");
	if (!m->ncp && first > from)
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"level\"/>\n",
			    px(h, (double)m->obs[from].point),
			    py(m->watch_before, lo, hi),
			    px(h, (double)m->obs[first - 1].point),
			    py(m->watch_before, lo, hi));
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n",
		    k > 1 ? x0 : x0 - 6, py(m->watch_after, lo, hi),
		    k > 1 ? x1 : x1 + 6, py(m->watch_after, lo, hi), style);
}

static void chart(struct strbuf *sb, const struct pv_history *h,
		  const struct pv_hist_metric *m)
{
	double lo = INFINITY, hi = -INFINITY;
	struct strbuf t = STRBUF_INIT;

	/* the scale fits the values and the ranges of the runs they kept,
	 * so that no ordinary range is cut at the frame */
	for (size_t j = 0; j < m->nobs; j++) {
		double v = pv_hist_drawn(m, j);

		if (v < lo) lo = v;
		if (v > hi) hi = v;
		kept_runs_range(m, &m->obs[j], &lo, &hi);
	}
	if (!(hi > lo)) {
		lo -= 1;
		hi += 1;
	}
	{
		double pad = 0.05 * (hi - lo);

		lo -= pad;
		hi += pad;
	}
	strbuf_addf(sb, "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\">\n",
		    W, H, W, H);
	strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n",
		    PAD_L, PAD_T, W - PAD_L - PAD_R, H - PAD_T - PAD_B);
	/* axis labels: the range, the first and last points */
	strbuf_reset(&t);
	pv_fmt_num(&t, hi);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"ax\" text-anchor=\"end\">%s</text>\n",
		    PAD_L - 4, PAD_T + 10, t.buf);
	strbuf_reset(&t);
	pv_fmt_num(&t, lo);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"ax\" text-anchor=\"end\">%s</text>\n",
		    PAD_L - 4, H - PAD_B, t.buf);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" class=\"ax\">", PAD_L, H - 8);
	pv_hist_put_label(sb, h, 0, esc);
	strbuf_addf(sb, "</text>\n<text x=\"%.1f\" y=\"%.1f\" class=\"ax\" text-anchor=\"end\">",
		    W - PAD_R, H - 8);
	pv_hist_put_label(sb, h, h->np - 1, esc);
	strbuf_addstr(sb, "</text>\n");
	/* change points */
	for (size_t c = 0; c < m->ncp; c++) {
		const struct pv_hist_cp *cp = &m->cp[c];
		double x = px(h, (double)cp->point - 0.5);

		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"cp %s\"><title>",
			    x, PAD_T, x, H - PAD_B,
			    cp->verdict == PV_HS_REGRESSION ? "bad" :
			    cp->verdict == PV_HS_IMPROVEMENT ? "good" : "");
		strbuf_reset(&t);
		pv_hist_cp_line(&t, h, m, cp, pv_hist_put_plain);
		esc(sb, t.buf);
		strbuf_addstr(sb, "</title></line>\n");
	}
	/* levels */
	for (size_t c = 0; c <= m->ncp; c++) {
		size_t a = c ? m->cp[c - 1].s.index : 0;
		size_t b = c < m->ncp ? m->cp[c].s.index : m->nobs;
		double lv = c ? m->cp[c - 1].after : m->ncp ? m->cp[0].before : NAN;

		if (!isfinite(lv) || b <= a)
			continue;
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"level\"/>\n",
			    px(h, (double)m->obs[a].point), py(lv, lo, hi),
			    px(h, (double)m->obs[b - 1].point), py(lv, lo, hi));
	}
	if (m->watched)
		watch_marks(sb, h, m, lo, hi);
	/* points: the value the test sees, the range of the runs */
	for (size_t j = 0; j < m->nobs; j++) {
		const struct pv_hist_obs *ob = &m->obs[j];
		double x = px(h, ob->point), v = pv_hist_drawn(m, j);
		double rlo = INFINITY, rhi = -INFINITY;

		for (size_t r = 0; r < ob->n; r++) {
			double u = m->runs[ob->off + r];

			if (u < rlo) rlo = u;
			if (u > rhi) rhi = u;
		}
		if (ob->n > 1 && rhi > rlo)
			strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"sd\"/>\n",
				    x, clampy(py(rhi, lo, hi)), x,
				    clampy(py(rlo, lo, hi)));
		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"pt\"><title>",
			    x, py(v, lo, hi));
		pv_hist_put_label(sb, h, ob->point, esc);
		strbuf_reset(&t);
		strbuf_addstr(&t, ": ");
		pv_fmt_num(&t, v);
		strbuf_addf(&t, " (n=%u, runs ", ob->n);
		pv_fmt_num(&t, rlo);
		strbuf_addstr(&t, " to ");
		pv_fmt_num(&t, rhi);
		strbuf_addstr(&t, ")");
		esc(sb, t.buf);
		strbuf_addstr(sb, "</title></circle>\n");
	}
	strbuf_addstr(sb, "</svg>\n");
	strbuf_release(&t);
}

/* The section of metric m: its change points, watch and trend, and with
 * draw its chart. */
static void section(struct strbuf *sb, const struct pv_history *h,
		    const struct pv_hist_metric *m, const struct strbuf *tr,
		    int trend, size_t first_recent, int draw)
{
	struct strbuf name = STRBUF_INIT;

	pv_hist_name(&name, m);
	strbuf_addstr(sb, "<h2>");
	esc(sb, name.buf);
	if (m->unit && *m->unit) {
		strbuf_addstr(sb, " (");
		esc(sb, m->unit);
		strbuf_addstr(sb, ")");
	}
	strbuf_addstr(sb, "</h2>\n<ul>\n");
	strbuf_release(&name);
	for (size_t j = 0; j < m->ncp; j++) {
		struct strbuf line = STRBUF_INIT;

		pv_hist_cp_line(&line, h, m, &m->cp[j], pv_hist_put_plain);
		strbuf_addstr(sb, "<li>");
		if (m->cp[j].point >= first_recent)
			strbuf_addstr(sb, "<strong>recent</strong>: ");
		esc(sb, line.buf);
		if (m->cp[j].s.candidate)
			strbuf_addstr(sb, ", at a commit where other "
				      "metrics stepped too");
		strbuf_addstr(sb, "</li>\n");
		strbuf_release(&line);
	}
	if (m->watched) {
		struct strbuf line = STRBUF_INIT;

		pv_hist_name(&line, m);
		strbuf_addch(&line, ':');
		pv_hist_watch_tail(&line, m, 0, pv_hist_put_plain);
		strbuf_addstr(sb, "<li><strong>watch</strong>: ");
		esc(sb, line.buf);
		strbuf_addstr(sb, "</li>\n");
		strbuf_release(&line);
	}
	if (trend) {
		strbuf_addstr(sb, "<li>trend: ");
		esc(sb, tr->buf);
		strbuf_addstr(sb, "</li>\n");
	}
	strbuf_addstr(sb, "</ul>\n");
	if (draw)
		chart(sb, h, m);
}

/* What the page left out, as a note naming the JSON report. */
static void left_out(struct strbuf *sb, const struct budget *b)
{
	if (!b->unlisted && !b->uncharted)
		return;
	strbuf_addstr(sb, "<p class=\"note\">So that this page opens quickly, ");
	if (b->uncharted)
		strbuf_addf(sb, "%zu metric%s listed above %s no chart (at most %d charts, the failing metrics first)",
			    b->uncharted, b->uncharted == 1 ? "" : "s",
			    b->uncharted == 1 ? "has" : "have", HIST_CHARTS);
	if (b->uncharted && b->unlisted)
		strbuf_addstr(sb, ", and ");
	if (b->unlisted)
		strbuf_addf(sb, "%zu more metric%s with a change point, a trend or a watch %s not listed (at most %d)",
			    b->unlisted, b->unlisted == 1 ? "" : "s",
			    b->unlisted == 1 ? "is" : "are", HIST_SECTIONS);
	strbuf_addstr(sb, "; the JSON report (<code>--json</code>) has every metric.</p>\n");
}

int pv_write_history_html(const struct pv_history *h,
			  const struct pv_write_opts *o, FILE *fp,
			  struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t first_recent = h->np > h->recent ? h->np - h->recent : 0;
	struct budget b = { 0 };
	int rc = 0;

	pv_html_head(&sb, "perfverdict history", NULL);
	strbuf_addf(&sb, "<h1>perfverdict history: <span class=\"%s\">%s</span></h1>\n",
		    h->fail ? "fail" : "pass", h->fail ? "FAIL" : "pass");
	strbuf_addf(&sb, "<p>%zu points (", h->np);
	pv_hist_put_label(&sb, h, 0, esc);
	strbuf_addstr(&sb, " to ");
	pv_hist_put_label(&sb, h, h->np - 1, esc);
	strbuf_addf(&sb, "), %zu metrics; the newest %zu points are recent.</p>\n",
		    h->nm, h->recent);
	if (h->shared.applied) {
		strbuf_addstr(&sb, "<p>The values are taken less a machine effect that every metric of a point shared (");
		pv_history_shared_size(h, &sb);
		pv_hist_put_label(&sb, h, h->shared_top, esc);
		strbuf_addstr(&sb, ").</p>\n");
	}
	strbuf_addstr(&sb, "<table>\n<tr><th>status at the newest point</th><th>metrics</th></tr>\n");
	for (int s = 0; s < PV_HS_COUNT; s++)
		if (h->count[s])
			strbuf_addf(&sb, "<tr><td>%s</td><td>%zu</td></tr>\n",
				    pv_hist_status_name((enum pv_hist_status)s),
				    h->count[s]);
	strbuf_addstr(&sb, "</table>\n");
	b.charts = HIST_CHARTS;
	b.sections = HIST_SECTIONS;
	/* the metrics that fail the gate first, then the others */
	for (size_t k = 0; k < 2 * h->nm; k++) {
		const struct pv_hist_metric *m = &h->m[k % h->nm];
		struct strbuf tr = STRBUF_INIT;
		int trend;

		if ((m->status == PV_HS_REGRESSION) != (k < h->nm))
			continue;
		trend = pv_hist_trend(&tr, m, 0);
		if (!m->ncp && !trend && !m->watched) {
			strbuf_release(&tr);
			continue;
		}
		if (!b.sections) {
			b.unlisted++;
		} else {
			int draw = b.charts > 0;

			b.charts -= draw;
			b.sections--;
			b.uncharted += !draw;
			section(&sb, h, m, &tr, trend, first_recent, draw);
		}
		strbuf_release(&tr);
	}
	left_out(&sb, &b);
	strbuf_addstr(&sb, "<p>Each dot is a point's value as the test sees it (the robust mean of its runs), its line the range of its runs; the solid lines are the fitted levels, the dashed ones the change points (red: regression, green: improvement); amber marks the newest points' move that no change point confirms yet (watch).</p>\n</body>\n</html>\n");
	errno = 0;
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = pv_write_failed(o, errno, err);
	strbuf_release(&sb);
	return rc;
}

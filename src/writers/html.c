/*
 * html.c - the report model as one self-contained HTML page.
 *
 *   header     the verdict, what was compared with what, the counts
 *   environment the context keys whose values differ
 *   figures    one per regression and improvement, worst first, up to
 *              HTML_FIGURES: both sides' samples as points with their
 *              means (left), and the change with its confidence interval
 *              against the threshold band (right), in inline SVG
 *   table      the first HTML_ROWS metrics in rank order; a few lines of
 *              inline script sort it by a column, and without script it
 *              reads in rank order
 *   rest       past HTML_ROWS, one short line per metric that needs
 *              attention, up to HTML_LINES; then what was left out, by
 *              verdict, and that the JSON report has every metric
 *   footer     the settings
 *
 * The limits keep a page of 100,000 metrics a few MB that a browser
 * opens in seconds (75655ec wrote 41 MB there, every metric a sortable
 * row and every change a figure, and chromium took over a minute), as
 * the Markdown fits its limit and says what it left out.
 *
 * Nothing is loaded from anywhere: the CSS, the SVG and the script are
 * inline, no font, image or link points outside the page, and a
 * Content-Security-Policy of default-src 'none' says so to the browser;
 * it allows the one script by its sha256 hash, so that text an escaping
 * bug let through could not run.  The page head and the stylesheet are
 * history's page's too (pv_html_head()).
 * Every foreign string is cleaned (pv_text_clean) and HTML-escaped.
 */
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"
#include "../policy.h"
#include "../util/sha256.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/banned.h"

#define NAME_CHARS 200
#define HTML_FIGURES 100        /* figures drawn, worst first */
#define HTML_ROWS 2000          /* rows of the sortable table */
#define HTML_LINES 10000        /* short lines after it */
#define FIG_W 720               /* one figure, in SVG user units */
#define FIG_H 104
#define PANEL_L 90              /* the samples panel: x from here ... */
#define PANEL_R 440             /* ... to here */
#define CHG_L 480               /* the change panel */
#define CHG_R 700

static const char *str(const char *s)
{
	return s ? s : "";
}

void pv_html_text(struct strbuf *sb, const char *s, size_t maxchars)
{
	struct strbuf t = STRBUF_INIT;

	s = str(s);
	pv_text_clean(&t, s, strlen(s));
	for (size_t i = 0, chars = 0; i < t.len; i++) {
		char c = t.buf[i];

		if (((unsigned char)c & 0xc0) != 0x80 && maxchars &&
		    chars++ == maxchars) {
			strbuf_addstr(sb, "\xe2\x80\xa6");
			break;
		}
		switch (c) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		case '\t': case '\n': case '\r': strbuf_addch(sb, ' '); break;
		default: strbuf_addch(sb, c); break;
		}
	}
	strbuf_release(&t);
}

/* Foreign text as HTML text or attribute value. */
static void esc(struct strbuf *sb, const char *s)
{
	pv_html_text(sb, s, NAME_CHARS);
}

/* Our own text that may hold '<' or '&' (formatted numbers do not,
 * units do): escaped like foreign text. */
static void esc_unit(struct strbuf *sb, const char *s)
{
	esc(sb, s);
}

/* The one stylesheet of both HTML reports (compare's and history's):
 * one palette, the chart classes of both. */
static const char style[] =
	"<style>\n"
	":root{--fail:#b42318;--pass:#067647;--warn:#b54708;--muted:#667085;"
	"--line:#d0d5dd;--band:#eaecf0}\n"
	"body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,"
	"\"Liberation Sans\",Arial,sans-serif;color:#101828;margin:0 auto;"
	"max-width:1100px;padding:16px 24px}\n"
	"h1{font-size:22px;margin:8px 0}h1.fail{color:var(--fail)}"
	"h1.pass{color:var(--pass)}\n"
	"h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);"
	"padding-bottom:4px}\n"
	".muted{color:var(--muted)}.counts span{margin-right:14px}\n"
	".fail{color:var(--fail)}.pass{color:var(--pass)}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
	"th,td{border-bottom:1px solid var(--line);padding:4px 8px;"
	"text-align:left;vertical-align:top}\n"
	"td.n,th.n{text-align:right;white-space:nowrap}\n"
	"th{background:#f9fafb;position:sticky;top:0}\n"
	"th button{font:inherit;font-weight:600;border:0;background:none;"
	"padding:0;cursor:pointer;color:inherit}\n"
	"tr.regression td.v{color:var(--fail);font-weight:600}"
	"tr.improvement td.v{color:var(--pass);font-weight:600}"
	"tr.missing td.v,tr.inconclusive td.v,tr.noisy td.v{color:var(--warn)}\n"
	"figure{margin:12px 0 18px;padding:8px 10px;border:1px solid var(--line);"
	"border-radius:6px}\n"
	"figcaption{margin-bottom:4px}figcaption b.regression{color:var(--fail)}"
	"figcaption b.improvement{color:var(--pass)}\n"
	"svg{display:block;width:100%;max-width:720px;height:auto}\n"
	"svg text{font:11px system-ui,\"Liberation Sans\",Arial,sans-serif;"
	"fill:#344054}\n"
	".legend{font-size:13px}\n"
	".frame{fill:#f9fafb;stroke:var(--line)}.ax{font-size:10px;fill:var(--muted)}\n"
	".pt{fill:#2b6cb0}.sd{stroke:#90b4e0;stroke-width:2}"
	".level{stroke:#344054;stroke-width:1.5}\n"
	".cp{stroke:var(--muted);stroke-dasharray:4 3}.cp.bad{stroke:var(--fail)}"
	".cp.good{stroke:var(--pass)}\n"
	"footer{margin-top:28px;font-size:12px;color:var(--muted)}\n"
	"</style>\n";

void pv_html_head(struct strbuf *sb, const char *title, const char *script)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "style-src 'unsafe-inline'");
	if (script) {
		strbuf_addstr(sb, "; script-src 'sha256-");
		pv_sha256_base64(sb, script, strlen(script));
		strbuf_addch(sb, '\'');
	}
	strbuf_addstr(sb, "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	pv_html_text(sb, title, 0);
	strbuf_addstr(sb, "</title>\n");
	strbuf_addstr(sb, style);
	strbuf_addstr(sb, "</head>\n<body>\n");
}

void pv_html_script(struct strbuf *sb, const char *script)
{
	strbuf_addstr(sb, "<script>");
	strbuf_addstr(sb, script);
	strbuf_addstr(sb, "</script>\n");
}

/* The sort: click a header, the rows reorder by that column's data-s
 * (numbers) or text; a second click reverses.  Without script the
 * table stays in rank order.  The page's only script: the
 * Content-Security-Policy allows it by its hash, and nothing else. */
static const char script[] =
	"\n(function(){var t=document.getElementById('all');if(!t)return;"
	"var h=t.tHead.rows[0].cells,b=t.tBodies[0];"
	"Array.prototype.forEach.call(h,function(th,c){"
	"var btn=document.createElement('button');btn.type='button';"
	"btn.textContent=th.textContent;th.textContent='';th.appendChild(btn);"
	"btn.addEventListener('click',function(){"
	"var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;"
	"Array.prototype.forEach.call(h,function(x){x.removeAttribute('aria-sort');});"
	"th.setAttribute('aria-sort',dir>0?'ascending':'descending');"
	"var rows=Array.prototype.slice.call(b.rows);"
	"rows.sort(function(x,y){var a=x.cells[c],z=y.cells[c];"
	"var p=a.getAttribute('data-s'),q=z.getAttribute('data-s');"
	"if(p!==null&&q!==null){p=parseFloat(p);q=parseFloat(q);"
	"if(isNaN(p))return 1;if(isNaN(q))return -1;return dir*(p-q);}"
	"return dir*a.textContent.localeCompare(z.textContent);});"
	"rows.forEach(function(r){b.appendChild(r);});});});})();\n";

struct page {
	const struct pv_report *r;
	struct strbuf *sb;
	int multi_suite, multi_test;
	FILE *fp;
	int failed;             /* the errno of a failed write, or 0 */
};

/* Write out what is buffered once it passes 1 MiB. */
static void maybe_flush(struct page *p)
{
	if (p->sb->len < (1u << 20))
		return;
	errno = 0;
	if (!p->failed && fwrite(p->sb->buf, 1, p->sb->len, p->fp) != p->sb->len)
		p->failed = errno ? errno : EIO;
	strbuf_reset(p->sb);
}

/* "group benchmark" and (with_metric) "metric", with the suite and
 * test when they vary; empty parts left out. */
static void name_words(const struct page *p, struct strbuf *sb,
		       const struct pv_result *m, int with_metric)
{
	const char *part[5];
	size_t n = 0;

	if (p->multi_suite)
		part[n++] = m->suite;
	if (p->multi_test)
		part[n++] = m->test;
	part[n++] = m->group;
	part[n++] = m->benchmark;
	if (with_metric)
		part[n++] = m->metric;
	for (size_t i = 0, first = 1; i < n; i++) {
		if (!part[i] || !*part[i])
			continue;
		if (!first)
			strbuf_addch(sb, ' ');
		first = 0;
		esc(sb, part[i]);
	}
}

/* A number for an SVG coordinate: fixed, one decimal. */
static void coord(struct strbuf *sb, double v)
{
	strbuf_addfixed(sb, v, 1, 0);
}

/* x in [lo, hi] onto [x0, x1]. */
static double xmap(double v, double lo, double hi, double x0, double x1)
{
	return hi > lo ? x0 + (v - lo) / (hi - lo) * (x1 - x0) : (x0 + x1) / 2;
}

/* ' name="v"', v a coordinate. */
static void coord_attr(struct strbuf *sb, const char *name, double v)
{
	strbuf_addf(sb, " %s=\"", name);
	coord(sb, v);
	strbuf_addch(sb, '"');
}

static void svg_text(struct strbuf *sb, double x, double y,
		     const char *anchor, const char *text)
{
	strbuf_addstr(sb, "<text");
	coord_attr(sb, "x", x);
	coord_attr(sb, "y", y);
	strbuf_addf(sb, " text-anchor=\"%s\">", anchor);
	strbuf_addstr(sb, text);
	strbuf_addstr(sb, "</text>");
}

static void svg_line(struct strbuf *sb, double x1, double y1, double x2,
		     double y2, const char *stroke, double width)
{
	strbuf_addstr(sb, "<line");
	coord_attr(sb, "x1", x1);
	coord_attr(sb, "y1", y1);
	coord_attr(sb, "x2", x2);
	coord_attr(sb, "y2", y2);
	strbuf_addf(sb, " stroke=\"%s\"", stroke);
	coord_attr(sb, "stroke-width", width);
	strbuf_addstr(sb, "/>");
}

static void svg_rect(struct strbuf *sb, double x, double y, double w,
		     double h, const char *fill)
{
	strbuf_addstr(sb, "<rect");
	coord_attr(sb, "x", x);
	coord_attr(sb, "y", y);
	coord_attr(sb, "width", w > 0 ? w : 0);
	coord_attr(sb, "height", h);
	strbuf_addf(sb, " fill=\"%s\"/>", fill);
}

/* The samples (or a summary's mean ± sd) of both sides on one axis. */
static void samples_panel(struct strbuf *sb, const struct pv_result *m)
{
	static const char *const name[2] = { "baseline", "candidate" };
	static const char *const fill[2] = { "#667085", "#1570ef" };
	double lo = INFINITY, hi = -INFINITY;
	struct pv_scale sc;
	struct strbuf t = STRBUF_INIT;

	for (int k = 0; k < 2; k++) {
		const struct pv_side_result *s = &m->side[k];

		for (uint32_t i = 0; i < s->nsamples; i++) {
			if (!isfinite(s->samples[i]))
				continue;
			lo = fmin(lo, s->samples[i]);
			hi = fmax(hi, s->samples[i]);
		}
		if (s->summary_only && isfinite(s->s.mean)) {
			double sd = isfinite(s->s.sd) ? s->s.sd : 0;

			lo = fmin(lo, s->s.mean - sd);
			hi = fmax(hi, s->s.mean + sd);
		}
		if (isfinite(s->s.mean)) {
			lo = fmin(lo, s->s.mean);
			hi = fmax(hi, s->s.mean);
		}
	}
	if (!isfinite(lo) || !isfinite(hi))
		return;
	if (hi == lo) {
		double d = lo ? fabs(lo) * 0.01 : 1;

		lo -= d, hi += d;
	} else {
		double d = (hi - lo) * 0.06;

		lo -= d, hi += d;
	}
	pv_scale_pick(&sc, m->unit, m->side[0].s.mean);
	/* the axis: its ends in human units */
	svg_line(sb, PANEL_L, 80, PANEL_R, 80, "#98a2b3", 1);
	pv_fmt_scaled(&t, lo, &sc);
	svg_text(sb, PANEL_L, 96, "start", t.buf);
	strbuf_reset(&t);
	pv_fmt_scaled(&t, hi, &sc);
	pv_fmt_scale_unit(&t, &sc, m->unit, esc_unit);
	svg_text(sb, PANEL_R, 96, "end", t.buf);
	for (int k = 0; k < 2; k++) {
		const struct pv_side_result *s = &m->side[k];
		double y = 28 + 30 * k;

		svg_text(sb, PANEL_L - 8, y + 4, "end", name[k]);
		for (uint32_t i = 0; i < s->nsamples; i++) {
			if (!isfinite(s->samples[i]))
				continue;
			strbuf_addstr(sb, "<circle");
			coord_attr(sb, "cx", xmap(s->samples[i], lo, hi,
						  PANEL_L, PANEL_R));
			coord_attr(sb, "cy", y);
			strbuf_addf(sb, " r=\"3.5\" fill=\"%s\" fill-opacity=\"0.55\"/>",
				    fill[k]);
		}
		if (s->summary_only && isfinite(s->s.mean) &&
		    isfinite(s->s.sd)) {
			double a = xmap(s->s.mean - s->s.sd, lo, hi, PANEL_L, PANEL_R);
			double b = xmap(s->s.mean + s->s.sd, lo, hi, PANEL_L, PANEL_R);

			svg_line(sb, a, y, b, y, fill[k], 3);
		}
		if (isfinite(s->s.mean)) {
			double x = xmap(s->s.mean, lo, hi, PANEL_L, PANEL_R);

			svg_line(sb, x, y - 10, x, y + 10, "#101828", 2);
		}
	}
	strbuf_release(&t);
}

/* The change and its interval against the threshold band. */
static void change_panel(struct strbuf *sb, const struct pv_result *m,
			 const char *colour)
{
	double thr = isfinite(m->threshold) ? m->threshold : 0;
	double lo = -thr, hi = thr, rel = m->change_rel;
	struct strbuf t = STRBUF_INIT;
	double y = 43;

	if (!isfinite(rel))
		return;
	lo = fmin(lo, rel);
	hi = fmax(hi, rel);
	if (isfinite(m->ci_low))
		lo = fmin(lo, m->ci_low);
	if (isfinite(m->ci_high))
		hi = fmax(hi, m->ci_high);
	lo = fmin(lo, 0);
	hi = fmax(hi, 0);
	{
		double d = (hi - lo) * 0.1;

		if (d == 0)
			d = 0.01;
		lo -= d, hi += d;
	}
	/* the band where a change does not count */
	if (thr > 0)
		svg_rect(sb, xmap(-thr, lo, hi, CHG_L, CHG_R), 18,
			 xmap(thr, lo, hi, CHG_L, CHG_R) -
			 xmap(-thr, lo, hi, CHG_L, CHG_R), 50, "#eaecf0");
	svg_line(sb, xmap(0, lo, hi, CHG_L, CHG_R), 14,
		 xmap(0, lo, hi, CHG_L, CHG_R), 72, "#98a2b3", 1);
	svg_line(sb, CHG_L, 80, CHG_R, 80, "#98a2b3", 1);
	if (thr > 0) {
		pv_fmt_pct(&t, -thr);
		svg_text(sb, xmap(-thr, lo, hi, CHG_L, CHG_R), 96, "middle", t.buf);
		strbuf_reset(&t);
		pv_fmt_pct(&t, thr);
		svg_text(sb, xmap(thr, lo, hi, CHG_L, CHG_R), 96, "middle", t.buf);
		strbuf_reset(&t);
	}
	svg_text(sb, xmap(0, lo, hi, CHG_L, CHG_R), 96, "middle", "0");
	if (isfinite(m->ci_low) && isfinite(m->ci_high))
		svg_line(sb, xmap(m->ci_low, lo, hi, CHG_L, CHG_R), y,
			 xmap(m->ci_high, lo, hi, CHG_L, CHG_R), y, colour, 4);
	strbuf_addstr(sb, "<circle");
	coord_attr(sb, "cx", xmap(rel, lo, hi, CHG_L, CHG_R));
	coord_attr(sb, "cy", y);
	strbuf_addf(sb, " r=\"5\" fill=\"%s\"/>", colour);
	pv_fmt_pct(&t, rel);
	svg_text(sb, xmap(rel, lo, hi, CHG_L, CHG_R), y - 12, "middle", t.buf);
	svg_text(sb, (CHG_L + CHG_R) / 2.0, 12, "middle",
		 "change, interval, threshold band");
	strbuf_release(&t);
}

static void figure(struct page *p, const struct pv_result *m)
{
	struct strbuf *sb = p->sb;
	int reg = m->verdict == PV_V_REGRESSION;
	const char *colour = reg ? "#d92d20" : "#079455";

	strbuf_addf(sb, "<figure class=\"%s\"><figcaption><b class=\"%s\">%s</b> ",
		    pv_verdict_name(m->verdict), pv_verdict_name(m->verdict),
		    reg ? "regression" : "improvement");
	name_words(p, sb, m, 1);
	strbuf_addstr(sb, ": ");
	pv_fmt_move(sb, m, esc_unit);
	if (isfinite(m->ci_low) && isfinite(m->ci_high)) {
		strbuf_addstr(sb, ", interval ");
		pv_fmt_interval(sb, m);
	}
	if (m->tested && isfinite(m->q)) {
		strbuf_addstr(sb, ", q=");
		pv_fmt_p(sb, m->q);
	}
	strbuf_addstr(sb, "</figcaption>\n");
	strbuf_addf(sb, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		    FIG_W, FIG_H);
	name_words(p, sb, m, 1);
	strbuf_addstr(sb, "\">");
	samples_panel(sb, m);
	change_panel(sb, m, colour);
	strbuf_addstr(sb, "</svg></figure>\n");
}

/* A numeric cell with its sort key. */
static void num_cell(struct strbuf *sb, double key, const char *text)
{
	strbuf_addstr(sb, "<td class=\"n\" data-s=\"");
	if (isfinite(key))
		strbuf_addnum(sb, "%.17g", key);
	else
		strbuf_addstr(sb, "NaN");
	strbuf_addf(sb, "\">%s</td>", text);
}

static void table(struct page *p, const size_t *rank)
{
	const struct pv_report *r = p->r;
	struct strbuf *sb = p->sb, t = STRBUF_INIT;
	size_t rows = r->n < HTML_ROWS ? r->n : HTML_ROWS;

	if (rows < r->n)
		strbuf_addf(sb, "<h2 id=\"metrics\">The first %zu of %zu metrics</h2>\n",
			    rows, r->n);
	else
		strbuf_addf(sb, "<h2 id=\"metrics\">All %zu metrics</h2>\n", r->n);
	strbuf_addstr(sb, "<p class=\"muted legend\">Ranked by what needs attention first; click a column to sort. "
		      "Change and interval are relative to the baseline mean.</p>\n");
	strbuf_addstr(sb, "<table id=\"all\"><thead><tr><th>Verdict</th><th>Benchmark</th>"
		      "<th>Metric</th><th class=\"n\">Baseline</th><th class=\"n\">Candidate</th>"
		      "<th class=\"n\">Change</th><th class=\"n\">Interval</th>"
		      "<th class=\"n\">q</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < rows; k++) {
		const struct pv_result *m = &r->m[rank[k]];
		const char *word = pv_fmt_better_word(m);
		struct pv_scale sc;

		strbuf_addf(sb, "<tr class=\"%s\"><td class=\"v\" data-s=\"%d\">%s",
			    pv_verdict_name(m->verdict),
			    pv_verdict_severity(m->verdict),
			    pv_verdict_name(m->verdict));
		if (word && m->verdict != PV_V_REGRESSION &&
		    m->verdict != PV_V_IMPROVEMENT && m->verdict != PV_V_UNCHANGED)
			strbuf_addf(sb, ", %s", word);
		strbuf_addstr(sb, "</td><td>");
		name_words(p, sb, m, 0);
		strbuf_addstr(sb, "</td><td>");
		esc(sb, m->metric);
		strbuf_addstr(sb, "</td>");
		pv_scale_pick(&sc, m->unit, m->side[0].s.n ? m->side[0].s.mean :
			      m->side[1].s.mean);
		for (int s = 0; s < 2; s++) {
			strbuf_reset(&t);
			if (m->side[s].present && m->side[s].s.n) {
				pv_fmt_scaled(&t, m->side[s].s.mean, &sc);
				pv_fmt_scale_unit(&t, &sc, m->unit, esc_unit);
			} else {
				strbuf_addstr(&t, "\xe2\x80\x94");
			}
			num_cell(sb, m->side[s].s.mean, t.buf);
		}
		strbuf_reset(&t);
		if (isfinite(m->change_rel))
			pv_fmt_pct(&t, m->change_rel);
		else
			strbuf_addstr(&t, "\xe2\x80\x94");
		num_cell(sb, m->change_rel, t.buf);
		strbuf_reset(&t);
		pv_fmt_interval(&t, m);
		num_cell(sb, m->ci_low, t.buf);
		strbuf_reset(&t);
		if (m->tested && isfinite(m->q))
			pv_fmt_p(&t, m->q);
		else
			strbuf_addstr(&t, "\xe2\x80\x94");
		num_cell(sb, m->tested ? m->q : NAN, t.buf);
		strbuf_addstr(sb, "</tr>\n");
		maybe_flush(p);
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	strbuf_release(&t);
}

static const enum pv_verdict count_order[] = {
	PV_V_REGRESSION, PV_V_MISSING, PV_V_INCONCLUSIVE, PV_V_NOISY,
	PV_V_INSUFFICIENT, PV_V_WAIVED, PV_V_IMPROVEMENT, PV_V_NEW,
	PV_V_UNGATED, PV_V_UNCHANGED,
};

/* Needs no line of its own past the table: counted by verdict only. */
static int quiet_verdict(enum pv_verdict v)
{
	return v == PV_V_UNCHANGED || v == PV_V_UNGATED;
}

/*
 * Past the table: one short line per metric that needs attention, up to
 * HTML_LINES, then the metrics in no table or list, by verdict, and
 * where all of them are.
 */
static void rest(struct page *p, const size_t *rank, const char *json_name)
{
	const struct pv_report *r = p->r;
	struct strbuf *sb = p->sb;
	size_t left[PV_V_COUNT] = { 0 }, lines = 0, unlisted = 0;

	if (r->n <= HTML_ROWS)
		return;
	strbuf_addf(sb, "<h2 id=\"rest\">The other %zu metrics</h2>\n",
		    r->n - HTML_ROWS);
	for (size_t k = HTML_ROWS; k < r->n; k++) {
		const struct pv_result *m = &r->m[rank[k]];

		if (quiet_verdict(m->verdict) || lines == HTML_LINES) {
			left[m->verdict]++;
			unlisted++;
			continue;
		}
		if (!lines++)
			strbuf_addstr(sb, "<ul class=\"rest\">\n");
		strbuf_addf(sb, "<li><b class=\"%s\">%s</b> ",
			    pv_verdict_name(m->verdict),
			    pv_verdict_name(m->verdict));
		name_words(p, sb, m, 1);
		if (isfinite(m->change_rel)) {
			strbuf_addch(sb, ' ');
			pv_fmt_pct(sb, m->change_rel);
		}
		strbuf_addstr(sb, "</li>\n");
		maybe_flush(p);
	}
	if (lines)
		strbuf_addstr(sb, "</ul>\n");
	if (!unlisted)
		return;
	strbuf_addf(sb, "<p>Not listed, to keep this page quick to open: %zu metric%s (",
		    unlisted, unlisted == 1 ? "" : "s");
	for (size_t k = 0, first = 1; k < sizeof(count_order) / sizeof(*count_order); k++) {
		size_t c = left[count_order[k]];

		if (!c)
			continue;
		strbuf_addf(sb, "%s%zu %s", first ? "" : ", ", c,
			    pv_verdict_name(count_order[k]));
		first = 0;
	}
	strbuf_addstr(sb, "); the JSON report");
	if (json_name && *json_name) {
		strbuf_addch(sb, ' ');
		esc(sb, json_name);
	}
	strbuf_addf(sb, " has all %zu.</p>\n", r->n);
}

static const char *ctx_value(const struct pv_sidemeta *s, const char *key)
{
	for (size_t i = 0; i < s->ncontext; i++)
		if (!strcmp(str(s->context[i].key), key))
			return str(s->context[i].value);
	return NULL;
}

static void environment(struct page *p)
{
	const struct pv_report *r = p->r;
	struct strbuf *sb = p->sb;
	size_t shown = 0;

	for (int k = 0; k < 2; k++) {
		const struct pv_sidemeta *s = &r->side[k];

		for (size_t i = 0; i < s->ncontext; i++) {
			const char *key = str(s->context[i].key);
			const char *bv = ctx_value(&r->side[0], key);
			const char *cv = ctx_value(&r->side[1], key);

			if ((k && bv) || ctx_value(s, key) != str(s->context[i].value) ||
			    (bv && cv && !strcmp(bv, cv)))
				continue;
			if (!shown++)
				strbuf_addstr(sb, "<h2 id=\"environment\">Environment differences</h2>\n"
					      "<table><thead><tr><th>Key</th><th>Baseline</th>"
					      "<th>Candidate</th></tr></thead><tbody>\n");
			strbuf_addstr(sb, "<tr><td>");
			esc(sb, key);
			strbuf_addstr(sb, "</td><td>");
			esc(sb, bv ? bv : "\xe2\x80\x94");
			strbuf_addstr(sb, "</td><td>");
			esc(sb, cv ? cv : "\xe2\x80\x94");
			strbuf_addstr(sb, "</td></tr>\n");
		}
	}
	if (shown)
		strbuf_addstr(sb, "</tbody></table>\n");
}


static void header(struct page *p)
{
	const struct pv_report *r = p->r;
	struct strbuf *sb = p->sb;

	strbuf_addf(sb, "<header>\n<h1 class=\"%s\">%s</h1>\n",
		    r->fail ? "fail" : "pass",
		    r->fail ? "\xe2\x9c\x97 Performance gate failed" :
		    "\xe2\x9c\x93 Performance gate passed");
	strbuf_addstr(sb, "<p>Comparing");
	for (int k = 1; k >= 0; k--) {
		const struct pv_sidemeta *s = &r->side[k];
		char buf[16];
		const char *l = pv_fmt_label(r->label[k], buf, sizeof(buf));

		strbuf_addstr(sb, k ? " candidate " : " with baseline ");
		if (l) {
			strbuf_addstr(sb, "<b>");
			esc(sb, l);
			strbuf_addstr(sb, "</b> ");
		}
		strbuf_addstr(sb, "<span class=\"muted\">(");
		esc(sb, s->path ? s->path : (k ? "candidate" : "baseline"));
		{
			struct strbuf n = STRBUF_INIT;

			strbuf_addstr(sb, ", ");
			esc(sb, pv_side_count(r, k, &n));
			strbuf_addstr(sb, ")</span>");
			strbuf_release(&n);
		}
	}
	strbuf_addstr(sb, ".</p>\n<p class=\"counts\">");
	for (size_t k = 0; k < sizeof(count_order) / sizeof(*count_order); k++) {
		size_t c = r->count[count_order[k]];

		if (c)
			strbuf_addf(sb, "<span>%zu %s%s</span>", c,
				    pv_verdict_name(count_order[k]),
				    c != 1 && (count_order[k] == PV_V_REGRESSION ||
					       count_order[k] == PV_V_IMPROVEMENT) ?
				    "s" : "");
	}
	strbuf_addf(sb, "<span class=\"muted\">of %zu metrics</span></p>\n</header>\n",
		    r->n);
}

static void footer(struct page *p)
{
	const struct pv_report *r = p->r;
	const struct pv_gate *g = &r->settings.gate;
	struct strbuf *sb = p->sb;

	strbuf_addstr(sb, "<footer>perfverdict ");
	esc(sb, r->tool_version);
	strbuf_addf(sb, " \xc2\xb7 test %s \xc2\xb7 %s-sided \xc2\xb7 correction %s \xc2\xb7 alpha ",
		    pv_test_name(g->test), pv_sided_name(g->sided),
		    pv_correction_name(g->correction));
	pv_fmt_p(sb, g->alpha);
	strbuf_addstr(sb, " \xc2\xb7 threshold ");
	pv_fmt_threshold(sb, g->threshold);
	if (r->settings.config_path) {
		strbuf_addstr(sb, " \xc2\xb7 config ");
		esc(sb, r->settings.config_path);
	}
	if (r->generated_at) {
		strbuf_addstr(sb, " \xc2\xb7 ");
		esc(sb, r->generated_at);
	}
	strbuf_addstr(sb, "</footer>\n");
}

int pv_write_html(const struct pv_report *r, const struct pv_write_opts *o,
		  FILE *fp, struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT;
	struct page p = { r, &sb, 0, 0, fp, 0 };
	size_t *rank = pv_report_ranked(r), figs = 0;
	int rc = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(str(r->m[i].suite), str(r->m[0].suite)))
			p.multi_suite = 1;
		if (p.multi_suite || strcmp(str(r->m[i].test), str(r->m[0].test)))
			p.multi_test = 1;
		figs += r->m[i].verdict == PV_V_REGRESSION ||
			r->m[i].verdict == PV_V_IMPROVEMENT;
	}
	strbuf_addf(&title, "perfverdict: %s, %zu regression%s of %zu metrics",
		    r->fail ? "FAIL" : "PASS", r->count[PV_V_REGRESSION],
		    r->count[PV_V_REGRESSION] == 1 ? "" : "s", r->n);
	pv_html_head(&sb, title.buf, script);
	strbuf_release(&title);
	header(&p);
	environment(&p);
	if (figs) {
		strbuf_addstr(&sb, "<h2 id=\"figures\">Regressions and improvements (");
		if (figs > HTML_FIGURES)
			strbuf_addf(&sb, "the worst %d of ", HTML_FIGURES);
		strbuf_addf(&sb, "%zu)</h2>\n"
			    "<p class=\"muted legend\">Left: each run's value (points) and the mean (bar) of both sides. "
			    "Right: the change of the mean with its ", figs);
		pv_fmt_threshold(&sb, 1 - r->settings.gate.alpha);
		strbuf_addstr(&sb, " confidence interval; the grey band is &#177;threshold, where a change does not count.</p>\n");
		for (size_t k = 0, drawn = 0; k < r->n && drawn < HTML_FIGURES; k++) {
			const struct pv_result *m = &r->m[rank[k]];

			if (m->verdict == PV_V_REGRESSION ||
			    m->verdict == PV_V_IMPROVEMENT) {
				figure(&p, m);
				drawn++;
			}
			maybe_flush(&p);
		}
		if (figs > HTML_FIGURES)
			strbuf_addf(&sb, "<p class=\"muted legend\">The figures show the worst %d; the other %zu regressions and improvements are in the lists below.</p>\n",
				    HTML_FIGURES, figs - HTML_FIGURES);
	}
	table(&p, rank);
	rest(&p, rank, o ? o->json_name : NULL);
	footer(&p);
	pv_html_script(&sb, script);
	strbuf_addstr(&sb, "</body>\n</html>\n");
	free(rank);
	if (!p.failed) {
		errno = 0;
		if (fwrite(sb.buf, 1, sb.len, fp) != sb.len || fflush(fp) ||
		    ferror(fp))
			p.failed = errno ? errno : EIO;
	}
	if (p.failed)
		rc = pv_write_failed(o, p.failed, err);
	strbuf_release(&sb);
	return rc;
}

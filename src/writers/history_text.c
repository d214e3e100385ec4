/*
 * history_text.c - the terminal summary of `perfverdict history`: the
 * change points that began in the recent window (regressions first),
 * the earlier ones (each with -v, else counted), the significant trends,
 * the newest points' moves not confirmed yet ("watch"), and the closing
 * line.  Every line fits the width: a long metric name
 * is shortened in its middle, and a line still too long ends in "…".
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "history_writers.h"
#include "../util/atomic.h"
#include "../util/banned.h"

#define TEXT_RECENT 20          /* recent change points without -v */
#define TEXT_TRENDS 5           /* trends without -v */
#define MIN_NAME 16
#define SHORT_NAME 40           /* a name shorter than this is kept whole */
#define ELLIPSIS "\xe2\x80\xa6"

/* Display width in columns: code points (what we print is narrow). */
static size_t width(const char *s, size_t len)
{
	size_t w = 0;

	for (size_t i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* The byte offset of the code point that starts column col of s. */
static size_t offset_of(const char *s, size_t len, size_t col)
{
	size_t i = 0, w = 0;

	while (i < len && w < col) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		w++;
	}
	return i;
}

/* s cut to at most max columns: its start and end, "…" between. */
static void shorten(struct strbuf *out, const char *s, size_t max)
{
	size_t len = strlen(s), w = width(s, len), head, tail;

	if (w <= max) {
		strbuf_addstr(out, s);
		return;
	}
	if (!max)
		return;
	head = (max - 1) / 2;
	tail = max - 1 - head;
	strbuf_add(out, s, offset_of(s, len, head));
	strbuf_addstr(out, ELLIPSIS);
	strbuf_addstr(out, s + offset_of(s, len, w - tail));
}

/* prefix, name, tail as one line of at most w columns. */
static void line(struct strbuf *sb, const char *prefix, const char *name,
		 const char *tail, size_t w)
{
	size_t rest = strlen(prefix) + width(tail, strlen(tail));
	size_t from = sb->len, lw;

	strbuf_addstr(sb, prefix);
	shorten(sb, name, w > rest + MIN_NAME ? w - rest : MIN_NAME);
	strbuf_addstr(sb, tail);
	lw = width(sb->buf + from, sb->len - from);
	if (lw > w) {
		strbuf_setlen(sb, from + offset_of(sb->buf + from,
						   sb->len - from, w - 1));
		strbuf_addstr(sb, ELLIPSIS);
	}
	strbuf_addch(sb, '\n');
}

static void cp_line(struct strbuf *sb, const struct pv_history *h,
		    const struct pv_hist_metric *m, const struct pv_hist_cp *c,
		    const char *prefix, size_t w)
{
	struct strbuf name = STRBUF_INIT, tail = STRBUF_INIT;

	pv_hist_name(&name, m);
	pv_hist_cp_tail(&tail, h, m, c, pv_hist_put_plain);
	strbuf_addf(&tail, "; %s", pv_hist_cp_word(c));
	if (strlen(prefix) + width(tail.buf, tail.len) +
	    (name.len < SHORT_NAME ? name.len : SHORT_NAME) > w) {
		/* too long for the line: the levels and q stay in the
		 * reports, the name and the change here */
		double d = c->after - c->before;

		strbuf_reset(&tail);
		strbuf_addstr(&tail, d > 0 ? " rose " : d < 0 ? " dropped " :
				     " changed ");
		pv_hist_change(&tail, m, c, 1, pv_hist_put_plain);
		strbuf_addstr(&tail, " at ");
		pv_hist_put_label(&tail, h, c->point, pv_hist_put_plain);
		strbuf_addf(&tail, "; %s", pv_hist_cp_word(c));
	}
	line(sb, prefix, name.buf, tail.buf, w);
	strbuf_release(&name);
	strbuf_release(&tail);
}

static int failing(const struct pv_hist_cp *c)
{
	return c->fails;
}

int pv_write_history_text(const struct pv_history *h,
			  const struct pv_hist_text_opts *o, FILE *fp,
			  struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	size_t fr = h->np > h->recent ? h->np - h->recent : 0;
	size_t w = o->width ? o->width : 80;
	size_t nrecent = 0, shown = 0, nearlier = 0, mearlier = 0;
	size_t ntrend = 0, tshown = 0, nwatch = 0, wshown = 0;
	int rc = 0;

	if (w < 40)
		w = 40;
	for (int pass = 0; pass < 2 && !o->quiet; pass++)
		for (size_t i = 0; i < h->nm; i++)
			for (size_t j = 0; j < h->m[i].ncp; j++) {
				const struct pv_hist_cp *c = &h->m[i].cp[j];

				if (c->point < fr || failing(c) != !pass)
					continue;
				nrecent++;
				if (!o->verbose && shown >= TEXT_RECENT)
					continue;
				shown++;
				cp_line(&sb, h, &h->m[i], c, "recent  ", w);
			}
	if (nrecent > shown)
		strbuf_addf(&sb, "        ... and %zu more recent change points (history -v lists every one)\n",
			    nrecent - shown);
	for (size_t i = 0; i < h->nm && !o->quiet; i++) {
		size_t k = 0;

		for (size_t j = 0; j < h->m[i].ncp; j++) {
			if (h->m[i].cp[j].point >= fr)
				continue;
			k++;
			if (o->verbose)
				cp_line(&sb, h, &h->m[i], &h->m[i].cp[j],
					"        ", w);
		}
		nearlier += k;
		mearlier += k > 0;
	}
	if (!o->quiet && !o->verbose && nearlier)
		strbuf_addf(&sb, "        %zu earlier change point%s in %zu metric%s (history -v lists every one)\n",
			    nearlier, nearlier == 1 ? "" : "s", mearlier,
			    mearlier == 1 ? "" : "s");
	for (size_t i = 0; i < h->nm && !o->quiet; i++) {
		struct strbuf name = STRBUF_INIT;

		strbuf_reset(&t);
		strbuf_addstr(&t, " ");
		if (!pv_hist_trend(&t, &h->m[i], 0))
			continue;
		ntrend++;
		if (!o->verbose && tshown >= TEXT_TRENDS)
			continue;
		tshown++;
		pv_hist_name(&name, &h->m[i]);
		line(&sb, "trend   ", name.buf, t.buf, w);
		strbuf_release(&name);
	}
	if (ntrend > tshown)
		strbuf_addf(&sb, "        ... and %zu more trends (history -v lists every one)\n",
			    ntrend - tshown);
	if (!o->quiet && !nrecent && !nearlier && !ntrend)
		strbuf_addstr(&sb, "no change points\n");
	/* the newest points' moves the detector cannot confirm yet */
	for (size_t i = 0; i < h->nm && !o->quiet; i++) {
		struct strbuf name = STRBUF_INIT;

		if (!h->m[i].watched)
			continue;
		nwatch++;
		if (!o->verbose && wshown >= TEXT_RECENT)
			continue;
		wshown++;
		pv_hist_name(&name, &h->m[i]);
		for (int brief = 0; brief < 2; brief++) {
			strbuf_reset(&t);
			strbuf_addch(&t, ':');
			pv_hist_watch_tail(&t, &h->m[i], brief, pv_hist_put_plain);
			/* too long: the levels and q stay in the reports */
			if (8 + width(t.buf, t.len) +
			    (name.len < SHORT_NAME ? name.len : SHORT_NAME) <= w)
				break;
		}
		line(&sb, "watch   ", name.buf, t.buf, w);
		strbuf_release(&name);
	}
	if (nwatch > wshown)
		strbuf_addf(&sb, "        ... and %zu more watched (history -v lists every one)\n",
			    nwatch - wshown);
	strbuf_reset(&t);
	strbuf_addf(&t, "history %s: %zu points, %zu metrics, %zu regression%s in the newest %zu points",
		    h->fail ? "FAIL" : "PASS", h->np, h->nm, h->fail_cp,
		    h->fail_cp == 1 ? "" : "s", h->recent);
	line(&sb, "", "", t.buf, w);
	errno = 0;
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = pv_atomic_error(err, NULL, errno);
	strbuf_release(&sb);
	strbuf_release(&t);
	return rc;
}

/*
 * reason.c - the one sentence each verdict carries.
 *
 * The decision (verdict.c) keeps the facts: which rule applied, the
 * change, p and q, the interval, the detectable effect.  The sentence is
 * written only when a report needs it, one metric at a time, so that
 * no report holds every sentence at once.
 *
 * Guarantee: no sentence contains "nan" or "inf".  A change from a zero
 * baseline mean is stated in absolute terms, a mean that is not defined
 * in words, and a value that is not defined is said to be so.
 */
#include "report.h"

#include <math.h>
#include <string.h>
#include "policy.h"
#include "util/banned.h"

/* "+3.20%"; "undefined" for a value that is not finite (the callers
 * state such changes otherwise: this is the guarantee's backstop). */
static void pct(struct strbuf *sb, double frac)
{
	if (!isfinite(frac)) {
		strbuf_addstr(sb, "undefined");
		return;
	}
	strbuf_addfixed(sb, frac * 100, 2, 1);
	strbuf_addch(sb, '%');
}

/* "%g%%" of a fraction: thresholds and levels. */
static void pct_g(struct strbuf *sb, double frac)
{
	strbuf_addg(sb, frac * 100);
	strbuf_addch(sb, '%');
}

static void add_pq(struct strbuf *sb, double p, double q,
		   enum pv_correction c)
{
	if (isnan(p))
		strbuf_addstr(sb, "p undefined");
	else
		strbuf_addf(sb, "p=%.3g", p);
	if (c != PV_CORR_NONE && isnan(q))
		strbuf_addstr(sb, ", q undefined");
	else if (c != PV_CORR_NONE)
		strbuf_addf(sb, ", q=%.3g", q);
}

/* A value, "+24", with the metric's unit when asked, "24 B/op"; -0
 * prints as 0. */
static void add_value(struct strbuf *sb, const struct pv_result *m,
		      double v, int plus, int unit)
{
	if (plus && v > 0)
		strbuf_addch(sb, '+');
	strbuf_addg(sb, v == 0 ? 0.0 : v);
	if (unit && m->unit && *m->unit)
		strbuf_addf(sb, " %s", m->unit);
}

/* The change has no relative size: the baseline mean is 0. */
static int from_zero(const struct pv_result *m)
{
	return !isfinite(m->change_rel) && isfinite(m->change_abs);
}

/* The change: "+3.20%", or from a zero baseline mean, in absolute
 * terms: "from a zero baseline mean to 24 B/op, +24 in absolute terms". */
static void add_change(struct strbuf *sb, const struct pv_result *m)
{
	if (isfinite(m->change_rel)) {
		pct(sb, m->change_rel);
		return;
	}
	if (!from_zero(m)) {
		strbuf_addstr(sb, "by an amount that is not defined");
		return;
	}
	strbuf_addstr(sb, "from a zero baseline mean to ");
	add_value(sb, m, m->side[1].s.mean, 0, 1);
	strbuf_addstr(sb, ", ");
	add_value(sb, m, m->change_abs, 1, 0);
	strbuf_addstr(sb, " in absolute terms");
}

/* A side's CV, "12.0%", or why it has none. */
static void add_cv(struct strbuf *sb, const struct pv_side_result *s)
{
	double cv = pv_cv(&s->s);

	if (isfinite(cv))
		strbuf_addf(sb, "%.1f%%", cv * 100);
	else
		strbuf_addstr(sb, s->s.mean == 0 ? "undefined at mean 0" :
			      "undefined");
}

/* "the 95% interval [-1.00%, +2.00%]" when it is defined. */
static int add_interval(struct strbuf *sb, const struct pv_result *m,
			const char *lead)
{
	if (!isfinite(m->ci_low) || !isfinite(m->ci_high))
		return 0;
	strbuf_addf(sb, "%sthe %g%% interval [%+.2f%%, %+.2f%%]", lead,
		    (1 - m->alpha) * 100, m->ci_low * 100, m->ci_high * 100);
	return 1;
}

/* The floor a significant change did not reach: the relative
 * threshold, or, when that was reached, abs_threshold. */
static void add_floor_missed(struct strbuf *sb, const struct pv_result *m)
{
	int rel_ok = pv_policy_beyond(m->threshold, NAN, m->side[0].s.mean,
				      m->change_abs, m->change_rel);

	if (rel_ok && isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, "below the absolute threshold of ");
		add_value(sb, m, m->abs_threshold, 0, 1);
		return;
	}
	strbuf_addf(sb, "below the %g%% threshold", m->threshold * 100);
	if (add_interval(sb, m, ", while "))
		strbuf_addstr(sb, " reaches beyond it");
}

/* Which side's mean is not defined (PV_WHY_UNDEFINED). */
static void add_undefined(struct strbuf *sb, const struct pv_result *m)
{
	int a = !isfinite(m->side[0].s.mean), b = !isfinite(m->side[1].s.mean);

	strbuf_addf(sb, "the %s mean%s not a finite number, so no change can be stated",
		    a && b ? "baseline and candidate" : a ? "baseline" :
		    "candidate", a && b ? "s are" : " is");
}

/* A side's number of observations: its samples, or its summary's n. */
static size_t side_n(const struct pv_side_result *s)
{
	return s->summary_only ? s->s.n : s->nsamples;
}

/* "main's newest 2 points moved +10.0% ..." (history/pooled.h). */
const char *pv_result_end_note(const struct pv_result *m, struct strbuf *sb)
{
	if (m->end_points == 1)
		strbuf_addstr(sb, "main's newest point");
	else
		strbuf_addf(sb, "main's newest %zu points", m->end_points);
	strbuf_addf(sb, " moved %+.1f%% from its long-run level, not confirmed yet: judged against both levels, the baseline's mean and the change are the %s level's",
		    100 * m->end_move,
		    m->end_from_newest ? "newest" : "long-run");
	return sb->buf;
}

static void add_end_note(struct strbuf *sb, const struct pv_result *m)
{
	strbuf_addstr(sb, "; ");
	pv_result_end_note(m, sb);
}

/* The remark every verdict carries when a side has only a summary. */
static void add_summary_note(struct strbuf *sb, const struct pv_result *m)
{
	int a = m->side[0].summary_only, b = m->side[1].summary_only;

	if (!a && !b)
		return;
	strbuf_addf(sb, "; the raw samples were not available%s, so Welch's test was computed from the summaries (mean, sd, n)",
		    a && b ? "" : a ? " (the baseline has only a summary)" :
		    " (the candidate has only a summary)");
}

/* The remark every verdict carries when a side's samples all come from
 * one process, whose in-process spread understates run-to-run noise. */
static void add_unit_note(struct strbuf *sb, const struct pv_result *m)
{
	int one[2];

	for (int s = 0; s < 2; s++)
		one[s] = m->side[s].files == 1 && m->side[s].nsamples > 1;
	if (one[0] || one[1])
		strbuf_addf(sb, "; all %s samples come from one file (one process), whose spread understates run-to-run noise, so run repeats in separate processes",
			    one[0] && one[1] ? "baseline and candidate" :
			    one[0] ? "baseline" : "candidate");
	else if (m->side[0].per_file > 1 || m->side[1].per_file > 1)
		strbuf_addf(sb, "; each repeat's mean of up to %u samples is one sample",
			    m->side[0].per_file > m->side[1].per_file ?
			    m->side[0].per_file : m->side[1].per_file);
}

/* The sentence of a verdict that rests on a test (after the rules). */
const char *pv_add_detectable(struct strbuf *sb, const struct pv_result *m,
			      const char *and)
{
	size_t n = side_n(&m->side[0]) < side_n(&m->side[1]) ?
		   side_n(&m->side[0]) : side_n(&m->side[1]);
	double thr = m->threshold;

	if (!isfinite(m->mde) || m->mde <= 0)
		return sb->buf;
	strbuf_addf(sb, "this run could detect about %.1f%%", m->mde * 100);
	if (thr > 0 && m->mde > thr)
		strbuf_addf(sb, "%s about %.0f %s per side would detect %g%%",
			    and, pv_runs_to_detect(n, m->mde, thr),
			    m->side[0].summary_only || m->side[1].summary_only ?
			    "samples" : "runs", thr * 100);
	return sb->buf;
}

static void add_tested(struct strbuf *sb, const struct pv_report *r,
		       const struct pv_result *m)
{
	const struct pv_gate *g = &r->settings.gate;
	double thr = m->threshold;

	switch (m->why) {
	case PV_WHY_UNGATED:
		if (m->ignored)
			strbuf_addstr(sb, "not gated (a [metric] rule says ignore); moved ");
		else
			strbuf_addf(sb, "not gated (direction %s); moved ",
				    m->dir_assumed ? "unknown" :
				    pv_dir_name(m->direction));
		add_change(sb, m);
		strbuf_addstr(sb, " (");
		add_pq(sb, m->p, m->q, PV_CORR_NONE);
		strbuf_addstr(sb, ")");
		break;
	case PV_WHY_WORSE:
	case PV_WHY_BETTER:
		if (from_zero(m)) {
			strbuf_addstr(sb, "moved ");
			add_change(sb, m);
			strbuf_addf(sb, ": %s, and beyond the %g%% threshold as any change from zero is (",
				    m->why == PV_WHY_WORSE ? "worse" : "better",
				    thr * 100);
		} else if (!isfinite(m->change_rel)) {
			strbuf_addstr(sb, "moved ");
			add_change(sb, m);
			strbuf_addf(sb, ": %s (", m->why == PV_WHY_WORSE ?
				    "worse" : "better");
		} else {
			pct(sb, m->change_rel);
			strbuf_addf(sb, " is %s beyond the %g%% threshold (",
				    m->why == PV_WHY_WORSE ? "worse" : "better",
				    thr * 100);
		}
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addstr(sb, ")");
		if (m->waiver)
			strbuf_addf(sb, "; waived until %s: %s", m->waiver->until,
				    m->waiver->reason);
		break;
	case PV_WHY_NOISY:
		strbuf_addstr(sb, "too noisy to judge: CV ");
		add_cv(sb, &m->side[0]);
		strbuf_addstr(sb, " (baseline) and ");
		add_cv(sb, &m->side[1]);
		strbuf_addf(sb, " (candidate), above max_cv = %g%%",
			    g->max_cv * 100);
		break;
	case PV_WHY_WITHIN:
		strbuf_addstr(sb, "moved ");
		add_change(sb, m);
		strbuf_addf(sb, ", significant but within the %g%% threshold (",
			    thr * 100);
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addstr(sb, ")");
		if (add_interval(sb, m, ", and "))
			strbuf_addstr(sb, " stays within it");
		break;
	case PV_WHY_SMALL:
		strbuf_addstr(sb, "moved ");
		add_change(sb, m);
		strbuf_addf(sb, ", significant (");
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addstr(sb, ") but ");
		add_floor_missed(sb, m);
		break;
	case PV_WHY_IDENTICAL:
		strbuf_addstr(sb, "identical on every run of both sides");
		break;
	case PV_WHY_EQUIVALENT:
		/* Most metrics of a large run say this. */
		strbuf_addstr(sb, "equivalent: the ");
		pct_g(sb, 1 - m->alpha);
		strbuf_addstr(sb, " interval [");
		pct(sb, m->ci_low);
		strbuf_addstr(sb, ", ");
		pct(sb, m->ci_high);
		strbuf_addstr(sb, "] lies within the ");
		pct_g(sb, thr);
		strbuf_addstr(sb, " threshold");
		break;
	case PV_WHY_INCONCLUSIVE:
	default:
		strbuf_addstr(sb, "moved ");
		add_change(sb, m);
		strbuf_addstr(sb, " (");
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addstr(sb, "), not significant and not shown within the threshold");
		if (isfinite(m->mde) && m->mde > 0) {
			strbuf_addstr(sb, "; ");
			pv_add_detectable(sb, m, ", and");
		}
		break;
	}
}

const char *pv_result_reason(const struct pv_report *r,
			     const struct pv_result *m, struct strbuf *sb)
{
	const struct pv_gate *g = &r->settings.gate;

	if (m->why == PV_WHY_TEXT)
		return m->reason ? m->reason : "";
	strbuf_reset(sb);
	switch (m->why) {
	case PV_WHY_NEW:
		strbuf_addstr(sb, "only the candidate reports this metric");
		return sb->buf;
	case PV_WHY_MISSING:
		strbuf_addf(sb, "the candidate no longer reports this metric (missing = %s)",
			    pv_policy_name(g->missing));
		return sb->buf;
	case PV_WHY_NOTE:
		if (m->side[0].note)
			strbuf_addf(sb, "baseline: %s", m->side[0].note);
		else
			strbuf_addf(sb, "candidate: %s", m->side[1].note);
		return sb->buf;
	case PV_WHY_FEW:
		strbuf_addf(sb, "%zu baseline and %zu candidate samples, fewer than min_samples = %u",
			    side_n(&m->side[0]), side_n(&m->side[1]),
			    g->min_samples);
		if (m->side[0].summary_only || m->side[1].summary_only)
			strbuf_addstr(sb, "; the raw samples were not available, only summaries (mean, sd, n)");
		return sb->buf;
	case PV_WHY_UNDEFINED:
		add_undefined(sb, m);
		break;
	default:
		add_tested(sb, r, m);
		break;
	}
	if (m->held)
		strbuf_addf(sb, "; q < %g, but held back by the family gate: no metric reached q < %g and no more metrics had p < %g than chance explains",
			    m->alpha, PV_GATE_FRAC * g->alpha, g->alpha);
	if (m->spike)
		strbuf_addf(sb, "; as far from the pooled baseline as its spikes, which were %.2g%% of its points: p is at least that",
			    100 * m->spike_p);
	if (m->end_points)
		add_end_note(sb, m);
	add_summary_note(sb, m);
	add_unit_note(sb, m);
	if (m->dir_assumed && m->gated)
		strbuf_addf(sb, "; %s is better by assumption, set a [metric] direction",
			    m->direction == PV_DIR_HIGHER ? "higher" : "lower");
	return sb->buf;
}

const char *pv_result_id(const struct pv_result *m, struct strbuf *sb)
{
	const char *part[] = {
		m->suite, m->test, m->group, m->benchmark, m->metric,
	};

	strbuf_reset(sb);
	for (size_t i = 0; i < sizeof(part) / sizeof(*part); i++) {
		if (i)
			strbuf_addch(sb, '/');
		strbuf_addstr(sb, part[i]);
	}
	return sb->buf;
}

/* Metrics the message names, and the pairs it looks at for a hint. */
#define NOTHING_FEW 3
#define NOTHING_PAIRS 64

static int is_missing(const struct pv_result *m)
{
	return m->verdict == PV_V_MISSING;
}

static int is_new(const struct pv_result *m)
{
	return m->verdict == PV_V_NEW;
}

/* The length of the token at s: up to a '/' or a blank. */
static size_t token_len(const char *s)
{
	return strcspn(s, "/ \t");
}

/*
 * Whether a and b split at '/' and blanks into the same tokens but one;
 * then *da, *db (and *la, *lb) point at the token that differs.
 */
static int differ_in_one(const char *a, const char *b, const char **da,
			 size_t *la, const char **db, size_t *lb)
{
	int n = 0;

	for (;;) {
		size_t ta = token_len(a), tb = token_len(b);

		if (ta != tb || memcmp(a, b, ta)) {
			if (n++)
				return 0;
			*da = a, *la = ta, *db = b, *lb = tb;
		}
		a += ta, b += tb;
		if (*a != *b)
			return 0;   /* different separators, or one ended */
		if (!*a)
			return n == 1;
		a++, b++;
	}
}

/* "; hint: ... differ only in 'a' vs 'b'" for the first missing and new
 * ids that differ in one part, among the first NOTHING_PAIRS of each. */
static void add_path_hint(const struct pv_report *r, struct strbuf *sb)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t seen_old = 0;

	for (size_t i = 0; i < r->n && seen_old < NOTHING_PAIRS; i++) {
		size_t seen_new = 0;

		if (!is_missing(&r->m[i]))
			continue;
		seen_old++;
		pv_result_id(&r->m[i], &a);
		for (size_t j = 0; j < r->n && seen_new < NOTHING_PAIRS; j++) {
			const char *da, *db;
			size_t la, lb;

			if (!is_new(&r->m[j]))
				continue;
			seen_new++;
			pv_result_id(&r->m[j], &b);
			if (!differ_in_one(a.buf, b.buf, &da, &la, &db, &lb))
				continue;
			strbuf_addf(sb, "; hint: a missing and a new name differ only in '%.*s' vs '%.*s' (a path or a version in the name?)",
				    (int)la, da, (int)lb, db);
			goto done;
		}
	}
done:
	strbuf_release(&a);
	strbuf_release(&b);
}

const char *pv_nothing_compared(const struct pv_report *r, struct strbuf *sb)
{
	strbuf_addf(sb, "no metric could be compared (%zu insufficient, %zu missing, %zu new)",
		    r->count[PV_V_INSUFFICIENT], r->count[PV_V_MISSING],
		    r->count[PV_V_NEW]);
	if (r->count[PV_V_MISSING]) {
		strbuf_addstr(sb, "; missing: ");
		pv_report_some_names(r, is_missing, NOTHING_FEW, sb);
	}
	if (r->count[PV_V_NEW]) {
		strbuf_addstr(sb, "; new: ");
		pv_report_some_names(r, is_new, NOTHING_FEW, sb);
	}
	if (r->count[PV_V_MISSING] && r->count[PV_V_NEW]) {
		add_path_hint(r, sb);
	} else if (r->n) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(sb, ": %s", pv_result_reason(r, &r->m[0], &why));
		strbuf_release(&why);
	}
	return sb->buf;
}

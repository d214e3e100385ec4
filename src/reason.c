/*
 * reason.c - the one sentence each verdict carries.
 *
 * The decision (verdict.c) keeps the facts: which rule applied, the
 * change, p and q, the interval, the detectable effect.  The sentence is
 * written only when a report needs it, one metric at a time, so a run
 * over 100,000 metrics does not hold 100,000 sentences in memory.
 */
#include "report.h"

#include <math.h>
#include <string.h>
#include "util/banned.h"

static void pct(struct strbuf *sb, double frac)
{
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
	strbuf_addf(sb, "p=%.3g", p);
	if (c != PV_CORR_NONE)
		strbuf_addf(sb, ", q=%.3g", q);
}

/* A side's number of observations: its samples, or its summary's n. */
static size_t side_n(const struct pv_side_result *s)
{
	return s->summary_only ? s->s.n : s->nsamples;
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

const char *pv_result_reason(const struct pv_report *r,
			     const struct pv_result *m, struct strbuf *sb)
{
	const struct pv_gate *g = &r->settings.gate;
	double rel = m->change_rel, thr = m->threshold;

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
	case PV_WHY_UNGATED:
		strbuf_addf(sb, "not gated (direction %s); moved ",
			    m->dir_assumed ? "unknown" : pv_dir_name(m->direction));
		pct(sb, rel);
		strbuf_addstr(sb, " (");
		add_pq(sb, m->p, m->q, PV_CORR_NONE);
		strbuf_addstr(sb, ")");
		break;
	case PV_WHY_WORSE:
	case PV_WHY_BETTER:
		pct(sb, rel);
		strbuf_addf(sb, " is %s beyond the %g%% threshold (",
			    m->why == PV_WHY_WORSE ? "worse" : "better", thr * 100);
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addstr(sb, ")");
		if (m->waiver)
			strbuf_addf(sb, "; waived until %s: %s", m->waiver->until,
				    m->waiver->reason);
		break;
	case PV_WHY_NOISY:
		strbuf_addf(sb, "too noisy to judge: CV %.1f%% (baseline) and %.1f%% (candidate), above max_cv = %g%%",
			    pv_cv(&m->side[0].s) * 100, pv_cv(&m->side[1].s) * 100,
			    g->max_cv * 100);
		break;
	case PV_WHY_WITHIN:
		strbuf_addstr(sb, "moved ");
		pct(sb, rel);
		strbuf_addf(sb, ", significant but within the %g%% threshold (",
			    thr * 100);
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addf(sb, "), and the %g%% interval [%+.2f%%, %+.2f%%] stays within it",
			    (1 - m->alpha) * 100, m->ci_low * 100,
			    m->ci_high * 100);
		break;
	case PV_WHY_SMALL:
		strbuf_addstr(sb, "moved ");
		pct(sb, rel);
		strbuf_addf(sb, ", significant (");
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addf(sb, ") but below the %g%% threshold, while the %g%% interval [%+.2f%%, %+.2f%%] reaches beyond it",
			    thr * 100, (1 - m->alpha) * 100, m->ci_low * 100,
			    m->ci_high * 100);
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
		pct(sb, rel);
		strbuf_addstr(sb, " (");
		add_pq(sb, m->p, m->q, g->correction);
		strbuf_addstr(sb, "), not significant and not shown within the threshold");
		if (isfinite(m->mde) && m->mde > 0) {
			size_t n = side_n(&m->side[0]) < side_n(&m->side[1]) ?
				   side_n(&m->side[0]) : side_n(&m->side[1]);

			strbuf_addf(sb, "; this run could detect about %.1f%%",
				    m->mde * 100);
			if (thr > 0 && m->mde > thr)
				strbuf_addf(sb, ", and about %.0f %s per side would detect %g%%",
					    ceil((double)n * (m->mde / thr) *
						 (m->mde / thr)),
					    m->side[0].summary_only ||
					    m->side[1].summary_only ?
					    "samples" : "runs", thr * 100);
		}
		break;
	}
	if (m->held)
		strbuf_addf(sb, "; q < %g, but held back by the family gate: no metric reached q < %g and no more metrics had p < %g than chance explains",
			    m->alpha, PV_GATE_FRAC * g->alpha, g->alpha);
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

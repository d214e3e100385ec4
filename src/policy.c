/*
 * policy.c - a metric's rule and waiver, the severity order and the
 * gate's predicate; see policy.h.
 */
#include "policy.h"

#include <math.h>
#include <string.h>
#include <strings.h>
#include "util/text.h"
#include "util/banned.h"

/*
 * Does a [metric] or [waiver] glob match?  Against the metric name, or
 * "group/benchmark/metric" (built in full, reused across calls).  A glob
 * without wildcards is a name: compared, not matched, and a name without
 * '/' can only be the metric's (this runs for every metric of every
 * rule).
 */
static int glob_matches(const char *glob, const char *group,
			const char *benchmark, const char *metric,
			struct strbuf *full)
{
	int literal = !strpbrk(glob, "*?[\\");

	if (literal ? !strcmp(glob, metric) : pv_glob_match(glob, metric))
		return 1;
	if (literal && !strchr(glob, '/'))
		return 0;
	strbuf_reset(full);
	strbuf_addstr(full, group);
	strbuf_addch(full, '/');
	strbuf_addstr(full, benchmark);
	strbuf_addch(full, '/');
	strbuf_addstr(full, metric);
	return literal ? !strcmp(glob, full->buf) : pv_glob_match(glob, full->buf);
}

/* Each field from the last [metric] section that matches and sets it;
 * unset fields stay unset (NAN, PV_DIR_UNSET, ignore -1). */
static void merged_rule(const struct pv_config *c, const char *group,
			const char *benchmark, const char *metric,
			struct pv_rule *out)
{
	struct strbuf full = STRBUF_INIT;

	*out = (struct pv_rule){ NULL, PV_DIR_UNSET, NAN, NAN, NAN, -1, 0 };
	for (size_t i = 0; i < c->nrules; i++) {
		const struct pv_rule *r = &c->rules[i];

		if (!glob_matches(r->glob, group, benchmark, metric, &full))
			continue;
		out->glob = r->glob;
		out->line = r->line;
		if (r->direction != PV_DIR_UNSET)
			out->direction = r->direction;
		if (!isnan(r->threshold))
			out->threshold = r->threshold;
		if (!isnan(r->abs_threshold))
			out->abs_threshold = r->abs_threshold;
		if (!isnan(r->alpha))
			out->alpha = r->alpha;
		if (r->ignore >= 0)
			out->ignore = r->ignore;
	}
	strbuf_release(&full);
}

/* Case-insensitive substring test (strcasestr is not POSIX). */
static int has(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return 1;
	return 0;
}

enum pv_dir pv_guess_direction(const char *metric, const char *unit)
{
	static const char *const higher[] = {
		"throughput", "bandwidth", "per_second", "per second", "/s",
		"ops", "qps", "tps", "iops", "bops", "records", "score",
		"speed", "rate", "hit",
	};
	static const char *const lower[] = {
		"time", "latency", "elapsed", "duration", "cpu", "memory",
		"rss", "alloc", "size", "ns", "us", "ms", "bytes", "miss",
	};
	static const char *const time_units[] = {
		"ns", "us", "µs", "ms", "s", "sec", "second", "seconds", "B",
		"ns/op", "B/op", "allocs/op",
	};

	for (size_t i = 0; i < sizeof(time_units) / sizeof(*time_units); i++)
		if (unit && !strcmp(unit, time_units[i]))
			return PV_DIR_LOWER;
	for (size_t i = 0; i < sizeof(higher) / sizeof(*higher); i++)
		if (has(metric, higher[i]) || (unit && has(unit, higher[i])))
			return PV_DIR_HIGHER;
	for (size_t i = 0; i < sizeof(lower) / sizeof(*lower); i++)
		if (has(metric, lower[i]))
			return PV_DIR_LOWER;
	return PV_DIR_UNSET;
}

void pv_policy_of(const struct pv_config *cfg, const struct pv_gate *g,
		  const char *group, const char *benchmark,
		  const char *metric, const char *unit, enum pv_dir hint,
		  struct pv_metric_policy *out)
{
	struct pv_rule rule;

	merged_rule(cfg, group, benchmark, metric, &rule);
	memset(out, 0, sizeof(*out));
	out->ignored = rule.ignore == 1;
	out->direction = out->ignored ? PV_DIR_NONE : rule.direction;
	if (out->direction == PV_DIR_UNSET)
		out->direction = hint;
	if (out->direction == PV_DIR_UNSET)
		out->direction = g->direction;
	if (out->direction == PV_DIR_UNSET) {
		out->direction = pv_guess_direction(metric, unit);
		out->dir_assumed = 1;
		if (out->direction == PV_DIR_UNSET)
			out->direction = PV_DIR_LOWER;
	}
	out->gated = out->direction == PV_DIR_LOWER ||
		     out->direction == PV_DIR_HIGHER;
	out->threshold = isnan(rule.threshold) ? g->threshold : rule.threshold;
	out->abs_threshold = rule.abs_threshold;
	out->alpha = isnan(rule.alpha) ? g->alpha : rule.alpha;
}

void pv_policy_result(const struct pv_config *cfg, const struct pv_gate *g,
		      enum pv_dir hint, struct pv_result *res)
{
	struct pv_metric_policy p;

	pv_policy_of(cfg, g, res->group, res->benchmark, res->metric,
		     res->unit, hint, &p);
	res->direction = p.direction;
	res->gated = p.gated;
	res->ignored = p.ignored;
	res->dir_assumed = p.dir_assumed;
	res->threshold = p.threshold;
	res->abs_threshold = p.abs_threshold;
	res->alpha = p.alpha;
}

int pv_policy_move(enum pv_dir d, double change)
{
	int up = change > 0, down = change < 0;

	return d == PV_DIR_HIGHER ? down - up : up - down;
}

int pv_policy_beyond(double threshold, double abs_threshold, double base,
		     double change_abs, double change_rel)
{
	double abs = fabs(change_abs), rel = fabs(change_rel);
	int rel_ok = base == 0 ? abs > 0 : rel >= threshold && rel > 0;

	return rel_ok && (isnan(abs_threshold) || abs >= abs_threshold);
}

int pv_policy_ungated_moved(const struct pv_result *m)
{
	return m->verdict == PV_V_UNGATED && m->tested && m->q < m->alpha &&
	       pv_policy_beyond(m->threshold, m->abs_threshold,
				m->side[0].s.mean, m->change_abs,
				m->change_rel);
}

const struct pv_waiver *pv_policy_waiver(const struct pv_config *cfg,
					 const char *today,
					 const char *group,
					 const char *benchmark,
					 const char *metric,
					 struct pv_diag *diag)
{
	struct strbuf full = STRBUF_INIT;
	const struct pv_waiver *wv = NULL;

	for (size_t i = 0; i < cfg->nwaivers && !wv; i++)
		if (glob_matches(cfg->waivers[i].glob, group, benchmark, metric,
				 &full))
			wv = &cfg->waivers[i];
	strbuf_release(&full);
	if (!wv || !today)
		return NULL;
	if (strcmp(today, wv->until) <= 0)
		return wv;
	if (!diag)
		return NULL;
	if (!wv->line)
		pv_diag_add(diag, PV_M_WAIVER_EXPIRED, "waiver \"%s\" (from the reports) expired on %s; %s/%s/%s counts as a regression",
			    wv->glob, wv->until, group, benchmark, metric);
	else
		pv_diag_add(diag, PV_M_WAIVER_EXPIRED, "%s:%lu: waiver \"%s\" expired on %s; %s/%s/%s counts as a regression",
			    cfg->path ? cfg->path : "config", wv->line,
			    wv->glob, wv->until, group, benchmark, metric);
	return NULL;
}

/* What needs a human first comes first. */
static const int verdict_rank[PV_V_COUNT] = {
	[PV_V_REGRESSION] = 0,
	[PV_V_MISSING] = 1,
	[PV_V_INCONCLUSIVE] = 2,
	[PV_V_NOISY] = 3,
	[PV_V_INSUFFICIENT] = 4,
	[PV_V_WAIVED] = 5,
	[PV_V_IMPROVEMENT] = 6,
	[PV_V_NEW] = 7,
	[PV_V_UNGATED] = 8,
	[PV_V_UNCHANGED] = 9,
};

int pv_verdict_severity(enum pv_verdict v)
{
	return v < PV_V_COUNT ? verdict_rank[v] : PV_V_COUNT;
}

int pv_policy_fails(const struct pv_gate *g, enum pv_verdict v)
{
	switch (v) {
	case PV_V_REGRESSION:
		return 1;
	case PV_V_MISSING:
		return g->missing == PV_POLICY_FAIL;
	case PV_V_INCONCLUSIVE:
		return g->inconclusive == PV_POLICY_FAIL;
	case PV_V_INSUFFICIENT:
		return g->insufficient == PV_POLICY_FAIL;
	default:
		return 0;
	}
}

void pv_policy_note_assumed(struct pv_diag *diag, size_t n,
			    const char *names)
{
	if (n)
		pv_diag_add(diag, PV_M_NO_DIRECTION, "%zu metric%s had no configured direction (%s); it was inferred from the name and unit; set direction in [gate] or [metric \"GLOB\"]",
			    n, n == 1 ? "" : "s", names);
}

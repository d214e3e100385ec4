/*
 * report.c - the verdict model's own helpers: names, ranks, counts
 * (the severity order and the gate's rule are policy.c's).
 */
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "policy.h"
#include "util/banned.h"

static const char *const verdict_names[PV_V_COUNT] = {
	"regression", "improvement", "unchanged", "inconclusive", "noisy",
	"insufficient", "missing", "new", "waived", "ungated",
};

const char *pv_verdict_name(enum pv_verdict v)
{
	return v < PV_V_COUNT ? verdict_names[v] : "?";
}

int pv_verdict_parse(const char *s, enum pv_verdict *out)
{
	for (int i = 0; i < PV_V_COUNT; i++) {
		if (!strcmp(s, verdict_names[i])) {
			*out = (enum pv_verdict)i;
			return 0;
		}
	}
	return -1;
}

void pv_report_init(struct pv_report *r)
{
	memset(r, 0, sizeof(*r));
}

void pv_report_release(struct pv_report *r)
{
	free(r->m);
	free(r->side[0].context);
	free(r->side[1].context);
	arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

void pv_report_tally(struct pv_report *r)
{
	const struct pv_gate *g = &r->settings.gate;

	memset(r->count, 0, sizeof(r->count));
	for (size_t i = 0; i < r->n; i++)
		r->count[r->m[i].verdict]++;
	r->compared = r->n - r->count[PV_V_INSUFFICIENT] -
		      r->count[PV_V_MISSING] - r->count[PV_V_NEW];
	r->fail = r->n && !r->compared;
	for (int v = 0; v < PV_V_COUNT; v++)
		r->fail |= r->count[v] && pv_policy_fails(g, (enum pv_verdict)v);
}

void pv_moments_of(const double *x, size_t n, struct pv_moments *m)
{
	m->n = (uint32_t)n;
	pv_mean_sd(x, n, &m->mean, &m->sd);
}

void pv_side_summary(const struct pv_side_result *s, struct pv_summary *out)
{
	pv_order_stats(s->samples, s->summary_only ? 0 : s->nsamples,
		       &out->median, &out->min, &out->max);
	out->n = s->s.n;
	out->mean = s->s.mean;
	out->sd = s->s.sd;
	out->cv = pv_cv(&s->s);
}

void pv_names_add(struct pv_names *nm, const char *group,
		  const char *benchmark, const char *metric)
{
	if (nm->n++ >= nm->few)
		return;
	strbuf_addstr(&nm->sb, nm->n > 1 ? ", " : "");
	if (group && *group)
		strbuf_addf(&nm->sb, "%s/", group);
	if (benchmark && *benchmark)
		strbuf_addf(&nm->sb, "%s/", benchmark);
	strbuf_addstr(&nm->sb, metric ? metric : "");
}

const char *pv_names_end(struct pv_names *nm)
{
	if (nm->n > nm->few)
		strbuf_addf(&nm->sb, " and %zu more", nm->n - nm->few);
	return nm->sb.buf;
}

/* Whether every metric with fewer than all pooled points is of few's
 * benchmark (and is few itself when it has none). */
static int one_benchmark(const struct pv_report *r, size_t all,
			 const struct pv_result *few)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[i];

		if (!m->side[0].present || m->side[0].nsamples >= all ||
		    m == few)
			continue;
		if (!few->benchmark || !*few->benchmark || !m->benchmark ||
		    strcmp(m->benchmark, few->benchmark))
			return 0;
	}
	return 1;
}

const char *pv_side_count(const struct pv_report *r, int k, struct strbuf *sb)
{
	const struct pv_sidemeta *s = &r->side[k];
	const struct pv_result *few = NULL;
	size_t lo = SIZE_MAX, hi = 0, nfew = 0;

	strbuf_reset(sb);
	if (k || !(s->is_archive || r->npooled)) {
		strbuf_addf(sb, "%zu run%s", s->runs, s->runs == 1 ? "" : "s");
		return sb->buf;
	}
	strbuf_addf(sb, "%zu point%s", s->runs, s->runs == 1 ? "" : "s");
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_side_result *b = &r->m[i].side[0];

		if (!b->present || b->nsamples >= s->runs)
			continue;
		nfew++;
		if (b->nsamples < lo) {
			lo = b->nsamples;
			few = &r->m[i];
		}
		if (b->nsamples > hi)
			hi = b->nsamples;
	}
	if (nfew && lo == hi && one_benchmark(r, s->runs, few))
		strbuf_addf(sb, ", %zu of them for %s", lo,
			    few->benchmark && *few->benchmark ? few->benchmark :
			    few->metric);
	else if (nfew && lo == hi)
		strbuf_addf(sb, ", %zu of them for %zu metrics", lo, nfew);
	else if (nfew)
		strbuf_addf(sb, ", %zu-%zu of them for %zu metrics", lo, hi, nfew);
	return sb->buf;
}

void pv_report_some_names(const struct pv_report *r,
			  int (*pick)(const struct pv_result *m), size_t few,
			  struct strbuf *sb)
{
	struct pv_names nm = { 0, few, *sb };

	for (size_t i = 0; i < r->n; i++)
		if (pick(&r->m[i]))
			pv_names_add(&nm, r->m[i].group, r->m[i].benchmark,
				     r->m[i].metric);
	pv_names_end(&nm);
	*sb = nm.sb;
}

/* A metric's rank keys, carried beside its index so that the
 * comparator needs no context. */
struct rank {
	int severity;
	double change;              /* |change_rel| */
	size_t i;
};

static int cmp_rank(const void *pa, const void *pb)
{
	const struct rank *a = pa, *b = pb;

	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	/* Larger moves first; undefined changes after defined ones. */
	if (isnan(a->change) != isnan(b->change))
		return isnan(a->change) ? 1 : -1;
	if (!isnan(a->change) && a->change != b->change)
		return a->change > b->change ? -1 : 1;
	return a->i < b->i ? -1 : 1;
}

static void rank_key(const struct pv_report *r, size_t i, struct rank *k)
{
	k->severity = pv_verdict_severity(r->m[i].verdict);
	k->change = fabs(r->m[i].change_rel);
	k->i = i;
}

size_t pv_report_first_failing(const struct pv_report *r)
{
	struct rank best = { 0, NAN, r->n }, k;

	for (size_t i = 0; i < r->n; i++) {
		if (!pv_policy_fails(&r->settings.gate, r->m[i].verdict))
			continue;
		rank_key(r, i, &k);
		if (best.i == r->n || cmp_rank(&k, &best) < 0)
			best = k;
	}
	return best.i;
}

size_t *pv_report_ranked(const struct pv_report *r)
{
	size_t *idx;
	struct rank *k;

	ALLOC_ARRAY(idx, st_add(r->n, 1));
	ALLOC_ARRAY(k, st_add(r->n, 1));
	for (size_t i = 0; i < r->n; i++)
		rank_key(r, i, &k[i]);
	qsort(k, r->n, sizeof(*k), cmp_rank);
	for (size_t i = 0; i < r->n; i++)
		idx[i] = k[i].i;
	free(k);
	return idx;
}

/* A metric's group key beside its index: the comparator needs no
 * context. */
struct group_key {
	const char *suite, *test, *group;
	size_t i;
};

static const char *nonnull(const char *s)
{
	return s ? s : "";
}

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

size_t pv_report_groups(const struct pv_report *r, int by_group, size_t *gid)
{
	struct group_key *k;
	size_t *renum, ng = 0, next = 0;

	if (!r->n)
		return 0;
	ALLOC_ARRAY(k, r->n);
	for (size_t i = 0; i < r->n; i++) {
		k[i].suite = nonnull(r->m[i].suite);
		k[i].test = nonnull(r->m[i].test);
		k[i].group = by_group ? nonnull(r->m[i].group) : "";
		k[i].i = i;
	}
	/* number the groups in sorted order, then by first sight */
	qsort(k, r->n, sizeof(*k), cmp_group_key);
	for (size_t j = 0; j < r->n; j++) {
		if (j && !strcmp(k[j].suite, k[j - 1].suite) &&
		    !strcmp(k[j].test, k[j - 1].test) &&
		    !strcmp(k[j].group, k[j - 1].group)) {
			gid[k[j].i] = ng - 1;
			continue;
		}
		gid[k[j].i] = ng++;
	}
	free(k);
	ALLOC_ARRAY(renum, ng);
	for (size_t g = 0; g < ng; g++)
		renum[g] = (size_t)-1;
	for (size_t i = 0; i < r->n; i++) {
		if (renum[gid[i]] == (size_t)-1)
			renum[gid[i]] = next++;
		gid[i] = renum[gid[i]];
	}
	free(renum);
	return ng;
}

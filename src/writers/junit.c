/*
 * junit.c - the report model as JUnit XML for CI systems (Jenkins xunit,
 * GitLab, dorny/test-reporter).
 *
 * Shape (schemas/junit.xsd describes exactly this, and it also validates
 * against Jenkins' junit-10.xsd):
 *
 *   testsuites name="perfverdict" tests failures errors time
 *     testsuite  one per (suite, test) pair, in model order of first sight
 *       properties  what a reader needs: the version, both sides' path
 *                   and label, the test, correction, alpha, threshold,
 *                   and the environment keys whose values differ
 *       testcase  one per metric: classname "suite.group" (without the
 *                 catch-all suite "default": the group, else the
 *                 executable or the file the metric came from),
 *                 name "benchmark metric"
 *         failure | error | skipped   (none when the case passes)
 *         system-out                  the numbers behind the verdict,
 *                                     unless failure or error has them
 *
 * A case fails exactly when it makes the gate fail (pv_policy_fails()):
 * a regression is a <failure>; a missing metric (missing=fail), an
 * inconclusive one (inconclusive=fail) or an insufficient one
 * (insufficient=fail) is an <error>; the other non-passing verdicts,
 * and ungated metrics, are <skipped> with their reason.  classname+name is unique over the
 * whole file (GitLab deduplicates on it).  Every foreign string goes
 * through pv_text_clean() first because libxml2 2.9 writes control
 * characters and invalid UTF-8 as they are; no CDATA is used.
 */
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/xmlwriter.h>
#include "fmt.h"
#include "../policy.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"
#include "../util/text.h"
#include "../util/banned.h"

enum outcome { OUT_PASS, OUT_FAILURE, OUT_ERROR, OUT_SKIPPED };

/* A case fails exactly when its verdict fails the gate (policy.h). */
static enum outcome outcome_of(const struct pv_report *r,
			       const struct pv_result *m)
{
	if (pv_policy_fails(&r->settings.gate, m->verdict))
		return m->verdict == PV_V_REGRESSION ? OUT_FAILURE : OUT_ERROR;
	switch (m->verdict) {
	case PV_V_MISSING:
	case PV_V_INCONCLUSIVE:
	case PV_V_NOISY:
	case PV_V_INSUFFICIENT:
	case PV_V_WAIVED:
	case PV_V_UNGATED:
		return OUT_SKIPPED;
	default:
		return OUT_PASS;
	}
}

static const char *str(const char *s)
{
	return s ? s : "";
}

/* Cleaned text; tabs become spaces so names read the same everywhere. */
static void add_clean(struct strbuf *sb, const char *s)
{
	size_t from = sb->len;

	s = str(s);
	pv_text_clean(sb, s, strlen(s));
	for (size_t i = from; i < sb->len; i++)
		if (sb->buf[i] == '\t')
			sb->buf[i] = ' ';
}

/* ---- unique case identities ---------------------------------------- */

/* The last path component of s, without its extension. */
static void file_stem(struct strbuf *sb, const char *s)
{
	const char *slash = strrchr(s, '/'), *dot;
	size_t from = sb->len;

	if (slash && slash[1])
		s = slash + 1;
	add_clean(sb, s);
	dot = strrchr(sb->buf + from, '.');
	if (dot && dot > sb->buf + from)
		strbuf_setlen(sb, (size_t)(dot - sb->buf));
}

/*
 * "suite.group".  The catch-all suite "default" (no config) says
 * nothing, so it is left out: the group alone, or, for single-file
 * formats without groups (gbench, pyperf, hyperfine...), the executable
 * the context names or else the result file's name.
 */
static void classname(struct strbuf *sb, const struct pv_report *r,
		      const struct pv_result *m)
{
	int catchall = !strcmp(str(m->suite), "default");
	const char *exe = NULL;

	if (!catchall)
		add_clean(sb, m->suite);
	if (m->group && *m->group) {
		if (sb->len)
			strbuf_addch(sb, '.');
		add_clean(sb, m->group);
		return;
	}
	if (!catchall)
		return;
	for (size_t i = 0; i < r->side[1].ncontext && !exe; i++)
		if (!strcmp(str(r->side[1].context[i].key), "executable"))
			exe = r->side[1].context[i].value;
	if (exe && *exe)
		file_stem(sb, exe);
	else if (m->test && *m->test)
		file_stem(sb, m->test);
	if (!sb->len)
		add_clean(sb, m->suite);
}

struct ident {
	char *classname, *name, *key;   /* key: classname "\n" name */
};

static void ident_key(struct ident *id)
{
	struct strbuf sb = STRBUF_INIT;

	free(id->key);
	strbuf_addstr(&sb, id->classname);
	strbuf_addch(&sb, '\n');    /* never in cleaned text */
	strbuf_addstr(&sb, id->name);
	id->key = strbuf_detach(&sb, NULL);
}

static void ident_rename(struct ident *id, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, id->name);
	strbuf_addstr(&sb, suffix);
	free(id->name);
	id->name = strbuf_detach(&sb, NULL);
	ident_key(id);
}

/*
 * classname = suite.group and name = benchmark metric drop the test from
 * the key, and cleaning may merge distinct names, so pairs can collide.
 * When the holders of a pair differ in their test, every one of them
 * gets " [test]"; whatever still collides gets " #2", " #3"... in model
 * order.
 */
static struct ident *make_idents(const struct pv_report *r)
{
	struct ident *id = pv_calloc(r->n ? r->n : 1, sizeof(*id));
	char *dup = pv_calloc(r->n ? r->n : 1, 1);
	struct pv_strmap seen = PV_STRMAP_INIT, uniq = PV_STRMAP_INIT;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[i];

		strbuf_reset(&sb);
		classname(&sb, r, m);
		id[i].classname = strbuf_detach(&sb, NULL);
		if (m->benchmark && *m->benchmark) {
			add_clean(&sb, m->benchmark);
			strbuf_addch(&sb, ' ');
		}
		add_clean(&sb, m->metric);
		id[i].name = strbuf_detach(&sb, NULL);
		ident_key(&id[i]);
	}

	/* per key: how many hold it, whose test came first, and whether
	 * the tests of its holders differ (then the test tells them apart) */
	/* val[0]: holders so far; val[1]: the first holder */
	for (size_t i = 0; i < r->n; i++) {
		struct pv_strmap_ent *e = pv_strmap_put(&seen, id[i].key,
							strlen(id[i].key), NULL);

		if (!e->val[0]++)
			e->val[1] = i;
		else if (strcmp(str(r->m[e->val[1]].test), str(r->m[i].test)))
			dup[e->val[1]] = 1;  /* first holder marks the key */
	}
	/* decide for all before renaming any */
	for (size_t i = 0; i < r->n; i++)
		dup[i] = dup[pv_strmap_put(&seen, id[i].key, strlen(id[i].key),
					   NULL)->val[1]];
	pv_strmap_release(&seen);
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[i];

		if (!dup[i] || !m->test || !*m->test)
			continue;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, " [");
		add_clean(&sb, m->test);
		strbuf_addch(&sb, ']');
		ident_rename(&id[i], sb.buf);
	}
	free(dup);

	/* val[0]: holders of the name so far */
	for (size_t i = 0; i < r->n; i++) {
		struct pv_strmap_ent *e = pv_strmap_put(&uniq, id[i].key,
							strlen(id[i].key), NULL);

		if (e->val[0]++) {
			char base[32];
			char *orig = pv_strdup(id[i].name);

			/* the n-th holder of a name tries " #n" first */
			for (size_t k = e->val[0];; k++) {
				free(id[i].name);
				id[i].name = pv_strdup(orig);
				snprintf(base, sizeof(base), " #%zu", k);
				ident_rename(&id[i], base);
				e = pv_strmap_put(&uniq, id[i].key,
						  strlen(id[i].key), NULL);
				if (!e->val[0]) {
					e->val[0] = 1;
					break;
				}
			}
			free(orig);
		}
	}
	pv_strmap_release(&uniq);
	strbuf_release(&sb);
	return id;
}

static void free_idents(struct ident *id, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(id[i].classname);
		free(id[i].name);
		free(id[i].key);
	}
	free(id);
}

/* ---- testsuites: one per (suite, test), in order of first sight ---- */

struct tsuite {
	size_t first;       /* index into order[] */
	size_t count;
};

/*
 * order: the metric indices grouped by (suite, test), each group in
 * model order; returns the groups ordered by their first metric.
 */
static struct tsuite *group_suites(const struct pv_report *r, size_t **order,
				   size_t *ngroups)
{
	size_t *o = pv_reallocarray(NULL, r->n ? r->n : 1, sizeof(*o));
	size_t *gid = pv_reallocarray(NULL, r->n ? r->n : 1, sizeof(*gid));
	size_t ng = pv_report_groups(r, 0, gid);
	struct tsuite *g = pv_calloc(ng ? ng : 1, sizeof(*g));
	size_t at = 0;

	for (size_t i = 0; i < r->n; i++)
		g[gid[i]].count++;
	for (size_t k = 0; k < ng; k++) {
		g[k].first = at;
		at += g[k].count;
		g[k].count = 0;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct tsuite *p = &g[gid[i]];

		o[p->first + p->count++] = i;
	}
	free(gid);
	*order = o;
	*ngroups = ng;
	return g;
}

/* ---- writing ------------------------------------------------------- */

struct jw {
	xmlTextWriterPtr w;
	FILE *fp;
	int write_errno;        /* set by the output callback on failure */
	struct strbuf a, b;     /* scratch */
};

static int out_write(void *ctx, const char *buf, int len)
{
	struct jw *j = ctx;

	if (len > 0 && fwrite(buf, 1, (size_t)len, j->fp) != (size_t)len) {
		j->write_errno = errno ? errno : EIO;
		return -1;
	}
	return len;
}

static int out_close(void *ctx)
{
	(void)ctx;
	return 0;
}

static const xmlChar *X(const char *s)
{
	return (const xmlChar *)s;
}

#define CHECK(call) do { if ((call) < 0) return -1; } while (0)

/* An attribute whose value is our own (numbers, fixed words). */
static int attr(struct jw *j, const char *name, const char *value)
{
	return xmlTextWriterWriteAttribute(j->w, X(name), X(value));
}

/* An attribute whose value is foreign text. */
static int attr_clean(struct jw *j, const char *name, const char *value)
{
	strbuf_reset(&j->a);
	add_clean(&j->a, value);
	return attr(j, name, j->a.buf);
}

static int attr_size(struct jw *j, const char *name, size_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%zu", v);
	return attr(j, name, buf);
}

static int property(struct jw *j, const char *name, const char *value)
{
	CHECK(xmlTextWriterStartElement(j->w, X("property")));
	CHECK(attr_clean(j, "name", name));
	CHECK(attr_clean(j, "value", value));
	return xmlTextWriterEndElement(j->w);
}

static int property_num(struct jw *j, const char *name, const char *fmt,
			double v)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (isnan(v))
		strbuf_addstr(&sb, "n/a");
	else
		strbuf_addnum(&sb, fmt, v);
	rc = property(j, name, sb.buf);
	strbuf_release(&sb);
	return rc;
}

/* The first value of key on a side, or NULL. */
static const char *ctx_value(const struct pv_sidemeta *s, const char *key)
{
	for (size_t i = 0; i < s->ncontext; i++)
		if (!strcmp(str(s->context[i].key), key))
			return str(s->context[i].value);
	return NULL;
}

/* Only what a reader of the test report needs; the JSON has the rest. */
static int properties(struct jw *j, const struct pv_report *r)
{
	const struct pv_settings *s = &r->settings;
	const struct pv_gate *g = &s->gate;
	static const char *const side_name[2] = { "baseline", "candidate" };
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	int rc = 0;

	CHECK(xmlTextWriterStartElement(j->w, X("properties")));
	CHECK(property(j, "perfverdict.version", str(r->tool_version)));
	for (int k = 0; k < 2; k++) {
		CHECK(property(j, side_name[k], str(r->side[k].path)));
		if (r->label[k]) {
			strbuf_reset(&key);
			strbuf_addf(&key, "%s.label", side_name[k]);
			CHECK(property(j, key.buf, r->label[k]));
		}
	}
	CHECK(property(j, "test", pv_test_name(g->test)));
	CHECK(property(j, "correction", pv_correction_name(g->correction)));
	CHECK(property_num(j, "alpha", "%.6g", g->alpha));
	CHECK(property_num(j, "threshold", "%.6g", g->threshold));
	/* the environment where it differs: "old → new" */
	for (int k = 0; k < 2 && rc >= 0; k++) {
		const struct pv_sidemeta *sm = &r->side[k];

		for (size_t c = 0; rc >= 0 && c < sm->ncontext; c++) {
			const char *kk = str(sm->context[c].key);
			const char *bv = ctx_value(&r->side[0], kk);
			const char *cv = ctx_value(&r->side[1], kk);

			if ((k && bv) || ctx_value(sm, kk) != str(sm->context[c].value) ||
			    (bv && cv && !strcmp(bv, cv)))
				continue;
			strbuf_reset(&key);
			strbuf_addf(&key, "environment.%s", kk);
			strbuf_reset(&val);
			strbuf_addf(&val, "%s \xe2\x86\x92 %s", bv ? bv : "(none)",
				    cv ? cv : "(none)");
			rc = property(j, key.buf, val.buf);
		}
	}
	strbuf_release(&key);
	strbuf_release(&val);
	if (rc < 0)
		return -1;
	return xmlTextWriterEndElement(j->w);
}

static const char *dir_words(enum pv_dir d)
{
	switch (d) {
	case PV_DIR_HIGHER:
		return "higher is better";
	case PV_DIR_LOWER:
		return "lower is better";
	default:
		return "no direction";
	}
}

static void side_line(struct strbuf *sb, const char *label,
		      const struct pv_side_result *s, const char *unit)
{
	struct pv_summary sum;

	strbuf_addstr(sb, label);
	if (*unit) {
		strbuf_addstr(sb, " (");
		add_clean(sb, unit);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, ": ");
	pv_side_summary(s, &sum);
	strbuf_addstr(sb, "mean ");
	pv_fmt_num(sb, s->s.mean);
	if (s->s.n > 0 && !isnan(s->s.sd)) {
		strbuf_addstr(sb, ", sd ");
		pv_fmt_num(sb, s->s.sd);
	}
	strbuf_addf(sb, ", n %zu", (size_t)s->s.n);
	if (s->s.n > 0) {
		strbuf_addstr(sb, ", median ");
		pv_fmt_num(sb, sum.median);
		strbuf_addstr(sb, ", range ");
		pv_fmt_num(sb, sum.min);
		strbuf_addstr(sb, " .. ");
		pv_fmt_num(sb, sum.max);
		if (s->per_file > 1)
			strbuf_addf(sb, "; each sample is the mean of a "
				    "file's %u values", s->per_file);
	}
	if (s->note && *s->note) {
		strbuf_addstr(sb, "; ");
		add_clean(sb, s->note);
	}
	strbuf_addch(sb, '\n');
}

/* The numbers behind a verdict, one fact a line. */
static void detail_text(struct strbuf *sb, const struct pv_report *r,
			const struct pv_result *m)
{
	const char *unit = str(m->unit);

	struct strbuf tmp = STRBUF_INIT;
	const char *reason;

	strbuf_addstr(sb, "metric: ");
	add_clean(sb, pv_result_id(m, &tmp));
	strbuf_addf(sb, " (%s%s)\n", dir_words(m->direction),
		    m->dir_assumed ? ", assumed" : "");
	strbuf_addf(sb, "verdict: %s", pv_verdict_name(m->verdict));
	reason = pv_result_reason(r, m, &tmp);
	if (*reason) {
		strbuf_addstr(sb, ": ");
		add_clean(sb, reason);
	}
	strbuf_release(&tmp);
	strbuf_addch(sb, '\n');
	side_line(sb, "baseline", &m->side[0], unit);
	side_line(sb, "candidate", &m->side[1], unit);
	if (m->ratio)
		strbuf_addstr(sb, "note: the means shown are ratios of means "
			      "(avg_update); the test uses the raw values\n");
	strbuf_addstr(sb, "change: ");
	{
		struct pv_result no_ci = *m;

		no_ci.ci_low = no_ci.ci_high = NAN;
		pv_fmt_change(sb, &no_ci);
	}
	if (isfinite(m->ci_low) && isfinite(m->ci_high)) {
		strbuf_addstr(sb, ", ");
		pv_fmt_threshold(sb, 1 - m->alpha);
		strbuf_addstr(sb, " interval ");
		pv_fmt_interval(sb, m);
	}
	if (isfinite(m->change_abs) && isfinite(m->change_rel)) {
		strbuf_addstr(sb, " (");
		if (m->change_abs > 0)
			strbuf_addch(sb, '+');
		pv_fmt_num(sb, m->change_abs);
		if (*unit) {
			strbuf_addch(sb, ' ');
			add_clean(sb, unit);
		}
		strbuf_addch(sb, ')');
	}
	strbuf_addch(sb, '\n');
	if (m->tested) {
		strbuf_addf(sb, "test: %s, %s-sided, statistic ",
			    pv_test_name(m->test_used), pv_sided_name(m->sided));
		pv_fmt_num(sb, m->statistic);
		if (!isnan(m->df)) {
			strbuf_addstr(sb, ", df ");
			pv_fmt_num(sb, m->df);
		}
		strbuf_addstr(sb, ", p ");
		pv_fmt_p(sb, m->p);
		strbuf_addstr(sb, ", q ");
		pv_fmt_p(sb, m->q);
		strbuf_addf(sb, " (%s), alpha ",
			    pv_correction_name(r->settings.gate.correction));
		pv_fmt_p(sb, m->alpha);
		strbuf_addch(sb, '\n');
	} else {
		strbuf_addstr(sb, "test: none\n");
	}
	strbuf_addstr(sb, "threshold: ");
	pv_fmt_threshold(sb, m->threshold);
	if (isfinite(m->abs_threshold)) {
		strbuf_addstr(sb, " and ");
		pv_fmt_num(sb, m->abs_threshold);
		if (*unit) {
			strbuf_addch(sb, ' ');
			add_clean(sb, unit);
		}
		strbuf_addstr(sb, " absolute");
	}
	strbuf_addch(sb, '\n');
	if (m->verdict == PV_V_INCONCLUSIVE && isfinite(m->mde)) {
		strbuf_addstr(sb, "smallest detectable change: ");
		pv_fmt_threshold(sb, m->mde);
		strbuf_addch(sb, '\n');
	}
}

/* "<verdict>: <reason>", the message of an error or skipped element. */
static void reason_message(struct strbuf *sb, const struct pv_report *r,
			   const struct pv_result *m)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *reason = pv_result_reason(r, m, &tmp);

	strbuf_addstr(sb, pv_verdict_name(m->verdict));
	if (*reason) {
		strbuf_addstr(sb, ": ");
		add_clean(sb, reason);
	}
	strbuf_release(&tmp);
}

static int testcase(struct jw *j, const struct pv_report *r,
		    const struct pv_result *m, const struct ident *id)
{
	enum outcome out = outcome_of(r, m);
	const char *elem = NULL, *type = NULL;

	CHECK(xmlTextWriterStartElement(j->w, X("testcase")));
	CHECK(attr(j, "name", id->name));
	CHECK(attr(j, "classname", id->classname));
	CHECK(attr(j, "time", "0"));

	strbuf_reset(&j->b);
	detail_text(&j->b, r, m);
	strbuf_reset(&j->a);
	switch (out) {
	case OUT_FAILURE:
		elem = "failure";
		type = "PerformanceRegression";
		pv_fmt_regression_line(&j->a, m);
		break;
	case OUT_ERROR:
		elem = "error";
		type = m->verdict == PV_V_MISSING ? "MissingMetric" :
		       m->verdict == PV_V_INSUFFICIENT ? "InsufficientSamples" :
		       "InconclusiveResult";
		reason_message(&j->a, r, m);
		break;
	case OUT_SKIPPED:
		elem = "skipped";
		reason_message(&j->a, r, m);
		break;
	case OUT_PASS:
		break;
	}
	if (elem) {
		CHECK(xmlTextWriterStartElement(j->w, X(elem)));
		if (type)
			CHECK(attr(j, "type", type));
		CHECK(attr(j, "message", j->a.buf));
		/* GitLab shows the text of failure and error, not @message */
		if (out != OUT_SKIPPED)
			CHECK(xmlTextWriterWriteString(j->w, X(j->b.buf)));
		CHECK(xmlTextWriterEndElement(j->w));
	}
	/* the numbers once: in the failure or error, else here */
	if (out == OUT_PASS || out == OUT_SKIPPED) {
		CHECK(xmlTextWriterStartElement(j->w, X("system-out")));
		CHECK(xmlTextWriterWriteString(j->w, X(j->b.buf)));
		CHECK(xmlTextWriterEndElement(j->w));
	}
	return xmlTextWriterEndElement(j->w);
}

struct counts {
	size_t tests, failures, errors, skipped;
};

static void count_cases(const struct pv_report *r, const size_t *idx,
			size_t n, struct counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		c->tests++;
		switch (outcome_of(r, &r->m[idx[i]])) {
		case OUT_FAILURE:
			c->failures++;
			break;
		case OUT_ERROR:
			c->errors++;
			break;
		case OUT_SKIPPED:
			c->skipped++;
			break;
		case OUT_PASS:
			break;
		}
	}
}

static int document(struct jw *j, const struct pv_report *r)
{
	struct ident *id = make_idents(r);
	size_t *order, ng;
	struct tsuite *g = group_suites(r, &order, &ng);
	struct counts c;
	int rc = -1;

	if (xmlTextWriterSetIndent(j->w, 1) < 0 ||
	    xmlTextWriterSetIndentString(j->w, X("  ")) < 0 ||
	    xmlTextWriterStartDocument(j->w, NULL, "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(j->w, X("testsuites")) < 0 ||
	    attr(j, "name", "perfverdict") < 0)
		goto out;
	count_cases(r, order, r->n, &c);
	if (attr_size(j, "tests", c.tests) < 0 ||
	    attr_size(j, "failures", c.failures) < 0 ||
	    attr_size(j, "errors", c.errors) < 0 ||
	    attr(j, "time", "0") < 0)
		goto out;
	for (size_t k = 0; k < ng; k++) {
		const size_t *idx = order + g[k].first;
		const struct pv_result *m0 = &r->m[idx[0]];

		strbuf_reset(&j->b);
		add_clean(&j->b, m0->suite);
		if (m0->test && *m0->test) {
			strbuf_addch(&j->b, '/');
			add_clean(&j->b, m0->test);
		}
		count_cases(r, idx, g[k].count, &c);
		if (xmlTextWriterStartElement(j->w, X("testsuite")) < 0 ||
		    attr(j, "name", j->b.buf) < 0 ||
		    attr_size(j, "tests", c.tests) < 0 ||
		    attr_size(j, "failures", c.failures) < 0 ||
		    attr_size(j, "errors", c.errors) < 0 ||
		    attr_size(j, "skipped", c.skipped) < 0 ||
		    attr(j, "time", "0") < 0)
			goto out;
		if (r->generated_at &&
		    attr_clean(j, "timestamp", r->generated_at) < 0)
			goto out;
		if (properties(j, r) < 0)
			goto out;
		for (size_t i = 0; i < g[k].count; i++)
			if (testcase(j, r, &r->m[idx[i]], &id[idx[i]]) < 0)
				goto out;
		if (xmlTextWriterEndElement(j->w) < 0)
			goto out;
	}
	if (xmlTextWriterEndElement(j->w) < 0 ||
	    xmlTextWriterEndDocument(j->w) < 0 ||
	    xmlTextWriterFlush(j->w) < 0)
		goto out;
	rc = 0;
out:
	free(g);
	free(order);
	free_idents(id, r->n);
	return rc;
}

/* The document through a libxml2 writer whose output goes to j->fp. */
static int write_doc(struct jw *j, const struct pv_report *r)
{
	xmlOutputBufferPtr out;
	int rc;

	out = xmlOutputBufferCreateIO(out_write, out_close, j, NULL);
	if (!out)
		return -1;
	j->w = xmlNewTextWriter(out);
	if (!j->w) {
		xmlOutputBufferClose(out);
		return -1;
	}
	rc = document(j, r);
	xmlFreeTextWriter(j->w);    /* closes out */
	j->w = NULL;
	return rc;
}

/* libxml2 prints its own "I/O error" lines; our error says it better. */
static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int pv_write_junit(const struct pv_report *r, const struct pv_write_opts *o,
		   FILE *fp, struct pv_err *err)
{
	struct jw j = { NULL, fp, 0, STRBUF_INIT, STRBUF_INIT };
	xmlGenericErrorFunc old_fn = xmlGenericError;
	void *old_ctx = xmlGenericErrorContext;
	int rc;

	errno = 0;
	xmlSetGenericErrorFunc(NULL, quiet);
	rc = write_doc(&j, r);
	xmlSetGenericErrorFunc(old_ctx, old_fn);
	strbuf_release(&j.a);
	strbuf_release(&j.b);
	if (!rc && (fflush(fp) || ferror(fp)))
		rc = -1, j.write_errno = errno ? errno : EIO;
	if (rc < 0)
		return pv_write_failed(o, j.write_errno, err);
	return 0;
}

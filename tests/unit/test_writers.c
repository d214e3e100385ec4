/*
 * test_writers.c - the JUnit and Markdown writers, fed report models
 * built by hand: every verdict, undefined numbers, hostile names (| < >
 * & ]]> * _ ` \, ANSI escapes, @here, invalid UTF-8), identity
 * collisions, a 10,000-metric report, and write errors.
 *
 * The JUnit output is parsed back with libxml2 and validated against
 * schemas/junit.xsd and, when present, Jenkins' junit-10.xsd
 * ($PV_SHARED/reference, default ../shared next to the repository).
 * The Markdown is checked for section order, table shape, escaping, the
 * marker and the size limit.
 *
 * With PV_WRITERS_OUT=DIR set, the hostile and the 10,000-metric models
 * are also written there as NAME.xml, NAME.md and a NAME.json carrying
 * the JSON contract's fields that tests/lib/writers_check.py compares.
 */
#include "unit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <libxml/xpath.h>

#include "report.h"
#include "util/text.h"
#include "writers/fmt.h"
#include "writers/writers.h"

#define SCHEMA "schemas/junit.xsd"

static char root_dir[4096];     /* holds SCHEMA */
static char shared_dir[4096 + 16];

/* ------------------------------------------------------------ models */

static const char *hostile[] = {
	"pipe|name", "<script>alert(1)</script>", "amp & ]]> end",
	"*bold* _it_ `code` \\back", "\x1b[31mred\x1b[0m", "@here ping",
	"bad\xff\xfe utf8 \xc3", "tab\there\nnewline\rcr", "#123 [link](x)",
	"~~strike~~ $math$", "ctl\x01\x02\x7f", "\xe2\x80\xae" "evil",
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

static void report_base(struct pv_report *r)
{
	static struct pv_kv ctx0[] = {
		{ "kernel", "6.1.0-13" }, { "qemu", "8.0" },
		{ "host", "a|b" },
	};
	static struct pv_kv ctx1[] = {
		{ "kernel", "6.5.0-1" }, { "qemu", "8.0" },
		{ "cpu", "\x1b[1mXeon\x1b[0m" },
	};

	pv_report_init(r);
	r->tool_version = "0.1.0";
	r->generated_at = "2026-01-02T03:04:05Z";
	r->settings.config_path = "perf.conf";
	r->settings.suite = "netperf";
	r->settings.format = "auto";
	r->settings.gate.alpha = 0.05;
	r->settings.gate.test = PV_TEST_WELCH;
	r->settings.gate.correction = PV_CORR_HOLM;
	r->settings.gate.sided = PV_SIDED_TWO;
	r->settings.gate.threshold = 0.05;
	r->settings.gate.min_samples = 3;
	r->settings.gate.max_cv = 0.1;
	r->settings.gate.missing = PV_POLICY_FAIL;
	r->settings.gate.new_ = PV_POLICY_WARN;
	r->settings.gate.inconclusive = PV_POLICY_WARN;
	r->settings.gate.insufficient = PV_POLICY_WARN;
	r->settings.gate.direction = PV_DIR_LOWER;
	r->settings.markdown_limit = 65000;
	r->side[0].path = "base";
	r->side[1].path = "cand";
	r->side[0].files = r->side[1].files = 5;
	r->side[0].runs = r->side[1].runs = 5;
	/* pv_report_release() frees the context arrays */
	r->side[0].context = pv_malloc(sizeof(ctx0));
	memcpy(r->side[0].context, ctx0, sizeof(ctx0));
	r->side[0].ncontext = 3;
	r->side[1].context = pv_malloc(sizeof(ctx1));
	memcpy(r->side[1].context, ctx1, sizeof(ctx1));
	r->side[1].ncontext = 3;
}

/* A side of n samples whose median is mean and range mean -+ sd (the
 * moments are set as given, not computed). */
static void side(struct arena *a, struct pv_side_result *s, size_t n,
		 double mean, double sd)
{
	double *v = arena_alloc(a, (n + 1) * sizeof(*v));

	memset(s, 0, sizeof(*s));
	s->s.n = n;
	s->present = n > 0;
	s->files = (unsigned)n;
	s->per_file = 1;
	if (!n) {
		s->s.mean = s->s.sd = NAN;
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = mean;
	if (n > 1) {
		v[0] = mean - sd;
		v[1] = mean + sd;
	}
	s->samples = v;
	s->nsamples = (uint32_t)n;
	s->s.mean = mean;
	s->s.sd = n > 1 ? sd : NAN;
}

/* Append a metric with plausible numbers for its verdict. */
static struct pv_result *add(struct pv_report *r, const char *suite,
			     const char *test, const char *group,
			     const char *bench, const char *metric,
			     enum pv_verdict v)
{
	struct pv_result *m;
	double b = 1000, c = 1000, sb = 10, sc = 10;
	size_t nb = 5, nc = 5;

	/* capacity doubles at 16, 32, 64...: no quadratic copying */
	if (r->n >= 16 ? !(r->n & (r->n - 1)) : !r->n)
		r->m = pv_reallocarray(r->m, r->n ? 2 * r->n : 16,
				       sizeof(*r->m));
	m = &r->m[r->n++];
	memset(m, 0, sizeof(*m));
	m->suite = suite;
	m->test = test;
	m->group = group;
	m->benchmark = bench;
	m->metric = metric;
	m->unit = "Mbit/s";
	m->direction = PV_DIR_HIGHER;
	m->gated = 1;
	m->tested = 1;
	m->test_used = PV_TEST_WELCH;
	m->sided = PV_SIDED_TWO;
	m->threshold = 0.05;
	m->abs_threshold = NAN;
	m->alpha = 0.05;
	m->mde = NAN;
	m->statistic = 0.5;
	m->df = 7.9;
	m->p = 0.6;
	m->q = 0.9;
	m->verdict = v;
	switch (v) {
	case PV_V_REGRESSION:
	case PV_V_WAIVED:
		c = 918, m->statistic = -5.2, m->p = 0.003, m->q = 0.01;
		m->reason = v == PV_V_WAIVED ? "waived until 2026-12-31: "
			    "known slow host" : "throughput fell 8.2%";
		break;
	case PV_V_IMPROVEMENT:
		c = 1100, m->p = 0.001, m->q = 0.004;
		m->reason = "throughput rose 10%";
		break;
	case PV_V_UNCHANGED:
		c = 1001, m->reason = "no significant change";
		break;
	case PV_V_INCONCLUSIVE:
		c = 980, sb = sc = 60, m->mde = 0.12;
		m->reason = "cannot tell; a change below 12% was not detectable";
		break;
	case PV_V_NOISY:
		sb = 300, m->reason = "baseline CV 30% above max_cv 10%";
		break;
	case PV_V_INSUFFICIENT:
		nb = 2, m->tested = 0;
		m->reason = "2 runs on the baseline, fewer than min_samples 3";
		break;
	case PV_V_MISSING:
		nc = 0, m->tested = 0;
		m->reason = "not in the candidate";
		break;
	case PV_V_NEW:
		nb = 0, m->tested = 0;
		m->reason = "only in the candidate";
		break;
	case PV_V_UNGATED:
		c = 920, m->p = m->q = 0.002;
		m->direction = PV_DIR_NONE;
		m->gated = 0;
		m->reason = "not gated (direction none); moved -8.00% (p=0.002)";
		break;
	default:
		break;
	}
	side(&r->arena, &m->side[0], nb, b, sb);
	side(&r->arena, &m->side[1], nc, c, sc);
	m->change_abs = nb && nc ? c - b : NAN;
	m->change_rel = nb && nc ? (c - b) / b : NAN;
	m->ci_low = nb && nc ? m->change_rel - 0.02 : NAN;
	m->ci_high = nb && nc ? m->change_rel + 0.02 : NAN;
	if (!m->tested)
		m->statistic = m->df = m->p = m->q = NAN;
	return m;
}

/* One metric of each verdict, in enum order. */
static void all_verdicts(struct pv_report *r)
{
	static const char *names[PV_V_COUNT] = {
		"m_regression", "m_improvement", "m_unchanged",
		"m_inconclusive", "m_noisy", "m_insufficient", "m_missing",
		"m_new", "m_waived", "m_ungated",
	};

	report_base(r);
	for (int v = 0; v < PV_V_COUNT; v++)
		add(r, "netperf", "t1", "TCP_STREAM", "64 1", names[v],
		    (enum pv_verdict)v);
	pv_report_tally(r);
}

/* Every hostile string in every name position, plus all verdicts. */
static void hostile_model(struct pv_report *r)
{
	report_base(r);
	for (size_t i = 0; i < NHOSTILE; i++) {
		struct pv_result *m;

		m = add(r, "netperf", "t1", hostile[i], "bench",
			"throughput", (enum pv_verdict)(i % PV_V_COUNT));
		m->reason = hostile[(i + 1) % NHOSTILE];
		add(r, "netperf", "t1", "grp", hostile[i], hostile[i],
		    (enum pv_verdict)((i + 3) % PV_V_COUNT));
		m = add(r, hostile[i], hostile[i], "grp", "b", "m",
			PV_V_REGRESSION);
		m->unit = hostile[(i + 2) % NHOSTILE];
	}
	/* undefined numbers everywhere */
	{
		struct pv_result *m = add(r, "netperf", "t1", "nan", "nan",
					  "nan", PV_V_INCONCLUSIVE);

		m->side[0].s.mean = m->side[0].s.sd = NAN;
		m->change_abs = m->change_rel = NAN;
		m->ci_low = m->ci_high = m->p = m->q = NAN;
		m->statistic = m->df = m->mde = NAN;
		m->threshold = NAN;
	}
	pv_report_tally(r);
}

/* n metrics: a few regressions, some of each other verdict, long
 * hostile names. */
static void big_model(struct pv_report *r, size_t n)
{
	report_base(r);
	for (size_t i = 0; i < n; i++) {
		enum pv_verdict v = PV_V_UNCHANGED;
		const char *group, *bench, *metric;

		if (i % 97 == 0)
			v = PV_V_REGRESSION;
		else if (i % 89 == 0)
			v = PV_V_IMPROVEMENT;
		else if (i % 53 == 0)
			v = (enum pv_verdict)(PV_V_INCONCLUSIVE + i % 6);
		group = arena_printf(&r->arena, "group %zu | %s", i / 100,
				     hostile[i % NHOSTILE]);
		bench = arena_printf(&r->arena, "bench-%zu <%s> * _ ` \\ "
				     "a rather long benchmark name to make "
				     "rows wide", i, hostile[(i + 1) %
							   NHOSTILE]);
		metric = arena_printf(&r->arena, "metric_%zu @here", i % 7);
		add(r, "suite", "test", group, bench, metric, v)->change_rel
			*= 1 + (double)(i % 13) / 10;
	}
	pv_report_tally(r);
}

/* ----------------------------------------------------------- writing */

struct out {
	char *buf;
	size_t len;
};

static void write_junit(const struct pv_report *r, struct out *o)
{
	FILE *fp = open_memstream(&o->buf, &o->len);
	struct pv_err err;

	assert_non_null(fp);
	assert_int_equal(pv_write_junit(r, NULL, fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
}

static void write_md(const struct pv_report *r, size_t limit,
		     const char *json_name, struct out *o)
{
	FILE *fp = open_memstream(&o->buf, &o->len);
	struct pv_write_opts opts = { NULL, limit, json_name, NULL };
	struct pv_err err;

	assert_non_null(fp);
	assert_int_equal(pv_write_markdown(r, &opts, fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
}

/* ------------------------------------------------------- XML helpers */

static xmlDocPtr parse_xml(const struct out *o)
{
	xmlDocPtr doc = xmlReadMemory(o->buf, (int)o->len, "junit.xml", NULL,
				      XML_PARSE_NONET);

	assert_non_null(doc);
	return doc;
}

static double xp_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr res = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	double v;

	assert_non_null(res);
	v = xmlXPathCastToNumber(res);
	xmlXPathFreeObject(res);
	xmlXPathFreeContext(ctx);
	return v;
}

static char *xp_str(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr res = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	xmlChar *s;
	char *copy;

	assert_non_null(res);
	s = xmlXPathCastToString(res);
	copy = pv_strdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(res);
	xmlXPathFreeContext(ctx);
	return copy;
}

#define assert_xp(doc, expr, want) \
	assert_int_equal((long)xp_num((doc), (expr)), (long)(want))

static int validate(xmlDocPtr doc, const char *xsd)
{
	xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt(xsd);
	xmlSchemaPtr schema;
	xmlSchemaValidCtxtPtr vc;
	int rc;

	assert_non_null(pc);
	schema = xmlSchemaParse(pc);
	assert_non_null(schema);
	vc = xmlSchemaNewValidCtxt(schema);
	rc = xmlSchemaValidateDoc(vc, doc);
	xmlSchemaFreeValidCtxt(vc);
	xmlSchemaFree(schema);
	xmlSchemaFreeParserCtxt(pc);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Everything every JUnit file must satisfy: both schemas, clean text,
 * counts that agree with the cases, unique classname+name.
 */
static void check_junit(const struct out *o, size_t ncases)
{
	xmlDocPtr doc = parse_xml(o);
	char path[8192];
	xmlXPathContextPtr ctx;
	xmlXPathObjectPtr set;
	char **keys;
	size_t n;

	/* no raw controls but LF, no invalid UTF-8, no CDATA */
	for (size_t i = 0, start = 0; i <= o->len; i++) {
		if (i == o->len || o->buf[i] == '\n') {
			assert_true(pv_text_is_clean(o->buf + start,
						     i - start));
			start = i + 1;
		}
	}
	assert_null(strstr(o->buf, "<![CDATA["));

	snprintf(path, sizeof(path), "%s/%s", root_dir, SCHEMA);
	assert_int_equal(validate(doc, path), 0);
	snprintf(path, sizeof(path), "%s/reference/junit-10.xsd", shared_dir);
	if (access(path, R_OK) == 0)
		assert_int_equal(validate(doc, path), 0);

	assert_xp(doc, "count(//testcase)", ncases);
	assert_xp(doc, "sum(/testsuites/testsuite/@tests)", ncases);
	assert_xp(doc, "/testsuites/@tests", ncases);
	assert_xp(doc, "/testsuites/@failures", xp_num(doc,
		  "count(//testcase/failure)"));
	assert_xp(doc, "/testsuites/@errors", xp_num(doc,
		  "count(//testcase/error)"));
	assert_xp(doc, "count(//testsuite[@tests != count(testcase)])", 0);
	assert_xp(doc, "count(//testsuite[@failures != "
		  "count(testcase/failure)])", 0);
	assert_xp(doc, "count(//testsuite[@errors != count(testcase/error)])",
		  0);
	assert_xp(doc, "count(//testsuite[@skipped != "
		  "count(testcase/skipped)])", 0);
	assert_xp(doc, "count(//testcase[count(failure|error|skipped) > 1])",
		  0);
	/* the numbers exactly once per case */
	assert_xp(doc, "count(//testcase[count(failure|error|system-out) "
		  "!= 1])", 0);

	ctx = xmlXPathNewContext(doc);
	set = xmlXPathEvalExpression(BAD_CAST "//testcase", ctx);
	n = set->nodesetval ? (size_t)set->nodesetval->nodeNr : 0;
	assert_int_equal(n, ncases);
	keys = pv_calloc(n ? n : 1, sizeof(*keys));
	for (size_t i = 0; i < n; i++) {
		xmlNodePtr node = set->nodesetval->nodeTab[i];
		xmlChar *cls = xmlGetProp(node, BAD_CAST "classname");
		xmlChar *name = xmlGetProp(node, BAD_CAST "name");
		size_t len;

		assert_non_null(cls);
		assert_non_null(name);
		len = strlen((char *)cls) + strlen((char *)name) + 2;
		keys[i] = pv_malloc(len);
		snprintf(keys[i], len, "%s\n%s", (char *)cls, (char *)name);
		xmlFree(cls);
		xmlFree(name);
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			fail_msg("duplicate testcase: %s", keys[i]);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	xmlXPathFreeObject(set);
	xmlXPathFreeContext(ctx);
	xmlFreeDoc(doc);
}

/* -------------------------------------------------- Markdown helpers */

/* Unescaped '|' in a line: a backslash run of odd length escapes it. */
static size_t pipes(const char *s, size_t len)
{
	size_t n = 0, bs = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\') {
			bs++;
			continue;
		}
		if (s[i] == '|' && bs % 2 == 0)
			n++;
		bs = 0;
	}
	return n;
}

/*
 * Tables: a header, a delimiter row with as many cells, rows with as
 * many cells, a blank line before and after.  Returns the count.
 */
static size_t check_md_tables(const char *md)
{
	size_t tables = 0, cells = 0, row = 0;
	const char *prev = NULL, *line = md;
	size_t prev_len = 0;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len && line[0] == '|') {
			size_t c = pipes(line, len);

			assert_int_equal(line[len - 1], '|');
			if (!row) {
				/* a table starts after a blank line */
				assert_true(prev && prev_len == 0);
				cells = c;
				tables++;
			} else if (row == 1) {
				assert_true(strspn(line, "|-: ") == len);
			}
			if (c != cells)
				fail_msg("table row with %zu cells, header has "
					 "%zu: %.*s", c - 1, cells - 1,
					 (int)len, line);
			row++;
		} else {
			if (row) {
				assert_true(row >= 2);
				assert_int_equal(len, 0);
			}
			row = 0;
		}
		prev = line;
		prev_len = len;
		if (!nl)
			break;
		line = nl + 1;
	}
	assert_int_equal(row, 0);
	return tables;
}

/*
 * s with the content of every code span replaced by 'x': there '<' is
 * text and GitHub links no mention or issue, so the checks of raw
 * Markdown look at the rest.
 */
static char *without_code(const char *s)
{
	char *t = pv_strdup(s);
	size_t n = strlen(t);

	for (size_t i = 0; i < n; i++) {
		size_t run = 0, j;

		if (t[i] == '\\') {
			i++;
			continue;
		}
		if (t[i] != '`')
			continue;
		while (i + run < n && t[i + run] == '`')
			run++;
		/* the closing run of the same length */
		for (j = i + run; j < n; j++) {
			size_t r2 = 0;

			while (j + r2 < n && t[j + r2] == '`')
				r2++;
			if (r2 == run)
				break;
			j += r2;
		}
		if (j >= n) {
			i += run - 1;
			continue;
		}
		for (size_t k = i + run; k < j; k++)
			t[k] = 'x';
		i = j + run - 1;
	}
	return t;
}

static void check_md_common(const struct out *o)
{
	static const char marker[] = "<!-- perfverdict-report -->\n";
	char *plain = without_code(o->buf);
	const char *s = plain;

	assert_int_equal(strlen(s), o->len);
	/* clean text line by line, no raw hostile bits */
	for (size_t i = 0, start = 0; i <= o->len; i++) {
		if (i == o->len || s[i] == '\n') {
			assert_true(pv_text_is_clean(s + start, i - start));
			start = i + 1;
		}
	}
	/* every raw '<' is one of our own tags */
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		static const char *const tags[] = {
			"<details>", "<summary>", "</summary>", "</details>",
			"<sub>", "</sub>", "<!-- perfverdict-report -->",
		};
		int ok = p > s && p[-1] == '\\';

		for (size_t i = 0; !ok && i < sizeof(tags) / sizeof(*tags);
		     i++)
			ok = !strncmp(p, tags[i], strlen(tags[i]));
		if (!ok)
			fail_msg("raw '<' in Markdown: %.40s", p);
	}
	assert_null(strstr(s, "@here"));
	assert_null(strstr(s, "#123"));
	assert_null(strstr(o->buf, "\xe2\x80\xae"));
	assert_null(strstr(o->buf, "\xe2\x80\x8b"));
	assert_null(strstr(s, "~~strike"));
	assert_true(s[0] == '#' && s[1] == '#' && s[2] == ' ');
	assert_true(o->len >= sizeof(marker) - 1);
	assert_string_equal(s + o->len - (sizeof(marker) - 1), marker);
	check_md_tables(o->buf);
	free(plain);
}

/* The position of needle in hay, or SIZE_MAX. */
static size_t pos(const char *hay, const char *needle)
{
	const char *p = strstr(hay, needle);

	return p ? (size_t)(p - hay) : (size_t)-1;
}

/* ------------------------------------------------------------- tests */

static void fmt_numbers(void **state)
{
	static const struct {
		double v;
		const char *num, *pct, *p;
	} t[] = {
		{ 0, "0", "0%", "0" },
		{ 1, "1.000", "+100%", "1" },
		{ 12.345, "12.35", "+1234%", "12" },
		{ 93456.78, "93457", "+9345678%", "9.3e+04" },
		{ -0.0825, "-0.08250", "-8.2%", "-0.083" },
		{ 0.003, "0.003000", "+0.30%", "0.003" },
		{ 1.5e-05, "1.5e-05", "+0.00%", "1.5e-05" },
		{ 2e15, "2e+15", "+200000000000000000%", "2e+15" },
		{ NAN, "n/a", "n/a", "n/a" },
		{ INFINITY, "inf", "+inf%", "inf" },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		strbuf_reset(&sb);
		pv_fmt_num(&sb, t[i].v);
		assert_string_equal(sb.buf, t[i].num);
		strbuf_reset(&sb);
		pv_fmt_pct(&sb, t[i].v);
		assert_string_equal(sb.buf, t[i].pct);
		strbuf_reset(&sb);
		pv_fmt_p(&sb, t[i].v);
		assert_string_equal(sb.buf, t[i].p);
	}
	strbuf_reset(&sb);
	pv_fmt_threshold(&sb, 0.05);
	assert_string_equal(sb.buf, "5%");
	strbuf_release(&sb);
}

/* strbuf_addfixed and strbuf_addg print what printf prints, on random
 * values, exact binary halves (k/2^j), decimal near-halves and edges. */
static void fmt_fixed_matches_printf(void **state)
{
	static const double edge[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 1.005, 2.675,
		0.045, 1e-300, -1e-300, 999999.5, 1e9, 1e15, 1e300, NAN,
		INFINITY, -INFINITY, 0.0049999999999999, 123456.785,
	};
	uint64_t rng = 0x853c49e6748fea9bULL;
	struct strbuf sb = STRBUF_INIT;
	char want[400];

	(void)state;
	for (size_t i = 0; i < 1000000; i++) {
		double v;
		int prec, plus;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		prec = (int)(rng >> 61) % 5;
		plus = (int)(rng >> 60) & 1;
		switch (i % 4) {
		case 0:     /* random magnitude */
			v = ldexp((double)(rng >> 11) / 0x1p53, (int)(rng % 60) - 30);
			break;
		case 1:     /* exact binary halves at the printed precision */
			v = (double)(int64_t)(rng >> 40) / 0x1p10;
			break;
		case 2:     /* decimal halves: x.xx5, which are not exact */
			v = ((double)(rng >> 44) + 0.5) / pow(10, prec);
			break;
		default:
			v = edge[(rng >> 33) % (sizeof(edge) / sizeof(*edge))];
			break;
		}
		if (rng & 1)
			v = -v;
		strbuf_reset(&sb);
		strbuf_addfixed(&sb, v, prec, plus);
		snprintf(want, sizeof(want), plus ? "%+.*f" : "%.*f", prec, v);
		assert_string_equal(sb.buf, want);
		strbuf_reset(&sb);
		strbuf_addg(&sb, v);
		snprintf(want, sizeof(want), "%g", v);
		assert_string_equal(sb.buf, want);
	}
	strbuf_release(&sb);
}

/* Human units: time scaled to the unit in which the value is at least
 * 1, SI prefixes from 10,000 up, one scale for both sides. */
static void fmt_human_units(void **state)
{
	static const struct {
		double v;
		const char *unit, *want;
	} t[] = {
		{ 160296, "ns", "160.3 \xc2\xb5s" },
		{ 999, "ns", "999.0 ns" },
		{ 1.5e9, "ns", "1.500 s" },
		{ 0.00042, "s", "420.0 \xc2\xb5s" },
		{ 2500, "us", "2.500 ms" },
		{ 398882, "ns/op", "398.9 \xc2\xb5s/op" },
		{ 25802117, "items/s", "25.80 M items/s" },
		{ 1865658, "", "1.866 M" },
		{ 9311, "", "9311" },
		{ 12000, "B", "12.00 k B" },
		{ 3.2e12, "B/s", "3.200 T B/s" },
		{ 0, "ns", "0 ns" },
	};
	struct strbuf sb = STRBUF_INIT;
	struct pv_report r;
	struct pv_result *m;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		strbuf_reset(&sb);
		pv_fmt_human(&sb, t[i].v, t[i].unit);
		assert_string_equal(sb.buf, t[i].want);
	}
	report_base(&r);
	m = add(&r, "s", "t", "g", "b", "real_time", PV_V_REGRESSION);
	m->unit = "ns";
	m->side[0].s.mean = 160296;
	m->side[1].s.mean = 204700;
	m->change_rel = (204700 - 160296) / 160296.0;
	m->ci_low = 0.257;
	m->ci_high = 0.297;
	strbuf_reset(&sb);
	pv_fmt_move(&sb, m, NULL);
	assert_string_equal(sb.buf, "160.3 \xe2\x86\x92 204.7 \xc2\xb5s (+27.7%)");
	strbuf_reset(&sb);
	pv_fmt_means(&sb, m, NULL);
	assert_string_equal(sb.buf, "160.3 \xe2\x86\x92 204.7 \xc2\xb5s");
	m->side[1].present = 0;
	m->side[1].s.n = 0;
	strbuf_reset(&sb);
	pv_fmt_move(&sb, m, NULL);
	assert_string_equal(sb.buf, "160.3 \xe2\x86\x92 \xe2\x80\x94 \xc2\xb5s");
	strbuf_reset(&sb);
	pv_fmt_interval(&sb, m);
	assert_string_equal(sb.buf, "+25.7% \xe2\x80\xa6 +29.7%");
	{
		char buf[16];

		assert_string_equal(pv_fmt_label("0123456789abcdef0123456789abcdef01234567",
						  buf, sizeof(buf)), "0123456789ab");
		assert_string_equal(pv_fmt_label("main", buf, sizeof(buf)), "main");
		assert_null(pv_fmt_label("", buf, sizeof(buf)));
	}
	strbuf_release(&sb);
	pv_report_release(&r);
}

/* Labels from the CI's variables, the first one set winning. */
static const char *const *fake_env;

static char *fake_getenv(const char *name)
{
	for (size_t i = 0; fake_env[i]; i += 2)
		if (!strcmp(fake_env[i], name))
			return (char *)fake_env[i + 1];
	return NULL;
}

static void labels_from_env(void **state)
{
	static const char *const github[] = {
		"GITHUB_SHA", "ffac537e6cbbf934b08745a378932722df287a53",
		"GITHUB_BASE_REF", "main", "GIT_COMMIT", "jenkins", NULL,
	};
	static const char *const gitlab[] = {
		"CI_COMMIT_SHA", "abc", "CI_MERGE_REQUEST_DIFF_BASE_SHA", "def",
		"GITHUB_BASE_REF", "", NULL,
	};
	static const char *const jenkins[] = {
		"GIT_COMMIT", "123", "CHANGE_TARGET", "develop", NULL,
	};
	static const char *const none[] = { "GITHUB_SHA", "", NULL };

	(void)state;
	fake_env = github;
	assert_string_equal(pv_label_from_env(1, fake_getenv),
			    "ffac537e6cbbf934b08745a378932722df287a53");
	assert_string_equal(pv_label_from_env(0, fake_getenv), "main");
	fake_env = gitlab;
	assert_string_equal(pv_label_from_env(1, fake_getenv), "abc");
	assert_string_equal(pv_label_from_env(0, fake_getenv), "def");
	fake_env = jenkins;
	assert_string_equal(pv_label_from_env(1, fake_getenv), "123");
	assert_string_equal(pv_label_from_env(0, fake_getenv), "develop");
	fake_env = none;
	assert_null(pv_label_from_env(1, fake_getenv));
	assert_null(pv_label_from_env(0, fake_getenv));
}

static void fmt_regression_line(void **state)
{
	struct pv_report r;
	struct strbuf sb = STRBUF_INIT;
	struct pv_result *m;

	(void)state;
	report_base(&r);
	m = add(&r, "s", "t", "g", "b", "throughput", PV_V_REGRESSION);
	m->change_rel = -0.082;
	m->ci_low = -0.101;
	m->ci_high = -0.063;
	pv_fmt_regression_line(&sb, m);
	assert_string_equal(sb.buf, "throughput: -8.2% (1000 \xe2\x86\x92 "
			    "918.0 Mbit/s), threshold 5%, q=0.01");
	assert_int_equal(pv_fmt_better(m), -1);
	m->direction = PV_DIR_LOWER;
	assert_int_equal(pv_fmt_better(m), 1);
	m->direction = PV_DIR_NONE;
	assert_int_equal(pv_fmt_better(m), 0);
	strbuf_release(&sb);
	pv_report_release(&r);
}

static void junit_verdicts(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };
	xmlDocPtr doc;
	char *s;

	(void)state;
	all_verdicts(&r);
	r.label[1] = "feature";
	write_junit(&r, &o);
	check_junit(&o, PV_V_COUNT);
	doc = parse_xml(&o);
	assert_xp(doc, "count(/testsuites/testsuite)", 1);
	assert_xp(doc, "/testsuites/@failures", 1);
	assert_xp(doc, "/testsuites/@errors", 1);   /* missing=fail */
	/* inconclusive, noisy, insufficient, waived, ungated */
	assert_xp(doc, "/testsuites/testsuite/@skipped", 5);
	s = xp_str(doc, "//testcase[@name='64 1 m_regression']/@classname");
	assert_string_equal(s, "netperf.TCP_STREAM");
	free(s);
	s = xp_str(doc, "//testcase[@name='64 1 m_regression']/failure/@type");
	assert_string_equal(s, "PerformanceRegression");
	free(s);
	s = xp_str(doc, "//testcase[@name='64 1 m_regression']/failure/"
		   "@message");
	assert_string_equal(s, "m_regression: -8.2% (1000 \xe2\x86\x92 918.0 "
			    "Mbit/s), threshold 5%, q=0.01");
	free(s);
	s = xp_str(doc, "//testcase[@name='64 1 m_regression']/failure");
	assert_non_null(strstr(s, "baseline (Mbit/s): mean 1000, sd 10.00, "
			       "n 5, median 1000, range 990.0 .. 1010\n"));
	assert_non_null(strstr(s, "candidate (Mbit/s): mean 918.0, sd 10.00, "
			       "n 5"));
	assert_non_null(strstr(s, "change: -8.2%, 95% interval -10.2% "
			       "\xe2\x80\xa6 -6.2% (-82.00 Mbit/s)"));
	assert_non_null(strstr(s, "test: welch, two-sided"));
	assert_non_null(strstr(s, "threshold: 5%"));
	free(s);
	s = xp_str(doc, "//testcase[@name='64 1 m_missing']/error/@message");
	assert_string_equal(s, "missing: not in the candidate");
	free(s);
	s = xp_str(doc, "//testcase[@name='64 1 m_waived']/skipped/@message");
	assert_string_equal(s, "waived: waived until 2026-12-31: known slow "
			    "host");
	free(s);
	assert_xp(doc, "count(//testcase[@name='64 1 m_new']/*[name() != "
		  "'system-out'])", 0);
	assert_xp(doc, "count(//testcase[@name='64 1 m_improvement']/*"
		  "[name() != 'system-out'])", 0);
	/* the settings a reader needs, the labels, and only the
	 * environment that differs */
	s = xp_str(doc, "//property[@name='test']/@value");
	assert_string_equal(s, "welch");
	free(s);
	s = xp_str(doc, "//property[@name='environment.cpu']/@value");
	assert_string_equal(s, "(none) \xe2\x86\x92 Xeon");
	free(s);
	s = xp_str(doc, "//property[@name='environment.host']/@value");
	assert_string_equal(s, "a|b \xe2\x86\x92 (none)");
	free(s);
	s = xp_str(doc, "//property[@name='environment.kernel']/@value");
	assert_string_equal(s, "6.1.0-13 \xe2\x86\x92 6.5.0-1");
	free(s);
	s = xp_str(doc, "//property[@name='candidate.label']/@value");
	assert_string_equal(s, "feature");
	free(s);
	assert_xp(doc, "count(//property[@name='environment.qemu'])", 0);
	assert_xp(doc, "count(//property[@name='baseline.label'])", 0);
	assert_xp(doc, "count(//property[@name='alpha' or @name='correction' "
		  "or @name='threshold'])", 3);
	assert_xp(doc, "count(//property[@name='min_samples' or @name='sided' "
		  "or @name='max_cv'])", 0);
	s = xp_str(doc, "//testcase[@name='64 1 m_ungated']/skipped/@message");
	assert_string_equal(s, "ungated: not gated (direction none); moved "
			    "-8.00% (p=0.002)");
	free(s);
	xmlFreeDoc(doc);
	free(o.buf);

	/* with missing=warn a missing metric no longer fails the case */
	r.settings.gate.missing = PV_POLICY_WARN;
	r.settings.gate.inconclusive = PV_POLICY_FAIL;
	write_junit(&r, &o);
	check_junit(&o, PV_V_COUNT);
	doc = parse_xml(&o);
	assert_xp(doc, "count(//testcase[@name='64 1 m_missing']/skipped)", 1);
	assert_xp(doc, "count(//testcase[@name='64 1 m_inconclusive']/error)",
		  1);
	xmlFreeDoc(doc);
	free(o.buf);
	pv_report_release(&r);
}

static void junit_hostile(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 }, again = { NULL, 0 };

	(void)state;
	hostile_model(&r);
	write_junit(&r, &o);
	check_junit(&o, r.n);
	assert_null(strstr(o.buf, "\x1b"));
	assert_null(strstr(o.buf, "]]>"));
	assert_non_null(strstr(o.buf, "]]&gt;"));
	/* deterministic */
	write_junit(&r, &again);
	assert_int_equal(o.len, again.len);
	assert_memory_equal(o.buf, again.buf, o.len);
	free(o.buf);
	free(again.buf);
	pv_report_release(&r);
}

static void junit_identity_collisions(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };
	xmlDocPtr doc;

	(void)state;
	report_base(&r);
	/* same suite/group/benchmark/metric in two tests */
	add(&r, "s", "t1", "g", "b", "m", PV_V_UNCHANGED);
	add(&r, "s", "t2", "g", "b", "m", PV_V_UNCHANGED);
	/* names that clean to the same text */
	add(&r, "s", "t3", "g", "b", "x", PV_V_UNCHANGED);
	add(&r, "s", "t3", "g", "b", "\x1b[1mx", PV_V_UNCHANGED);
	add(&r, "s", "t3", "g", "b", "x\x1b[0m", PV_V_UNCHANGED);
	/* "a.b" + "c" and "a" + "b.c" */
	add(&r, "a.b", "t", "c", "b", "m", PV_V_UNCHANGED);
	add(&r, "a", "t", "b.c", "b", "m", PV_V_UNCHANGED);
	/* a real name that looks like a disambiguated one */
	add(&r, "s", "t1", "g", "b", "m [t1]", PV_V_UNCHANGED);
	pv_report_tally(&r);
	write_junit(&r, &o);
	check_junit(&o, r.n);
	doc = parse_xml(&o);
	assert_xp(doc, "count(//testcase[@name='b m [t1]'])", 1);
	assert_xp(doc, "count(//testcase[@name='b m [t2]'])", 1);
	assert_xp(doc, "count(//testcase[@name='b m [t1] #2'])", 1);
	/* same test: the test would not tell them apart */
	assert_xp(doc, "count(//testcase[@name='b x'])", 1);
	assert_xp(doc, "count(//testcase[@name='b x #2'])", 1);
	assert_xp(doc, "count(//testcase[@name='b x #3'])", 1);
	assert_xp(doc, "count(//testcase[@classname='a.b.c' and @name='b m'])",
		  1);
	assert_xp(doc, "count(//testcase[@classname='a.b.c' and "
		  "@name='b m #2'])", 1);
	assert_xp(doc, "count(/testsuites/testsuite)", 5);
	xmlFreeDoc(doc);
	free(o.buf);
	pv_report_release(&r);
}

static void empty_report(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };

	(void)state;
	report_base(&r);
	pv_report_tally(&r);
	write_junit(&r, &o);
	check_junit(&o, 0);
	free(o.buf);
	write_md(&r, 0, NULL, &o);
	check_md_common(&o);
	assert_non_null(strstr(o.buf, "## \xe2\x9c\x85 Performance gate passed\n\n"));
	assert_null(strstr(o.buf, "regression"));
	assert_null(strstr(o.buf, "<details>"));
	free(o.buf);
	pv_report_release(&r);
}

static void md_sections(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };
	size_t p[8];

	(void)state;
	all_verdicts(&r);
	r.label[0] = "main";
	r.label[1] = "0123456789abcdef0123456789abcdef01234567";
	write_md(&r, 65000, "report.json", &o);
	check_md_common(&o);
	/* regressions, their numbers, other changes, the ungated that
	 * moved, the full table */
	assert_int_equal(check_md_tables(o.buf), 5);
	/* the outcome, the largest regression in words, non-zero counts */
	assert_non_null(strstr(o.buf, "## \xe2\x9d\x8c Performance gate "
			       "failed\n\n**m\\_regression** of TCP\\_STREAM"
			       "\xc2\xa0" "64 1 got 8.2% worse (1000 \xe2\x86\x92 "
			       "918.0 Mbit/s).\n\n1 regression \xc2\xb7 1 missing "
			       "\xc2\xb7 1 inconclusive \xc2\xb7 1 noisy \xc2\xb7 "
			       "1 insufficient \xc2\xb7 1 waived \xc2\xb7 1 "
			       "improvement \xc2\xb7 1 new \xc2\xb7 1 ungated "
			       "\xc2\xb7 1 unchanged\n\n"));
	/* provenance: labels, a commit cut to 12 digits, runs */
	assert_non_null(strstr(o.buf, "Comparing candidate **0123456789ab** "
			       "(5 runs) with baseline **main** (5 runs).\n\n"));
	p[0] = pos(o.buf, "## ");
	p[1] = pos(o.buf, "Comparing candidate");
	p[2] = pos(o.buf, "**Environment differs:**");
	p[3] = pos(o.buf, "<sub>Baseline \xe2\x86\x92 candidate: the means "
		   "\xc2\xb7 interval: 95% confidence interval of the change "
		   "\xc2\xb7 q: Holm-adjusted p-value");
	p[4] = pos(o.buf, "### Regressions (1)\n\n");
	p[5] = pos(o.buf, "### Other changes\n\n");
	p[6] = pos(o.buf, "<details><summary>All 10 metrics</summary>\n\n");
	p[7] = pos(o.buf, "<!-- perfverdict-report -->");
	for (int i = 1; i < 8; i++)
		assert_true(p[i - 1] < p[i] && p[i] != (size_t)-1);
	/* the regression row: the move, its interval, q; no threshold
	 * column when every threshold is the gate's */
	assert_non_null(strstr(o.buf, "| TCP\\_STREAM\xc2\xa0" "64 1 | "
			       "m\\_regression | 1000\xc2\xa0\xe2\x86\x92\xc2\xa0"
			       "918.0\xc2\xa0Mbit/s\xc2\xa0(-8.2%) | "
			       "-10.2%\xc2\xa0\xe2\x80\xa6\xc2\xa0-6.2% | 0.01 |\n"));
	/* sd, n and the test, collapsed */
	assert_non_null(strstr(o.buf, "| 1000 \xc2\xb1 10.00 Mbit/s, n=5 | "
			       "918.0 \xc2\xb1 10.00 Mbit/s, n=5 | welch, "
			       "two-sided, df 7.900 | 0.003 |\n"));
	/* other changes: improvements first, which way an undecided
	 * metric moved, reasons in a list */
	assert_true(pos(o.buf, "improvement | TCP") <
		    pos(o.buf, "| missing | TCP"));
	assert_non_null(strstr(o.buf, "| inconclusive, worse | TCP"));
	assert_non_null(strstr(o.buf, "64 1 m\\_missing: not in the "
			       "candidate\n"));
	/* the ungated metric moved beyond the threshold with q < alpha:
	 * listed, and never called unchanged */
	assert_non_null(strstr(o.buf, "<details><summary>1 ungated metric "
			       "moved beyond the threshold"));
	assert_non_null(strstr(o.buf, "| 64 1 | m\\_ungated | 1000\xc2\xa0"
			       "\xe2\x86\x92\xc2\xa0" "920.0\xc2\xa0Mbit/s\xc2\xa0"
			       "(-8.0%) | ungated |\n"));
	/* the full table, narrow, with better/worse */
	assert_non_null(strstr(o.buf, "| 64 1 | m\\_improvement | 1000\xc2\xa0"
			       "\xe2\x86\x92\xc2\xa0" "1100\xc2\xa0Mbit/s\xc2\xa0"
			       "(+10.0%) | \xf0\x9f\x9f\xa2 improvement |\n"));
	/* environment: kernel differs, qemu does not, one-sided keys;
	 * host is a key that always differs but one side lacks it */
	assert_non_null(strstr(o.buf, "kernel 6.1.0-13 \xe2\x86\x92 6.5.0-1"));
	assert_null(strstr(o.buf, "qemu 8.0"));
	assert_non_null(strstr(o.buf, "host a\\|b \xe2\x86\x92 (none)"));
	assert_non_null(strstr(o.buf, "cpu (none) \xe2\x86\x92 Xeon"));
	/* nothing left out, so no note */
	assert_null(strstr(o.buf, "to fit the"));
	assert_null(strstr(o.buf, "not shown"));
	free(o.buf);

	/* a passing gate, no environment difference */
	r.m[0].verdict = PV_V_UNCHANGED;
	r.m[6].verdict = PV_V_UNCHANGED;
	r.m[8].verdict = PV_V_UNCHANGED;
	pv_report_tally(&r);
	r.side[1].ncontext = 2;
	r.side[1].context[0].value = "6.1.0-13";
	r.side[0].ncontext = 2;
	write_md(&r, 0, NULL, &o);
	check_md_common(&o);
	assert_int_equal(strncmp(o.buf, "## \xe2\x9c\x85 Performance gate "
				 "passed\n\n1 inconclusive", 41), 0);
	assert_null(strstr(o.buf, "### Regressions"));
	assert_null(strstr(o.buf, "Environment differs"));
	free(o.buf);

	/* keys that always differ (hosts, paths, dates) are left out
	 * unless their values differ in kind */
	{
		static struct pv_kv c0[] = {
			{ "host_name", "ci-runner-12" },
			{ "executable", "/tmp/a1/bench" },
			{ "date", "2026-01-01" },
		};
		static struct pv_kv c1[] = {
			{ "host_name", "ci-runner-7" },
			{ "executable", "/tmp/b2/bench_debug" },
			{ "date", "2026-01-02" },
		};

		struct pv_kv *keep0 = r.side[0].context;
		struct pv_kv *keep1 = r.side[1].context;

		r.side[0].context = c0;
		r.side[0].ncontext = 3;
		r.side[1].context = c1;
		r.side[1].ncontext = 3;
		write_md(&r, 0, NULL, &o);
		r.side[0].context = keep0;
		r.side[1].context = keep1;
		r.side[0].ncontext = r.side[1].ncontext = 0;
		check_md_common(&o);
		assert_null(strstr(o.buf, "host\\_name"));
		assert_null(strstr(o.buf, "date 2026"));
		assert_non_null(strstr(o.buf, "executable /tmp/a1/bench "
				       "\xe2\x86\x92 /tmp/b2/bench\\_debug"));
		free(o.buf);
	}
	pv_report_release(&r);
}

static void md_hostile(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };

	(void)state;
	hostile_model(&r);
	write_md(&r, 65000, "out/<re|port>.json", &o);
	assert_null(strstr(o.buf, "out/"));
	check_md_common(&o);
	assert_non_null(strstr(o.buf, "pipe\\|name"));
	assert_non_null(strstr(o.buf, "\\<script\\>alert(1)\\</script\\>"));
	assert_non_null(strstr(o.buf, "amp \\& \\]\\]\\> end"));
	assert_non_null(strstr(o.buf, "\\*bold\\* \\_it\\_ \\`code\\` "
			       "\\\\back"));
	/* text GitHub would link is a code span, without U+200B */
	assert_non_null(strstr(o.buf, "`@here ping`"));
	assert_non_null(strstr(o.buf, "`#123 [link](x)`"));
	assert_null(strstr(o.buf, "\xe2\x80\x8b"));
	assert_non_null(strstr(o.buf, "\\~\\~strike\\~\\~ \\$math\\$"));
	assert_non_null(strstr(o.buf, "bad\xef\xbf\xbd\xef\xbf\xbd utf8"));
	assert_non_null(strstr(o.buf, "tab here newline cr"));
	assert_non_null(strstr(o.buf, "| red |"));
	assert_null(strstr(o.buf, "\x1b"));
	free(o.buf);
	pv_report_release(&r);
}

/* The HTML page: hostile names escaped, a figure per regression and
 * improvement, every metric in the table, nothing that loads. */
static void html_hostile(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };
	FILE *fp;
	struct pv_err err;
	size_t figs = 0, rows = 0, want = 0;

	(void)state;
	hostile_model(&r);
	r.label[1] = "<b>label</b>";
	fp = open_memstream(&o.buf, &o.len);
	assert_non_null(fp);
	assert_int_equal(pv_write_html(&r, NULL, fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
	for (size_t i = 0, start = 0; i <= o.len; i++) {
		if (i == o.len || o.buf[i] == '\n') {
			assert_true(pv_text_is_clean(o.buf + start, i - start));
			start = i + 1;
		}
	}
	assert_null(strstr(o.buf, "<script>alert"));
	assert_non_null(strstr(o.buf, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(o.buf, "&lt;b&gt;label&lt;/b&gt;"));
	assert_null(strstr(o.buf, "\x1b"));
	assert_null(strstr(o.buf, "://"));
	assert_null(strstr(o.buf, " src="));
	assert_null(strstr(o.buf, " href="));
	assert_non_null(strstr(o.buf, "default-src 'none'"));
	for (const char *p = strstr(o.buf, "<figure "); p; p = strstr(p + 1, "<figure "))
		figs++;
	for (const char *p = strstr(o.buf, "<tr class="); p; p = strstr(p + 1, "<tr class="))
		rows++;
	for (size_t i = 0; i < r.n; i++)
		want += r.m[i].verdict == PV_V_REGRESSION ||
			r.m[i].verdict == PV_V_IMPROVEMENT;
	assert_int_equal(figs, want);
	assert_int_equal(rows, r.n);
	/* exactly one script, and it is ours */
	assert_non_null(strstr(o.buf, "<script>\n(function(){"));
	assert_null(strstr(strstr(o.buf, "<script>\n(function(){") + 1, "<script"));
	free(o.buf);
	pv_report_release(&r);
}

static void md_limit(void **state)
{
	static const size_t limits[] = { 3000, 8000, 20000, 65000 };
	struct pv_report r;
	struct out o = { NULL, 0 };

	(void)state;
	big_model(&r, 2000);
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		write_md(&r, limits[i], "perf.json", &o);
		check_md_common(&o);
		if (o.len > limits[i])
			fail_msg("%zu bytes over the limit %zu", o.len,
				 limits[i]);
		assert_non_null(strstr(o.buf, "> **Note:** to fit the "));
		assert_non_null(strstr(o.buf, "the JSON report perf.json has "
				       "all 2000 metrics"));
		assert_non_null(strstr(o.buf, "<details><summary>All 2000 "
				       "metrics ("));
		free(o.buf);
	}
	/* every limit from tight to roomy is kept to the byte */
	for (size_t limit = 1500; limit < 70000; limit += 1733) {
		write_md(&r, limit, "dir/perf.json", &o);
		check_md_common(&o);
		if (o.len > limit)
			fail_msg("%zu bytes over the limit %zu", o.len, limit);
		free(o.buf);
	}
	/* large enough for everything: nothing is cut */
	write_md(&r, 10u << 20, "perf.json", &o);
	check_md_common(&o);
	assert_null(strstr(o.buf, "to fit the"));
	assert_non_null(strstr(o.buf, "<details><summary>All 2000 "
			       "metrics</summary>"));
	free(o.buf);
	pv_report_release(&r);
}

/* Rows kept are the most severe: with room for a few regressions only,
 * the largest changes are the ones shown. */
static void md_ranking(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 };

	(void)state;
	report_base(&r);
	for (int i = 0; i < 40; i++) {
		struct pv_result *m = add(&r, "s", "t", "g",
			arena_printf(&r.arena, "b%02d", i), "m",
			PV_V_REGRESSION);

		m->change_rel = -0.06 - 0.01 * i;
	}
	for (int i = 0; i < 40; i++)
		add(&r, "s", "t", "g", arena_printf(&r.arena, "u%02d", i), "m",
		    PV_V_UNCHANGED);
	pv_report_tally(&r);
	write_md(&r, 4000, NULL, &o);
	check_md_common(&o);
	assert_true(o.len <= 4000);
	assert_non_null(strstr(o.buf, "| g\xc2\xa0" "b39 |"));
	assert_null(strstr(o.buf, "| g\xc2\xa0" "b00 |"));
	assert_true(pos(o.buf, "| g\xc2\xa0" "b39 |") <
		    pos(o.buf, "| g\xc2\xa0" "b38 |"));
	assert_non_null(strstr(o.buf, "more regressions not shown"));
	assert_non_null(strstr(o.buf, "the JSON report has all 80 metrics"));
	free(o.buf);
	pv_report_release(&r);
}

static void dump(const char *dir, const char *name, const struct pv_report *r);

static void big_10k(void **state)
{
	struct pv_report r;
	struct out o = { NULL, 0 }, x = { NULL, 0 };
	const char *dir = getenv("PV_WRITERS_OUT");

	(void)state;
	big_model(&r, 10000);
	write_md(&r, 65000, "report.json", &o);
	check_md_common(&o);
	assert_true(o.len <= 65000);
	assert_non_null(strstr(o.buf, "All 10000 metrics ("));
	assert_non_null(strstr(o.buf, "the JSON report report.json has all "
			       "10000 metrics"));
	assert_non_null(strstr(o.buf, "### Regressions"));
	print_message("10k-metric Markdown: %zu bytes\n", o.len);
	write_junit(&r, &x);
	check_junit(&x, 10000);
	print_message("10k-metric JUnit: %zu bytes\n", x.len);
	free(o.buf);
	free(x.buf);
	if (dir && *dir) {
		dump(dir, "big", &r);
		pv_report_release(&r);
		hostile_model(&r);
		dump(dir, "hostile", &r);
		pv_report_release(&r);
		all_verdicts(&r);
		dump(dir, "verdicts", &r);
	}
	pv_report_release(&r);
}

static void write_errors(void **state)
{
	struct pv_report r;
	struct pv_write_opts opts = { "/dev/full", 0, NULL, NULL };
	struct pv_err err;
	FILE *fp;

	(void)state;
	fp = fopen("/dev/full", "w");
	if (!fp)
		skip();
	big_model(&r, 200);
	err.msg[0] = '\0';
	assert_int_equal(pv_write_junit(&r, &opts, fp, &err), -1);
	assert_string_equal(err.msg, "cannot write report '/dev/full': No space left on device");
	clearerr(fp);
	err.msg[0] = '\0';
	assert_int_equal(pv_write_markdown(&r, &opts, fp, &err), -1);
	assert_string_equal(err.msg, "cannot write report '/dev/full': No space left on device");
	fclose(fp);
	pv_report_release(&r);
}

/* ------------------------------------------- files for writers_check */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jside(const struct pv_side_result *s)
{
	return json_pack("{s:I, s:o, s:o}", "n", (json_int_t)s->s.n,
			 "mean", jnum(s->s.mean), "sd", jnum(s->s.sd));
}

/*
 * The fields of the JSON contract (DESIGN.md) that writers_check.py
 * reads, made from the model without the JSON writer; text is cleaned
 * as jansson needs valid UTF-8.
 */
static json_t *contract_json(const struct pv_report *r)
{
	static const char *summary_keys[] = {
		"regressions", "improvements", "unchanged", "inconclusive",
		"noisy", "insufficient", "missing", "new",
	};
	static const enum pv_verdict summary_v[] = {
		PV_V_REGRESSION, PV_V_IMPROVEMENT, PV_V_UNCHANGED,
		PV_V_INCONCLUSIVE, PV_V_NOISY, PV_V_INSUFFICIENT,
		PV_V_MISSING, PV_V_NEW,
	};
	json_t *root = json_object(), *metrics = json_array();
	json_t *summary = json_object();
	struct strbuf sb = STRBUF_INIT;

#define CLEAN(s) (strbuf_reset(&sb), \
		  pv_text_clean(&sb, (s) ? (s) : "", strlen((s) ? (s) : "")), \
		  json_string(sb.buf))
	json_object_set_new(root, "schema_version", json_integer(1));
	json_object_set_new(root, "config", json_pack(
		"{s:f, s:s, s:s, s:s, s:f, s:s, s:s, s:s}",
		"alpha", r->settings.gate.alpha,
		"test", pv_test_name(r->settings.gate.test),
		"correction", pv_correction_name(r->settings.gate.correction),
		"sided", pv_sided_name(r->settings.gate.sided),
		"threshold", r->settings.gate.threshold,
		"missing", pv_policy_name(r->settings.gate.missing),
		"new", pv_policy_name(r->settings.gate.new_),
		"inconclusive",
		pv_policy_name(r->settings.gate.inconclusive)));
	json_object_set_new(summary, "metrics", json_integer((json_int_t)r->n));
	for (size_t i = 0; i < 8; i++)
		json_object_set_new(summary, summary_keys[i], json_integer(
			(json_int_t)r->count[summary_v[i]]));
	json_object_set_new(root, "summary", summary);
	json_object_set_new(root, "verdict",
			    json_string(r->fail ? "fail" : "pass"));
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[i];
		json_t *o = json_object();

		{
			struct strbuf id = STRBUF_INIT;

			json_object_set_new(o, "id", CLEAN(pv_result_id(m, &id)));
			strbuf_release(&id);
		}
		json_object_set_new(o, "suite", CLEAN(m->suite));
		json_object_set_new(o, "test", CLEAN(m->test));
		json_object_set_new(o, "group", CLEAN(m->group));
		json_object_set_new(o, "benchmark", CLEAN(m->benchmark));
		json_object_set_new(o, "metric", CLEAN(m->metric));
		json_object_set_new(o, "baseline", jside(&m->side[0]));
		json_object_set_new(o, "candidate", jside(&m->side[1]));
		json_object_set_new(o, "verdict",
				    json_string(pv_verdict_name(m->verdict)));
		json_object_set_new(o, "reason", CLEAN(m->reason));
		json_array_append_new(metrics, o);
	}
#undef CLEAN
	json_object_set_new(root, "metrics", metrics);
	strbuf_release(&sb);
	return root;
}

static void dump(const char *dir, const char *name, const struct pv_report *r)
{
	char path[8192];
	FILE *fp;
	struct pv_err err;
	struct pv_write_opts opts = { NULL, 65000, NULL, NULL };
	json_t *j = contract_json(r);

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	assert_int_equal(json_dump_file(j, path, JSON_INDENT(1) |
					JSON_REAL_PRECISION(17)), 0);
	json_decref(j);
	snprintf(path, sizeof(path), "%s/%s.json", name, name);
	opts.json_name = path;
	{
		char xml[8192];

		snprintf(xml, sizeof(xml), "%s/%s.xml", dir, name);
		fp = fopen(xml, "w");
		assert_non_null(fp);
		assert_int_equal(pv_write_junit(r, NULL, fp, &err), 0);
		assert_int_equal(fclose(fp), 0);
		snprintf(xml, sizeof(xml), "%s/%s.md", dir, name);
		fp = fopen(xml, "w");
		assert_non_null(fp);
		assert_int_equal(pv_write_markdown(r, &opts, fp, &err), 0);
		assert_int_equal(fclose(fp), 0);
	}
}

/* ------------------------------------------------------------- main */

/* Look for SCHEMA in dir and up to four of its parents. */
static int find_root(const char *dir)
{
	char base[2048], path[4096 + 64];

	snprintf(base, sizeof(base), "%s", dir);
	for (int up = 0; up < 5; up++) {
		snprintf(path, sizeof(path), "%s/%s", base, SCHEMA);
		if (access(path, R_OK) == 0) {
			snprintf(root_dir, sizeof(root_dir), "%s", base);
			return 1;
		}
		if (strlen(base) + 4 >= sizeof(base))
			return 0;
		strcat(base, "/..");
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fmt_numbers),
		cmocka_unit_test(fmt_fixed_matches_printf),
		cmocka_unit_test(fmt_regression_line),
		cmocka_unit_test(fmt_human_units),
		cmocka_unit_test(labels_from_env),
		cmocka_unit_test(junit_verdicts),
		cmocka_unit_test(junit_hostile),
		cmocka_unit_test(junit_identity_collisions),
		cmocka_unit_test(empty_report),
		cmocka_unit_test(md_sections),
		cmocka_unit_test(md_hostile),
		cmocka_unit_test(html_hostile),
		cmocka_unit_test(md_limit),
		cmocka_unit_test(md_ranking),
		cmocka_unit_test(big_10k),
		cmocka_unit_test(write_errors),
	};
	const char *shared = getenv("PV_SHARED");
	char bindir[2048];
	char *slash;
	int rc;

	(void)argc;
	snprintf(bindir, sizeof(bindir), "%s", argv[0]);
	slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(bindir, sizeof(bindir), ".");
	if (!find_root(".") && !find_root(bindir)) {
		fprintf(stderr, "test_writers: cannot find %s\n", SCHEMA);
		return 1;
	}
	if (shared && *shared)
		snprintf(shared_dir, sizeof(shared_dir), "%s", shared);
	else
		snprintf(shared_dir, sizeof(shared_dir), "%s/../shared",
			 root_dir);
	LIBXML_TEST_VERSION
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	xmlCleanupParser();
	return rc;
}

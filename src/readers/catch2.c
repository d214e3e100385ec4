/*
 * catch2.c - Catch2's XML reporter (-r xml), v2 (<Catch name=...>, with
 * <Group>) and v3 (<Catch2TestRun ...>).
 *
 * Catch2 keeps no raw samples: each <BenchmarkResults name="..."
 * samples="N" ...> holds only <mean value lowerBound upperBound/> and
 * <standardDeviation value .../>, in nanoseconds.  Keys: group = the
 * enclosing <TestCase name>, benchmark = the BenchmarkResults name
 * (prefixed by "section/" for each enclosing <Section name>, so that one
 * name in two sections stays two benchmarks), metric "time", unit "ns",
 * lower is better.  Catch2's standardDeviation divides by N
 * (Catch::Benchmark::Detail::standard_deviation), so it is rescaled by
 * sqrt(N/(N-1)) to the sample sd (n-1) that the t-test takes.
 *
 * Each file gives one summary per benchmark (pv_emit_summary()).  What
 * is compared depends on how many files a side has:
 *  - one file (one run): the side is that summary, and the metric is
 *    compared by Welch's test computed from (mean, sd, n) of both sides;
 *    the report says the raw samples were not available.  The sd is the
 *    spread within one process, which understates run-to-run noise.
 *  - several files (repeatN/, one Catch2 process each): each file's mean
 *    is one sample, and those are tested like any other repeated runs.
 *    Summaries of separate runs cannot be pooled into one summary
 *    honestly (the within-run sd says nothing of the run-to-run spread),
 *    while the run means are exactly the samples the repeat design
 *    wants.
 * The decision is made when loading ends (pv_table_finish()).
 *
 * A benchmark that Catch2 reports as <failed message=.../> is skipped
 * with a warning.  Every file gets one warning that only summary
 * statistics are available.  Malformed XML is "path:line: <libxml2's
 * message>"; a BenchmarkResults without samples, mean or
 * standardDeviation is an error naming the benchmark.  The parser is
 * libxml2 with no network access (XML_PARSE_NONET) and no entity
 * expansion beyond the predefined ones.
 */
#include "reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "../util/num.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

/* The largest sample count believed (Catch2's default is 100). */
#define MAX_SAMPLES 100000000.0

struct c2 {
	struct pv_read_ctx *ctx;
	struct pv_err *err;
	struct strbuf bench;
	const char *group;
	size_t nbench, nfailed;
};

static int is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	       !strcmp((const char *)n->name, name);
}

static unsigned long line_of(const xmlNode *n)
{
	long l = xmlGetLineNo(n);

	return l > 0 ? (unsigned long)l : 0;
}

/* Attribute name of n as an allocated string (xmlFree), or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static const xmlNode *child(const xmlNode *n, const char *name)
{
	for (const xmlNode *c = n->children; c; c = c->next)
		if (is(c, name))
			return c;
	return NULL;
}

static int fail_at(struct c2 *c, const xmlNode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct c2 *c, const xmlNode *n, const char *fmt, ...)
{
	struct strbuf what = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&what, fmt, ap);
	va_end(ap);
	pv_error(c->err, PV_M_BAD_STRUCTURE, "%s:%lu: %s", c->ctx->path, line_of(n),
		 what.buf);
	strbuf_release(&what);
	return -1;
}

/*
 * The number in attribute name of the BenchmarkResults br (elem NULL)
 * or of its child element elem.
 */
static int number(struct c2 *c, const xmlNode *br, const char *elem,
		  const char *name, double *out)
{
	const xmlNode *n = elem ? child(br, elem) : br;
	char where[128];
	char *v;
	enum pv_num st;

	snprintf(where, sizeof(where), "<%s %s>", elem ? elem :
		 "BenchmarkResults", name);
	if (!n || !(v = attr(n, name)))
		return fail_at(c, n ? n : br, "benchmark '%s' (test case '%s') has no %s: Catch2's summary needs samples, mean and standardDeviation",
			       c->bench.buf, c->group, where);
	st = pv_parse_double(v, strlen(v), out);
	if (st != PV_NUM_OK)
		fail_at(c, n, "benchmark '%s': %s=\"%s\" is not a number (%s)",
			c->bench.buf, where, v, pv_num_strerror(st));
	xmlFree(v);
	return st != PV_NUM_OK ? -1 : 0;
}

static int benchmark(struct c2 *c, const xmlNode *br, const char *group,
		     const char *sections)
{
	char *name = attr(br, "name");
	struct pv_sample s = { group, NULL, "time", "ns", PV_DIR_LOWER, 0 };
	double n, mean, sd;
	const xmlNode *failed;

	strbuf_reset(&c->bench);
	strbuf_addstr(&c->bench, sections);
	strbuf_addstr(&c->bench, name ? name : "");
	c->group = group;
	if (!name)
		return fail_at(c, br, "a <BenchmarkResults> in test case '%s' has no name",
			       group);
	xmlFree(name);
	if ((failed = child(br, "failed"))) {
		char *msg = attr(failed, "message");

		pv_warn(c->ctx, PV_M_FAILED_BENCHMARK, line_of(failed),
			"benchmark '%s' failed (%s); skipped", c->bench.buf,
			msg ? msg : "no message");
		xmlFree(msg);
		c->nfailed++;
		return 0;
	}
	if (number(c, br, NULL, "samples", &n) ||
	    number(c, br, "mean", "value", &mean) ||
	    number(c, br, "standardDeviation", "value", &sd))
		return -1;
	if (n < 1 || n > MAX_SAMPLES || n != floor(n))
		return fail_at(c, br, "benchmark '%s': samples=\"%g\" is not a count of samples",
			       c->bench.buf, n);
	if (sd < 0)
		return fail_at(c, child(br, "standardDeviation"),
			       "benchmark '%s': standardDeviation %g is negative",
			       c->bench.buf, sd);
	/* Catch2 divides by N; the t-test wants the sample sd (N-1). */
	if (n >= 2)
		sd *= sqrt(n / (n - 1));
	s.benchmark = c->bench.buf;
	c->nbench++;
	return pv_emit_summary(c->ctx, &s, (size_t)n, mean, sd, c->err);
}

/* Walk the tree below n; group is the enclosing TestCase's name and
 * sections the enclosing Sections' names, each followed by '/'. */
static int walk(struct c2 *c, const xmlNode *n, const char *group,
		struct strbuf *sections)
{
	for (const xmlNode *k = n->children; k; k = k->next) {
		int rc = 0;

		if (k->type != XML_ELEMENT_NODE)
			continue;
		if (is(k, "BenchmarkResults")) {
			rc = benchmark(c, k, group, sections->buf);
		} else if (is(k, "TestCase")) {
			char *name = attr(k, "name");
			struct strbuf sec = STRBUF_INIT;

			strbuf_addstr(&sec, "");
			rc = walk(c, k, name ? name : "", &sec);
			strbuf_release(&sec);
			xmlFree(name);
		} else if (is(k, "Section")) {
			char *name = attr(k, "name");
			size_t len = sections->len;

			strbuf_addstr(sections, name ? name : "");
			strbuf_addch(sections, '/');
			xmlFree(name);
			rc = walk(c, k, group, sections);
			strbuf_setlen(sections, len);
		} else if (!is(k, "Expression") && !is(k, "OverallResult") &&
			   !is(k, "OverallResults") &&
			   !is(k, "OverallResultsCases")) {
			rc = walk(c, k, group, sections);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* libxml2 reports through a global handler: keep the first error of
 * this parse instead of printing it (warnings are not errors). */
struct first_error {
	int line;
	char msg[256];
};

static void quiet(void *data, xmlErrorPtr e)
{
	struct first_error *first = data;
	size_t n;

	if (!e || e->level < XML_ERR_ERROR || first->msg[0])
		return;
	first->line = e->line;
	snprintf(first->msg, sizeof(first->msg), "%s",
		 e->message && *e->message ? e->message : "malformed XML");
	n = strlen(first->msg);
	while (n && strchr(" \t\r\n", first->msg[n - 1]))
		first->msg[--n] = '\0';
}

static int catch2_read(struct pv_read_ctx *ctx, const char *buf, size_t len,
		       struct pv_err *err)
{
	struct c2 c = { ctx, err, STRBUF_INIT, "", 0, 0 };
	struct strbuf sections = STRBUF_INIT;
	struct first_error first = { 0, "" };
	xmlDocPtr doc;
	const xmlNode *root;
	int rc = 0;

	if (len > INT32_MAX)
		return pv_error(err, PV_M_TOO_LARGE, "%s: too large for the XML parser",
				ctx->path);
	if (len == 0)
		return pv_error(err, PV_M_EMPTY_FILE,
				"%s:1: empty file: expected Catch2 XML (-r xml)",
				ctx->path);
	xmlSetStructuredErrorFunc(&first, quiet);
	doc = xmlReadMemory(buf, (int)len, ctx->path, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (!doc || first.msg[0]) {
		xmlFreeDoc(doc);
		return pv_error(err, PV_M_MALFORMED_XML, "%s:%d: %s", ctx->path,
				first.line > 0 ? first.line : 1,
				first.msg[0] ? first.msg : "malformed XML");
	}
	root = xmlDocGetRootElement(doc);
	if (doc->intSubset) {
		/* Catch2 writes no DTD; entity tricks stay out. */
		rc = pv_error(err, PV_M_BAD_STRUCTURE,
			      "%s:%lu: a <!DOCTYPE> is not expected in Catch2 XML",
			      ctx->path, line_of((const xmlNode *)doc->intSubset));
	} else if (!root || (!is(root, "Catch") && !is(root, "Catch2TestRun"))) {
		rc = pv_error(err, PV_M_BAD_STRUCTURE,
			      "%s:%lu: expected Catch2 XML, whose root element is <Catch> (v2) or <Catch2TestRun> (v3), not <%s>",
			      ctx->path, root ? line_of(root) : 1UL,
			      root ? (const char *)root->name : "");
	} else {
		char *v = attr(root, "catch2-version");

		if (v)
			pv_context(ctx, "catch2.version", v);
		xmlFree(v);
		strbuf_addstr(&sections, "");
		rc = walk(&c, root, "", &sections);
	}
	if (!rc && (c.nbench || c.nfailed))
		pv_warn(ctx, PV_M_SUMMARY_ONLY, 0, "Catch2 keeps only summary statistics (mean, sd, samples), not the raw samples%s",
			c.nbench ? "" : "; no benchmark in this file succeeded");
	else if (!rc)
		pv_no_results(ctx, 0, "no <BenchmarkResults> in this Catch2 XML file (built without CATCH_CONFIG_ENABLE_BENCHMARKING, or no BENCHMARK ran)");
	strbuf_release(&sections);
	strbuf_release(&c.bench);
	xmlFreeDoc(doc);
	return rc;
}

static int name_ends(char ch)
{
	return ch && strchr(" \t\r\n>", ch);
}

/* "<?xml" first (after a BOM and blanks), and a Catch2 root element
 * near the start: <Catch name=...> (v2) or <Catch2TestRun ...> (v3). */
static int catch2_probe(const char *relpath, const char *head, size_t len)
{
	size_t i = 0, lim = len < 4096 ? len : 4096;
	const char *p;

	(void)relpath;
	if (len >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && head[i] && strchr(" \t\r\n", head[i]))
		i++;
	if (i + 5 > lim || memcmp(head + i, "<?xml", 5))
		return 0;
	for (p = head + i; (p = memchr(p, '<', lim - (size_t)(p - head)));
	     p++) {
		size_t left = lim - (size_t)(p - head);

		if (left > 14 && !memcmp(p, "<Catch2TestRun", 14) &&
		    name_ends(p[14]))
			return 90;
		if (left > 6 && !memcmp(p, "<Catch", 6) &&
		    name_ends(p[6]))
			return 90;
	}
	return 0;
}

const struct pv_reader pv_reader_catch2 = {
	"catch2",
	"Catch2 XML (-r xml): \"<?xml\" and a <Catch> (v2) or "
	"<Catch2TestRun> (v3) root; only summaries (mean, sd, samples), "
	"time in ns, lower is better",
	catch2_probe,
	catch2_read,
};

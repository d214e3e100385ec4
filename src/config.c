/*
 * config.c - defaults, the INI file (through inih) and value parsers.
 *
 * inih calls a handler per key but does not say on which line, and the
 * library Debian ships stops at 200 bytes a line, while autotest's own
 * perf.conf has 284-byte `desc` lines.  So the file goes through
 * ini_parse_stream() with our own line reader: it counts lines, and a
 * value too long for inih is kept here and handed to inih as a short
 * placeholder that the handler swaps back.  Indented lines continue the
 * previous value (configparser's rule, and inih's multi-line mode).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/num.h"
#include "util/strbuf.h"
#include "util/text.h"

#define DEFAULT_REPEAT "repeat[0-9]+"
#define LONG_MARK "\x01pv-long-value\x01"

static const char *const dir_names[] = { "auto", "lower", "higher", "none" };
static const char *const test_names[] = {
	"auto", "welch", "student", "mannwhitney", "moderated", "yuen",
	"history"
};
static const char *const corr_names[] = { "none", "holm", "bh" };
static const char *const sided_names[] = { "worse", "two" };
static const char *const policy_names[] = { "fail", "warn", "ignore" };

const char *pv_dir_name(enum pv_dir d) { return dir_names[d]; }
const char *pv_test_name(enum pv_test t) { return test_names[t]; }
const char *pv_correction_name(enum pv_correction c) { return corr_names[c]; }
const char *pv_sided_name(enum pv_sided s) { return sided_names[s]; }
const char *pv_policy_name(enum pv_policy p) { return policy_names[p]; }

static int lookup(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

#define LOOKUP(s, names) lookup(s, names, sizeof(names) / sizeof(names[0]))

int pv_parse_dir(const char *s, enum pv_dir *out)
{
	int i = LOOKUP(s, dir_names);

	if (i < 0)
		return -1;
	*out = (enum pv_dir)i;
	return 0;
}

int pv_parse_test(const char *s, enum pv_test *out)
{
	int i = LOOKUP(s, test_names);

	if (i < 0 || i >= PV_TEST_YUEN)
		return -1;
	*out = (enum pv_test)i;
	return 0;
}

int pv_parse_correction(const char *s, enum pv_correction *out)
{
	int i = LOOKUP(s, corr_names);

	if (i < 0)
		return -1;
	*out = (enum pv_correction)i;
	return 0;
}

int pv_parse_sided(const char *s, enum pv_sided *out)
{
	int i = LOOKUP(s, sided_names);

	if (i < 0)
		return -1;
	*out = (enum pv_sided)i;
	return 0;
}

static int parse_policy(const char *s, unsigned allowed, enum pv_policy *out)
{
	int i = LOOKUP(s, policy_names);

	if (i < 0 || !(allowed & (1u << i)))
		return -1;
	*out = (enum pv_policy)i;
	return 0;
}

/* "5%" is 0.05; a bare number is a fraction.  Must be finite, >= 0. */
int pv_parse_fraction(const char *s, double *out)
{
	size_t len = strlen(s);
	int pct = len && s[len - 1] == '%';
	double v;

	if (pv_parse_double(s, len - (size_t)pct, &v) != PV_NUM_OK || v < 0)
		return -1;
	*out = pct ? v / 100 : v;
	return 0;
}

int pv_parse_alpha(const char *s, double *out)
{
	double v;

	if (pv_parse_double(s, strlen(s), &v) != PV_NUM_OK || !(v > 0 && v < 1))
		return -1;
	*out = v;
	return 0;
}

int pv_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Size with an optional K/M/G suffix (powers of 1024). */
static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M')
		shift = 20, end++;
	else if (*end == 'G')
		shift = 30, end++;
	if (errno || *end || v == 0 || v > (~0ULL >> (shift + 1)))
		return -1;
	*out = (size_t)(v << shift);
	return 0;
}

void pv_config_defaults(struct pv_config *c)
{
	memset(c, 0, sizeof(*c));
	c->gate.alpha = 0.05;
	c->gate.test = PV_TEST_AUTO;
	c->gate.correction = PV_CORR_BH;
	c->gate.sided = PV_SIDED_WORSE;
	c->gate.threshold = 0.05;
	c->gate.min_samples = 3;
	c->gate.max_cv = 0.25;
	c->gate.missing = PV_POLICY_FAIL;
	c->gate.new_ = PV_POLICY_WARN;
	c->gate.inconclusive = PV_POLICY_WARN;
	c->gate.insufficient = PV_POLICY_WARN;
	c->gate.direction = PV_DIR_UNSET;       /* auto: format, unit, name */
	c->limits.max_file_size = (size_t)1 << 30;
	c->limits.max_line = (size_t)1 << 20;
	c->limits.max_depth = 32;
	c->limits.max_metrics = 10000000;
}

static void suite_release(struct pv_suite *s)
{
	free(s->name);
	free(s->pattern);
	if (s->pattern)
		regfree(&s->re);
	free(s->repeat_pattern);
	regfree(&s->repeat_re);
	free(s->ratios);
	free(s->format);
	free(s->desc);
}

void pv_config_release(struct pv_config *c)
{
	for (size_t i = 0; i < c->nsuites; i++)
		suite_release(&c->suites[i]);
	free(c->suites);
	for (size_t i = 0; i < c->nrules; i++)
		free(c->rules[i].glob);
	free(c->rules);
	for (size_t i = 0; i < c->nwaivers; i++) {
		free(c->waivers[i].glob);
		free(c->waivers[i].reason);
	}
	free(c->waivers);
	free(c->path);
	free(c->criterion_baseline);
	memset(c, 0, sizeof(*c));
}

/* The parse state the inih handler works on. */
struct loader {
	struct pv_config *c;
	FILE *fp;
	const char *path;
	unsigned long line;         /* the line inih is parsing */
	int indented;               /* that line starts with blanks */
	char *long_value;           /* a value too long for inih */
	char section[256];          /* the current section */
	char last_key[256];         /* the key of the previous line */
	enum { SEC_NONE, SEC_GATE, SEC_LIMITS, SEC_SUITE, SEC_METRIC,
	       SEC_WAIVER } kind;
	unsigned seen;              /* bit set of keys seen in this section */
	struct pv_err *err;
	int failed;
};

static int begin_section(struct loader *ld, const char *section);
static int fail(struct loader *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* inih's line reader: count lines and keep over-long values aside. */
static char *read_line(char *buf, int size, void *stream)
{
	struct loader *ld = stream;
	struct strbuf sb = STRBUF_INIT;
	int ch;

	int nul = 0;

	while ((ch = getc(ld->fp)) != EOF) {
		nul |= ch == '\0';
		strbuf_addch(&sb, ch);
		if (ch == '\n')
			break;
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	ld->line++;
	if (nul) {
		/* inih would silently cut the line there. */
		fail(ld, "unexpected NUL byte: not a text file");
		strbuf_release(&sb);
		return NULL;
	}
	if (ld->line == 1 && sb.len >= 3 && !memcmp(sb.buf, "\xEF\xBB\xBF", 3)) {
		/* A UTF-8 BOM: drop it here, so that a section on the first
		 * line is seen below (inih would drop it only later). */
		memmove(sb.buf, sb.buf + 3, sb.len - 2);
		sb.len -= 3;
	}
	ld->indented = sb.buf[0] == ' ' || sb.buf[0] == '\t';
	free(ld->long_value);
	ld->long_value = NULL;
	{
		const char *t = sb.buf + strspn(sb.buf, " \t");

		if (*t == '[' && !strchr(t, ']') && !ld->failed)
			fail(ld, "cannot parse this line: a [section] needs its closing ']'");
		if (*t == '[' && strchr(t, ']')) {
			/* Sections start here, so they know their line and
			 * an empty one is still seen. */
			char name[256];

			snprintf(name, sizeof(name), "%.*s",
				 (int)(strchr(t, ']') - t - 1), t + 1);
			if (!ld->failed)
				begin_section(ld, name);
		}
		if (*t == ';' || *t == '#') {
			snprintf(buf, (size_t)size, "#\n");
		} else if (sb.len < (size_t)size - 1) {
			memcpy(buf, sb.buf, sb.len + 1);
		} else if (ld->indented) {
			ld->long_value = pv_strdup(t);
			ld->long_value[strcspn(ld->long_value, "\r\n")] = '\0';
			snprintf(buf, (size_t)size, "  %s\n", LONG_MARK);
		} else {
			char *eq = strpbrk(sb.buf, "=:");
			size_t keylen = eq ? (size_t)(eq - sb.buf) : 0;

			if (eq && keylen + sizeof(LONG_MARK) + 4 < (size_t)size) {
				const char *v = eq + 1 + strspn(eq + 1, " \t");

				ld->long_value = pv_strdup(v);
				ld->long_value[strcspn(ld->long_value, "\r\n")] = '\0';
				snprintf(buf, (size_t)size, "%.*s= %s\n",
					 (int)keylen, sb.buf, LONG_MARK);
			} else {
				snprintf(buf, (size_t)size, "\x01\n");
			}
		}
	}
	strbuf_release(&sb);
	return buf;
}

static int fail(struct loader *ld, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ld->failed)
		pv_error_at(ld->err, PV_EUSAGE, ld->path, ld->line, "%s", msg);
	ld->failed = 1;
	return 0;
}

static int bad_value(struct loader *ld, const char *key, const char *value,
		     const char *expected)
{
	return fail(ld, "bad value '%s' for '%s': expected %s", value, key,
		    expected);
}

/* `metric "GLOB"` -> GLOB, or NULL when the name is not of that form. */
static char *quoted_arg(const char *section, const char *word)
{
	size_t n = strlen(word), len;

	if (strncmp(section, word, n) || section[n] != ' ')
		return NULL;
	section += n;
	while (*section == ' ')
		section++;
	len = strlen(section);
	if (len < 2 || section[0] != '"' || section[len - 1] != '"')
		return NULL;
	return strndup(section + 1, len - 2);
}

static int begin_section(struct loader *ld, const char *section)
{
	struct pv_config *c = ld->c;
	char *glob;

	snprintf(ld->section, sizeof(ld->section), "%s", section);
	ld->seen = 0;
	ld->last_key[0] = '\0';
	if (!*section) {
		return fail(ld, "empty section name []: expected a suite name, [gate], [limits], [metric \"GLOB\"] or [waiver \"GLOB\"]");
	} else if (!strcmp(section, "gate")) {
		ld->kind = SEC_GATE;
	} else if (!strcmp(section, "limits")) {
		ld->kind = SEC_LIMITS;
	} else if ((glob = quoted_arg(section, "metric"))) {
		ld->kind = SEC_METRIC;
		c->rules = pv_reallocarray(c->rules, c->nrules + 1,
					   sizeof(*c->rules));
		c->rules[c->nrules++] = (struct pv_rule){
			glob, PV_DIR_UNSET, NAN, NAN, NAN, -1, ld->line
		};
	} else if ((glob = quoted_arg(section, "waiver"))) {
		ld->kind = SEC_WAIVER;
		c->waivers = pv_reallocarray(c->waivers, c->nwaivers + 1,
					     sizeof(*c->waivers));
		c->waivers[c->nwaivers++] = (struct pv_waiver){
			glob, "", NULL, ld->line
		};
	} else if (!strncmp(section, "metric", 6) ||
		   !strncmp(section, "waiver", 6)) {
		return fail(ld, "bad section [%s]: expected [%.6s \"GLOB\"]",
			    section, section);
	} else {
		struct pv_suite *s;

		for (size_t i = 0; i < c->nsuites; i++)
			if (!strcmp(c->suites[i].name, section))
				return fail(ld, "duplicate section [%s] (first at line %lu)",
					    section, c->suites[i].line);
		ld->kind = SEC_SUITE;
		c->suites = pv_reallocarray(c->suites, c->nsuites + 1,
					    sizeof(*c->suites));
		s = &c->suites[c->nsuites++];
		memset(s, 0, sizeof(*s));
		s->name = pv_strdup(section);
		s->ignore_col = 1;
		s->line = ld->line;
	}
	return 1;
}

/* "4,2,3|14,5,12": 0-based dst,num,den triples; empty is none. */
static int parse_ratios(const char *value, struct pv_suite *s)
{
	const char *p = value;

	free(s->ratios);
	s->ratios = NULL;
	s->nratios = 0;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		long v[3];
		char *end;

		for (int i = 0; i < 3; i++) {
			while (*p == ' ')
				p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			errno = 0;
			v[i] = strtol(p, &end, 10);
			if (errno || v[i] > 4096)
				return -1;
			p = end;
			while (*p == ' ')
				p++;
			if (i < 2 && *p++ != ',')
				return -1;
		}
		s->ratios = pv_reallocarray(s->ratios, s->nratios + 1,
					    sizeof(*s->ratios));
		s->ratios[s->nratios++] =
			(struct pv_ratio){ (int)v[0], (int)v[1], (int)v[2] };
		if (!*p)
			return 0;
		if (*p++ != '|')
			return -1;
	}
}

/* Expand the \n, \t and \\ escapes autotest wrote in desc values. */
static char *unescape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '\\' && (s[1] == 'n' || s[1] == 't' || s[1] == '\\')) {
			s++;
			strbuf_addch(&sb, *s == 'n' ? '\n' : *s == 't' ? '\t' : '\\');
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* The most elements a pattern may expand to in regcomp(); see below. */
#define REGEX_MAX_COST 1000UL

static unsigned long cost_add(unsigned long a, unsigned long b)
{
	return a + b > REGEX_MAX_COST ? REGEX_MAX_COST + 1 : a + b;
}

static unsigned long cost_mul(unsigned long a, unsigned long b)
{
	return b && a > REGEX_MAX_COST / b ? REGEX_MAX_COST + 1 : a * b;
}

/*
 * An upper bound of the number of elements glibc's regcomp() builds for
 * an ERE.  It copies a sub-expression for each repetition of "{m,n}"
 * (max(m, n) + 1 copies) and for "+" (two), and the copies multiply when
 * bounds nest or stack: "a++++...+" or "(a{99}){99}" take regcomp minutes
 * and gigabytes.  Syntax errors are left for regcomp() to report.
 */
static unsigned long regex_cost(const char *p)
{
	struct { unsigned long total, last; } st[32];
	int d = 0;

	st[0].total = st[0].last = 0;
	for (; *p; p++) {
		switch (*p) {
		case '(':
			if (d == 31)
				return REGEX_MAX_COST + 1;
			d++;
			st[d].total = st[d].last = 0;
			continue;
		case ')':
			if (d > 0) {
				unsigned long c = cost_add(st[d].total, st[d].last);

				d--;
				st[d].total = cost_add(st[d].total, st[d].last);
				st[d].last = c ? c : 1;
				continue;
			}
			break;
		case '|':
			st[d].total = cost_add(st[d].total, st[d].last);
			st[d].last = 0;
			continue;
		case '+':
		case '*':
		case '?':
			/* "+" copies its operand; "*" and "?" stacked on other
			 * repetitions ("a+?+*") grow regcomp's automaton the
			 * same way (a fuzzer found a 20-second pattern of
			 * them), so every repetition operator counts double. */
			st[d].last = cost_mul(st[d].last, 2);
			continue;
		case '{':
			if ((p[1] >= '0' && p[1] <= '9') || p[1] == ',') {
				unsigned long m = 0, n = 0;
				const char *q = p + 1;

				while (*q >= '0' && *q <= '9')
					m = cost_add(cost_mul(m, 10), (unsigned long)(*q++ - '0'));
				if (*q == ',')
					for (q++; *q >= '0' && *q <= '9'; q++)
						n = cost_add(cost_mul(n, 10), (unsigned long)(*q - '0'));
				if (*q == '}') {
					st[d].last = cost_mul(st[d].last,
							      cost_add(m > n ? m : n, 1));
					p = q;
					continue;
				}
			}
			break;
		case '\\':
			if (p[1])
				p++;
			break;
		case '[':
			/* A bracket expression is one element: skip it. */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
					char close = p[1];

					for (p += 2; *p && !(*p == close && p[1] == ']'); p++)
						;
					if (*p)
						p++;
				}
				if (*p)
					p++;
			}
			if (!*p)
				p--;    /* unterminated: count what came before */
			break;
		default:
			break;
		}
		/* An element: an ordinary or escaped character, '.', '^',
		 * '$', a bracket expression. */
		st[d].total = cost_add(st[d].total, st[d].last);
		st[d].last = 1;
	}
	while (d > 0) {
		unsigned long c = cost_add(st[d].total, st[d].last);

		d--;
		st[d].total = cost_add(st[d].total, c);
	}
	return cost_add(st[0].total, st[0].last);
}

/*
 * What a pattern holds that glibc's regcomp()/regexec() handle badly,
 * outside bracket expressions:
 *  - a back-reference ("\1"): the matcher backtracks exponentially on
 *    them, and POSIX EREs have none;
 *  - a repetition right after another ("a+*", "a{2}?"): POSIX leaves
 *    their meaning undefined for EREs, and regcomp() takes seconds on a
 *    few stacked ones (a fuzzer found "c++++++++++").
 */
enum hazard { HAZARD_NONE, HAZARD_BACKREF, HAZARD_STACKED };

static enum hazard regex_hazard(const char *p)
{
	int after_repeat = 0, bracket = 0;

	for (; *p; p++) {
		if (bracket) {
			if (*p == ']' && bracket > 1)
				bracket = 0;
			else
				bracket++;
			continue;
		}
		if (*p == '+' || *p == '*' || *p == '?' ||
		    (*p == '{' && ((p[1] >= '0' && p[1] <= '9') || p[1] == ','))) {
			if (after_repeat)
				return HAZARD_STACKED;
			if (*p == '{')
				while (p[1] && *p != '}')
					p++;
			after_repeat = 1;
			continue;
		}
		after_repeat = 0;
		if (*p == '[') {
			bracket = 1;
			if (p[1] == '^')
				p++;
		} else if (*p == '\\' && p[1]) {
			if (p[1] >= '1' && p[1] <= '9')
				return HAZARD_BACKREF;
			p++;
		}
	}
	return HAZARD_NONE;
}

static int compile(struct loader *ld, regex_t *re, const char *key,
		   const char *pattern)
{
	char msg[256];
	int rc;

	switch (regex_hazard(pattern)) {
	case HAZARD_BACKREF:
		return fail(ld, "bad %s '%s': back-references (\\1...) are not supported",
			    key, pattern);
	case HAZARD_STACKED:
		return fail(ld, "bad %s '%s': a repetition (+, *, ? or {m,n}) follows another; POSIX leaves that undefined",
			    key, pattern);
	case HAZARD_NONE:
		break;
	}
	if (regex_cost(pattern) > REGEX_MAX_COST)
		return fail(ld, "bad %s '%s': too complex: it expands to more than %lu elements (nested or stacked {m,n}, +, * and ?)",
			    key, pattern, REGEX_MAX_COST);
	rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, re, msg, sizeof(msg));
		return fail(ld, "bad %s '%s': %s", key, pattern, msg);
	}
	return 1;
}

static int suite_key(struct loader *ld, struct pv_suite *s, const char *key,
		     const char *value)
{
	unsigned long u;

	if (!strcmp(key, "result_file_pattern")) {
		if (s->pattern) {
			regfree(&s->re);
			free(s->pattern);
			s->pattern = NULL;
		}
		if (!*value)
			return bad_value(ld, key, value, "a POSIX extended regex");
		if (!compile(ld, &s->re, key, value))
			return 0;
		s->pattern = pv_strdup(value);
	} else if (!strcmp(key, "ignore_col")) {
		if (pv_parse_uint(value, 1024, &u))
			return bad_value(ld, key, value,
					 "a column count from 0 to 1024");
		s->ignore_col = (int)u;
	} else if (!strcmp(key, "avg_update")) {
		if (parse_ratios(value, s))
			return bad_value(ld, key, value,
					 "dst,num,den column triples separated by '|', e.g. 4,2,3|14,5,12");
	} else if (!strcmp(key, "repeat_pattern")) {
		regex_t re;

		if (!*value || !compile(ld, &re, key, value))
			return *value ? 0 : bad_value(ld, key, value, "a regex");
		regfree(&re);
		free(s->repeat_pattern);
		s->repeat_pattern = pv_strdup(value);
	} else if (!strcmp(key, "format")) {
		free(s->format);
		s->format = pv_strdup(value);  /* checked against the readers later */
	} else if (!strcmp(key, "desc")) {
		free(s->desc);
		s->desc = unescape(value);
	} else {
		return fail(ld, "unknown key '%s' in suite [%s]: expected result_file_pattern, ignore_col, avg_update, repeat_pattern, format or desc",
			    key, s->name);
	}
	return 1;
}

static int gate_key(struct loader *ld, const char *key, const char *value)
{
	struct pv_gate *g = &ld->c->gate;
	unsigned long u;
	int bad = 0;

	if (!strcmp(key, "alpha"))
		bad = pv_parse_alpha(value, &g->alpha);
	else if (!strcmp(key, "test"))
		bad = pv_parse_test(value, &g->test);
	else if (!strcmp(key, "correction"))
		bad = pv_parse_correction(value, &g->correction);
	else if (!strcmp(key, "sided"))
		bad = pv_parse_sided(value, &g->sided);
	else if (!strcmp(key, "threshold"))
		bad = pv_parse_fraction(value, &g->threshold);
	else if (!strcmp(key, "max_cv"))
		bad = pv_parse_fraction(value, &g->max_cv);
	else if (!strcmp(key, "min_samples")) {
		bad = pv_parse_uint(value, 1000000, &u) || u < 2;
		g->min_samples = bad ? g->min_samples : (unsigned)u;
	} else if (!strcmp(key, "missing"))
		bad = parse_policy(value, 7, &g->missing);
	else if (!strcmp(key, "new"))
		bad = parse_policy(value, 6, &g->new_);
	else if (!strcmp(key, "inconclusive"))
		bad = parse_policy(value, 3, &g->inconclusive);
	else if (!strcmp(key, "insufficient"))
		bad = parse_policy(value, 3, &g->insufficient);
	else if (!strcmp(key, "direction"))
		bad = pv_parse_dir(value, &g->direction);
	else
		return fail(ld, "unknown key '%s' in [gate]: expected alpha, test, correction, sided, threshold, min_samples, max_cv, missing, new, inconclusive, insufficient or direction",
			    key);
	if (!bad)
		return 1;
	if (!strcmp(key, "alpha"))
		return bad_value(ld, key, value, "a number between 0 and 1");
	if (!strcmp(key, "test"))
		return bad_value(ld, key, value,
				 "auto, welch, student, mannwhitney or moderated");
	if (!strcmp(key, "correction"))
		return bad_value(ld, key, value, "none, holm or bh");
	if (!strcmp(key, "sided"))
		return bad_value(ld, key, value, "worse or two");
	if (!strcmp(key, "threshold") || !strcmp(key, "max_cv"))
		return bad_value(ld, key, value,
				 "a non-negative fraction or percentage, e.g. 5%");
	if (!strcmp(key, "min_samples"))
		return bad_value(ld, key, value, "a whole number of at least 2");
	if (!strcmp(key, "missing"))
		return bad_value(ld, key, value, "fail, warn or ignore");
	if (!strcmp(key, "new"))
		return bad_value(ld, key, value, "warn or ignore");
	if (!strcmp(key, "inconclusive") || !strcmp(key, "insufficient"))
		return bad_value(ld, key, value, "warn or fail");
	return bad_value(ld, key, value, "auto, lower, higher or none");
}

static int limits_key(struct loader *ld, const char *key, const char *value)
{
	struct pv_limits *l = &ld->c->limits;
	unsigned long u;
	size_t z;

	if (!strcmp(key, "max_file_size") || !strcmp(key, "max_line")) {
		if (parse_size(value, &z))
			return bad_value(ld, key, value,
					 "a positive size such as 64M");
		*(!strcmp(key, "max_line") ? &l->max_line : &l->max_file_size) = z;
	} else if (!strcmp(key, "max_depth")) {
		if (pv_parse_uint(value, 4096, &u) || !u)
			return bad_value(ld, key, value,
					 "a directory depth from 1 to 4096");
		l->max_depth = (unsigned)u;
	} else if (!strcmp(key, "max_metrics")) {
		if (pv_parse_uint(value, 1000000000, &u) || !u)
			return bad_value(ld, key, value, "a positive count");
		l->max_metrics = u;
	} else {
		return fail(ld, "unknown key '%s' in [limits]: expected max_file_size, max_line, max_depth or max_metrics",
			    key);
	}
	return 1;
}

static int rule_key(struct loader *ld, struct pv_rule *r, const char *key,
		    const char *value)
{
	if (!strcmp(key, "direction")) {
		if (pv_parse_dir(value, &r->direction) || r->direction == PV_DIR_UNSET)
			return bad_value(ld, key, value, "higher, lower or none");
	} else if (!strcmp(key, "threshold")) {
		if (pv_parse_fraction(value, &r->threshold))
			return bad_value(ld, key, value,
					 "a non-negative fraction or percentage, e.g. 5%");
	} else if (!strcmp(key, "abs_threshold")) {
		if (pv_parse_double(value, strlen(value), &r->abs_threshold) ||
		    r->abs_threshold < 0)
			return bad_value(ld, key, value,
					 "a non-negative number in the metric's unit");
	} else if (!strcmp(key, "alpha")) {
		if (pv_parse_alpha(value, &r->alpha))
			return bad_value(ld, key, value, "a number between 0 and 1");
	} else if (!strcmp(key, "ignore")) {
		if (!strcmp(value, "true") || !strcmp(value, "yes") ||
		    !strcmp(value, "1"))
			r->ignore = 1;
		else if (!strcmp(value, "false") || !strcmp(value, "no") ||
			 !strcmp(value, "0"))
			r->ignore = 0;
		else
			return bad_value(ld, key, value, "true or false");
	} else {
		return fail(ld, "unknown key '%s' in [%s]: expected direction, threshold, abs_threshold, alpha or ignore",
			    key, ld->section);
	}
	return 1;
}

static int valid_date(const char *s)
{
	int y, m, d;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	return !(m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)));
}

static int waiver_key(struct loader *ld, struct pv_waiver *w, const char *key,
		      const char *value)
{
	if (!strcmp(key, "until")) {
		if (!valid_date(value))
			return bad_value(ld, key, value, "a date YYYY-MM-DD");
		memcpy(w->until, value, 11);
	} else if (!strcmp(key, "reason")) {
		free(w->reason);
		w->reason = pv_strdup(value);
	} else {
		return fail(ld, "unknown key '%s' in [%s]: expected until or reason",
			    key, ld->section);
	}
	return 1;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *ld = user;
	struct pv_config *c = ld->c;
	char *joined = NULL;
	int rc;

	if (ld->failed)
		return 0;
	(void)section;  /* begin_section() ran when read_line() saw it */
	if (ld->kind == SEC_NONE)
		return fail(ld, "key '%s' is outside any [section]", name);
	if (!strcmp(value, LONG_MARK) && ld->long_value)
		value = ld->long_value;
	if (ld->indented && !strcmp(name, ld->last_key)) {
		/* A continuation line: recover the value so far and append. */
		const char *prev = NULL;

		if (ld->kind == SEC_SUITE && !strcmp(name, "desc"))
			prev = c->suites[c->nsuites - 1].desc;
		if (ld->kind == SEC_WAIVER && !strcmp(name, "reason"))
			prev = c->waivers[c->nwaivers - 1].reason;
		if (!prev)
			return fail(ld, "unexpected indented line: '%s' takes one line",
				    name);
		joined = malloc(strlen(prev) + strlen(value) + 2);
		if (!joined)
			return fail(ld, "out of memory");
		sprintf(joined, "%s\n%s", prev, value);
		value = joined;
		if (ld->kind == SEC_SUITE) {
			/* desc was unescaped already; keep it, add the rest */
			char *rest = unescape(value + strlen(prev) + 1);

			sprintf(joined, "%s\n%s", prev, rest);
			free(rest);
			free(c->suites[c->nsuites - 1].desc);
			c->suites[c->nsuites - 1].desc = joined;
			return 1;
		}
	} else {
		/* Every key once per section, as configparser insists. */
		static const char *const keys[] = {
			"alpha", "test", "correction", "sided", "threshold",
			"min_samples", "max_cv", "missing", "new",
			"inconclusive", "insufficient", "direction",
			"result_file_pattern",
			"ignore_col", "avg_update", "repeat_pattern", "format",
			"desc", "abs_threshold", "ignore", "until", "reason",
			"max_file_size", "max_line", "max_depth", "max_metrics",
		};
		int k = LOOKUP(name, keys);

		if (k >= 0 && (ld->seen & (1u << k)))
			return fail(ld, "duplicate key '%s' in [%s]", name,
				    ld->section);
		if (k >= 0)
			ld->seen |= 1u << k;
	}
	snprintf(ld->last_key, sizeof(ld->last_key), "%s", name);
	switch (ld->kind) {
	case SEC_GATE:
		rc = gate_key(ld, name, value);
		break;
	case SEC_LIMITS:
		rc = limits_key(ld, name, value);
		break;
	case SEC_METRIC:
		rc = rule_key(ld, &c->rules[c->nrules - 1], name, value);
		break;
	case SEC_WAIVER:
		rc = waiver_key(ld, &c->waivers[c->nwaivers - 1], name, value);
		break;
	case SEC_SUITE:
		rc = suite_key(ld, &c->suites[c->nsuites - 1], name, value);
		break;
	default:
		rc = 0;
	}
	free(joined);
	return rc;
}

/* Checks that need a whole section: required keys, compiled defaults. */
static int finish(struct loader *ld)
{
	struct pv_config *c = ld->c;

	for (size_t i = 0; i < c->nsuites; i++) {
		struct pv_suite *s = &c->suites[i];
		const char *rp = s->repeat_pattern ? s->repeat_pattern : DEFAULT_REPEAT;

		ld->line = s->line;
		if (!s->pattern)
			return fail(ld, "suite [%s] has no result_file_pattern",
				    s->name);
		for (size_t j = 0; j < s->nratios; j++) {
			const struct pv_ratio *r = &s->ratios[j];

			if (r->dst < s->ignore_col || r->num < s->ignore_col ||
			    r->den < s->ignore_col)
				return fail(ld, "avg_update %d,%d,%d of [%s] uses a key column (ignore_col = %d)",
					    r->dst, r->num, r->den, s->name,
					    s->ignore_col);
		}
		if (!s->repeat_pattern)
			s->repeat_pattern = pv_strdup(rp);
		if (regcomp(&s->repeat_re, rp, REG_EXTENDED))
			return fail(ld, "bad repeat_pattern '%s'", rp);
	}
	for (size_t i = 0; i < c->nwaivers; i++) {
		ld->line = c->waivers[i].line;
		if (!c->waivers[i].until[0])
			return fail(ld, "waiver \"%s\" has no 'until' date",
				    c->waivers[i].glob);
		if (!c->waivers[i].reason)
			return fail(ld, "waiver \"%s\" has no 'reason'",
				    c->waivers[i].glob);
	}
	return 1;
}

/* The config must be a regular file: a directory reads as empty, and a
 * FIFO would block (O_NONBLOCK makes the open itself return at once). */
static FILE *open_regular(const char *path, struct pv_err *err)
{
	struct stat st;
	FILE *fp;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		pv_error(err, PV_EUSAGE, "cannot read config '%s': %s", path,
			 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		const char *why = strerror(errno);

		if (!fstat(fd, &st))
			why = S_ISDIR(st.st_mode) ? "it is a directory" :
			      "not a regular file";
		pv_error(err, PV_EUSAGE, "cannot read config '%s': %s", path,
			 why);
		close(fd);
		return NULL;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		pv_error(err, PV_EUSAGE, "cannot read config '%s': %s", path,
			 strerror(errno));
		close(fd);
	}
	return fp;
}

int pv_config_load(struct pv_config *c, const char *path, struct pv_err *err)
{
	struct loader ld = { 0 };
	int rc;

	pv_config_defaults(c);
	c->path = pv_strdup(path);
	ld.c = c;
	ld.path = path;
	ld.err = err;
	ld.fp = open_regular(path, err);
	if (!ld.fp) {
		pv_config_release(c);
		return -1;
	}
	rc = ini_parse_stream(read_line, &ld, handler, &ld);
	if (!ld.failed && ferror(ld.fp))
		fail(&ld, "cannot read the config file: %s", strerror(errno));
	fclose(ld.fp);
	free(ld.long_value);
	if (!ld.failed && rc > 0) {
		ld.line = (unsigned long)rc;
		fail(&ld, "cannot parse this line: expected [section], key = value, or a ; or # comment");
	} else if (!ld.failed && rc < 0) {
		fail(&ld, "cannot parse the config file");
	}
	if (!ld.failed)
		finish(&ld);
	if (ld.failed) {
		pv_config_release(c);
		return -1;
	}
	return 0;
}

const struct pv_suite *pv_config_suite(const struct pv_config *c,
				       const char *name)
{
	for (size_t i = 0; i < c->nsuites; i++)
		if (!strcmp(c->suites[i].name, name))
			return &c->suites[i];
	return NULL;
}

static int rule_matches(const char *glob, const char *group,
			const char *benchmark, const char *metric,
			struct strbuf *full)
{
	/* A glob without wildcards is a name: compared, not matched, and a
	 * name without '/' can only be the metric's (this runs for every
	 * metric of every rule). */
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

void pv_config_rule(const struct pv_config *c, const char *group,
		    const char *benchmark, const char *metric,
		    struct pv_rule *out)
{
	struct strbuf full = STRBUF_INIT;

	*out = (struct pv_rule){ NULL, PV_DIR_UNSET, NAN, NAN, NAN, -1, 0 };
	for (size_t i = 0; i < c->nrules; i++) {
		const struct pv_rule *r = &c->rules[i];

		if (!rule_matches(r->glob, group, benchmark, metric, &full))
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

const struct pv_waiver *pv_config_waiver(const struct pv_config *c,
					 const char *group,
					 const char *benchmark,
					 const char *metric)
{
	struct strbuf full = STRBUF_INIT;
	const struct pv_waiver *w = NULL;

	for (size_t i = 0; i < c->nwaivers && !w; i++)
		if (rule_matches(c->waivers[i].glob, group, benchmark, metric,
				 &full))
			w = &c->waivers[i];
	strbuf_release(&full);
	return w;
}

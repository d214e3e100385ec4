/*
 * config.c - defaults and the INI file (through inih); the value parsers
 * are in config_value.c, the regex guard in regexguard.c.
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
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "regexguard.h"
#include "util/file.h"
#include "util/num.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/banned.h"

#define DEFAULT_REPEAT "repeat[0-9]+"
#define LONG_MARK "\x01pv-long-value\x01"

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
	c->limits.max_inflated_size = (size_t)8 << 20;
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
	struct strbuf text;         /* the whole file */
	size_t pos;                 /* read_line()'s place in it */
	const char *path;
	unsigned long line;         /* the line inih is parsing */
	int indented;               /* that line starts with blanks */
	char *long_value;           /* a value too long for inih */
	char section[256];          /* the current section */
	char last_key[256];         /* the key of the previous line */
	enum { SEC_NONE, SEC_GATE, SEC_LIMITS, SEC_SUITE, SEC_METRIC,
	       SEC_WAIVER } kind;
	unsigned seen;              /* bit set of keys seen in this section */
	/* [gate] and [limits] may repeat, but not to disagree: each key's
	 * first value and line across their repeats (by index in keys[]). */
	char *global_value[32];
	unsigned long global_line[32];
	struct pv_err *err;
	int failed;
};

static int begin_section(struct loader *ld, const char *section);
static int fail(struct loader *ld, enum pv_msg id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* inih's line reader: count lines and keep over-long values aside. */
static char *read_line(char *buf, int size, void *stream)
{
	struct loader *ld = stream;
	struct strbuf sb = STRBUF_INIT;
	int ch;

	int nul = 0;

	while (ld->pos < ld->text.len) {
		ch = (unsigned char)ld->text.buf[ld->pos++];
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
		fail(ld, PV_M_CONFIG_BINARY, "unexpected NUL byte: not a text file");
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
			fail(ld, PV_M_CONFIG_SYNTAX, "cannot parse this line: a [section] needs its closing ']'");
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

static int fail(struct loader *ld, enum pv_msg id, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ld->failed)
		pv_error_at(ld->err, id, ld->path, ld->line, "%s", msg);
	ld->failed = 1;
	return 0;
}

static int bad_value(struct loader *ld, const char *key, const char *value,
		     const char *expected)
{
	return fail(ld, PV_M_BAD_VALUE, "bad value '%s' for '%s': expected %s", value, key,
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
		return fail(ld, PV_M_BAD_SECTION, "empty section name []: expected a suite name, [gate], [limits], [metric \"GLOB\"] or [waiver \"GLOB\"]");
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
		return fail(ld, PV_M_BAD_SECTION, "bad section [%s]: expected [%.6s \"GLOB\"]",
			    section, section);
	} else {
		struct pv_suite *s;

		for (size_t i = 0; i < c->nsuites; i++)
			if (!strcmp(c->suites[i].name, section))
				return fail(ld, PV_M_DUPLICATE_SECTION, "duplicate section [%s] (first at line %lu)",
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

static int compile(struct loader *ld, regex_t *re, const char *key,
		   const char *pattern)
{
	char msg[256];

	if (pv_regex_compile(re, pattern, REG_EXTENDED | REG_NOSUB, msg,
			     sizeof(msg)))
		return fail(ld, PV_M_BAD_PATTERN, "bad %s '%s': %s", key, pattern, msg);
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
		return fail(ld, PV_M_UNKNOWN_KEY, "unknown key '%s' in suite [%s]: expected result_file_pattern, ignore_col, avg_update, repeat_pattern, format or desc",
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
		bad = pv_parse_policy(value, 7, &g->missing);
	else if (!strcmp(key, "new"))
		bad = pv_parse_policy(value, 6, &g->new_);
	else if (!strcmp(key, "inconclusive"))
		bad = pv_parse_policy(value, 3, &g->inconclusive);
	else if (!strcmp(key, "insufficient"))
		bad = pv_parse_policy(value, 3, &g->insufficient);
	else if (!strcmp(key, "direction"))
		bad = pv_parse_dir(value, &g->direction);
	else
		return fail(ld, PV_M_UNKNOWN_KEY, "unknown key '%s' in [gate]: expected alpha, test, correction, sided, threshold, min_samples, max_cv, missing, new, inconclusive, insufficient or direction",
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
		if (pv_parse_size(value, &z))
			return bad_value(ld, key, value,
					 "a positive size such as 64M");
		*(!strcmp(key, "max_line") ? &l->max_line : &l->max_file_size) = z;
	} else if (!strcmp(key, "max_inflated_size")) {
		if (pv_parse_size(value, &z))
			return bad_value(ld, key, value,
					 "a positive size such as 64M");
		l->max_inflated_size = z;
	} else if (!strcmp(key, "max_depth")) {
		if (pv_parse_uint(value, 4096, &u) || !u)
			return bad_value(ld, key, value,
					 "a directory depth from 1 to 4096");
		l->max_depth = (unsigned)u;
	} else if (!strcmp(key, "max_metrics")) {
		if (pv_parse_uint(value, 1000000000, &u) || !u)
			return bad_value(ld, key, value, "a positive count");
		l->max_metrics = u;
	} else if (!strcmp(key, "empty_files")) {
		if (strcmp(value, "error") && strcmp(value, "warn"))
			return bad_value(ld, key, value, "error or warn");
		l->empty_files_warn = !strcmp(value, "warn");
	} else if (!strcmp(key, "empty_points")) {
		if (strcmp(value, "error") && strcmp(value, "warn"))
			return bad_value(ld, key, value, "warn or error");
		l->empty_points_error = !strcmp(value, "error");
	} else {
		return fail(ld, PV_M_UNKNOWN_KEY, "unknown key '%s' in [limits]: expected max_file_size, max_inflated_size, max_line, max_depth, max_metrics, empty_files or empty_points",
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
		return fail(ld, PV_M_UNKNOWN_KEY, "unknown key '%s' in [%s]: expected direction, threshold, abs_threshold, alpha or ignore",
			    key, ld->section);
	}
	return 1;
}

int pv_valid_date(const char *s)
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
		if (!pv_valid_date(value))
			return bad_value(ld, key, value, "a date YYYY-MM-DD");
		memcpy(w->until, value, 11);
	} else if (!strcmp(key, "reason")) {
		free(w->reason);
		w->reason = pv_strdup(value);
	} else {
		return fail(ld, PV_M_UNKNOWN_KEY, "unknown key '%s' in [%s]: expected until or reason",
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
		return fail(ld, PV_M_KEY_OUTSIDE_SECTION, "key '%s' is outside any [section]", name);
	if (!strcmp(value, LONG_MARK) && ld->long_value)
		value = ld->long_value;
	if (ld->indented && !strcmp(name, ld->last_key)) {
		/* A continuation line: recover the value so far and append. */
		const char *prev = NULL;
		size_t size;

		if (ld->kind == SEC_SUITE && !strcmp(name, "desc"))
			prev = c->suites[c->nsuites - 1].desc;
		if (ld->kind == SEC_WAIVER && !strcmp(name, "reason"))
			prev = c->waivers[c->nwaivers - 1].reason;
		if (!prev)
			return fail(ld, PV_M_CONFIG_SYNTAX, "unexpected indented line: '%s' takes one line",
				    name);
		size = strlen(prev) + strlen(value) + 2;
		joined = pv_malloc(size);
		snprintf(joined, size, "%s\n%s", prev, value);
		value = joined;
		if (ld->kind == SEC_SUITE) {
			/* desc was unescaped already; keep it, add the rest */
			char *rest = unescape(value + strlen(prev) + 1);

			snprintf(joined, size, "%s\n%s", prev, rest);
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
			"empty_files", "max_inflated_size", "empty_points",
		};
		int k = PV_LOOKUP(name, keys);

		if (k >= 0 && (ld->seen & (1u << k)))
			return fail(ld, PV_M_DUPLICATE_KEY, "duplicate key '%s' in [%s]", name,
				    ld->section);
		if (k >= 0)
			ld->seen |= 1u << k;
		if (k >= 0 && (ld->kind == SEC_GATE || ld->kind == SEC_LIMITS)) {
			if (!ld->global_value[k]) {
				ld->global_value[k] = pv_strdup(value);
				ld->global_line[k] = ld->line;
			} else if (strcmp(ld->global_value[k], value)) {
				return fail(ld, PV_M_CONFLICTING_VALUE, "conflicting values for '%s' in a repeated [%s]: '%s' here, '%s' at line %lu",
					    name, ld->section, value,
					    ld->global_value[k], ld->global_line[k]);
			}
		}
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
			return fail(ld, PV_M_NO_PATTERN, "suite [%s] has no result_file_pattern",
				    s->name);
		for (size_t j = 0; j < s->nratios; j++) {
			const struct pv_ratio *r = &s->ratios[j];

			if (r->dst < s->ignore_col || r->num < s->ignore_col ||
			    r->den < s->ignore_col)
				return fail(ld, PV_M_KEY_COLUMN, "avg_update %d,%d,%d of [%s] uses a key column (ignore_col = %d)",
					    r->dst, r->num, r->den, s->name,
					    s->ignore_col);
		}
		if (!s->repeat_pattern)
			s->repeat_pattern = pv_strdup(rp);
		if (regcomp(&s->repeat_re, rp, REG_EXTENDED))
			return fail(ld, PV_M_BAD_PATTERN, "bad repeat_pattern '%s'", rp);
	}
	for (size_t i = 0; i < c->nwaivers; i++) {
		ld->line = c->waivers[i].line;
		if (!c->waivers[i].until[0])
			return fail(ld, PV_M_INCOMPLETE_WAIVER, "waiver \"%s\" has no 'until' date",
				    c->waivers[i].glob);
		if (!c->waivers[i].reason)
			return fail(ld, PV_M_INCOMPLETE_WAIVER, "waiver \"%s\" has no 'reason'",
				    c->waivers[i].glob);
	}
	return 1;
}

/* The config must be a regular file: a directory reads as empty, and a
 * FIFO would block.  16 MiB is far more than any config needs. */
static const struct pv_read_spec config_file = {
	.what = "config ", .max = (size_t)16 << 20, .status = PV_EUSAGE,
};

int pv_config_load(struct pv_config *c, const char *path, struct pv_err *err)
{
	struct loader ld = { 0 };
	int rc;

	strbuf_init(&ld.text, 0);  /* before any return below */
	pv_config_defaults(c);
	c->path = pv_strdup(path);
	ld.c = c;
	ld.path = path;
	ld.err = err;
	if (pv_read_file_spec(path, &config_file, &ld.text, err)) {
		pv_config_release(c);
		return -1;
	}
	rc = ini_parse_stream(read_line, &ld, handler, &ld);
	strbuf_release(&ld.text);
	free(ld.long_value);
	for (size_t i = 0; i < sizeof(ld.global_value) / sizeof(*ld.global_value); i++)
		free(ld.global_value[i]);
	if (!ld.failed && rc > 0) {
		ld.line = (unsigned long)rc;
		fail(&ld, PV_M_CONFIG_SYNTAX, "cannot parse this line: expected [section], key = value, or a ; or # comment");
	} else if (!ld.failed && rc < 0) {
		fail(&ld, PV_M_CONFIG_SYNTAX, "cannot parse the config file");
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

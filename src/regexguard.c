/*
 * regexguard.c - the cost and hazard scan before regcomp(); see
 * regexguard.h.
 */
#include "regexguard.h"

#include <stdio.h>
#include "util/banned.h"

static unsigned long cost_add(unsigned long a, unsigned long b)
{
	return a + b > PV_REGEX_MAX_COST ? PV_REGEX_MAX_COST + 1 : a + b;
}

static unsigned long cost_mul(unsigned long a, unsigned long b)
{
	return b && a > PV_REGEX_MAX_COST / b ? PV_REGEX_MAX_COST + 1 : a * b;
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
				return PV_REGEX_MAX_COST + 1;
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

int pv_regex_compile(regex_t *re, const char *pattern, int cflags,
		     char *msg, size_t msgsize)
{
	int rc;

	switch (regex_hazard(pattern)) {
	case HAZARD_BACKREF:
		snprintf(msg, msgsize, "back-references (\\1...) are not supported");
		return -1;
	case HAZARD_STACKED:
		snprintf(msg, msgsize, "a repetition (+, *, ? or {m,n}) follows another; POSIX leaves that undefined");
		return -1;
	case HAZARD_NONE:
		break;
	}
	if (regex_cost(pattern) > PV_REGEX_MAX_COST) {
		snprintf(msg, msgsize, "too complex: it expands to more than %lu elements (nested or stacked {m,n}, +, * and ?)",
			 PV_REGEX_MAX_COST);
		return -1;
	}
	rc = regcomp(re, pattern, cflags);
	if (rc) {
		regerror(rc, re, msg, msgsize);
		return -1;
	}
	return 0;
}

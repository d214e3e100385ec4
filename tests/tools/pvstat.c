/*
 * pvstat.c - a test driver that runs src/stats/ on cases read from
 * stdin, one per line, and prints one result line per case with %.17g,
 * so that tests/lib/stats_vs_scipy.py can compare them with scipy and R.
 *
 *   ttest EQUAL_VAR ALT CONF NA a... NB b...
 *       -> ok t p df shift ci_low ci_high se
 *   mwu ALT CONF NA a... NB b...
 *       -> ok U p exact shift ci_low ci_high
 *   holm N p...   /   bh N p...         (nan marks a missing p)
 *       -> ok q...
 *   summary N x...
 *       -> ok n mean sd cv median min max
 *   tsf T DF
 *       -> ok P(T > t)
 *   tq P DF
 *       -> ok the p quantile of t
 *
 * ALT is two, greater (the candidate b is larger) or less.  A case that
 * the library refuses prints "error MESSAGE"; a malformed line prints
 * "bad ..." and makes the exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "stats.h"

struct line {
	char *p;        /* the unread rest */
	int bad;
};

static char *token(struct line *l)
{
	char *s;

	l->p += strspn(l->p, " \t\r\n");
	if (!*l->p) {
		l->bad = 1;
		return NULL;
	}
	s = l->p;
	l->p += strcspn(l->p, " \t\r\n");
	if (*l->p)
		*l->p++ = '\0';
	return s;
}

static double num(struct line *l)
{
	char *s = token(l), *end;
	double v;

	if (!s)
		return 0;
	v = strtod(s, &end);
	if (*end)
		l->bad = 1;
	return v;
}

static size_t count(struct line *l)
{
	double v = num(l);

	if (!(v >= 0 && v < 1e7)) {
		l->bad = 1;
		return 0;
	}
	return (size_t)v;
}

/* Reads N then N numbers into a new array. */
static double *vec(struct line *l, size_t *n)
{
	size_t i;
	double *x;

	*n = count(l);
	x = pv_malloc((*n ? *n : 1) * sizeof(*x));
	for (i = 0; i < *n && !l->bad; i++)
		x[i] = num(l);
	return x;
}

static enum pv_alt alt(struct line *l)
{
	char *s = token(l);

	if (s && !strcmp(s, "two"))
		return PV_ALT_TWO;
	if (s && !strcmp(s, "greater"))
		return PV_ALT_GREATER;
	if (s && !strcmp(s, "less"))
		return PV_ALT_LESS;
	l->bad = 1;
	return PV_ALT_TWO;
}

/* Runs one case; returns 0, or 1 when the line is malformed. */
static int run(char *text)
{
	struct line l = { text, 0 };
	struct pv_test_out o;
	struct pv_err err;
	char *op = token(&l);
	double *a = NULL, *b = NULL, conf;
	size_t na = 0, nb = 0, i;
	int rc = 0, eqv;
	enum pv_alt al;

	if (!op)
		return 0;       /* blank line */
	if (!strcmp(op, "ttest")) {
		eqv = (int)num(&l);
		al = alt(&l);
		conf = num(&l);
		a = vec(&l, &na);
		b = vec(&l, &nb);
		if (!l.bad) {
			rc = pv_ttest(a, na, b, nb, eqv, al, conf, &o, &err);
			if (!rc)
				printf("ok %.17g %.17g %.17g %.17g %.17g %.17g"
				       " %.17g\n", o.statistic, o.p, o.df,
				       o.shift, o.ci_low, o.ci_high, o.se);
		}
	} else if (!strcmp(op, "mwu")) {
		al = alt(&l);
		conf = num(&l);
		a = vec(&l, &na);
		b = vec(&l, &nb);
		if (!l.bad) {
			rc = pv_mannwhitney(a, na, b, nb, al, conf, &o, &err);
			if (!rc)
				printf("ok %.17g %.17g %d %.17g %.17g %.17g\n",
				       o.statistic, o.p, o.exact, o.shift,
				       o.ci_low, o.ci_high);
		}
	} else if (!strcmp(op, "holm") || !strcmp(op, "bh")) {
		a = vec(&l, &na);
		if (!l.bad) {
			b = pv_malloc((na ? na : 1) * sizeof(*b));
			if (!strcmp(op, "holm"))
				pv_adjust_holm(a, na, b);
			else
				pv_adjust_bh(a, na, b);
			printf("ok");
			for (i = 0; i < na; i++)
				printf(" %.17g", b[i]);
			printf("\n");
		}
	} else if (!strcmp(op, "tsf")) {
		double t = num(&l), df = num(&l);

		if (!l.bad)
			printf("ok %.17g\n", pv_t_sf(t, df));
	} else if (!strcmp(op, "tq")) {
		double p = num(&l), df = num(&l);

		if (!l.bad)
			printf("ok %.17g\n", pv_t_quantile(p, df));
	} else if (!strcmp(op, "summary")) {
		struct pv_summary s;

		a = vec(&l, &na);
		if (!l.bad) {
			pv_summarize(a, na, &s);
			printf("ok %zu %.17g %.17g %.17g %.17g %.17g %.17g\n",
			       s.n, s.mean, s.sd, s.cv, s.median, s.min,
			       s.max);
		}
	} else {
		l.bad = 1;
	}
	if (!l.bad && l.p[strspn(l.p, " \t\r\n")])
		l.bad = 1;      /* trailing tokens */
	free(a);
	free(b);
	if (l.bad) {
		printf("bad %s\n", op);
		return 1;
	}
	if (rc)
		printf("error %s\n", err.msg);
	return 0;
}

int main(void)
{
	char *text = NULL;
	size_t cap = 0;
	int bad = 0;

	gsl_set_error_handler_off();
	while (getline(&text, &cap, stdin) != -1)
		bad |= run(text);
	free(text);
	return bad ? 2 : 0;
}

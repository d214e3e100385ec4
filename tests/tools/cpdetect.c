/*
 * cpdetect.c - a test driver that runs a change-point detector on one
 * family of series read from stdin and prints its change points, so
 * that tests/cp_corpus/evaluate.py can score a detector outside the
 * program (issue 41).
 *
 *   cpdetect [old | without PART...]
 *
 * old: changepoint.c's pv_cp_family_shared(); else the designed
 * detector of docs/changepoint.md, without the PARTs named (local,
 * spikes, slope, shared: struct pvs_cpn_without), for its
 * ablation.
 *
 * stdin: a first line "lower" or "higher" (the direction), then one
 * value a line: SERIES TAB METRIC TAB INDEX TAB VALUE, a series' points
 * in increasing INDEX.  A series is one (SERIES, METRIC) pair; its point
 * values are the logs of its values when all are positive, as history
 * takes them (one run a point).  stdout: SERIES TAB INDEX for every
 * change point (INDEX: the first point at the new level).  Exit 2 on a
 * malformed line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/cp.h"
#include "util/err.h"

struct ser {
	char *name, *metric;
	double *y;
	size_t *idx, L, cap;
};

static struct ser *find(struct ser **s, size_t *n, size_t *cap,
			const char *name, const char *metric)
{
	if (*n && !strcmp((*s)[*n - 1].name, name) &&
	    !strcmp((*s)[*n - 1].metric, metric))
		return &(*s)[*n - 1];
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*s)[i].name, name) && !strcmp((*s)[i].metric, metric))
			return &(*s)[i];
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		REALLOC_ARRAY(*s, *cap);
	}
	memset(&(*s)[*n], 0, sizeof(**s));
	(*s)[*n].name = pv_strdup(name);
	(*s)[*n].metric = pv_strdup(metric);
	return &(*s)[(*n)++];
}

static int add(struct ser *x, size_t idx, double v)
{
	if (x->L == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 64;
		REALLOC_ARRAY(x->y, x->cap);
		REALLOC_ARRAY(x->idx, x->cap);
	}
	if (x->L && x->idx[x->L - 1] >= idx)
		return -1;
	x->y[x->L] = v;
	x->idx[x->L++] = idx;
	return 0;
}

static int read_family(struct ser **s, size_t *n, int *sign)
{
	const size_t max = 1 << 16;
	char *line = pv_malloc(max);
	size_t cap = 0, ln = 1;

	if (!fgets(line, (int)max, stdin))
		goto bad;
	*sign = !strncmp(line, "higher", 6) ? -1 : 1;
	while (fgets(line, (int)max, stdin)) {
		char *t1 = strchr(line, '\t'), *t2, *t3, *end;
		double v;
		unsigned long idx;

		ln++;
		if (!t1 || !(t2 = strchr(t1 + 1, '\t')) ||
		    !(t3 = strchr(t2 + 1, '\t')))
			goto bad;
		*t1 = *t2 = *t3 = '\0';
		idx = strtoul(t2 + 1, &end, 10);
		v = strtod(t3 + 1, &end);
		if (!isfinite(v) ||
		    add(find(s, n, &cap, line, t1 + 1), idx, v))
			goto bad;
	}
	free(line);
	return 0;
bad:
	fprintf(stderr, "stdin:%zu: expected SERIES TAB METRIC TAB INDEX TAB VALUE\n",
		ln);
	free(line);
	return -1;
}

int main(int argc, char **argv)
{
	struct ser *s = NULL;
	struct pv_cp_series *cs;
	struct pv_err err;
	size_t n = 0;
	int sign, old = argc > 1 && !strcmp(argv[1], "old"), rc;
	struct pvs_cpn_without wo = { 0, 0, 0, 0 };

	for (int i = 2; i < argc && !strcmp(argv[1], "without"); i++) {
		if (!strcmp(argv[i], "local"))
			wo.local = 1;
		else if (!strcmp(argv[i], "spikes"))
			wo.spikes = 1;
		else if (!strcmp(argv[i], "slope"))
			wo.slope = 1;
		else if (!strcmp(argv[i], "shared"))
			wo.shared = 1;
		else {
			fprintf(stderr, "cpdetect: unknown part '%s'\n", argv[i]);
			return 2;
		}
	}
	if (read_family(&s, &n, &sign))
		return 2;
	CALLOC_ARRAY(cs, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		int pos = 1;

		for (size_t j = 0; j < s[i].L; j++)
			pos &= s[i].y[j] > 0;
		for (size_t j = 0; pos && j < s[i].L; j++)
			s[i].y[j] = log(s[i].y[j]);
		cs[i].y = s[i].y;
		cs[i].L = s[i].L;
		cs[i].alone = !pos;
		cs[i].point = s[i].idx;
		cs[i].sign = sign;
	}
	rc = old ? pv_cp_family_shared(cs, n, 0.05, NULL, &err) :
	     pvs_cpn_family_shared(cs, n, 0.05, NULL, &wo, &err);
	if (rc) {
		fprintf(stderr, "cpdetect: %s\n", err.msg);
		return 3;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < cs[i].ncp; k++)
			printf("%s\t%zu\n", s[i].name, s[i].idx[cs[i].cp[k].index]);
		pv_cp_series_release(&cs[i]);
		free(s[i].name);
		free(s[i].metric);
		free(s[i].y);
		free(s[i].idx);
	}
	free(cs);
	free(s);
	return 0;
}

/*
 * numbered.c - a tree whose runs were laid out as tests: run1/ … run5/
 * that repeat_pattern does not match give five tests of one run each,
 * which compare cannot test.  Spot that shape and say how to fix it.
 */
#include "scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "util/banned.h"

/* A test id and its skeleton: each run of digits read as one '#'. */
struct shape {
	const char *test;
	char *skel;
};

static char *skeleton(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	while (*s) {
		if (isdigit((unsigned char)*s)) {
			strbuf_addch(&sb, '#');
			while (isdigit((unsigned char)*s))
				s++;
		} else {
			strbuf_addch(&sb, *s++);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static int cmp_shape(const void *pa, const void *pb)
{
	const struct shape *a = pa, *b = pb;
	int c = strcmp(a->skel, b->skel);

	return c ? c : strcmp(a->test, b->test);
}

/*
 * The letters before the first run of digits in which a and b (of one
 * skeleton, different ids) differ, into prefix: "run" of "run1/x" and
 * "run2/x".
 */
static void number_prefix(const char *a, const char *b, struct strbuf *prefix)
{
	size_t i = 0, start = 0;

	while (a[i] && a[i] == b[i]) {
		if (!isdigit((unsigned char)a[i]))
			start = i + 1;
		i++;
	}
	while (start > 0 && isalpha((unsigned char)a[start - 1]))
		start--;
	/* a[start..] is the letters, then the digits where a and b part */
	for (i = start; a[i] && isalpha((unsigned char)a[i]); i++)
		strbuf_addch(prefix, a[i]);
}

/*
 * Whether every test of sc has one run and each test id shares its
 * skeleton with another one (the ids differ only by numbers); then
 * prefix gets the letters before the number that tells them apart.
 */
static int numbered_runs(const struct pv_scan *sc, struct strbuf *prefix)
{
	struct shape *v;
	int yes = sc->n >= 2;

	if (!yes)
		return 0;
	ALLOC_ARRAY(v, sc->n);
	for (size_t i = 0; i < sc->n; i++) {
		v[i].test = sc->f[i].test;
		v[i].skel = skeleton(sc->f[i].test);
	}
	qsort(v, sc->n, sizeof(*v), cmp_shape);
	for (size_t i = 0; yes && i < sc->n; i++) {
		int same_prev = i > 0 && !strcmp(v[i].skel, v[i - 1].skel);
		int same_next = i + 1 < sc->n && !strcmp(v[i].skel, v[i + 1].skel);

		if (i > 0 && !strcmp(v[i].test, v[i - 1].test))
			yes = 0;        /* a test with two runs */
		else if (!same_prev && !same_next)
			yes = 0;        /* a test with no numbered sibling */
	}
	if (yes)
		number_prefix(v[0].test, v[1].test, prefix);
	for (size_t i = 0; i < sc->n; i++)
		free(v[i].skel);
	free(v);
	return yes;
}

void pv_warn_numbered_runs(const struct pv_scan *sc, size_t nsc,
			   const struct pv_suite *suite, struct pv_diag *diag)
{
	static const char *const side[] = { "baseline", "candidate" };

	for (size_t s = 0; s < nsc; s++) {
		struct strbuf prefix = STRBUF_INIT;

		if (sc[s].root && numbered_runs(&sc[s], &prefix)) {
			struct strbuf where = STRBUF_INIT;

			/* the built-in suite has no section to add a key to */
			if (suite && suite->pattern && suite->name)
				strbuf_addf(&where, "[%s]", suite->name);
			else
				strbuf_addstr(&where, "a suite of a config (-c), beside its result_file_pattern");
			pv_diag_add(diag, PV_M_NUMBERED_TESTS,
				    "%s tree '%s': its %zu tests have one run each and their names differ only by a number ('%s', '%s', ...); if they are runs of one test, set repeat_pattern = %s[0-9]+ in %s",
				    side[nsc == 1 ? 1 : s], sc[s].root, sc[s].n,
				    sc[s].f[0].test, sc[s].f[1].test,
				    prefix.len ? prefix.buf : "", where.buf);
			strbuf_release(&where);
			strbuf_release(&prefix);
			return;     /* one side says it: the fix is the same */
		}
		strbuf_release(&prefix);
	}
}

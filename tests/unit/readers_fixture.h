/*
 * readers_fixture.h - the fixture shared by the reader tests
 * (test_readers.c, test_formats.c, test_catch2.c): a real sample table
 * and read context, fed one file at a time on either side, the checks
 * they share, plus the code that finds fixture files (when the test
 * file defines DATA_SUBDIR, its fixture directory relative to the top
 * of the tree).
 *
 * Not a library: each test file includes this once.  The functions are
 * static inline only so that a file need not use every one.  Each file
 * keeps a small setup() that calls fx_setup() and adds its own
 * settings; teardown() is shared.
 */
#ifndef PV_READERS_FIXTURE_H
#define PV_READERS_FIXTURE_H

#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/diag.h"
#include "readers/reader.h"
#include "table.h"
#include "util/err.h"

/* Where the fixture files are; set by fx_find_data() in main(). */
static char data_dir[4096] __attribute__((unused));

/* One side of one comparison, fed by one or more files. */
struct fx {
	struct pv_table t;
	struct pv_suite suite;
	struct pv_ratio ratios[4];	/* test_readers: suite.ratios */
	struct pv_config cfg;
	struct pv_diag diag;
	struct pv_read_ctx ctx;
	struct pv_err err;
	char root[4096 + 64];		/* test_formats: ctx.root */
	uint32_t nfiles[2];		/* files fed to each side */
};

/* The common part of each file's setup(): a fresh table read as the
 * base side of test 'test' of suite 'suite'. */
static inline int fx_setup(void **state, const char *suite,
			   const char *test)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	pv_table_init(&f->t, 0);
	f->suite.name = (char *)suite;
	f->cfg.limits.max_line = 1 << 20;
	f->cfg.limits.max_metrics = 0;
	f->ctx.table = &f->t;
	f->ctx.side = PV_BASE;
	f->ctx.suite = &f->suite;
	f->ctx.cfg = &f->cfg;
	f->ctx.test = test;
	f->ctx.diag = &f->diag;
	*state = f;
	return 0;
}

static inline int teardown(void **state)
{
	struct fx *f = *state;

	pv_table_release(&f->t);
	pv_diag_release(&f->diag);
	free(f);
	return 0;
}

/* Read one buffer as the next file of side ctx.side; returns the
 * reader's status.  text must stay NUL-terminated at text[len].  Why
 * the file held no results (pv_no_results()), which the loader turns
 * into an error or a warning, is added to the warnings here as
 * "path[:line]: why", like pv_warn() would, and kept in ctx.why. */
static inline int feed_n(struct fx *f, const struct pv_reader *rd,
			 const char *path, const char *text, size_t len)
{
	int ret;

	memset(&f->err, 0, sizeof(f->err));
	f->ctx.path = path;
	f->ctx.relpath = path;
	f->ctx.file = f->nfiles[f->ctx.side]++;
	f->ctx.companion = 0;
	f->ctx.emitted = 0;
	f->ctx.why[0] = '\0';
	f->ctx.why_line = 0;
	ret = rd->read(&f->ctx, text, len, &f->err);
	if (f->ctx.why[0] && f->ctx.why_line)
		pv_diag_add(&f->diag, PV_M_PARTLY_EMPTY, "%s:%lu: %s", path, f->ctx.why_line,
			    f->ctx.why);
	else if (f->ctx.why[0])
		pv_diag_add(&f->diag, PV_M_PARTLY_EMPTY, "%s: %s", path, f->ctx.why);
	return ret;
}

static inline int feed(struct fx *f, const struct pv_reader *rd,
		       const char *path, const char *text)
{
	return feed_n(f, rd, path, text, strlen(text));
}

/* The fixture file data_dir/name, NUL-terminated; the caller frees it. */
static inline char *slurp(const char *name, size_t *len)
{
	char path[8192];
	FILE *fp;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open fixture '%s'", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static inline int feed_file(struct fx *f, const struct pv_reader *rd,
			    const char *name)
{
	size_t len;
	char *buf = slurp(name, &len);
	int ret = feed_n(f, rd, name, buf, len);

	free(buf);
	return ret;
}

static inline const struct pv_metric *find(struct fx *f, const char *group,
					   const char *benchmark,
					   const char *metric)
{
	for (size_t i = 0; i < f->t.n; i++) {
		const struct pv_key *k = &f->t.m[i].key;

		if (!strcmp(k->group, group) &&
		    !strcmp(k->benchmark, benchmark) &&
		    !strcmp(k->metric, metric))
			return &f->t.m[i];
	}
	return NULL;
}

static inline const struct pv_metric *get(struct fx *f, const char *group,
					  const char *benchmark,
					  const char *metric)
{
	const struct pv_metric *m = find(f, group, benchmark, metric);

	if (!m)
		fail_msg("no metric '%s' / '%s' / '%s'", group, benchmark,
			 metric);
	return m;
}

/* The base side's context value of key, or NULL. */
static inline const char *context(struct fx *f, const char *key)
{
	const struct pv_sidemeta *sm = &f->t.side[PV_BASE];

	for (size_t i = 0; i < sm->ncontext; i++)
		if (!strcmp(sm->context[i].key, key))
			return sm->context[i].value;
	return NULL;
}

/* The read failed with an input error whose message starts with want. */
static inline void expect_error_prefix(struct fx *f, int ret,
				       const char *want)
{
	assert_int_equal(ret, -1);
	assert_int_equal(f->err.status, PV_EINPUT);
	if (strncmp(f->err.msg, want, strlen(want)))
		fail_msg("error message\n  got:  %s\n  want: %s...", f->err.msg,
			 want);
}

static inline void expect_in_error(struct fx *f, const char *part)
{
	if (!strstr(f->err.msg, part))
		fail_msg("error message '%s' lacks '%s'", f->err.msg, part);
}

/* How many warnings contain part. */
static inline size_t diag_count(struct fx *f, const char *part)
{
	size_t n = 0;

	for (size_t i = 0; i < f->diag.n; i++)
		n += strstr(f->diag.msg[i], part) != NULL;
	return n;
}

#ifdef DATA_SUBDIR
/* ------------------------------------------------- finding DATA_SUBDIR */

static inline int is_dir(const char *p)
{
	return access(p, R_OK | X_OK) == 0;
}

/* Look for DATA_SUBDIR in dir and up to four of its parents. */
static inline int find_data(const char *dir)
{
	char base[2048];

	snprintf(base, sizeof(base), "%s", dir);
	for (int up = 0; up < 5; up++) {
		snprintf(data_dir, sizeof(data_dir), "%s/%s", base,
			 DATA_SUBDIR);
		if (is_dir(data_dir))
			return 1;
		if (strlen(base) + 4 >= sizeof(base))
			return 0;
		strcat(base, "/..");
	}
	return 0;
}

/* Set data_dir from $envvar, or by walking up from the current directory
 * or from the directory of argv0 (the test binary).  Returns 0, or
 * prints why not and returns -1. */
static inline int fx_find_data(const char *argv0, const char *envvar)
{
	const char *env = getenv(envvar);
	const char *prog = strrchr(argv0, '/');
	char bindir[4096];
	char *slash;

	prog = prog ? prog + 1 : argv0;
	snprintf(bindir, sizeof(bindir), "%s", argv0);
	slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(bindir, sizeof(bindir), ".");
	if (env && *env)
		snprintf(data_dir, sizeof(data_dir), "%s", env);
	else if (!find_data(".") && !find_data(bindir)) {
		fprintf(stderr, "%s: cannot find %s; set %s\n", prog,
			DATA_SUBDIR, envvar);
		return -1;
	}
	return 0;
}
#endif /* DATA_SUBDIR */

#endif

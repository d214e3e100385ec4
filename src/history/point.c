/*
 * point.c - compact history points written: one from the report
 * model's candidate side (compare --save-point), or every point of a
 * history (--save-points); read_point.c reads them back.  See point.h.
 */
#include "point.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "../scan.h"
#include "../util/atomic.h"
#include "../util/file.h"
#include "../util/strbuf.h"
#include "../writers/jw.h"
#include "../util/text.h"
#include "../util/banned.h"

/* The point's fields before its metrics (jw.h: one metric a line). */
static void head(struct jw *w, const char *version, const char *label,
		 const char *commit, const char *time, const char *suite,
		 const struct pv_kv *ctx, size_t nctx)
{
	jw_open(w, '{');
	JW_INT(w, "point_version", PV_POINT_VERSION);
	JW_OPEN(w, "tool", '{');
	JW_STR(w, "name", "perfverdict");
	JW_STR(w, "version", version ? version : "unknown");
	jw_close(w, '}');
	JW_STR(w, "label", label);
	JW_STR(w, "commit", commit);
	JW_STR(w, "time", time);
	JW_STR(w, "suite", suite);
	JW_OPEN(w, "context", '{');
	for (size_t i = 0; i < nctx; i++) {
		jw_key(w, ctx[i].key);
		jw_str(w, ctx[i].value);
	}
	jw_close(w, '}');
	JW_OPEN(w, "metrics", '[');
}

/* One metric; dir NULL when no one set it (a guess is made again when
 * the point is read, under that run's config). */
static void metric(struct jw *w, const char *suite, const char *test,
		   const char *group, const char *bench, const char *name,
		   const char *unit, const char *dir, const double *v, size_t n)
{
	jw_begin(w, '{');
	JW_STR(w, "suite", suite ? suite : "");
	JW_STR(w, "test", test ? test : "");
	JW_STR(w, "group", group ? group : "");
	JW_STR(w, "benchmark", bench);
	JW_STR(w, "metric", name);
	JW_STR(w, "unit", unit ? unit : "");
	if (dir)
		JW_STR(w, "direction", dir);
	JW_OPEN(w, "samples", '[');
	for (size_t i = 0; i < n; i++)
		jw_num(w, v[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

static void tail(struct jw *w)
{
	jw_close(w, ']');
	jw_close(w, '}');
	strbuf_addch(w->sb, '\n');
}

static void point_json(const struct pv_report *r, const char *commit,
		       struct strbuf *sb)
{
	const struct pv_sidemeta *c = &r->side[PV_CAND];
	struct jw w = JW_INIT(sb, NULL, 2);

	head(&w, r->tool_version, r->label[PV_CAND], commit, r->generated_at,
	     r->settings.suite, c->context, c->ncontext);
	for (size_t i = 0; i < r->n; i++) {
		const struct pv_result *m = &r->m[i];
		const struct pv_side_result *sd = &m->side[PV_CAND];

		if (!sd->present || !sd->nsamples)
			continue;
		metric(&w, m->suite, m->test, m->group, m->benchmark, m->metric,
		       m->unit, !m->dir_assumed && m->direction != PV_DIR_UNSET ?
		       pv_dir_name(m->direction) : NULL, sd->samples, sd->nsamples);
	}
	tail(&w);
}

/* in as a gzip stream (no file name, time 0: the same bytes each run). */
static int gzip_to(const struct strbuf *in, FILE *fp, const char *path,
		   struct pv_err *err)
{
	z_stream zs;
	unsigned char buf[65536];
	int rc;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return pv_error(err, PV_M_CANNOT_WRITE,
				"cannot write '%s': cannot start the gzip encoder", path);
	zs.next_in = (unsigned char *)in->buf;
	zs.avail_in = (uInt)in->len;
	do {
		size_t have;

		zs.next_out = buf;
		zs.avail_out = sizeof(buf);
		rc = deflate(&zs, Z_FINISH);
		have = sizeof(buf) - zs.avail_out;
		if (rc == Z_STREAM_ERROR || fwrite(buf, 1, have, fp) != have) {
			deflateEnd(&zs);
			return pv_error(err, PV_M_CANNOT_WRITE, "cannot write '%s'",
					path);
		}
	} while (rc != Z_STREAM_END);
	deflateEnd(&zs);
	return 0;
}

/* sb (released) to path, atomically, gzip when it ends in .gz. */
static int commit_point(struct strbuf *sb, const char *path,
			struct pv_err *err)
{
	struct pv_atomic a;
	int rc;

	memset(&a, 0, sizeof(a));
	if (pv_atomic_open(&a, path, err)) {
		strbuf_release(sb);
		return -1;
	}
	if (pv_ends_with(path, ".gz", 0))
		rc = gzip_to(sb, a.fp, path, err);
	else if (fwrite(sb->buf, 1, sb->len, a.fp) != sb->len)
		rc = pv_error(err, PV_M_CANNOT_WRITE, "cannot write '%s'", path);
	else
		rc = 0;
	strbuf_release(sb);
	if (rc) {
		pv_atomic_abort(&a);
		return -1;
	}
	return pv_atomic_commit_all(&a, 1, err);
}

int pv_point_write_to(const struct pv_report *r, const char *commit,
		      const char *path, FILE *fp, struct pv_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	point_json(r, commit, &sb);
	if (path && pv_ends_with(path, ".gz", 0))
		rc = gzip_to(&sb, fp, path, err);
	else if (fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		rc = pv_atomic_error(err, path, errno);
	strbuf_release(&sb);
	return rc;
}

/* One observation of a point: metric m's obs[j]. */
struct obs_ref {
	size_t m, j;
};

/*
 * Every point's observations, grouped by point in one pass: point pi's
 * are ref[start[pi] .. start[pi + 1]), in metric order as before.  (A
 * scan of every metric for each point took 100 s for 20,000 commits.)
 */
static void index_obs(const struct pv_history *h, size_t **start,
		      struct obs_ref **ref)
{
	size_t *at, total = 0;

	CALLOC_ARRAY(*start, st_add(h->np, 1));
	for (size_t i = 0; i < h->nm; i++)
		for (size_t j = 0; j < h->m[i].nobs; j++)
			(*start)[h->m[i].obs[j].point + 1]++;
	for (size_t pi = 0; pi < h->np; pi++)
		(*start)[pi + 1] += (*start)[pi];
	total = (*start)[h->np];
	ALLOC_ARRAY(*ref, st_add(total, 1));
	ALLOC_ARRAY(at, st_add(h->np, 1));
	memcpy(at, *start, st_mult(h->np, sizeof(*at)));
	for (size_t i = 0; i < h->nm; i++)
		for (size_t j = 0; j < h->m[i].nobs; j++) {
			struct obs_ref *r = &(*ref)[at[h->m[i].obs[j].point]++];

			r->m = i;
			r->j = j;
		}
	free(at);
}

/* Point pi of h, whose observations are ref[0..n), as a point's JSON. */
static void history_point_json(const struct pv_history *h, size_t pi,
			       const struct obs_ref *ref, size_t n,
			       struct strbuf *sb)
{
	const struct pv_hist_point *p = &h->p[pi];
	struct jw w = JW_INIT(sb, NULL, 2);

	head(&w, h->tool_version, p->label, p->commit, p->time, h->suite,
	     p->context, p->ncontext);
	for (size_t k = 0; k < n; k++) {
		const struct pv_hist_metric *m = &h->m[ref[k].m];
		const struct pv_hist_obs *ob = &m->obs[ref[k].j];

		metric(&w, m->suite, m->test, m->group, m->benchmark, m->metric,
		       m->unit, m->rule.dir_assumed ? NULL :
		       pv_dir_name(m->rule.direction), m->runs + ob->off, ob->n);
	}
	tail(&w);
}

/* s (at most max bytes) with every byte outside [0-9A-Za-z._-] as '_':
 * a point's name is then safe in any shell script, glob or line. */
static void add_safe(struct strbuf *sb, const char *s, size_t max)
{
	for (size_t j = 0; j < max && s[j]; j++) {
		char c = s[j];
		int ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
			 (c >= 'a' && c <= 'z') || c == '.' || c == '_' ||
			 c == '-';

		strbuf_addch(sb, ok ? c : '_');
	}
}

/* A point's file name and its place among the points. */
struct pname {
	char *name;
	size_t i;
};

static int by_name(const void *pa, const void *pb)
{
	const struct pname *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->i < b->i ? -1 : a->i > b->i);
}

/*
 * Name every point "<time without colons>-<short id>.json.gz"; points
 * whose names collide (one time and short commit id) are told apart by
 * "-1", "-2"... in point order, so that name order stays point order.
 * Sorted by name on return.
 */
static int name_points(const struct pv_history *h, struct pname *nm,
		       struct pv_err *err)
{
	for (size_t i = 0; i < h->np; i++) {
		const struct pv_hist_point *p = &h->p[i];
		struct strbuf sb = STRBUF_INIT;
		char stamp[32];
		size_t n = 0;

		if (!p->time)
			return pv_error(err, PV_M_BAD_POINT,
					"point '%s' has no recorded time: --save-points names points by their time (use --order time)",
					p->label);
		for (const char *t = p->time; *t && n + 1 < sizeof(stamp); t++)
			if (*t != ':')
				stamp[n++] = *t;
		stamp[n] = '\0';
		add_safe(&sb, stamp, n);
		strbuf_addch(&sb, '-');
		add_safe(&sb, p->commit ? p->commit : p->label, 7);
		nm[i].name = strbuf_detach(&sb, NULL);
		nm[i].i = i;
	}
	qsort(nm, h->np, sizeof(*nm), by_name);
	for (size_t i = 0, j; i < h->np; i = j) {
		for (j = i + 1; j < h->np && !strcmp(nm[j].name, nm[i].name); j++)
			;
		for (size_t k = i; k < j; k++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, nm[k].name);
			if (j - i > 1)
				strbuf_addf(&sb, "-%0*zu", j - i > 9 ? 5 : 1,
					    k - i + 1);
			strbuf_addstr(&sb, ".json.gz");
			free(nm[k].name);
			nm[k].name = strbuf_detach(&sb, NULL);
		}
	}
	qsort(nm, h->np, sizeof(*nm), by_name);
	for (size_t i = 1; i < h->np; i++)
		if (!strcmp(nm[i].name, nm[i - 1].name))
			return pv_error(err, PV_M_CANNOT_WRITE,
					"points '%s' and '%s' would both be named '%s': expected distinct times or commit ids",
					h->p[nm[i - 1].i].label, h->p[nm[i].i].label,
					nm[i].name);
	return 0;
}

/* Remove dir/nm[0..n).name and then dir, the best that can be done. */
static void remove_set(const char *dir, const struct pname *nm, size_t n,
		       int and_dir)
{
	struct strbuf path = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, nm[i].name);
		unlink(path.buf);
	}
	if (and_dir)
		rmdir(dir);
	strbuf_release(&path);
}

/* Every point into tmp, under its name. */
static int write_points(const struct pv_history *h, const struct pname *nm,
			const char *tmp, struct pv_err *err)
{
	size_t *start;
	struct obs_ref *ref;
	int rc = 0;

	index_obs(h, &start, &ref);
	for (size_t k = 0; k < h->np && !rc; k++) {
		size_t i = nm[k].i;
		struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

		strbuf_addf(&path, "%s/%s", tmp, nm[k].name);
		history_point_json(h, i, ref + start[i], start[i + 1] - start[i],
				   &sb);
		rc = commit_point(&sb, path.buf, err);
		strbuf_release(&path);
	}
	free(start);
	free(ref);
	return rc;
}

/* The written set into dir: the temporary directory renamed to dir when
 * there is none, else each file linked in (never over one), all of them
 * or, on an error, none. */
static int move_in(const char *tmp, const char *dir, const struct pname *nm,
		   size_t n, struct pv_err *err)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	struct stat st;
	size_t i;
	int e = 0;

	if (lstat(dir, &st) && errno == ENOENT) {
		if (!rename(tmp, dir))
			return 0;
		e = errno;
		remove_set(tmp, nm, n, 1);
		return pv_error(err, PV_M_CANNOT_WRITE, "cannot create '%s': %s",
				dir, strerror(e));
	}
	for (i = 0; i < n && !e; i++) {
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s/%s", tmp, nm[i].name);
		strbuf_addf(&to, "%s/%s", dir, nm[i].name);
		if (link(from.buf, to.buf))
			e = errno;
	}
	if (e) {
		pv_error(err, PV_M_CANNOT_WRITE, e == EEXIST ?
			 "'%s' exists: a second import, or a point already in the archive (nothing was imported)" :
			 "cannot write '%s': %s (nothing was imported)", to.buf,
			 strerror(e));
		remove_set(dir, nm, i - 1, 0);
	}
	remove_set(tmp, nm, n, 1);
	strbuf_release(&from);
	strbuf_release(&to);
	return e ? -1 : 0;
}

int pv_point_save_all(const struct pv_history *h, const char *dir,
		      struct pv_err *err)
{
	struct pname *nm;
	struct strbuf tmp = STRBUF_INIT;
	int rc = -1;

	CALLOC_ARRAY(nm, st_add(h->np, 1));
	if (name_points(h, nm, err))
		goto out;
	strbuf_addstr(&tmp, dir);
	while (tmp.len > 1 && tmp.buf[tmp.len - 1] == '/')
		strbuf_setlen(&tmp, tmp.len - 1);
	strbuf_addstr(&tmp, ".import-XXXXXX");
	if (!mkdtemp(tmp.buf)) {
		pv_error(err, PV_M_CANNOT_WRITE, "cannot create '%s': %s", dir,
			 strerror(errno));
		goto out;
	}
	if (write_points(h, nm, tmp.buf, err)) {
		remove_set(tmp.buf, nm, h->np, 1);
		goto out;
	}
	rc = move_in(tmp.buf, dir, nm, h->np, err);
out:
	for (size_t i = 0; i < h->np; i++)
		free(nm[i].name);
	free(nm);
	strbuf_release(&tmp);
	return rc;
}

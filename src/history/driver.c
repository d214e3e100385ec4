/*
 * driver.c - an archive read into the model: its entries listed (or the
 * one file that is the archive), each read by its reader of the table
 * (reader.h), the rows the reader gives added to the series
 * (pv_history_add_rows()), points that hold nothing left out as gaps,
 * and the points ordered by name or by time.  Readers return data; only
 * this file adds it to the model.
 */
#include "history.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "reader.h"
#include "../util/isotime.h"
#include "../util/text.h"
#ifdef __GLIBC__
#include <malloc.h>     /* mallopt */
#endif
#include "../util/banned.h"

/* What the driver keeps from one entry to the next. */
struct drive {
	struct pv_history *h;
	const struct pv_history_opts *o;
	struct pv_diag *diag;
	/* The last tree's table, whose keys the next tree's rows try
	 * first (readers/registry.c's like), and its size. */
	struct pv_table *last_tree;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reorder the points by recorded time (stable: ties keep name order). */
struct order_ent {
	double t;
	size_t i;
};

static int by_time(const void *a, const void *b)
{
	const struct order_ent *x = a, *y = b;

	return pv_hist_time_cmp(x->t, x->i, y->t, y->i);
}

static int by_point(const void *a, const void *b)
{
	const struct pv_hist_obs *x = a, *y = b;

	return x->point < y->point ? -1 : x->point > y->point;
}

static int order_by_time(struct pv_history *h, struct pv_diag *diag,
			 struct pv_err *err)
{
	size_t ties = 0, tie = 0;

	struct order_ent *e = pv_calloc(h->np, sizeof(*e));
	size_t *newpos = pv_calloc(h->np, sizeof(*newpos));
	struct pv_hist_point *np = pv_calloc(h->np, sizeof(*np));

	for (size_t i = 0; i < h->np; i++) {
		if (isnan(h->p[i].mtime)) {
			pv_error(err, PV_M_BAD_POINT,
				 "point '%s' of archive '%s' has no recorded time: --order time needs a report's generated_at",
				 h->p[i].label, h->archive);
			free(e);
			free(newpos);
			free(np);
			return -1;
		}
		e[i].t = h->p[i].mtime;
		e[i].i = i;
	}
	qsort(e, h->np, sizeof(*e), by_time);
	for (size_t i = 1; i < h->np; i++)
		if (e[i].t == e[i - 1].t && !ties++)
			tie = i;
	if (ties) {
		char iso[32];

		pv_iso_format(e[tie].t, iso, sizeof(iso));
		pv_diag_add(diag, PV_M_TIME_TIE, "--order time: %zu point%s the same recorded time as the one before (first '%s' and '%s', both %s): those keep name order",
			    ties, ties == 1 ? " has" : "s have",
			    h->p[e[tie - 1].i].label, h->p[e[tie].i].label, iso);
	}
	for (size_t i = 0; i < h->np; i++) {
		newpos[e[i].i] = i;
		np[i] = h->p[e[i].i];
	}
	memcpy(h->p, np, h->np * sizeof(*np));
	for (size_t i = 0; i < h->nm; i++) {
		struct pv_hist_metric *m = &h->m[i];

		for (size_t j = 0; j < m->nobs; j++)
			m->obs[j].point = (uint32_t)newpos[m->obs[j].point];
		qsort(m->obs, m->nobs, sizeof(*m->obs), by_point);
	}
	free(e);
	free(newpos);
	free(np);
	return 0;
}

static int too_few_points(const struct pv_history *h, struct pv_err *err)
{
	if (h->np >= 3)
		return 0;
	return pv_error(err, PV_M_TOO_FEW_POINTS,
			"archive '%s' has %zu point%s: history needs at least 3 (result trees, compare reports or history points, oldest first by name)",
			h->archive, h->np, h->np == 1 ? "" : "s");
}

static int no_metrics(const struct pv_history *h, struct pv_err *err)
{
	if (h->nm)
		return 0;
	return pv_error(err, PV_M_NO_SAMPLES, "archive '%s': no metrics in any point",
			h->archive);
}

/*
 * Each point's file buffer, table and sample arrays are freed and the
 * next point's, of about the same sizes, allocated again.  glibc hands
 * blocks of 128 KiB and more back to the kernel when they are freed
 * (mmap, or trimming the heap's top), and the next point faults the
 * same pages in again, zeroed: two thirds of the page faults at 100
 * points x 10,000 metrics (95,900 faults, 0.15 s).  Freed memory stays
 * in the heap instead, for the next point (peak RSS unchanged).
 */
static void keep_freed_memory(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

static void drive_release(struct drive *d)
{
	if (d->last_tree) {
		pv_table_release(d->last_tree);
		free(d->last_tree);
	}
	d->last_tree = NULL;
}

/* The input of entry p, for its reader. */
static void input_init(struct drive *d, struct pv_hist_input *in,
		       const struct pv_hist_point *p)
{
	memset(in, 0, sizeof(*in));
	in->path = p->path;
	in->archive = d->h->archive;
	in->o = d->o;
	in->arena = &d->h->arena;
	in->strs = &d->h->strs;
	in->like = d->last_tree;
	in->diag = d->diag;
	in->one = *p;
	in->p = &in->one;
	in->np = 1;
}

/*
 * Point pi (its label, path and kind set) read by its reader and its
 * rows added: 0, 1 (err filled) when it holds no results, -1 on an
 * error.  A tree's table is kept for the next tree (in->like).
 */
static int read_entry(struct drive *d, size_t pi, struct pv_err *err)
{
	struct pv_history *h = d->h;
	struct pv_hist_input in;
	const struct pv_hist_reader *r = &pv_hist_readers[h->p[pi].is_report];
	int rc;

	input_init(d, &in, &h->p[pi]);
	rc = r->read(&in, err);
	if (rc < 0)
		rc = -1;
	if (!rc) {
		/* the point as the reader gave it (a report may have been a
		 * point): the rows' messages name its label */
		h->p[pi] = in.one;
		r = &pv_hist_readers[h->p[pi].is_report];
		rc = pv_history_add_rows(h, pi, d->o, in.rows, in.nrows,
					 in.interned, err);
	}
	if (!rc && in.late) {
		*err = in.late_err;
		rc = -1;
	}
	if (!rc && r->none && !h->p[pi].metrics)
		rc = r->none(&in, &h->p[pi], err);
	if (in.table) {
		drive_release(d);
		d->last_tree = in.table;
		in.table = NULL;
	}
	pv_hist_input_release(&in);
	return rc;
}

/*
 * Every point, in order.  One that holds no results (a tree of empty
 * files or none, a point with no metrics: a CI run that produced
 * nothing) is left out as a gap with a warning naming it, or is the
 * error with [limits] empty_points = error.  Nothing of it was added to
 * a series, so the points after it move down one place.
 */
static int read_points(struct drive *d, struct pv_err *err)
{
	struct pv_history *h = d->h;
	size_t w = 0;

	for (size_t i = 0; i < h->np; i++) {
		struct pv_hist_point *p = &h->p[w];
		const char *entry;
		int rc;

		h->p[w] = h->p[i];
		rc = read_entry(d, w, err);
		if (rc == -1)
			return -1;
		w += rc == 0;
		if (!rc)
			continue;
		/* named by its entry: a point file's label is its own */
		entry = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1 :
			p->path;
		if (d->o->cfg->limits.empty_points_error)
			return pv_error(err, PV_M_NO_RESULTS,
					"point '%s' of archive '%s' holds no results: expected the results of a run ([limits] empty_points = warn leaves such a point out as a gap)",
					entry, h->archive);
		pv_diag_add(d->diag, PV_M_NO_RESULTS,
			    "point '%s' of archive '%s' holds no results; left out as a gap",
			    entry, h->archive);
		memset(p, 0, sizeof(*p));
	}
	h->np = w;
	return 0;
}

/* An archive that is a file: a github-action-benchmark data.js
 * (readers/benchdata.h), all of its points at once. */
static int read_file_archive(struct drive *d, struct pv_err *err)
{
	struct pv_history *h = d->h;
	struct pv_hist_point p = { 0 };
	struct pv_hist_input in;
	int rc = -1;

	p.path = h->archive;
	p.is_report = PV_PK_BENCHDATA;
	input_init(d, &in, &p);
	if (pv_hist_readers[PV_PK_BENCHDATA].read(&in, err))
		goto out;
	h->p = in.p;
	h->np = in.np;
	in.p = &in.one;
	if (pv_history_add_rows(h, 0, d->o, in.rows, in.nrows, in.interned,
				err) ||
	    too_few_points(h, err) || no_metrics(h, err) ||
	    (d->o->order == PV_ORDER_TIME && order_by_time(h, d->diag, err)))
		goto out;
	rc = 0;
out:
	pv_hist_input_release(&in);
	return rc;
}

/* The names of the archive directory's entries, sorted, but for those
 * that start with a dot; *n of them.  NULL (with err) when it cannot be
 * read. */
static char **list_dir(const char *archive, size_t *n, struct pv_err *err)
{
	DIR *dir = opendir(archive);
	struct dirent *de;
	char **names = NULL;
	size_t a = 0;

	*n = 0;
	if (!dir)
		return pv_error(err, PV_M_CANNOT_READ, "cannot read archive '%s': %s",
				archive, strerror(errno)), NULL;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == a) {
			a = a ? 2 * a : 32;
			names = pv_reallocarray(names, a, sizeof(*names));
		}
		names[(*n)++] = pv_strdup(de->d_name);
	}
	closedir(dir);
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names ? names : pv_calloc(1, sizeof(*names));
}

/* Entry name of the archive as the next point, when a reader of the
 * table reads it; else a warning that it is left out.  -1 when it
 * cannot be read. */
static int add_entry(struct pv_history *h, const char *name,
		     struct pv_diag *diag, struct pv_err *err)
{
	struct strbuf path = STRBUF_INIT;
	const struct pv_hist_reader *r;
	struct pv_hist_point *p;
	struct stat st;

	strbuf_addf(&path, "%s/%s", h->archive, name);
	if (lstat(path.buf, &st)) {
		pv_error(err, PV_M_CANNOT_READ, "cannot read '%s': %s", path.buf,
			 strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	r = S_ISLNK(st.st_mode) ? NULL :
	    S_ISDIR(st.st_mode) ? pv_hist_reader_for(name, 1) :
	    S_ISREG(st.st_mode) ? pv_hist_reader_for(name, 0) : NULL;
	if (S_ISLNK(st.st_mode))
		pv_diag_add(diag, PV_M_NOT_A_POINT, "archive '%s': '%s' is a symbolic link, which history does not follow; left out",
			    h->archive, name);
	else if (!r)
		pv_diag_add(diag, PV_M_NOT_A_POINT, "archive '%s': '%s' is not a point (expected a result tree, or a compare report or history point ending in .json or .json.gz); left out",
			    h->archive, name);
	if (r) {
		p = &h->p[h->np++];
		p->label = arena_strdup(&h->arena, name);
		p->path = arena_strdup(&h->arena, path.buf);
		p->is_report = r->kind;
	}
	strbuf_release(&path);
	return 0;
}

/* An archive that is a directory: each entry a point, by name. */
static int read_dir_archive(struct drive *d, struct pv_err *err)
{
	struct pv_history *h = d->h;
	size_t nnames = 0;
	char **names = list_dir(h->archive, &nnames, err);
	int rc = -1;

	if (!names)
		return -1;
	if (!nnames) {
		pv_error(err, PV_M_TOO_FEW_POINTS,
			 "archive '%s' is empty: history needs at least 3 points (result trees or compare reports, oldest first by name)",
			 h->archive);
		goto out;
	}
	h->p = pv_calloc(nnames, sizeof(*h->p));
	for (size_t i = 0; i < nnames; i++)
		if (add_entry(h, names[i], d->diag, err))
			goto out;
	if (too_few_points(h, err))
		goto out;
	keep_freed_memory();
	if (read_points(d, err) || too_few_points(h, err) || no_metrics(h, err))
		goto out;
	if (d->o->order == PV_ORDER_TIME && order_by_time(h, d->diag, err))
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* h->abbrev: as git abbreviates, the least length from 7 at which no
 * two different full ids among the labels and commits share a prefix. */
static void set_abbrev(struct pv_history *h)
{
	const char **id;
	size_t n = 0, best = 7;

	ALLOC_ARRAY(id, st_mult(2, h->np) + 1);
	for (size_t i = 0; i < h->np; i++) {
		if (pv_history_is_full_id(h->p[i].label))
			id[n++] = h->p[i].label;
		if (pv_history_is_full_id(h->p[i].commit))
			id[n++] = h->p[i].commit;
	}
	qsort(id, n, sizeof(*id), by_str);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;

		if (!strcmp(id[i - 1], id[i]))
			continue;
		while (id[i - 1][k] == id[i][k])
			k++;
		if (k + 1 > best)
			best = k + 1;
	}
	h->abbrev = (unsigned)best;
	free(id);
}

int pv_history_read(struct pv_history *h, const char *archive,
		    const struct pv_history_opts *o, struct pv_diag *diag,
		    struct pv_err *err)
{
	struct drive d = { h, o, diag, NULL };
	struct stat ast;
	int rc;

	h->archive = arena_strdup(&h->arena, archive);
	h->order = o->order;
	h->recent = o->recent;
	if (!stat(archive, &ast) && S_ISREG(ast.st_mode))
		rc = read_file_archive(&d, err);
	else
		rc = read_dir_archive(&d, err);
	drive_release(&d);
	if (!rc)
		set_abbrev(h);
	return rc;
}

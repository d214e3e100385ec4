/*
 * read_tree.c - history's reader of a result tree: one point, read by
 * the same scan, readers and table as compare reads its candidate side.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../readers/reader.h"
#include "../scan.h"
#include "../util/isotime.h"
#include "../util/banned.h"

/* Tree path holds no results at all (no files, or none with a result:
 * a run that wrote nothing), read again with empty files allowed: one
 * empty file among others stays empty_files' error. */
static int tree_is_empty(const struct pv_hist_input *in, const char *path)
{
	const struct pv_history_opts *o = in->o;
	struct pv_config c = *o->cfg;
	struct pv_scan sc = { 0 };
	struct pv_table *t = pv_malloc(sizeof(*t));
	struct pv_diag d = PV_DIAG_INIT;
	struct pv_err e = { 0 };
	int empty = 0;

	c.limits.empty_files_warn = 1;
	pv_table_init_shared(t, c.limits.max_metrics, in->strs);
	if (!pv_scan_tree(path, o->suite, &c.limits, &sc, &e))
		empty = pv_load_side(t, PV_CAND, &sc, o->suite, o->format, &c,
				     &d, &e) ? e.id == PV_M_NO_RESULT_FILES :
				     !t->n;
	pv_table_release(t);
	free(t);
	pv_scan_release(&sc);
	pv_diag_release(&d);
	return empty;
}

/* The point's time: its newest file's modification time; the preamble's
 * keys as its context. */
static void tree_point(struct pv_hist_input *in, const struct pv_scan *sc,
		       const struct pv_table *t)
{
	struct pv_hist_point *p = in->p;
	double newest = 0;
	char iso[32];

	for (size_t i = 0; i < sc->n; i++) {
		struct strbuf f = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&f, "%s/%s", p->path, sc->f[i].relpath);
		if (!stat(f.buf, &st) && (double)st.st_mtime > newest)
			newest = (double)st.st_mtime;
		strbuf_release(&f);
	}
	pv_hist_point_context(in, p, t->side[PV_CAND].context,
			      t->side[PV_CAND].ncontext);
	p->mtime = newest;
	/* Only when it orders the points: file times differ between
	 * checkouts of the same archive, and reports should not. */
	if (in->o->order == PV_ORDER_TIME) {
		pv_iso_format(newest, iso, sizeof(iso));
		p->time = arena_strdup(in->arena, iso);
	}
}

/* The table's candidate metrics as rows; their keys are in->strs's. */
static void tree_rows(struct pv_hist_input *in, const struct pv_table *t)
{
	in->interned = 1;
	for (size_t i = 0; i < t->n; i++) {
		const struct pv_metric *tm = &t->m[i];
		struct pv_hist_row *r;

		if (!tm->n[PV_CAND])
			continue;
		r = pv_hist_input_row(in);
		r->suite = tm->key.suite;
		r->test = tm->key.test;
		r->group = tm->key.group;
		r->bench = tm->key.benchmark;
		r->metric = tm->key.metric;
		r->unit = tm->unit;
		r->hint = tm->dir_hint;
		r->v = tm->v[PV_CAND];
		r->n = tm->n[PV_CAND];
	}
}

/* Returns 1 (err filled with why) when the tree holds no results at
 * all. */
int pv_hist_read_tree(struct pv_hist_input *in, struct pv_err *err)
{
	const struct pv_history_opts *o = in->o;
	struct pv_scan sc = { 0 };
	struct pv_table *t = pv_malloc(sizeof(*t));
	struct pv_diag d = PV_DIAG_INIT;
	int rc = -1;

	/* kept until the rows are added, then as the next tree's like */
	in->table = t;
	pv_table_init_shared(t, o->cfg->limits.max_metrics, in->strs);
	if (in->like) {
		pv_table_reserve(t, in->like->n);   /* as the tree before */
		t->like = in->like->m;
		t->nlike = in->like->n;
	}
	if (pv_scan_tree(in->path, o->suite, &o->cfg->limits, &sc, err))
		goto out;
	if (pv_load_side(t, PV_CAND, &sc, o->suite, o->format, o->cfg, &d, err)) {
		if ((err->id == PV_M_NO_RESULT_FILES || err->id == PV_M_NO_RESULTS ||
		     err->id == PV_M_EMPTY_FILE) && tree_is_empty(in, in->path)) {
			pv_diag_release(&d);
			rc = 1;
		}
		goto out;
	}
	if (!t->n) {
		pv_error(err, PV_M_NO_RESULTS, "no samples found%s",
			 o->suite->pattern ? " (check result_file_pattern)" :
			 ": expected result files of a known format (see 'perfverdict formats')");
		rc = 1;
		goto out;
	}
	pv_table_finish(t);
	tree_point(in, &sc, t);
	tree_rows(in, t);
	rc = 0;
out:
	pv_diag_take(in->diag, &d);
	t->like = NULL;
	t->nlike = 0;
	pv_scan_release(&sc);
	return rc;
}

/*
 * scan.h - find a tree's result files, and read them into the table.
 *
 * The walk does not follow symlinks and keeps only regular files, so a
 * symlink loop, a link out of the tree or a FIFO named like a result
 * file can neither hang nor mislead it.  Files are sorted bytewise by
 * relative path, so the output never depends on readdir order.
 */
#ifndef PV_SCAN_H
#define PV_SCAN_H

#include <stddef.h>
#include "config.h"
#include "diag.h"
#include "table.h"
#include "util/err.h"

struct pv_file {
	char *relpath;  /* relative to the root */
	char *test;     /* relpath without its repeat tokens */
};

struct pv_scan {
	char *root;
	struct pv_file *f;
	size_t n;
	size_t skipped;     /* symlinks, FIFOs and other non-files */
	char **notes;       /* one warning per skipped entry, sorted */
	size_t nnotes;
};

/*
 * Files under root whose relative path matches suite->pattern (all
 * regular files when the suite has no pattern).  A symlink that would
 * be taken is left out with a warning (pv_load_side() gives it); so is
 * a FIFO, socket or device when the suite has no pattern, while one that
 * the suite's pattern names is an input error: the user said it is a
 * result file, and it cannot be read as one.
 */
int pv_scan_tree(const char *root, const struct pv_suite *suite,
		 const struct pv_limits *lim, struct pv_scan *out,
		 struct pv_err *err);
void pv_scan_release(struct pv_scan *s);

/* The test id of a relative path: each match of the repeat regex is
 * removed, with one of the separators around it.  Caller frees. */
char *pv_test_id(const char *relpath, const regex_t *repeat_re);

/*
 * Read every scanned file of one side into the table, with the reader
 * named by format (NULL or "auto": detect per file).  With auto, files
 * no reader recognises are skipped when the suite has no pattern, and
 * are an error when the user's pattern picked them.
 */
int pv_load_side(struct pv_table *t, enum pv_side side,
		 const struct pv_scan *sc, const struct pv_suite *suite,
		 const char *format, const struct pv_config *cfg,
		 struct pv_diag *diag, struct pv_err *err);

#endif

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
#include "util/diag.h"
#include "table.h"
#include "util/err.h"
#include "util/strbuf.h"

struct pv_file {
	char *relpath;  /* relative to the root */
	char *test;     /* relpath without its repeat tokens */
};

struct pv_scan {
	char *root;         /* as given: a tree, or one result file */
	char *dir;          /* root's directory when it is a file, else NULL */
	struct pv_file *f;
	size_t n;
	size_t skipped;     /* symlinks, FIFOs and other non-files */
	char **notes;       /* one warning per skipped entry, sorted */
	size_t nnotes;
};

/*
 * Files under root whose relative path matches suite->pattern (all
 * regular files when the suite has no pattern).  A root that is a
 * regular file is a scan of that one file (relpath: its base name),
 * whatever the pattern says: the user named it.  A symlink that would
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
 * named by format (NULL or "auto": detect per file).  Load PV_BASE
 * before PV_CAND: the candidate's checks look at the baseline's files.
 *
 * Input errors, each naming the file (warnings instead when [limits]
 * empty_files = warn, except the last):
 *  - a result file that holds no results (empty, a header without
 *    rows, only a preamble: what a crashed run leaves), save the
 *    companion files a format writes beside its results;
 *  - with auto, a file no reader recognises, when the user's pattern
 *    picked it, or when its test id was read from another file on
 *    either side (a repeat, or the same path on the other side): the
 *    message says what is wrong with it.  Other unknown files are
 *    skipped;
 *  - a side with no result file at all ("no result files found in
 *    candidate tree 'X'").
 * When each side holds exactly one result file and both are of one
 * format, they are paired under the baseline's test id, whatever their
 * names (benchstat's old.txt and new.txt).
 */
int pv_load_side(struct pv_table *t, enum pv_side side,
		 const struct pv_scan *sc, const struct pv_suite *suite,
		 const char *format, const struct pv_config *cfg,
		 struct pv_diag *diag, struct pv_err *err);

/*
 * Warn (numbered-tests) when every test of a scan has one run and the
 * test ids differ only by numbers (run1/…, run5/… that repeat_pattern
 * does not match), suggesting the repeat_pattern that would join them;
 * once, for the first of sc[0..nsc) that has that shape (numbered.c).
 */
void pv_warn_numbered_runs(const struct pv_scan *sc, size_t nsc,
			   const struct pv_suite *suite, struct pv_diag *diag);

/* Inflate the gzip data in (pyperf's .json.gz, a history point) onto
 * out, every member of it as gunzip -c does, at most the smaller of
 * l's max_inflated_size and max_file_size, named when hit; errors name path: corrupt or truncated
 * data, or trailing bytes that are no gzip member (PV_M_BAD_GZIP), too
 * large (PV_M_TOO_LARGE). */
int pv_gunzip(const char *path, const struct strbuf *in,
	      const struct pv_limits *l, struct strbuf *out, struct pv_err *err);

#endif

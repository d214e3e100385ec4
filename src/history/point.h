/*
 * point.h - one compare run's candidate side as a compact history point
 * (compare --save-point FILE; schemas/point.schema.json), and every point
 * of a history as one (--save-points); history's reader of them is
 * read_point.c (reader.h).
 *
 * A point keeps what history needs and nothing it recomputes: the label,
 * the commit, the time, the context, and per metric its key, unit, a
 * configured direction and the candidate's samples (shortest round-trip
 * decimals).  It is gzip-compressed when its name ends in ".gz".  The CI
 * scripts name points "<UTC time>-<short commit>.json.gz"
 * (2026-12-01T201500Z-3f2a9c1.json.gz), so that name order is time order.
 */
#ifndef PV_POINT_H
#define PV_POINT_H

#include <stdio.h>
#include "history.h"
#include "../report.h"
#include "../util/err.h"

#define PV_POINT_VERSION 1

/*
 * Write r's candidate side as a point to fp (a file of the report set
 * that outputs.c commits all or none), gzip when path ends in .gz;
 * commit is the full commit id, or NULL; path names the file in errors
 * (NULL or "-": standard output).  Metrics the candidate does not have,
 * and summary-only ones (no samples), are left out.  Errors: cannot
 * write (exit 3's level of the message table).
 */
int pv_point_write_to(const struct pv_report *r, const char *commit,
		      const char *path, FILE *fp, struct pv_err *err);

/*
 * history --save-points DIR: every point of h (after pv_history_read())
 * as a point file in DIR, named "<UTC time>-<short commit>.json.gz"
 * from its time and commit (else its label), so that an archive can
 * start from another history (a github-action-benchmark data.js).
 * Names hold only [0-9A-Za-z._-] (any other byte of a time or commit id
 * becomes '_'); points with one time and short id get "-1", "-2"... in
 * point order.  All or nothing: the points are written into a temporary
 * directory beside DIR, which is renamed to DIR when there is none;
 * else each file is linked in, and an existing file of a name (a point
 * is never written twice) undoes the ones linked and is the error.
 * Linear in the points and observations.
 */
int pv_point_save_all(const struct pv_history *h, const char *dir,
		      struct pv_err *err);

#endif

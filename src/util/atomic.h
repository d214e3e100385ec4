/*
 * atomic.h - write reports so that no reader ever sees half of one, and
 * a failed run changes none of them.
 *
 * pv_atomic_open() creates a temporary file ".NAME.XXXXXX" next to the
 * target; pv_atomic_commit_all() flushes and closes every temporary file
 * first and only then renames them into place, so a write error (a full
 * disk) in any report leaves every target as it was; abort removes the
 * temporary file.
 *
 * Targets that are not regular files are never replaced: "-" (standard
 * output) and an existing device, FIFO or socket (/dev/null, /dev/stdout)
 * are written through, from a memory buffer, when the reports are
 * committed.  (Renaming over them, as root, would replace /dev/null.)
 * A FIFO with no reader is an error rather than a wait.
 */
#ifndef PV_ATOMIC_H
#define PV_ATOMIC_H

#include <stddef.h>
#include <stdio.h>
#include "err.h"

struct pv_atomic {
	FILE *fp;       /* what the writer writes to; NULL when unused */
	char *path;     /* target; NULL for standard output */
	char *tmp;      /* temporary file, or NULL when buffered in memory */
	char *mem;      /* the memory buffer (open_memstream) */
	size_t memlen;
};

int pv_atomic_open(struct pv_atomic *a, const char *path, struct pv_err *err);
/* Commit a[0..n) (entries with fp == NULL are skipped): all of them, or
 * on any error none of them, and every one is released either way. */
int pv_atomic_commit_all(struct pv_atomic *a, size_t n, struct pv_err *err);
void pv_atomic_abort(struct pv_atomic *a);

#endif

/*
 * atomic.h - write a report so that no reader ever sees half of it.
 *
 * pv_atomic_open() creates a temporary file next to the target; commit
 * flushes, fsyncs and renames it into place; abort removes it.  The path
 * "-" writes to stdout directly.
 */
#ifndef PV_ATOMIC_H
#define PV_ATOMIC_H

#include <stdio.h>
#include "err.h"

struct pv_atomic {
	FILE *fp;
	char *path;  /* target */
	char *tmp;   /* temporary name, NULL for stdout */
};

int pv_atomic_open(struct pv_atomic *a, const char *path, struct pv_err *err);
int pv_atomic_commit(struct pv_atomic *a, struct pv_err *err);
void pv_atomic_abort(struct pv_atomic *a);

#endif

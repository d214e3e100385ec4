/*
 * diag.h - warnings gathered during a run.  Modules append; main.c
 * prints them to stderr and the report carries them.
 */
#ifndef PV_DIAG_H
#define PV_DIAG_H

#include <stddef.h>

struct pv_diag {
	char **msg;
	size_t n, alloc;
};

#define PV_DIAG_INIT { NULL, 0, 0 }

void pv_diag_add(struct pv_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pv_diag_release(struct pv_diag *d);

#endif

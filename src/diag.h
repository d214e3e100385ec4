/*
 * diag.h - warnings gathered during a run.  Modules append; main.c
 * prints them to stderr (pv_diag_print(): one line per kind) and the
 * report carries every one.
 */
#ifndef PV_DIAG_H
#define PV_DIAG_H

#include <stddef.h>
#include <stdio.h>

/*
 * msg[i] is one printable line.  kind[i] names what kind of warning it
 * is (the format it was written from: a static string), or is NULL for
 * one of its own kind; subj[i] is the file it is about, or NULL.  kind
 * and subj are NULL until a warning with a kind is added.
 */
struct pv_diag {
	char **msg;
	size_t n, alloc;
	const char **kind;
	char **subj;
};

#define PV_DIAG_INIT { NULL, 0, 0, NULL, NULL }

void pv_diag_add(struct pv_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same, of a kind (a string that outlives d, such as the format a
 * reader warned with) about the file subj (copied; may be NULL). */
void pv_diag_add_kind(struct pv_diag *d, const char *kind, const char *subj,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Print the warnings to fp, each line prefix + message.  Warnings of one
 * kind make one line, the first of them, with a count of the others
 * ("; and 9 more files like it").  At most max lines (0: no limit): the
 * last one then says how many were not shown.  The list is unchanged.
 */
void pv_diag_print(const struct pv_diag *d, FILE *fp, const char *prefix,
		   size_t max);
void pv_diag_release(struct pv_diag *d);

#endif

/*
 * diag.h - warnings gathered during a run.  Modules append; main.c
 * prints them to stderr (pv_diag_print(): one line per code of those
 * about a file) and the report carries every one, with its code.
 */
#ifndef PV_DIAG_H
#define PV_DIAG_H

#include <stddef.h>
#include <stdio.h>
#include "msg.h"

/*
 * msg[i] is one printable line, code[i] its code (a string of msg.c's
 * table).  subj[i] is the file it is about, or NULL for a warning that
 * is shown on its own line.
 */
struct pv_diag {
	char **msg;
	size_t n, alloc;
	const char **code;
	char **subj;
};

#define PV_DIAG_INIT { NULL, 0, 0, NULL, NULL }

/* Warning id (of msg.h's table), worded printf-style. */
void pv_diag_add(struct pv_diag *d, enum pv_msg id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, about the file subj (copied; NULL: not about a file), to be
 * shown collapsed with others of its code. */
void pv_diag_add_subj(struct pv_diag *d, enum pv_msg id, const char *subj,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Print the warnings to fp, each line prefix + level + ": " + message
 * + " [code]", the level "note" or "warning" (pv_msg_listed_level()).
 * Warnings of one code about files make one line, the first of them,
 * with a count of the others ("(and 9 more files like it)").  At most
 * max lines (0: no limit): the last one then says how many were not
 * shown.  The list is unchanged.
 */
void pv_diag_print(const struct pv_diag *d, FILE *fp, const char *prefix,
		   size_t max);
/* Move every warning of from, with its code and file, to the end of to;
 * from is left empty. */
void pv_diag_take(struct pv_diag *to, struct pv_diag *from);
void pv_diag_release(struct pv_diag *d);

#endif

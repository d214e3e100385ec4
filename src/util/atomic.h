/*
 * atomic.h - write reports so that no reader ever sees half of one, and
 * a failed run changes none of them.
 *
 * pv_atomic_open() creates a temporary file ".NAME.XXXXXX" next to the
 * target.  pv_atomic_commit_all() commits a set of them:
 *   1. every temporary file is flushed and closed: a write error (a full
 *      disk) in any report changes no target;
 *   2. each existing target is kept under a second name (a hard link,
 *      ".NAME.XXXXXX.old") and the temporary files are renamed over the
 *      targets, in order;
 *   3. the write-through targets (below) are written;
 *   4. the kept copies are removed.
 * When a rename in 2 or a write in 3 fails, the targets already renamed
 * are put back: the kept copy is renamed over the target, or a target
 * that did not exist before is removed; so the files are all new or all
 * as they were.  What this cannot undo, and the error then says so: a
 * target on a file system with no hard links (its previous content is
 * lost once replaced), a put-back rename that fails itself (the previous
 * content stays as the ".old" file the message names), and the bytes a
 * failed write-through target already received.
 *
 * Targets that are not regular files are never replaced: "-" (standard
 * output) and an existing device, FIFO or socket (/dev/null, /dev/stdout)
 * are written through, from a memory buffer, when the reports are
 * committed.  (Renaming over them, as root, would replace /dev/null.)
 * Such a target is opened once, by pv_atomic_open(), and what that
 * descriptor is (fstat) decides the way it is written: a symbolic link
 * swapped between the open and the commit cannot send the report to
 * another file.  (Following the link is meant: /dev/stdout is one.)
 * A FIFO with no reader is an error rather than a wait.
 *
 * Signals: every temporary file (and kept copy) is registered while it
 * exists; on SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE, unless the
 * process ignores that signal, an async-signal-safe handler removes them
 * and re-raises the signal with its default action (git's tempfile.c).
 * Removing a kept copy never loses a report: it is a second name of the
 * old one.  The signals are held back from the first rename of step 2
 * to its last (and while a failure is put back), so a signal leaves the
 * set all old (before step 2) or all new (from its end on), never mixed.
 * These functions are for one thread: the list is not locked.
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
	char *old;      /* while committing: the kept copy of the target */
	int slot;       /* tmp's place + 1 in the signal cleanup list; 0: none */
	int old_slot;   /* the same for old */
	int replaced;   /* while committing: tmp was renamed over path */
	char *mem;      /* the memory buffer (open_memstream) */
	size_t memlen;
	int fd;         /* a device or FIFO target, opened once by
			 * pv_atomic_open(); valid when has_fd */
	int has_fd;
};

int pv_atomic_open(struct pv_atomic *a, const char *path, struct pv_err *err);
/* Commit a[0..n) (unused entries are skipped) as described above: all
 * of them, or on an error none of them, and every one is released
 * either way. */
int pv_atomic_commit_all(struct pv_atomic *a, size_t n, struct pv_err *err);
void pv_atomic_abort(struct pv_atomic *a);

/* The one wording of a failed report write, for this file and every
 * writer: "cannot write report 'PATH': REASON", or "cannot write to
 * standard output: REASON" for PATH NULL or "-" (e 0 is EIO); returns
 * -1. */
int pv_atomic_error(struct pv_err *err, const char *path, int e);

/* Remove every temporary file not yet renamed into place: for a signal
 * handler, and for the out-of-memory exit (async-signal-safe). */
void pv_atomic_remove_temps(void);

#endif

/*
 * file.h - reading a result file whole, safely: regular files only
 * (a FIFO named like a result must not block the run, a symlink must
 * not lead out of the tree), within a size limit.
 */
#ifndef PV_FILE_H
#define PV_FILE_H

#include <stddef.h>
#include "err.h"
#include "strbuf.h"

/*
 * Append the file at path to out.  shown is the name used in messages.
 * Returns 0, 1 when the file does not exist (the caller decides whether
 * that is an error), or -1 with err filled (PV_EINPUT): a symlink, FIFO
 * or other non-regular file, a read error, or more than max bytes.
 */
int pv_read_file(const char *path, const char *shown, size_t max,
		 struct strbuf *out, struct pv_err *err);

#endif

/*
 * file.h - the one way files are read whole: regular files only (a FIFO
 * must not block the run, a directory must not read as empty), within a
 * size limit, with a symlink refused where the caller walks a tree that
 * must not be left.  Result files (scan, readers), archived reports and
 * the config all come through here.
 */
#ifndef PV_FILE_H
#define PV_FILE_H

#include <stddef.h>
#include "err.h"
#include "strbuf.h"

/* What a caller asks of pv_read_file_spec(), and how errors read. */
struct pv_read_spec {
	const char *shown;      /* the name in messages; NULL: the path */
	const char *what;       /* after "cannot read ": "" or "config " */
	const char *expect;     /* what the file should be ("a JSON report"),
				 * said when it is a directory or a FIFO */
	const char *limit;      /* the setting that sets max, or NULL */
	size_t max;             /* in bytes; 0: no limit */
	enum pv_status status;  /* of every error: PV_EINPUT or PV_EUSAGE */
	unsigned nofollow : 1;  /* a symbolic link is an error */
	unsigned missing_ok : 1; /* a missing file returns 1, not an error */
};

/*
 * Append the file at path to out.  Returns 0, 1 for a missing file when
 * spec->missing_ok, or -1 with err filled: "cannot read WHAT'NAME': why"
 * (a symlink with nofollow, a directory, a FIFO or other non-regular
 * file, a read error) or "NAME: larger than MAX bytes (LIMIT)".  On an
 * error out is as it was.  The open never blocks (O_NONBLOCK).
 */
int pv_read_file_spec(const char *path, const struct pv_read_spec *spec,
		      struct strbuf *out, struct pv_err *err);

/* A file of a result tree: no symlinks, missing is 1, the limit is
 * limits.max_file_size (max), errors are input errors. */
int pv_read_file(const char *path, const char *shown, size_t max,
		 struct strbuf *out, struct pv_err *err);

#endif

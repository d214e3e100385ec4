/*
 * atomic.c - reports appear whole or not at all: a temporary file in the
 * target's directory is written, flushed, fsynced and renamed over the
 * target, which rename(2) does atomically on POSIX file systems.
 */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pv_atomic_open(struct pv_atomic *a, const char *path, struct pv_err *err)
{
	struct stat st;
	const char *slash;
	size_t dirlen;
	mode_t mask;
	int fd;

	memset(a, 0, sizeof(*a));
	if (!strcmp(path, "-")) {
		a->fp = stdout;
		return 0;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return pv_error(err, PV_EUSAGE,
				"cannot write report '%s': it is a directory", path);
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	a->path = pv_strdup(path);
	a->tmp = pv_malloc(dirlen + strlen(path + dirlen) + 16);
	memcpy(a->tmp, path, dirlen);
	strcpy(a->tmp + dirlen, ".");
	strcat(a->tmp, path + dirlen);
	strcat(a->tmp, ".XXXXXX");
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		int e = errno;

		free(a->path);
		free(a->tmp);
		a->path = a->tmp = NULL;
		return pv_error(err, PV_EUSAGE, "cannot write report '%s': %s",
				path, strerror(e));
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(a->fp = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		pv_atomic_abort(a);
		return pv_error(err, PV_EUSAGE, "cannot write report '%s': %s",
				path, strerror(e));
	}
	return 0;
}

int pv_atomic_commit(struct pv_atomic *a, struct pv_err *err)
{
	int e = 0;

	if (!a->tmp) {
		if (fflush(a->fp) || ferror(a->fp))
			return pv_error(err, PV_EUSAGE,
					"cannot write to standard output: %s",
					strerror(errno));
		return 0;
	}
	if (fflush(a->fp) || ferror(a->fp) || fsync(fileno(a->fp)))
		e = errno ? errno : EIO;
	if (fclose(a->fp) && !e)
		e = errno;
	a->fp = NULL;
	if (!e && rename(a->tmp, a->path))
		e = errno;
	if (e) {
		char *path = a->path;

		a->path = NULL;
		pv_atomic_abort(a);
		pv_error(err, PV_EUSAGE, "cannot write report '%s': %s", path,
			 strerror(e));
		free(path);
		return -1;
	}
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	return 0;
}

void pv_atomic_abort(struct pv_atomic *a)
{
	if (a->tmp) {
		if (a->fp)
			fclose(a->fp);
		unlink(a->tmp);
	}
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
}

/*
 * atomic.c - reports appear whole or not at all: a temporary file in the
 * target's directory is written, flushed and renamed over the target,
 * which rename(2) does atomically on POSIX file systems.  Targets that
 * must not be replaced (stdout, devices, FIFOs) are buffered in memory
 * and written through at commit; see atomic.h.
 *
 * No fsync(): it guards against power loss, not against readers seeing
 * half a file, and a report is derived data that a job which lost power
 * writes again.  On a 140 MB report it cost 55 ms, a fifth of writing it.
 */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "banned.h"

static int fail(struct pv_err *err, const char *path, int e)
{
	return pv_error(err, PV_EUSAGE, "cannot write report '%s': %s",
			path ? path : "(standard output)", strerror(e));
}

static int open_buffered(struct pv_atomic *a, const char *path,
			 struct pv_err *err)
{
	a->fp = open_memstream(&a->mem, &a->memlen);
	if (!a->fp)
		return fail(err, path, errno);
	a->path = path ? pv_strdup(path) : NULL;
	return 0;
}

int pv_atomic_open(struct pv_atomic *a, const char *path, struct pv_err *err)
{
	struct stat st;
	const char *slash;
	size_t dirlen, size;
	mode_t mask;
	int fd;

	memset(a, 0, sizeof(*a));
	if (!strcmp(path, "-"))
		return open_buffered(a, NULL, err);
	if (!*path)
		return pv_error(err, PV_EUSAGE,
				"cannot write report '': the file name is empty");
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return pv_error(err, PV_EUSAGE,
					"cannot write report '%s': it is a directory",
					path);
		if (!S_ISREG(st.st_mode))
			return open_buffered(a, path, err);
	}
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	a->path = pv_strdup(path);
	size = dirlen + strlen(path + dirlen) + sizeof("..XXXXXX");
	a->tmp = pv_malloc(size);
	snprintf(a->tmp, size, "%.*s.%s.XXXXXX", (int)dirlen, path,
		 path + dirlen);
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		int e = errno;

		free(a->path);
		free(a->tmp);
		a->path = a->tmp = NULL;
		return fail(err, path, e);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(a->fp = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		pv_atomic_abort(a);
		return fail(err, path, e);
	}
	return 0;
}

/* Flush and close a temporary file, or finish a memory buffer. */
static int finish(struct pv_atomic *a, struct pv_err *err)
{
	int e = 0;

	if (a->tmp && (fflush(a->fp) || ferror(a->fp)))
		e = errno ? errno : EIO;
	if (!a->tmp && ferror(a->fp))
		e = EIO;
	if (fclose(a->fp) && !e)
		e = errno ? errno : EIO;
	a->fp = NULL;
	return e ? fail(err, a->path, e) : 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write a memory buffer through to stdout or to a device or FIFO. */
static int write_through(struct pv_atomic *a, struct pv_err *err)
{
	int fd, e, flags;

	if (!a->path) {
		if (fwrite(a->mem, 1, a->memlen, stdout) != a->memlen ||
		    fflush(stdout))
			return fail(err, NULL, errno ? errno : EIO);
		return 0;
	}
	/* O_NONBLOCK: a FIFO nobody reads is an error, not a hang. */
	fd = open(a->path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO)
		return pv_error(err, PV_EUSAGE,
				"cannot write report '%s': it is a FIFO that nobody reads",
				a->path);
	if (fd < 0)
		return fail(err, a->path, errno);
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		e = errno;
		close(fd);
		return fail(err, a->path, e);
	}
	e = write_all(fd, a->mem, a->memlen);
	if (close(fd) && !e && errno != EINTR)
		e = errno;
	return e ? fail(err, a->path, e) : 0;
}

static int used(const struct pv_atomic *a)
{
	return a->fp || a->tmp || a->mem || a->path;
}

int pv_atomic_commit_all(struct pv_atomic *a, size_t n, struct pv_err *err)
{
	int rc = 0;

	/* 1. Everything written and on disk, or nothing changes. */
	for (size_t i = 0; i < n && !rc; i++)
		if (a[i].fp)
			rc = finish(&a[i], err);
	/* 2. Write-through targets (they may fail: a full device, a FIFO
	 * with no reader) before any rename. */
	for (size_t i = 0; i < n && !rc; i++)
		if (used(&a[i]) && !a[i].tmp)
			rc = write_through(&a[i], err);
	/* 3. The renames. */
	for (size_t i = 0; i < n && !rc; i++) {
		if (!a[i].tmp)
			continue;
		if (rename(a[i].tmp, a[i].path))
			rc = fail(err, a[i].path, errno);
		else {
			free(a[i].tmp);
			a[i].tmp = NULL;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (used(&a[i]))
			pv_atomic_abort(&a[i]);
	return rc;
}

void pv_atomic_abort(struct pv_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	free(a->mem);
	memset(a, 0, sizeof(*a));
}

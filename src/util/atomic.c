/*
 * atomic.c - reports appear whole or not at all: a temporary file in the
 * target's directory is written, flushed and renamed over the target,
 * which rename(2) does atomically on POSIX file systems; a set of them is
 * committed all or none (see atomic.h).  Targets that must not be
 * replaced (stdout, devices, FIFOs) are buffered in memory and written
 * through at commit.
 *
 * No fsync(): it guards against power loss, not against readers seeing
 * half a file, and a report is derived data that a job which lost power
 * writes again; so no report waits for the disk.
 */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "banned.h"

/*
 * The files a signal must remove.  A signal handler has no argument to
 * carry them, so this is the one piece of file-level mutable state the
 * library has (tests/check_util.sh knows it): copies of the paths in
 * fixed slots, so that the handler never reads memory that another part
 * of the program frees.  A slot is filled, then marked used; marked
 * unused, then reused.  A path longer than PATH_MAX is not registered
 * (the file is still removed on every other path out).
 */
#define CLEANUP_SLOTS 16
static struct {
	volatile sig_atomic_t used;
	char path[PATH_MAX];
} cleanup[CLEANUP_SLOTS];
static volatile sig_atomic_t cleanup_installed;

static const int cleanup_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
};
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(*cleanup_signals))

void pv_atomic_remove_temps(void)
{
	for (size_t i = 0; i < CLEANUP_SLOTS; i++)
		if (cleanup[i].used)
			unlink(cleanup[i].path);
}

static void cleanup_on_signal(int sig)
{
	int e = errno;

	pv_atomic_remove_temps();
	signal(sig, SIG_DFL);
	raise(sig);
	errno = e;
}

static void install_cleanup(void)
{
	struct sigaction sa, old;

	if (cleanup_installed)
		return;
	cleanup_installed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cleanup_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaddset(&sa.sa_mask, cleanup_signals[i]);
	for (size_t i = 0; i < NSIGNALS; i++) {
		/* A signal the process ignores (nohup, a background job's
		 * SIGINT) stays ignored. */
		if (sigaction(cleanup_signals[i], NULL, &old) ||
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

/* Register path for removal on a signal; returns its slot + 1, or 0. */
static int cleanup_add(const char *path)
{
	size_t len = strlen(path);

	install_cleanup();
	if (len >= PATH_MAX)
		return 0;
	for (int i = 0; i < CLEANUP_SLOTS; i++) {
		if (cleanup[i].used)
			continue;
		memcpy(cleanup[i].path, path, len + 1);
		cleanup[i].used = 1;
		return i + 1;
	}
	return 0;
}

static void cleanup_drop(int *slot)
{
	if (*slot)
		cleanup[*slot - 1].used = 0;
	*slot = 0;
}

/* Hold back the cleanup signals (a signal that arrives meanwhile is
 * handled when they are let through again). */
static void block_signals(sigset_t *saved)
{
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaddset(&block, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &block, saved);
}

int pv_atomic_error(struct pv_err *err, const char *path, int e)
{
	if (!path || !strcmp(path, "-"))
		return pv_error(err, PV_M_CANNOT_WRITE,
				"cannot write to standard output: %s",
				strerror(e ? e : EIO));
	return pv_error(err, PV_M_CANNOT_WRITE, "cannot write report '%s': %s",
			path, strerror(e ? e : EIO));
}

static int open_buffered(struct pv_atomic *a, const char *path,
			 struct pv_err *err)
{
	a->fp = open_memstream(&a->mem, &a->memlen);
	if (!a->fp)
		return pv_atomic_error(err, path, errno);
	a->path = path ? pv_strdup(path) : NULL;
	return 0;
}

/*
 * Open an existing target that must not be replaced (a device, a FIFO,
 * through any links) once, here, for write_through(): 1 when it is one
 * (a->fp a memory buffer then), 0 for a regular file or none (a
 * temporary file and a rename then), -1 on an error.  O_NONBLOCK: a FIFO
 * nobody reads is an error, not a hang.  No O_TRUNC: a regular file
 * opened here is closed unchanged.
 */
static int open_device(struct pv_atomic *a, const char *path,
		       struct pv_err *err)
{
	struct stat st;
	int fd, e, flags;

	fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == EISDIR)
			return pv_error(err, PV_M_CANNOT_WRITE,
					"cannot write report '%s': it is a directory",
					path);
		if (stat(path, &st))
			return 0;       /* none yet (or a dangling link) */
		if (S_ISREG(st.st_mode))
			return 0;       /* read-only: the rename may still work */
		if (e == ENXIO && S_ISFIFO(st.st_mode))
			return pv_error(err, PV_M_CANNOT_WRITE,
					"cannot write report '%s': it is a FIFO that nobody reads",
					path);
		return pv_atomic_error(err, path, e);
	}
	if (fstat(fd, &st) || S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
	    open_buffered(a, path, err)) {
		e = errno;
		close(fd);
		return pv_atomic_error(err, path, e);
	}
	a->fd = fd;
	a->has_fd = 1;
	return 1;
}

int pv_atomic_open(struct pv_atomic *a, const char *path, struct pv_err *err)
{
	const char *slash;
	size_t dirlen, size;
	sigset_t saved;
	mode_t mask;
	int fd, dev;

	memset(a, 0, sizeof(*a));
	if (!strcmp(path, "-"))
		return open_buffered(a, NULL, err);
	if (!*path)
		return pv_error(err, PV_M_CANNOT_WRITE,
				"cannot write report '': the file name is empty");
	dev = open_device(a, path, err);
	if (dev)
		return dev < 0 ? -1 : 0;
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	a->path = pv_strdup(path);
	size = st_add(strlen(path), sizeof("..XXXXXX"));
	a->tmp = pv_malloc(size);
	snprintf(a->tmp, size, "%.*s.%s.XXXXXX", (int)dirlen, path,
		 path + dirlen);
	/* No signal between creating the file and registering it. */
	install_cleanup();
	block_signals(&saved);
	fd = mkstemp(a->tmp);
	if (fd >= 0)
		a->slot = cleanup_add(a->tmp);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (fd < 0) {
		int e = errno;

		free(a->path);
		free(a->tmp);
		a->path = a->tmp = NULL;
		return pv_atomic_error(err, path, e);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(a->fp = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		pv_atomic_abort(a);
		return pv_atomic_error(err, path, e);
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
	return e ? pv_atomic_error(err, a->path, e) : 0;
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
	int fd, e;

	if (!a->path) {
		if (fwrite(a->mem, 1, a->memlen, stdout) != a->memlen ||
		    fflush(stdout))
			return pv_atomic_error(err, NULL, errno ? errno : EIO);
		return 0;
	}
	/* Opened by open_device(): the file that was checked. */
	fd = a->fd;
	a->has_fd = 0;
	e = write_all(fd, a->mem, a->memlen);
	if (close(fd) && !e && errno != EINTR)
		e = errno;
	return e ? pv_atomic_error(err, a->path, e) : 0;
}

static int used(const struct pv_atomic *a)
{
	return a->fp || a->tmp || a->mem || a->path || a->has_fd;
}

/*
 * Keep the target's present content under a second name, so that a
 * later failure can put it back.  No target yet: nothing to keep.  No
 * hard links here (some file systems): nothing kept, and that target
 * cannot be put back (atomic.h).
 */
static void keep_old(struct pv_atomic *a)
{
	size_t size = st_add(strlen(a->tmp), sizeof(".old"));

	a->old = pv_malloc(size);
	snprintf(a->old, size, "%s.old", a->tmp);
	a->old_slot = cleanup_add(a->old);
	if (link(a->path, a->old)) {
		cleanup_drop(&a->old_slot);
		free(a->old);
		a->old = NULL;
	}
}

/* Append to err's message (err may be NULL). */
static void add_note(struct pv_err *err, const char *path, const char *old)
{
	size_t len;

	if (!err)
		return;
	len = strlen(err->msg);
	if (old)
		snprintf(err->msg + len, sizeof(err->msg) - len,
			 "; '%s' is new, its previous content is in '%s'",
			 path, old);
	else
		snprintf(err->msg + len, sizeof(err->msg) - len,
			 "; '%s' is new (no hard links here to keep the previous one)",
			 path);
}

/* Undo a's rename after a later failure; says in err what it could not. */
static void put_back(struct pv_atomic *a, int had_target, struct pv_err *err)
{
	if (a->old) {
		/* On failure the copy stays: the only old report left. */
		if (rename(a->old, a->path))
			add_note(err, a->path, a->old);
		cleanup_drop(&a->old_slot);
		free(a->old);
		a->old = NULL;
	} else if (!had_target) {
		unlink(a->path);
	} else {
		add_note(err, a->path, NULL);
	}
}

static void put_back_all(struct pv_atomic *a, size_t n,
			 const unsigned char *had, struct pv_err *err)
{
	for (size_t i = n; i-- > 0;)
		if (a[i].replaced)
			put_back(&a[i], had[i], err);
}

int pv_atomic_commit_all(struct pv_atomic *a, size_t n, struct pv_err *err)
{
	unsigned char *had = pv_calloc(n ? n : 1, 1);
	sigset_t saved;
	int rc = 0;

	/* 1. Everything written and on disk, or nothing changes. */
	for (size_t i = 0; i < n && !rc; i++)
		if (a[i].fp)
			rc = finish(&a[i], err);
	/*
	 * 2. The renames, each target kept first.  No signal between the
	 * first rename and the last: its handler removes the kept copies,
	 * which would leave the targets renamed so far new, the others
	 * old, and the previous content of the first ones lost.  Held back
	 * until here, it finds every target new (and a failed rename put
	 * back), removes the kept copies of the old ones and ends the
	 * process: the set is all new or all old, never mixed.  Renames
	 * do not block for long, so a signal waits milliseconds at most.
	 */
	block_signals(&saved);
	for (size_t i = 0; i < n && !rc; i++) {
		struct stat st;

		if (!a[i].tmp)
			continue;
		had[i] = !lstat(a[i].path, &st);
		if (had[i])
			keep_old(&a[i]);
		if (rename(a[i].tmp, a[i].path)) {
			rc = pv_atomic_error(err, a[i].path, errno);
			break;
		}
		a[i].replaced = 1;
		cleanup_drop(&a[i].slot);
		free(a[i].tmp);
		a[i].tmp = NULL;
	}
	/* A failed rename: put back what was renamed, last first. */
	if (rc)
		put_back_all(a, n, had, err);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	/* 3. Write-through targets, once no rename can fail.  Not with the
	 * signals held: a pipe's reader may keep the write waiting.  A
	 * signal here finds the renamed targets all new. */
	for (size_t i = 0; i < n && !rc; i++)
		if (used(&a[i]) && !a[i].tmp && !a[i].replaced)
			if ((rc = write_through(&a[i], err))) {
				block_signals(&saved);
				put_back_all(a, n, had, err);
				sigprocmask(SIG_SETMASK, &saved, NULL);
			}
	/* 4. The kept copies go; every entry is released. */
	for (size_t i = 0; i < n; i++) {
		if (a[i].old) {
			unlink(a[i].old);
			cleanup_drop(&a[i].old_slot);
			free(a[i].old);
			a[i].old = NULL;
		}
		if (used(&a[i]))
			pv_atomic_abort(&a[i]);
	}
	free(had);
	return rc;
}

void pv_atomic_abort(struct pv_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->has_fd)
		close(a->fd);
	if (a->tmp)
		unlink(a->tmp);
	cleanup_drop(&a->slot);
	if (a->old) {
		unlink(a->old);
		cleanup_drop(&a->old_slot);
	}
	free(a->tmp);
	free(a->old);
	free(a->path);
	free(a->mem);
	memset(a, 0, sizeof(*a));
}

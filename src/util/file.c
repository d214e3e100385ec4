/* file.c - see file.h. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int too_big(const char *shown, size_t max, struct pv_err *err)
{
	return pv_error(err, PV_EINPUT,
			"%s: larger than %zu bytes (limits.max_file_size)",
			shown, max);
}

int pv_read_file(const char *path, const char *shown, size_t max,
		 struct strbuf *out, struct pv_err *err)
{
	struct stat st;
	char buf[65536];
	ssize_t r;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 1;
		return pv_error(err, PV_EINPUT, "cannot read '%s': %s", shown,
				errno == ELOOP ? "a symbolic link, not a regular file" :
				strerror(errno));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pv_error(err, PV_EINPUT,
				"cannot read '%s': not a regular file", shown);
	}
	if ((size_t)st.st_size > max) {
		close(fd);
		return too_big(shown, max, err);
	}
	strbuf_grow(out, (size_t)st.st_size);
	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return pv_error(err, PV_EINPUT, "cannot read '%s': %s",
					shown, strerror(errno));
		}
		if (out->len + (size_t)r > max) {
			close(fd);
			return too_big(shown, max, err);
		}
		strbuf_add(out, buf, (size_t)r);
	}
	close(fd);
	return 0;
}

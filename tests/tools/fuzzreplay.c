/*
 * fuzzreplay.c - run fuzz targets (tests/fuzz/targets.h) on files, with
 * the project's own compiler and sanitizers, so that every crash the
 * fuzzers found stays fixed: tests/bad/run.sh replays
 * tests/fuzz/regress/TARGET/ through it in `make check`.
 *
 *   fuzzreplay TARGET FILE|DIR...
 *
 * Exit status 0 when every input ran (a crash aborts), 2 on bad usage.
 */
#include "../fuzz/targets.h"

#include <dirent.h>
#include <sys/stat.h>

static int replay(const char *target, const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, alloc = 0, n;

	if (!fp) {
		perror(path);
		return -1;
	}
	do {
		if (len == alloc) {
			alloc = alloc ? 2 * alloc : 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, alloc - len, fp);
		len += n;
	} while (n);
	fclose(fp);
	if (pv_fuzz_run(target, buf, len)) {
		fprintf(stderr, "fuzzreplay: unknown target '%s'\n", target);
		free(buf);
		return -2;
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	size_t inputs = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: fuzzreplay TARGET FILE|DIR...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		struct stat st;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *de;

			while (d && (de = readdir(d))) {
				char path[4096];

				if (de->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path), "%s/%s", argv[i],
					 de->d_name);
				if (replay(argv[1], path) == -2)
					return 2;
				inputs++;
			}
			if (d)
				closedir(d);
		} else {
			int rc = replay(argv[1], argv[i]);

			if (rc == -2)
				return 2;
			if (rc)
				return 1;
			inputs++;
		}
	}
	printf("fuzzreplay: %s: %zu inputs\n", argv[1], inputs);
	return 0;
}

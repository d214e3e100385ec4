/*
 * floor.c - the speed floor of `make bench`: read every file of the
 * trees and strtod every number in them, nothing else.  perfverdict's
 * times are reported as multiples of this.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static double total;
static long count;

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* strtod every number; digits that continue a name ("bench00042") are
 * the name's, not a number. */
static void scan_buf(char *p, char *end)
{
	char *start = p;

	while (p < end) {
		char *q;
		double v;

		if (!((*p >= '0' && *p <= '9') || *p == '-' || *p == '.')) {
			p++;
			continue;
		}
		if (p > start && name_char(p[-1])) {
			do
				p++;
			while (p < end && ((*p >= '0' && *p <= '9') ||
					   name_char(*p)));
			continue;
		}
		v = strtod(p, &q);
		if (q == p) {
			p++;
			continue;
		}
		total += v;
		count++;
		p = q;
	}
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(path);
		} else if (S_ISREG(st.st_mode) && (strstr(de->d_name, ".RHS") ||
						 strstr(de->d_name, ".csv"))) {
			FILE *fp = fopen(path, "rb");
			char *buf = malloc((size_t)st.st_size + 1);

			if (fp && buf && fread(buf, 1, (size_t)st.st_size, fp) ==
			    (size_t)st.st_size) {
				buf[st.st_size] = '\0';
				scan_buf(buf, buf + st.st_size);
			}
			if (fp)
				fclose(fp);
			free(buf);
		}
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		walk(argv[i]);
	printf("%ld numbers, sum %g\n", count, total);
	return 0;
}

/*
 * shuffle_readdir.c - an LD_PRELOAD shim for tests/determinism.sh: every
 * directory is read whole on the first readdir() and its entries handed
 * out in another order, so the test can show that perfverdict's output
 * does not depend on the order the file system happens to use (on ext4
 * that order is a hash, the same whatever order files were created in).
 *
 *   PV_SHUFFLE_SEED  0 reverses each directory; any other value shuffles
 *                    it with that seed (xorshift64, Fisher-Yates)
 *   PV_SHUFFLE_LOG   a file that gets one line per directory shuffled,
 *                    so the test knows the shim was really in use
 *
 * Built by the test: cc -shared -fPIC -o shuffle.so shuffle_readdir.c -ldl
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dir_state {
	DIR *dir;
	struct dirent **e;
	size_t n, next;
	struct dir_state *link;
};

static struct dir_state *open_dirs;

static struct dirent *(*next_readdir)(DIR *);
static int (*next_closedir)(DIR *);

static void resolve(void)
{
	if (!next_readdir) {
		next_readdir = (struct dirent *(*)(DIR *))dlsym(RTLD_NEXT, "readdir");
		next_closedir = (int (*)(DIR *))dlsym(RTLD_NEXT, "closedir");
	}
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static struct dir_state *load(DIR *d)
{
	struct dir_state *st = calloc(1, sizeof(*st));
	const char *seed_env = getenv("PV_SHUFFLE_SEED");
	const char *log = getenv("PV_SHUFFLE_LOG");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 10) : 0;
	size_t alloc = 0;
	struct dirent *de;

	if (!st)
		abort();
	st->dir = d;
	while ((de = next_readdir(d))) {
		if (st->n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			st->e = realloc(st->e, alloc * sizeof(*st->e));
			if (!st->e)
				abort();
		}
		/* A record may be shorter than struct dirent. */
		st->e[st->n] = calloc(1, sizeof(*de));
		if (!st->e[st->n])
			abort();
		memcpy(st->e[st->n++], de,
		       offsetof(struct dirent, d_name) + strlen(de->d_name) + 1);
	}
	if (!seed) {
		for (size_t i = 0; i < st->n / 2; i++) {
			struct dirent *t = st->e[i];

			st->e[i] = st->e[st->n - 1 - i];
			st->e[st->n - 1 - i] = t;
		}
	} else {
		for (size_t i = st->n; i > 1; i--) {
			size_t j = (size_t)(xorshift(&seed) % i);
			struct dirent *t = st->e[i - 1];

			st->e[i - 1] = st->e[j];
			st->e[j] = t;
		}
	}
	if (log) {
		FILE *fp = fopen(log, "a");

		if (fp) {
			fprintf(fp, "shuffled %zu entries\n", st->n);
			fclose(fp);
		}
	}
	st->link = open_dirs;
	open_dirs = st;
	return st;
}

struct dirent *readdir(DIR *d)
{
	struct dir_state *st;

	resolve();
	for (st = open_dirs; st && st->dir != d; st = st->link)
		;
	if (!st)
		st = load(d);
	return st->next < st->n ? st->e[st->next++] : NULL;
}

int closedir(DIR *d)
{
	struct dir_state **pp = &open_dirs;

	resolve();
	while (*pp && (*pp)->dir != d)
		pp = &(*pp)->link;
	if (*pp) {
		struct dir_state *st = *pp;

		*pp = st->link;
		for (size_t i = 0; i < st->n; i++)
			free(st->e[i]);
		free(st->e);
		free(st);
	}
	return next_closedir(d);
}

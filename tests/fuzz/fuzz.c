/*
 * fuzz.c - the libFuzzer entry point.  `make fuzz` links it once, as
 * build/fuzz/fuzz, and makes build/fuzz/fuzz-TARGET links to it: the
 * name the binary runs under ("fuzz-rhs", ...) picks the target of
 * targets.h, so one link serves all of them.
 */
#include "targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *target;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *name = *argc > 0 ? (*argv)[0] : "";
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	if (strncmp(base, "fuzz-", 5) || !base[5]) {
		fprintf(stderr, "fuzz: run me as fuzz-TARGET (a link to %s), "
			"not as '%s'\n", name, base);
		exit(2);
	}
	target = base + 5;
	if (pv_fuzz_run(target, (const uint8_t *)"", 0)) {
		fprintf(stderr, "fuzz: no target '%s' in tests/fuzz/targets.h\n",
			target);
		exit(2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (pv_fuzz_run(target, data, size))
		abort();        /* cannot happen: Initialize checked the name */
	return 0;
}

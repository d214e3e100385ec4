/*
 * fuzz.c - the libFuzzer entry point; `make fuzz` builds it once per
 * target with -DPV_FUZZ_TARGET='"rhs"' and so on (see targets.h).
 */
#include "targets.h"

#ifndef PV_FUZZ_TARGET
#error "build with -DPV_FUZZ_TARGET='\"rhs\"' (see tests/fuzz/targets.h)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (pv_fuzz_run(PV_FUZZ_TARGET, data, size))
		abort();        /* an unknown target: a build mistake */
	return 0;
}

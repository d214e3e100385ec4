/*
 * dtoa_bench.c - nanoseconds per double for the JSON writer's number
 * printing: glibc's "%.17g" (what pv_json_number fell back to for
 * computed values) against pv_format_double.  `make bench` runs it
 * first; a benchmark, not a test.
 *
 *   dtoa_bench [COUNT]     (1000000 by default)
 *
 * Inputs are "computed" doubles, as means and ratios are: a random
 * 53-bit fraction scaled by 10^-6..10^9, so nearly all need 15 to 17
 * digits; and "decimal" ones, m / 10^j with m of up to 8 digits, as
 * samples read from text are.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/dtoa.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The checksum keeps the compiler from dropping the work. */
static size_t sink;

static double run_printf(const double *v, size_t n)
{
	char buf[40];
	double t = now();

	for (size_t i = 0; i < n; i++)
		sink += (size_t)snprintf(buf, sizeof(buf), "%.17g", v[i]);
	return (now() - t) / (double)n * 1e9;
}

static double run_dtoa(const double *v, size_t n)
{
	char buf[PV_DTOA_BUFSIZE];
	double t = now();

	for (size_t i = 0; i < n; i++)
		sink += pv_format_double(v[i], buf);
	return (now() - t) / (double)n * 1e9;
}

int main(int argc, char **argv)
{
	static const double p10[] = {
		1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3,
		1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	};
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	double *comp = malloc(n * sizeof(*comp));
	double *dec = malloc(n * sizeof(*dec));

	if (!n || !comp || !dec)
		return 2;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next();

		comp[i] = (double)(r >> 11) / 9007199254740992.0 * p10[r & 15];
		dec[i] = (double)(r >> 20 & 0xffffff) / p10[6 + (r >> 4 & 3)];
	}
	run_dtoa(comp, n);        /* warm-up: table and caches */
	printf("dtoa_bench: %zu doubles, ns per double (best of 3)\n", n);
	printf("%-10s %12s %18s %8s\n", "inputs", "%.17g", "pv_format_double",
	       "speedup");
	for (int k = 0; k < 2; k++) {
		const double *v = k ? dec : comp;
		double a = 1e300, b = 1e300;

		for (int rep = 0; rep < 3; rep++) {
			double x = run_printf(v, n), y = run_dtoa(v, n);

			a = x < a ? x : a;
			b = y < b ? y : b;
		}
		printf("%-10s %12.1f %18.1f %7.1fx\n", k ? "decimal" : "computed",
		       a, b, a / b);
	}
	free(comp);
	free(dec);
	return sink == 0;
}

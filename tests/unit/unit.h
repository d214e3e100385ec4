/* unit.h - what every cmocka test includes first. */
#ifndef PV_UNIT_H
#define PV_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

/* |a - b| <= eps, printing both values: cmocka 1.1 (Debian 12) has no
 * assert_double_equal. */
#define assert_near(a, b, eps) check_near((a), (b), (eps), __FILE__, __LINE__)

static inline void check_near(double a, double b, double eps,
			      const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%.17g != %.17g (tolerance %g)\n", a, b, eps);
		_fail(file, line);
	}
}

/* Marsaglia's xorshift64: seeded, reproducible test inputs. */
static inline uint64_t xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#endif

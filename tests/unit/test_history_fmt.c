/* test_history_fmt.c - how the history writers state a change
 * (writers/history_md.c): readable at any magnitude, and from 0 in the
 * metric's unit. */
#include "unit.h"
#include <string.h>
#include "writers/history_writers.h"

static void expect_rel(double rel, int unsigned_, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	pv_hist_rel(&sb, rel, unsigned_);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_rel(void **state)
{
	(void)state;
	expect_rel(0.082, 0, "+8.2%");
	expect_rel(-0.45, 0, "-45.0%");
	expect_rel(2.5, 0, "+250%");
	expect_rel(8.99, 0, "+899%");
	expect_rel(9.0, 0, "\xc3\x97" "10");              /* x10 */
	expect_rel(706.0, 0, "\xc3\x97" "707");
	expect_rel(645709388334.31, 0, "\xc3\x97" "6.46e+11");
	expect_rel(-0.998, 0, "\xc3\xb7" "500");           /* ÷500 */
	expect_rel(-0.5, 1, "50.0%");
	expect_rel(-1.0, 0, "-100%");
	expect_rel(NAN, 0, "n/a");
}

static void test_change_from_zero(void **state)
{
	struct pv_hist_metric m;
	struct pv_hist_cp c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&c, 0, sizeof(c));
	m.unit = "B/op";
	c.before = 0;
	c.after = 64;
	c.rel = NAN;            /* no relative change from 0 */
	pv_hist_change(&sb, &m, &c, 0, pv_hist_put_plain);
	assert_string_equal(sb.buf, "+64.00 B/op");
	strbuf_reset(&sb);
	pv_hist_change(&sb, &m, &c, 1, pv_hist_put_plain);
	assert_string_equal(sb.buf, "64.00 B/op");
	strbuf_reset(&sb);
	m.unit = "ns";
	c.before = 0;
	c.after = 1.5e6;
	pv_hist_change(&sb, &m, &c, 0, pv_hist_put_plain);
	assert_string_equal(sb.buf, "+1.500 ms");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rel),
		cmocka_unit_test(test_change_from_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

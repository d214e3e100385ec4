/*
 * test_policy.c - policy.c, the one place a config's [metric] and
 * [waiver] sections are read (issue 20): the order a rule's fields come
 * from, the floor a change must reach, waivers that hold and that have
 * expired (each expired one warned about once, in one wording), the
 * severity order and what fails the gate.  tests/check_policy.sh shows
 * compare, merge and history agreeing on the same config.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "policy.h"
#include "report.h"

/* The config, written to a temporary file and loaded as the tool
 * would. */
static void load(struct pv_config *c, const char *text)
{
	char path[] = "/tmp/pv-policy-XXXXXX";
	struct pv_err err = { 0 };
	int fd = mkstemp(path);
	FILE *fp;

	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	if (pv_config_load(c, path, &err))
		fail_msg("%s", err.msg);
	unlink(path);
}

static const char conf[] =
	"[gate]\nthreshold = 5%\nalpha = 0.05\n"
	"[metric \"thr*\"]\ndirection = higher\nthreshold = 2%\n"
	"[metric \"net/*/thr_cpu\"]\ndirection = lower\nalpha = 0.001\n"
	"[metric \"lat\"]\nabs_threshold = 3\n"
	"[metric \"noise*\"]\ndirection = higher\nignore = true\n"
	"[metric \"noise_kept\"]\nignore = false\n"
	"[waiver \"lat\"]\nuntil = 2026-06-30\nreason = known\n"
	"[waiver \"net/*\"]\nuntil = 2025-01-31\nreason = old\n";

/* Each field from the last matching rule that sets it, else the hint,
 * else [gate], else the guess. */
static void rule_fields_and_their_order(void **state)
{
	struct pv_config c;
	struct pv_metric_policy p;

	(void)state;
	load(&c, conf);
	/* thr* and net/... both match thr_cpu by its full name. */
	pv_policy_of(&c, &c.gate, "net", "tcp", "thr_cpu", "%", PV_DIR_HIGHER,
		     &p);
	assert_int_equal(p.direction, PV_DIR_LOWER);
	assert_false(p.dir_assumed);
	assert_near(p.threshold, 0.02, 0);
	assert_near(p.alpha, 0.001, 0);
	assert_true(isnan(p.abs_threshold));
	assert_true(p.gated && !p.ignored);
	/* No rule: the reader's hint beats [gate] and the guess. */
	pv_policy_of(&c, &c.gate, "g", "b", "elapsed", "s", PV_DIR_HIGHER, &p);
	assert_int_equal(p.direction, PV_DIR_HIGHER);
	assert_false(p.dir_assumed);
	assert_near(p.threshold, 0.05, 0);
	assert_near(p.alpha, 0.05, 0);
	/* No rule, no hint, no [gate] direction: guessed from the unit. */
	pv_policy_of(&c, &c.gate, "g", "b", "elapsed", "s", PV_DIR_UNSET, &p);
	assert_int_equal(p.direction, PV_DIR_LOWER);
	assert_true(p.dir_assumed);
	/* Nothing suggests one: lower, still assumed. */
	pv_policy_of(&c, &c.gate, "g", "b", "widgets", "", PV_DIR_UNSET, &p);
	assert_int_equal(p.direction, PV_DIR_LOWER);
	assert_true(p.dir_assumed);
	/* [gate] direction beats the guess. */
	c.gate.direction = PV_DIR_HIGHER;
	pv_policy_of(&c, &c.gate, "g", "b", "elapsed", "s", PV_DIR_UNSET, &p);
	assert_int_equal(p.direction, PV_DIR_HIGHER);
	assert_false(p.dir_assumed);
	/* abs_threshold from its rule, the rest from [gate]. */
	pv_policy_of(&c, &c.gate, "g", "b", "lat", "ms", PV_DIR_UNSET, &p);
	assert_near(p.abs_threshold, 3, 0);
	assert_near(p.threshold, 0.05, 0);
	/* ignore: direction none whatever the rule and hint say, ungated;
	 * a later rule's ignore = false undoes it. */
	pv_policy_of(&c, &c.gate, "g", "b", "noise_a", "ms", PV_DIR_LOWER, &p);
	assert_true(p.ignored);
	assert_int_equal(p.direction, PV_DIR_NONE);
	assert_false(p.gated || p.dir_assumed);
	pv_policy_of(&c, &c.gate, "g", "b", "noise_kept", "ms", PV_DIR_UNSET,
		     &p);
	assert_false(p.ignored);
	assert_int_equal(p.direction, PV_DIR_HIGHER);
	pv_config_release(&c);
}

/* The result's fields are the same resolution (model.c and merge). */
static void result_gets_the_same_rule(void **state)
{
	struct pv_config c;
	struct pv_metric_policy p;
	struct pv_result res;

	(void)state;
	load(&c, conf);
	memset(&res, 0, sizeof(res));
	res.group = "net";
	res.benchmark = "tcp";
	res.metric = "thr_cpu";
	res.unit = "%";
	pv_policy_result(&c, &c.gate, PV_DIR_UNSET, &res);
	pv_policy_of(&c, &c.gate, "net", "tcp", "thr_cpu", "%", PV_DIR_UNSET,
		     &p);
	assert_int_equal(res.direction, p.direction);
	assert_int_equal(res.gated, p.gated);
	assert_int_equal(res.ignored, p.ignored);
	assert_int_equal(res.dir_assumed, p.dir_assumed);
	assert_true(res.threshold == p.threshold && res.alpha == p.alpha);
	assert_true(isnan(res.abs_threshold) && isnan(p.abs_threshold));
	pv_config_release(&c);
}

static void floor_of_a_change(void **state)
{
	(void)state;
	/* Which way is worse. */
	assert_int_equal(pv_policy_move(PV_DIR_LOWER, 2), 1);
	assert_int_equal(pv_policy_move(PV_DIR_LOWER, -2), -1);
	assert_int_equal(pv_policy_move(PV_DIR_HIGHER, 2), -1);
	assert_int_equal(pv_policy_move(PV_DIR_HIGHER, -2), 1);
	assert_int_equal(pv_policy_move(PV_DIR_NONE, 2), 1);
	assert_int_equal(pv_policy_move(PV_DIR_HIGHER, 0), 0);
	assert_int_equal(pv_policy_move(PV_DIR_LOWER, NAN), 0);
	/* |rel| >= threshold, and > 0. */
	assert_true(pv_policy_beyond(0.05, NAN, 100, 5, 0.05));
	assert_false(pv_policy_beyond(0.05, NAN, 100, 4.9, 0.049));
	assert_true(pv_policy_beyond(0.05, NAN, 100, -6, -0.06));
	assert_false(pv_policy_beyond(0, NAN, 100, 0, 0));
	assert_true(pv_policy_beyond(0, NAN, 100, 1e-9, 1e-11));
	/* abs_threshold as well, in the unit. */
	assert_false(pv_policy_beyond(0.05, 20, 100, 10, 0.10));
	assert_true(pv_policy_beyond(0.05, 10, 100, -10, -0.10));
	/* From a zero base any change is beyond every relative threshold;
	 * abs_threshold still holds. */
	assert_true(pv_policy_beyond(0.5, NAN, 0, 1e-6, NAN));
	assert_false(pv_policy_beyond(0.5, NAN, 0, 0, NAN));
	assert_false(pv_policy_beyond(0.5, 1, 0, 0.5, NAN));
}

static void waivers_hold_or_expire(void **state)
{
	struct pv_config c;
	struct pv_diag d = PV_DIAG_INIT;
	const struct pv_waiver *w;

	(void)state;
	load(&c, conf);
	/* Holds through its until date, inclusive. */
	w = pv_policy_waiver(&c, "2026-06-30", "g", "b", "lat", &d);
	assert_non_null(w);
	assert_string_equal(w->reason, "known");
	assert_int_equal(d.n, 0);
	/* Expired: none holds, and one warning naming file:line. */
	w = pv_policy_waiver(&c, "2026-07-01", "g", "b", "lat", &d);
	assert_null(w);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.code[0], "waiver-expired");
	assert_non_null(strstr(d.msg[0], ": waiver \"lat\" expired on 2026-06-30; g/b/lat counts as a regression"));
	assert_non_null(strstr(d.msg[0], c.path));
	/* No diag: no warning (history, where it does not matter). */
	assert_null(pv_policy_waiver(&c, "2026-07-01", "g", "b", "lat", NULL));
	/* Matched by the full name; no date: none holds, no warning. */
	assert_null(pv_policy_waiver(&c, NULL, "net", "tcp", "x", &d));
	assert_int_equal(d.n, 1);
	assert_null(pv_policy_waiver(&c, "2026-01-01", "other", "b", "zzz", &d));
	assert_int_equal(d.n, 1);
	/* One a merged report carried (line 0) says so. */
	c.waivers[1].line = 0;
	assert_null(pv_policy_waiver(&c, "2026-01-01", "net", "tcp", "x", &d));
	assert_int_equal(d.n, 2);
	assert_string_equal(d.msg[1], "waiver \"net/*\" (from the reports) expired on 2025-01-31; net/tcp/x counts as a regression");
	pv_diag_release(&d);
	pv_config_release(&c);
}

static void severity_and_the_gate(void **state)
{
	struct pv_gate g;
	static const enum pv_verdict order[] = {
		PV_V_REGRESSION, PV_V_MISSING, PV_V_INCONCLUSIVE, PV_V_NOISY,
		PV_V_INSUFFICIENT, PV_V_WAIVED, PV_V_IMPROVEMENT, PV_V_NEW,
		PV_V_UNGATED, PV_V_UNCHANGED,
	};

	(void)state;
	for (size_t i = 1; i < sizeof(order) / sizeof(*order); i++)
		assert_true(pv_verdict_severity(order[i - 1]) <
			    pv_verdict_severity(order[i]));
	memset(&g, 0, sizeof(g));
	g.missing = PV_POLICY_WARN;
	g.inconclusive = PV_POLICY_WARN;
	g.insufficient = PV_POLICY_WARN;
	for (int v = 0; v < PV_V_COUNT; v++)
		assert_int_equal(pv_policy_fails(&g, (enum pv_verdict)v),
				 v == PV_V_REGRESSION);
	g.missing = g.inconclusive = g.insufficient = PV_POLICY_FAIL;
	for (int v = 0; v < PV_V_COUNT; v++)
		assert_int_equal(pv_policy_fails(&g, (enum pv_verdict)v),
				 v == PV_V_REGRESSION || v == PV_V_MISSING ||
				 v == PV_V_INCONCLUSIVE ||
				 v == PV_V_INSUFFICIENT);
	assert_false(pv_policy_fails(&g, PV_V_WAIVED));
}

/* One wording, naming the first metrics. */
static void no_direction_note(void **state)
{
	struct pv_diag d = PV_DIAG_INIT;
	struct pv_names nm = PV_NAMES_INIT(3);

	(void)state;
	pv_policy_note_assumed(&d, 0, "");
	assert_int_equal(d.n, 0);
	pv_names_add(&nm, "g", "b", "a");
	pv_names_add(&nm, "", "b", "c");
	pv_names_add(&nm, "", "", "d");
	pv_names_add(&nm, "g", "b", "e");
	pv_names_add(&nm, "g", "b", "f");
	pv_policy_note_assumed(&d, nm.n, pv_names_end(&nm));
	strbuf_release(&nm.sb);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.code[0], "no-direction");
	assert_string_equal(d.msg[0], "5 metrics had no configured direction (g/b/a, b/c, d and 2 more); it was inferred from the name and unit; set direction in [gate] or [metric \"GLOB\"]");
	pv_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_fields_and_their_order),
		cmocka_unit_test(result_gets_the_same_rule),
		cmocka_unit_test(floor_of_a_change),
		cmocka_unit_test(waivers_hold_or_expire),
		cmocka_unit_test(severity_and_the_gate),
		cmocka_unit_test(no_direction_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

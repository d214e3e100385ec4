/* test_msg.c - the table of messages (src/util/msg.c): every entry has
 * a code of its own, a level and a text, and an error's level sets its
 * exit status. */
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include "util/diag.h"
#include "util/err.h"
#include "util/msg.h"

/* Lowercase kebab-case: [a-z0-9]+(-[a-z0-9]+)*. */
static int kebab(const char *s)
{
	if (!*s || *s == '-')
		return 0;
	for (; *s; s++) {
		if (*s == '-' && (s[1] == '-' || !s[1]))
			return 0;
		if (*s != '-' && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= '0' && *s <= '9'))
			return 0;
	}
	return 1;
}

static void every_entry(void **state)
{
	const struct pv_msg_info *none = pv_msg_info(PV_M_NONE);

	(void)state;
	for (int i = 1; i < PV_M_MAX; i++) {
		const struct pv_msg_info *m = pv_msg_info((enum pv_msg)i);

		/* An id without an entry falls back on PV_M_NONE. */
		if (m == none)
			fail_msg("message %d has no entry in the table", i);
		assert_non_null(m->code);
		if (!kebab(m->code))
			fail_msg("code '%s' is not lowercase kebab-case", m->code);
		assert_non_null(m->text);
		assert_true(strlen(m->text) > 0);
		assert_true(m->level >= PV_LEVEL_NOTE &&
			    m->level <= PV_LEVEL_FATAL);
		for (int j = 1; j < i; j++)
			if (!strcmp(m->code, pv_msg_code((enum pv_msg)j)))
				fail_msg("code '%s' is used by messages %d and %d",
					 m->code, j, i);
	}
	assert_ptr_equal(pv_msg_info(PV_M_MAX), none);
	assert_ptr_equal(pv_msg_info((enum pv_msg)-1), none);
}

/* The levels map to the exit statuses of perfverdict.1. */
static void levels(void **state)
{
	(void)state;
	assert_int_equal(pv_level_status(PV_LEVEL_NOTE), PV_OK);
	assert_int_equal(pv_level_status(PV_LEVEL_WARNING), PV_OK);
	assert_int_equal(pv_level_status(PV_LEVEL_USAGE), PV_EUSAGE);
	assert_int_equal(pv_level_status(PV_LEVEL_INPUT), PV_EINPUT);
	assert_int_equal(pv_level_status(PV_LEVEL_FATAL), PV_ENOMEM);
	assert_string_equal(pv_level_name(PV_LEVEL_NOTE), "note");
	assert_string_equal(pv_level_name(PV_LEVEL_WARNING), "warning");
	assert_string_equal(pv_level_name(PV_LEVEL_USAGE), "usage");
	assert_string_equal(pv_level_name(PV_LEVEL_INPUT), "input");
	assert_string_equal(pv_level_name(PV_LEVEL_FATAL), "fatal");
	assert_int_equal(pv_msg_level(PV_M_NO_DIRECTION), PV_LEVEL_WARNING);
	assert_int_equal(pv_msg_level(PV_M_UNKNOWN_KEY), PV_LEVEL_USAGE);
	assert_int_equal(pv_msg_level(PV_M_BAD_NUMBER), PV_LEVEL_INPUT);
	assert_int_equal(pv_msg_level(PV_M_OUT_OF_MEMORY), PV_LEVEL_FATAL);
	assert_int_equal(pv_msg_level(PV_M_POOLED_BASELINE), PV_LEVEL_NOTE);
	/* In a run's warning list: a note's code is a note; an error
	 * demoted to a warning (missing = warn) and an unknown code are
	 * warnings. */
	assert_int_equal(pv_msg_by_code("pooled-baseline"), PV_M_POOLED_BASELINE);
	assert_int_equal(pv_msg_by_code("no-such-code"), PV_M_NONE);
	assert_int_equal(pv_msg_listed_level("pooled-baseline"), PV_LEVEL_NOTE);
	assert_int_equal(pv_msg_listed_level("no-direction"), PV_LEVEL_WARNING);
	assert_int_equal(pv_msg_listed_level("no-results"), PV_LEVEL_WARNING);
	assert_int_equal(pv_msg_listed_level("no-such-code"), PV_LEVEL_WARNING);
	assert_int_equal(pv_msg_listed_level(NULL), PV_LEVEL_WARNING);
}

/* pv_error() takes the status from the message's level and keeps the
 * id; the wording is the caller's. */
static void errors_carry_their_id(void **state)
{
	struct pv_err err = { 0 };

	(void)state;
	assert_int_equal(pv_error(&err, PV_M_DUPLICATE_KEY, "duplicate key '%s'", "x"), -1);
	assert_int_equal(err.id, PV_M_DUPLICATE_KEY);
	assert_int_equal(err.status, PV_EUSAGE);
	assert_string_equal(err.msg, "duplicate key 'x'");
	assert_int_equal(pv_error_at(&err, PV_M_BAD_NUMBER, "r.csv", 3, "no"), -1);
	assert_int_equal(err.id, PV_M_BAD_NUMBER);
	assert_int_equal(err.status, PV_EINPUT);
	assert_string_equal(err.msg, "r.csv:3: no");
	/* A warning's code used as an error (a file without results when
	 * empty_files is not warn) is an input error. */
	pv_error(&err, PV_M_PARTLY_EMPTY, "x");
	assert_int_equal(err.status, PV_EINPUT);
	assert_int_equal(pv_error(NULL, PV_M_BAD_NUMBER, "x"), -1);
}

/* A warning keeps its code for the JSON report. */
static void warnings_carry_their_code(void **state)
{
	struct pv_diag d = PV_DIAG_INIT;

	(void)state;
	pv_diag_add(&d, PV_M_WAIVER_EXPIRED, "waiver \"%s\" expired", "w");
	pv_diag_add_subj(&d, PV_M_NO_ROWS, "f.RHS", "f.RHS:3: no rows");
	assert_int_equal(d.n, 2);
	assert_string_equal(d.code[0], "waiver-expired");
	assert_string_equal(d.msg[0], "waiver \"w\" expired");
	assert_string_equal(d.code[1], "no-rows");
	pv_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_entry),
		cmocka_unit_test(levels),
		cmocka_unit_test(errors_carry_their_id),
		cmocka_unit_test(warnings_carry_their_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

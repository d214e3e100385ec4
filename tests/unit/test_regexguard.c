/* test_regexguard.c - the regex guard refuses what glibc handles badly. */
#include "unit.h"

#include <string.h>
#include "regexguard.h"

static void check(const char *pattern, const char *why)
{
	regex_t re;
	char msg[256] = "";
	int rc = pv_regex_compile(&re, pattern, REG_EXTENDED | REG_NOSUB, msg,
				  sizeof(msg));

	if (!why) {
		if (rc)
			print_error("'%s' refused: %s\n", pattern, msg);
		assert_int_equal(rc, 0);
		regfree(&re);
		return;
	}
	if (!rc) {
		print_error("'%s' accepted\n", pattern);
		regfree(&re);
	}
	assert_int_equal(rc, -1);
	if (!strstr(msg, why))
		print_error("'%s': '%s' lacks '%s'\n", pattern, msg, why);
	assert_non_null(strstr(msg, why));
}

static void accepted(void **state)
{
	(void)state;
	check("\\.RHS$", NULL);
	check("repeat[0-9]+", NULL);
	check("(a|b){3}[+*?]x", NULL);   /* repetitions in brackets are chars */
	check("a{999}", NULL);           /* 1000 elements: at the limit */
	check("[[:digit:]]+/result\\.json", NULL);
}

static void refused(void **state)
{
	(void)state;
	check("(a)\\1", "back-references");
	check("c++", "a repetition (+, *, ? or {m,n}) follows another");
	check("a{2}?", "follows another");
	check("(a{99}){99}", "too complex: it expands to more than 1000 elements");
	check("a{1000}", "too complex");
	check("(((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))",
	      "too complex");
	check("a(", "");                 /* regcomp's own error */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepted),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

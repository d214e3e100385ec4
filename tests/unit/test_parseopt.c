/* test_parseopt.c - the table-driven option parser and its help. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parseopt.h"

struct settings {
	const char *config, *json;
	int quiet, verbose;
	unsigned long count;
	double ratio;
	int help;
};

static int set_ratio(void *p, const char *v)
{
	struct settings *s = p;
	char *end;

	s->ratio = strtod(v, &end);
	return *v && !*end && s->ratio > 0 ? 0 : -1;
}

static const struct pv_option opts[] = {
	PV_OPT_STRING('c', "config", "FILE", struct settings, config, "settings", NULL),
	PV_OPT_STRING(0, "json", "F", struct settings, json, "write JSON", NULL),
	PV_OPT_UINT(0, "count", "N", struct settings, count, 2, 100,
		    "a count from 2 to 100", "how many", "7"),
	PV_OPT_CALLBACK(0, "ratio", "R", set_ratio, "a positive number",
			"a ratio", "1.5"),
	PV_OPT_FLAG('q', "quiet", struct settings, quiet, "say less"),
	PV_OPT_FLAG('v', "verbose", struct settings, verbose, "say more"),
	PV_OPT_FLAG('h', "help", struct settings, help, "help"),
	PV_OPT_END,
};

/* Parse the arguments given (NULL-terminated) in a copy of the array,
 * which argv (when not NULL) receives; returns the operand count or -1,
 * with s and err filled. */
static int parse_into(struct settings *s, struct pv_err *err,
		      const char *const *args, char **argv)
{
	char *av[16];
	int argc = 0;

	while (args[argc]) {
		av[argc] = (char *)(uintptr_t)args[argc];
		argc++;
	}
	assert_true(argc < 16);
	memset(s, 0, sizeof(*s));
	memset(err, 0, sizeof(*err));
	argc = pv_parse_options(argc, av, opts, s, err);
	if (argv)
		memcpy(argv, av, sizeof(av));
	return argc;
}

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define parse(s, err, args) parse_into(s, err, args, NULL)

static void long_forms(void **state)
{
	struct settings s;
	struct pv_err err;
	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("--json=a.json", "--config", "x.conf", "--count=9")), 0);
	assert_string_equal(s.json, "a.json");
	assert_string_equal(s.config, "x.conf");
	assert_int_equal(s.count, 9);
	/* "=" keeps what follows, even an empty value or another "=". */
	assert_int_equal(parse(&s, &err, ARGV("--json=", "--config=a=b")), 0);
	assert_string_equal(s.json, "");
	assert_string_equal(s.config, "a=b");
}

static void short_forms(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("-c", "a.conf")), 0);
	assert_string_equal(s.config, "a.conf");
	assert_int_equal(parse(&s, &err, ARGV("-cb.conf")), 0);
	assert_string_equal(s.config, "b.conf");
	/* Flags bundle, and the last may take a value. */
	assert_int_equal(parse(&s, &err, ARGV("-qvc", "c.conf")), 0);
	assert_true(s.quiet && s.verbose);
	assert_string_equal(s.config, "c.conf");
	assert_int_equal(parse(&s, &err, ARGV("-qx")), -1);
	assert_string_equal(err.msg, "unknown option '-x'");
	assert_int_equal(err.status, PV_EUSAGE);
}

static void dash_is_a_value_and_an_operand(void **state)
{
	struct settings s;
	struct pv_err err;
	char *argv[16];

	(void)state;
	assert_int_equal(parse_into(&s, &err, ARGV("-", "--json", "-", "b"), argv), 2);
	assert_string_equal(s.json, "-");
	assert_string_equal(argv[0], "-");
	assert_string_equal(argv[1], "b");
}

static void operands_in_order(void **state)
{
	struct settings s;
	struct pv_err err;
	char *argv[16];

	(void)state;
	/* Options may follow operands; "--" ends the options. */
	assert_int_equal(parse_into(&s, &err, ARGV("base", "-q", "cand", "--", "--json", "-c"), argv), 4);
	assert_true(s.quiet);
	assert_null(s.json);
	assert_string_equal(argv[0], "base");
	assert_string_equal(argv[1], "cand");
	assert_string_equal(argv[2], "--json");
	assert_string_equal(argv[3], "-c");
}

static void repeated_option_keeps_the_last(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("--json", "a", "--json=b", "--count", "3", "--count", "4")), 0);
	assert_string_equal(s.json, "b");
	assert_int_equal(s.count, 4);
}

static void unknown_option(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("--nope")), -1);
	assert_string_equal(err.msg, "unknown option '--nope'");
	assert_int_equal(parse(&s, &err, ARGV("--nope=3")), -1);
	assert_string_equal(err.msg, "unknown option '--nope=3'");
	assert_int_equal(parse(&s, &err, ARGV("--jsonx", "f")), -1);
	assert_string_equal(err.msg,
			    "unknown option '--jsonx'; did you mean '--json'?");
}

/* Misspelt long names get git's "did you mean": a dropped letter, two
 * letters swapped, one changed; far names and short ones get nothing. */
static void unknown_option_suggestions(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("--verbsoe")), -1);
	assert_string_equal(err.msg,
			    "unknown option '--verbsoe'; did you mean '--verbose'?");
	assert_int_equal(parse(&s, &err, ARGV("--cont=3")), -1);
	assert_string_equal(err.msg,
			    "unknown option '--cont=3'; did you mean '--count'?");
	assert_int_equal(parse(&s, &err, ARGV("--rotio", "2")), -1);
	assert_string_equal(err.msg,
			    "unknown option '--rotio'; did you mean '--ratio'?");
	assert_int_equal(parse(&s, &err, ARGV("--xy")), -1);
	assert_string_equal(err.msg, "unknown option '--xy'");
	assert_int_equal(parse(&s, &err, ARGV("--configuration")), -1);
	assert_string_equal(err.msg, "unknown option '--configuration'");
}

static void missing_value(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("a", "--json")), -1);
	assert_string_equal(err.msg, "option '--json' needs a value");
	assert_int_equal(parse(&s, &err, ARGV("-c")), -1);
	assert_string_equal(err.msg, "option '-c' needs a value");
	assert_int_equal(parse(&s, &err, ARGV("--quiet=1")), -1);
	assert_string_equal(err.msg, "option '--quiet' takes no value");
}

static void bad_values(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	assert_int_equal(parse(&s, &err, ARGV("--count", "1")), -1);
	assert_string_equal(err.msg, "bad --count '1': expected a count from 2 to 100");
	assert_int_equal(parse(&s, &err, ARGV("--count=101")), -1);
	assert_int_equal(parse(&s, &err, ARGV("--count=-3")), -1);
	assert_int_equal(parse(&s, &err, ARGV("--count=2")), 0);
	assert_int_equal(parse(&s, &err, ARGV("--count=100")), 0);
	assert_int_equal(parse(&s, &err, ARGV("--ratio", "x")), -1);
	assert_string_equal(err.msg, "bad --ratio 'x': expected a positive number");
	assert_int_equal(parse(&s, &err, ARGV("--ratio", "0.25")), 0);
	assert_true(s.ratio == 0.25);
}

static void prefixes(void **state)
{
	struct settings s;
	struct pv_err err;

	(void)state;
	/* A unique prefix is the option, as with getopt_long. */
	assert_int_equal(parse(&s, &err, ARGV("--conf", "x")), 0);
	assert_string_equal(s.config, "x");
	assert_int_equal(parse(&s, &err, ARGV("--co", "x")), -1);
	assert_string_equal(err.msg, "option '--co' is ambiguous: --config, --count");
}

static void help_from_the_table(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	const char *want =
		"  -c, --config FILE       settings\n"
		"      --json F            write JSON\n"
		"      --count N           how many (default: 7)\n"
		"      --ratio R           a ratio (default: 1.5)\n"
		"  -q, --quiet             say less\n"
		"  -v, --verbose           say more\n"
		"  -h, --help              help\n";

	(void)state;
	assert_non_null(fp);
	assert_int_equal(pv_options_help(opts, fp), 0);
	fclose(fp);
	assert_string_equal(buf, want);
	free(buf);
}

static void help_long_names(void **state)
{
	static const struct pv_option wide[] = {
		PV_OPT_STRING(0, "criterion-baseline", "NAME", struct settings,
			      json, "wide", NULL),
		PV_OPT_END,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(pv_options_help(wide, fp), 0);
	fclose(fp);
	/* Names past the column keep two blanks before the help. */
	assert_string_equal(buf, "      --criterion-baseline NAME  wide\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_forms),
		cmocka_unit_test(short_forms),
		cmocka_unit_test(dash_is_a_value_and_an_operand),
		cmocka_unit_test(operands_in_order),
		cmocka_unit_test(repeated_option_keeps_the_last),
		cmocka_unit_test(unknown_option),
		cmocka_unit_test(unknown_option_suggestions),
		cmocka_unit_test(missing_value),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(prefixes),
		cmocka_unit_test(help_from_the_table),
		cmocka_unit_test(help_long_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

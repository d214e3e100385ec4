/*
 * parseopt.h - table-driven command-line options (after git's
 * parse-options and curl's tool_getparam).
 *
 * A command describes its options in one array of struct pv_option,
 * ended by PV_OPT_END.  The same array parses argv into the command's
 * settings struct and prints the command's help, so help cannot drift
 * from the parser.  Each entry names the settings field it writes by
 * offset (offsetof), or a callback for values that need checking beyond
 * a range.  Adding an option is one line, e.g.
 *
 *	PV_OPT_STRING(0, "html", "F", struct cli, out.html,
 *		      "write an HTML report", NULL),
 *
 * The parser knows nothing of perfverdict's commands and neither prints
 * nor exits: it fills a settings struct, or a struct pv_err (status
 * PV_EUSAGE) whose message names the option.
 *
 * The syntax is getopt_long's: "--name value", "--name=value", an
 * unambiguous prefix of a long name, "-x value", "-xvalue", flags
 * bundled as "-qx value"; "--" ends the options; "-" alone is an
 * operand.  Options and operands may come in any order.  An option
 * given twice keeps the last value.  An option that takes a value takes
 * the next argument whatever it is ("--json -" writes to stdout).
 */
#ifndef PV_PARSEOPT_H
#define PV_PARSEOPT_H

#include <stddef.h>
#include <stdio.h>
#include "util/err.h"

enum pv_opt_type {
	PV_OPTION_END,         /* ends the table */
	PV_OPTION_STRING,      /* const char *: the argument itself */
	PV_OPTION_FLAG,        /* int: set to 1; takes no argument */
	PV_OPTION_UINT,        /* unsigned long in [min, max] */
	PV_OPTION_CALLBACK,    /* cb(settings, arg) checks and stores */
};

struct pv_option {
	enum pv_opt_type type;
	char short_name;            /* 0: none */
	const char *long_name;      /* without the "--" */
	const char *argname;        /* the value's name in help; NULL: a flag */
	size_t offset;              /* of the field in the settings struct */
	unsigned long min, max;     /* PV_OPT_UINT's range */
	int (*cb)(void *settings, const char *arg);  /* 0, or -1: bad value */
	const char *expected;       /* a good value, for "bad --x 'v': expected ..." */
	const char *help;           /* one line */
	const char *def;            /* the default help shows, or NULL */
};

/* One entry per line of a table: S short name (0 for none), L long
 * name, A the value's name in help, T the settings type, F its field,
 * H the help text, D the default shown (a string, or NULL). */
#define PV_OPT_STRING(S, L, A, T, F, H, D) \
	{ PV_OPTION_STRING, S, L, A, offsetof(T, F), 0, 0, NULL, NULL, H, D }
#define PV_OPT_FLAG(S, L, T, F, H) \
	{ PV_OPTION_FLAG, S, L, NULL, offsetof(T, F), 0, 0, NULL, NULL, H, NULL }
#define PV_OPT_UINT(S, L, A, T, F, MIN, MAX, E, H, D) \
	{ PV_OPTION_UINT, S, L, A, offsetof(T, F), MIN, MAX, NULL, E, H, D }
#define PV_OPT_CALLBACK(S, L, A, CB, E, H, D) \
	{ PV_OPTION_CALLBACK, S, L, A, 0, 0, 0, CB, E, H, D }
#define PV_OPT_END { PV_OPTION_END, 0, NULL, NULL, 0, 0, 0, NULL, NULL, NULL, NULL }

/*
 * Parse argv[0..argc-1] (the arguments after the command's name) into
 * settings.  The operands are moved, in their order, to argv[0..n-1];
 * returns n, or -1 with err filled (PV_EUSAGE) for an unknown or
 * ambiguous option, a missing value, a value given to a flag, or a bad
 * value.
 */
int pv_parse_options(int argc, char **argv, const struct pv_option *opts,
		     void *settings, struct pv_err *err);

/* The table's help: one option per line, "  -c, --config FILE  help
 * (default: X)", the help text starting at column 27 or two blanks after
 * the names.  Returns -1 when the write fails. */
int pv_options_help(const struct pv_option *opts, FILE *fp);

#endif

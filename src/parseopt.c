/* parseopt.c - table-driven command-line options; see parseopt.h. */
#include "parseopt.h"

#include <string.h>
#include "config.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* The column help text starts at (counting from 0). */
#define HELP_COLUMN 26

/* Store arg through opt; -1 with err filled for a bad value. */
static int store(const struct pv_option *o, const char *arg, void *settings,
		 struct pv_err *err)
{
	char *field = (char *)settings + o->offset;
	unsigned long u;

	switch (o->type) {
	case PV_OPTION_STRING:
		*(const char **)(void *)field = arg;
		return 0;
	case PV_OPTION_FLAG:
		*(int *)(void *)field = 1;
		return 0;
	case PV_OPTION_UINT:
		if (!pv_parse_uint(arg, o->max, &u) && u >= o->min) {
			*(unsigned long *)(void *)field = u;
			return 0;
		}
		break;
	case PV_OPTION_CALLBACK:
		if (!o->cb(settings, arg))
			return 0;
		break;
	case PV_OPTION_END:
		break;
	}
	return pv_error(err, PV_M_BAD_OPTION_VALUE, "bad --%s '%s': expected %s",
			o->long_name, arg, o->expected ? o->expected : "another value");
}

/* Names longer than this get no suggestion (the rows below are fixed). */
#define SUGGEST_MAX 63

/*
 * The edit distance between a[0..la) and b (insertions, deletions,
 * substitutions and swaps of two neighbours each cost 1: the optimal
 * string alignment distance), or SUGGEST_MAX + 1 when either is too long.
 */
static size_t edit_distance(const char *a, size_t la, const char *b)
{
	size_t rows[3][SUGGEST_MAX + 1], lb = strlen(b);
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return SUGGEST_MAX + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t best = prev[j] + 1 < cur[j - 1] + 1 ? prev[j] + 1 : cur[j - 1] + 1;

			if (sub < best)
				best = sub;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/*
 * Add "; did you mean '--x'?" to err for the long names nearest to
 * name[0..len), as git suggests a command: only names at most 2 edits
 * away and no more than a third of the typed name, all of the nearest.
 */
static void suggest(const struct pv_option *opts, const char *name,
		    size_t len, struct pv_err *err)
{
	struct strbuf near = STRBUF_INIT;
	size_t best = 3, n = 0;

	for (const struct pv_option *o = opts; o->type != PV_OPTION_END; o++) {
		size_t d = edit_distance(name, len, o->long_name);

		if (d > best || d * 3 > len)
			continue;
		if (d < best) {
			best = d;
			n = 0;
			strbuf_reset(&near);
		}
		strbuf_addf(&near, "%s'--%s'", n++ ? " or " : "", o->long_name);
	}
	if (n) {
		size_t used = strlen(err->msg);

		snprintf(err->msg + used, sizeof(err->msg) - used,
			 "; did you mean %s?", near.buf);
	}
	strbuf_release(&near);
}

/* The entry of a long option: an exact name, or a prefix of only one. */
static const struct pv_option *find_long(const struct pv_option *opts,
					 const char *name, size_t len,
					 const char *given, struct pv_err *err)
{
	const struct pv_option *found = NULL;
	struct strbuf all = STRBUF_INIT;
	int n = 0;

	for (const struct pv_option *o = opts; o->type != PV_OPTION_END; o++) {
		if (strncmp(o->long_name, name, len))
			continue;
		if (!o->long_name[len])
			return o;       /* exact, even if it prefixes others */
		strbuf_addf(&all, "%s--%s", n++ ? ", " : "", o->long_name);
		found = o;
	}
	if (n == 1) {
		strbuf_release(&all);
		return found;
	}
	if (n > 1)
		pv_error(err, PV_M_AMBIGUOUS_OPTION, "option '%s' is ambiguous: %s", given,
			 all.buf);
	else {
		pv_error(err, PV_M_UNKNOWN_OPTION, "unknown option '%s'", given);
		suggest(opts, name, len, err);
	}
	strbuf_release(&all);
	return NULL;
}

static const struct pv_option *find_short(const struct pv_option *opts,
					  char c)
{
	for (const struct pv_option *o = opts; o->type != PV_OPTION_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

/* "--name[=value]" at argv[*i]. */
static int parse_long(int argc, char **argv, int *i,
		      const struct pv_option *opts, void *settings,
		      struct pv_err *err)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct pv_option *o = find_long(opts, name, len, arg, err);

	if (!o)
		return -1;
	if (!o->argname) {
		if (eq)
			return pv_error(err, PV_M_OPTION_TAKES_NO_VALUE,
					"option '--%s' takes no value", o->long_name);
		return store(o, NULL, settings, err);
	}
	if (eq)
		return store(o, eq + 1, settings, err);
	if (*i + 1 >= argc)
		return pv_error(err, PV_M_OPTION_NEEDS_VALUE, "option '%s' needs a value", arg);
	return store(o, argv[++*i], settings, err);
}

/* "-x", "-xvalue", "-x value", "-qx value" at argv[*i]. */
static int parse_short(int argc, char **argv, int *i,
		       const struct pv_option *opts, void *settings,
		       struct pv_err *err)
{
	const char *arg = argv[*i];

	for (const char *p = arg + 1; *p; p++) {
		const struct pv_option *o = find_short(opts, *p);

		if (!o)
			return pv_error(err, PV_M_UNKNOWN_OPTION, "unknown option '-%c'", *p);
		if (!o->argname) {
			if (store(o, NULL, settings, err))
				return -1;
			continue;
		}
		if (p[1])
			return store(o, p + 1, settings, err);
		if (*i + 1 >= argc)
			return pv_error(err, PV_M_OPTION_NEEDS_VALUE, "option '-%c' needs a value", *p);
		return store(o, argv[++*i], settings, err);
	}
	return 0;
}

int pv_parse_options(int argc, char **argv, const struct pv_option *opts,
		     void *settings, struct pv_err *err)
{
	int n = 0, i;

	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];
		int rc;

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			argv[n++] = argv[i];   /* an operand; "-" is one too */
			continue;
		}
		if (arg[1] == '-')
			rc = parse_long(argc, argv, &i, opts, settings, err);
		else
			rc = parse_short(argc, argv, &i, opts, settings, err);
		if (rc)
			return -1;
	}
	for (; i < argc; i++)
		argv[n++] = argv[i];
	return n;
}

int pv_options_help(const struct pv_option *opts, FILE *fp)
{
	for (const struct pv_option *o = opts; o->type != PV_OPTION_END; o++) {
		struct strbuf sb = STRBUF_INIT;
		int rc;

		if (o->short_name)
			strbuf_addf(&sb, "  -%c, ", o->short_name);
		else
			strbuf_addstr(&sb, "      ");
		strbuf_addf(&sb, "--%s", o->long_name);
		if (o->argname)
			strbuf_addf(&sb, " %s", o->argname);
		do
			strbuf_addch(&sb, ' ');
		while (sb.len < HELP_COLUMN || sb.buf[sb.len - 2] != ' ');
		strbuf_addstr(&sb, o->help);
		if (o->def)
			strbuf_addf(&sb, " (default: %s)", o->def);
		strbuf_addch(&sb, '\n');
		rc = fputs(sb.buf, fp);
		strbuf_release(&sb);
		if (rc == EOF)
			return -1;
	}
	return 0;
}

/*
 * config_value.c - the names of the settings' values and their parsers,
 * shared by the config file (config.c) and the command line (main.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/num.h"
#include "util/banned.h"

static const char *const dir_names[] = { "auto", "lower", "higher", "none" };
static const char *const test_names[] = {
	"auto", "welch", "student", "mannwhitney", "moderated", "yuen",
	"history"
};
static const char *const corr_names[] = { "none", "holm", "bh" };
static const char *const sided_names[] = { "worse", "two" };
static const char *const policy_names[] = { "fail", "warn", "ignore" };

const char *pv_dir_name(enum pv_dir d) { return dir_names[d]; }
const char *pv_test_name(enum pv_test t) { return test_names[t]; }
const char *pv_correction_name(enum pv_correction c) { return corr_names[c]; }
const char *pv_sided_name(enum pv_sided s) { return sided_names[s]; }
const char *pv_policy_name(enum pv_policy p) { return policy_names[p]; }

int pv_name_index(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

int pv_parse_dir(const char *s, enum pv_dir *out)
{
	int i = PV_LOOKUP(s, dir_names);

	if (i < 0)
		return -1;
	*out = (enum pv_dir)i;
	return 0;
}

int pv_parse_test(const char *s, enum pv_test *out)
{
	int i = PV_LOOKUP(s, test_names);

	if (i < 0 || i >= PV_TEST_YUEN)     /* yuen and history: chosen, not asked */
		return -1;
	*out = (enum pv_test)i;
	return 0;
}

int pv_parse_correction(const char *s, enum pv_correction *out)
{
	int i = PV_LOOKUP(s, corr_names);

	if (i < 0)
		return -1;
	*out = (enum pv_correction)i;
	return 0;
}

int pv_parse_sided(const char *s, enum pv_sided *out)
{
	int i = PV_LOOKUP(s, sided_names);

	if (i < 0)
		return -1;
	*out = (enum pv_sided)i;
	return 0;
}

int pv_parse_policy(const char *s, unsigned allowed, enum pv_policy *out)
{
	int i = PV_LOOKUP(s, policy_names);

	if (i < 0 || !(allowed & (1u << i)))
		return -1;
	*out = (enum pv_policy)i;
	return 0;
}

/* "5%" is 0.05; a bare number is a fraction.  Must be finite, >= 0. */
int pv_parse_fraction(const char *s, double *out)
{
	size_t len = strlen(s);
	int pct = len && s[len - 1] == '%';
	double v;

	if (pv_parse_double(s, len - (size_t)pct, &v) != PV_NUM_OK || v < 0)
		return -1;
	*out = pct ? v / 100 : v;
	return 0;
}

int pv_parse_alpha(const char *s, double *out)
{
	double v;

	if (pv_parse_double(s, strlen(s), &v) != PV_NUM_OK || !(v > 0 && v < 1))
		return -1;
	*out = v;
	return 0;
}

int pv_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Size with an optional K/M/G suffix (powers of 1024). */
int pv_parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M')
		shift = 20, end++;
	else if (*end == 'G')
		shift = 30, end++;
	if (errno || *end || v == 0 || v > (~0ULL >> (shift + 1)))
		return -1;
	*out = (size_t)(v << shift);
	return 0;
}

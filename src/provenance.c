/*
 * provenance.c - what each side of a comparison is, from the CI's own
 * variables when the command line does not say.
 *
 * The candidate is the commit under test; the baseline what it is
 * compared with (a pull request's target).  Each CI names them in its
 * own variables; the first one set wins.
 */
#include "report.h"

#include <stddef.h>
#include "util/banned.h"

static const char *const env_names[2][4] = {
	/* baseline: GitLab's merge-request base commit, GitHub's and
	 * Jenkins' (multibranch) pull-request target branch */
	{ "CI_MERGE_REQUEST_DIFF_BASE_SHA", "GITHUB_BASE_REF", "CHANGE_TARGET",
	  NULL },
	/* candidate: the commit the job runs on */
	{ "GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT", NULL },
};

const char *pv_label_from_env(int side, char *(*get)(const char *name))
{
	if (side < 0 || side > 1)
		return NULL;
	for (size_t i = 0; env_names[side][i]; i++) {
		const char *v = get(env_names[side][i]);

		if (v && *v)
			return v;
	}
	return NULL;
}

#!/bin/sh
# upsert-comment.sh - create or update perfverdict's pull/merge-request
# comment, found by its hidden marker <!-- perfverdict-report -->.
#
# Usage: upsert-comment.sh [--platform github|gitlab] [--policy POLICY]
#                          [--status N] [--body FILE] [--strict]
#
#   --platform  default: PERFVERDICT_COMMENT_PLATFORM, else PERFVERDICT_CI;
#               any value but github or gitlab skips
#   --policy    on-regression (default) | always | never   [PERFVERDICT_COMMENT]
#   --status    the gate status (default: PERFVERDICT_STATUS, else read
#               from OUTPUT_DIR/perfverdict.env)
#   --body      the Markdown (default: OUTPUT_DIR/perfverdict-report.md)
#   --strict    exit 4 when the API call fails (default: warn, exit 0)
#
# Policy:
#   never          never touches the PR.
#   always         creates or updates the comment on every run.
#   on-regression  creates a comment only when the gate found a regression
#                  (status 1), but once one exists it is kept current on
#                  every run, so a fixed PR does not keep showing a stale
#                  regression.
# A tool error (status 2/3) posts a short error note instead of a report
# (only where the policy allows a comment at all, as above).
#
# GitHub: `gh api`, token from PERFVERDICT_GITHUB_TOKEN, GH_TOKEN or
# GITHUB_TOKEN (the first one set); repository GITHUB_REPOSITORY; PR from PERFVERDICT_PR, the
# event file GITHUB_EVENT_PATH, or GITHUB_REF (refs/pull/N/...).
# GitLab: `curl`, token (api scope) from PERFVERDICT_GITLAB_TOKEN or
# GITLAB_TOKEN; CI_API_V4_URL, CI_PROJECT_ID, and PERFVERDICT_MR_IID or
# CI_MERGE_REQUEST_IID (set in merge-request pipelines).
# In a workflow_run event (a fork's pull request, commented on from the
# base repository) the PR is the event's run's (head SHA and head
# repository); PERFVERDICT_PR, read from the fork's artifact, is only a
# claim: a mismatch is refused (exit 2, nothing posted).
# Only a comment of the token's own identity is updated: GitHub
# PERFVERDICT_COMMENT_AUTHOR, else the token's user (GET /user), else
# github-actions[bot], with type Bot for a [bot] login; GitLab the
# token's user (GET /user).  A marker in anyone else's comment is ignored.
# Without a token or a PR/MR it does nothing.  Prints what it did; with
# PERFVERDICT_CI=github it also sets the step outputs comment
# (created|updated|skipped|failed) and comment-id.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

GITHUB_BODY_MAX=65000   # GitHub refuses a comment over 65,536 characters
GITLAB_BODY_MAX=999000  # GitLab notes: 1,000,000 characters

platform=
policy=
status=${PERFVERDICT_STATUS:-}
body=
strict=0
while [ $# -gt 0 ]; do
	case $1 in
	--platform | --policy | --status | --body)
		if [ $# -lt 2 ]; then
			pv_log "upsert-comment: $1 needs a value"
			exit 2
		fi
		case $1 in
		--platform) platform=$2 ;;
		--policy) policy=$2 ;;
		--status) status=$2 ;;
		--body) body=$2 ;;
		esac
		shift 2
		continue
		;;
	--strict) strict=1 ;;
	-h | --help)
		pv_help
		exit 0
		;;
	*)
		pv_log "upsert-comment: unknown argument: $1"
		exit 2
		;;
	esac
	shift
done
pv_defaults
[ -n "$platform" ] || platform=${PERFVERDICT_COMMENT_PLATFORM:-$PERFVERDICT_CI}
[ -n "$policy" ] || policy=$PERFVERDICT_COMMENT
[ -n "$body" ] || body=$PV_MD
if [ -z "$status" ] && [ -f "$PV_ENVFILE" ]; then
	status=$(sed -n 's/^PERFVERDICT_STATUS=//p' "$PV_ENVFILE" | head -n 1)
fi

tmpd=$(mktemp -d) || exit 2
trap 'rm -rf "$tmpd"' EXIT

result() { # result WHAT [ID] [REASON]
	if [ "$PERFVERDICT_CI" = github ] && [ -n "${GITHUB_OUTPUT:-}" ]; then
		{
			echo "comment=$1"
			echo "comment-id=${2:-}"
		} >>"$GITHUB_OUTPUT"
	fi
	case $1 in
	skipped) pv_log "comment: skipped (${3:-})" ;;
	failed) pv_annotate warning "" "" "could not ${3:-post} the PR comment; the gate status is unaffected" ;;
	refused) ;;
	*) pv_log "comment: $1${2:+ $2}" ;;
	esac
}
skip() {
	result skipped "" "$1"
	exit 0
}
api_failed() { # api_failed WHAT LOGFILE
	[ -s "$2" ] && sed 's/^/  /' "$2" >&2
	result failed "" "$1"
	[ "$strict" = 1 ] && exit 4
	exit 0
}

# pr_of_workflow_run: sets pr to the pull request whose head is the
# workflow_run event's run (its head SHA and head repository): from the
# event's pull_requests (same-repository pull requests; entries whose base
# is another repository are not ours), else from the API (a fork's pull
# request: open pull requests of this repository whose head is OWNER:BRANCH,
# kept only when head SHA and head repository match).
pr_of_workflow_run() {
	wr_event=$(pv_json_flat_get "$tmpd/event" .workflow_run.event)
	case $wr_event in
	pull_request | pull_request_target) ;;
	*) skip "the workflow_run's run was a '$wr_event' event, not a pull request" ;;
	esac
	wr_repo=$(pv_json_flat_get "$tmpd/event" .workflow_run.head_repository.full_name)
	pr=$(awk -F '\t' -v repo="$repo" -v hrepo="$wr_repo" -v sha="$wr_sha" '
		function un(s) { if (s ~ /^".*"$/) s = substr(s, 2, length(s) - 2); return s }
		function ends(u, r) { u = tolower(u); r = tolower("/repos/" r); return length(u) >= length(r) && substr(u, length(u) - length(r) + 1) == r }
		$2 ~ /^\.workflow_run\.pull_requests\[[0-9]+\]\./ {
			i = $2; sub(/^\.workflow_run\.pull_requests\[/, "", i); k = i; sub(/\].*/, "", i); sub(/^[0-9]+\]/, "", k)
			v[i, k] = un($3); if (i + 1 > n) n = i + 1
		}
		END {
			for (i = 0; i < n; i++)
				if (v[i, ".head.sha"] == sha && ends(v[i, ".base.repo.url"], repo) &&
				    ends(v[i, ".head.repo.url"], hrepo) && v[i, ".number"] ~ /^[0-9]+$/)
					print v[i, ".number"]
		}' "$tmpd/event" | sort -u)
	if [ -z "$pr" ]; then
		wr_owner=$(pv_json_flat_get "$tmpd/event" .workflow_run.head_repository.owner.login)
		wr_branch=$(pv_json_flat_get "$tmpd/event" .workflow_run.head_branch)
		if [ -z "$wr_repo" ] || [ -z "$wr_owner" ] || [ -z "$wr_branch" ]; then
			pv_annotate error "" "" "refusing to comment: the workflow_run event names no head repository, owner and branch"
			result refused "" ""
			exit 2
		fi
		if ! gh api --paginate "repos/$repo/pulls?state=open&per_page=100&head=$(pv_urlencode "$wr_owner:$wr_branch")" \
			>"$tmpd/pulls" 2>"$tmpd/err"; then
			api_failed "find the pull request of the run, to post" "$tmpd/err"
		fi
		pr=$(pv_json_flat "$tmpd/pulls" | awk -F '\t' -v repo="$repo" -v hrepo="$wr_repo" -v sha="$wr_sha" '
			function un(s) { if (s ~ /^".*"$/) s = substr(s, 2, length(s) - 2); return s }
			$2 ~ /^\[[0-9]+\]\./ {
				i = $1 ":" $2; sub(/\..*/, "", i); k = $2; sub(/^\[[0-9]+\]/, "", k)
				if (!(i in seen)) { seen[i] = 1; order[++n] = i }
				v[i, k] = un($3)
			}
			END {
				for (j = 1; j <= n; j++) {
					i = order[j]
					if (v[i, ".head.sha"] == sha && tolower(v[i, ".head.repo.full_name"]) == tolower(hrepo) &&
					    tolower(v[i, ".base.repo.full_name"]) == tolower(repo) && v[i, ".number"] ~ /^[0-9]+$/)
						print v[i, ".number"]
				}
			}' | sort -u)
	fi
	case $(printf '%s\n' "$pr" | grep -c .) in
	0) skip "no open pull request of $repo has the head $wr_repo at $wr_sha" ;;
	1) ;;
	*)
		if [ -n "$claim" ] && printf '%s\n' "$pr" | grep -qx -- "$claim"; then
			pr=$claim
		else
			pv_annotate error "" "" "refusing to comment: the run (head $wr_repo at $wr_sha) is the head of several pull requests ($(printf '%s\n' "$pr" | tr '\n' ' ')) and the reports name none of them"
			result refused "" ""
			exit 2
		fi
		;;
	esac
}

# author_conds: whose comments may be updated (GitHub): who_login, and
# who_type (Bot for a [bot] login).  PERFVERDICT_COMMENT_AUTHOR, else
# the token's own login (GET /user: a personal or user token), else
# github-actions[bot] (GITHUB_TOKEN and installation tokens cannot read
# /user).  A marker in anyone else's comment is ignored.
author_conds() {
	who_login=${PERFVERDICT_COMMENT_AUTHOR:-}
	if [ -z "$who_login" ]; then
		case $token in
		ghs_*) ;;
		*) gh api user >"$tmpd/user" 2>/dev/null && who_login=$(pv_json_get "$tmpd/user" .login) ;;
		esac
	fi
	[ -n "$who_login" ] || who_login='github-actions[bot]'
	who_type=
	case $who_login in *'[bot]') who_type=Bot ;; esac
}

case $policy in
on-regression | always | never) ;;
*)
	pv_annotate warning "" "" "comment policy must be on-regression, always or never, not '$policy'"
	exit 2
	;;
esac
[ "$policy" = never ] && skip "policy never"
case $platform in
github | gitlab) ;;
*) skip "no PR comments on platform '$platform'" ;;
esac
case $status in
0 | 1 | 2 | 3) ;;
*) skip "unknown gate status '$status'" ;;
esac
may_create=0
if [ "$policy" = always ] || [ "$status" = 1 ]; then
	may_create=1
fi

# ---- the context ---------------------------------------------------------------
if [ "$platform" = github ]; then
	token=${PERFVERDICT_GITHUB_TOKEN:-${GH_TOKEN:-${GITHUB_TOKEN:-}}}
	[ -n "$token" ] || skip "no GitHub token"
	repo=${GITHUB_REPOSITORY:-}
	[ -n "$repo" ] || skip "GITHUB_REPOSITORY is not set"
	pr=${PERFVERDICT_PR:-}
	: >"$tmpd/event"
	if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
		pv_json_flat "$GITHUB_EVENT_PATH" >"$tmpd/event"
	fi
	wr_sha=$(pv_json_flat_get "$tmpd/event" .workflow_run.head_sha)
	if [ -z "$pr" ] && [ -z "$wr_sha" ]; then
		pr=$(awk -F '\t' '$2 == ".pull_request.number" { print $3; exit }' "$tmpd/event")
		if [ -z "$pr" ] && awk -F '\t' '$2 ~ /^\.issue\.pull_request\./ { f = 1 } END { exit !f }' "$tmpd/event"; then
			pr=$(awk -F '\t' '$2 == ".issue.number" { print $3; exit }' "$tmpd/event")
		fi
	fi
	if [ -z "$pr" ] && [ -z "$wr_sha" ]; then
		case ${GITHUB_REF:-} in
		refs/pull/*/*)
			pr=${GITHUB_REF#refs/pull/}
			pr=${pr%%/*}
			;;
		esac
	fi
	if [ -z "$wr_sha" ]; then
		case $pr in
		'' | *[!0-9]*) skip "not a pull request" ;;
		esac
	fi
	command -v gh >/dev/null 2>&1 || {
		result failed "" "find gh to post"
		exit 0
	}
	GH_TOKEN=$token
	export GH_TOKEN
	if [ -z "${GH_HOST:-}" ] && [ -n "${GITHUB_SERVER_URL:-}" ] && [ "$GITHUB_SERVER_URL" != https://github.com ]; then
		GH_HOST=${GITHUB_SERVER_URL#*://}
		GH_ENTERPRISE_TOKEN=$token # gh reads this one for a GHES host
		export GH_HOST GH_ENTERPRISE_TOKEN
	fi
	limit=$GITHUB_BODY_MAX
	# A workflow_run job (a fork's pull request) runs with a write token
	# on files the fork's run uploaded: what they say is a claim.  The
	# pull request is the one the event names, checked against the
	# claim (PERFVERDICT_PR, e.g. from the artifact); a mismatch is refused.
	if [ -n "$wr_sha" ]; then
		claim=$pr
		pr_of_workflow_run
		if [ -n "$claim" ] && [ "$claim" != "$pr" ]; then
			pv_annotate error "" "" "refusing to comment: the reports claim pull request #$claim, but the workflow_run event's run (head $wr_sha) belongs to #$pr"
			result refused "" ""
			exit 2
		fi
		pv_log "comment: pull request #$pr, from the workflow_run event (head $wr_sha)"
	fi
	author_conds
else
	# Outside a merge-request pipeline there is nothing to comment on,
	# whatever the token: say that, not that a token is missing.
	iid=${PERFVERDICT_MR_IID:-${CI_MERGE_REQUEST_IID:-}}
	case $iid in
	'' | *[!0-9]*) skip "not a merge request pipeline" ;;
	esac
	token=${PERFVERDICT_GITLAB_TOKEN:-${GITLAB_TOKEN:-}}
	[ -n "$token" ] || skip "no GitLab token (set PERFVERDICT_GITLAB_TOKEN)"
	# To curl in a file (-H @FILE; printf is a builtin), never on its
	# command line, which every user of the machine can read (ps).
	printf 'PRIVATE-TOKEN: %s\n' "$token" >"$tmpd/hdr"
	api=${CI_API_V4_URL:-${CI_SERVER_URL:+$CI_SERVER_URL/api/v4}}
	[ -n "$api" ] || skip "CI_API_V4_URL is not set"
	project=${CI_PROJECT_ID:-}
	[ -n "$project" ] || skip "CI_PROJECT_ID is not set"
	command -v curl >/dev/null 2>&1 || {
		result failed "" "find curl to post"
		exit 0
	}
	notes=$api/projects/$project/merge_requests/$iid/notes
	limit=$GITLAB_BODY_MAX
	# Only the token's own notes may be updated: its user (GET /user).
	# Unknown, no note is updated (a new one may be created).
	who_id=
	if curl -sS --fail -H "@$tmpd/hdr" "$api/user" -o "$tmpd/user" 2>/dev/null; then
		who_id=$(pv_json_get "$tmpd/user" .id)
	fi
	case $who_id in
	'' | *[!0-9]*)
		pv_log "comment: cannot tell the token's user (GET /user); an existing note will not be updated"
		who_id=
		;;
	esac
fi

# ---- the body ------------------------------------------------------------------
# The marker goes first, so that even a cut body can be found again.
bodyf=$tmpd/body.md
if [ "$status" -le 1 ]; then
	[ -f "$body" ] || skip "no Markdown report ($body)"
	{
		grep -qF "$PV_MARKER" "$body" || echo "$PV_MARKER"
		cat "$body"
	} >"$tmpd/raw.md"
else
	{
		echo "$PV_MARKER"
		echo "### :warning: perfverdict could not compare"
		echo
		echo "The gate stopped with a tool error: $(pv_status_name "$status") (exit $status)."
		echo "This is not a pass. See the job log for the message."
	} >"$tmpd/raw.md"
fi
sh "$PV_SCRIPTS/truncate-summary.sh" -n "$(pv_artifacts_hint)" "$limit" "$tmpd/raw.md" >"$bodyf" || exit 2

# ---- find, then update or create ---------------------------------------------------
id=
if [ "$platform" = github ]; then
	if ! gh api --paginate "repos/$repo/issues/$pr/comments?per_page=100" >"$tmpd/list" 2>"$tmpd/err"; then
		api_failed "list the PR comments to find" "$tmpd/err"
	fi
	if [ -n "$who_type" ]; then
		id=$(pv_json_marker_id "$tmpd/list" .user.login "$who_login" .user.type "$who_type")
	else
		id=$(pv_json_marker_id "$tmpd/list" .user.login "$who_login")
	fi
	any=$(pv_json_marker_id "$tmpd/list")
	[ -n "$any" ] && [ "$any" != "$id" ] &&
		pv_log "comment: ignoring comment $any: it holds the marker but was not written by $who_login${who_type:+ (type $who_type)}"
else
	page=1
	while [ "$page" -le 50 ]; do
		if ! curl -sS --fail -H "@$tmpd/hdr" \
			"$notes?per_page=100&page=$page&sort=asc&order_by=created_at" \
			-o "$tmpd/list" 2>"$tmpd/err"; then
			api_failed "list the MR notes to find" "$tmpd/err"
		fi
		[ -n "$who_id" ] && id=$(pv_json_marker_id "$tmpd/list" .author.id "$who_id")
		[ -n "$id" ] && break
		[ "$(pv_json_count "$tmpd/list")" -lt 100 ] && break
		page=$((page + 1))
	done
fi
case $id in
*[!0-9]*)
	pv_log "comment: ignoring a malformed comment id: $id"
	id=
	;;
esac

if [ -z "$id" ] && [ "$may_create" = 0 ]; then
	skip "policy $policy, status $status, and no earlier comment to update"
fi

if [ "$platform" = github ]; then
	if [ -n "$id" ]; then
		gh api --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$bodyf" \
			>/dev/null 2>"$tmpd/err" || api_failed "update" "$tmpd/err"
		result updated "$id"
	else
		gh api --method POST "repos/$repo/issues/$pr/comments" -F "body=@$bodyf" \
			>"$tmpd/new" 2>"$tmpd/err" || api_failed "create" "$tmpd/err"
		result created "$(pv_json_get "$tmpd/new" .id)"
	fi
else
	if [ -n "$id" ]; then
		curl -sS --fail -X PUT -H "@$tmpd/hdr" --data-urlencode "body@$bodyf" \
			"$notes/$id" -o /dev/null 2>"$tmpd/err" || api_failed "update" "$tmpd/err"
		result updated "$id"
	else
		curl -sS --fail -X POST -H "@$tmpd/hdr" --data-urlencode "body@$bodyf" \
			"$notes" -o "$tmpd/new" 2>"$tmpd/err" || api_failed "create" "$tmpd/err"
		result created "$(pv_json_get "$tmpd/new" .id)"
	fi
fi
exit 0

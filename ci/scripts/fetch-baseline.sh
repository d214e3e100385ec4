#!/bin/sh
# fetch-baseline.sh - download the baseline tree: the results the default
# branch's last successful pipeline kept as an artifact.  gate.sh runs it
# when PERFVERDICT_BASELINE_ARTIFACT (GitHub) or PERFVERDICT_BASELINE_JOB
# (GitLab) is set; it can also run on its own.
#
# GitHub (gh, token from PERFVERDICT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN):
#   the newest successful `push` run of PERFVERDICT_BASELINE_WORKFLOW
#   (default: the running workflow's file, from GITHUB_WORKFLOW_REF) on
#   PERFVERDICT_BASELINE_BRANCH (default: the repository's default branch
#   from the event, else main); its artifact PERFVERDICT_BASELINE_ARTIFACT
#   is downloaded into PERFVERDICT_BASELINE.
# GitLab (curl, CI_JOB_TOKEN): the artifacts of job PERFVERDICT_BASELINE_JOB
#   in the newest successful pipeline of PERFVERDICT_BASELINE_BRANCH
#   (default CI_DEFAULT_BRANCH), through the job-artifacts API; the tree at
#   PERFVERDICT_BASELINE_PATH inside it (default: PERFVERDICT_CANDIDATE,
#   the path the job on the default branch wrote) becomes
#   PERFVERDICT_BASELINE.  Needs unzip, or python3.
#
# Exit status:
#   0  the baseline is in PERFVERDICT_BASELINE
#   4  there is no baseline yet: no successful run on the branch (the
#      first pull request, before the default branch ran the workflow)
#   2  anything else (no token, an API error, a run without the artifact);
#      a tool error, never a pass
# The last line on stdout is one sentence saying what happened (for the
# job summary); the same goes to the log.  With PERFVERDICT_CI=github the
# step output baseline-run is the run id.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
pv_defaults

say() { # say TEXT: the sentence for the summary, on stdout and in the log
	printf '%s\n' "$*"
	pv_log "baseline: $*"
}
dest=$PERFVERDICT_BASELINE
[ -n "$dest" ] || {
	say "no baseline directory given (PERFVERDICT_BASELINE)"
	exit 2
}
if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
	say "$dest already exists and is not empty; not downloading over it"
	exit 2
fi
tmpd=$(mktemp -d) || exit 2
trap 'rm -rf "$tmpd"' EXIT

case $PERFVERDICT_CI in
github)
	artifact=${PERFVERDICT_BASELINE_ARTIFACT:-}
	[ -n "$artifact" ] || {
		say "PERFVERDICT_BASELINE_ARTIFACT (the artifact name) is not set"
		exit 2
	}
	repo=${GITHUB_REPOSITORY:-}
	[ -n "$repo" ] || {
		say "GITHUB_REPOSITORY is not set"
		exit 2
	}
	workflow=${PERFVERDICT_BASELINE_WORKFLOW:-}
	if [ -z "$workflow" ] && [ -n "${GITHUB_WORKFLOW_REF:-}" ]; then
		workflow=${GITHUB_WORKFLOW_REF%%@*}
		workflow=${workflow##*/}
	fi
	[ -n "$workflow" ] || {
		say "no workflow to look in: set baseline-workflow (PERFVERDICT_BASELINE_WORKFLOW)"
		exit 2
	}
	branch=${PERFVERDICT_BASELINE_BRANCH:-}
	if [ -z "$branch" ] && [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
		branch=$(pv_json_get "$GITHUB_EVENT_PATH" .repository.default_branch)
	fi
	: "${branch:=main}"
	token=${PERFVERDICT_GITHUB_TOKEN:-${GH_TOKEN:-${GITHUB_TOKEN:-}}}
	[ -n "$token" ] || {
		say "no GitHub token to look up $workflow's runs (github-token needs actions: read)"
		exit 2
	}
	command -v gh >/dev/null 2>&1 || {
		say "gh is not installed; it is needed to download the baseline"
		exit 2
	}
	GH_TOKEN=$token
	export GH_TOKEN
	if ! gh run list --repo "$repo" --workflow "$workflow" --branch "$branch" \
		--event push --status success --limit 1 --json databaseId,headSha \
		--jq '.[] | "\(.databaseId) \(.headSha)"' >"$tmpd/runs" 2>"$tmpd/err"; then
		sed 's/^/  /' "$tmpd/err" >&2
		say "could not list the runs of $workflow on $branch (the token needs actions: read)"
		exit 2
	fi
	read -r run sha <"$tmpd/runs" || run=
	case $run in
	'')
		say "no baseline yet: $workflow has no successful push run on $branch. Create it by pushing to $branch, or with: gh workflow run $workflow --repo $repo --ref $branch (if the workflow has on: workflow_dispatch)"
		exit 4
		;;
	*[!0-9]*)
		say "gh printed an unexpected run id: $run"
		exit 2
		;;
	esac
	[ -n "${GITHUB_OUTPUT:-}" ] && echo "baseline-run=$run" >>"$GITHUB_OUTPUT"
	mkdir -p "$dest" || exit 2
	if ! gh run download "$run" --repo "$repo" --name "$artifact" --dir "$dest" 2>"$tmpd/err"; then
		sed 's/^/  /' "$tmpd/err" >&2
		say "run $run of $workflow on $branch has no artifact '$artifact' (a different name, or expired after its retention days)"
		exit 2
	fi
	say "artifact '$artifact' of run $run of $workflow on $branch (commit ${sha:-unknown})"
	;;
gitlab)
	job=${PERFVERDICT_BASELINE_JOB:-}
	[ -n "$job" ] || {
		say "PERFVERDICT_BASELINE_JOB (the job whose artifacts hold the baseline) is not set"
		exit 2
	}
	branch=${PERFVERDICT_BASELINE_BRANCH:-${CI_DEFAULT_BRANCH:-main}}
	api=${CI_API_V4_URL:-${CI_SERVER_URL:+$CI_SERVER_URL/api/v4}}
	if [ -z "$api" ] || [ -z "${CI_PROJECT_ID:-}" ]; then
		say "CI_API_V4_URL and CI_PROJECT_ID are not set: not a GitLab job"
		exit 2
	fi
	command -v curl >/dev/null 2>&1 || {
		say "curl is not installed; it is needed to download the baseline"
		exit 2
	}
	# The token goes to curl in a file (-H @FILE, printf is a builtin):
	# a command line is readable by every user of the machine (ps).
	token=${PERFVERDICT_GITLAB_TOKEN:-}
	if [ -n "$token" ]; then
		printf 'PRIVATE-TOKEN: %s\n' "$token" >"$tmpd/hdr"
	else
		printf 'JOB-TOKEN: %s\n' "${CI_JOB_TOKEN:-}" >"$tmpd/hdr"
	fi
	url="$api/projects/$CI_PROJECT_ID/jobs/artifacts/$branch/download?job=$job"
	code=$(curl -sS -L -H "@$tmpd/hdr" -o "$tmpd/a.zip" -w '%{http_code}' "$url" 2>"$tmpd/err")
	rc=$?
	if [ $rc -ne 0 ]; then
		sed 's/^/  /' "$tmpd/err" >&2
		say "could not download $job's artifacts from $branch (curl status $rc)"
		exit 2
	fi
	case $code in
	200) ;;
	404)
		say "no baseline yet: $branch has no successful pipeline with artifacts of job '$job'. Create it by running the pipeline on $branch (CI/CD > Pipelines > Run pipeline, or push to $branch)"
		exit 4
		;;
	*)
		say "downloading $job's artifacts from $branch failed: HTTP $code"
		exit 2
		;;
	esac
	mkdir -p "$tmpd/x"
	if command -v unzip >/dev/null 2>&1; then
		unzip -q -o "$tmpd/a.zip" -d "$tmpd/x" >&2
	elif command -v python3 >/dev/null 2>&1; then
		python3 -m zipfile -e "$tmpd/a.zip" "$tmpd/x" >&2
	else
		false
	fi || {
		say "could not unpack $job's artifacts (install unzip in the job's image)"
		exit 2
	}
	inner=${PERFVERDICT_BASELINE_PATH:-$PERFVERDICT_CANDIDATE}
	[ -d "$tmpd/x/$inner" ] || {
		say "$job's artifacts on $branch hold no directory '$inner' (set PERFVERDICT_BASELINE_PATH)"
		exit 2
	}
	if ! { mkdir -p -- "$(dirname -- "$dest")" && rm -rf -- "$dest" && mv -- "$tmpd/x/$inner" "$dest"; }; then
		say "could not move the baseline into $dest"
		exit 2
	fi
	say "artifacts of job '$job' on $branch ($inner)"
	;;
*)
	say "downloading the baseline is supported on GitHub and GitLab only; on $PERFVERDICT_CI, put it in $dest first (ci/jenkins/README.md shows how)"
	exit 2
	;;
esac
exit 0

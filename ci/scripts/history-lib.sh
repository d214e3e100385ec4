# shellcheck shell=sh disable=SC2034
# history-lib.sh - the archive of main's points, shared by
# history-main.sh (the main job) and history-fetch.sh (the pull/merge
# request job).  Sourced after lib.sh, never run.
#
#   PERFVERDICT_HISTORY_STORE    branch (default) | dir
#     branch: the archive is a git branch of a remote, one commit per point
#     dir:    a directory the CI machine keeps (Jenkins: on the controller
#             or a shared volume), PERFVERDICT_HISTORY_DIR
#   PERFVERDICT_HISTORY_BRANCH   the branch (perfverdict-history)
#   PERFVERDICT_HISTORY_REMOTE   its remote URL (default: this checkout's
#                                origin; GitLab with a token: built from
#                                CI_SERVER_URL and CI_PROJECT_PATH)
#   PERFVERDICT_HISTORY_TOKEN    GitLab: a project access token for the push
#   PERFVERDICT_HISTORY_DIR      the dir store's directory
#   PERFVERDICT_HISTORY_KEEP     points kept, newest by name (200)
#   PERFVERDICT_HISTORY_GATE     fail (default) | warn | off
#   PERFVERDICT_HISTORY_RECENT   history --recent (3)
#   PERFVERDICT_HISTORY_IMPORT   BRANCH:PATH of a github-action-benchmark
#                                data.js the archive starts from
#   PERFVERDICT_HISTORY_JOB      auto (default) | main | pr
#   PERFVERDICT_HISTORY_DEFAULT_BRANCH  Jenkins/plain: the default branch (main)
#   PERFVERDICT_COMMIT           the commit measured (default: the CI's variable)
#
# A point is "<UTC time>-<short commit>.json.gz" at the archive's top
# level, so name order is time order; nothing else lives there.

pv_history_defaults() {
	: "${PERFVERDICT_HISTORY_STORE:=branch}" "${PERFVERDICT_HISTORY_BRANCH:=perfverdict-history}"
	: "${PERFVERDICT_HISTORY_REMOTE:=}" "${PERFVERDICT_HISTORY_TOKEN:=}"
	: "${PERFVERDICT_HISTORY_DIR:=}" "${PERFVERDICT_HISTORY_KEEP:=200}"
	: "${PERFVERDICT_HISTORY_GATE:=fail}" "${PERFVERDICT_HISTORY_RECENT:=3}"
	: "${PERFVERDICT_HISTORY_IMPORT:=}" "${PERFVERDICT_HISTORY_JOB:=auto}"
	: "${PERFVERDICT_HISTORY_DEFAULT_BRANCH:=main}"
	PV_HISTORY_WORK=$PERFVERDICT_OUTPUT_DIR/perfverdict-history
}

# pv_history_check: 0, or a message on stdout and 1 for a bad setting.
# Only the two stores exist: anything else (a package registry, a typo)
# is refused here, before any work, rather than half-configured.
pv_history_check() {
	case $PERFVERDICT_HISTORY_STORE in
	branch) ;;
	dir)
		[ -n "$PERFVERDICT_HISTORY_DIR" ] || {
			echo "history store 'dir' needs PERFVERDICT_HISTORY_DIR (a directory the CI machine keeps between builds)"
			return 1
		}
		;;
	*)
		echo "history store must be 'branch' (a git branch) or 'dir' (a kept directory), not '$PERFVERDICT_HISTORY_STORE'; a package registry is not supported: keep the archive on a branch"
		return 1
		;;
	esac
	case $PERFVERDICT_HISTORY_KEEP in
	'' | *[!0-9]* | 0 | 1 | 2) echo "history-keep must be a whole number of at least 3: '$PERFVERDICT_HISTORY_KEEP'"; return 1 ;;
	esac
	case $PERFVERDICT_HISTORY_GATE in
	fail | warn | off) ;;
	*) echo "history-gate must be fail, warn or off: '$PERFVERDICT_HISTORY_GATE'"; return 1 ;;
	esac
	case $PERFVERDICT_HISTORY_JOB in
	auto | main | pr) ;;
	*) echo "history job must be auto, main or pr: '$PERFVERDICT_HISTORY_JOB'"; return 1 ;;
	esac
	case $PERFVERDICT_HISTORY_IMPORT in
	'' | ?*:?*) ;;
	*) echo "history-import must be BRANCH:PATH (e.g. gh-pages:dev/bench/data.js): '$PERFVERDICT_HISTORY_IMPORT'"; return 1 ;;
	esac
	return 0
}

# pv_history_job: main (this run appends to the archive) or pr (it is
# gated on the archive), from the CI's variables unless set.
pv_history_job() {
	if [ "$PERFVERDICT_HISTORY_JOB" != auto ]; then
		echo "$PERFVERDICT_HISTORY_JOB"
		return
	fi
	case $PERFVERDICT_CI in
	github)
		pv_def=
		[ -f "${GITHUB_EVENT_PATH:-}" ] &&
			pv_def=$(pv_json_get "$GITHUB_EVENT_PATH" .repository.default_branch)
		if [ "${GITHUB_EVENT_NAME:-}" = push ] && [ -n "$pv_def" ] &&
			[ "${GITHUB_REF:-}" = "refs/heads/$pv_def" ]; then
			echo main
		else
			echo pr
		fi
		;;
	gitlab)
		if [ "${CI_PIPELINE_SOURCE:-}" != merge_request_event ] && [ -n "${CI_COMMIT_BRANCH:-}" ] &&
			[ "${CI_COMMIT_BRANCH:-}" = "${CI_DEFAULT_BRANCH:-}" ]; then
			echo main
		else
			echo pr
		fi
		;;
	*)
		if [ -z "${CHANGE_ID:-}" ] && [ "${BRANCH_NAME:-${GIT_BRANCH#origin/}}" = "$PERFVERDICT_HISTORY_DEFAULT_BRANCH" ]; then
			echo main
		else
			echo pr
		fi
		;;
	esac
}

# pv_history_commit: the full commit id measured.
pv_history_commit() {
	for pv_c in "${PERFVERDICT_COMMIT:-}" "${GITHUB_SHA:-}" "${CI_COMMIT_SHA:-}" "${GIT_COMMIT:-}"; do
		[ -n "$pv_c" ] && {
			echo "$pv_c"
			return
		}
	done
	git rev-parse HEAD 2>/dev/null || echo unknown
}

# pv_history_url: the remote the branch lives on.
pv_history_url() {
	if [ -n "$PERFVERDICT_HISTORY_REMOTE" ]; then
		echo "$PERFVERDICT_HISTORY_REMOTE"
	elif [ "$PERFVERDICT_CI" = gitlab ] && [ -n "$PERFVERDICT_HISTORY_TOKEN" ]; then
		pv_host=${CI_SERVER_URL:-https://gitlab.com}
		echo "${pv_host%%://*}://oauth2:${PERFVERDICT_HISTORY_TOKEN}@${pv_host#*://}/${CI_PROJECT_PATH:-}.git"
	else
		git remote get-url origin 2>/dev/null
	fi
}

# pv_hgit ARGS...: git in the archive's private repository, with the
# checkout's credentials (actions/checkout keeps them as an extraheader)
# and a committer of its own.
pv_hgit() {
	git -C "$PV_HREPO" -c user.name=perfverdict -c user.email=perfverdict@localhost \
		-c commit.gpgsign=false ${PV_HAUTH:+-c "$PV_HAUTH"} "$@"
}

# pv_history_repo DIR: an empty repository at DIR for the archive.
pv_history_repo() {
	PV_HREPO=$1
	rm -rf "$PV_HREPO"
	mkdir -p "$PV_HREPO" && git init -q "$PV_HREPO" || return 1
	PV_HAUTH=
	pv_h=$(git config --get-regexp '^http\..*\.extraheader$' 2>/dev/null | head -n 1)
	[ -n "$pv_h" ] && PV_HAUTH="${pv_h%% *}=${pv_h#* }"
	return 0
}

# pv_history_fetch URL: the branch's newest commit into the repository
# (depth 1).  0 fetched, 4 the branch does not exist, 1 an error.
pv_history_fetch() {
	pv_hgit ls-remote --exit-code --heads "$1" "$PERFVERDICT_HISTORY_BRANCH" >/dev/null 2>&1
	case $? in
	0) ;;
	2) return 4 ;;
	*)
		pv_log "cannot reach the history remote for branch '$PERFVERDICT_HISTORY_BRANCH'"
		return 1
		;;
	esac
	pv_hgit fetch -q --depth=1 "$1" "+refs/heads/$PERFVERDICT_HISTORY_BRANCH:refs/remotes/h/$PERFVERDICT_HISTORY_BRANCH" || return 1
	pv_hgit checkout -q -f --detach "refs/remotes/h/$PERFVERDICT_HISTORY_BRANCH" &&
		pv_hgit clean -q -f -d -x
}

# pv_history_points DIR: the number of points at DIR's top level.
pv_history_points() {
	find "$1" -maxdepth 1 -type f \( -name '*.json.gz' -o -name '*.json' \) 2>/dev/null | wc -l | tr -d ' '
}

# pv_history_prune DIR KEEP: remove the oldest points (by name) beyond
# KEEP; prints the names removed.
pv_history_prune() {
	pv_n=$(pv_history_points "$1")
	[ "$pv_n" -le "$2" ] && return 0
	find "$1" -maxdepth 1 -type f \( -name '*.json.gz' -o -name '*.json' \) -print | LC_ALL=C sort |
		head -n $((pv_n - $2)) | while IFS= read -r pv_f; do
		rm -f "$pv_f"
		basename "$pv_f"
	done
}

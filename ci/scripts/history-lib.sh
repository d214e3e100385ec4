# shellcheck shell=sh disable=SC2034,SC2016
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
#   PERFVERDICT_HISTORY_LOCK_TIMEOUT  seconds after which the dir store's
#                                lock is stale and broken (900)
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
# level, so name order is time order; nothing else lives there.  A name
# is never split on lines or read as an option: points are listed by
# glob, one whole name at a time, and passed after "--".

pv_history_defaults() {
	: "${PERFVERDICT_HISTORY_STORE:=branch}" "${PERFVERDICT_HISTORY_BRANCH:=perfverdict-history}"
	: "${PERFVERDICT_HISTORY_REMOTE:=}" "${PERFVERDICT_HISTORY_TOKEN:=}"
	: "${PERFVERDICT_HISTORY_DIR:=}" "${PERFVERDICT_HISTORY_KEEP:=200}"
	: "${PERFVERDICT_HISTORY_GATE:=fail}" "${PERFVERDICT_HISTORY_RECENT:=3}"
	: "${PERFVERDICT_HISTORY_IMPORT:=}" "${PERFVERDICT_HISTORY_JOB:=auto}"
	: "${PERFVERDICT_HISTORY_DEFAULT_BRANCH:=main}" "${PERFVERDICT_HISTORY_LOCK_TIMEOUT:=900}"
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
	case $PERFVERDICT_HISTORY_LOCK_TIMEOUT in
	'' | *[!0-9]* | 0) echo "history lock timeout must be a whole number of seconds: '$PERFVERDICT_HISTORY_LOCK_TIMEOUT'"; return 1 ;;
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

# pv_history_url: the remote the branch lives on, without credentials
# (GitLab's token goes in a header: pv_history_repo).
pv_history_url() {
	if [ -n "$PERFVERDICT_HISTORY_REMOTE" ]; then
		echo "$PERFVERDICT_HISTORY_REMOTE"
	elif [ "$PERFVERDICT_CI" = gitlab ] && [ -n "$PERFVERDICT_HISTORY_TOKEN" ]; then
		echo "${CI_SERVER_URL:-https://gitlab.com}/${CI_PROJECT_PATH:-}.git"
	else
		git remote get-url origin 2>/dev/null
	fi
}

# pv_hgit ARGS...: git in the archive's private repository, with the
# checkout's credentials (actions/checkout keeps them as an extraheader;
# GitLab: the project access token) and a committer of its own.  The
# credential reaches git through its environment (GIT_CONFIG_COUNT), never
# its command line, which any user of the machine can read (ps).
pv_hgit() {
	if [ -n "$PV_HAUTH_KEY" ]; then
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=$PV_HAUTH_KEY GIT_CONFIG_VALUE_0=$PV_HAUTH_VAL \
			git -C "$PV_HREPO" -c user.name=perfverdict -c user.email=perfverdict@localhost \
			-c commit.gpgsign=false "$@"
	else
		git -C "$PV_HREPO" -c user.name=perfverdict -c user.email=perfverdict@localhost \
			-c commit.gpgsign=false "$@"
	fi
}

# pv_history_repo DIR: an empty repository at DIR for the archive, and
# the credential for its remote (PV_HAUTH_KEY, PV_HAUTH_VAL).
pv_history_repo() {
	PV_HREPO=$1
	rm -rf -- "$PV_HREPO"
	mkdir -p -- "$PV_HREPO" && git init -q -- "$PV_HREPO" || return 1
	PV_HAUTH_KEY=
	PV_HAUTH_VAL=
	if [ "$PERFVERDICT_CI" = gitlab ] && [ -n "$PERFVERDICT_HISTORY_TOKEN" ] && [ -z "$PERFVERDICT_HISTORY_REMOTE" ]; then
		# printf is a builtin: the token is on no command line.
		PV_HAUTH_KEY="http.${CI_SERVER_URL:-https://gitlab.com}/.extraheader"
		PV_HAUTH_VAL="Authorization: Basic $(printf 'oauth2:%s' "$PERFVERDICT_HISTORY_TOKEN" | base64 | tr -d '\n')"
	else
		pv_h=$(git config --get-regexp '^http\..*\.extraheader$' 2>/dev/null | head -n 1)
		if [ -n "$pv_h" ]; then
			PV_HAUTH_KEY=${pv_h%% *}
			PV_HAUTH_VAL=${pv_h#* }
		fi
	fi
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

# pv_history_each DIR CMD [ARG...]: evaluates the shell command CMD once
# per point at DIR's top level, oldest first (name order, bytewise), with
# the point's path in $f and ARGs as $1..., in a shell of its own
# (LC_ALL=C, so the glob sorts bytewise in any sh).  A point is a regular
# file (not a link) whose name ends in .json or .json.gz.  CMD failing
# stops the walk.
pv_history_each() {
	LC_ALL=C sh -c '
		dir=$1 cmd=$2
		shift 2
		for f in "$dir"/*.json*; do
			case $f in *.json | *.json.gz) ;; *) continue ;; esac
			[ -f "$f" ] && [ ! -L "$f" ] || continue
			eval "$cmd" || exit 1
		done' sh "$@"
}

# pv_history_points DIR: the number of points at DIR's top level.
pv_history_points() {
	pv_history_each "$1" 'echo' | wc -l | tr -d ' '
}

# pv_history_newest DIR: the newest point's name, each byte outside
# [0-9A-Za-z._-] shown as '?'.
pv_history_newest() {
	pv_history_each "$1" 'printf "%s" "${f##*/}" | tr -c "0-9A-Za-z._-" "?"; echo' | tail -n 1
}

# pv_history_prune DIR KEEP: remove the oldest points (by name) beyond
# KEEP, inside DIR only; prints the names removed (as pv_history_newest).
pv_history_prune() {
	pv_n=$(pv_history_points "$1")
	[ "$pv_n" -le "$2" ] && return 0
	pv_history_each "$1" '
		[ "$1" -gt 0 ] || exit 0
		rm -f -- "$f" || exit 1
		set -- $(($1 - 1))
		printf "%s" "${f##*/}" | tr -c "0-9A-Za-z._-" "?"; echo' $((pv_n - $2))
}

# pv_history_snapshot DIR SNAP: SNAP (emptied first) gets DIR's points:
# hard links (cheap, and a point is never changed in place), else copies.
pv_history_snapshot() {
	rm -rf -- "$2" && mkdir -p -- "$2" || return 1
	pv_history_each "$1" 'ln -- "$f" "$1/" 2>/dev/null || cp -p -- "$f" "$1/"' "$2" || return 1
	[ "$(pv_history_points "$1")" = "$(pv_history_points "$2")" ]
}

# ---- the dir store's lock ------------------------------------------------------
# DIR/.lock is a directory (mkdir is atomic) holding "owner": host=,
# where= (boot and pid namespace: a pid means the same process only when
# both match), pid=, job= (the CI's run or job id), time= (seconds since
# the epoch).  A lock is stale when it is older than
# PERFVERDICT_HISTORY_LOCK_TIMEOUT seconds, or when its owner ran here
# (same host and namespace) and its process is gone; a stale lock is
# broken with a warning.  A live one is waited for, 120 s at most
# (PV_LOCK_WAIT, for the tests).

pv_lock_where() {
	printf '%s/%s' "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo -)" \
		"$(readlink /proc/self/ns/pid 2>/dev/null || echo -)"
}
pv_lock_me() {
	printf 'host=%s\nwhere=%s\npid=%s\njob=%s\ntime=%s\n' "$(uname -n 2>/dev/null || echo unknown)" \
		"$(pv_lock_where)" "$$" "${GITHUB_RUN_ID:-${CI_JOB_ID:-${BUILD_TAG:-none}}}" "$(date -u +%s)"
}
pv_lock_get() { # pv_lock_get OWNER-TEXT KEY
	printf '%s\n' "$1" | sed -n "s/^$2=//p" | head -n 1
}
# pv_lock_stale LOCK OWNER-TEXT: 0 and why on stdout when stale.
pv_lock_stale() {
	pv_now=$(date -u +%s)
	pv_t=$(pv_lock_get "$2" time)
	case $pv_t in
	'' | *[!0-9]*) pv_t=$(stat -c %Y -- "$1" 2>/dev/null) || pv_t=$pv_now ;;
	esac
	if [ $((pv_now - pv_t)) -gt "$PERFVERDICT_HISTORY_LOCK_TIMEOUT" ]; then
		echo "it is $((pv_now - pv_t)) s old, more than PERFVERDICT_HISTORY_LOCK_TIMEOUT ($PERFVERDICT_HISTORY_LOCK_TIMEOUT s)"
		return 0
	fi
	pv_p=$(pv_lock_get "$2" pid)
	case $pv_p in '' | *[!0-9]*) return 1 ;; esac
	[ "$(pv_lock_get "$2" host)" = "$(uname -n 2>/dev/null || echo unknown)" ] || return 1
	[ "$(pv_lock_get "$2" where)" = "$(pv_lock_where)" ] || return 1
	case $(pv_lock_get "$2" where) in */- | -/*) return 1 ;; esac
	[ -d "/proc/$pv_p" ] && return 1
	echo "its owner, process $pv_p on this host, is gone"
	return 0
}
pv_lock_desc() { # pv_lock_desc OWNER-TEXT: who holds it, for messages
	printf 'job %s, process %s on %s, since %s' "$(pv_lock_get "$1" job)" "$(pv_lock_get "$1" pid)" \
		"$(pv_lock_get "$1" host)" "$(date -u -d "@$(pv_lock_get "$1" time)" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo '?')"
}

# pv_history_lock DIR: 0 with DIR/.lock held (PV_LOCK), 1 after a message
# on stderr (still locked after 120 s), 2 when DIR/.lock cannot be made
# at all (no write access: the caller may read without it).
pv_history_lock() {
	pv_lk=$1/.lock
	pv_i=0
	while :; do
		if mkdir -- "$pv_lk" 2>/dev/null; then
			pv_lock_me >"$pv_lk/owner.$$" && mv -f -- "$pv_lk/owner.$$" "$pv_lk/owner"
			PV_LOCK=$pv_lk
			return 0
		fi
		[ -d "$pv_lk" ] || [ "$pv_i" -gt 2 ] || {
			pv_i=$((pv_i + 1))
			continue
		}
		[ -d "$pv_lk" ] || return 2
		pv_o=$(cat -- "$pv_lk/owner" 2>/dev/null) || pv_o=
		if pv_why=$(pv_lock_stale "$pv_lk" "$pv_o"); then
			# Break it by renaming: one job wins; the loser re-checks.
			if mv -- "$pv_lk" "$pv_lk.stale.$$" 2>/dev/null; then
				if [ "$(cat -- "$pv_lk.stale.$$/owner" 2>/dev/null)" = "$pv_o" ]; then
					rm -rf -- "$pv_lk.stale.$$"
					pv_log "warning: broke the stale lock $pv_lk ($(pv_lock_desc "$pv_o")): $pv_why"
				elif [ ! -e "$pv_lk" ]; then
					mv -- "$pv_lk.stale.$$" "$pv_lk" 2>/dev/null
				fi
			fi
			continue
		fi
		pv_i=$((pv_i + 1))
		if [ "$pv_i" -ge "${PV_LOCK_WAIT:-120}" ]; then
			pv_log "$pv_lk is held by $(pv_lock_desc "$pv_o"); waited $pv_i s (it is broken after PERFVERDICT_HISTORY_LOCK_TIMEOUT, $PERFVERDICT_HISTORY_LOCK_TIMEOUT s, or once its process is gone)"
			return 1
		fi
		sleep 1
	done
}
pv_history_unlock() {
	[ -n "${PV_LOCK:-}" ] || return 0
	rm -rf -- "$PV_LOCK"
	PV_LOCK=
}

#!/bin/sh
# history-main.sh - the main job: keep the archive of the default
# branch's points and gate on its change points.  The same on every CI
# system (gate.sh runs it when PERFVERDICT_BASELINE=history on the
# default branch; settings in history-lib.sh and lib.sh).
#
#   1. compare --save-point FILE CANDIDATE: the run's point,
#      OUTPUT_DIR/<UTC time>-<short commit>.json.gz (its name is fixed
#      once, so a retry can never add it twice);
#   2. fetch the archive (a branch, depth 1; or the kept directory); when
#      the branch does not exist yet, start it, from PERFVERDICT_HISTORY_IMPORT's
#      data.js when set (history --save-points);
#   3. add the point, prune to PERFVERDICT_HISTORY_KEEP (the oldest by
#      name go), commit and push; when another job pushed first, fetch
#      again, re-apply the point and retry (5 times);
#   4. history over the archive: OUTPUT_DIR/perfverdict-history.{md,json};
#      the Markdown goes to the GitHub job summary; a regression that
#      began in the newest PERFVERDICT_HISTORY_RECENT points is an error
#      annotation naming it, and fails the job unless
#      PERFVERDICT_HISTORY_GATE is warn or off.
#
# Exit status: 0 pass (or an archive too short to judge, said in the
# summary), 1 a recent regression (gate fail), 2 usage or config error,
# 3 input error, 5 the archive could not be pushed.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=history-lib.sh
. "$(dirname "$0")/history-lib.sh"

pv_defaults
pv_history_defaults
OUT=$PERFVERDICT_OUTPUT_DIR
HMD=$OUT/perfverdict-history.md
HJSON=$OUT/perfverdict-history.json

summary() { # summary TEXT: the GitHub job summary (and the log)
	pv_log "$1"
	if [ "$PERFVERDICT_CI" = github ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		printf '%s\n\n' "$1" >>"$GITHUB_STEP_SUMMARY"
	fi
}
finish() { # finish STATUS VERDICT
	{
		echo "PERFVERDICT_STATUS=$1"
		echo "PERFVERDICT_VERDICT=$2"
		echo "PERFVERDICT_POINT=${name:-}"
	} >"$PV_ENVFILE"
	if [ "$PERFVERDICT_CI" = github ] && [ -n "${GITHUB_OUTPUT:-}" ]; then
		{
			echo "status=$1"
			echo "verdict=$2"
			echo "point=${name:-}"
			echo "history-markdown=$([ -f "$HMD" ] && echo "$HMD")"
			echo "history-json=$([ -f "$HJSON" ] && echo "$HJSON")"
		} >>"$GITHUB_OUTPUT"
	fi
	exit "$1"
}
die() { # die STATUS MESSAGE
	pv_annotate error "" "" "$2"
	summary "### perfverdict history: error

$2"
	finish "$1" error
}

mkdir -p -- "$OUT" || exit 2
rm -f -- "$HMD" "$HJSON" "$PV_ENVFILE"
msg=$(pv_history_check) || die 2 "$msg"
# GitLab's job token can read the repository, not push: refuse before
# any work rather than fail at the push.
if [ "$PERFVERDICT_CI" = gitlab ] && [ "$PERFVERDICT_HISTORY_STORE" = branch ] &&
	[ -z "$PERFVERDICT_HISTORY_TOKEN" ] && [ -z "$PERFVERDICT_HISTORY_REMOTE" ]; then
	die 2 "GitLab: the main job pushes the history branch with a project access token: create one (role Developer, scope write_repository) and set it as the masked variable PERFVERDICT_HISTORY_TOKEN; CI_JOB_TOKEN cannot push"
fi
[ -n "$PERFVERDICT_CANDIDATE" ] || die 2 "the candidate tree is required (PERFVERDICT_CANDIDATE)"
pv_find_binary || pv_ensure_binary || die 2 "perfverdict not found: put it on PATH or set PERFVERDICT_BIN"
[ -n "${PV_BIN:-}" ] || PV_BIN=$PERFVERDICT_BIN


# ---- 1. the point ------------------------------------------------------------
commit=$(pv_history_commit)
# The name holds only [0-9A-Za-z._-]: the commit id comes from the CI.
short=$(printf '%s' "$commit" | LC_ALL=C tr -cd '0-9A-Za-z' | cut -c 1-7)
[ -n "$short" ] || short=unknown
epoch=${SOURCE_DATE_EPOCH:-$(date -u +%s)}
stamp=$(date -u -d "@$epoch" +%Y-%m-%dT%H%M%SZ 2>/dev/null) || stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
name=$stamp-$short.json.gz
point=$OUT/$name
set -- compare
[ -n "$PERFVERDICT_CONFIG" ] && set -- "$@" --config "$PERFVERDICT_CONFIG"
[ -n "$PERFVERDICT_SUITE" ] && set -- "$@" --suite "$PERFVERDICT_SUITE"
[ -n "$PERFVERDICT_FORMAT" ] && set -- "$@" --format "$PERFVERDICT_FORMAT"
set -- "$@" --candidate-label "$short" --save-point "$point" -q \
	"$PERFVERDICT_CANDIDATE"
pv_log "$PV_BIN $*"
SOURCE_DATE_EPOCH=$epoch GITHUB_SHA=$commit "$PV_BIN" "$@" >/dev/null 2>"$OUT/perfverdict-point.err"
rc=$?
# One tree: compare writes its point and judges nothing, so every line
# it prints (a warning, an error) is worth showing.
cat "$OUT/perfverdict-point.err" >&2
if [ "$rc" -ne 0 ] || [ ! -f "$point" ]; then
	st=3
	[ "$rc" -eq 2 ] && st=2
	die "$st" "perfverdict could not write the point of $PERFVERDICT_CANDIDATE (compare exit $rc)"
fi

# ---- 2-3. the archive ------------------------------------------------------
import_into() { # import_into DIR: the data.js of PERFVERDICT_HISTORY_IMPORT as points
	ibranch=${PERFVERDICT_HISTORY_IMPORT%%:*}
	ipath=${PERFVERDICT_HISTORY_IMPORT#*:}
	pv_hgit fetch -q --depth=1 "$url" "+refs/heads/$ibranch:refs/remotes/i/$ibranch" ||
		{ pv_log "history-import: cannot fetch branch '$ibranch'"; return 1; }
	pv_hgit show "refs/remotes/i/$ibranch:$ipath" >"$OUT/perfverdict-import.js" ||
		{ pv_log "history-import: no '$ipath' on branch '$ibranch'"; return 1; }
	"$PV_BIN" history --save-points "$1" -q "$OUT/perfverdict-import.js" >/dev/null
	[ $? -le 1 ] || { pv_log "history-import: perfverdict could not read '$ipath'"; return 1; }
	pv_log "history-import: the archive starts from $(pv_history_points "$1") commits of $ibranch:$ipath"
}

apply() { # apply DIR: the point in, the oldest out; prints what changed
	# Copied under a temporary name and renamed: a reader never sees
	# half a point.
	if [ ! -f "$1/$name" ]; then
		if ! { cp -- "$point" "$1/.pv-new-$$-$name" && mv -f -- "$1/.pv-new-$$-$name" "$1/$name"; }; then
			rm -f -- "$1/.pv-new-$$-$name"
			return 1
		fi
	fi
	pv_history_prune "$1" "$PERFVERDICT_HISTORY_KEEP" | sed 's/^/pruned /'
}

archive=
case $PERFVERDICT_HISTORY_STORE in
dir)
	archive=$PERFVERDICT_HISTORY_DIR
	mkdir -p -- "$archive" || die 2 "cannot create the history directory $archive"
	# One job at a time (history-lib.sh: a stale lock is broken); history
	# then reads a snapshot taken under the lock.
	pv_history_lock "$archive" || die 5 "the history directory $archive stays locked ($archive/.lock)"
	trap 'pv_history_unlock' EXIT
	trap 'exit 130' INT TERM HUP
	if [ "$(pv_history_points "$archive")" = 0 ] && [ -n "$PERFVERDICT_HISTORY_IMPORT" ]; then
		pv_history_repo "$OUT/perfverdict-import-repo" && url=$(pv_history_url) && import_into "$archive"
	fi
	apply "$archive" >&2 || die 5 "cannot add $name to the history directory $archive"
	pv_history_snapshot "$archive" "$PV_HISTORY_WORK" || die 5 "cannot copy the history directory $archive to $PV_HISTORY_WORK"
	pv_history_unlock
	archive=$PV_HISTORY_WORK
	;;
branch)
	url=$(pv_history_url)
	[ -n "$url" ] || die 2 "no remote for the history branch: set PERFVERDICT_HISTORY_REMOTE (or run in a git checkout with an origin)"
	pv_history_repo "$PV_HISTORY_WORK" || die 2 "cannot create $PV_HISTORY_WORK"
	archive=$PV_HISTORY_WORK
	tries=0
	while :; do
		tries=$((tries + 1))
		pv_history_fetch "$url"
		case $? in
		0) ;;
		4)
			# A new archive: an orphan branch, maybe from an import.
			pv_hgit checkout -q --orphan "pv-$$-$tries" 2>/dev/null || pv_hgit checkout -q -f --orphan "pv-$$-$tries"
			pv_hgit rm -q -r -f --cached . >/dev/null 2>&1
			pv_hgit clean -q -f -d -x
			[ -n "$PERFVERDICT_HISTORY_IMPORT" ] && { import_into "$archive" || pv_log "history-import failed; the archive starts empty"; }
			;;
		*) die 5 "cannot fetch the history branch '$PERFVERDICT_HISTORY_BRANCH'" ;;
		esac
		changes=$(apply "$archive") || die 5 "cannot add $name to the history branch"
		[ -n "$changes" ] && pv_log "$changes"
		if ! pv_hgit add -A .; then
			die 5 "cannot add the point to the history branch"
		fi
		if ! pv_hgit diff --cached --quiet; then
			pv_hgit commit -q -m "perfverdict: add $name${changes:+ ($(printf '%s\n' "$changes" | grep -c pruned) pruned)}" ||
				die 5 "cannot commit the point to the history branch"
		fi
		if pv_hgit push -q "$url" "HEAD:refs/heads/$PERFVERDICT_HISTORY_BRANCH" 2>"$OUT/perfverdict-push.err"; then
			pv_log "history: $name pushed to $PERFVERDICT_HISTORY_BRANCH (attempt $tries)"
			break
		fi
		[ "$tries" -lt 5 ] || die 5 "cannot push the history branch '$PERFVERDICT_HISTORY_BRANCH' after $tries attempts: $(head -n 3 "$OUT/perfverdict-push.err")"
		pv_log "history: the push was rejected (another job pushed first?); fetching and re-applying $name"
		sleep "$(awk -v s="$$" -v t="$tries" 'BEGIN { srand(s + t); printf "%.1f", 0.2 + rand() * t }')"
	done
	;;
esac

# ---- 4. history --------------------------------------------------------------
n=$(pv_history_points "$archive")
if [ "$n" -lt 3 ]; then
	summary "### perfverdict history: $n point$([ "$n" = 1 ] || echo s) so far

The archive ($PERFVERDICT_HISTORY_STORE $([ "$PERFVERDICT_HISTORY_STORE" = branch ] && echo "$PERFVERDICT_HISTORY_BRANCH" || echo "$PERFVERDICT_HISTORY_DIR")) needs 3 points before change points can be found; $name was added."
	finish 0 pass
fi
set -- history
[ -n "$PERFVERDICT_CONFIG" ] && set -- "$@" --config "$PERFVERDICT_CONFIG"
[ -n "$PERFVERDICT_SUITE" ] && set -- "$@" --suite "$PERFVERDICT_SUITE"
[ -n "$PERFVERDICT_FORMAT" ] && set -- "$@" --format "$PERFVERDICT_FORMAT"
set -- "$@" --recent "$PERFVERDICT_HISTORY_RECENT" --json "$HJSON" --markdown "$HMD" "$archive"
pv_log "$PV_BIN $*"
"$PV_BIN" "$@" >/dev/null 2>"$OUT/perfverdict-history.err"
hs=$?
cat "$OUT/perfverdict-history.err" >&2
case $hs in
0 | 1) ;;
*) die "$([ "$hs" -le 3 ] && echo "$hs" || echo 2)" "perfverdict history failed (exit $hs): $(grep -v 'warning:' "$OUT/perfverdict-history.err" | head -n 3 | sed 's/^perfverdict: //')" ;;
esac
if [ "$PERFVERDICT_CI" = github ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$HMD" ]; then
	have=0
	[ -f "$GITHUB_STEP_SUMMARY" ] && have=$(wc -c <"$GITHUB_STEP_SUMMARY" | tr -d ' ')
	sh "$PV_SCRIPTS/truncate-summary.sh" -n "the full history is $HJSON" \
		$((1048576 - 4096 - ${have:-0})) "$HMD" >>"$GITHUB_STEP_SUMMARY"
fi
[ "$hs" = 0 ] && {
	pv_log "history: no regression in the newest $PERFVERDICT_HISTORY_RECENT of $n points"
	finish 0 pass
}

# The regressions that began in the recent window, by name and point.
found=$(pv_json_flat "$HJSON" | awk -F '\t' '
	function un(s) { if (s ~ /^".*"$/) s = substr(s, 2, length(s) - 2); return s }
	$2 ~ /^\.metrics\[[0-9]+\]\.id$/ { m = $2; sub(/\.id$/, "", m); id[m] = un($3) }
	$2 ~ /^\.metrics\[[0-9]+\]\.change_points\[[0-9]+\]\.[a-z_]+$/ {
		c = $2; k = c; sub(/\.[a-z_]+$/, "", c); sub(/.*\./, "", k)
		if (!(c in seen)) { seen[c] = 1; order[++n] = c }
		v[c, k] = un($3)
	}
	END {
		for (i = 1; i <= n; i++) {
			c = order[i]; m = c; sub(/\.change_points.*/, "", m)
			if (v[c, "verdict"] == "regression" && v[c, "recent"] == "true" &&
			    v[c, "beyond_threshold"] == "true" && v[c, "waived"] != "true")
				printf "%s %+.1f%% at %s%s\n", id[m], v[c, "rel"] * 100, v[c, "label"],
					v[c, "commit"] != "" ? " (commit " v[c, "commit"] ")" : ""
		}
	}')
[ -n "$found" ] || found="a regression (see $HMD)"
list=$(printf '%s\n' "$found" | head -n 5 | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
case $PERFVERDICT_HISTORY_GATE in
fail)
	pv_annotate error "" "" "performance regression in main's history, beginning in the newest $PERFVERDICT_HISTORY_RECENT points: $list"
	finish 1 fail
	;;
warn)
	pv_annotate warning "" "" "performance regression in main's history (history-gate: warn): $list"
	finish 0 warn
	;;
*)
	pv_log "history-gate off: $list"
	finish 0 pass
	;;
esac

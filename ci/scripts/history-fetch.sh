#!/bin/sh
# history-fetch.sh - the pull/merge request job's baseline: the archive
# of the default branch's points (history-lib.sh), fetched shallowly
# (depth 1) into OUTPUT_DIR/perfverdict-history, or the kept directory.
# gate.sh runs it when PERFVERDICT_BASELINE=history; compare then pools
# the baseline from it (--baseline-history).
#
# The last line of stdout says what was found (gate.sh puts it in the
# job summary).  Exit status: 0 the archive is there with at least 3
# points (its path is the line before the last), 4 no archive yet or too
# short to pool (the missing-baseline policy decides), 2 a bad setting,
# 1 a fetch error.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=history-lib.sh
. "$(dirname "$0")/history-lib.sh"

pv_defaults
pv_history_defaults
msg=$(pv_history_check) || {
	echo "$msg"
	exit 2
}
mkdir -p "$PERFVERDICT_OUTPUT_DIR" || exit 1
if [ "$PERFVERDICT_HISTORY_STORE" = dir ]; then
	where="the history directory $PERFVERDICT_HISTORY_DIR"
	archive=$PV_HISTORY_WORK
	rm -rf -- "$archive"
	mkdir -p -- "$archive" || exit 1
	# A snapshot taken under the main job's lock (hard links, or copies):
	# never a set of points in the middle of an update.
	if [ -d "$PERFVERDICT_HISTORY_DIR" ]; then
		pv_history_lock "$PERFVERDICT_HISTORY_DIR"
		case $? in
		0)
			trap 'pv_history_unlock' EXIT
			trap 'exit 130' INT TERM HUP
			;;
		2) pv_log "warning: cannot lock $where (no write access?); reading it unlocked" ;;
		*)
			echo "$where stays locked"
			exit 1
			;;
		esac
		pv_history_snapshot "$PERFVERDICT_HISTORY_DIR" "$archive" || {
			echo "cannot copy $where to $archive"
			exit 1
		}
		pv_history_unlock
	fi
else
	url=$(pv_history_url)
	where="the history branch '$PERFVERDICT_HISTORY_BRANCH'"
	[ -n "$url" ] || {
		echo "no remote for $where: set PERFVERDICT_HISTORY_REMOTE"
		exit 1
	}
	pv_history_repo "$PV_HISTORY_WORK" || exit 1
	archive=$PV_HISTORY_WORK
	pv_history_fetch "$url"
	case $? in
	0) ;;
	4)
		echo "$where does not exist yet: the main job creates it on its first push to the default branch"
		exit 4
		;;
	*)
		echo "cannot fetch $where"
		exit 1
		;;
	esac
fi
n=$(pv_history_points "$archive")
if [ "$n" -lt 3 ]; then
	echo "$where has $n point$([ "$n" = 1 ] || echo s); pooling a baseline needs at least 3 (each push to the default branch adds one)"
	exit 4
fi
echo "$archive"
echo "baseline pooled from $where ($n points, newest $(pv_history_newest "$archive"))"
exit 0

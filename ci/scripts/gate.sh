#!/bin/sh
# gate.sh - the whole perfverdict CI step, the same on every CI system:
#   1. find perfverdict (PERFVERDICT_BIN, PATH, this checkout's build/),
#      or build this checkout with make after install-deps.sh --build-only
#      (unless PERFVERDICT_BUILD=never);
#   2. with PERFVERDICT_BASELINE=history: on the default branch run
#      history-main.sh (append the point to the archive, gate on its
#      change points) and stop; elsewhere fetch the archive
#      (history-fetch.sh) and compare against its pooled points; an
#      archive that is missing or too short is a missing baseline (below);
#      with PERFVERDICT_BASELINE_ARTIFACT (GitHub) or PERFVERDICT_BASELINE_JOB
#      (GitLab) and no baseline tree yet: fetch-baseline.sh downloads the
#      default branch's last one; when there is none yet (the first pull
#      request) PERFVERDICT_MISSING_BASELINE decides: skip (a notice, the
#      gate passes, the summary says why) or fail (exit 3, with the command
#      that creates the baseline);
#   3. run-gate.sh: compare, the three reports, outputs, annotations,
#      the GitHub step summary;
#   4. upsert-comment.sh: the PR/MR comment, per the comment policy (on
#      GitHub and GitLab; it never changes the gate status);
#   5. exit with the gate status: 0 pass, 1 regression, 2 usage/config
#      error (or no usable binary), 3 input error.  With --no-fail exit 0
#      and leave the status in the outputs (GitHub: steps.ID.outputs.status;
#      everywhere: OUTPUT_DIR/perfverdict.env).
#
# Usage: gate.sh [options] [BASELINE CANDIDATE]
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

pv_parse_args "$@"
parsed=$?
if [ "$parsed" = 3 ]; then
	pv_help
	pv_usage_common
	exit 0
fi
[ "$parsed" = 0 ] || pv_defaults
no_fail=$PV_NO_FAIL
PV_NO_FAIL=0
export PV_NO_FAIL

# The default branch's history job checks its settings (the push token)
# before it builds anything: history-main.sh finds or builds the binary.
history_main=0
if [ "$parsed" = 0 ] && [ "$PERFVERDICT_BASELINE" = history ]; then
	# shellcheck source-path=SCRIPTDIR source=history-lib.sh
	. "$PV_SCRIPTS/history-lib.sh"
	pv_history_defaults
	[ "$(pv_history_job)" = main ] && history_main=1
fi
if [ "$parsed" = 0 ] && [ "$history_main" = 0 ] && ! pv_ensure_binary; then
	pv_log "could not find or build perfverdict"
fi

# The baseline from the default branch's artifacts, unless it is here.
PV_BASELINE_STATE=
PV_BASELINE_NOTE=
# PERFVERDICT_BASELINE=history: the default branch's job keeps the
# archive of points and gates on its change points (history-main.sh);
# any other run is gated on a baseline pooled from it (history-fetch.sh).
if [ "$parsed" = 0 ] && [ "$PERFVERDICT_BASELINE" = history ]; then
	if [ "$history_main" = 1 ]; then
		sh "$PV_SCRIPTS/history-main.sh"
		status=$?
		[ "$no_fail" = 1 ] && exit 0
		exit "$status"
	fi
	notef=$(mktemp) || exit 2
	sh "$PV_SCRIPTS/history-fetch.sh" >"$notef"
	case $? in
	0)
		PV_BASELINE_STATE=fetched
		PERFVERDICT_BASELINE_HISTORY=$(tail -n 2 "$notef" | head -n 1)
		export PERFVERDICT_BASELINE_HISTORY
		;;
	4) PV_BASELINE_STATE=missing ;;
	*) PV_BASELINE_STATE=error ;;
	esac
	PV_BASELINE_NOTE=$(tail -n 1 "$notef")
	rm -f "$notef"
elif [ "$parsed" = 0 ] && [ -n "${PERFVERDICT_BASELINE_ARTIFACT:-}${PERFVERDICT_BASELINE_JOB:-}" ]; then
	if [ -d "$PERFVERDICT_BASELINE" ] && [ -n "$(ls -A "$PERFVERDICT_BASELINE" 2>/dev/null)" ]; then
		pv_log "baseline: $PERFVERDICT_BASELINE is already here; not downloading it"
	else
		notef=$(mktemp) || exit 2
		sh "$PV_SCRIPTS/fetch-baseline.sh" >"$notef"
		case $? in
		0) PV_BASELINE_STATE=fetched ;;
		4) PV_BASELINE_STATE=missing ;;
		*) PV_BASELINE_STATE=error ;;
		esac
		PV_BASELINE_NOTE=$(tail -n 1 "$notef")
		rm -f "$notef"
	fi
fi
export PV_BASELINE_STATE PV_BASELINE_NOTE

# run-gate.sh gets the same arguments (bad ones fail there the same way,
# with the outputs written), less --no-fail: it must report the status.
for a in "$@"; do
	shift
	[ "$a" = --no-fail ] || set -- "$@" "$a"
done
sh "$PV_SCRIPTS/run-gate.sh" "$@"
status=$?

PERFVERDICT_STATUS=$status
export PERFVERDICT_STATUS
sh "$PV_SCRIPTS/upsert-comment.sh" || pv_log "comment step ended with status $?"

[ "$no_fail" = 1 ] && exit 0
exit "$status"

#!/bin/sh
# gate.sh - the whole perfverdict CI step, the same on every CI system:
#   1. find perfverdict (PERFVERDICT_BIN, PATH, this checkout's build/),
#      or build this checkout with make after install-deps.sh --build-only
#      (unless PERFVERDICT_BUILD=never);
#   2. run-gate.sh: compare, the three reports, outputs, annotations,
#      the GitHub step summary;
#   3. upsert-comment.sh: the PR/MR comment, per the comment policy (on
#      GitHub and GitLab; it never changes the gate status);
#   4. exit with the gate status: 0 pass, 1 regression, 2 usage/config
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

if [ "$parsed" = 0 ] && ! pv_ensure_binary; then
	pv_log "could not find or build perfverdict"
fi

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

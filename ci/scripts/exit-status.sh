#!/bin/sh
# exit-status.sh - end a CI step with the gate status recorded earlier.
#
# Usage: exit-status.sh STATUS [VERDICT]
#
# Exits STATUS when it is 0, 1, 2 or 3.  Anything else (empty: the step
# that should have recorded it never did) is a tool error: an error
# annotation and exit 2, never a pass.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
pv_defaults

status=${1:-}
verdict=${2:-}
case $status in
0) pv_log "verdict: pass" ;;
1) pv_log "verdict: fail (regression)" ;;
2 | 3) pv_log "verdict: error ($(pv_status_name "$status"), exit $status)" ;;
*)
	pv_annotate error "" "" "perfverdict recorded no gate status (got '$status'${verdict:+, verdict $verdict}); the step that runs compare failed"
	exit 2
	;;
esac
exit "$status"

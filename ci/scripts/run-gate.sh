#!/bin/sh
# run-gate.sh - run `perfverdict compare`, write the three reports, map
# the exit status, and speak the CI system's dialect.
#
# Usage: run-gate.sh [options] [BASELINE CANDIDATE]
#
# Writes into the output directory (old copies are removed first, so a
# failed run never leaves a stale report behind):
#   perfverdict-report.json   perfverdict-junit.xml   perfverdict-report.md
#   perfverdict.env           PERFVERDICT_STATUS/VERDICT/REGRESSIONS (dotenv)
#
# Exit status (the gate status; with --no-fail always 0):
#   0  the gate passed                      verdict=pass
#      or was skipped: no baseline yet      verdict=skipped
#      (PV_BASELINE_STATE=missing from gate.sh, PERFVERDICT_MISSING_BASELINE=skip)
#   1  at least one regression              verdict=fail
#   2  usage or config error, and also a missing or crashed binary
#   3  input error (unreadable tree, malformed file, no samples)
# On 2 and 3 an error annotation is printed: "::error file=...::" on
# GitHub, "file:line: error: ..." elsewhere.  A tool error never passes.
#
# GitHub dialect extras: step outputs (status, verdict, regressions,
# report-json, report-junit, report-markdown) go to $GITHUB_OUTPUT, and the
# Markdown is appended to $GITHUB_STEP_SUMMARY under its 1 MiB limit.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	pv_help
	pv_usage_common
}

pv_parse_args "$@"
parsed=$?
if [ "$parsed" = 3 ]; then
	usage
	exit 0
fi
[ "$parsed" = 0 ] || pv_defaults

# GitHub step-summary budget: 1 MiB per step, less what is already there
# and some headroom for the lines we add ourselves.
SUMMARY_MAX=1048576
SUMMARY_HEADROOM=4096

errf=$(mktemp) || exit 2
trap 'rm -f "$errf"' EXIT

status=
ann_file=
ann_line=
message=

fail_setup() { # fail_setup MESSAGE [FILE]: a usage/config error before compare
	status=2
	message=$1
	ann_file=${2:-}
}

# ---- 1. check the inputs -------------------------------------------------
[ "$parsed" = 0 ] || fail_setup "run-gate.sh: bad arguments (see the log; --help lists them)"
if [ -z "$status" ] && { [ -z "$PERFVERDICT_BASELINE" ] || [ -z "$PERFVERDICT_CANDIDATE" ]; }; then
	fail_setup "baseline and candidate are required (PERFVERDICT_BASELINE, PERFVERDICT_CANDIDATE)"
fi
case $PERFVERDICT_MARKDOWN_LIMIT in
'' | *[!0-9]*) [ -n "$status" ] || fail_setup "markdown limit must be a number: $PERFVERDICT_MARKDOWN_LIMIT" ;;
esac
case $PERFVERDICT_COMMENT in
on-regression | always | never) ;;
*) [ -n "$status" ] || fail_setup "comment policy must be on-regression, always or never: $PERFVERDICT_COMMENT" ;;
esac
case $PERFVERDICT_MISSING_BASELINE in
skip | fail) ;;
*) [ -n "$status" ] || fail_setup "missing-baseline policy must be skip or fail: $PERFVERDICT_MISSING_BASELINE" ;;
esac
# What gate.sh's download of the baseline found (fetch-baseline.sh).
skipped=0
if [ -z "$status" ]; then
	case ${PV_BASELINE_STATE:-} in
	missing)
		if [ "$PERFVERDICT_MISSING_BASELINE" = skip ]; then
			status=0
			skipped=1
		else
			status=3
			message=$PV_BASELINE_NOTE
			ann_file=$PERFVERDICT_BASELINE
		fi
		;;
	error) fail_setup "cannot download the baseline: $PV_BASELINE_NOTE" ;;
	esac
fi
if [ -z "$status" ] && [ "$PERFVERDICT_BASELINE" = history ] && [ -z "${PERFVERDICT_BASELINE_HISTORY:-}" ]; then
	fail_setup "baseline 'history' needs the archive fetched first: run gate.sh, or set PERFVERDICT_BASELINE_HISTORY"
fi
if [ -z "$status" ] && ! pv_find_binary; then
	fail_setup "perfverdict not found: put it on PATH or set PERFVERDICT_BIN${PERFVERDICT_BIN:+ (now $PERFVERDICT_BIN)}"
fi

if ! mkdir -p "$PERFVERDICT_OUTPUT_DIR" 2>/dev/null; then
	pv_annotate error "$PERFVERDICT_OUTPUT_DIR" "" "cannot create the output directory"
	[ "$PV_NO_FAIL" = 1 ] && exit 0
	exit 2
fi
rm -f "$PV_JSON" "$PV_JUNIT" "$PV_MD" "$PV_ENVFILE"

# ---- 2. run compare ----------------------------------------------------------
if [ -z "$status" ]; then
	set -- compare
	[ -n "$PERFVERDICT_CONFIG" ] && set -- "$@" --config "$PERFVERDICT_CONFIG"
	[ -n "$PERFVERDICT_SUITE" ] && set -- "$@" --suite "$PERFVERDICT_SUITE"
	[ -n "$PERFVERDICT_FORMAT" ] && set -- "$@" --format "$PERFVERDICT_FORMAT"
	set -- "$@" --json "$PV_JSON" --junit "$PV_JUNIT" --markdown "$PV_MD"
	[ "$PERFVERDICT_MARKDOWN_LIMIT" -gt 0 ] && set -- "$@" --markdown-limit "$PERFVERDICT_MARKDOWN_LIMIT"
	# Extra flags: split on blanks, no globbing, no quote processing.
	set -f
	# shellcheck disable=SC2086
	for a in $PERFVERDICT_ARGS; do set -- "$@" "$a"; done
	set +f
	if [ "$PERFVERDICT_BASELINE" = history ]; then
		# Pooled from the archive gate.sh fetched (history-fetch.sh).
		set -- "$@" --baseline-history "${PERFVERDICT_BASELINE_HISTORY:-}" "$PERFVERDICT_CANDIDATE"
	else
		set -- "$@" "$PERFVERDICT_BASELINE" "$PERFVERDICT_CANDIDATE"
	fi

	pv_log "$PV_BIN $*"
	"$PV_BIN" "$@" 2>"$errf"
	raw=$?
	# On a tool error outside GitHub, the error lines are printed once,
	# in the annotation below; warnings are shown here.
	if [ "$PERFVERDICT_CI" != github ] && [ "$raw" -ge 2 ] && [ "$raw" -le 3 ]; then
		grep -v '^perfverdict: error: ' "$errf" >&2
	else
		cat "$errf" >&2
	fi
	case $raw in
	0 | 1 | 2 | 3) status=$raw ;;
	126 | 127)
		status=2
		message="perfverdict could not be run ($PV_BIN, status $raw)"
		ann_file=$PV_BIN
		;;
	*)
		status=2
		message="perfverdict ended abnormally (status $raw$([ "$raw" -gt 128 ] && echo ", signal $((raw - 128))"))"
		;;
	esac
	if [ "$status" -ge 2 ] && [ -z "$message" ]; then
		# perfverdict says "perfverdict: error: FILE:LINE[:COL]: text" or
		# "... cannot read tree 'PATH'": name that file in the annotation.
		first=$(grep -v '^[[:space:]]*$' "$errf" | grep -v '^perfverdict: warning: ' | head -n 5 |
			sed -e 's/^perfverdict: //' -e 's/^error: //')
		message="perfverdict compare failed: $(pv_status_name "$status") (exit $status)${first:+: $first}"
		line1=$(printf '%s\n' "$first" | head -n 1)
		loc=$(printf '%s\n' "$line1" | sed -n 's/^\([^:]*[^: ]\):\([0-9][0-9]*\):.*/\1 \2/p')
		quoted=$(printf '%s\n' "$line1" | sed -n "s/^[^']*'\([^']*\)'.*/\1/p")
		if [ -n "$loc" ]; then
			ann_file=${loc% *}
			ann_line=${loc##* }
		elif [ -n "$quoted" ] && { [ -e "$quoted" ] || [ "$quoted" = "$PERFVERDICT_CONFIG" ] ||
			[ "$quoted" = "$PERFVERDICT_CANDIDATE" ] || [ "$quoted" = "$PERFVERDICT_BASELINE" ]; }; then
			ann_file=$quoted
		fi
	fi
fi

# Always name a file in the annotation: for an input error the candidate
# tree, else the config, else the workflow file, else the candidate.
if [ "$status" -ge 2 ] && [ -z "$ann_file" ]; then
	if [ "$status" = 3 ] && [ -n "$PERFVERDICT_CANDIDATE" ]; then
		ann_file=$PERFVERDICT_CANDIDATE
	elif [ -n "$PERFVERDICT_CONFIG" ]; then
		ann_file=$PERFVERDICT_CONFIG
	elif [ -n "${GITHUB_WORKFLOW_REF:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
		wf=${GITHUB_WORKFLOW_REF#"$GITHUB_REPOSITORY"/}
		ann_file=${wf%%@*}
	else
		ann_file=${PERFVERDICT_CANDIDATE:-${PERFVERDICT_BASELINE:-.}}
	fi
fi

# The pooled points and each regression's trend, for the comment and
# the summary (history-comment.sh).
if [ "$PERFVERDICT_BASELINE" = history ] && [ -s "$PV_JSON" ] && [ -f "$PV_MD" ] &&
	{ [ "$status" = 0 ] || [ "$status" = 1 ]; }; then
	sh "$PV_SCRIPTS/history-comment.sh" "$PV_JSON" >>"$PV_MD"
fi

# ---- 3. the verdict ----------------------------------------------------------
regressions=
flat=$(mktemp) || exit 2
trap 'rm -f "$errf" "$flat"' EXIT
[ -f "$PV_JSON" ] && pv_json_flat "$PV_JSON" >"$flat"
case $status in
0 | 1)
	verdict=pass
	if [ "$skipped" = 1 ]; then
		verdict=skipped
	fi
	[ "$status" = 1 ] && verdict=fail
	if [ "$skipped" = 1 ]; then
		:
	elif [ -f "$PV_JSON" ]; then
		regressions=$(pv_json_flat_get "$flat" .summary.regressions)
		jv=$(pv_json_flat_get "$flat" .verdict)
		if [ -n "$jv" ] && [ "$jv" != "$verdict" ]; then
			pv_annotate warning "$PV_JSON" "" "the report says verdict=$jv but the exit status is $status; the exit status wins"
		fi
	else
		pv_annotate warning "" "" "compare exited $status but wrote no JSON report"
	fi
	;;
*) verdict=error ;;
esac
[ "$status" = 0 ] && [ "$skipped" = 0 ] && : "${regressions:=0}"

[ -f "$PV_JSON" ] || PV_JSON=
[ -f "$PV_JUNIT" ] || PV_JUNIT=
[ -f "$PV_MD" ] || PV_MD=

{
	echo "PERFVERDICT_STATUS=$status"
	echo "PERFVERDICT_VERDICT=$verdict"
	echo "PERFVERDICT_REGRESSIONS=$regressions"
} >"$PV_ENVFILE"

if [ "$PERFVERDICT_CI" = github ] && [ -n "${GITHUB_OUTPUT:-}" ]; then
	{
		echo "status=$status"
		echo "verdict=$verdict"
		echo "regressions=$regressions"
		echo "report-json=$PV_JSON"
		echo "report-junit=$PV_JUNIT"
		echo "report-markdown=$PV_MD"
	} >>"$GITHUB_OUTPUT"
fi

# ---- 4. annotations and the log line -----------------------------------------
# Baseline and candidate from different machines measure the machines.
if [ -s "$flat" ]; then
	diffs=$(pv_context_diff "$flat" | head -n 5)
	if [ -n "$diffs" ]; then
		pv_annotate warning "" "" "baseline and candidate ran in different environments: $(printf '%s\n' "$diffs" | awk 'NR > 1 { printf "; " } { printf "%s", $0 }'). If the baseline came from another runner or machine, part of any change may be the machine's; run both sides on one runner type"
	fi
fi
case $status in
0)
	if [ "$skipped" = 1 ]; then
		pv_annotate notice "" "" "gate skipped: $PV_BASELINE_NOTE"
	else
		pv_log "gate passed (0 regressions)"
	fi
	;;
1)
	worst=
	[ -s "$flat" ] && worst=$(pv_worst_regressions "$flat" 5 | awk 'NR > 1 { printf ", " } { printf "%s", $0 }')
	pv_log "gate failed: $regressions regression(s)${worst:+; worst: $worst}"
	pv_annotate error "" "" "performance gate failed: $regressions regression(s)${worst:+ (worst: $worst)}; see the report${PV_MD:+ ($PV_MD)}"
	;;
*) pv_annotate error "$ann_file" "$ann_line" "$message" ;;
esac

# ---- 5. GitHub step summary -----------------------------------------------------
if [ "$PERFVERDICT_CI" = github ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	have=0
	[ -f "$GITHUB_STEP_SUMMARY" ] && have=$(wc -c <"$GITHUB_STEP_SUMMARY" | tr -d ' ')
	budget=$((SUMMARY_MAX - SUMMARY_HEADROOM - have))
	if [ "$skipped" = 1 ]; then
		# shellcheck disable=SC2016
		printf '### perfverdict: skipped, no baseline yet\n\n%s\n\nThe gate passed without comparing. Set `missing-baseline: fail` to fail instead.\n' \
			"$PV_BASELINE_NOTE" >>"$GITHUB_STEP_SUMMARY"
	elif [ "$status" -ge 2 ]; then
		printf '### perfverdict: %s (exit %s)\n\n~~~\n%s\n~~~\n' "$(pv_status_name "$status")" \
			"$status" "$(printf '%s' "$message" | head -c 4000)" >>"$GITHUB_STEP_SUMMARY"
	elif [ -n "$PV_MD" ] && [ "$budget" -gt 0 ]; then
		[ "${PV_BASELINE_STATE:-}" = fetched ] && printf '_baseline: %s_\n\n' "$PV_BASELINE_NOTE" >>"$GITHUB_STEP_SUMMARY"
		sh "$PV_SCRIPTS/truncate-summary.sh" -n "$(pv_artifacts_hint)" "$budget" "$PV_MD" >>"$GITHUB_STEP_SUMMARY"
	elif [ -n "$PV_MD" ]; then
		pv_annotate warning "" "" "the step summary is full; the report was not added"
	fi
fi

[ "$PV_NO_FAIL" = 1 ] && exit 0
exit "$status"

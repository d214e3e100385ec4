#!/bin/sh
# History over archived compare reports (issue 20): each report point is
# read once (pv_archive_read(), with its size limit), not parsed a second
# time for its candidate.label, and that label is the point's commit in
# the history JSON.  The opens are counted with strace when it can trace.
. "$(dirname "$0")/lib/test-lib.sh"
cp -r tests/golden/history-reports/archive "$tmp/archive"
"$PYTHON" tests/lib/hist_reports_archive_names.py "$tmp/archive"
run="$PV_BIN history --json $tmp/h.json $tmp/archive"
if command -v strace >/dev/null 2>&1 &&
   strace -f -qq -o /dev/null true 2>/dev/null; then
	strace -f -qq -e trace=open,openat -o "$tmp/trace" $run >/dev/null 2>"$tmp/err"
	st=$?
	for f in "$tmp"/archive/*.json; do
		n=$(grep -c "\"$f\"" "$tmp/trace")
		[ "$n" -eq 1 ] || { echo "check_history_reports: $(basename "$f") opened $n times, expected once"; exit 1; }
	done
else
	echo "check_history_reports: no strace here: opens not counted"
	$run >/dev/null 2>"$tmp/err"
	st=$?
fi
[ $st -le 1 ] || { echo "check_history_reports: exit $st: $(cat "$tmp/err")"; exit 1; }
"$PYTHON" - "$tmp/h.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
bad = [p for p in h["points"] if p.get("commit") != "commit-" + p["label"][:4]]
if bad or not h["points"]:
    sys.exit("check_history_reports: points without their report's candidate.label as commit: %s" % bad[:2])
PY

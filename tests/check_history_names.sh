#!/bin/sh
# History reports with hostile metric names, units and point labels: the
# Markdown keeps its table shape and its fences, links nothing, and holds
# no raw HTML; the HTML escapes them (independent of the writers: the
# checks parse the output with Python).
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/lib/hist_names_archive.py "$tmp/archive"
"$PV_BIN" history "$tmp/archive" --markdown "$tmp/h.md" --html "$tmp/h.html" \
	--json "$tmp/h.json" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 1 ] || { echo "check_history_names: exit $st, expected 1: $(cat "$tmp/err")"; exit 1; }
"$PYTHON" tests/lib/hist_names_check_names.py "$tmp/h.md" "$tmp/h.html"

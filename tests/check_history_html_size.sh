#!/bin/sh
# History's HTML page stays one a browser opens (issue 37): an archive of
# 3,000 metrics that all step, 150 of them among the newest 3 points (a
# failing gate), gives at most 100 charts, all of failing metrics, at
# most 2,000 metrics listed, the failing ones first, and a note counting
# what was left out; the counts are checked against the JSON.  Before,
# the page held a chart per metric (6.6 MB here, 220 MB at 100,000).
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/lib/datajs_steps.py "$tmp/d.js" 12 3000 150 ||
	tl_die "cannot make the archive"
"$PV_BIN" history -q "$tmp/d.js" --html "$tmp/h.html" --json "$tmp/h.json" >/dev/null \
	2>"$tmp/err"
st=$?
[ $st -eq 1 ] || bad "history: exit $st, expected 1: $(cat "$tmp/err")"
"$PYTHON" tests/lib/history_html_size.py "$tmp/h.html" "$tmp/h.json" 100 2000 ||
	bad "the page does not keep its limits"
size=$(wc -c <"$tmp/h.html")
[ "$size" -le 1000000 ] || bad "the page is $size bytes, more than 1 MB"
# A small archive loses nothing and has no note.
"$PYTHON" tests/lib/datajs_steps.py "$tmp/s.js" 12 20 5 || tl_die "cannot make the small archive"
"$PV_BIN" history -q "$tmp/s.js" --html "$tmp/s.html" --json "$tmp/s.json" >/dev/null 2>&1
"$PYTHON" tests/lib/history_html_size.py "$tmp/s.html" "$tmp/s.json" 100 2000 ||
	bad "the small archive's page lost a metric"

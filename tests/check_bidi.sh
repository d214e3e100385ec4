#!/bin/sh
# One rule for bidirectional controls (issue 37): a metric named with
# U+202E (and U+2066, U+200F) is shown without them, and still by its
# name, by every writer of compare (terminal, JSON, JUnit, Markdown, HTML)
# and of history (terminal, JSON, Markdown, HTML); messages on stderr
# escape them.  On 75655ec only compare's Markdown dropped them.
. "$(dirname "$0")/lib/test-lib.sh"
bad=0
say() { echo "check_bidi: $*"; bad=1; }

"$PYTHON" tests/lib/bidi_trees.py "$tmp"
"$PV_BIN" compare "$tmp/a" "$tmp/b" -v >"$tmp/c.txt" 2>"$tmp/c.err"
"$PV_BIN" compare "$tmp/a" "$tmp/b" --json "$tmp/c.json" --junit "$tmp/c.xml" \
	--markdown "$tmp/c.md" --html "$tmp/c.html" >/dev/null 2>>"$tmp/c.err"
st=$?
[ $st -eq 1 ] || say "compare: exit $st, expected 1 (a regression)"
"$PV_BIN" history "$tmp/arch" -v >"$tmp/h.txt" 2>"$tmp/h.err"
"$PV_BIN" history "$tmp/arch" --json "$tmp/h.json" --markdown "$tmp/h.md" \
	--html "$tmp/h.html" >/dev/null 2>>"$tmp/h.err"
"$PYTHON" tests/lib/bidi_reports.py "$tmp" || bad=1
[ $bad -eq 0 ] && echo "check_bidi: no bidirectional control in 9 reports of compare and history, nor in messages"
exit $bad

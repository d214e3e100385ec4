#!/bin/sh
# One rule for bidirectional controls (issue 37): a metric named with
# U+202E (and U+2066, U+200F) is shown without them, and still by its
# name, by every writer of compare (terminal, JSON, JUnit, Markdown, HTML)
# and of history (terminal, JSON, Markdown, HTML); messages on stderr
# escape them.  On 75655ec only compare's Markdown dropped them.
set -u
PV_BIN=${PV_BIN:-build/perfverdict}
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
bad=0
say() { echo "check_bidi: $*"; bad=1; }

"$PYTHON" - "$tmp" <<'PY'
import os, sys
t = sys.argv[1]
name = "evil\u202etxt.exe\u2066x\u2069\u200fy"
def tree(d, level):
    os.makedirs(d)
    with open(os.path.join(d, "r.csv"), "w", encoding="utf-8") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for i in range(5):
            f.write("g,%s,time,ns,%d\n" % (name, level + i))
tree(os.path.join(t, "a"), 1000)
tree(os.path.join(t, "b"), 1300)
for k in range(12):
    tree(os.path.join(t, "arch", "p%02d" % k), 1300 if k >= 6 else 1000)
PY
"$PV_BIN" compare "$tmp/a" "$tmp/b" -v >"$tmp/c.txt" 2>"$tmp/c.err"
"$PV_BIN" compare "$tmp/a" "$tmp/b" --json "$tmp/c.json" --junit "$tmp/c.xml" \
	--markdown "$tmp/c.md" --html "$tmp/c.html" >/dev/null 2>>"$tmp/c.err"
st=$?
[ $st -eq 1 ] || say "compare: exit $st, expected 1 (a regression)"
"$PV_BIN" history "$tmp/arch" -v >"$tmp/h.txt" 2>"$tmp/h.err"
"$PV_BIN" history "$tmp/arch" --json "$tmp/h.json" --markdown "$tmp/h.md" \
	--html "$tmp/h.html" >/dev/null 2>>"$tmp/h.err"
"$PYTHON" - "$tmp" <<'PY' || bad=1
import os, sys
t = sys.argv[1]
bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
bad = 0
for f in ("c.txt", "c.json", "c.xml", "c.md", "c.html", "c.err",
          "h.txt", "h.json", "h.md", "h.html", "h.err"):
    s = open(os.path.join(t, f), encoding="utf-8").read()
    if any(c in s for c in bidi):
        print("check_bidi: %s keeps a bidirectional control" % f)
        bad = 1
    # messages escape the controls; reports show the name without them
    want = "evil\\xe2\\x80\\xaetxt.exe" if f.endswith(".err") else "eviltxt.exe"
    if want not in s:
        print("check_bidi: %s does not name the metric as %r" % (f, want))
        bad = 1
sys.exit(bad)
PY
[ $bad -eq 0 ] && echo "check_bidi: no bidirectional control in 9 reports of compare and history, nor in messages"
exit $bad

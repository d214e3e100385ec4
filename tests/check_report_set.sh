#!/bin/sh
# The report set of one run (issue 37, issue 40 item 4):
# 1. --save-point is one file of the set: a report that cannot be written
#    leaves no point; the point and a report in one file, or both on
#    standard output, are same-output errors (exit 2) that write nothing;
# 2. compare --save-point F TREE: one tree gives its point alone (exit 0),
#    with exactly the samples of the tree's files; reports then need a
#    baseline (exit 2); the two-tree form still writes the point;
# 3. a report through a symbolic link to a device is opened once: a link
#    swapped to a regular file while the reports are written (held
#    deterministically by a FIFO report that the test reads slowly)
#    leaves that file untouched.
. "$(dirname "$0")/lib/test-lib.sh"
TL_ON_EXIT='exec 3>&-'
bad=0
say() { echo "check_report_set: $*"; bad=1; }

# Two CSV trees of N metrics x 5 runs, values written here (the
# candidate's are known, to check the point's samples independently).
"$PYTHON" tests/lib/report_set_trees.py "$tmp" 600
B=$tmp/base C=$tmp/cand

# ---- 1. the point in the all-or-none set ----------------------------------
"$PV_BIN" compare -q "$B" "$C" --save-point "$tmp/p1.json" \
	--json "$tmp/no-such-dir/r.json" >/dev/null 2>"$tmp/err"
st=$?
[ $st -ge 2 ] || say "a report that cannot be written: exit $st, expected >= 2"
[ ! -e "$tmp/p1.json" ] || say "a report failed, yet the point was written"

"$PV_BIN" compare -q "$B" "$C" --save-point "$tmp/same.json" \
	--json "$tmp/same.json" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q '\[same-output\]' "$tmp/err" ||
	say "--save-point F --json F: exit $st, expected 2 and same-output: $(cat "$tmp/err")"
[ ! -e "$tmp/same.json" ] || say "--save-point F --json F wrote F"

"$PV_BIN" compare -q "$B" "$C" --save-point - --json - >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q '\[same-output\]' "$tmp/err" ||
	say "--save-point - --json -: exit $st, expected 2 and same-output"
[ ! -s "$tmp/out" ] || say "--save-point - --json - printed $(wc -c <"$tmp/out") bytes"

"$PV_BIN" compare -q "$B" "$C" --json - --markdown - >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/out" ] ||
	say "--json - --markdown -: exit $st, expected 2 with nothing printed"

# ---- 2. a point of one tree ------------------------------------------------
SOURCE_DATE_EPOCH=1796156100 GITHUB_SHA=3f2a9c1d0e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c \
	"$PV_BIN" compare --candidate-label 3f2a9c1 --save-point "$tmp/one.json.gz" \
	"$C" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] || say "compare --save-point F TREE: exit $st, expected 0: $(cat "$tmp/err")"
"$PYTHON" tests/lib/validate_json.py "$tmp/one.json.gz" >/dev/null 2>&1 ||
	say "the one-tree point is not a valid point"
"$PYTHON" tests/lib/report_set_point.py "$tmp/one.json.gz" "$tmp/want.json" || say "the one-tree point's content is wrong"
"$PV_BIN" compare --save-point "$tmp/one2.json" --json "$tmp/r.json" "$C" \
	>/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/one2.json" ] && [ ! -e "$tmp/r.json" ] ||
	say "one tree with --json: exit $st, expected 2 and nothing written"
"$PV_BIN" compare "$C" >/dev/null 2>&1
[ $? -eq 2 ] || say "compare with one tree and no --save-point: not a usage error"
# The two-tree form keeps working, with the same point.
SOURCE_DATE_EPOCH=1796156100 GITHUB_SHA=3f2a9c1d0e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c \
	"$PV_BIN" compare -q --candidate-label 3f2a9c1 --save-point "$tmp/two.json.gz" \
	"$B" "$C" >/dev/null 2>&1
st=$?
[ $st -le 1 ] && cmp -s "$tmp/one.json.gz" "$tmp/two.json.gz" ||
	say "compare --save-point F BASE CAND: exit $st, or a point other than the one tree's"

# ---- 3. a link to a device, swapped while the reports are written ----------
mkfifo "$tmp/fifo"
ln -s /dev/null "$tmp/link"
echo "victim: must stay as it is" >"$tmp/victim"
cp "$tmp/victim" "$tmp/victim.orig"
# This shell holds the FIFO open (read and write), so it always has a
# reader and the reader below never waits for a writer.  The reader
# takes one byte, which perfverdict writes only once every report is
# opened and committed, swaps the link, then drains the rest: the JSON
# (over the pipe's 64 KiB) keeps perfverdict waiting until the swap.
exec 3<>"$tmp/fifo"
( exec 3>&-; dd bs=1 count=1 >/dev/null 2>&1; ln -sfn "$tmp/victim" "$tmp/link"
  cat >"$tmp/fifo.out" ) <"$tmp/fifo" &
reader=$!
"$PV_BIN" compare -q "$B" "$C" --json "$tmp/fifo" --markdown "$tmp/link" \
	>/dev/null 2>"$tmp/err"
st=$?
exec 3>&-
wait $reader
[ $st -le 1 ] || say "reports to a FIFO and a link to /dev/null: exit $st: $(cat "$tmp/err")"
[ "$(readlink "$tmp/link")" = "$tmp/victim" ] || say "the link was not swapped"
cmp -s "$tmp/victim" "$tmp/victim.orig" ||
	say "a report opened through a link to /dev/null went into the file the link was swapped to ($(wc -c <"$tmp/victim") bytes)"
[ "$(wc -c <"$tmp/fifo.out")" -gt 65536 ] ||
	say "the JSON through the FIFO is under 64 KiB: the test holds nothing"

[ $bad -eq 0 ] && echo "check_report_set: the point in the set, one-tree points, one open per device target"
exit $bad

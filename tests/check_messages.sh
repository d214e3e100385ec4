#!/bin/sh
# Messages with stable codes (issue 12, item 6): docs/messages.md's
# table lists exactly the codes of src/util/msg.c, with their levels and
# meanings, and what perfverdict prints carries them: each error line
# ends in its code, and a known warning is in the JSON with its code.
. "$(dirname "$0")/lib/test-lib.sh"
failed=0

"$PV_BUILD/tests/tools/msgtable" >"$tmp/table" || bad "msgtable failed"
"$PYTHON" tests/lib/check_message_table.py "$tmp/table" docs/messages.md || failed=1

# An input error, a config error and a usage error each end in a code.
mkdir -p "$tmp/b" "$tmp/c"
printf 'benchmark,value\nparse,1.5\nparse,1.6\n' >"$tmp/b/r.csv"
printf 'benchmark,value\nparse,x1.5\n' >"$tmp/c/r.csv"
"$PV_BIN" compare "$tmp/b" "$tmp/c" 2>"$tmp/err"
[ $? -eq 3 ] || bad "bad number: not exit 3"
tail -n 1 "$tmp/err" | grep -q "^perfverdict: error: .*r.csv:2:[0-9]*: cannot parse 'x1.5' as a number.* \[bad-number\]$" ||
	bad "bad number: $(tail -n 1 "$tmp/err")"
printf '[gate]\nalpha = 0.05\nalpha = 0.01\n' >"$tmp/p.conf"
"$PV_BIN" compare -c "$tmp/p.conf" "$tmp/b" "$tmp/b" 2>"$tmp/err"
[ $? -eq 2 ] || bad "duplicate key: not exit 2"
grep -q "^perfverdict: error: .*p.conf:3: duplicate key 'alpha' in \[gate\] \[duplicate-key\]$" "$tmp/err" ||
	bad "duplicate key: $(cat "$tmp/err")"
"$PV_BIN" frobnicate 2>"$tmp/err"
[ $? -eq 2 ] || bad "unknown command: not exit 2"
grep -q "^perfverdict: error: unknown command 'frobnicate' (see 'perfverdict --help') \[unknown-command\]$" "$tmp/err" ||
	bad "unknown command: $(cat "$tmp/err")"

# A known warning: a metric without a direction, in the JSON and on
# stderr with its code; render of a version 1 report (plain strings)
# writes them as uncoded objects.
printf 'benchmark,metric,value\nparse,widgets,1.5\nparse,widgets,1.6\nparse,widgets,1.55\n' >"$tmp/b/r.csv"
"$PV_BIN" compare "$tmp/b" "$tmp/b" --json "$tmp/r.json" >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] || bad "warning run: exit $?: $(cat "$tmp/err")"
grep -q "^perfverdict: warning: .* \[no-direction\]$" "$tmp/err" ||
	bad "no-direction: not on stderr with its code: $(cat "$tmp/err")"
"$PYTHON" tests/lib/msg_no_direction.py "$tmp/r.json" || failed=1
if [ -f tests/data/report-v1.json ]; then
	"$PYTHON" - tests/data/report-v1.json "$tmp/v1.json" <<'PY' || bad "cannot make a version 1 report with warnings"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
r["warnings"] = ["r.RHS: the table has a header but no rows", "x \"quoted\""]
json.dump(r, open(sys.argv[2], "w", encoding="utf-8"))
PY
	"$PV_BIN" merge --json "$tmp/m.json" "$tmp/v1.json" >/dev/null 2>"$tmp/err"
	[ $? -le 1 ] || bad "merge v1: $(cat "$tmp/err")"
	"$PYTHON" tests/lib/msg_v1_uncoded.py "$tmp/v1.json" "$tmp/m.json" || failed=1
	# ... and a version 2 report's codes survive a merge.
	"$PV_BIN" merge --json "$tmp/m2.json" "$tmp/r.json" >/dev/null 2>"$tmp/err"
	[ $? -le 1 ] || bad "merge v2: $(cat "$tmp/err")"
	cmp -s "$tmp/r.json" "$tmp/m2.json" || "$PYTHON" tests/lib/msg_same_warnings.py "$tmp/r.json" "$tmp/m2.json" || failed=1
fi
# A note is a note: the pooled baseline's points, on stderr and in the
# JSON (and after render), and no message comes out twice in the run
# (no-direction came from the history analysis and again from the model).
"$PV_BIN" compare --baseline-history samples/history/archive \
	tests/golden/baseline-history/candidate --json "$tmp/bh.json" \
	>/dev/null 2>"$tmp/err"
[ $? -le 1 ] || bad "baseline-history: $(cat "$tmp/err")"
grep -q "^perfverdict: note: baseline pooled from .* \[pooled-baseline\]$" "$tmp/err" ||
	bad "pooled-baseline is not a note: $(cat "$tmp/err")"
dup=$(sed -n 's/.*\[\([a-z0-9-]*\)\]$/\1/p' "$tmp/err" | sort | uniq -d)
[ -z "$dup" ] || bad "printed twice in one run: $dup: $(cat "$tmp/err")"
"$PV_BIN" render "$tmp/bh.json" --markdown "$tmp/bh.md" 2>"$tmp/err" ||
	bad "render of the pooled report: $(cat "$tmp/err")"
"$PYTHON" tests/lib/msg_levels.py "$tmp/bh.json" || failed=1
[ $failed -eq 0 ] && echo "check_messages: ok"
exit $failed

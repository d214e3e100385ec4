#!/bin/sh
# Messages with stable codes (issue 12, item 6): the README's Messages
# table lists exactly the codes of src/util/msg.c, with their levels and
# meanings, and what perfverdict prints carries them: each error line
# ends in its code, and a known warning is in the JSON with its code.
set -u
PV_BIN=${PV_BIN:-build/perfverdict}
PV_BUILD=${PV_BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0
bad() { echo "check_messages: $*"; failed=1; }

"$PV_BUILD/tests/tools/msgtable" >"$tmp/table" || bad "msgtable failed"
"$PYTHON" - "$tmp/table" README.md <<'PY' || failed=1
import re, sys
table = {}
for line in open(sys.argv[1], encoding="utf-8"):
    code, level, text = line.rstrip("\n").split("\t")
    table[code] = (level, text)
readme, sec = {}, False
for line in open(sys.argv[2], encoding="utf-8"):
    if line.startswith("#"):
        sec = line.strip() == "### Messages"
        continue
    m = re.match(r"^\| `([^`]*)` \| (note|warning|usage|input|fatal)(?: \(\d\))? \| (.*) \|$", line.rstrip("\n"))
    if sec and m:
        if m.group(1) in readme:
            print("check_messages: README lists '%s' twice" % m.group(1))
            sys.exit(1)
        readme[m.group(1)] = (m.group(2), m.group(3))
bad = 0
for c in sorted(set(table) - set(readme)):
    print("check_messages: code '%s' is not in the README's Messages table" % c); bad = 1
for c in sorted(set(readme) - set(table)):
    print("check_messages: the README lists '%s', which is not in src/util/msg.c" % c); bad = 1
for c in sorted(set(table) & set(readme)):
    if table[c] != readme[c]:
        print("check_messages: '%s' is %s in msg.c but %s in the README" % (c, table[c], readme[c])); bad = 1
# The levels a report's warnings[] can hold are the schemas' too.
import json
listed = {lv for lv, _ in table.values() if lv in ("note", "warning")}
for schema in ("schemas/report.schema.json", "schemas/history.schema.json"):
    sch = json.load(open(schema, encoding="utf-8"))
    level = sch["properties"]["warnings"]["items"]["properties"]["level"]
    if set(level.get("enum", [level.get("const")])) != listed:
        print("check_messages: %s: warnings[].level is %r, msg.c lists %r" % (schema, level, sorted(listed))); bad = 1
if listed != {"note", "warning"}:
    print("check_messages: msg.c has no note or no warning: %r" % sorted(listed)); bad = 1
if len(table) < 50:
    print("check_messages: only %d codes read from msgtable" % len(table)); bad = 1
sys.exit(bad)
PY

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
"$PYTHON" - "$tmp/r.json" <<'PY' || failed=1
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
w = [x for x in r["warnings"] if x["code"] == "no-direction"]
if r["schema_version"] != 2 or len(w) != 1 or w[0]["level"] != "warning" \
   or "had no configured direction" not in w[0]["message"]:
    print("check_messages: no-direction not in the JSON: %r" % r["warnings"])
    sys.exit(1)
PY
if [ -f tests/data/report-v1.json ]; then
	"$PYTHON" - tests/data/report-v1.json "$tmp/v1.json" <<'PY' || bad "cannot make a version 1 report with warnings"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
r["warnings"] = ["r.RHS: the table has a header but no rows", "x \"quoted\""]
json.dump(r, open(sys.argv[2], "w", encoding="utf-8"))
PY
	"$PV_BIN" merge --json "$tmp/m.json" "$tmp/v1.json" >/dev/null 2>"$tmp/err"
	[ $? -le 1 ] || bad "merge v1: $(cat "$tmp/err")"
	"$PYTHON" - "$tmp/v1.json" "$tmp/m.json" <<'PY' || failed=1
import json, sys
old = json.load(open(sys.argv[1], encoding="utf-8"))["warnings"]
new = json.load(open(sys.argv[2], encoding="utf-8"))["warnings"]
if [x["message"] for x in new] != old or any(x["code"] != "uncoded" or x["level"] != "warning" for x in new):
    print("check_messages: merge v1: warnings %r became %r" % (old, new))
    sys.exit(1)
PY
	# ... and a version 2 report's codes survive a merge.
	"$PV_BIN" merge --json "$tmp/m2.json" "$tmp/r.json" >/dev/null 2>"$tmp/err"
	[ $? -le 1 ] || bad "merge v2: $(cat "$tmp/err")"
	cmp -s "$tmp/r.json" "$tmp/m2.json" || "$PYTHON" - "$tmp/r.json" "$tmp/m2.json" <<'PY' || failed=1
import json, sys
a = json.load(open(sys.argv[1], encoding="utf-8"))["warnings"]
b = json.load(open(sys.argv[2], encoding="utf-8"))["warnings"]
if a != b:
    print("check_messages: merge v2: warnings %r became %r" % (a, b))
    sys.exit(1)
PY
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
"$PYTHON" - "$tmp/bh.json" <<'PY' || failed=1
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
lv = {w["code"]: w["level"] for w in r["warnings"]}
codes = [w["code"] for w in r["warnings"]]
if lv.get("pooled-baseline") != "note" or lv.get("no-direction") != "warning" \
   or len(codes) != len(set(codes)):
    print("check_messages: pooled report's warnings: %r" % r["warnings"])
    sys.exit(1)
PY
[ $failed -eq 0 ] && echo "check_messages: ok"
exit $failed

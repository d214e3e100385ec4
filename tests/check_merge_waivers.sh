#!/bin/sh
# Waivers survive merge (issue 13): the reports carry every waiver of the
# config (config.waivers, schema version 2) and merge applies them again,
# without -c.  The kernbench sample is split into shards a/ (kernbench,
# sysbench, hackbench: the waived hackbench 1x regression) and b/.
#  - a waiver that holds: the merged gate passes (0), the metric waived;
#  - a waiver that held when the shards were compared but has expired
#    by the merge: the merged gate fails (1), with a warning;
#  - shards that disagree on a waiver: an input error (3);
#  - a version 1 report (no waivers) is still merged and rendered.
. "$(dirname "$0")/lib/test-lib.sh"
bad=0
say() { bad "$@"; }

for side in baseline candidate; do
	src=samples/kernbench/$side/results.csv
	mkdir -p "$tmp/a/$side/a" "$tmp/b/$side/b"
	head -n 1 "$src" >"$tmp/a/$side/a/results.csv"
	head -n 1 "$src" >"$tmp/b/$side/b/results.csv"
	grep -E '^(kernbench|sysbench|hackbench),' "$src" >>"$tmp/a/$side/a/results.csv"
	grep -E '^(specjbb|ebizzy|dbench),' "$src" >>"$tmp/b/$side/b/results.csv"
done
# conf UNTIL REASON: the waiver-active config with another date/reason.
conf() {
	sed -e "s/^until = .*/until = $1/" -e "s/^reason = .*/reason = $2/" \
		tests/golden/waiver-active/perf.conf >"$tmp/$1.conf"
}
# shards NAME DATE UNTIL [REASON_B]: compare both shards on DATE.
shards() {
	conf "$2" x >/dev/null
	conf "$3" "known cost" && cp "$tmp/$3.conf" "$tmp/$1-a.conf"
	conf "$3" "${4:-known cost}" && cp "$tmp/$3.conf" "$tmp/$1-b.conf"
	epoch=$(date -u -d "$2" +%s)
	for s in a b; do
		SOURCE_DATE_EPOCH=$epoch "$PV_BIN" compare -q -c "$tmp/$1-$s.conf" \
			"$tmp/$s/baseline" "$tmp/$s/candidate" \
			--json "$tmp/$1-$s.json" >/dev/null 2>&1
		[ $? -le 1 ] || say "$1: compare of shard $s failed"
	done
}
# merged NAME DATE: merge NAME's shards on DATE, without -c.
merged() {
	SOURCE_DATE_EPOCH=$(date -u -d "$2" +%s) "$PV_BIN" merge \
		"$tmp/$1-a.json" "$tmp/$1-b.json" --json "$tmp/$1.json" \
		>"$tmp/$1.out" 2>"$tmp/$1.err"
}
verdict() {  # verdict NAME: hackbench 1x elapsed's verdict in the merge
	"$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))
print([m["verdict"] for m in r["metrics"] if m["group"] == "hackbench"
       and m["benchmark"] == "overcommit=1x" and m["metric"] == "elapsed"][0],
      r["verdict"], len(r["config"]["waivers"]))' "$tmp/$1.json"
}

# 1. The waiver holds on both dates: waived in shard a, and after merge.
shards hold 2025-09-01 2025-12-31
merged hold 2025-11-30; st=$?
[ $st -eq 0 ] || { say "holding waiver: merge exits $st, not 0"; cat "$tmp/hold.err" >&2; }
[ "$(verdict hold)" = "waived pass 1" ] || say "holding waiver: got '$(verdict hold)'"
"$PYTHON" tests/lib/validate_json.py "$tmp/hold.json" || say "holding waiver: invalid JSON"
# Merging the merged report again changes nothing (the waivers stay).
SOURCE_DATE_EPOCH=$(date -u -d 2025-11-30 +%s) "$PV_BIN" merge "$tmp/hold.json" \
	--json "$tmp/again.json" >/dev/null 2>&1 || say "merged report merged again fails"
cmp -s "$tmp/hold.json" "$tmp/again.json" || say "a merged report merged again differs"

# 2. Waived when compared, expired by the merge: the gate fails again.
shards late 2025-09-01 2025-10-01
[ "$(grep -c '"verdict": "pass"' "$tmp/late-a.json")" = 1 ] || say "expired: shard a did not pass when compared"
merged late 2025-11-30; st=$?
[ $st -eq 1 ] || say "expired waiver: merge exits $st, not 1"
[ "$(verdict late)" = "regression fail 1" ] || say "expired waiver: got '$(verdict late)'"
grep -q 'waiver "hackbench/overcommit=1x/\*" (from the reports) expired on 2025-10-01' "$tmp/late.err" ||
	say "expired waiver: no warning ($(cat "$tmp/late.err"))"

# 3. Shards that disagree on a waiver's reason: exit 3, named.
shards clash 2025-09-01 2025-12-31 "another reason"
merged clash 2025-11-30; st=$?
[ $st -eq 3 ] || say "disagreeing shards: merge exits $st, not 3"
grep -q 'waiver "hackbench/overcommit=1x/\*" gives another reason' "$tmp/clash.err" ||
	say "disagreeing shards: $(cat "$tmp/clash.err")"

# 4. A version 1 report (written before waivers were carried).
"$PV_BIN" render tests/data/report-v1-kernbench.json --markdown "$tmp/v1.md" >/dev/null 2>&1 ||
	say "a version 1 report does not render"
SOURCE_DATE_EPOCH=$(date -u -d 2025-11-30 +%s) "$PV_BIN" merge tests/data/report-v1-kernbench.json \
	--json "$tmp/v1.json" >/dev/null 2>&1; st=$?
# It carried no waiver, so the waived regression counts again: 1.
[ $st -eq 1 ] || say "version 1 report: merge exits $st, not 1"
grep -q '"schema_version": 2' "$tmp/v1.json" || say "version 1 report: not rewritten as version 2"
exit $bad

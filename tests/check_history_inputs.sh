#!/bin/sh
# Archives that history used to read wrongly without a word (issue 22,
# "Inputs that break it silently"): each case builds its archive, runs
# history (or compare --baseline-history) and checks the exit status and
# the message or report that says what happened.
. "$(dirname "$0")/lib/test-lib.sh"
failed=0

# gen DIR SPEC: an archive of CSV trees, 10 points x 3 runs of one
# metric g/b/t at 100 with 0.3% noise; SPEC is python: unit(p) and
# scale(p) give each point's unit and the factor on its values.
gen() {
	"$PYTHON" tests/lib/hist_inputs_archive.py "$1" "$2"
}

# 1. Units across points: the newest points are 2x slower, written in s.
gen "$tmp/units" 'unit = lambda p: "s" if p >= 7 else "ms"
scale = lambda p: 0.002 if p >= 7 else 1'
expect_exit units 1 "" "$PV_BIN" history "$tmp/units" --json "$tmp/units.json"
"$PYTHON" tests/lib/hist_inputs_units.py "$tmp/units.json" || bad "units: the step is not a +100% regression in ms"
gen "$tmp/units2" 'unit = lambda p: "MB" if p == 8 else "ms"
scale = lambda p: 1'
expect_exit units-unconvertible 3 "'MB' at point '0009' but in 'ms' at point '0001'.*\[unit-mismatch\]" \
	"$PV_BIN" history "$tmp/units2"
# compare --baseline-history of an archive in ms and a candidate in s
gen "$tmp/units3" 'unit = lambda p: "ms"
scale = lambda p: 1'
mkdir "$tmp/cand3"
printf 'group,benchmark,metric,unit,value\ng,b,t,s,0.2\ng,b,t,s,0.2001\ng,b,t,s,0.1999\n' \
	>"$tmp/cand3/results.csv"
expect_exit baseline-history-units 1 "" "$PV_BIN" compare --baseline-history "$tmp/units3" \
	"$tmp/cand3" --json "$tmp/units3.json"

# 2. Report points carry their context: an arm64 point is not pooled for
# an amd64 candidate, as with trees (the golden's trees as reports).
mkdir "$tmp/reports"
for d in tests/golden/baseline-history-other-machine/archive/*/; do
	n=$(basename "$d")
	"$PV_BIN" compare "$d" "$d" --json "$tmp/reports/$n.json" >/dev/null 2>&1
done
expect_exit report-machine 3 "ran on another kind of machine.*\[other-machine\]" \
	"$PV_BIN" compare --baseline-history "$tmp/reports" \
	tests/golden/baseline-history-env/candidate
grep -q "no-poolable-point" "$tmp/err" || bad "report-machine: pooled points of another machine"

# 3. A metric twice in one report point.
mkdir "$tmp/dup"
cp "$tmp"/reports/000[1-4].json "$tmp/dup/"
"$PYTHON" - "$tmp/dup/0003.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["metrics"].append(r["metrics"][0])
json.dump(r, open(sys.argv[1], "w"))
PY
expect_exit duplicate 3 "point '0003.json' .*appears twice.*\[duplicate-metric\]" \
	"$PV_BIN" history "$tmp/dup"

# 4. [limits] max_metrics over the archive: 2 metrics a point, 6 in all.
"$PYTHON" tests/lib/hist_inputs_many_metrics.py "$tmp/many"
printf '[limits]\nmax_metrics = 4\n' >"$tmp/limits.conf"
expect_exit max-metrics 3 "more than 4 metrics \(limits.max_metrics\) by point '0003'.*\[too-many-metrics\]" \
	"$PV_BIN" history -c "$tmp/limits.conf" "$tmp/many"

# 5. --recent 1 and 2 could never fail: refused with the reason.
for k in 1 2; do
	expect_exit "recent-$k" 2 "^perfverdict: error: --recent $k: a step is confirmed only when 3 points" \
		"$PV_BIN" history --recent "$k" "$tmp/units"
done
expect_exit recent-3 1 "" "$PV_BIN" history --recent 3 "$tmp/units"

# 6. The empty archive.
mkdir "$tmp/empty"
expect_exit empty 3 "archive '.*/empty' is empty: history needs at least 3 points.*\[too-few-points\]" \
	"$PV_BIN" history "$tmp/empty"

# 7. --order time: offsets are read, and equal times are said.
mkdir "$tmp/times"
i=0
for t in 2026-01-01T10:00:00+05:00 2026-01-01T07:00:00Z 2026-01-01T09:00:00+01:00 \
	2026-01-01T08:30:00Z 2026-01-01T09:30:00.5Z 2026-01-01T09:00:00-00:30; do
	i=$((i + 1))
	"$PYTHON" - "$tmp/reports/000$i.json" "$t" "$tmp/times/p$i.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["generated_at"] = sys.argv[2]
json.dump(r, open(sys.argv[3], "w"))
PY
done
expect_exit order-time 0 "" "$PV_BIN" history --order time "$tmp/times" --json "$tmp/times.json"
"$PYTHON" tests/lib/hist_inputs_order_time.py "$tmp/times.json" || bad "order-time: points not in the order of their UTC times"
"$PYTHON" - "$tmp/times/p2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["generated_at"] = "2026-01-01T05:00:00Z"   # = p1's time (10:00+05:00)
json.dump(r, open(sys.argv[1], "w"))
PY
expect_exit order-time-tie 0 "1 point has the same recorded time as the one before \(first 'p1.json' and 'p2.json'.*\[time-tie\]" \
	"$PV_BIN" history --order time "$tmp/times"

# 8. A history JSON inside the archive.
cp "$tmp/units.json" "$tmp/dup/0003.json"
expect_exit history-json 3 "0003.json: expected a compare report, not a history report" \
	"$PV_BIN" history "$tmp/dup"

# 9. github-action-benchmark's go tool kept a benchmark's other metrics
# in the unit ("ns/op\t 819453 B/op\t 5 allocs/op", kic's data.js): its
# B/op changes from commit to commit, and each point was a metric of its
# own.  One series in ns/op, with the +20% step at point 9 found by
# history, and a candidate in the same form gated against it.
"$PYTHON" tests/lib/hist_inputs_go_datajs.py "$tmp/go.js" "$tmp/go-new.js"
expect_exit go-unit 1 "" "$PV_BIN" history "$tmp/go.js" --json "$tmp/go.json"
"$PYTHON" tests/lib/hist_inputs_go_unit.py "$tmp/go.json" || bad "go-unit: not one series in ns/op with its step at 9"
expect_exit go-unit-gate 1 "" "$PV_BIN" compare --baseline-history "$tmp/go.js" "$tmp/go-new.js" --json "$tmp/go-gate.json"
"$PYTHON" tests/lib/hist_inputs_go_unit_gate.py "$tmp/go-gate.json" || bad "go-unit-gate: BenchmarkCopy in ns/op is not the regression"

# 10. compare --baseline-history in a family with spikes: 20 metrics, 10
# points, 1% noise, a tenth of the points 1.5x (two of three runs, at 3
# runs: a noisy neighbour).  A candidate as far is judged against the
# spikes' rate (exit 0, [spike-candidate]); the same candidate against
# the family without spikes is a regression; three runs 10% slower,
# where every spike was a split one, are one too.
spiky() { # spiky DIR RUNS SPIKES CAND_FACTORS
	"$PYTHON" tests/lib/hist_inputs_runs_archive.py "$@"
}
spiky "$tmp/spk1" 1 1 1.5
# The rate is over the points before any end excursion (history/pooled.h):
# 20 spikes of 200 points, less the newest point's two (b09, b19: not
# spikes until a later point comes back) and the newest points of the
# few metrics whose newest point is 2 sds off by chance: 18 of 190-198.
expect_exit spike-one-run 0 "1 metric \(g/b00/t\) moved the worse way as far as the baseline's spikes, (9\.[1-5])% of its pooled points.*\[spike-candidate\]" \
	"$PV_BIN" compare --baseline-history "$tmp/spk1/a" "$tmp/spk1/c" --json "$tmp/spk1.json"
grep -Eq "as far from the pooled baseline as its spikes, which were 9\.[1-5]% of its points: p is at least that" "$tmp/spk1.json" ||
	bad "spike-one-run: the metric's reason does not say it was judged as a spike"
spiky "$tmp/spk0" 1 0 1.5
expect_exit spike-none 1 "" "$PV_BIN" compare --baseline-history "$tmp/spk0/a" "$tmp/spk0/c"
grep -q "spike-candidate" "$tmp/err" && bad "spike-none: a spike warning in a family without spikes"
spiky "$tmp/spk3" 3 1 1.5,1.5,1.0
expect_exit spike-split 0 "\[spike-candidate\]" \
	"$PV_BIN" compare --baseline-history "$tmp/spk3/a" "$tmp/spk3/c"
spiky "$tmp/spk3w" 3 1 1.1,1.1,1.1
expect_exit spike-whole-step 1 "" "$PV_BIN" compare --baseline-history "$tmp/spk3w/a" "$tmp/spk3w/c"

[ $failed -eq 0 ] && echo "check_history_inputs: ok"
exit $failed

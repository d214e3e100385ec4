#!/bin/sh
# The command line end to end (issues 12, 13, 16): options parsed from
# the tables, --help printed from them, render with no output options,
# merge -c, calibrate's wording and scratch, out of memory.
. "$(dirname "$0")/lib/test-lib.sh"
NO_COLOR=1
SOURCE_DATE_EPOCH=1764460800
export NO_COLOR SOURCE_DATE_EPOCH
failed=0
base=samples/gbench/baseline cand=samples/gbench/candidate

# ---- help ----
"$PV_BIN" --help >"$tmp/help" || bad "--help failed"
# Every option line starts with its names; no other line starts with "-".
grep -E '^ +-' "$tmp/help" | grep -vE '^  (-[a-z], |    )--[a-z-]+( [A-Z.]+)? ' &&
	bad "an option line of --help is irregular"
# merge takes -c (issue 16).
sed -n '/^merge options:/,/^$/p' "$tmp/help" | grep -q '^  -c, --config FILE' ||
	bad "--help leaves out merge's -c"
# The defaults shown are the ones used: compare with no config.
"$PV_BIN" compare "$base" "$cand" --json "$tmp/d.json" -q >/dev/null 2>&1
"$PYTHON" tests/lib/cli_help_defaults.py "$tmp/help" "$tmp/d.json" || bad "--help's defaults disagree with the JSON"
# A command's own help; the exit statuses are in both.
"$PV_BIN" merge --help >"$tmp/mhelp" || bad "merge --help failed"
grep -q '^usage: perfverdict merge ' "$tmp/mhelp" || bad "merge --help: no usage line"
grep -q '4 out of memory' "$tmp/help" || bad "--help does not document exit status 4"
# No command: every command, from the table.
"$PV_BIN" 2>"$tmp/err"
[ $? -eq 2 ] || bad "no command: not exit 2"
cmds=$(sed -n '/^commands:/,/^$/p' "$tmp/help" | awk 'NF {print $1}' | grep -v commands: | tr '\n' ' ')
for c in $cmds; do
	grep -q "$c" "$tmp/err" || bad "no command: '$c' is not listed"
done
[ -n "$cmds" ] || bad "--help lists no commands"

# ---- option syntax ----
"$PV_BIN" compare "$base" "$cand" --alpha=0.2 --json "$tmp/eq.json" -q >/dev/null 2>&1
"$PV_BIN" compare --alpha 0.01 "$base" --alpha 0.2 "$cand" --json=- >"$tmp/sp.json" 2>/dev/null
"$PYTHON" - "$tmp/eq.json" "$tmp/sp.json" <<'PY' || bad "--opt=value, --opt value, repeats or '-' differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["config"]["alpha"] == 0.2 and a == b
PY
"$PV_BIN" compare "$base" "$cand" --nope 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^perfverdict: error: unknown option '--nope' (see 'perfverdict --help') \\[unknown-option\\]$" "$tmp/err" || bad "unknown option"
"$PV_BIN" compare "$base" "$cand" --json 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^perfverdict: error: option '--json' needs a value (see 'perfverdict --help') \\[option-needs-value\\]$" "$tmp/err" || bad "missing value"
"$PV_BIN" compare "$base" "$cand" --sided=up 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^perfverdict: error: bad --sided 'up': expected worse or two (see 'perfverdict --help') \\[bad-option-value\\]$" "$tmp/err" || bad "bad value"
"$PV_BIN" calibrate --seed 2 --iterations 0 "$base" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "bad --iterations '0'" "$tmp/err" || bad "bad --iterations"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "a usage error is not one line"

# ---- render with no output options: the terminal summary ----
"$PV_BIN" compare "$base" "$cand" >"$tmp/c.txt" 2>/dev/null
"$PV_BIN" render "$tmp/d.json" >"$tmp/r.txt" 2>/dev/null || bad "render REPORT.json failed"
cmp -s "$tmp/c.txt" "$tmp/r.txt" || bad "render's summary differs from compare's"
"$PV_BIN" render -q "$tmp/d.json" >"$tmp/q.txt"
[ "$(wc -l <"$tmp/q.txt")" -eq 1 ] && grep -q '^FAIL: ' "$tmp/q.txt" || bad "render -q"

# ---- merge -c applies its [gate] and waivers ----
printf '[gate]\nalpha = 0.2\nthreshold = 1%%\n[waiver "*"]\nuntil = 2099-01-01\nreason = known\n' >"$tmp/m.conf"
"$PV_BIN" merge -c "$tmp/m.conf" "$tmp/d.json" --json "$tmp/m.json" 2>/dev/null
st=$?
[ $st -eq 0 ] || bad "merge -c with a waiver for everything: exit $st, not 0"
"$PYTHON" - "$tmp/m.json" <<'PY' || bad "merge -c did not apply its [gate] and waivers"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["config"]["alpha"] == 0.2 and r["config"]["threshold"] == 0.01, r["config"]
assert r["summary"]["waived"] >= 1 and r["summary"]["regressions"] == 0, r["summary"]
PY

# Each metric's threshold is settled again from -c: 50% leaves none.
printf '[gate]\nthreshold = 50%%\n' >"$tmp/t.conf"
"$PV_BIN" merge -c "$tmp/t.conf" "$tmp/d.json" --json "$tmp/t.json" 2>/dev/null
"$PYTHON" - "$tmp/d.json" "$tmp/t.json" <<'PY' || bad "merge -c did not apply its threshold to the metrics"
import json, sys
before, after = (json.load(open(p)) for p in sys.argv[1:])
assert before["summary"]["regressions"] > 0
assert after["summary"]["regressions"] == 0, after["summary"]
assert all(m["threshold"] == 0.5 for m in after["metrics"])
PY
# A rule that ignores a metric makes it ungated, in merge as in compare:
# still reported with its movement, never failing the gate.
printf '[metric "*"]\nignore = true\n' >"$tmp/i.conf"
"$PV_BIN" merge -c "$tmp/i.conf" "$tmp/d.json" --json "$tmp/i.json" 2>"$tmp/err"
[ $? -eq 0 ] || bad "merge -c with ignore: exit status"
"$PYTHON" tests/lib/cli_merge_ignore.py "$tmp/d.json" "$tmp/i.json" || bad "merge -c with ignore: verdicts"
printf '[metric "thr*"]\nignore = true\n' >"$tmp/j.conf"
cat samples/netperf/perf.conf >>"$tmp/j.conf"
"$PV_BIN" compare -c "$tmp/j.conf" -s netperf samples/netperf/baseline \
	samples/netperf/candidate --json "$tmp/j.json" >/dev/null 2>&1
"$PYTHON" tests/lib/cli_compare_ignore.py "$tmp/j.json" || bad "compare with an ignore rule"

# ---- calibrate ----
out=$("$PV_BIN" calibrate -c samples/netperf/perf.conf -s netperf samples/netperf/baseline 2>/dev/null)
echo "$out" | grep -q ' metrics with 5 runs each, ' || bad "calibrate: runs wording"
# scipy: binomtest(0, 200).proportion_ci(method="wilson") = 0 .. 0.018845
echo "$out" | grep -q '^  95% interval (Wilson): 0.0% to 1.9%; alpha: 5%$' || bad "calibrate: 0 of 200 interval"
echo "$out" | grep -q '^Below alpha: ' || bad "calibrate: no guidance below alpha"
out=$("$PV_BIN" calibrate -c samples/netperf/perf.conf -s netperf --correction none \
	--threshold 0 --alpha 0.2 --iterations 50 samples/netperf/baseline 2>/dev/null)
echo "$out" | grep -q '^Above alpha: ' && echo "$out" | grep -q -- '--correction bh or holm' ||
	bad "calibrate: no advice when the rate is high"

# One metric with 200k runs among 20000 small ones: the scratch is per
# metric (it asked for 64 GB and aborted); under 1 GB of address space.
mkdir -p "$tmp/big"
"$PYTHON" tests/lib/cli_big_csv.py "$tmp/big/r.csv"
if (ulimit -v 1000000 && "$PV_BIN" --version) >/dev/null 2>&1; then
	(ulimit -v 1000000; "$PV_BIN" calibrate --iterations 1 "$tmp/big") >/dev/null 2>"$tmp/err"
	[ $? -eq 0 ] || bad "calibrate of one 200k-sample metric: $(tail -n 1 "$tmp/err")"
	# Out of memory: one error line, exit 4.
	(ulimit -v 60000; "$PV_BIN" calibrate --iterations 1 "$tmp/big") >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -ne 127 ]; then
		[ $st -eq 4 ] || bad "out of memory: exit $st, not 4"
		tail -n 1 "$tmp/err" | grep -q '^perfverdict: error: out of memory allocating [0-9]* bytes \[out-of-memory\]$' ||
			bad "out of memory: $(tail -n 1 "$tmp/err")"
	fi
else
	echo "check_cli: skip the memory cases (ulimit -v does not apply to this build)"
fi
exit $failed

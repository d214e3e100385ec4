# shellcheck shell=sh
# tests/ci/history.sh - issue 21's groups of tests/ci/run.sh (sourced by
# it): github-action-benchmark data.js archives (benchdata), and the
# history jobs of ci/scripts/history-*.sh against a local bare repository
# as the remote (history_main, history_race, history_pr, history_gitlab).
# These run the real perfverdict ($PV_BIN, else build/perfverdict): change
# points cannot be faked.
# shellcheck disable=SC2016

PVREAL=${PV_BIN:-$ROOT/build/perfverdict}
case $PVREAL in /*) ;; *) PVREAL=$ROOT/$PVREAL ;; esac
BD=$TESTS/benchdata.py

need_pv() {
	[ -x "$PVREAL" ] && return 0
	say "# skip: no perfverdict binary at $PVREAL (make all)"
	return 1
}

# ---------------------------------------------------------------------------
group_benchdata() {
	need_pv || return 0
	new_case
	D=$TESTS/data/shogi-data.js
	"$PY" "$BD" synth s.js
	"$PVREAL" history s.js --json s.json >out 2>err
	check "data.js: history reads a synthetic data.js (3 tools, 12 commits)" eq "$?" 0
	"$PY" "$BD" points s.js pts
	"$PVREAL" history pts --json p.json >/dev/null 2>&1
	check "data.js: the same change points, series and statuses as its directory of points" "$PY" "$BD" compare s.json p.json
	check "data.js: history JSON is valid" "$PY" "$ROOT/tests/validate_json.py" s.json
	check "data.js: direction per tool (cargo lower, benchmarkjs and customBiggerIsBetter higher)" "$PY" -c '
import json, sys
h = json.load(open(sys.argv[1]))
d = {m["group"]: m["direction"] for m in h["metrics"]}
assert d == {"rust (cargo)": "lower", "js (benchmarkjs)": "higher", "custom": "higher"}, d
v = {m["group"]: {c["verdict"] for c in m["change_points"]} for m in h["metrics"]}
assert v == {"rust (cargo)": {"regression"}, "js (benchmarkjs)": {"regression"}, "custom": {"improvement"}}, v
assert all(c["index"] == 7 for m in h["metrics"] for c in m["change_points"])
p = h["points"][7]
assert p["kind"] == "benchmark-action" and len(p["label"]) == 7 and p["commit"].startswith(p["label"])
assert h["points"][0]["time"] == "2026-11-01T10:00:00Z", h["points"][0]["time"]
' s.json
	printf '[metric "custom/*"]\ndirection = lower\n' >dirs.conf
	"$PVREAL" history -c dirs.conf s.js --json c.json >/dev/null 2>&1
	check "data.js: a [metric] rule overrides the tool's direction" "$PY" -c '
import json, sys
h = json.load(open(sys.argv[1]))
d = {m["group"]: m["direction"] for m in h["metrics"]}
assert d == {"rust (cargo)": "lower", "js (benchmarkjs)": "higher", "custom": "lower"}, d
' c.json
	"$PVREAL" history "$D" --json a.json >/dev/null 2>&1
	check "data.js: a real one (rust-shogi-crates/shogi_legality_lite) reads" eq "$?" 0
	"$PY" "$BD" points "$D" spts
	"$PVREAL" history spts --json b.json >/dev/null 2>&1
	check "data.js: the real one gives the same result as its directory of points" "$PY" "$BD" compare a.json b.json
	check "data.js: the real one has 14 points, 3 metrics, all lower is better (cargo)" "$PY" -c '
import json, sys
h = json.load(open(sys.argv[1]))
assert len(h["points"]) == 14 and len(h["metrics"]) == 3
assert {m["direction"] for m in h["metrics"]} == {"lower"}
assert h["points"][0]["time"] == "2022-05-31T13:48:20Z"
' a.json
	# The plain JSON object reads the same.
	sed 's/^window.BENCHMARK_DATA = //' s.js >plain.json
	"$PVREAL" history plain.json --json q.json >/dev/null 2>&1
	check "data.js: the same object as plain JSON reads the same" "$PY" "$BD" compare s.json q.json
	# compare --baseline-history data.js CANDIDATE
	"$PY" "$BD" synth s.js
	"$PY" "$BD" candidate s.js good.js 1.0
	"$PY" "$BD" candidate s.js bad.js 1.1
	"$PVREAL" compare --baseline-history s.js good.js -q >out 2>err
	check "data.js: compare --baseline-history data.js CANDIDATE passes an unchanged candidate" eq "$?" 0
	"$PVREAL" compare --baseline-history s.js bad.js -q >out 2>err
	check "data.js: compare --baseline-history data.js CANDIDATE fails a 10% slower one" eq "$?" 1
	check "data.js: ... naming the cargo regression" has out "rust (cargo)"
	# Malformed files: the file and the line.
	sed '5s/"lastUpdate"/lastUpdate/; 3s/: /:: /' s.js >broken.js
	"$PVREAL" history broken.js >out 2>err
	check "data.js: a syntax error exits 3" eq "$?" 3
	check "data.js: ... naming the file and the line" grep -q "^perfverdict: error: broken.js:3:[0-9]*: .*\[malformed-json\]$" err
	head -n 40 s.js >cut.js
	"$PVREAL" history cut.js >out 2>err
	check "data.js: a truncated file names the file and its last line" grep -q "^perfverdict: error: cut.js:4[01]:[0-9]*: " err
	sed 's/"value": \([0-9.]*\),/"value": "\1",/' s.js >shape.js
	"$PVREAL" history shape.js >out 2>err
	check "data.js: a bench value that is not a number exits 3" eq "$?" 3
	check "data.js: ... naming the file and the entry" has err 'shape.js: entries["rust (cargo)"][0].benches[0].value: expected a finite number'
	check "data.js: each error is one line" eq "$(wc -l <err | tr -d ' ')" 1
}

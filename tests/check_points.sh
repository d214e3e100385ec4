#!/bin/sh
# compare --save-point and history over points (issue 21): the netperf
# candidate as a .json.gz point within 40 KB and valid against
# schemas/point.schema.json; a directory of points gives history the same
# change points as the result trees they came from, beside trees and
# reports in one archive; broken points (bad or truncated gzip, a JSON
# syntax error, a wrong shape) are one-line errors naming the file (and
# the line), exit status 3.
. "$(dirname "$0")/lib/test-lib.sh"
bad=0
say() { bad "$@"; }

# 1. The netperf sample's candidate as a point: size and schema.
GITHUB_SHA=3f2a9c1d0e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c SOURCE_DATE_EPOCH=1796156100 \
	"$PV_BIN" compare -c samples/netperf/perf.conf -s netperf -q \
	samples/netperf/baseline samples/netperf/candidate --candidate-label 3f2a9c1 \
	--save-point "$tmp/2026-12-01T201500Z-3f2a9c1.json.gz" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 1 ] || say "netperf compare --save-point: exit $st, expected 1: $(cat "$tmp/err")"
f=$tmp/2026-12-01T201500Z-3f2a9c1.json.gz
size=$(wc -c <"$f" 2>/dev/null || echo 999999)
[ "$size" -le 40960 ] || say "netperf point is $size bytes compressed, over 40 KB"
echo "check_points: the netperf candidate as a point: $size bytes gzipped"
"$PYTHON" tests/lib/validate_json.py "$f" || say "netperf point: invalid"
"$PYTHON" tests/lib/points_netperf_point.py "$f" || say "netperf point: wrong content"
# plain JSON without .gz
"$PV_BIN" compare -c samples/netperf/perf.conf -s netperf -q samples/netperf/baseline \
	samples/netperf/candidate --save-point "$tmp/p.json" >/dev/null 2>&1
head -c 40 "$tmp/p.json" | tr -d ' \n' | grep -q '^{"point_version":1,' || say "a .json point is not plain JSON"

# 2. The sample archive as points: the same history as the trees.
conf=samples/history/perf.conf
mkdir "$tmp/pts" "$tmp/mixed"
for d in samples/history/archive/*/; do
	n=$(basename "$d")
	"$PV_BIN" compare -c $conf -q "$d" "$d" --candidate-label "$n" \
		--save-point "$tmp/pts/$n.json.gz" >/dev/null 2>&1 ||
		say "compare --save-point of $n failed"
done
"$PYTHON" tests/lib/validate_json.py "$tmp"/pts/*.json.gz || say "sample points: invalid"
"$PV_BIN" history -c $conf samples/history/archive --json "$tmp/trees.json" >/dev/null 2>&1
st1=$?
"$PV_BIN" history -c $conf "$tmp/pts" --json "$tmp/points.json" >/dev/null 2>&1
st2=$?
[ $st1 -eq 1 ] && [ $st2 -eq 1 ] || say "history exit $st1 (trees), $st2 (points), expected 1 and 1"
"$PYTHON" tests/lib/validate_json.py "$tmp/points.json" || say "history over points: invalid JSON"
# Mixed: trees, points and a plain .json point in one archive.
for d in samples/history/archive/*/; do
	n=$(basename "$d")
	case $n in
	000[1-4]*) cp -r "$d" "$tmp/mixed/$n" ;;
	000[5-8]*) cp "$tmp/pts/$n.json.gz" "$tmp/mixed/" ;;
	*) gzip -dc "$tmp/pts/$n.json.gz" >"$tmp/mixed/$n.json" ;;
	esac
done
"$PV_BIN" history -c $conf "$tmp/mixed" --json "$tmp/mixed.json" >/dev/null 2>&1
[ $? -eq 1 ] || say "history over a mixed archive: not exit 1"
"$PYTHON" tests/lib/points_vs_trees.py "$tmp/trees.json" "$tmp/points.json" "$tmp/mixed.json" || say "points and trees differ"

# 3. Broken points: exit 3, one line naming the file (and the line).
broken() {  # broken NAME EXPECTED-STDERR-PATTERN
	"$PV_BIN" history -c $conf "$tmp/b" >/dev/null 2>"$tmp/err"
	st=$?
	[ $st -eq 3 ] || say "$1: exit $st, expected 3"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || say "$1: not one line: $(cat "$tmp/err")"
	grep -q -- "$2" "$tmp/err" || say "$1: stderr '$(cat "$tmp/err")' lacks '$2'"
	rm -rf "$tmp/b"
}
setup() { rm -rf "$tmp/b"; cp -r "$tmp/pts" "$tmp/b"; }
f=0005-77c1e0a.json.gz
setup; s=$(wc -c <"$tmp/b/$f"); head -c $((s / 2)) "$tmp/pts/$f" >"$tmp/b/$f"
broken "truncated gzip" "b/$f: corrupt gzip data: unexpected end \[bad-gzip\]"
setup; echo 'not gzip' >"$tmp/b/$f"
broken "not gzip" "b/$f: corrupt gzip data: .*\[bad-gzip\]"
setup; rm "$tmp/b/$f"; gzip -dc "$tmp/pts/$f" | sed '0,/,"benchmark"/s//;"benchmark"/' >"$tmp/b/0005-77c1e0a.json"
line=$(grep -n ';"benchmark"' "$tmp/b/0005-77c1e0a.json" | cut -d: -f1)
broken "JSON syntax" "b/0005-77c1e0a.json:$line:[0-9]*: .*\[malformed-json\]"
setup; gzip -dc "$tmp/pts/$f" | head -n 14 | gzip >"$tmp/b/$f"
broken "truncated JSON in gzip" "b/$f:[0-9]*:[0-9]*: .*\[malformed-json\]"
setup; gzip -dc "$tmp/pts/$f" | sed '0,/"samples":\[/s//"samples":["x",/' | gzip >"$tmp/b/$f"
broken "wrong shape" "b/$f: metrics\[0\].samples: expected a non-empty array of finite numbers \[bad-point\]"
setup; rm "$tmp/b/$f"; gzip -dc "$tmp/pts/$f" | sed '0,/"samples":\[/s//"samples":[null,/' >"$tmp/b/0005-77c1e0a.json"
broken "wrong shape, plain .json" "b/0005-77c1e0a.json: metrics\[0\].samples: expected a non-empty array of finite numbers \[bad-point\]"
setup; echo '{"neither": "a report nor a point"}' >"$tmp/b/0005-x.json"
broken "neither report nor point" "b/0005-x.json: expected schema_version"
setup; gzip -dc "$tmp/pts/$f" | sed 's/"time": *"[^"]*"/"time": "yesterday"/' | gzip >"$tmp/b/$f"
broken "bad time" "b/$f: time: expected an ISO 8601 UTC time"

exit $bad

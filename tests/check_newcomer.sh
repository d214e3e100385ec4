#!/bin/sh
# What a newcomer tripped over (issue 40): messages that name what went
# wrong and how to fix it, a terminal that says why, readable labels.
. "$(dirname "$0")/lib/test-lib.sh"
NO_COLOR=1
SOURCE_DATE_EPOCH=1764460800
COLUMNS=80
export NO_COLOR SOURCE_DATE_EPOCH COLUMNS

# hyperfine TREE SIDE: hyperfine files whose commands hold the side's
# directory ("python3 old/app.py"), as a newcomer's script wrote them.
hyperfine() {
	mkdir -p "$1"
	for k in 1 2 3 4; do
		printf '{"results":[{"command":"python3 %s/app.py --size %s","mean":0.1,"stddev":0.01,"median":0.1,"min":0.09,"max":0.11,"times":[0.1,0.11,0.09,0.1,0.1]}]}\n' \
			"$2" "$k" >"$1/bench$k.json"
	done
}

# ---- 1: nothing compared names the metrics, and the part that differs ----
hyperfine "$tmp/hf/old" old
hyperfine "$tmp/hf/new" new
"$PV_BIN" compare "$tmp/hf/old" "$tmp/hf/new" >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] || bad "nothing compared: not exit 3"
grep -q "missing: python3 old/app.py --size 1/time, .* and 1 more; new: python3 new/app.py --size 1/time, " "$tmp/err" ||
	bad "nothing compared names no metric: $(cat "$tmp/err")"
grep -q "differ only in 'old' vs 'new'" "$tmp/err" ||
	bad "nothing compared: no hint at the path in the names"
[ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] || bad "nothing compared: not one error line"
# Names that differ in more than one part get no hint.
hyperfine "$tmp/hf/other" "x/y"
"$PV_BIN" compare "$tmp/hf/old" "$tmp/hf/other" >/dev/null 2>"$tmp/err"
grep -q "hint" "$tmp/err" && bad "nothing compared: a hint for names that differ in two parts"

# ---- 2: the terminal says what an inconclusive run could detect ----
# Under each inconclusive row, the figures of the JSON's reason, in 80
# columns.
g=samples/gbench
"$PV_BIN" compare "$g/baseline" "$g/candidate" --json "$tmp/g.json" -q >/dev/null 2>&1
"$PV_BIN" compare "$g/baseline" "$g/candidate" >"$tmp/g.txt" 2>/dev/null
"$PYTHON" tests/lib/newcomer_inconclusive_terminal.py "$tmp/g.json" "$tmp/g.txt" || bad "the terminal hides why a change is inconclusive"

# ---- 6: runs laid out as tests (run1/ ... run5/) ----
# csv TREE RUN VALUE: one run's file.
csv() {
	mkdir -p "$1/run$2"
	printf 'benchmark,metric,unit,value\nsort,time,ns,%s\n' "$3" >"$1/run$2/r.csv"
}
for r in 1 2 3 4 5; do
	csv "$tmp/nr/base" "$r" "10$r"
	csv "$tmp/nr/cand" "$r" "11$r"
done
"$PV_BIN" compare "$tmp/nr/base" "$tmp/nr/cand" --json "$tmp/nr.json" >/dev/null 2>"$tmp/err"
grep -q "its 5 tests have one run each and their names differ only by a number ('run1/r.csv', 'run2/r.csv', ...); if they are runs of one test, set repeat_pattern = run\[0-9\]+ .*\[numbered-tests\]$" "$tmp/err" ||
	bad "run1/ ... run5/: no numbered-tests warning: $(cat "$tmp/err")"
[ "$(grep -c numbered-tests "$tmp/err")" -eq 1 ] || bad "numbered-tests said more than once"
# The suggested pattern joins the runs: one test of five runs a side.
printf '[bench]\nresult_file_pattern = \\.csv$\nrepeat_pattern = run[0-9]+\n' >"$tmp/nr.conf"
"$PV_BIN" compare -c "$tmp/nr.conf" "$tmp/nr/base" "$tmp/nr/cand" --json "$tmp/nr.json" >/dev/null 2>"$tmp/err"
grep -q numbered-tests "$tmp/err" && bad "numbered-tests with the runs joined"
"$PYTHON" -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]; assert len(m)==1 and m[0]["baseline"]["n"]==5, m' "$tmp/nr.json" ||
	bad "repeat_pattern = run[0-9]+ does not join the runs"
# Tests that differ by more than a number, or that have repeats, are
# not numbered runs.
mkdir -p "$tmp/nr/other"
cp -r "$tmp/nr/base/run1" "$tmp/nr/other/small"
cp -r "$tmp/nr/base/run2" "$tmp/nr/other/large"
"$PV_BIN" compare "$tmp/nr/other" "$tmp/nr/other" >/dev/null 2>"$tmp/err"
grep -q numbered-tests "$tmp/err" && bad "numbered-tests for tests named by words"
"$PV_BIN" compare samples/gbench/baseline samples/gbench/candidate >/dev/null 2>"$tmp/err"
grep -q numbered-tests "$tmp/err" && bad "numbered-tests for repeats"

# archive DIR N FROM STEP ID...: N points saved by compare --save-point
# under GIT_COMMIT (the manual path), 5 runs of two metrics each at
# about 1% noise; the points from FROM (1-based) on are STEP times
# slower; point i is labelled with the i-th ID.
archive() {
	dir=$1 n=$2 from=$3 step=$4
	shift 4
	mkdir -p "$dir"
	i=1
	for id in "$@"; do
		[ "$i" -le "$n" ] || break
		rm -rf "$tmp/pt"
		for r in 1 2 3 4 5; do
			mkdir -p "$tmp/pt/repeat$r"
			awk -v i="$i" -v r="$r" -v from="$from" -v step="$step" 'BEGIN {
				f = i >= from ? step : 1
				e = ((i * 7 + r * 13) % 11 - 5) / 500
				printf "benchmark,metric,unit,value\nparse,time,ns,%.3f\nsort,time,ns,%.3f\n",
					5727 * f * (1 + e), 160300 * f * (1 - e)
			}' >"$tmp/pt/repeat$r/r.csv"
		done
		GIT_COMMIT=$id "$PV_BIN" compare "$tmp/pt" "$tmp/pt" -q \
			--save-point "$dir/$(printf %04d "$i")-$id.json.gz" >/dev/null 2>&1 ||
			bad "cannot save point $i"
		i=$((i + 1))
	done
}
# ids N: N full commit ids, the 11th sharing 9 digits with the 3rd.
ids() {
	k=1
	while [ "$k" -le "$1" ]; do
		case $k in
		3) echo 0123456781111111111111111111111111111111 ;;
		11) echo 0123456782222222222222222222222222222222 ;;
		*) printf '%s' "c$k" | sha1sum | cut -c1-40 ;;
		esac
		k=$((k + 1))
	done
}

# ---- 5: full commit ids are shown short, as git shows them ----
# The 3rd and 11th ids share 9 digits: 10 tell them apart.
archive "$tmp/ids" 13 11 1.1 $(ids 13)
"$PV_BIN" history "$tmp/ids" --markdown "$tmp/ids.md" --html "$tmp/ids.html" \
	--json "$tmp/ids.json" >"$tmp/ids.txt" 2>"$tmp/err"
[ $? -eq 1 ] || bad "short ids: the +10% step does not fail history"
grep -q "parse/time rose [0-9.]*% at 0123456782 (.*); regression$" "$tmp/ids.txt" ||
	bad "short ids: the terminal does not name the step's commit short: $(cat "$tmp/ids.txt")"
grep -q 0123456782222 "$tmp/ids.txt" "$tmp/ids.md" "$tmp/ids.html" &&
	bad "short ids: a full id in the terminal, Markdown or HTML"
grep -q "at 0123456782 (0123456782" "$tmp/ids.html" "$tmp/ids.md" &&
	bad "short ids: the id printed twice"
grep -q "at 0123456782 ([0-9]" "$tmp/ids.html" || bad "short ids: the HTML names no commit"
# The JSON keeps the full id, for machines.
grep -q '"label": *"0123456782222222222222222222222222222222"' "$tmp/ids.json" ||
	bad "short ids: the JSON lost the full id"
# Without the near twin, 7 digits as git's default.
archive "$tmp/ids7" 13 11 1.1 $(ids 13 | sed 3s/^0123456781/ffffffffff/)
"$PV_BIN" history "$tmp/ids7" >"$tmp/ids7.txt" 2>/dev/null
grep -q "parse/time rose [0-9.]*% at 0123456 (.*); regression$" "$tmp/ids7.txt" ||
	bad "short ids: not 7 digits: $(cat "$tmp/ids7.txt")"

# ---- 7: the CI comment's trend table: names and one unit a row ----
# A pooled baseline of 10 points and a candidate 10% slower in parse
# (5727 ns): the row names parse/time, both means in µs.
archive "$tmp/pool" 10 99 1 $(ids 10)
rm -rf "$tmp/pt"
for r in 1 2 3 4 5; do
	mkdir -p "$tmp/pt/repeat$r"
	printf 'benchmark,metric,unit,value\nparse,time,ns,%s\nsort,time,ns,160300\n' "630$r" \
		>"$tmp/pt/repeat$r/r.csv"
done
"$PV_BIN" compare --baseline-history "$tmp/pool" "$tmp/pt" --json "$tmp/pool.json" -q >/dev/null 2>&1
[ $? -eq 1 ] || bad "trend table: the +10% candidate does not fail"
sh ci/scripts/history-comment.sh "$tmp/pool.json" >"$tmp/pool.md" || bad "history-comment.sh failed"
"$PYTHON" tests/lib/newcomer_trend_table.py "$tmp/pool.json" "$tmp/pool.md" || bad "trend table: internal ids or mixed units"
# The pooled points' labels, full commit ids here, as short as their commits.
grep -q "^| \`$(ids 10 | tail -n 1 | cut -c1-12)\` | \`$(ids 10 | tail -n 1 | cut -c1-12)\` | 1 |" "$tmp/pool.md" ||
	bad "trend table: a pooled point's label is a full commit id: $(grep '| 1 |' "$tmp/pool.md")"

# ---- 3: an unconfirmed step at the end is shown as a watch ----
# 12 points, the newest 2 +10% (a change point needs 3): history passes,
# says "no change points", and watches both metrics in every report.
archive "$tmp/w2" 12 11 1.1 $(ids 12 | sed 3s/^0123456781/ffffffffff/)
"$PV_BIN" history "$tmp/w2" --json "$tmp/w2.json" --markdown "$tmp/w2.md" \
	--html "$tmp/w2.html" >"$tmp/w2.txt" 2>/dev/null
[ $? -eq 0 ] || bad "watch: an unconfirmed step fails history"
grep -q "^no change points$" "$tmp/w2.txt" || bad "watch: the terminal found a change point"
[ "$(grep -cE "^watch   [a-z]*/time: newest 2 points \+(9|10)\.[0-9]%, worse, unconfirmed$" "$tmp/w2.txt")" -eq 2 ] ||
	bad "watch: the terminal does not watch the newest 2 points: $(cat "$tmp/w2.txt")"
awk 'length > 80 { exit 1 }' "$tmp/w2.txt" || bad "watch: a terminal line beyond 80 columns"
grep -q "^### Watch: the newest points moved, not confirmed yet (2)" "$tmp/w2.md" ||
	bad "watch: no Watch section in the Markdown"
[ "$(grep -c "xychart-beta" "$tmp/w2.md")" -eq 2 ] || bad "watch: no Mermaid chart in the Markdown"
[ "$(grep -c "<svg" "$tmp/w2.html")" -eq 2 ] && grep -q "<strong>watch</strong>: parse/time: the newest 2 points" "$tmp/w2.html" ||
	bad "watch: the HTML draws no chart or says nothing"
"$PYTHON" tests/lib/validate_json.py "$tmp/w2.json" || bad "watch: the history JSON is not valid against its schema"
"$PYTHON" tests/lib/newcomer_watch.py "$tmp/w2.json" || bad "watch: the JSON's watch is wrong"
# The newest point alone: "the newest point is".
archive "$tmp/w1" 12 12 1.1 $(ids 12 | sed 3s/^0123456781/ffffffffff/)
"$PV_BIN" history "$tmp/w1" >"$tmp/w1.txt" 2>/dev/null
grep -qE "^watch   parse/time: newest point \+(9|10)\.[0-9]%, worse, unconfirmed$" "$tmp/w1.txt" ||
	bad "watch: the newest point alone is not watched: $(cat "$tmp/w1.txt")"
# No step: nothing to watch, in the JSON either.
archive "$tmp/w0" 12 99 1 $(ids 12 | sed 3s/^0123456781/ffffffffff/)
"$PV_BIN" history "$tmp/w0" --json "$tmp/w0.json" >"$tmp/w0.txt" 2>/dev/null
grep -q "^watch" "$tmp/w0.txt" && bad "watch: a steady archive is watched"
"$PYTHON" -c 'import json,sys; assert all(m["watch"] is None for m in json.load(open(sys.argv[1]))["metrics"])' "$tmp/w0.json" ||
	bad "watch: a steady archive has a watch in its JSON"

# ---- 7: history's Markdown and HTML on the same archive ----
# 13 points, a +10% step in the newest 3 (both metrics): "2 regressions";
# a sparkline of one bar a point, the step's 3 the highest; Mermaid's x
# axis the points' short ids; no range of runs cut at the chart's frame.
"$PYTHON" tests/lib/newcomer_short_ids.py "$tmp/ids.md" "$tmp/ids.html" "$(ids 13 | cut -c1-10 | tr '\n' ' ')" || bad "history Markdown/HTML: see above"

# ---- 8: a misspelt option, end to end ----
"$PV_BIN" compare --treshold 5% a b 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown option '--treshold'; did you mean '--threshold'?" "$tmp/err" ||
	bad "--treshold: no suggestion: $(cat "$tmp/err")"


#!/bin/sh
# merge of two shards equals compare over their union: the kernbench
# sample split by program into shards a/ (kernbench, sysbench, hackbench)
# and b/ (specjbb, ebizzy, dbench).  Every metric's verdict, p and q must
# agree, the family correction being recomputed over the union; and a
# metric present in two shards is an error.
. "$(dirname "$0")/lib/test-lib.sh"
conf=samples/kernbench/perf.conf
for side in baseline candidate; do
	src=samples/kernbench/$side/results.csv
	for s in a b; do
		mkdir -p "$tmp/$s/$side/$s" "$tmp/all/$side/$s"
	done
	head -n 1 "$src" >"$tmp/a/$side/a/results.csv"
	head -n 1 "$src" >"$tmp/b/$side/b/results.csv"
	grep -E '^(kernbench|sysbench|hackbench),' "$src" >>"$tmp/a/$side/a/results.csv"
	grep -E '^(specjbb|ebizzy|dbench),' "$src" >>"$tmp/b/$side/b/results.csv"
	cp "$tmp/a/$side/a/results.csv" "$tmp/all/$side/a/"
	cp "$tmp/b/$side/b/results.csv" "$tmp/all/$side/b/"
done
for s in a b all; do
	"$PV_BIN" compare -c "$conf" "$tmp/$s/baseline" "$tmp/$s/candidate" \
		--json "$tmp/$s.json" -q >/dev/null
	[ $? -le 1 ] || exit 1
done
"$PV_BIN" merge "$tmp/a.json" "$tmp/b.json" --json "$tmp/merged.json"
st=$?
[ $st -le 1 ] || exit 1
"$PYTHON" tests/lib/validate_json.py "$tmp/merged.json" || exit 1
"$PYTHON" tests/lib/merge_check.py "$tmp/all.json" "$tmp/merged.json" "$st" || exit 1
# The same shard twice: every metric is in two reports.
if "$PV_BIN" merge "$tmp/a.json" "$tmp/a.json" --json "$tmp/dup.json" 2>"$tmp/err"; then
	echo "merge accepted a metric present in two shards" >&2
	exit 1
fi
grep -q "already in another report" "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
[ ! -e "$tmp/dup.json" ] || { echo "merge left a report after failing" >&2; exit 1; }

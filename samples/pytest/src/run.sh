#!/bin/sh
# Rerun the pytest-benchmark samples (Debian: python3-pytest-benchmark).
#   sh samples/pytest/src/run.sh        (ROUNDS=3 by default)
# test_bench.py runs in alternating rounds (ABBA), the candidate with
# PV_SLOWDOWN=1, which makes only test_sort sort 20% more items; round N
# writes {baseline,candidate}/repeatN/bench.json with --benchmark-json
# (which always holds the per-round data).  Each round of a benchmark
# lasts at least 0.5 ms and each benchmark at most ~30 ms, which keeps
# the files small.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out/baseline" "$out/candidate"
cp "$here/test_bench.py" "$tmp/"
run() {  # run SIDE ROUND SLOWDOWN
	mkdir -p "$out/$1/repeat$2"
	(cd "$tmp" && PV_SLOWDOWN=$3 /usr/bin/python3 -m pytest -q \
		-p no:cacheprovider test_bench.py \
		--benchmark-json="$out/$1/repeat$2/bench.json" \
		--benchmark-min-time=0.0005 --benchmark-max-time=0.03 \
		--benchmark-min-rounds=10 --benchmark-warmup=on) >/dev/null
}
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		run baseline "$r" 0; run candidate "$r" 1
	else
		run candidate "$r" 1; run baseline "$r" 0
	fi
	r=$((r + 1))
done

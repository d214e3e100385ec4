#!/bin/sh
# Rebuild and rerun the Google Benchmark samples (Debian: libbenchmark-dev).
#   sh samples/gbench/src/run.sh        (ROUNDS=5 by default)
# bench.cc is built twice: plain (baseline) and with -DSLOWDOWN
# (candidate), where only BM_Sort does 20% more work.  The two binaries
# run in alternating rounds (ABBA), 3 repetitions each, so that load from
# other processes falls on both sides alike; round N writes
# baseline/repeatN/bench.json and candidate/repeatN/bench.json.
# The same binaries also write aggregates-only/: one file per side made
# with --benchmark_report_aggregates_only, which cannot be tested.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
rounds=${ROUNDS:-5}
bin=/tmp/perfverdict-gbench-samples
rm -rf "$bin" "$out/baseline" "$out/candidate" "$out/aggregates-only"
mkdir -p "$bin/baseline" "$bin/candidate"
c++ -O2 -std=c++17 -o "$bin/baseline/bench" "$here/bench.cc" -lbenchmark -lpthread
c++ -O2 -std=c++17 -DSLOWDOWN -o "$bin/candidate/bench" "$here/bench.cc" \
	-lbenchmark -lpthread
run() {  # run SIDE ROUND
	mkdir -p "$out/$1/repeat$2"
	"$bin/$1/bench" --benchmark_repetitions=3 --benchmark_min_time=0.1 \
		--benchmark_out_format=json \
		--benchmark_out="$out/$1/repeat$2/bench.json" >/dev/null 2>&1
}
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		run baseline "$r"; run candidate "$r"
	else
		run candidate "$r"; run baseline "$r"
	fi
	r=$((r + 1))
done
for side in baseline candidate; do
	mkdir -p "$out/aggregates-only/$side"
	"$bin/$side/bench" --benchmark_repetitions=5 --benchmark_min_time=0.05 \
		--benchmark_report_aggregates_only=true \
		--benchmark_out_format=json \
		--benchmark_out="$out/aggregates-only/$side/bench.json" \
		>/dev/null 2>&1
done
rm -rf "$bin"

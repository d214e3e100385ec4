#!/bin/sh
# Rerun the `go test -bench` samples (Debian: golang-go).
#   sh samples/gobench/src/run.sh       (ROUNDS=5 by default)
# The package is compiled twice with `go test -c`: plain (baseline) and
# with -tags slowdown (candidate), where only BenchmarkSort sorts 20% more
# elements.  The two test binaries run in alternating rounds (ABBA) with
# -count 2 -benchmem, so that load from other processes falls on both
# sides alike; round N writes {baseline,candidate}/repeatN/bench.txt.
# Offline: the module has no dependencies.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
rounds=${ROUNDS:-5}
bin=/tmp/perfverdict-gobench-samples
export GOCACHE="$bin/cache" GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
rm -rf "$bin" "$out/baseline" "$out/candidate"
mkdir -p "$bin"
(cd "$here" && go test -c -o "$bin/baseline.test" . &&
	go test -c -tags slowdown -o "$bin/candidate.test" .)
run() {  # run SIDE ROUND
	mkdir -p "$out/$1/repeat$2"
	(cd "$here" && "$bin/$1.test" -test.run '^$' -test.bench . \
		-test.count 2 -test.benchmem -test.benchtime 200ms) \
		>"$out/$1/repeat$2/bench.txt"
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
rm -rf "$bin"

#!/bin/sh
# Rerun the hyperfine samples (Debian package: hyperfine).
#   sh samples/hyperfine/src/run.sh        (ROUNDS=5 by default)
# Baseline and candidate are measured in alternating rounds (ABBA), so
# that load from other processes falls on both sides alike; each round
# writes baseline/repeatN/ and candidate/repeatN/.  The candidate runs
# with PV_SLOWDOWN=1, which makes only `sh work.sh loop 30000` slower.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
rounds=${ROUNDS:-5}
rm -rf "$out/baseline" "$out/candidate"
cd "$here"
run() {  # run SIDE ROUND SLOWDOWN
	d="$out/$1/repeat$2"
	mkdir -p "$d"
	PV_SLOWDOWN=$3 hyperfine -N --style none --warmup 2 --runs 10 \
		--export-json "$d/commands.json" \
		'sh work.sh loop 30000' 'sh work.sh count 10' \
		'sh work.sh checksum' >/dev/null 2>&1
	PV_SLOWDOWN=$3 hyperfine -N --style none --warmup 1 --runs 10 \
		--export-json "$d/scan.json" \
		-L lines 5,20 'sh work.sh count {lines}' >/dev/null 2>&1
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

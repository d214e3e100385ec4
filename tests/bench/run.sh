#!/bin/sh
# make bench: perfverdict against the strtod floor on generated autotest
# trees of 10k, 100k and 1M metrics x 10 runs (tests/bench/gen.py).
# Each figure is the median of 5 runs after a warm-up, from
# /usr/bin/time -v.  A benchmark, not a test: nothing here can fail on
# speed, and `make check` never runs it.
#   BENCH_SIZES="10000 100000 1000000"   BENCH_RUNS=5
set -eu
cd "$(dirname "$0")/../.."
PV=${PV_BIN:-build/perfverdict}
FLOOR=build/bench/floor
PYTHON=${PYTHON:-/usr/bin/python3}
SIZES=${BENCH_SIZES:-10000 100000 1000000}
RUNS=${BENCH_RUNS:-5}
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p build/bench
${CC:-cc} -O2 -o "$FLOOR" tests/bench/floor.c
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM

# median wall seconds and peak RSS (KiB) of RUNS runs of a command.
# The report of the previous run is removed first, outside the timing:
# replacing a 140 MB file makes the file system free the old one's
# blocks inside rename(2) (60 ms on this VM's ext4 with discard).
measure() {
	rm -f "$out/r.json"
	"$@" >/dev/null 2>&1 || true       # warm-up (page cache)
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -f "$out/r.json"
		/usr/bin/time -f "%e %M" -o "$out/t.$i" "$@" >/dev/null 2>&1 || true
		i=$((i + 1))
	done
	cat "$out"/t.* | grep -v "^Command" | sort -n | awk -v n="$RUNS" '
		{ w[NR] = $1; if ($2 > m) m = $2 }
		END { printf "%s %d\n", w[int((n + 1) / 2)], m }'
	rm -f "$out"/t.*
}

printf '| metrics | floor s | decision (-q) s | x floor | with --json s | x floor | peak RSS MiB |\n'
printf '|---:|---:|---:|---:|---:|---:|---:|\n'
prev=""
for n in $SIZES; do
	t=build/bench/t$n
	[ -f "$t/perf.conf" ] || "$PYTHON" tests/bench/gen.py "$n" "$t"
	set -- compare -c "$t/perf.conf" "$t/baseline" "$t/candidate"
	f=$(measure "$FLOOR" "$t/baseline" "$t/candidate")
	q=$(measure "$PV" "$@" -q)
	j=$(measure "$PV" "$@" -q --json "$out/r.json")
	echo "$n $f $q $j" | awk '{
		printf "| %d | %.2f | %.2f | %.1f | %.2f | %.1f | %.0f |\n",
			$1, $2, $4, $4 / $2, $6, $6 / $2,
			($5 > $7 ? $5 : $7) / 1024 }'
	echo "$n $(echo "$j" | cut -d' ' -f1)" >>"$out/scale"
done
# The scaling the target names: the last two sizes (100k -> 1M).
[ -f "$out/scale" ] && tail -n 2 "$out/scale" | awk 'NR == 1 { n0 = $1; t0 = $2 } { n = $1; t = $2 }
     END { if (NR > 1) printf "\nscaling %d -> %d metrics (with --json): %.1fx time for %.0fx metrics\n",
			n0, n, t / t0, n / n0 }'

# history: 100 points x 10,000 metrics x 3 runs (tests/bench/history_gen.py),
# against the strtod floor of the same archive (the target: within 5x)
# and beside compare on two of its points; then 100, 300 and 1,000
# points x 1,000 metrics, for linearity in the points.
#   BENCH_HISTORY=0 skips it.
if [ "${BENCH_HISTORY:-1}" = 1 ]; then
	h=build/bench/history
	[ -f "$h/p099/results.csv" ] || "$PYTHON" tests/bench/history_gen.py "$h" 100 10000 3
	f=$(measure "$FLOOR" "$h")
	c=$(measure "$PV" compare -q "$h/p000" "$h/p001")
	q=$(measure "$PV" history -q "$h")
	j=$(measure "$PV" history -q --json "$out/r.json" "$h")
	printf '\n| history (100 points x 10,000 metrics x 3 runs) | s | x floor | peak RSS MiB | ns per sample |\n|---|---:|---:|---:|---:|\n'
	echo "$f $c $q $j" | awk '{
		printf "| strtod floor of the archive | %.2f | 1.0 | %.0f | %.0f |\n", $1, $2 / 1024, $1 * 1e9 / 3e6
		printf "| compare, 2 points (60,000 samples) | %.2f | | %.0f | %.0f |\n", $3, $4 / 1024, $3 * 1e9 / 60000
		printf "| history -q | %.2f | %.1f | %.0f | %.0f |\n", $5, $5 / $1, $6 / 1024, $5 * 1e9 / 3e6
		printf "| history --json | %.2f | %.1f | %.0f | %.0f |\n", $7, $7 / $1, $8 / 1024, $7 * 1e9 / 3e6
		# the target (issue 22): history -q within 5x the floor
		r = $5 / $1
		printf "\nhistory -q is %.1fx the strtod floor (%.2f s / %.2f s): target 5x, %s (%.2f s allowed)\n",
			r, $5, $1, r <= 5 ? "met" : sprintf("not met by %.0f%%", (r / 5 - 1) * 100), 5 * $1 }'
	printf '\n| history -q, points x 1,000 metrics x 3 runs | s | s per point | peak RSS MiB |\n|---:|---:|---:|---:|\n'
	for np in 100 300 1000; do
		hp=build/bench/history-$np
		last=$(printf 'p%03d' $((np - 1)))
		[ -f "$hp/$last/results.csv" ] || "$PYTHON" tests/bench/history_gen.py "$hp" "$np" 1000 3
		m=$(measure "$PV" history -q "$hp")
		echo "$np $m" | awk '{ printf "| %d | %.2f | %.4f | %.0f |\n", $1, $2, $2 / $1, $3 / 1024 }'
	done
	# step 2b at its busiest: most points a commit two metrics stepped at
	hs=build/bench/history-scatter
	[ -f "$hs/p299/results.csv" ] || "$PYTHON" tests/bench/history_gen.py "$hs" 300 2000 1 0.2
	f=$(measure "$FLOOR" "$hs")
	m=$(measure "$PV" history -q "$hs")
	printf '\n| history -q, 300 points x 2,000 metrics x 1 run, 20%% of them with two +-10%% steps at random points | s | x floor | peak RSS MiB |\n|---|---:|---:|---:|\n'
	echo "$f $m" | awk '{ printf "| strtod floor | %.2f | 1.0 | %.0f |\n| history -q | %.2f | %.1f | %.0f |\n", $1, $2 / 1024, $3, $3 / $1, $4 / 1024 }'
fi

#!/bin/sh
# tests/fuzz/run.sh - run the libFuzzer harnesses `make fuzz` built.
#
#   sh tests/fuzz/run.sh SECONDS [TARGET...]
#
# Each target (all of them by default) runs SECONDS seconds on a corpus
# seeded from samples/, tests/ and tests/fuzz/regress/TARGET/, copied
# into a temporary directory (or into $FUZZ_CORPUS/TARGET, kept between
# runs, when FUZZ_CORPUS is set).  Nothing generated is committed.
# FUZZ_JOBS targets run at once (1).  A crash, leak, timeout (10 s per
# input) or out-of-memory stops that target; its input is saved as
# build/fuzz/crashes/TARGET-crash-... and the exit status is 1.  To keep
# it fixed, copy the input to tests/fuzz/regress/TARGET/ (make check
# replays that directory through build/tests/tools/fuzzreplay).
. "$(dirname "$0")/../lib/test-lib.sh"
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
JOBS=${FUZZ_JOBS:-1}
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-rhs csv gbench pyperf hyperfine gobench pytest criterion jmh catch2 csv-summary gbench-aggregates criterion-old load config archive num dtoa point point-gz datajs benchmark-action}

mkdir -p "$FUZZ_DIR/crashes"

# seeds TARGET: the files that seed TARGET's corpus, one per line.
seeds() {
	case $1 in
	rhs) find samples tests/unit/data tests/golden -name '*.RHS' ;;
	csv) find samples tests/unit/data -name '*.csv' ;;
	csv-summary) find tests/golden/csv-summary -name '*.csv' ;;
	gbench-aggregates) find samples/gbench/aggregates-only tests/unit/data \
		-type f \( -name '*aggregates*' -o -path '*aggregates-only*' \) ;;
	criterion-old) find tests/golden/criterion-auto -name 'sample.json' -path '*old_parse*' ;;
	load) find tests/golden/csv-summary tests/golden/pair-benchstat \
		samples/gbench/aggregates-only -type f -name '*.*' ;;
	gobench) find samples tests/unit/data -name '*.txt' -path '*go*' ;;
	criterion) find samples tests/unit/data -name '*.json' -path '*criterion*' ;;
	gbench|pyperf|hyperfine|pytest|jmh)
		find samples tests/unit/data -name '*.json' -path "*$1*" ;;
	catch2) find samples tests/unit/data -name '*.xml' -path '*catch2*' ;;
	config) find samples tests/golden -name '*.conf' ;;
	archive) find tests/golden -name '*.json' -path '*/out/*' ;;
	num|dtoa) ;;
	point) find "$tmp/points" -name '*.json' ;;
	point-gz) find "$tmp/points" -name '*.json.gz' ;;
	datajs|benchmark-action) find samples tests/ci/data tests/unit/data \
		-name '*.js' ;;
	esac
	[ -d "tests/fuzz/regress/$1" ] && find "tests/fuzz/regress/$1" -type f
}

# points: samples/history's trees as history points, .json and .json.gz
# (compare --save-point F TREE), into $tmp/points, before the targets
# run in parallel.
points() {
	mkdir -p "$tmp/points"
	for d in samples/history/archive/*/; do
		n=$(basename "$d")
		"${PV_BIN:-build/perfverdict}" compare -c samples/history/perf.conf \
			--save-point "$tmp/points/$n.json" "$d" >/dev/null 2>&1
		"${PV_BIN:-build/perfverdict}" compare -c samples/history/perf.conf \
			--save-point "$tmp/points/$n.json.gz" "$d" >/dev/null 2>&1
	done
}

dict() {
	case $1 in
	rhs|csv|csv-summary|gobench) echo tests/fuzz/text.dict ;;
	config) echo tests/fuzz/config.dict ;;
	catch2) echo tests/fuzz/xml.dict ;;
	num|dtoa) ;;
	*) echo tests/fuzz/json.dict ;;
	esac
}

# fuzz TARGET: one target's whole run; its log is $tmp/TARGET.log.
fuzz() {
	bin=$FUZZ_DIR/fuzz-$1
	if [ ! -x "$bin" ]; then
		echo "fuzz: $bin is missing: run 'make fuzz'" >"$tmp/$1.log"
		return 2
	fi
	corpus=$tmp/corpus/$1
	[ -n "${FUZZ_CORPUS:-}" ] && corpus=$FUZZ_CORPUS/$1
	mkdir -p "$corpus"
	seeds "$1" | awk '{ print NR, $0 }' | while read -r n f; do
		# Readers get inflated text: pyperf's .json.gz as JSON.
		case $1:$f in
		point-gz:*) cp "$f" "$corpus/seed-$n" ;;
		*.gz) gzip -dc "$f" >"$corpus/seed-$n" ;;
		*) cp "$f" "$corpus/seed-$n" ;;
		esac
	done
	if [ "$1" = num ]; then
		n=0
		for s in 1 -0 1.5e300 1e-320 0.1 123456789012345678901 '  7 ' \
			 1e309 nan 0x10 1,5 12abc .5 5. -.e1; do
			n=$((n + 1))
			printf '%s' "$s" >"$corpus/num-$n"
		done
	fi
	if [ "$1" = dtoa ]; then
		# 1.0, 0.1, DBL_MAX, 2^-1074, DBL_MIN, -0.0 (little-endian)
		n=0
		for s in '\0\0\0\0\0\0\360\77' '\232\231\231\231\231\231\271\77' \
			 '\377\377\377\377\377\377\357\177' '\1\0\0\0\0\0\0\0' \
			 '\0\0\0\0\0\0\20\0' '\0\0\0\0\0\0\0\200'; do
			n=$((n + 1))
			printf "$s" >"$corpus/dtoa-$n"
		done
	fi
	d=$(dict "$1")
	# shellcheck disable=SC2086
	"$bin" "$corpus" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		${d:+-dict="$d"} -artifact_prefix="$FUZZ_DIR/crashes/$1-" \
		>"$tmp/$1.log" 2>&1
}

case " $targets " in *" point"*) points ;; esac
status=0
running=0
for target in $targets; do
	(fuzz "$target"; echo $? >"$tmp/$target.status") &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait
		running=0
	fi
done
wait
for target in $targets; do
	st=$(cat "$tmp/$target.status" 2>/dev/null || echo 2)
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$tmp/$target.log" | grep -o '[0-9]*$')
	cov=$(grep -o 'cov: [0-9]*' "$tmp/$target.log" | tail -n 1)
	if [ "$st" -eq 0 ]; then
		echo "ok   fuzz/$target: ${execs:-?} runs in ${seconds}s, $cov"
	else
		status=1
		echo "FAIL fuzz/$target (status $st):"
		grep -E 'ERROR|SUMMARY|Test unit written|runtime error|fuzz:|missing' \
			"$tmp/$target.log" | head -n 12
	fi
done
exit $status

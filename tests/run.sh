#!/bin/sh
# The whole test suite (make check).  The suite is a list of parts (a
# unit binary, a golden case, a check script, the CI, hostile-input,
# determinism and fuzz suites); JOBS parts run at once, each into its own
# log, and their output is printed in the fixed order below, so the
# transcript reads the same however they were scheduled.  The last line
# is "N passed, M failed" and the exit status is 0 only when nothing
# failed.
#   PV_BIN    the perfverdict binary (build/perfverdict)
#   PV_BUILD  the build directory holding tests/ (build)
#   PYTHON    Debian's python3 with scipy and jsonschema
#   JOBS      parts run at once (the number of CPUs)
#   PV_FUZZ_SECONDS  seconds per fuzz target (3)
set -u
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.." || exit 2
PV_BIN=${PV_BIN:-build/perfverdict}
PV_BUILD=${PV_BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
export PV_BIN PV_BUILD PYTHON
# The reports must not depend on the CI this runs in, nor on the
# terminal: no labels from the CI's variables, 80 columns.
unset GITHUB_SHA GITHUB_BASE_REF CI_COMMIT_SHA CI_MERGE_REQUEST_DIFF_BASE_SHA \
	GIT_COMMIT CHANGE_TARGET COLUMNS

# summarised PATTERN N CMD...: a suite with a long transcript: its last
# line (its tally), and on failure the first N lines that match PATTERN
# (an extended regex, either case).
summarised() {
	pick=$1 n=$2
	shift 2
	log=$(mktemp)
	"$@" >"$log" 2>&1
	st=$?
	tail -n 1 "$log"
	[ $st -eq 0 ] || grep -iE "$pick" "$log" | head -n "$n"
	rm -f "$log"
	return $st
}

# part NAME: run one part; prints what a reader needs, returns its status.
part() {
	case $1 in
	unit/*)
		t=$PV_BUILD/tests/${1#unit/}
		out=$("$t" 2>&1)
		st=$?
		[ $st -eq 0 ] || printf '%s\n' "$out" | tail -n 30
		return $st ;;
	golden/*)
		sh tests/golden.sh "tests/golden/${1#golden/}"
		return $? ;;
	check_*)
		sh "tests/$1.sh"
		return $? ;;
	ci)	# The CI integrations (ci/): scripts, YAML, simulated pipelines.
		summarised "^(not ok|    )" 60 sh tests/ci/run.sh
		return $? ;;
	bad)	# Hostile input (tests/bad/): broken files, trees, configs, paths.
		summarised "^(FAIL|     stderr)" 40 sh tests/bad/run.sh
		return $? ;;
	determinism)	# Byte-identical output: reruns, readdir order, de_DE.UTF-8.
		sh tests/determinism.sh
		return $? ;;
	fuzz)	# Every libFuzzer harness (clang, ASan, UBSan), briefly; `make
		# fuzz FUZZ_SECONDS=N` runs longer.
		log=$(mktemp)
		make --no-print-directory fuzz FUZZ_SECONDS="${PV_FUZZ_SECONDS:-3}" \
			>"$log" 2>&1
		st=$?
		if [ $st -eq 0 ]; then
			echo "fuzz: every harness ran ${PV_FUZZ_SECONDS:-3} s without a crash"
		else
			tail -n 30 "$log"
		fi
		rm -f "$log"
		return $st ;;
	esac
	echo "run.sh: no part '$1'"
	return 2
}

# run.sh --part NAME: one part alone (how the pool below runs each).
if [ "${1:-}" = --part ]; then
	part "$2"
	exit $?
fi

# The parts, in the order they are reported.  The fuzz pass needs clang;
# without it, it is skipped and said so.
parts=""
for t in "$PV_BUILD"/tests/test_*; do
	case $t in *.d) continue ;; esac
	[ -x "$t" ] && parts="$parts unit/$(basename "$t")"
done
for dir in tests/golden/*/; do
	[ -f "$dir/args" ] && parts="$parts golden/$(basename "$dir")"
done
for s in tests/check_*.sh; do
	[ -f "$s" ] && parts="$parts $(basename "$s" .sh)"
done
parts="$parts ci bad determinism"
nofuzz=""
if command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
	parts="$parts fuzz"
else
	nofuzz="fuzz: skipped (no ${FUZZ_CC:-clang}; ci/scripts/install-deps.sh installs it)"
fi

logs=$(mktemp -d) || exit 2
trap 'rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM HUP
# The longest parts start first, so that the last to finish is a short one.
for p in fuzz bad ci golden/history-sample check_ci_runners $parts; do
	case " $parts " in *" $p "*) echo "$p" ;; esac
done | awk '!seen[$0]++' >"$logs/queue"
# shellcheck disable=SC2016
xargs -P "$JOBS" -I '{}' sh -c '
	f=$2/$(printf "%s" "$1" | tr / +)
	sh tests/run.sh --part "$1" >"$f.out" 2>&1
	echo $? >"$f.st"' sh '{}' "$logs" <"$logs/queue"

pass=0
fail=0
failed=""
for p in $parts; do
	f=$logs/$(printf '%s' "$p" | tr / +)
	cat "$f.out" 2>/dev/null
	st=$(cat "$f.st" 2>/dev/null || echo 2)
	if [ "$st" -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok   $p"
	else
		fail=$((fail + 1))
		failed="$failed $p"
		echo "FAIL $p"
	fi
done
[ -z "$nofuzz" ] || echo "$nofuzz"

echo
[ -z "$failed" ] || echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# The whole test suite (make check).  Every part prints its own lines;
# the last line is "N passed, M failed" and the exit status is 0 only
# when nothing failed.
#   PV_BIN    the perfverdict binary (build/perfverdict)
#   PV_BUILD  the build directory holding tests/ (build)
#   PYTHON    Debian's python3 with scipy and jsonschema
set -u
LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.."
PV_BIN=${PV_BIN:-build/perfverdict}
PV_BUILD=${PV_BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
export PV_BIN PV_BUILD PYTHON
# The reports must not depend on the CI this runs in, nor on the
# terminal: no labels from the CI's variables, 80 columns.
unset GITHUB_SHA GITHUB_BASE_REF CI_COMMIT_SHA CI_MERGE_REQUEST_DIFF_BASE_SHA \
	GIT_COMMIT CHANGE_TARGET COLUMNS

pass=0
fail=0
failed=""

result() {  # result NAME STATUS
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok   $1"
	else
		fail=$((fail + 1))
		failed="$failed $1"
		echo "FAIL $1"
	fi
}

# Unit tests (cmocka): one binary per module.
for t in "$PV_BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1)
	st=$?
	[ $st -eq 0 ] || printf '%s\n' "$out" | tail -n 30
	result "unit/$(basename "$t")" $st
done

# End-to-end golden cases: tests/golden/<case>/.
for dir in tests/golden/*/; do
	[ -f "$dir/args" ] || continue
	sh tests/golden.sh "$dir"
	result "golden/$(basename "$dir")" $?
done

# Independent checks against scipy, schemas and consumers.
for s in tests/check_*.sh; do
	[ -f "$s" ] || continue
	sh "$s"
	result "$(basename "$s" .sh)" $?
done

# The CI integrations (ci/): shell scripts, YAML, simulated pipelines.
log=$(mktemp)
sh tests/ci/run.sh >"$log" 2>&1
st=$?
tail -n 1 "$log"
[ $st -eq 0 ] || grep -i "fail" "$log" | head -n 20
rm -f "$log"
result ci $st

# Hostile input (tests/bad/): broken files, trees, configs, report paths.
log=$(mktemp)
sh tests/bad/run.sh >"$log" 2>&1
st=$?
tail -n 1 "$log"
[ $st -eq 0 ] || grep -E "^(FAIL|     stderr)" "$log" | head -n 40
rm -f "$log"
result bad $st

# Byte-identical output: repeated runs, readdir order, de_DE.UTF-8.
sh tests/determinism.sh
result determinism $?

# A short bounded fuzzing pass: every libFuzzer harness (clang, ASan and
# UBSan) for PV_FUZZ_SECONDS each (3); `make fuzz FUZZ_SECONDS=N` runs
# longer ones.  Skipped, and said so, when a build has no clang.
if command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
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
	result fuzz $st
else
	echo "fuzz: skipped (no clang)"
fi

echo
[ -z "$failed" ] || echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

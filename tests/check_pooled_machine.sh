#!/bin/sh
# compare --baseline-history when every point of main ran on another CI
# runner (issue 40; cpsim's machine noise).  An archive of 10 points of
# 20 benchmarks, 3 runs each (tests/lib/pooled_machine_archive.py, seed
# 2): each point's runner moves all 20 together (2% sd), each benchmark
# has 1% of its own; main's newest point ran on a runner 6% fast, and in
# it bench00 stepped +10% (not yet a change point), so as measured it is
# only about +4% above its long-run level.
#   1. A candidate on an ordinary runner that only inherits bench00's
#      step passes.  The pooled baseline that took the points' noise as
#      the metrics' own missed the step under the fast runner and called
#      bench00 a +11% regression (exit 1, before the shared point effect
#      was a variance component of its own: history/pooled.h); less the
#      newest point's shared effect, bench00's newest point is +10%, an
#      end excursion, and the candidate is no worse than main now.
#   2. The same archive, bench00 10% slower again in the candidate:
#      a regression, judged against main's newest point, and no other.
. "$(dirname "$0")/lib/test-lib.sh"

# gen DIR CAND_BENCH00
gen() {
	"$PYTHON" tests/lib/pooled_machine_archive.py "$1" 2 -0.06 "$2" ||
		tl_die "cannot write $1"
}

# run NAME EXPECTED_EXIT DIR: the report's "benchmark verdict reason"
# lines into $tmp/NAME.v
run() {
	"$PV_BIN" compare --baseline-history "$3/arch" "$3/cand" \
		--json "$tmp/$1.json" >"$tmp/$1.out" 2>"$tmp/$1.err"
	st=$?
	[ $st -eq "$2" ] ||
		bad "$1: exit $st, expected $2: $(cat "$tmp/$1.err")"
	"$PYTHON" - "$tmp/$1.json" >"$tmp/$1.v" <<'PY' ||
import json, sys
for m in json.load(open(sys.argv[1]))["metrics"]:
    print(m["benchmark"], m["verdict"], m["reason"])
PY
		bad "$1: no usable JSON report"
}

gen "$tmp/inherit" 1.0
run inherit 0 "$tmp/inherit"
grep " regression " "$tmp/inherit.v" &&
	bad "inherit: a regression where the candidate only inherits main's newest level"
grep -q "^bench00 [a-z]* .*main's newest point moved +[0-9.]*% from its long-run level, not confirmed yet" "$tmp/inherit.v" ||
	bad "inherit: bench00's step in main's newest point is not an end excursion: $(grep '^bench00 ' "$tmp/inherit.v")"

gen "$tmp/worse" 1.10
run worse 1 "$tmp/worse"
[ "$(grep -c " regression " "$tmp/worse.v")" = 1 ] &&
	grep -q "^bench00 regression .*main's newest point moved" "$tmp/worse.v" ||
	bad "worse: not bench00 alone a regression judged against main's newest point: $(grep ' regression ' "$tmp/worse.v")"

[ $tl_failed -eq 0 ] && echo "check_pooled_machine: ok"
exit $tl_failed

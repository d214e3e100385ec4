#!/bin/sh
# The goldens' verdict checker (tests/lib/check_verdicts.py, run from their
# check files) can fail: run here by make check's glob, it passes the
# reviewed netperf report against the planted expectations, and refuses
# the same report with a planted regression called unchanged, an
# unexpected regression, and an expectation that matches no metric.
. "$(dirname "$0")/lib/test-lib.sh"
g=tests/golden/netperf
bad=0
"$PYTHON" tests/lib/check_verdicts.py "$g/out/report.json" "$g/expected" >/dev/null 2>&1 ||
	{ echo "check_checkers: check_verdicts.py refuses the netperf golden"; bad=1; }
"$PYTHON" tests/lib/plant_verdicts.py "$g/out/report.json" "$tmp"
for case in missed extra; do
	if "$PYTHON" tests/lib/check_verdicts.py "$tmp/$case.json" "$g/expected" >/dev/null 2>&1; then
		echo "check_checkers: check_verdicts.py passes a report with a $case regression"
		bad=1
	fi
done
{ cat "$g/expected"; echo "regression NOSUCH group metric"; } >"$tmp/expected"
if "$PYTHON" tests/lib/check_verdicts.py "$g/out/report.json" "$tmp/expected" >/dev/null 2>&1; then
	echo "check_checkers: check_verdicts.py passes an expectation no metric matches"
	bad=1
fi
exit $bad

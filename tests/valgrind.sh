#!/bin/sh
# tests/valgrind.sh - the end-to-end tests with every perfverdict process
# under valgrind (make valgrind-check): the golden cases, the consumer
# checks (tests/check_*.sh) and the hostile-input suite (tests/bad/).
#
# perfverdict is replaced by a wrapper that runs
#   valgrind -q --error-exitcode=1 --leak-check=full --log-file=...
# so each process logs to its own file; valgrind writes nothing there
# unless it found an error (invalid access, uninitialised value, a
# definite or possible leak).  The exit statuses the tests expect stay
# as they are, and the logs decide: any non-empty log is a failure.
#   PV_BIN (build/perfverdict), PV_BUILD (build), PYTHON
# A last part runs the JSON writer's two threads under helgrind: the
# netperf sample's 546 metrics are three chunks, two for the helper.
#   PV_VALGRIND_PARTS  which parts to run (golden checks bad threads)
. "$(dirname "$0")/lib/test-lib.sh"
case $PV_BIN in /*) ;; *) PV_BIN=$ROOT/$PV_BIN ;; esac
parts=${PV_VALGRIND_PARTS:-golden checks bad threads}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind-check: valgrind is not installed (apt-get install valgrind)"
	exit 1
fi
chmod 755 "$tmp"
mkdir "$tmp/logs"
chmod 1777 "$tmp/logs"   # the unreadable-file cases run as nobody
cat >"$tmp/perfverdict" <<EOF
#!/bin/sh
exec valgrind -q --error-exitcode=1 --leak-check=full \\
	--log-file="$tmp/logs/vg.%p.log" "$PV_BIN" "\$@"
EOF
chmod 755 "$tmp/perfverdict"
REAL_BIN=$PV_BIN
PV_BIN=$tmp/perfverdict
export PV_BIN PV_BUILD PYTHON

st=0
for part in $parts; do
	case $part in
	golden)
		for dir in tests/golden/*/; do
			[ -f "$dir/args" ] || continue
			if sh tests/golden.sh "$dir" >"$tmp/out" 2>&1; then
				echo "ok   valgrind golden/$(basename "$dir")"
			else
				echo "FAIL valgrind golden/$(basename "$dir")"
				tail -n 20 "$tmp/out"
				st=1
			fi
		done
		;;
	checks)
		for s in tests/check_*.sh; do
			[ -f "$s" ] || continue
			if sh "$s" >"$tmp/out" 2>&1; then
				echo "ok   valgrind $(basename "$s" .sh)"
			else
				echo "FAIL valgrind $(basename "$s" .sh)"
				tail -n 20 "$tmp/out"
				st=1
			fi
		done
		;;
	bad)
		# valgrind is some 30 times slower: more time per case.
		if PV_BAD_TIMEOUT=300 sh tests/bad/run.sh >"$tmp/out" 2>&1; then
			echo "ok   valgrind $(tail -n 1 "$tmp/out")"
		else
			echo "FAIL valgrind $(tail -n 1 "$tmp/out")"
			grep -E '^(FAIL|     stderr)' "$tmp/out" | head -n 30
			st=1
		fi
		;;
	threads)
		SOURCE_DATE_EPOCH=1764460800 valgrind -q --tool=helgrind \
			--log-file="$tmp/hg.log" "$REAL_BIN" compare \
			-c samples/netperf/perf.conf -s netperf \
			samples/netperf/baseline samples/netperf/candidate \
			--json "$tmp/threads.json" >/dev/null 2>&1
		if [ -s "$tmp/hg.log" ]; then
			echo "FAIL valgrind threads (helgrind)"
			head -n 40 "$tmp/hg.log"
			st=1
		elif ! cmp -s "$tmp/threads.json" tests/golden/netperf/out/report.json; then
			echo "FAIL valgrind threads: the report differs from golden/netperf"
			st=1
		else
			echo "ok   valgrind threads (helgrind: no races; report as golden/netperf)"
		fi
		;;
	esac
done

runs=$(find "$tmp/logs" -name 'vg.*.log' | wc -l)
bad=0
for log in "$tmp/logs"/vg.*.log; do
	[ -s "$log" ] || continue
	bad=$((bad + 1))
	[ $bad -le 5 ] && { echo "--- $log"; head -n 40 "$log"; }
done
if [ $bad -gt 0 ]; then
	echo "valgrind-check: $bad of $runs processes had valgrind errors"
	st=1
else
	echo "valgrind-check: $runs processes, no valgrind errors"
fi
exit $st

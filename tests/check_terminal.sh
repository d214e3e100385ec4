#!/bin/sh
# The terminal summary of every sample pair, at 80 and 160 columns
# (COLUMNS) and at 80 when not a terminal: no line wider than the
# terminal, at most 60 lines for samples/netperf at 80, the first lines
# say what was compared with what, every regression is listed, the
# closing line names the worst one, and -v lists every metric.
. "$(dirname "$0")/lib/test-lib.sh"
st=0
for dir in samples/*/; do
	dir=${dir%/}
	s=$(basename "$dir")
	[ -d "$dir/baseline" ] && [ -d "$dir/candidate" ] || continue
	conf=
	[ -f "$dir/perf.conf" ] && conf="-c $dir/perf.conf"
	# shellcheck disable=SC2086
	"$PV_BIN" compare $conf "$dir/baseline" "$dir/candidate" \
		--json "$tmp/$s.json" -q >/dev/null 2>&1
	for cols in 80 160 none; do
		if [ $cols = none ]; then
			# shellcheck disable=SC2086
			env -u COLUMNS NO_COLOR=1 "$PV_BIN" compare $conf \
				--candidate-label 0123456789abcdef0123456789abcdef01234567 \
				"$dir/baseline" "$dir/candidate" >"$tmp/$s.$cols" 2>/dev/null
		else
			# shellcheck disable=SC2086
			COLUMNS=$cols NO_COLOR=1 "$PV_BIN" compare $conf \
				--candidate-label 0123456789abcdef0123456789abcdef01234567 \
				"$dir/baseline" "$dir/candidate" >"$tmp/$s.$cols" 2>/dev/null
		fi
	done
	# shellcheck disable=SC2086
	COLUMNS=80 NO_COLOR=1 "$PV_BIN" compare -v $conf "$dir/baseline" \
		"$dir/candidate" >"$tmp/$s.verbose" 2>/dev/null
	"$PYTHON" tests/lib/terminal_check.py "$s" "$tmp/$s.json" "$tmp/$s" || st=1
done
exit $st

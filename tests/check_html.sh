#!/bin/sh
# The HTML report of every sample pair: its structure, one figure per
# regression and improvement, nothing loaded from anywhere
# (tests/html_check.py), and render --html from the archived JSON gives
# the same page byte for byte.
set -u
PV_BIN=${PV_BIN:-build/perfverdict}
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
st=0
n=0
for dir in samples/*/; do
	dir=${dir%/}
	s=$(basename "$dir")
	[ -d "$dir/baseline" ] && [ -d "$dir/candidate" ] || continue
	conf=
	[ -f "$dir/perf.conf" ] && conf="-c $dir/perf.conf"
	# shellcheck disable=SC2086
	SOURCE_DATE_EPOCH=1764460800 "$PV_BIN" compare $conf "$dir/baseline" \
		"$dir/candidate" --json "$tmp/$s.json" --html "$tmp/$s.html" \
		>/dev/null 2>"$tmp/$s.err"
	if [ $? -gt 1 ]; then
		echo "check_html: $s: compare failed: $(cat "$tmp/$s.err")" >&2
		st=1
		continue
	fi
	"$PYTHON" tests/html_check.py "$tmp/$s.html" "$tmp/$s.json" || st=1
	"$PV_BIN" render "$tmp/$s.json" --html "$tmp/$s.r.html" || st=1
	cmp "$tmp/$s.html" "$tmp/$s.r.html" || st=1
	n=$((n + 1))
done
[ $n -ge 10 ] || { echo "check_html: only $n sample pairs" >&2; st=1; }
exit $st

#!/bin/sh
# The HTML report of every sample pair: its structure, one figure per
# regression and improvement, nothing loaded from anywhere
# (tests/lib/html_check.py: a Content-Security-Policy that allows only the
# page's script, by its sha256), and render --html from the archived
# JSON gives the same page byte for byte; history's page has the same
# head and stylesheet and no script.
. "$(dirname "$0")/lib/test-lib.sh"
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
	"$PYTHON" tests/lib/html_check.py "$tmp/$s.html" "$tmp/$s.json" || st=1
	"$PV_BIN" render "$tmp/$s.json" --html "$tmp/$s.r.html" || st=1
	cmp "$tmp/$s.html" "$tmp/$s.r.html" || st=1
	n=$((n + 1))
done
[ $n -ge 10 ] || { echo "check_html: only $n sample pairs" >&2; st=1; }
# The CSP allows the page's script by its hash: a page whose script is
# not the one hashed (one byte changed) must fail the check.
sed 's/getElementById(.all.)/getElementById("al1")/' "$tmp/netperf.html" >"$tmp/tampered.html"
if cmp -s "$tmp/netperf.html" "$tmp/tampered.html"; then
	echo "check_html: could not change the script of netperf's page" >&2
	st=1
elif "$PYTHON" tests/lib/html_check.py "$tmp/tampered.html" "$tmp/netperf.json" 2>/dev/null; then
	echo "check_html: a script that is not the hashed one passed the check" >&2
	st=1
fi
# History's page: the same head and stylesheet, its CSP allowing no script.
SOURCE_DATE_EPOCH=1764460800 "$PV_BIN" history -c samples/history/perf.conf \
	--html "$tmp/history.html" samples/history/archive >/dev/null 2>&1
[ $? -le 1 ] || { echo "check_html: history --html failed" >&2; st=1; }
"$PYTHON" tests/lib/html_check.py --history "$tmp/history.html" || st=1
# ... and it is compare's: the same <style>, byte for byte.
style() { sed -n '/^<style>$/,/^<\/style>$/p' "$1"; }
[ -n "$(style "$tmp/history.html")" ] &&
	[ "$(style "$tmp/history.html")" = "$(style "$tmp/netperf.html")" ] ||
	{ echo "check_html: history's stylesheet is not compare's" >&2; st=1; }
exit $st

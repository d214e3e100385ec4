#!/bin/sh
# render reads reports of schema_version 1 (tests/data/report-v1.json, a
# part of the netperf sample's report as perfverdict 0.1.0 wrote it):
# every report comes out, the gate's verdict is kept, and a metric that
# version 1 called "unchanged" although it is never gated (direction
# none) is "ungated" now.
. "$(dirname "$0")/lib/test-lib.sh"
st=0
v1=tests/data/report-v1.json
"$PV_BIN" render "$v1" --markdown "$tmp/r.md" --junit "$tmp/r.xml" \
	--html "$tmp/r.html" || { echo "check_render_v1: render failed" >&2; exit 1; }
for f in r.md r.xml r.html; do
	[ -s "$tmp/$f" ] || { echo "check_render_v1: no $f" >&2; st=1; }
done
grep -q '^## .*Performance gate failed$' "$tmp/r.md" || { echo "check_render_v1: the verdict changed" >&2; st=1; }
grep -q '6 ungated' "$tmp/r.md" || { echo "check_render_v1: the ungated metrics are not counted" >&2; st=1; }
"$PYTHON" tests/lib/render_v1_junit.py "$v1" "$tmp/r.xml" || st=1
"$PYTHON" tests/lib/html_check.py "$tmp/r.html" "$v1" || st=1
# a version this build does not know is refused, naming the file
sed 's/"schema_version": 1/"schema_version": 99/' "$v1" >"$tmp/v99.json"
if "$PV_BIN" render "$tmp/v99.json" --markdown "$tmp/x.md" 2>"$tmp/err"; then
	echo "check_render_v1: schema_version 99 was accepted" >&2
	st=1
fi
grep -q "v99.json: expected schema_version 1 to 2" "$tmp/err" || { cat "$tmp/err" >&2; st=1; }
exit $st

#!/bin/sh
# The three reports of the netperf and kernbench samples, checked by their
# consumers: JUnit against both schemas and junitparser's counts, Markdown
# through cmark-gfm, and the size limit (tests/lib/writers_check.py).
. "$(dirname "$0")/lib/test-lib.sh"
st=0
for s in netperf kernbench; do
	"$PV_BIN" compare -c samples/$s/perf.conf samples/$s/baseline \
		samples/$s/candidate --json "$tmp/$s.json" --junit "$tmp/$s.xml" \
		--markdown "$tmp/$s.md" -q >/dev/null
	[ $? -le 1 ] || st=1
	"$PYTHON" tests/lib/writers_check.py "$tmp/$s.json" "$tmp/$s.xml" "$tmp/$s.md" || st=1
	# render must reproduce compare's reports byte for byte.
	"$PV_BIN" render "$tmp/$s.json" --junit "$tmp/$s.r.xml" --markdown "$tmp/$s.r.md" || st=1
	cmp "$tmp/$s.xml" "$tmp/$s.r.xml" || st=1
	cmp "$tmp/$s.md" "$tmp/$s.r.md" || st=1
done
exit $st

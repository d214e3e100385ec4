#!/bin/sh
# A 10,000-metric comparison whose names carry | < > ]]> * _ ` ANSI
# codes, @here and invalid UTF-8: the JSON must validate, the JUnit pass
# both schemas and junitparser's counts, and the Markdown render through
# cmark-gfm with consistent tables and stay under 65,536 characters.
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/lib/large_tree.py "$tmp"
"$PV_BIN" compare "$tmp/baseline" "$tmp/candidate" --json "$tmp/r.json" \
	--junit "$tmp/r.xml" --markdown "$tmp/r.md" -q >/dev/null 2>"$tmp/err"
st=$?
if [ $st -gt 1 ]; then
	cat "$tmp/err" >&2
	exit 1
fi
"$PYTHON" tests/lib/validate_json.py "$tmp/r.json" &&
"$PYTHON" tests/lib/writers_check.py "$tmp/r.json" "$tmp/r.xml" "$tmp/r.md"

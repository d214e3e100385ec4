#!/bin/sh
# Run one golden case (after mandoc's regress/ and curl's test files).
#
# tests/golden/<case>/ holds:
#   args     the arguments, one line; $OUT is a fresh directory for
#            reports and $CASE the case directory
#   exit     the expected exit status
#   stdout   the expected standard output (exact)
#   stderr   the expected standard error (exact)
#   out/     the expected report files, compared byte for byte with $OUT
#   check    optional: a command run afterwards with $OUT set; it must
#            exit 0 (independent checks: scipy, schemas, consumers)
# Every JSON report written is validated (tests/lib/validate_json.py) against
# its schema: schemas/report.schema.json for compare's, render's and
# merge's reports, schemas/history.schema.json for history's.
# With PV_UPDATE=1 the expected files are rewritten: review the diff.
. "$(dirname "$0")/lib/test-lib.sh"
case_dir=${1%/}
OUT=$tmp/out
CASE=$case_dir
mkdir "$OUT"
# The reports must not depend on the CI this runs in, nor on the
# terminal: no labels from the CI's variables, 80 columns.
unset GITHUB_SHA GITHUB_BASE_REF CI_COMMIT_SHA CI_MERGE_REQUEST_DIFF_BASE_SHA \
	GIT_COMMIT CHANGE_TARGET COLUMNS
export OUT CASE

args=$(sed -e "s|\$OUT|$OUT|g" -e "s|\$CASE|$CASE|g" "$case_dir/args")
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1764460800 NO_COLOR=1 $PV_BIN $args \
	>"$tmp/stdout" 2>"$tmp/stderr" </dev/null
echo $? >"$tmp/exit"
sed -i "s|$OUT|\$OUT|g" "$tmp/stdout" "$tmp/stderr"
for f in "$OUT"/*; do
	[ -f "$f" ] && sed -i "s|$OUT|\$OUT|g" "$f"
done

if [ "${PV_UPDATE:-0}" = 1 ]; then
	cp "$tmp/exit" "$tmp/stdout" "$tmp/stderr" "$case_dir/"
	rm -rf "$case_dir/out"
	if [ -n "$(ls "$OUT")" ]; then
		mkdir -p "$case_dir/out"
		cp "$OUT"/* "$case_dir/out/"
	fi
fi

st=0
for f in exit stdout stderr; do
	if ! diff -u "$case_dir/$f" "$tmp/$f"; then
		echo "$case_dir: $f differs" >&2
		st=1
	fi
done
if [ -d "$case_dir/out" ] || [ -n "$(ls "$OUT")" ]; then
	if ! diff -ru "$case_dir/out" "$OUT"; then
		echo "$case_dir: reports differ" >&2
		st=1
	fi
fi
for j in "$OUT"/*.json; do
	[ -f "$j" ] || continue
	if ! "$PYTHON" tests/lib/validate_json.py "$j"; then
		st=1
	fi
done
if [ -f "$case_dir/check" ]; then
	if ! sh "$case_dir/check"; then
		echo "$case_dir: check failed" >&2
		st=1
	fi
fi
exit $st

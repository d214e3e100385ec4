#!/bin/sh
# The shared point effect's worst point, in the note, the Markdown and
# the HTML, is one the effect was estimated at: a newest point with too
# few metrics for an effect (its shared_effect null) was picked as the
# largest and printed as "at most nan% faster at 'p40'".
. "$(dirname "$0")/lib/test-lib.sh"
cp -r tests/golden/history-shared-effect/archive "$tmp/a"
mkdir "$tmp/a/p40"
head -n 3 "$tmp/a/p39/results.csv" >"$tmp/a/p40/results.csv"
"$PV_BIN" history --markdown "$tmp/h.md" --html "$tmp/h.html" "$tmp/a" \
	>/dev/null 2>"$tmp/err"
st=$?
[ $st -le 1 ] || { echo "check_history_shared: exit $st: $(cat "$tmp/err")"; exit 1; }
for f in "$tmp/err" "$tmp/h.md" "$tmp/h.html"; do
	if grep -qi "nan%" "$f"; then
		echo "check_history_shared: $(basename "$f") quotes a point without an effect: $(grep -io '[^ ]* nan%[^)]*' "$f" | head -n 1)"
		exit 1
	fi
	grep -q "at most 10.4% slower at" "$f" ||
		{ echo "check_history_shared: $(basename "$f") does not name the largest effect (p02, +10.4%)"; exit 1; }
done
echo "check_history_shared: the largest effect is named (p02), not the point without one"

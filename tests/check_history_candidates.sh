#!/bin/sh
# A commit that moved two metrics is where history looks in the others
# (step 2b of history/changepoint.h).  An archive of 30 points x 20 metrics,
# one run each, 2% noise between points (seeded): "big1" and "big2" step
# +30% at point 15, "small" +2.5% there (a t of about 3.5: below the
# level of a search over every split position of every metric, above the
# level of a test at one commit over the metrics), the other 17 nothing.
# +3% was that before the tests' scale lost its bias (docs/history.md,
# twelfth round).  At +2.5% four of six seeds tried fail here on the
# start's binary too (seed 2025's noise makes a step of its own at 7 in
# small), so the seed is one that does not: this checks a candidate's
# marks; test_commit_candidates (tests/unit/test_changepoint.c) measures
# how often one is found.
#   - small's change point is at 15, marked commit_candidate, with a
#     q_value at most alpha (0.05) and a p_value times 20 (one candidate
#     commit, 20 metrics) as its q; the big two's are not candidates;
#     the HTML says so on small's line alone;
#   - the JSON validates against schemas/history.schema.json;
#   - with big2 flat (one metric's step alone is no candidate), small has
#     no change point, and no metric without a step has one either way.
. "$(dirname "$0")/lib/test-lib.sh"
fail() { tl_die "$@"; }

for case in two one; do
	"$PYTHON" tests/lib/candidates_archive.py "$tmp/$case" "$case" || fail "cannot write the archive"
	"$PV_BIN" history --json "$tmp/$case.json" --html "$tmp/$case.html" \
		"$tmp/$case" >/dev/null 2>"$tmp/$case.err"
	st=$?
	[ $st -le 1 ] || fail "$case: exit $st: $(cat "$tmp/$case.err")"
done
"$PYTHON" tests/lib/validate_json.py "$tmp/two.json" >"$tmp/v.out" 2>&1 ||
	fail "two.json does not validate: $(head -n 3 "$tmp/v.out")"
n=$(grep -c 'at a commit where other metrics stepped too' "$tmp/two.html")
[ "$n" = 1 ] || fail "two.html says 'at a commit where other metrics stepped too' $n times, not once (small's)"
grep 'at a commit where other metrics stepped too' "$tmp/two.html" | grep -q 'g/small/time' ||
	fail "two.html's candidate line is not small's"
"$PYTHON" tests/lib/candidates_check.py "$tmp/two.json" "$tmp/one.json"

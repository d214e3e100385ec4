#!/bin/sh
# A commit that moved two metrics is where history looks in the others
# (step 2b of stats/changepoint.h).  An archive of 30 points x 20 metrics,
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
	"$PYTHON" - "$tmp/$case" "$case" <<'EOF' || fail "cannot write the archive"
import math, os, random, sys
out, case = sys.argv[1], sys.argv[2]
rnd = random.Random(2027)
steps = {"big1": 0.30, "big2": 0.30 if case == "two" else 0.0, "small": 0.025}
names = ["big1", "big2", "small"] + ["flat%02d" % i for i in range(17)]
for p in range(30):
    d = os.path.join(out, "p%02d" % p)
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for n in names:
            v = 100.0 * math.exp(0.02 * rnd.gauss(0, 1)) * (1 + steps.get(n, 0) * (p >= 15))
            f.write("g,%s,time,ms,%.6g\n" % (n, v))
EOF
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
"$PYTHON" - "$tmp/two.json" "$tmp/one.json" <<'EOF'
import json, sys
def cps(path):
    h = json.load(open(path))
    return {m["benchmark"]: m["change_points"] for m in h["metrics"]}
two, one = cps(sys.argv[1]), cps(sys.argv[2])
bad = []
s = two["small"]
if [c["index"] for c in s] != [15]:
    bad.append("two big steps: small's change points are %s, not [15]" % [c["index"] for c in s])
else:
    c = s[0]
    if not c["commit_candidate"]:
        bad.append("small's change point is not marked commit_candidate")
    if not c["q_value"] <= 0.05:
        bad.append("small's q_value %g is above alpha" % c["q_value"])
    if abs(c["q_value"] - min(1, 20 * c["p_value"])) > 1e-9 * c["q_value"]:
        bad.append("small's q_value %g is not p x 20 (%g)" % (c["q_value"], 20 * c["p_value"]))
for b in ("big1", "big2"):
    if [x["index"] for x in two[b]] != [15] or two[b][0]["commit_candidate"]:
        bad.append("%s: %s" % (b, two[b]))
if one["small"]:
    bad.append("one big step: small has change points %s" % [c["index"] for c in one["small"]])
for case, d in (("two", two), ("one", one)):
    for n, c in d.items():
        if n.startswith("flat") and c:
            bad.append("%s: %s has change points %s" % (case, n, [x["index"] for x in c]))
if bad:
    print("check_history_candidates: " + "; ".join(bad))
    sys.exit(1)
print("check_history_candidates: small's step found at the commit the two big ones stepped at "
      "(p %.2g, q %.2g), not with one big step alone" % (s[0]["p_value"], s[0]["q_value"]))
EOF

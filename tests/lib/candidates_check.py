#!/usr/bin/python3
"""Check the change points of both archives: with two big steps, small's
+2.5% step is found at 15, a commit candidate with q = 20 p <= 0.05, the
big ones at 15 and not candidates; with one big step, small has none;
flat metrics never have any.

  usage: candidates_check.py TWO.json ONE.json

Run by tests/check_history_candidates.sh.
"""
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

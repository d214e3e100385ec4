#!/usr/bin/python3
"""merge_check.py ALL.json MERGED.json STATUS - the report merged from shards
has the same metrics as the report of the whole run (ALL.json), with the
same verdicts, p and q values (to 1e-12), and merge's exit STATUS agrees
with the merged verdict.  An assertion fails on a finding.
(Moved out of a heredoc of tests/check_merge.sh.)"""
import json, math, sys
union = {m["id"]: m for m in json.load(open(sys.argv[1]))["metrics"]}
merged = json.load(open(sys.argv[2]))
got = {m["id"]: m for m in merged["metrics"]}
assert set(union) == set(got), "different metrics"
def same(x, y):
    if x is None or y is None:
        return x is y
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-300)
bad = [i for i in union if union[i]["verdict"] != got[i]["verdict"]
       or not same(union[i]["test"]["p_value"], got[i]["test"]["p_value"])
       or not same(union[i]["q_value"], got[i]["q_value"])]
assert not bad, bad[:3]
status = 1 if merged["verdict"] == "fail" else 0
assert status == int(sys.argv[3]), "exit status disagrees with the verdict"
print(f"merge check: {len(got)} metrics agree with the union")

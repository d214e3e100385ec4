#!/usr/bin/python3
"""Check that history gives the same change points and series over result
trees, over the 12 points made from them, and over 4 trees and 8 points
mixed; the points keep the trees' labels.

  usage: points_vs_trees.py TREES.json POINTS.json MIXED.json

Run by tests/check_points.sh.
"""
import json, sys
def cps(path):
    h = json.load(open(path))
    return h, [(m["id"], m["status"], [(c["index"], c["label"], round(c["rel"], 9))
                                       for c in m["change_points"]],
                [round(s["value"], 9) for s in m["series"]]) for m in h["metrics"]]
(t, a), (p, b), (x, c) = cps(sys.argv[1]), cps(sys.argv[2]), cps(sys.argv[3])
assert any(cp for _, _, cp, _ in a), "the sample archive has change points"
assert a == b, (a, b)
assert a == c, (a, c)
assert [q["kind"] for q in p["points"]] == ["point"] * 12
assert [q["kind"] for q in x["points"]] == ["tree"] * 4 + ["point"] * 8
assert [q["label"] for q in p["points"]] == [q["label"] for q in t["points"]]

#!/usr/bin/python3
"""Writes TMP/base and TMP/cand (N metrics x 5 runs, the candidate 1%
slower) and TMP/want.json, the candidate samples a point must hold.

    report_set_trees.py "$tmp" 600

Run by tests/check_report_set.sh.
"""
import json, os, sys
root, n = sys.argv[1], int(sys.argv[2])
want = {}
for side, slow in (("base", 1.0), ("cand", 1.01)):
    os.makedirs(os.path.join(root, side))
    with open(os.path.join(root, side, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for i in range(n):
            for r in range(5):
                v = round((1000 + i) * slow * (1 + 0.001 * r), 3)
                f.write("g%d,bench%d,time,ns,%r\n" % (i % 7, i, v))
                if side == "cand":
                    want.setdefault("bench%d" % i, []).append(v)
json.dump(want, open(os.path.join(root, "want.json"), "w"))

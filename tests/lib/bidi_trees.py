#!/usr/bin/python3
"""Writes TMP/a and TMP/b (one CSV tree each) and TMP/arch (12 points, a
step at 6) whose metric is named with bidirectional controls (U+202E,
U+2066, U+2069, U+200F).

    bidi_trees.py "$tmp"

Run by tests/check_bidi.sh.
"""
import os, sys
t = sys.argv[1]
name = "evil\u202etxt.exe\u2066x\u2069\u200fy"
def tree(d, level):
    os.makedirs(d)
    with open(os.path.join(d, "r.csv"), "w", encoding="utf-8") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for i in range(5):
            f.write("g,%s,time,ns,%d\n" % (name, level + i))
tree(os.path.join(t, "a"), 1000)
tree(os.path.join(t, "b"), 1300)
for k in range(12):
    tree(os.path.join(t, "arch", "p%02d" % k), 1300 if k >= 6 else 1000)

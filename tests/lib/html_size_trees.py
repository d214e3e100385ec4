#!/usr/bin/python3
"""Writes TMP/baseline and TMP/candidate: 30,000 metrics x 5 runs, a fifth
20% slower and a tenth 20% faster in the candidate.

    html_size_trees.py "$tmp"

Run by tests/check_html_size.sh.
"""
import os, random, sys
root = sys.argv[1]
for side, seed in (("baseline", 1), ("candidate", 2)):
    rng = random.Random(seed)
    os.makedirs(os.path.join(root, side))
    with open(os.path.join(root, side, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for i in range(30000):
            base = 1000 + (i % 97) * 10
            move = 1.0
            if side == "candidate":
                move = 1.2 if i % 5 == 0 else 0.8 if i % 10 == 1 else 1.0
            for _ in range(5):
                f.write("g%d,bench %d,time,ns,%.3f\n"
                        % (i % 13, i, base * move * rng.gauss(1, 0.01)))

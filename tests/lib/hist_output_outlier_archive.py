#!/usr/bin/python3
"""Write twelve points: one 2x outlier run at point 4, a real +15% step at
point 7 (seeded).

  usage: hist_output_outlier_archive.py DIR

Run by tests/check_history_output.sh.
"""
import os, random, sys
random.seed(4)
for p in range(12):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            v = 800 * (1.15 if p >= 6 else 1) * (1 + 0.003 * random.gauss(0, 1))
            f.write("g,b,cpu_time,ns,%.6g\n" % (v * (2 if p == 3 and r == 1 else 1)))

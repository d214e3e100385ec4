#!/usr/bin/python3
"""Write twelve points of 150 metrics with steps, 40 of them recent
regressions (seeded), for --markdown-limit.

  usage: hist_output_big_archive.py DIR

Run by tests/check_history_output.sh.
"""
import os, random, sys
random.seed(9)
for p in range(12):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for k in range(150):
            at = 9 if k % 4 == 0 else 4
            for r in range(3):
                v = 100 * (1.3 if p >= at else 1) * (1 + 0.003 * random.gauss(0, 1))
                f.write("grp,bench_%03d,cpu_time,ns,%.6g\n" % (k, v))

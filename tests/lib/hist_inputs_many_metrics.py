#!/usr/bin/python3
"""Write six points under DIR, each with two of six metrics (three runs
each), for [limits] max_metrics over the archive.

  usage: hist_inputs_many_metrics.py DIR

Run by tests/check_history_inputs.sh.
"""
import os, sys
for p in range(6):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for k in (p % 3 * 2, p % 3 * 2 + 1):
            for r in range(3):
                f.write("g,b,m%d,ns,%d\n" % (k, 100 + r))

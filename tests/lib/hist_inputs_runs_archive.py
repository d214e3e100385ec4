#!/usr/bin/python3
"""Write ROOT/a, ten points of 20 metrics with RUNS runs each (a 1.5x spike
in all but the last run of some metrics when SPIKES is 1), and ROOT/c, a
candidate whose runs of b00 are scaled by the comma-separated CANDIDATE
factors (seeded).

  usage: hist_inputs_runs_archive.py ROOT RUNS SPIKES CANDIDATE

Run by tests/check_history_inputs.sh.
"""
import os, random, sys
root, runs, spikes, cand = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", \
    [float(f) for f in sys.argv[4].split(",")]
random.seed(9)
def point(d, factor):
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(runs):
            for m in range(20):
                v = (100 + 10 * m) * (1 + 0.01 * random.gauss(0, 1)) * factor(m, r)
                f.write("g,b%02d,t,ns,%.6g\n" % (m, v))
for p in range(10):
    hit = lambda m, p=p: spikes and (7 * p + 3 * m) % 10 == 0
    point(os.path.join(root, "a", "%04d" % p),
          lambda m, r: 1.5 if hit(m) and r < max(1, runs - 1) else 1.0)
point(os.path.join(root, "c"), lambda m, r: cand[r] if m == 0 else 1.0)

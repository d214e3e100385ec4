#!/usr/bin/python3
"""Write the policy archive: twelve points of nine metrics (throughputs,
latencies, a size) that step at point 10 by the given amount, with 1%
noise within a point and 0.3% between points (seeded).

  usage: policy_archive.py DIR

Run by tests/check_policy.sh.
"""
import os, random, sys
rnd = random.Random(20)
# name, unit, level, step at point 10, within-point sd, between-point sd
M = [("thr", "ops/s", 1000.0, -0.10), ("thr_big", "ops/s", 1000.0, -0.10),
     ("lat_waived", "ms", 100.0, 0.10), ("lat_expired", "ms", 100.0, 0.10),
     ("lat_abs", "ms", 100.0, 0.10), ("lat_strict", "ms", 100.0, 0.10),
     ("size_none", "B", 500.0, 0.10), ("noise_ignored", "ms", 100.0, 0.10),
     ("lat_flat", "ms", 100.0, 0.0)]
for p in range(12):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    level = {n: v * (1 + (s if p >= 9 else 0)) * (1 + rnd.gauss(0, 0.003))
             for n, u, v, s in M}
    rows = ["group,benchmark,metric,unit,value"]
    for r in range(3):
        rows += ["g,b,%s,%s,%.4f" % (n, u, level[n] * (1 + rnd.gauss(0, 0.01)))
                 for n, u, v, s in M]
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")

#!/usr/bin/python3
"""Write ten points of one metric, three runs each, under ROOT; SPEC is
Python that defines scale(p) and unit(p), the level and unit of point p
(seeded).

  usage: hist_inputs_archive.py ROOT SPEC

Run by tests/check_history_inputs.sh.
"""
import os, random, sys
random.seed(3)
root, spec = sys.argv[1], sys.argv[2]
env = {}
exec(spec, env)
for p in range(10):
    d = os.path.join(root, "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            v = 100 * env["scale"](p) * (1 + 0.003 * random.gauss(0, 1))
            f.write("g,b,t,%s,%.6g\n" % (env["unit"](p), v))

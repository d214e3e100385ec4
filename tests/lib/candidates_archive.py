#!/usr/bin/python3
"""Write the archive of candidates case CASE under DIR: 30 points; big1
steps +30% at point 15, big2 too when CASE is "two"; small steps +2.5%
there; 17 flat metrics (seeded).

  usage: candidates_archive.py DIR CASE

Run by tests/check_history_candidates.sh.
"""
import math, os, random, sys
out, case = sys.argv[1], sys.argv[2]
rnd = random.Random(2027)
steps = {"big1": 0.30, "big2": 0.30 if case == "two" else 0.0, "small": 0.025}
names = ["big1", "big2", "small"] + ["flat%02d" % i for i in range(17)]
for p in range(30):
    d = os.path.join(out, "p%02d" % p)
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for n in names:
            v = 100.0 * math.exp(0.02 * rnd.gauss(0, 1)) * (1 + steps.get(n, 0) * (p >= 15))
            f.write("g,%s,time,ms,%.6g\n" % (n, v))

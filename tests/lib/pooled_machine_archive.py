#!/usr/bin/python3
"""The archives of check_pooled_machine.sh: main's history where every
point ran on another CI runner, in cpsim's long CSV, and a candidate.

    pooled_machine_archive.py DIR SEED NEWEST_MACHINE CAND_BENCH00

Writes DIR/arch/p000..p009 (10 points of 3 runs) and DIR/cand, one
results.csv each: 20 benchmarks, each point's runs at its base times
(1 + machine) (1 + own) (1 + 0.002 Z): machine, the point's runner, is
shared by all 20 (2% sd; NEWEST_MACHINE for the newest point, 0 for the
candidate), own a benchmark's own 1% point noise.  bench00 is main's
unconfirmed step: +10% in the newest point and in the candidate, which
is CAND_BENCH00 times that on top.
"""
import os, random, sys
root, seed = sys.argv[1], int(sys.argv[2])
newest_machine, cand_bench00 = float(sys.argv[3]), float(sys.argv[4])
rnd = random.Random(seed)
names = ["bench%02d" % i for i in range(20)]
base = {b: 100.0 * 1.5 ** i for i, b in enumerate(names)}
def point(d, machine, step):
    os.makedirs(d)
    own = {b: 0.01 * rnd.gauss(0, 1) for b in names}
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            for b in names:
                v = base[b] * step(b) * (1 + machine) * (1 + own[b]) * \
                    (1 + 0.002 * rnd.gauss(0, 1))
                f.write("pm,%s,time,ns,%.6g\n" % (b, v))
for p in range(10):
    m = newest_machine if p == 9 else 0.02 * rnd.gauss(0, 1)
    point(os.path.join(root, "arch", "p%03d" % p), m,
          lambda b, p=p: 1.10 if b == "bench00" and p == 9 else 1.0)
point(os.path.join(root, "cand"), 0.0,
      lambda b: 1.10 * cand_bench00 if b == "bench00" else 1.0)

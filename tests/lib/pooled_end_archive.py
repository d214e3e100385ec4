#!/usr/bin/python3
"""The archives of check_pooled_end.sh: main's history of Google Benchmark
trees and a candidate.

    pooled_end_archive.py DIR SEED NEWEST SORT_STEP CAND_PARSE CAND_CPUS

Writes DIR/trees/00..09 (10 points of 5 runs, 2% noise) and DIR/cand.
NEWEST: BM_Parse's factor in the newest 2 points and in the candidate;
SORT_STEP: BM_Sort's factor from point 7 on (and in the candidate);
CAND_PARSE: BM_Parse's factor in the candidate, on top; CAND_CPUS: the
candidate's num_cpus (main's points have 2).
"""
import json, os, random, sys
root, seed, newest, sort_step, cand_parse, cpus = sys.argv[1], int(sys.argv[2]), \
    float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
rnd = random.Random(seed)
base = {"BM_Parse": 5700.0, "BM_Sort": 21000.0, "BM_Copy": 880.0}
def tree(d, factor, ncpu):
    os.makedirs(d)
    runs = []
    for r in range(5):
        for b, v in base.items():
            x = v * factor(b) * (1 + 0.02 * rnd.gauss(0, 1))
            c = 0.98 * v * factor(b) * (1 + 0.02 * rnd.gauss(0, 1))
            runs.append({"name": b, "run_name": b, "run_type": "iteration",
                         "repetitions": 5, "repetition_index": r,
                         "iterations": 1000, "real_time": x,
                         "cpu_time": c, "time_unit": "ns"})
    ctx = {"host_name": "ci", "executable": "./bench", "num_cpus": ncpu,
           "mhz_per_cpu": 2500, "cpu_scaling_enabled": False,
           "library_build_type": "release"}
    json.dump({"context": ctx, "benchmarks": runs},
              open(os.path.join(d, "bench.json"), "w"), indent=1)
for p in range(10):
    f = lambda b, p=p: (newest if p >= 8 and b == "BM_Parse" else 1.0) * \
        (sort_step if b == "BM_Sort" and p >= 7 else 1.0)
    tree(os.path.join(root, "trees", "%02d" % p), f, 2)
tree(os.path.join(root, "cand"),
     lambda b: (sort_step if b == "BM_Sort" else 1.0) *
     (newest * cand_parse if b == "BM_Parse" else 1.0), cpus)

#!/usr/bin/python3
"""Write a history archive for make bench: POINTS points x METRICS metrics
x RUNS runs, each point a long-format results.csv, machine noise (0.5% within
a point, 2% between points), a +10% step in 1% of the metrics at the middle;
with SCATTER (a fraction), that fraction of the metrics has instead two
+-10% steps at random points (most points are then a commit two metrics
stepped at: history's step 2b at its busiest).
Usage: history_gen.py OUT [POINTS METRICS RUNS [SCATTER]]; fixed seed."""
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    points, metrics, runs = (int(x) for x in (sys.argv[2:5] or (100, 10000, 3)))
    scatter = float(sys.argv[5]) if len(sys.argv) > 5 else 0
    rng = np.random.default_rng(7)
    base = np.exp(rng.uniform(np.log(1e2), np.log(1e6), metrics))
    step = np.ones(metrics)
    step[: metrics // 100] = 1.10
    lev = np.ones((points, metrics))
    if scatter:
        step[:] = 1
        for m in range(int(scatter * metrics)):
            for k in rng.choice(np.arange(5, points - 5), 2, replace=False):
                lev[k:, m] *= 1.1 if rng.random() < 0.5 else 0.9
    names = [f"cpsim,bench{m:05d},time,ns," for m in range(metrics)]
    for p in range(points):
        d = os.path.join(out, f"p{p:03d}")
        os.makedirs(d, exist_ok=True)
        off = 1 + 0.02 * rng.standard_normal(metrics)
        level = base * off * (step if p >= points // 2 else 1) * lev[p]
        with open(os.path.join(d, "results.csv"), "w") as f:
            f.write("group,benchmark,metric,unit,value\n")
            for _ in range(runs):
                v = level * (1 + 0.005 * rng.standard_normal(metrics))
                f.write("".join(f"{n}{x:.6g}\n" for n, x in zip(names, v)))


if __name__ == "__main__":
    main()

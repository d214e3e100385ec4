#!/usr/bin/python3
"""Write a history archive for make bench: POINTS points x METRICS metrics
x RUNS runs, each point a long-format results.csv, machine noise (0.5% within
a point, 2% between points), a +10% step in 1% of the metrics at the middle.
Usage: history_gen.py OUT [POINTS METRICS RUNS]; fixed seed."""
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    points, metrics, runs = (int(x) for x in (sys.argv[2:5] or (100, 10000, 3)))
    rng = np.random.default_rng(7)
    base = np.exp(rng.uniform(np.log(1e2), np.log(1e6), metrics))
    step = np.ones(metrics)
    step[: metrics // 100] = 1.10
    names = [f"cpsim,bench{m:05d},time,ns," for m in range(metrics)]
    for p in range(points):
        d = os.path.join(out, f"p{p:03d}")
        os.makedirs(d, exist_ok=True)
        off = 1 + 0.02 * rng.standard_normal(metrics)
        level = base * off * (step if p >= points // 2 else 1)
        with open(os.path.join(d, "results.csv"), "w") as f:
            f.write("group,benchmark,metric,unit,value\n")
            for _ in range(runs):
                v = level * (1 + 0.005 * rng.standard_normal(metrics))
                f.write("".join(f"{n}{x:.6g}\n" for n, x in zip(names, v)))


if __name__ == "__main__":
    main()

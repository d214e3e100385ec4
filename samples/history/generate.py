#!/usr/bin/python3
"""Write the sample archive samples/history/archive/ from a fixed seed
(standard library only; rerunning reproduces every file byte for byte).

Twelve nightly points of one CI job, named NNNN-<commit>, each a result
tree with one long-format CSV (group,benchmark,metric,unit,value; three
runs).  Every point ran on another runner: its runs share an offset of
0.6% sd, and runs inside it differ by 0.4% sd.  Two real steps are
planted:
  * netperf TCP_STREAM-1024 throughput drops 8.7% from 0010-9be04d2 on
    (index 9, in the newest 3 points: `history` exits 1 and names it);
  * kernbench build elapsed improves 6% from 0005-77c1e0a on (index 4).
"""
import os
import random
import sys

COMMITS = ["3f2a9c1", "a41d0e7", "c09b2f4", "5e7d113", "77c1e0a", "e2b8d90",
           "0d4f6a2", "b93c7e5", "61fa2d8", "9be04d2", "d5e0c3b", "48a7f19"]
METRICS = [
    # group, benchmark, metric, unit, base, (step index, factor)
    ("netperf", "TCP_STREAM-1024", "throughput", "Mbps", 9410.0, (9, 0.913)),
    ("netperf", "TCP_STREAM-1024", "cpu", "%", 38.2, None),
    ("kernbench", "build", "elapsed", "s", 212.4, (4, 0.94)),
    ("kernbench", "build", "user", "s", 1581.0, None),
]
RUNS = 3


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "archive")
    rng = random.Random(20261201)
    for i, commit in enumerate(COMMITS):
        d = os.path.join(out, f"{i + 1:04d}-{commit}")
        os.makedirs(d, exist_ok=True)
        offsets = [rng.gauss(0, 0.006) for _ in METRICS]
        rows = ["group,benchmark,metric,unit,value"]
        for _ in range(RUNS):
            for (g, b, m, u, base, step), off in zip(METRICS, offsets):
                level = base
                if step and i >= step[0]:
                    level *= step[1]
                v = level * (1 + off) * (1 + rng.gauss(0, 0.004))
                rows.append(f"{g},{b},{m},{u},{v:.5g}")
        with open(os.path.join(d, "results.csv"), "w", encoding="ascii",
                  newline="\n") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main(sys.argv)

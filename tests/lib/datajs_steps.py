#!/usr/bin/python3
"""A github-action-benchmark data.js in which every bench steps.

  datajs_steps.py OUT.js N B [F]
        N commits, one suite "s" of the tool "customSmallerIsBetter", B
        benches: bench i at 100 + i with 1% noise, 30% slower from commit
        N/2 on, except the last F benches (0), which step at commit N - 3:
        a regression among the newest 3 points, which fails the gate
"""
import hashlib
import json
import random
import sys

out, n, nb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
nf = int(sys.argv[4]) if len(sys.argv) > 4 else 0
rng = random.Random(11)
base = 1767225600000  # 2026-01-01T00:00:00Z in ms
entries = []
for k in range(n):
    def step(i):
        at = n - 3 if i >= nb - nf else n // 2
        return 1.3 if k >= at else 1.0
    entries.append({
        "commit": {"id": hashlib.sha1(b"%d" % k).hexdigest()}, "date": base + k * 3600000,
        "tool": "customSmallerIsBetter",
        "benches": [{"name": "b%05d" % i, "unit": "ms",
                     "value": (100 + i) * step(i) * (1 + rng.gauss(0, 0.01))}
                    for i in range(nb)]})
with open(out, "w", encoding="utf-8") as f:
    f.write("window.BENCHMARK_DATA = " + json.dumps(
        {"lastUpdate": base, "repoUrl": "x", "entries": {"s": entries}}) + "\n")

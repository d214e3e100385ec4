#!/usr/bin/python3
"""A github-action-benchmark data.js for the archive-integrity checks.

  datajs.py OUT.js N [ID...]   N commits, one suite "s" of the "customSmallerIsBetter"
                               tool, two benches ("a", "b") at 100 and 200 with a
                               little noise; commit k is an hour after 2026-01-01
                               times k, its id the k-th ID given (cycled), else a
                               hex id of its own.  An ID of the form @MS sets that
                               entry's date (milliseconds) instead and keeps the
                               hex id; =ISO sets commit.timestamp.
"""
import json
import os
import random
import sys

out, n, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rng = random.Random(7)
nb = int(os.environ.get("DATAJS_BENCHES", "2"))
benches = [("a", 100), ("b", 200)] if nb == 2 else \
    [("b%03d" % i, 100 + i) for i in range(nb)]
entries = []
base = 1767225600000  # 2026-01-01T00:00:00Z in ms
for k in range(n):
    cid = "%040x" % (0x3f2a9c1d0e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c + k * 0x1000000000000000000000000000000000)
    date = base + k * 3600000
    commit = {"id": cid}
    if ids:
        spec = ids[k % len(ids)]
        if spec.startswith("@"):
            date = float(spec[1:])
        elif spec.startswith("="):
            commit["timestamp"] = spec[1:]
        else:
            commit["id"] = spec
    entries.append({
        "commit": commit, "date": date, "tool": "customSmallerIsBetter",
        "benches": [{"name": b, "value": v * (1 + rng.gauss(0, 0.01)), "unit": "ms"}
                    for b, v in benches]})
with open(out, "w", encoding="utf-8") as f:
    f.write("window.BENCHMARK_DATA = " + json.dumps({"lastUpdate": base, "repoUrl": "x",
            "entries": {"s": entries}}) + "\n")

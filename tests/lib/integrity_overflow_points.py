#!/usr/bin/python3
"""Write ten points into DIR, the last with samples of +-1e308 whose
statistics overflow (non-finite statistics must not pass).

  usage: integrity_overflow_points.py DIR

Run by tests/check_archive_integrity.sh.
"""
import gzip, json, os, sys
for k in range(10):
    s = [1e308, 1e308, -1e308] if k == 9 else [1.0, 1.1, 0.9]
    p = {"point_version": 1, "label": "p%d" % k, "commit": "c%d" % k,
         "time": "2026-01-%02dT00:00:00Z" % (k + 1), "suite": "s", "context": {},
         "metrics": [{"suite": "", "test": "", "group": "", "benchmark": "b", "metric": "m",
                      "unit": "ns", "samples": s}]}
    with gzip.open(os.path.join(sys.argv[1], "2026-01-%02dT000000Z-c%d.json.gz" % (k + 1, k)), "wt") as f:
        json.dump(p, f)

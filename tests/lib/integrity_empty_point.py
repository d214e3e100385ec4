#!/usr/bin/python3
"""Write five points into DIR, the third with no metrics (an empty point is
a gap, not an error).

  usage: integrity_empty_point.py DIR

Run by tests/check_archive_integrity.sh.
"""
import gzip, json, os, sys
for k in range(5):
    ms = [] if k == 2 else [{"suite": "", "test": "", "group": "", "benchmark": "b", "metric": "m",
                             "unit": "ns", "samples": [1.0 + k / 100, 1.01 + k / 100]}]
    p = {"point_version": 1, "label": "p%d" % k, "commit": "c%d" % k,
         "time": "2026-01-%02dT00:00:00Z" % (k + 1), "suite": "s", "context": {}, "metrics": ms}
    with gzip.open(os.path.join(sys.argv[1], "2026-01-%02dT000000Z-c%d.json.gz" % (k + 1, k)), "wt") as f:
        json.dump(p, f)

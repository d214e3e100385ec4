#!/usr/bin/python3
"""Check the netperf candidate's point: label, commit, time, context, and
546 metrics of 5 samples each.

  usage: points_netperf_point.py POINT.json.gz

Run by tests/check_points.sh.
"""
import gzip, json, sys
p = json.load(gzip.open(sys.argv[1], "rt"))
assert p["label"] == "3f2a9c1", p["label"]
assert p["commit"] == "3f2a9c1d0e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c"
assert p["time"] == "2026-12-01T20:15:00Z", p["time"]
assert p["context"]["session-length"] == "60"
assert len(p["metrics"]) == 546 and all(len(m["samples"]) == 5 for m in p["metrics"])

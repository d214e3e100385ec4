#!/usr/bin/python3
"""Check each metric's watch in the JSON: two points, about +10% (the data
are 1.1 times the level, noise symmetric about it), q <= 0.05, and no
change point.

  usage: newcomer_watch.py REPORT.json

Run by tests/check_newcomer.sh.
"""
import json, sys
for m in json.load(open(sys.argv[1]))["metrics"]:
    w = m["watch"]
    # the data are 1.1 times the level, noise symmetric about it
    assert w and w["points"] == 2 and abs(w["rel"] - 0.1) < 0.01, (m["benchmark"], w)
    assert w["q_value"] <= 0.05 and not m["change_points"], w

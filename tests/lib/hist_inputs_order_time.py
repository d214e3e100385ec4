#!/usr/bin/python3
"""Check that history orders the points by their UTC times, whatever their
zones.

  usage: hist_inputs_order_time.py HISTORY.json

Run by tests/check_history_inputs.sh.
"""
import json, sys
r = json.load(open(sys.argv[1]))
got = [p["label"] for p in r["points"]]
# UTC: p1 05:00, p2 07:00, p3 08:00, p4 08:30, p5 09:30.5, p6 09:30
want = ["p1.json", "p2.json", "p3.json", "p4.json", "p6.json", "p5.json"]
if got != want:
    print(got, file=sys.stderr)
    sys.exit(1)

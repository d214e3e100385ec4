#!/usr/bin/python3
"""Checks a one-tree point (gzip JSON) against WANT.json: its samples,
label, commit and time.

    report_set_point.py "$tmp/one.json.gz" "$tmp/want.json"

Run by tests/check_report_set.sh.
"""
import gzip, json, sys
p = json.load(gzip.open(sys.argv[1], "rt"))
want = json.load(open(sys.argv[2]))
got = {m["benchmark"]: m["samples"] for m in p["metrics"]}
assert got == want, (len(got), len(want))
assert p["label"] == "3f2a9c1" and p["commit"].startswith("3f2a9c1d0e5b")
assert p["time"] == "2026-12-01T20:15:00Z", p["time"]

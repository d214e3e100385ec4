#!/usr/bin/python3
"""Check compare with an ignore rule on thr*: those metrics are ungated and
marked ignored, some of them did move; no other metric is ungated unless
it has no direction.

  usage: cli_compare_ignore.py REPORT.json

Run by tests/check_cli.sh.
"""
import json, sys
r = json.load(open(sys.argv[1]))
ign = [m for m in r["metrics"] if m["metric"].startswith("thr")]
assert ign and all(m["verdict"] == "ungated" and m.get("ignored") for m in ign)
assert all(m["verdict"] != "ungated" or m["direction"] == "none" or
           m.get("ignored") for m in r["metrics"])
moved = [m for m in ign if m["q_value"] is not None and m["q_value"] < 0.05
         and abs(m["change"]["rel"]) > 0.05]
assert moved, "some ignored thr/%CPU metrics moved"

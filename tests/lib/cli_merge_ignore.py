#!/usr/bin/python3
"""Check merge -c with a configuration that ignores every metric: the same
metrics as before, all ungated, ignored and not gated, each reason
saying ignore.

  usage: cli_merge_ignore.py BEFORE.json AFTER.json

Run by tests/check_cli.sh.
"""
import json, sys
before = json.load(open(sys.argv[1]))
after = json.load(open(sys.argv[2]))
assert len(after["metrics"]) == len(before["metrics"]) > 0
assert all(m["verdict"] == "ungated" and m["ignored"] and not m["gated"]
           for m in after["metrics"]), after["summary"]
assert all("says ignore" in m["reason"] for m in after["metrics"])
assert after["summary"]["ungated"] == len(after["metrics"])

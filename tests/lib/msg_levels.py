#!/usr/bin/python3
"""Check the pooled report's warnings: pooled-baseline a note, no-direction
a warning, no code twice.

  usage: msg_levels.py REPORT.json

Run by tests/check_messages.sh.
"""
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
lv = {w["code"]: w["level"] for w in r["warnings"]}
codes = [w["code"] for w in r["warnings"]]
if lv.get("pooled-baseline") != "note" or lv.get("no-direction") != "warning" \
   or len(codes) != len(set(codes)):
    print("check_messages: pooled report's warnings: %r" % r["warnings"])
    sys.exit(1)

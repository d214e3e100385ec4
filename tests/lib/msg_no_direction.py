#!/usr/bin/python3
"""Check that the report (schema 2) has exactly one no-direction warning,
at level warning.

  usage: msg_no_direction.py REPORT.json

Run by tests/check_messages.sh.
"""
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
w = [x for x in r["warnings"] if x["code"] == "no-direction"]
if r["schema_version"] != 2 or len(w) != 1 or w[0]["level"] != "warning" \
   or "had no configured direction" not in w[0]["message"]:
    print("check_messages: no-direction not in the JSON: %r" % r["warnings"])
    sys.exit(1)

#!/usr/bin/python3
"""Check that merging a version 1 report keeps its warnings' messages, each
coded "uncoded" at level warning.

  usage: msg_v1_uncoded.py V1.json MERGED.json

Run by tests/check_messages.sh.
"""
import json, sys
old = json.load(open(sys.argv[1], encoding="utf-8"))["warnings"]
new = json.load(open(sys.argv[2], encoding="utf-8"))["warnings"]
if [x["message"] for x in new] != old or any(x["code"] != "uncoded" or x["level"] != "warning" for x in new):
    print("check_messages: merge v1: warnings %r became %r" % (old, new))
    sys.exit(1)

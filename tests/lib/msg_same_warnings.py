#!/usr/bin/python3
"""Check that two reports carry the same warnings; prints the difference.

  usage: msg_same_warnings.py A.json B.json

Run by tests/check_messages.sh.
"""
import json, sys
a = json.load(open(sys.argv[1], encoding="utf-8"))["warnings"]
b = json.load(open(sys.argv[2], encoding="utf-8"))["warnings"]
if a != b:
    print("check_messages: merge v2: warnings %r became %r" % (a, b))
    sys.exit(1)

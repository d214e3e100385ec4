#!/usr/bin/python3
"""Write a data.js whose commit ids are hostile (newlines, escapes, $(...),
../, bidi overrides, two colliding short ids) for the point names of
--save-points.

  usage: integrity_hostile_datajs.py OUT.js

Run by tests/check_archive_integrity.sh.
"""
import json, sys
ids = ["\n.env\nxx", "\r\rabcdef", "\x1b[31mred", "$(touch pwned)", "`id`abc", "a;b;c;d",
       "../../etc/passwd", "\u202eabcdef", "same1234aaaa", "same1234bbbb"]
entries = []
for k, cid in enumerate(ids):
    date = 1767225600000 + min(k, 8) * 3600000
    entries.append({"commit": {"id": cid}, "date": date, "tool": "customSmallerIsBetter",
                    "benches": [{"name": "a", "value": 100 + k % 2, "unit": "ms"}]})
open(sys.argv[1], "w").write("window.BENCHMARK_DATA = " + json.dumps({"entries": {"s": entries}}))

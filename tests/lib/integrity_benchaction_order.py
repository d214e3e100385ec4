#!/usr/bin/python3
"""Write two benchmark-action data.js files: A with one entry (base), B
whose newest entry by time (new) stands before an older one (old) in the
array.

  usage: integrity_benchaction_order.py A.js B.js

Run by tests/check_archive_integrity.sh.
"""
import json, sys
def js(path, entries):
    open(path, "w").write("window.BENCHMARK_DATA = " + json.dumps({"entries": {"s": [
        {"commit": {"id": cid}, "date": date, "tool": "customSmallerIsBetter",
         "benches": [{"name": "a", "value": v, "unit": "ms"}]} for cid, date, v in entries]}}))
js(sys.argv[1], [("base", 1767225600000, 100)])
js(sys.argv[2], [("new", 1767232800000, 300), ("old", 1767229200000, 200)])

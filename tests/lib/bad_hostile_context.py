#!/usr/bin/python3
"""Give the gbench result BENCH.json a hostile host name and benchmark
names (Markdown, HTML, CDATA end, terminal escapes, bidi, mentions) and
write it as base/bench.json and cand/bench.json in the current
directory.

  usage: bad_hostile_context.py BENCH.json

Run by tests/bad/run.sh.
"""
import json, sys
h = "a|b <c> &amp; ]]> \u001b[31mred\u001b[0m \u001b]0;t\u0007 @here #1 \u202e `x` *y* [l](u) \n| x |"
d = json.load(open(sys.argv[1]))
d["context"]["host_name"] = h
for i, b in enumerate(d["benchmarks"]):
    b["name"] = b["run_name"] = h + str(i % 7)
    b["time_unit"] = "ns"
    b[h] = 1.5
for side in ("base", "cand"):
    json.dump(d, open(side + "/bench.json", "w"))

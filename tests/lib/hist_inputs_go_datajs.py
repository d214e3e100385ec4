#!/usr/bin/python3
"""Write a go test -bench data.js of 12 commits (B/op changing in the unit
string each commit, a +20% step in ns/op at point 9, an allocs/op
metric; seeded) and a candidate in the same form.

  usage: hist_inputs_go_datajs.py ARCHIVE.js CANDIDATE.js

Run by tests/check_history_inputs.sh.
"""
import json, random, sys
random.seed(5)
def entry(i, v):
    return {"commit": {"id": "%02d" % (i + 1) + "a" * 38,
                       "timestamp": "2024-01-%02dT00:00:00Z" % (i + 1)},
            "date": 1, "tool": "go",
            "benches": [{"name": "BenchmarkCopy", "value": v,
                         "unit": "ns/op\t  %d B/op\t       5 allocs/op" % (819400 + i)},
                        {"name": "BenchmarkCopy - allocs/op", "value": 5,
                         "unit": "allocs/op"}]}
es = [entry(i, 1000 * (1.2 if i >= 9 else 1) * (1 + 0.01 * random.gauss(0, 1)))
      for i in range(12)]
open(sys.argv[1], "w").write("window.BENCHMARK_DATA = " +
                             json.dumps({"entries": {"Go Benchmark": es}}))
new = entry(12, 1500)
open(sys.argv[2], "w").write(json.dumps({"entries": {"Go Benchmark": [new]}}))

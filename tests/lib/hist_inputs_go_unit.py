#!/usr/bin/python3
"""Check that the go data.js gives two metrics, BenchmarkCopy in ns/op with
12 points and its one change point at 9.

  usage: hist_inputs_go_unit.py HISTORY.json

Run by tests/check_history_inputs.sh.
"""
import json, sys
r = json.load(open(sys.argv[1]))
m = {x["benchmark"]: x for x in r["metrics"]}
c = m.get("BenchmarkCopy")
ok = (len(r["metrics"]) == 2 and c and c["unit"] == "ns/op" and
      len(c["series"]) == 12 and [p["index"] for p in c["change_points"]] == [9])
if not ok:
    print([(x["benchmark"], x["unit"], len(x["series"])) for x in r["metrics"]],
          file=sys.stderr)
sys.exit(0 if ok else 1)

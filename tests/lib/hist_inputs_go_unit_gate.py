#!/usr/bin/python3
"""Check that gating the go candidate makes BenchmarkCopy in ns/op the
regression.

  usage: hist_inputs_go_unit_gate.py REPORT.json

Run by tests/check_history_inputs.sh.
"""
import json, sys
r = json.load(open(sys.argv[1]))
m = [x for x in r["metrics"] if x["benchmark"] == "BenchmarkCopy"]
ok = len(m) == 1 and m[0]["unit"] == "ns/op" and m[0]["verdict"] == "regression"
if not ok:
    print([(x["benchmark"], x.get("unit"), x.get("verdict")) for x in r["metrics"]], file=sys.stderr)
sys.exit(0 if ok else 1)

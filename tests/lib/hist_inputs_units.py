#!/usr/bin/python3
"""Check the unit-change archive's history: one metric in ms with a single
change point, a regression of about +100%, the last point's mean about
200.

  usage: hist_inputs_units.py HISTORY.json

Run by tests/check_history_inputs.sh.
"""
import json, sys
m = json.load(open(sys.argv[1]))["metrics"][0]
cp = m["change_points"]
ok = m["unit"] == "ms" and len(cp) == 1 and cp[0]["verdict"] == "regression" \
    and abs(cp[0]["rel"] - 1.0) < 0.05 and abs(m["series"][-1]["mean"] - 200) < 5
sys.exit(0 if ok else 1)

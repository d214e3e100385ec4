#!/usr/bin/python3
"""plant_verdicts.py REPORT.json OUTDIR - from a reviewed report, write two
broken copies for check_verdicts.py to refuse: OUTDIR/missed.json (a
planted regression called unchanged) and OUTDIR/extra.json (an unchanged
metric called a regression).
(Moved out of a heredoc of tests/check_checkers.sh.)"""
import json, sys
r = json.load(open(sys.argv[1]))
out = sys.argv[2]
reg = [m for m in r["metrics"] if m["verdict"] == "regression"]
unc = [m for m in r["metrics"] if m["verdict"] == "unchanged"]
assert reg and unc
reg[0]["verdict"] = "unchanged"
json.dump(r, open(out + "/missed.json", "w"))
reg[0]["verdict"] = "regression"
unc[0]["verdict"] = "regression"
json.dump(r, open(out + "/extra.json", "w"))

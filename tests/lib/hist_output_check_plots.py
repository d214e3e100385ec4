#!/usr/bin/python3
"""Check that the sparkline, the Mermaid chart and the SVG draw each
point's robust value: the outlier run's point 4 stays about 800, below
the step.

  usage: hist_output_check_plots.py O.md O.html O.json

Run by tests/check_history_output.sh.
"""
import json, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
html = open(sys.argv[2], encoding="utf-8").read()
series = json.load(open(sys.argv[3]))["metrics"][0]["series"]
bad = []
bars = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
m = re.search("[%s]{12}" % bars, md)
if not m:
    bad.append("no 12-bar sparkline")
else:
    s = m.group(0)
    if bars.index(s[3]) >= min(bars.index(c) for c in s[6:]):
        bad.append("the sparkline draws the outlier run's point (%s) as tall as the step" % s)
line = re.search(r"line \[([^\]]*)\]", md)
vals = [float(x) for x in line.group(1).split(",")] if line else []
if not vals or abs(vals[3] - series[3]["value"]) > 1e-3 * series[3]["value"] \
        or vals[3] > 850:
    bad.append("the Mermaid chart does not draw the robust values: %s" % vals[:5])
t = re.search(r"<title>0004: ([0-9.]+)", html)
if not t or abs(float(t.group(1)) - 800) > 10:
    bad.append("the SVG's point 0004 is not at its robust value (about 800)")
for b in bad:
    print("check_history_output:", b)
sys.exit(1 if bad else 0)

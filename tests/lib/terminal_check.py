#!/usr/bin/python3
"""terminal_check.py SAMPLE REPORT.json BASE - the terminal summary of one sample
at 80 and 160 columns and with COLUMNS unset (BASE.80, BASE.160,
BASE.none) and with -v (BASE.verbose): every line fits its width, the
first lines say what was compared with what, samples/netperf fits 60
lines at 80 columns, every regression is listed and the closing line
names the worst, q is explained, and -v lists every metric of REPORT.
Exit 1 on a finding.
(Moved out of a heredoc of tests/check_terminal.sh.)"""
import json
import sys
name, report, base = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
bad = []
for cols in ("80", "160", "none"):
    w = 80 if cols == "none" else int(cols)
    lines = open(base + "." + cols, encoding="utf-8").read().split("\n")[:-1]
    for i, ln in enumerate(lines, 1):
        if len(ln) > w:
            bad.append(f"{cols}: line {i} is {len(ln)} columns: {ln[:50]}")
    if not (lines[0].startswith("Baseline:  ") and
            lines[1].startswith("Candidate: 0123456789ab ") and
            lines[1].endswith(" runs)") or lines[1].endswith(" run)")):
        bad.append(f"{cols}: the first lines do not say what was compared")
    if name == "netperf" and w == 80 and len(lines) > 60:
        bad.append(f"{cols}: {len(lines)} lines, more than 60")
    regs = [m for m in report["metrics"] if m["verdict"] == "regression"]
    listed = [ln for ln in lines if ln.startswith("  ")]
    sec = next((i for i, ln in enumerate(lines) if ln.startswith("Regressions (")), None)
    if regs and (sec is None or not lines[sec].startswith("Regressions (%d)" % len(regs))):
        bad.append(f"{cols}: no 'Regressions ({len(regs)})' section")
    last = lines[-1]
    if regs:
        worst = max(regs, key=lambda m: abs(m["change"]["rel"] or 0))
        if not last.startswith("FAIL: %d regression" % len(regs)) or \
                worst["metric"] not in last and "\u2026" not in last:
            bad.append(f"{cols}: the closing line does not name the worst: {last}")
    elif not last.startswith(("PASS: ", "FAIL: ")):
        bad.append(f"{cols}: no closing verdict line")
    if "q: " not in "\n".join(lines):
        bad.append(f"{cols}: q is not explained")
verbose = open(base + ".verbose", encoding="utf-8").read().split("\n")
# (an inconclusive row's second line, indented by four, is no row)
rows = [ln for ln in verbose if ln.startswith("  ")
        and not ln.startswith(("  \u2026", "    this run could detect"))]
if len(rows) != len(report["metrics"]):
    bad.append(f"-v lists {len(rows)} metrics, the report has {len(report['metrics'])}")
for b in bad:
    print(f"check_terminal: {name}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""Check history's reports in TMPDIR (h.json, h.md, h.html and the
terminal's out, v and v60) against each other and against what the
fixture archive holds, its +2.5%-a-point trend among them.

  usage: hist_output_check_reports.py TMPDIR

Run by tests/check_history_output.sh.
"""
import json, re, sys
tmp = sys.argv[1]
r = json.load(open(tmp + "/h.json"))
md = open(tmp + "/h.md", encoding="utf-8").read()
html = open(tmp + "/h.html", encoding="utf-8").read()
out = open(tmp + "/out", encoding="utf-8").read()
v = open(tmp + "/v", encoding="utf-8").read()
v60 = open(tmp + "/v60", encoding="utf-8").read()
bad = []
def name(m):
    return "/".join(x for x in (m["group"], m["benchmark"], m["metric"]) if x)
byname = {name(m): m for m in r["metrics"]}

# the trend: +2.4-2.5% a point, in every report
tr = byname["trend/ingest/throughput"]
if not tr["trend"]["significant"]:
    bad.append("the fixture's trend is not significant in the JSON")
pct = re.compile(r"\+2\.[3-6]% a point")
for what, text in (("Markdown", md), ("HTML", html), ("terminal", out)):
    if not pct.search(text):
        bad.append("no '+2.5%% a point' trend in the %s" % what)

# Markdown: tables of at most 6 columns; one row per metric
rows = {}
for line in md.splitlines():
    if not line.startswith("|") or line.startswith("|---"):
        continue
    cells = re.split(r"(?<!\\)\|", line)[1:-1]
    if len(cells) > 6:
        bad.append("a table row of %d columns: %s" % (len(cells), line[:80]))
    plain = cells[1].replace("<wbr>", "").replace("\\", "").strip() if len(cells) > 1 else ""
    if plain in byname:
        rows[plain] = rows.get(plain, 0) + 1
        rows.setdefault("cells:" + plain, cells)
flagged = [n for n, m in byname.items() if m["change_points"] or m["trend"]["significant"]]
for n in flagged:
    if rows.get(n) != 1:
        bad.append("metric %s has %s rows in the Markdown, not 1" % (n, rows.get(n)))
lat = rows.get("cells:lat/rpc_echo/p99_time")
if not lat or lat[2].count("<br>") != 2:
    bad.append("the metric with 3 change points does not list them in its row")
# readable at any magnitude: no percentage of more than 5 digits
for what, text in (("Markdown", md), ("HTML", html), ("terminal", v)):
    if re.search(r"[0-9]{6,}(\.[0-9]+)?%", text.replace(",", "")):
        bad.append("an unreadable percentage in the %s" % what)
if "\u00d77.07e+11" not in md or "\u00d77.07e+11" not in v:
    bad.append("the 1e-9 -> 707 ns step is not the factor x7.07e+11")
# -v lists every change point, and every line fits the width
ncp = sum(len(m["change_points"]) for m in r["metrics"])
got = sum(1 for l in v.splitlines() if re.search(r" (rose|dropped|changed) .* at ", l))
if got != ncp:
    bad.append("-v lists %d change points, the JSON %d" % (got, ncp))
for l in v60.splitlines():
    if len(l) > 60:
        bad.append("a line wider than COLUMNS=60: %r" % l)
for b in bad:
    print("check_history_output:", b)
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""Check history's HTML page against its JSON when the archive is large.

    history_html_size.py PAGE.html REPORT.json CHARTS SECTIONS

The page may draw at most CHARTS charts, the failing metrics (status
regression) taking them first, and list at most SECTIONS metrics; what
it leaves out it must count in its note, and the counts must add up to
the JSON's metrics with a change point, a trend or a watch.
"""
import json
import re
import sys

page = open(sys.argv[1], encoding="utf-8").read()
report = json.load(open(sys.argv[2], encoding="utf-8"))
charts, sections = int(sys.argv[3]), int(sys.argv[4])
bad = []
shown = [m for m in report["metrics"]
         if m["change_points"] or m["watch"] or (m["trend"] or {}).get("significant")]
status = {"%s/%s" % (m["benchmark"], m["metric"]): m["status"] for m in report["metrics"]}
parts = re.split(r"<h2>", page)[1:]
names = [p[:p.index("</h2>")].split(" (")[0] for p in parts]
drawn = [n for n, p in zip(names, parts) if "<svg" in p.split("<h2>")[0]]
fails = sum(1 for m in report["metrics"] if m["status"] == "regression")
if len(names) != min(len(shown), sections):
    bad.append("%d sections, expected %d" % (len(names), min(len(shown), sections)))
if len(drawn) != min(len(names), charts):
    bad.append("%d charts, expected %d" % (len(drawn), min(len(names), charts)))
want_fail = min(fails, charts)
got_fail = sum(1 for n in drawn if status.get(n.split("/", 1)[-1]) == "regression"
               or status.get(n) == "regression")
if got_fail != want_fail:
    bad.append("%d charts of failing metrics, expected %d" % (got_fail, want_fail))
note = re.search(r'<p class="note">(.*?)</p>', page, re.S)
unlisted, uncharted = len(shown) - len(names), len(names) - len(drawn)
if unlisted or uncharted:
    text = note.group(1) if note else ""
    if uncharted and ("%d metric" % uncharted) not in text:
        bad.append("the note does not count %d metrics without a chart: %r" % (uncharted, text))
    if unlisted and ("%d more metric" % unlisted) not in text:
        bad.append("the note does not count %d metrics left out: %r" % (unlisted, text))
    if "JSON" not in text:
        bad.append("the note does not point to the JSON report")
elif note:
    bad.append("a note although nothing was left out")
for b in bad:
    print("check_history_html_size: " + b)
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""Check --markdown-limit: the comment fits LIMIT bytes (65000 for
"default"), recent regressions come first, the rest is "... and N more",
the JSON keeps every one.

  usage: hist_output_check_limit.py BIG.md BIG.json LIMIT

Run by tests/check_history_output.sh.
"""
import json, re, sys
md = open(sys.argv[1], "rb").read()
r = json.load(open(sys.argv[2]))
lim = 65000 if sys.argv[3] == "default" else int(sys.argv[3])
text = md.decode("utf-8")
bad = []
if len(md) > lim:
    bad.append("%d bytes, over the limit %d" % (len(md), lim))
rows = [l for l in text.splitlines() if l.startswith("| ") and "bench" in l]
names = [re.search(r"bench\\?_(\d+)", l).group(1) for l in rows]
recent = [n for n in names if int(n) % 4 == 0]
k = len(recent)
if names[:k] != recent or k == 0:
    bad.append("the recent regressions are not first: %s" % names[:12])
shown = len(rows)
if shown < 150:
    m = re.search(r"\u2026 and (\d+) more", text)
    if not m or int(m.group(1)) != 150 - shown:
        bad.append("%d rows shown and no '\u2026 and %d more'" % (shown, 150 - shown))
if sum(len(m["change_points"]) for m in r["metrics"]) != 150:
    bad.append("the JSON does not keep all 150 change points")
for b in bad:
    print("check_history_output: limit %s: %s" % (sys.argv[3], b))
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""Check history's Markdown and HTML for 13 points with a +10% step in the
newest 3: "2 regressions", a sparkline of one bar a point, Mermaid's x
axis the short ids, no run range cut at the frame.

  usage: newcomer_short_ids.py IDS.md IDS.html "SHORT-IDS"

Run by tests/check_newcomer.sh.
"""
import re, sys
md = open(sys.argv[1], encoding="utf-8").read()
html = open(sys.argv[2], encoding="utf-8").read()
short = sys.argv[3].split()
ok = True
def fail(what):
    global ok
    print("check_newcomer:", what); ok = False
if "2 metrics: 2 regressions at the newest point" not in md:
    fail("history Markdown: not '2 regressions'")
bars = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
sparks = re.findall("[%s]{2,}" % bars, md)
if len(sparks) != 2 or any(len(sp) != 13 or sp[-3:] != "\u2588" * 3 or
                           "\u2588" in sp[:10] for sp in sparks):
    fail("history Markdown: the sparkline is not 13 bars ending in the step's 3: %r" % sparks)
axes = re.findall(r"x-axis \[(.*)\]", md)
if not axes or any(ax != ", ".join('"%s"' % s for s in short) for ax in axes):
    fail("history Markdown: Mermaid's x axis is not the points' ids: %r" % axes[:1])
for svg in re.findall(r"<svg.*?</svg>", html, re.S):
    top, hgt = (float(v) for v in re.search(r'<rect x="[0-9.]+" y="([0-9.]+)" width="[0-9.]+" height="([0-9.]+)" class="frame"', svg).groups())
    for y1, y2 in re.findall(r'<line x1="[0-9.]+" y1="([0-9.]+)" x2="[0-9.]+" y2="([0-9.]+)" class="sd"', svg):
        if min(float(y1), float(y2)) <= top or max(float(y1), float(y2)) >= top + hgt:
            fail("history HTML: a range of runs cut at the frame (%s..%s in %s..%s)" % (y1, y2, top, top + hgt))
            break
sys.exit(0 if ok else 1)

#!/usr/bin/python3
"""Check that the hard names come out of history's Markdown and HTML
escaped and intact: balanced fences, no raw markup, every name readable.

  usage: hist_names_check_names.py HISTORY.md HISTORY.html

Run by tests/check_history_names.sh.
"""
import html.parser, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
bad = []
fences = [l for l in md.splitlines() if l.startswith("```")]
if len(fences) % 2:
    bad.append("unbalanced ``` fences: %d" % len(fences))
# code spans (a run of N backquotes to the next run of exactly N) show
# their content literally: what is outside them must link and embed nothing
def outside_code(text):
    return re.sub(r"(`+)(.+?)(?<!`)\1(?!`)", "", text)
inside_fence = False
tables, cur = [], []
for l in md.splitlines():
    if l.startswith("```"):
        inside_fence = not inside_fence
        continue
    if inside_fence:
        continue
    if l.startswith("|"):
        cur.append(l)
    elif cur:
        tables.append(cur); cur = []
    plain = outside_code(l)
    if "<script" in plain.lower():
        bad.append("raw <script> outside a code span: " + l[:80])
    if re.search(r"(?<![\\\w])@team", plain):
        bad.append("@team outside a code span: " + l[:80])
if cur:
    tables.append(cur)
def cells(line):
    return len(re.findall(r"(?<!\\)\|", outside_code(line).replace("\\|", ""))) - 1
for t in tables:
    for l in t:
        if cells(l) != cells(t[0]):
            bad.append("a table row with %d cells, not %d: %s" % (cells(l), cells(t[0]), l[:80]))
if not any(len(t) > 2 for t in tables):
    bad.append("no table of change points")
class P(html.parser.HTMLParser):
    scripts = 0
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            P.scripts += 1
P().feed(open(sys.argv[2], encoding="utf-8").read())
if P.scripts:
    bad.append("a <script> element in the HTML")
for b in bad:
    print("check_history_names:", b)
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""Check history-comment.sh's Markdown, rendered by cmark-gfm, for a report
with hostile names: no image, link or script; two point rows and two
trend rows, each with its cells; every label, commit, id and unit shown
whole, control and bidi characters as U+FFFD.

  usage: ci_comment_names.py REPORT.json COMMENT.html

Run by tests/ci/trust.sh.
"""
import html.parser, json, re, sys
rep = json.load(open(sys.argv[1]))
bad = re.compile("[\x00-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
def shown(s):
    return bad.sub("\ufffd", s)
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.tags = [], None, set()
    def handle_starttag(self, t, a):
        self.tags.add(t)
        if t == "tr": self.rows.append([])
        if t in ("td", "th"): self.cell = ""
    def handle_endtag(self, t):
        if t in ("td", "th"): self.rows[-1].append(self.cell); self.cell = None
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
p = P()
p.feed(open(sys.argv[2], encoding="utf-8").read())
assert not ({"img", "a", "script"} & p.tags), p.tags
pts = [r for r in p.rows if len(r) == 4][1:]
trs = [r for r in p.rows if len(r) == 5][1:]
assert len(pts) == 2 and len(trs) == 2 and len(p.rows) == 6, p.rows
for r, pp in zip(pts, rep["baseline"]["pooled_points"]):
    assert r[0] == shown(pp["label"]), (r[0], shown(pp["label"]))
    assert r[1] == (shown(pp["commit"][:12]) or "-"), r[1]
for r, m in zip(trs, rep["metrics"]):
    assert r[0] == shown(m["id"]), (r[0], shown(m["id"]))
    assert r[2].endswith(" " + shown(m["unit"]).rstrip()) or m["unit"] == "", (r[2], m["unit"])

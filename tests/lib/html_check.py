#!/usr/bin/python3
"""Check a perfverdict HTML report against its JSON report.

    html_check.py REPORT.html REPORT.json

- it parses (python's html.parser) with every non-void element closed
  in order, one <html>, <head>, <body>, a <title> and a doctype;
- it loads nothing: no element that fetches (img, link, iframe, object,
  embed, audio, video, source, base, form), no src/href/action/srcset/
  poster/data attribute except in-page "#..." links, no url( or @import
  in CSS, no "://" anywhere in an attribute, no fetch/XMLHttpRequest/
  import( in the script, and a Content-Security-Policy of default-src
  'none' whose script-src allows only the page's one inline script, by
  its sha256 hash (never 'unsafe-inline'), or no script at all;
- it holds one <figure> per regression and improvement, each with an
  <svg>, up to FIGURES; a table row per metric up to ROWS; past them one
  list line per metric that needs attention (not unchanged or ungated)
  up to LINES, and a note that counts, by verdict, the metrics it left
  out; every metric is in a row, a line or the note's counts, and every
  regression in a row or a line unless more than ROWS + LINES metrics
  need attention (the limits of src/writers/html.c, so that a page of
  100,000 metrics stays a few MB).

    html_check.py --history HISTORY.html

checks history's page the same way, less the figures and rows: it has no
script, and its CSP allows none.
"""
import base64
import hashlib
import json
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
# SVG children written as <x/>: html.parser reports them as startendtag.
FETCHING = {"img", "link", "iframe", "object", "embed", "audio", "video",
            "source", "base", "form", "frame", "picture", "track"}
FIGURES, ROWS, LINES = 100, 2000, 10000
URL_ATTRS = {"src", "href", "action", "srcset", "poster", "data",
             "xlink:href", "background", "formaction", "ping"}


class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems = [], []
        self.count = {}
        self.doctype = False
        self.csp = None
        self.in_tbody = False
        self.rows = 0
        self.style, self.script = [], []
        self.scripts, self.script_at = [], 0  # each script's whole text
        self.where = None
        self.figure_svg = 0
        self.in_figure = False
        self.text = []
        self.row_verdict, self.line_verdict = {}, {}
        self.lines = 0

    def handle_decl(self, decl):
        self.doctype = decl.lower() == "doctype html"

    def attrs_ok(self, tag, attrs):
        for k, v in attrs:
            v = v or ""
            if k in URL_ATTRS and not v.startswith("#"):
                self.problems.append(f"<{tag} {k}='{v}'> may load a resource")
            if "://" in v and not (tag == "meta" and k == "content"):
                self.problems.append(f"<{tag} {k}> holds a URL: {v[:60]}")
            if k == "style" and ("url(" in v or "@import" in v):
                self.problems.append(f"<{tag} style> loads a resource")
            if k.startswith("on"):
                self.problems.append(f"<{tag} {k}>: inline handler")

    def handle_starttag(self, tag, attrs):
        # An SVG <title> is a tooltip, not the page's title.
        key = "svg title" if tag == "title" and "svg" in self.stack else tag
        self.count[key] = self.count.get(key, 0) + 1
        if tag in FETCHING:
            self.problems.append(f"<{tag}> fetches a resource")
        self.attrs_ok(tag, attrs)
        a = dict(attrs)
        if tag == "meta" and a.get("http-equiv", "").lower() == \
                "content-security-policy":
            self.csp = a.get("content", "")
        if tag == "tbody" and self.stack and self.stack[-1] == "table":
            self.in_tbody = True
        if tag == "tr" and self.in_tbody and \
                any(t == "table" for t in self.stack):
            self.rows += 1
            v = a.get("class", "")
            self.row_verdict[v] = self.row_verdict.get(v, 0) + 1
        if tag == "li":
            self.lines += 1
        if tag == "b" and self.stack and self.stack[-1] == "li":
            v = a.get("class", "")
            self.line_verdict[v] = self.line_verdict.get(v, 0) + 1
        if tag == "figure":
            self.in_figure = True
        if tag == "svg" and self.in_figure:
            self.figure_svg += 1
        if tag in ("style", "script"):
            self.where = tag
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        if tag in FETCHING:
            self.problems.append(f"<{tag}> fetches a resource")
        self.attrs_ok(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>"
                                 f" at line {self.getpos()[0]}")
            return
        self.stack.pop()
        if tag == "tbody":
            self.in_tbody = False
        if tag == "figure":
            self.in_figure = False
        if tag == "script":
            self.scripts.append("".join(self.script[self.script_at:]))
            self.script_at = len(self.script)
        if tag in ("style", "script"):
            self.where = None

    def handle_data(self, data):
        self.text.append(data)
        if self.where == "style":
            self.style.append(data)
        elif self.where == "script":
            self.script.append(data)


def csp_problems(c):
    """The CSP: default-src 'none', and scripts only by their hash."""
    p = []
    if not c.csp or "default-src 'none'" not in c.csp:
        p.append("no Content-Security-Policy default-src 'none'")
        return p
    d = {}
    for part in c.csp.split(";"):
        words = part.split()
        if words:
            d[words[0]] = words[1:]
    allowed = d.get("script-src", [])
    if "'unsafe-inline'" in allowed:
        p.append("the CSP allows any inline script ('unsafe-inline')")
    want = ["'sha256-%s'" % base64.b64encode(
        hashlib.sha256(s.encode("utf-8")).digest()).decode()
        for s in c.scripts]
    if sorted(allowed) != sorted(want):
        p.append("the CSP's script-src %r is not the hash of the page's "
                 "scripts %r" % (allowed, want))
    return p


def parse(html_path):
    c = Check()
    with open(html_path, encoding="utf-8") as f:
        c.feed(f.read())
    c.close()
    p = c.problems
    if not c.doctype:
        p.append("no <!DOCTYPE html>")
    if c.stack:
        p.append("unclosed: " + " ".join(c.stack))
    for t in ("html", "head", "body", "title"):
        if c.count.get(t) != 1:
            p.append(f"{c.count.get(t, 0)} <{t}> elements, expected 1")
    p += csp_problems(c)
    css = "".join(c.style)
    if "url(" in css or "@import" in css:
        p.append("the CSS loads a resource")
    return c, p


def history_main(html_path):
    c, p = parse(html_path)
    if c.scripts:
        p.append("history's page has a script")
    for x in p[:20]:
        print(f"{html_path}: {x}", file=sys.stderr)
    return 1 if p else 0


def main():
    if sys.argv[1] == "--history":
        return history_main(sys.argv[2])
    html_path, json_path = sys.argv[1], sys.argv[2]
    with open(json_path, encoding="utf-8") as f:
        report = json.load(f)
    c, p = parse(html_path)
    js = "".join(c.script)
    for bad in ("fetch(", "XMLHttpRequest", "import(", "WebSocket", "src="):
        if bad in js:
            p.append(f"the script uses {bad}")
    metrics = report["metrics"]
    n = len(metrics)
    want = sum(1 for m in metrics
               if m["verdict"] in ("regression", "improvement"))
    if c.count.get("figure", 0) != min(want, FIGURES):
        p.append(f"{c.count.get('figure', 0)} figures, expected "
                 f"{min(want, FIGURES)} (one per regression and improvement, "
                 f"at most {FIGURES})")
    if c.figure_svg != min(want, FIGURES):
        p.append(f"{c.figure_svg} figures with an <svg>, expected "
                 f"{min(want, FIGURES)}")
    if c.rows < min(n, ROWS):
        p.append(f"{c.rows} table rows, expected at least {min(n, ROWS)}")
    text = " ".join("".join(c.text).split())
    note = re.search(r"Not listed, to keep this page quick to open: "
                     r"(\d+) metrics? \(([^)]*)\)", text)
    unlisted = int(note.group(1)) if note else 0
    if n <= ROWS and (note or c.lines):
        p.append("a page of all metrics has a list or a note past its table")
    if n > ROWS:
        if c.lines > LINES:
            p.append(f"{c.lines} list lines, over {LINES}")
        if c.lines + unlisted != n - ROWS:
            p.append(f"{c.lines} lines and {unlisted} unlisted past the "
                     f"table, expected {n - ROWS} in all")
        if note and sum(int(x.split()[0]) for x in
                        note.group(2).split(", ")) != unlisted:
            p.append(f"the note's counts do not add up to {unlisted}")
        attention = sum(1 for m in metrics
                        if m["verdict"] not in ("unchanged", "ungated"))
        reg = sum(1 for m in metrics if m["verdict"] == "regression")
        shown = c.row_verdict.get("regression", 0) + \
            c.line_verdict.get("regression", 0)
        if attention <= ROWS + LINES and shown != reg:
            p.append(f"{shown} regressions in rows and lines, expected {reg}")
    for x in p[:20]:
        print(f"{html_path}: {x}", file=sys.stderr)
    return 1 if p else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Checks that no report in TMP (c.* of compare, h.* of history) keeps a
bidirectional control and each still names the metric; the .err files
must show them escaped as \\xHH.

    bidi_reports.py "$tmp"

Run by tests/check_bidi.sh.
"""
import os, sys
t = sys.argv[1]
bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
bad = 0
for f in ("c.txt", "c.json", "c.xml", "c.md", "c.html", "c.err",
          "h.txt", "h.json", "h.md", "h.html", "h.err"):
    s = open(os.path.join(t, f), encoding="utf-8").read()
    if any(c in s for c in bidi):
        print("check_bidi: %s keeps a bidirectional control" % f)
        bad = 1
    # messages escape the controls; reports show the name without them
    want = "evil\\xe2\\x80\\xaetxt.exe" if f.endswith(".err") else "eviltxt.exe"
    if want not in s:
        print("check_bidi: %s does not name the metric as %r" % (f, want))
        bad = 1
sys.exit(bad)

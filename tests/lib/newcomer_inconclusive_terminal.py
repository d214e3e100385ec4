#!/usr/bin/python3
"""Check that each inconclusive metric's terminal row is followed by what
the run could detect and how many runs per side would detect 5%, in at
most 80 columns.

  usage: newcomer_inconclusive_terminal.py REPORT.json TERMINAL.txt

Run by tests/check_newcomer.sh.
"""
import json, re, sys
rep = json.load(open(sys.argv[1]))
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
inc = [m for m in rep["metrics"] if m["verdict"] == "inconclusive"]
assert inc, "the sample has no inconclusive metric"
for m in inc:
    mde, runs = re.search(r"could detect about ([0-9.]+%), and about (\d+) runs", m["reason"]).groups()
    row = [i for i, ln in enumerate(lines)
           if ln.startswith("  ") and m["benchmark"] in ln and m["metric"] in ln]
    assert len(row) == 1, (m["benchmark"], row)
    note = lines[row[0] + 1]
    want = "    this run could detect about %s; about %s runs per side would detect 5%%" % (mde, runs)
    assert note == want, (note, want)
assert max(len(ln) for ln in lines) <= 80

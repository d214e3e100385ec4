#!/usr/bin/python3
"""Check the pooled gate's trend table: the one regression is parse, and
its row shows the baseline and candidate means in µs.

  usage: newcomer_trend_table.py POOL.json POOL.md

Run by tests/check_newcomer.sh.
"""
import json, sys
m = [x for x in json.load(open(sys.argv[1]))["metrics"] if x["verdict"] == "regression"]
assert len(m) == 1 and m[0]["benchmark"] == "parse", m
s = m[0]["baseline"]["samples"]
base, cand = sum(s) / len(s) / 1000, m[0]["candidate"]["mean"] / 1000
rows = [ln for ln in open(sys.argv[2], encoding="utf-8") if ln.startswith("| `parse/time` |")]
assert len(rows) == 1, open(sys.argv[2]).read()
cells = [c.strip() for c in rows[0].split("|")]
assert cells[3] == "%.4g µs" % base and cells[4] == "%.4g µs" % cand, cells

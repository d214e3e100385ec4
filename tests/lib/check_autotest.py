#!/usr/bin/python3
"""Independent check of a `compare --test student` report against what
autotest's regression.py computed, reimplemented here with numpy/scipy:

  usage: check_autotest.py REPORT.json BASE_TREE CAND_TREE IGNORE_COL RATIOS

RATIOS is avg_update with '/' between triples (4,2,3/14,5,12).  For every
table cell: the averages (mean of the repeats, or mean(num)/mean(den) for
avg_update columns), the % change, and the two-sided p of
scipy.stats.ttest_ind(base, cand) (equal_var=True, as autotest) must agree
with the report to 1e-9 relative.  Rows are matched by key, as the report
claims to do, so the check reads the files itself.
"""
import glob
import json
import math
import os
import sys

import numpy as np
from scipy import stats


def read_tree(root, ignore_col):
    """{(group, key): [row values per repeat]} from every .RHS file."""
    cells = {}
    for path in sorted(glob.glob(os.path.join(root, "**", "*.RHS"), recursive=True)):
        group, header = "", None
        for line in open(path, encoding="utf-8"):
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("Category:"):
                group, header = line[len("Category:"):].strip(), None
                continue
            if header is None:
                header = [c.strip() for c in line.split("|")]
                continue
            cols = [c.strip() for c in line.split("|")]
            key = ",".join(f"{header[i]}={cols[i]}" for i in range(ignore_col))
            cells.setdefault((group, key, tuple(header)), []).append(
                [float(c) for c in cols])
    return cells


def close(a, b, rel=1e-9, absolute=1e-300):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), absolute)


def main():
    report_path, base, cand, ignore_col, ratios = sys.argv[1:6]
    ignore_col = int(ignore_col)
    ratios = [tuple(map(int, r.split(","))) for r in ratios.split("/") if r]
    report = json.load(open(report_path, encoding="utf-8"))
    by_key = {(m["group"], m["benchmark"], m["metric"]): m
              for m in report["metrics"]}
    b_cells, c_cells = read_tree(base, ignore_col), read_tree(cand, ignore_col)
    bad = checked = 0
    for (group, key, header), b_rows in b_cells.items():
        c_rows = c_cells[(group, key, header)]
        b, c = np.array(b_rows), np.array(c_rows)
        b_avg, c_avg = b.mean(axis=0), c.mean(axis=0)
        for dst, num, den in ratios:
            b_avg[dst] = b_avg[num] / b_avg[den]
            c_avg[dst] = c_avg[num] / c_avg[den]
        for col in range(ignore_col, len(header)):
            m = by_key[(group, key, header[col])]
            t = stats.ttest_ind(b[:, col], c[:, col], equal_var=True)
            p = float(t.pvalue)
            if math.isnan(p):  # zero variance on both sides
                p = 1.0 if b_avg[col] == c_avg[col] else 0.0
            # equal means (0 and 0 too) are no change; from a zero
            # baseline any other change has no relative size (null)
            change = 0.0 if c_avg[col] == b_avg[col] else \
                (c_avg[col] - b_avg[col]) / abs(b_avg[col]) \
                if b_avg[col] else None
            want = {
                "baseline mean": (b_avg[col], m["baseline"]["mean"]),
                "candidate mean": (c_avg[col], m["candidate"]["mean"]),
                "change": (change, m["change"]["rel"]),
                "p": (p, m["test"]["p_value"]),
            }
            checked += 1
            for what, (expected, got) in want.items():
                if not close(expected, got):
                    bad += 1
                    print(f"{group} {key} {header[col]}: {what} "
                          f"{got!r}, autotest/scipy say {expected!r}",
                          file=sys.stderr)
            if m["test"]["name"] != "student":
                bad += 1
                print(f"{m['id']}: test {m['test']['name']}", file=sys.stderr)
    if checked != len(report["metrics"]):
        bad += 1
        print(f"checked {checked} cells, report has {len(report['metrics'])}",
              file=sys.stderr)
    print(f"autotest check: {checked} cells, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

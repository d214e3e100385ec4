#!/usr/bin/python3
"""Check a report's Welch tests from summaries against recorded scipy values.

  usage: check_summaries.py REPORT.json CASE

tests/ref/summary_ref.txt (written by tests/ref/gen_summary_ref.py from
scipy.stats.ttest_ind_from_stats; scipy is not needed here) holds, for
each CASE, the statistic, the Welch degrees of freedom and the p-values
of every metric compared from summaries.  Each must be in the report, a
Welch test with both sides summary_only, agreeing to 1e-9 relative: t
and df directly, p as the report's sidedness asks (worse: the one-sided
p in the direction the mean moved, as the report gives it).
"""
import json
import os
import sys

REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ref",
                   "summary_ref.txt")


def close(a, b, rel=1e-9):
    return a is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def main():
    report = json.load(open(sys.argv[1], encoding="utf-8"))
    case = sys.argv[2]
    by_key = {(m["group"], m["benchmark"], m["metric"]): m
              for m in report["metrics"]}
    bad, n = [], 0
    for line in open(REF, encoding="utf-8"):
        if line.startswith("#"):
            continue
        f = line.split()
        if f[0] != case:
            continue
        n += 1
        group = "" if f[1] == "-" else f[1].replace("?", " ")
        key = (group, f[2].replace("?", " "), f[3])
        t, df, p_two, p_less, p_greater = map(float, f[4:9])
        m = by_key.get(key)
        if m is None:
            bad.append("%s: not in the report" % "/".join(key))
            continue
        test = m["test"]
        if test["name"] != "welch":
            bad.append("%s: test %s, expected welch" % (m["id"], test["name"]))
        for side in ("baseline", "candidate"):
            if not m[side].get("summary_only"):
                bad.append("%s: %s is not summary_only" % (m["id"], side))
        if "summaries" not in m["reason"]:
            bad.append("%s: the reason does not say it was computed from "
                       "summaries: %s" % (m["id"], m["reason"]))
        # With sided = worse the report gives the one-sided p of the
        # direction the mean moved (p_worse or p_better, see verdict.c).
        if test["sided"] == "two":
            p = p_two
        elif t < 0:
            p = p_less          # the candidate's mean is the higher
        else:
            p = p_greater
        for what, got, want in (("statistic", test["statistic"], t),
                                ("df", test["df"], df),
                                ("p_value", test["p_value"], p)):
            if not close(got, want):
                bad.append("%s: %s %r, scipy %r" % (m["id"], what, got, want))
    if not n:
        bad.append("no reference values for case %s" % case)
    for b in bad:
        print(b, file=sys.stderr)
    print("summaries vs scipy: %d comparisons, %d problems" % (n, len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

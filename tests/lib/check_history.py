#!/usr/bin/python3
"""Check a history JSON's statistics against scipy: each change point's
p is the two-sided t tail of its statistic and df, q is p times the
family's split positions (Bonferroni, at most 1), rel and its interval
follow from the levels and the t quantile, and the levels are the
segment means of the point values.  Usage: check_history.py REPORT.json
[EXPECTED], EXPECTED holding lines "benchmark/metric INDEX VERDICT"."""
import json
import math
import sys

from scipy import stats

MIN_SEG = 3


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        r = json.load(f)
    alpha = r["config"]["alpha"]
    ntests = sum(max(0, len(m["series"]) - 2 * MIN_SEG + 1)
                 for m in r["metrics"])
    bad = []
    found = set()
    for m in r["metrics"]:
        vals = [s["value"] for s in m["series"]]
        idx = [s["index"] for s in m["series"]]
        cps = [idx.index(c["index"]) for c in m["change_points"]]
        for j, c in enumerate(m["change_points"]):
            name = f'{m["benchmark"]}/{m["metric"]}'
            found.add(f'{name} {c["index"]} {c["verdict"]}')
            t, df = c["test"]["statistic"], c["test"]["df"]
            df = math.inf if df is None else df
            p = 2 * stats.t.sf(abs(t), df)
            if not close(p, c["p_value"], 1e-8):
                bad.append(f"{name}: p {c['p_value']} != scipy {p}")
            if not close(min(1.0, p * ntests), c["q_value"], 1e-8):
                bad.append(f"{name}: q {c['q_value']} != {p * ntests}")
            if c["q_value"] > alpha:
                bad.append(f"{name}: q above alpha")
            if not close(c["after"] / c["before"] - 1, c["rel"], 1e-9):
                bad.append(f"{name}: rel is not after/before - 1")
            # The levels: geometric means of the point values of the two
            # segments (nothing was clipped in these series).
            a = cps[j - 1] if j else 0
            b = cps[j + 1] if j + 1 < len(cps) else len(vals)
            k = cps[j]
            if m["clipped"] == 0 and m["scale"] == "log":
                lb = math.exp(sum(map(math.log, vals[a:k])) / (k - a))
                la = math.exp(sum(map(math.log, vals[k:b])) / (b - k))
                if not close(lb, c["before"], 1e-9) or not close(la, c["after"], 1e-9):
                    bad.append(f"{name}: levels are not the segment means")
                # interval: delta +- t_{1-alpha/2}(df) * se, se = t / delta
                d = math.log(la / lb)
                se = d / t
                tq = stats.t.ppf(1 - alpha / 2, df)
                lo, hi = math.expm1(d - tq * se), math.expm1(d + tq * se)
                if not close(lo, c["ci_low"], 1e-8) or not close(hi, c["ci_high"], 1e-8):
                    bad.append(f"{name}: interval [{c['ci_low']}, {c['ci_high']}] != [{lo}, {hi}]")
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding="utf-8") as f:
            want = {ln.strip() for ln in f if ln.strip()}
        if want != found:
            bad.append(f"change points {sorted(found)} != expected {sorted(want)}")
    for b in bad:
        print(f"{sys.argv[1]}: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

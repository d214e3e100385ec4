#!/usr/bin/python3
"""gen_summary_ref.py - reference values for comparisons from summaries.

Writes tests/ref/summary_ref.txt, which tests/lib/check_summaries.py reads to
check the Welch tests perfverdict computes from summary statistics
(mean, sd, n) alone: Google Benchmark's --benchmark_report_aggregates_only
files and the summary form of the CSV reader.  Nothing in it comes from
perfverdict: the inputs are parsed here, and every expected value is
scipy.stats.ttest_ind_from_stats(base, cand, equal_var=False,
alternative=...).

How the committed file was made (Debian 12, scipy 1.10.1):
    /usr/bin/python3 tests/ref/gen_summary_ref.py
Running it again reproduces the file exactly.

Line format: CASE GROUP BENCHMARK METRIC T DF P_TWO P_LESS P_GREATER,
numbers as Python repr; GROUP is "-" when empty, and a blank in a name
is written as "?".  "less" is the alternative that
the baseline's mean is below the candidate's.
"""
import csv
import json
import os
import sys

import scipy
from scipy import stats

ROOT = os.path.normpath(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), "..", ".."))


def gbench(path):
    """{(benchmark, metric): (mean, sd, n)} of an aggregates-only file."""
    doc = json.load(open(path, encoding="utf-8"))
    mean, sd, reps = {}, {}, {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        name = b["run_name"]
        if b.get("threads", 1) > 1 and "threads:" not in name:
            name += "/threads:%d" % b["threads"]
        skip = {"name", "run_name", "run_type", "aggregate_name",
                "aggregate_unit", "time_unit", "family_index",
                "per_family_instance_index", "repetitions", "threads",
                "iterations", "repetition_index", "label"}
        vals = {k: v for k, v in b.items()
                if k not in skip and isinstance(v, (int, float))}
        if b["aggregate_name"] == "mean":
            mean[name] = vals
            reps[name] = b["repetitions"]
        elif b["aggregate_name"] == "stddev":
            sd[name] = vals
    out = {}
    for name, vals in mean.items():
        for metric, m in vals.items():
            out[("", name, metric)] = (m, sd[name][metric], reps[name])
    return out


def summary_csv(path):
    out = {}
    with open(path, encoding="utf-8", newline="") as fp:
        for row in csv.DictReader(fp):
            sd = row.get("sd") or row.get("stddev") or row.get("stdev")
            out[(row.get("group") or "", row["benchmark"],
                 row.get("metric") or "value")] = (
                float(row["mean"]), float(sd), int(row["n"]))
    return out


CASES = [
    ("gbench-aggregates", gbench,
     "samples/gbench/aggregates-only/baseline/bench.json",
     "samples/gbench/aggregates-only/candidate/bench.json"),
    ("csv-summary", summary_csv,
     "tests/golden/csv-summary/base.csv",
     "tests/golden/csv-summary/patched.csv"),
]


def main():
    lines = ["# summary_ref.txt - written by tests/ref/gen_summary_ref.py; "
             "do not edit.",
             "# scipy %s" % scipy.__version__]
    for case, read, a, b in CASES:
        base = read(os.path.join(ROOT, a))
        cand = read(os.path.join(ROOT, b))
        for key in sorted(set(base) & set(cand)):
            (m1, s1, n1), (m2, s2, n2) = base[key], cand[key]
            if s1 == 0 and s2 == 0:
                continue        # no test: a deterministic change or none
            r = [stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2,
                                            equal_var=False, alternative=alt)
                 for alt in ("two-sided", "less", "greater")]
            v1, v2 = s1 * s1 / n1, s2 * s2 / n2
            df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
            lines.append(" ".join([case, key[0].replace(" ", "?") or "-",
                                   key[1].replace(" ", "?"), key[2],
                                   repr(float(r[0].statistic)), repr(df),
                                   repr(float(r[0].pvalue)),
                                   repr(float(r[1].pvalue)),
                                   repr(float(r[2].pvalue))]))
    out = os.path.join(ROOT, "tests", "ref", "summary_ref.txt")
    with open(out, "w", encoding="utf-8") as fp:
        fp.write("\n".join(lines) + "\n")
    print("wrote %s: %d comparisons" % (out, len(lines) - 2))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Check a report's verdicts against what a sample is known to contain.

  usage: check_verdicts.py REPORT.json EXPECTED

EXPECTED has lines `VERDICT GROUP BENCHMARK METRIC` (shell globs allowed;
`#` comments).  Every listed pattern must match at least one metric, all
with that verdict; every regression in the report must be listed.  The
expectations come from how the sample was generated (samples/README.md),
not from the tool's output.
"""
import fnmatch
import json
import sys


def main():
    report = json.load(open(sys.argv[1], encoding="utf-8"))
    rules = []
    for line in open(sys.argv[2], encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            rules.append(line.split(None, 3))
    bad = []
    covered = set()
    for verdict, group, bench, metric in rules:
        hits = [m for m in report["metrics"]
                if fnmatch.fnmatchcase(m["group"], group)
                and fnmatch.fnmatchcase(m["benchmark"], bench)
                and fnmatch.fnmatchcase(m["metric"], metric)]
        if not hits:
            bad.append(f"no metric matches {group} {bench} {metric}")
        for m in hits:
            covered.add(m["id"])
            if m["verdict"] != verdict:
                bad.append(f"{m['id']}: {m['verdict']}, expected {verdict}"
                           f" ({m['reason']})")
    for m in report["metrics"]:
        if m["verdict"] == "regression" and m["id"] not in covered:
            bad.append(f"{m['id']}: unexpected regression ({m['reason']})")
    for b in bad:
        print(b, file=sys.stderr)
    print(f"verdict check: {len(rules)} expectations, {len(bad)} problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

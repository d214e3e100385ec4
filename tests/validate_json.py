#!/usr/bin/python3
"""Validate perfverdict JSON reports against schemas/report.schema.json
(JSON Schema 2020-12) and the contract's cross-field rules."""
import json
import os
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "schemas", "report.schema.json")


def check(path, validator):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
    problems = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:10]]
    # Rules a schema cannot say: counts agree with the verdicts, the
    # verdict follows from them, ids are unique, n is the number of
    # samples (or, for a summary_only side, the harness's sample count).
    metrics = report.get("metrics", [])
    summary = report.get("summary", {})
    keys = {"regression": "regressions", "improvement": "improvements"}
    for v in ("regression", "improvement", "unchanged", "inconclusive",
              "noisy", "insufficient", "missing", "new", "waived",
              "ungated"):
        n = sum(1 for m in metrics if m.get("verdict") == v)
        if summary.get(keys.get(v, v), 0) != n:
            problems.append(f"summary.{keys.get(v, v)} is "
                            f"{summary.get(keys.get(v, v))}, metrics say {n}")
    # no report calls a metric unchanged that moved beyond its
    # threshold with q < alpha (ungated ones are "ungated", never
    # "unchanged")
    for m in metrics:
        rel = (m.get("change") or {}).get("rel")
        q, alpha, thr = m.get("q_value"), m.get("alpha"), m.get("threshold")
        if m.get("verdict") == "unchanged" and None not in (rel, q, alpha, thr) \
                and q < alpha and abs(rel) > thr:
            problems.append(f"{m.get('id')}: unchanged, but moved {rel:+.2%} "
                            f"beyond {thr:.0%} with q={q:.2g}")
        if m.get("direction") == "none" and m.get("verdict") == "unchanged":
            problems.append(f"{m.get('id')}: direction none but unchanged, "
                            "not ungated")
    if summary.get("metrics") != len(metrics):
        problems.append("summary.metrics differs from len(metrics)")
    ids = [m.get("id") for m in metrics]
    if len(ids) != len(set(ids)):
        problems.append("metric ids are not unique")
    if any(m.get("verdict") == "regression" for m in metrics) and \
            report.get("verdict") != "fail":
        problems.append("a regression but verdict is not fail")
    for m in metrics:
        for side in ("baseline", "candidate"):
            s = m.get(side, {})
            if s.get("summary_only"):
                # Only the harness's summary (mean, sd, n): no samples.
                if s.get("samples"):
                    problems.append(f"{m.get('id')}: {side} is summary_only"
                                    " but has samples")
                if s.get("n", 0) > 0 and s.get("mean") is None:
                    problems.append(f"{m.get('id')}: {side} is summary_only"
                                    " without a mean")
            elif s.get("n") != len(s.get("samples", [])):
                problems.append(f"{m.get('id')}: {side}.n != len(samples)")
    if problems:
        for p in problems:
            print(f"{path}: {p}", file=sys.stderr)
        return False
    return True


def main():
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    ok = all([check(p, validator) for p in sys.argv[1:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

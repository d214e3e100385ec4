#!/usr/bin/python3
"""Validate perfverdict JSON reports against schemas/report.schema.json
(JSON Schema 2020-12) and the contract's cross-field rules; history
reports against schemas/history.schema.json, and history points
(compare --save-point, .json or .json.gz) against schemas/point.schema.json."""
import gzip
import json
import os
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "schemas", "report.schema.json")
HISTORY_SCHEMA = os.path.join(HERE, "..", "..", "schemas", "history.schema.json")
POINT_SCHEMA = os.path.join(HERE, "..", "..", "schemas", "point.schema.json")


def check_point(point, path):
    """A history point: its schema, and each metric key once."""
    with open(POINT_SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    errors = sorted(Draft202012Validator(schema).iter_errors(point),
                    key=lambda e: list(e.path))
    problems = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:10]]
    keys = [tuple(m.get(k) for k in ("suite", "test", "group", "benchmark", "metric"))
            for m in point.get("metrics", []) if isinstance(m, dict)]
    if len(keys) != len(set(keys)):
        problems.append("a metric key appears twice")
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    return not problems


def check_history(report, path, validator):
    """A history report: its schema, and the cross-field rules."""
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
    problems = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:10]]
    points = report.get("points", [])
    if [p.get("index") for p in points] != list(range(len(points))):
        problems.append("points are not indexed 0..L-1 in order")
    statuses = {}
    fail = False
    for m in report.get("metrics", []):
        statuses[m.get("status")] = statuses.get(m.get("status"), 0) + 1
        idx = [s.get("index") for s in m.get("series", [])]
        if idx != sorted(set(idx)):
            problems.append(f"{m.get('id')}: series indexes not increasing")
        for c in m.get("change_points", []):
            if not 0 < c.get("index", 0) < len(points):
                problems.append(f"{m.get('id')}: change point index out of range")
            elif c.get("label") != points[c["index"]].get("label"):
                problems.append(f"{m.get('id')}: change point label is not its point's")
            rel = c.get("rel")
            if rel is not None and m.get("direction") != "none":
                worse = rel > 0 if m.get("direction") == "lower" else rel < 0
                if (c.get("verdict") == "regression") != worse:
                    problems.append(f"{m.get('id')}: verdict contradicts rel")
            alpha = m.get("alpha", report["config"]["alpha"])
            if c.get("q_value") is not None and alpha is not None and \
                    c["q_value"] > alpha:
                problems.append(f"{m.get('id')}: change point with q > alpha")
            # Whether a change fails the gate is the tool's policy
            # (src/policy.c), written as fails_gate: not decided again
            # here.  The verdict must follow from it, and a failing
            # change must at least be a recent, unwaived regression
            # beyond its floor (necessary, not the rule itself).
            if c.get("fails_gate"):
                fail = True
                if not (c.get("verdict") == "regression" and c.get("recent")
                        and c.get("beyond_threshold")
                        and not c.get("waived")):
                    problems.append(f"{m.get('id')}: fails_gate on a change"
                                    " that is not a recent unwaived"
                                    " regression beyond its floor")
    for k, v in statuses.items():
        if report.get("summary", {}).get(k) != v:
            problems.append(f"summary.{k} differs from the metrics")
    if (report.get("verdict") == "fail") != fail:
        problems.append("verdict does not follow from the change points'"
                        " fails_gate")
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    return not problems


def check(path, validator, history_validator=None):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        report = json.load(f)
    if isinstance(report, dict) and "point_version" in report:
        return check_point(report, path)
    if isinstance(report, dict) and report.get("kind") == "history":
        return check_history(report, path, history_validator)
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
    with open(HISTORY_SCHEMA, encoding="utf-8") as f:
        hschema = json.load(f)
    Draft202012Validator.check_schema(hschema)
    hvalidator = Draft202012Validator(hschema)
    ok = all([check(p, validator, hvalidator) for p in sys.argv[1:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""writers_check.py - check a JUnit and a Markdown report against their JSON.

usage: python3 tests/lib/writers_check.py REPORT.json REPORT.xml REPORT.md

What consumers need, checked with the consumers' own tools:
  JUnit     validates (xmllint --schema) against schemas/junit.xsd and,
            when present, Jenkins' junit-10.xsd in $PV_SHARED/reference
            (default: ../shared beside the repository); junitparser
            reads one test case per metric, one failure per regression,
            errors and skips as the gate's policies say, suite counts
            that agree with the cases, and unique classname+name.
  Markdown  at most $PV_MD_LIMIT (default 65536) bytes; cmark-gfm renders
            every table of the source as an HTML <table>, keeping every
            row, and every row has as many cells as its header; the
            headline counts agree with the JSON; the hidden marker is
            there.

Prints one summary line; the problems, if any, go to stderr first.
Exit status 0 when everything holds, 1 otherwise, 2 on bad usage.
"""

import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
MARKER = "<!-- perfverdict-report -->"
DELIM_RE = re.compile(r"^\|(\s*:?-+:?\s*\|)+$")


def pipes(line):
    """Unescaped '|' in a line (a backslash run of odd length escapes)."""
    n = bs = 0
    for ch in line:
        if ch == "\\":
            bs += 1
            continue
        if ch == "|" and bs % 2 == 0:
            n += 1
        bs = 0
    return n


def policy(config, key, default):
    """A gate policy from the JSON config, flat or under "gate"."""
    if not isinstance(config, dict):
        return default
    for where in (config, config.get("gate")):
        if isinstance(where, dict) and isinstance(where.get(key), str):
            return where[key]
    return default


def expected(report):
    """What the JUnit must hold, from the JSON's metrics and policies."""
    metrics = report.get("metrics", [])
    config = report.get("config", {})
    miss_fail = policy(config, "missing", "fail") == "fail"
    inc_fail = policy(config, "inconclusive", "warn") == "fail"
    exp = {"tests": len(metrics), "failures": 0, "errors": 0, "skipped": 0}
    for m in metrics:
        v = m.get("verdict")
        if v == "regression":
            exp["failures"] += 1
        elif (v == "missing" and miss_fail) or (v == "inconclusive" and inc_fail):
            exp["errors"] += 1
        elif v in ("missing", "inconclusive", "noisy", "insufficient", "waived",
                   "ungated"):
            exp["skipped"] += 1
    return exp


def check_json(report, problems):
    metrics = report.get("metrics")
    if not isinstance(metrics, list):
        problems.append("json: no metrics[] array")
        return
    summary = report.get("summary", {})
    if "metrics" in summary and summary["metrics"] != len(metrics):
        problems.append("json: summary.metrics %s but %d metrics[]"
                        % (summary["metrics"], len(metrics)))
    for key, verdict in (("regressions", "regression"),
                         ("improvements", "improvement"),
                         ("missing", "missing"), ("new", "new")):
        if key in summary:
            n = sum(1 for m in metrics if m.get("verdict") == verdict)
            if summary[key] != n:
                problems.append("json: summary.%s %s but %d metrics say %s"
                                % (key, summary[key], n, verdict))


def xmllint(xml, xsd, problems):
    if not shutil.which("xmllint"):
        problems.append("xmllint not found (Debian package libxml2-utils)")
        return
    res = subprocess.run(["xmllint", "--noout", "--schema", str(xsd), xml],
                         capture_output=True, text=True, errors="replace")
    if res.returncode != 0:
        detail = res.stderr.strip().splitlines()[:5]
        problems.append("junit: does not validate against %s: %s"
                        % (xsd, " / ".join(detail)))


def check_junit(report, xml, problems):
    """Returns the number of test cases junitparser saw."""
    xmllint(xml, ROOT / "schemas" / "junit.xsd", problems)
    shared = Path(os.environ.get("PV_SHARED") or ROOT.parent / "shared")
    jenkins = shared / "reference" / "junit-10.xsd"
    if jenkins.is_file():
        xmllint(xml, jenkins, problems)
    else:
        # The project passes without ../shared, but says what it skipped.
        print("writers_check: skipped Jenkins' xunit schema (no %s; set "
              "PV_SHARED)" % jenkins)
    try:
        from junitparser import JUnitXml, Failure, Error, Skipped
    except ImportError:
        problems.append("junitparser not importable (Debian package "
                        "python3-junitparser)")
        return 0
    try:
        doc = JUnitXml.fromfile(xml)
    except Exception as e:  # junitparser raises lxml or etree errors
        problems.append("junit: junitparser cannot read it: %s" % e)
        return 0
    got = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    idents = set()
    for suite in doc:
        mine = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            mine["tests"] += 1
            results = case.result or []
            if len(results) > 1:
                problems.append("junit: %s has %d results"
                                % (case.name, len(results)))
            for res in results:
                if isinstance(res, Failure):
                    mine["failures"] += 1
                elif isinstance(res, Error):
                    mine["errors"] += 1
                elif isinstance(res, Skipped):
                    mine["skipped"] += 1
            ident = (case.classname, case.name)
            if ident in idents:
                problems.append("junit: duplicate classname+name %r" % (ident,))
            idents.add(ident)
        for key in mine:
            attr = getattr(suite, key, None)
            if attr is not None and attr != mine[key]:
                problems.append("junit: suite %r says %s=%s, its cases %d"
                                % (suite.name, key, attr, mine[key]))
            got[key] += mine[key]
    for key in ("tests", "failures", "errors"):
        attr = getattr(doc, key, None)
        if attr is not None and attr != got[key]:
            problems.append("junit: testsuites says %s=%s, the cases %d"
                            % (key, attr, got[key]))
    exp = expected(report)
    for key in exp:
        if got[key] != exp[key]:
            problems.append("junit: %d %s, the JSON implies %d"
                            % (got[key], key, exp[key]))
    return got["tests"]


class Tables(html.parser.HTMLParser):
    """The cell count of each row of each <table>."""

    def __init__(self):
        super().__init__()
        self.tables = []
        self.row = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.row = 0
        elif tag in ("td", "th") and self.row is not None:
            self.row += 1

    def handle_endtag(self, tag):
        if tag == "tr" and self.row is not None:
            self.tables[-1].append(self.row)
            self.row = None


def source_tables(text, problems):
    """[(columns, rows)] of the GFM tables in the Markdown source."""
    tables = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if (line.startswith("|") and i + 1 < len(lines)
                and DELIM_RE.match(lines[i + 1])):
            cols = pipes(line) - 1
            if pipes(lines[i + 1]) - 1 != cols:
                problems.append("markdown: line %d: delimiter row has %d "
                                "cells, header %d"
                                % (i + 2, pipes(lines[i + 1]) - 1, cols))
            if i and lines[i - 1] != "":
                problems.append("markdown: line %d: table without a blank "
                                "line before it" % (i + 1))
            rows = 1
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                if pipes(lines[j]) - 1 != cols:
                    problems.append("markdown: line %d: %d cells, header %d"
                                    % (j + 1, pipes(lines[j]) - 1, cols))
                rows += 1
                j += 1
            tables.append((cols, rows))
            i = j
        else:
            if line.startswith("|"):
                problems.append("markdown: line %d: table row outside a "
                                "table" % (i + 1))
            i += 1
    return tables


def check_markdown(report, md, problems):
    """Returns (bytes, tables)."""
    raw = Path(md).read_bytes()
    limit = int(os.environ.get("PV_MD_LIMIT", "65536"))
    if len(raw) > limit:
        problems.append("markdown: %d bytes, over the limit %d"
                        % (len(raw), limit))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append("markdown: not UTF-8: %s" % e)
        return len(raw), 0
    if MARKER not in text:
        problems.append("markdown: no %s marker" % MARKER)
    if "\x1b" in text or re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
        problems.append("markdown: control characters")

    metrics = report.get("metrics", [])
    head = text.split("\n", 1)[0]
    # the headline block: the outcome, the largest regression in words,
    # the counts that are not zero (up to "Comparing ...")
    block = text.split("\nComparing ", 1)[0]
    nreg = sum(1 for m in metrics if m.get("verdict") == "regression")
    counts = [ln for ln in block.split("\n") if re.match(r"\d+ [a-z]", ln)]
    block = counts[0] if counts else ""
    found = re.search(r"(\d+) regressions?\b", block)
    if (found is None) != (nreg == 0) or \
            (found and int(found.group(1)) != nreg):
        problems.append("markdown: the headline does not say %d regression(s)"
                        % nreg)
    for v, key in (("improvement", "improvement"), ("ungated", "ungated"),
                   ("unchanged", "unchanged")):
        n = sum(1 for m in metrics if m.get("verdict") == v)
        got = re.search(r"(\d+) %ss?\b" % key, block)
        if (got is None) != (n == 0) or (got and int(got.group(1)) != n):
            problems.append("markdown: the headline's count of %s is not %d"
                            % (v, n))
    failed = report.get("verdict") == "fail"
    if report.get("verdict") in ("pass", "fail") and \
            (("\u274c" in head) != failed or ("\u2705" in head) == failed):
        problems.append("markdown: headline mark disagrees with verdict %s"
                        % report.get("verdict"))

    src = source_tables(text, problems)
    if not shutil.which("cmark-gfm"):
        problems.append("cmark-gfm not found (Debian package cmark-gfm)")
        return len(raw), len(src)
    res = subprocess.run(["cmark-gfm", "-e", "table"], input=raw,
                         capture_output=True)
    if res.returncode != 0:
        problems.append("markdown: cmark-gfm failed: %s"
                        % res.stderr.decode("utf-8", "replace").strip())
        return len(raw), len(src)
    parser = Tables()
    parser.feed(res.stdout.decode("utf-8", "replace"))
    got = parser.tables
    if len(got) != len(src):
        problems.append("markdown: %d tables in the source, %d rendered"
                        % (len(src), len(got)))
    for k, (rows, (cols, nrows)) in enumerate(zip(got, src)):
        if len(rows) != nrows:
            problems.append("markdown: table %d has %d rows, %d rendered"
                            % (k + 1, nrows, len(rows)))
        if any(r != cols for r in rows):
            problems.append("markdown: table %d: rendered rows of %s cells, "
                            "header %d" % (k + 1, sorted(set(rows)), cols))
    return len(raw), len(got)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: writers_check.py REPORT.json REPORT.xml "
                         "REPORT.md\n")
        return 2
    problems = []
    try:
        with open(argv[1], encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print("writers_check: FAIL: cannot read %s: %s" % (argv[1], e))
        return 1
    check_json(report, problems)
    cases = check_junit(report, argv[2], problems)
    size, tables = check_markdown(report, argv[3], problems)
    for p in problems[:50]:
        sys.stderr.write("writers_check: %s\n" % p)
    if len(problems) > 50:
        sys.stderr.write("writers_check: ... and %d more\n"
                         % (len(problems) - 50))
    status = "ok"
    if problems:
        status = "FAIL (%d problem%s)" % (len(problems),
                                          "" if len(problems) == 1 else "s")
    print("writers_check: %s: %d metrics, %d test cases, %d failures "
          "expected; markdown %d bytes, %d tables"
          % (status, len(report.get("metrics", [])), cases,
             expected(report)["failures"], size, tables))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

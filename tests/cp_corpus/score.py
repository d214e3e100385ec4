#!/usr/bin/python3
"""Score perfverdict history and Apache Otava on the labelled corpus.

    score.py PERFVERDICT [OTAVA_SRC] [--project NAME] [--flags OUT.json]
             [--labels a|b|consensus] [--corpus DIR]

For each project under tests/data/cp-corpus/ (or DIR: a holdout's
projects, scored once before they join) it writes the project's
series as an archive (one point per commit, one run per point: the value
github-action-benchmark kept), runs `PERFVERDICT history --json` on it,
and, with OTAVA_SRC (a directory holding Otava's `otava` package, run with
Debian's numpy and scipy), Otava's compute_change_points with its defaults
(window 50, max p-value 0.001) on each labelled series.  A flag is right
when it is within 2 points of a labelled shift (each shift takes the
closest flag, at most one); a flag within 1 point of an `unsure` window
counts neither way; every other flag is on noise.

Each project has two raters' labels: labels.json and labels-b.json (the
second rater blind to every rule's output and to the first's labels).
--labels a or b scores one rater's; the default, consensus, counts as a
shift what both raters marked (within 2 points of each other, at the
first's index) and as an unsure window (2 points either side) a shift
only one of them marked, with both raters' unsure windows.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "data", "cp-corpus")


# github-action-benchmark's go tool took the rest of go test's line as
# the unit ("ns/op\t  819453 B/op\t  5 allocs/op", kic's and dot-block's
# histories); perfverdict's data.js reader takes its first word as the
# unit (src/readers/benchdata.h), and so does this.
GO_EXTRA = re.compile(r"^(\S+)(?:\s+[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?\s+\S+)+$")


def load(d):
    s = {}
    tool = json.load(open(os.path.join(d, "source.json")))["tool"]
    with open(os.path.join(d, "series.csv")) as f:
        for r in csv.DictReader(f):
            u = r["unit"]
            m = GO_EXTRA.match(u) if tool == "go" else None
            s.setdefault(r["series"], []).append(
                (int(r["index"]), float(r["value"]), m.group(1) if m else u))
    return s


# Spellings of one unit that github-action-benchmark's tools have used
# in one series over time; perfverdict converts between them.
SAME_UNIT = {"op/s": "ops/s", "ops/sec": "ops/s"}


def metric_name(u, first):
    """A series whose unit changed to another kind (replicache's 'write
    single byte': tx/s, then MB/s) is two metrics to perfverdict, which
    refuses to mix units it cannot convert; their flags are merged back
    into the one labelled series."""
    same = SAME_UNIT.get(u, u) == SAME_UNIT.get(first, first)
    return "value" if same else "value in " + u


def archive(d, s, out):
    npts = 1 + max(i for v in s.values() for i, _, _ in v)
    rows = [[] for _ in range(npts)]
    for n, v in s.items():
        for i, x, u in v:
            rows[i].append((n, x, u, metric_name(u, v[0][2])))
    for i in range(npts):
        p = os.path.join(out, f"p{i:04d}")
        os.makedirs(p)
        with open(os.path.join(p, "results.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["group", "benchmark", "metric", "unit", "value"])
            for n, x, u, m in rows[i]:
                w.writerow(["corpus", n, m, u, repr(x)])
    return npts


def history(pv, d, s, direction):
    """PERFVERDICT history --json on the series s ({name: [(index,
    value, unit)]}) written as an archive of points: the report."""
    with tempfile.TemporaryDirectory() as t:
        a = os.path.join(t, "archive")
        os.makedirs(a)
        archive(d, s, a)
        conf = os.path.join(t, "pv.conf")
        with open(conf, "w") as f:
            f.write(f"[gate]\ndirection = {direction}\n")
        out = os.path.join(t, "h.json")
        r = subprocess.run([pv, "history", "-c", conf, "--json", out, a],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(f"{d}: perfverdict exit {r.returncode}: {r.stderr}")
        return json.load(open(out))


def perfverdict(pv, d, s, src):
    flags = {}
    for m in history(pv, d, s, src["direction"])["metrics"]:
        flags.setdefault(m["benchmark"], []).extend(
            c["index"] for c in m["change_points"])
    return flags


def otava(src_dir, s, names):
    sys.path.insert(0, src_dir)
    from otava.analysis import compute_change_points
    flags = {}
    for n in names:
        idx = [i for i, _, _ in s[n]]
        vals = [x for _, x, _ in s[n]]
        cps, _ = compute_change_points(vals, window_len=50, max_pvalue=0.001)
        flags[n] = [idx[c.index] for c in cps]
    return flags


def score(labels, flags):
    real = found = noise = nflags = 0
    for n, lab in labels.items():
        fl = sorted(flags.get(n, []))
        used = set()
        for k in lab["shifts"]:
            real += 1
            best = None
            for j, f in enumerate(fl):
                if j not in used and abs(f - k) <= 2 and (
                        best is None or abs(f - k) < abs(fl[best] - k)):
                    best = j
            if best is not None:
                used.add(best)
                found += 1
        for j, f in enumerate(fl):
            if j in used:
                nflags += 1
                continue
            if any(lo - 1 <= f <= hi + 1 for lo, hi in lab["unsure"]):
                continue
            nflags += 1
            noise += 1
            if os.environ.get("CP_VERBOSE"):
                print(f"  noise: {n[:40]} at {f}", file=sys.stderr)
        if os.environ.get("CP_VERBOSE"):
            for k in lab["shifts"]:
                if not any(abs(f - k) <= 2 for f in fl):
                    print(f"  missed: {n[:40]} at {k} (flags {fl})", file=sys.stderr)
    return real, found, nflags, noise


def consensus(a, b):
    """The shifts both raters marked; the others and both raters' unsure
    windows are unsure."""
    out = {}
    for n in a:
        la, lb = a[n], b.get(n, {"shifts": [], "unsure": []})
        sa, sb = sorted(la["shifts"]), sorted(lb["shifts"])
        used, both, unsure = set(), [], list(la["unsure"]) + list(lb["unsure"])
        for k in sa:
            m = [j for j, x in enumerate(sb) if j not in used and abs(x - k) <= 2]
            if m:
                j = min(m, key=lambda j: abs(sb[j] - k))
                used.add(j)
                both.append(k)
            else:
                unsure.append([k - 2, k + 2])
        unsure += [[x - 2, x + 2] for j, x in enumerate(sb) if j not in used]
        out[n] = {"shifts": both, "unsure": unsure}
    return out


def read_labels(d, which):
    a = json.load(open(os.path.join(d, "labels.json")))["series"]
    pb = os.path.join(d, "labels-b.json")
    b = json.load(open(pb))["series"] if os.path.exists(pb) else None
    if which == "a":
        return a
    if b is None:
        sys.exit(f"{d}: no labels-b.json")
    return b if which == "b" else consensus(a, b)


def main(argv):
    pv = argv[0]
    osrc = argv[1] if len(argv) > 1 and not argv[1].startswith("--") else None
    only = argv[argv.index("--project") + 1] if "--project" in argv else None
    dump = argv[argv.index("--flags") + 1] if "--flags" in argv else None
    which = argv[argv.index("--labels") + 1] if "--labels" in argv else "consensus"
    corpus = argv[argv.index("--corpus") + 1] if "--corpus" in argv else CORPUS
    tot = {"perfverdict": [0, 0, 0, 0], "otava": [0, 0, 0, 0]}
    allflags = {}
    print("| project | tool | series | shifts | rule | found | flags | on noise |")
    print("|---|---|---|---|---|---|---|---|")
    for proj in sorted(os.listdir(corpus)):
        if only and proj != only:
            continue
        d = os.path.join(corpus, proj)
        src = json.load(open(os.path.join(d, "source.json")))
        labels = read_labels(d, which)
        s = load(d)
        rules = {"perfverdict": perfverdict(pv, d, s, src)}
        if osrc:
            rules["otava"] = otava(osrc, s, labels)
        allflags[proj] = rules
        for rule, fl in rules.items():
            r = score(labels, fl)
            tot[rule] = [a + b for a, b in zip(tot[rule], r)]
            print(f"| {proj} | {src['tool']} | {len(labels)} | {r[0]} | {rule} "
                  f"| {r[1]} | {r[2]} | {r[3]} |")
    for rule, r in tot.items():
        if r[0]:
            print(f"| all | | | {r[0]} | **{rule}** | {r[1]} ({100 * r[1] / r[0]:.1f}%) "
                  f"| {r[2]} | {r[3]} ({100 * r[3] / max(r[2], 1):.1f}%) |")
    if dump:
        json.dump(allflags, open(dump, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])

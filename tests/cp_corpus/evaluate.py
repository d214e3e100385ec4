#!/usr/bin/python3
"""Score a change-point detector on the corpus's tuning and held-out
projects side by side (split.json; issue 41), under the scoring of
../shared/research/labelling.md.

    evaluate.py PERFVERDICT [--cpdetect TOOL] [--otava SRC]
                [--only tuning|held_out] [--dir DIR] [--json OUT] [--verbose]

PERFVERDICT history --json runs on each project's archive (score.py
writes it).  With --cpdetect, TOOL (a driver such as eb93deb's tests/tools/cpdetect) reads the
project's series on stdin and prints its flags instead: the detector
under development, outside the program.  With --otava, SRC (a directory
holding Apache Otava's `otava` package, e.g. apache/otava 1ceb1537) is
scored instead, with its defaults (score.py's otava()).  With --dir,
every project under DIR (a directory of projects in the corpus's
layout, such as a new set labelled blind before it joins the corpus) is
scored as one set instead of split.json's two.

The corpus's labels have no R/P grade: each rater's `shifts` are the
changes they would call clear, `unsure` the windows they marked as
possible (a gradual change, a short excursion).  So, per series:
- clear: a shift of rater a and one of rater b within 2 points of each
  other (paired closest first, at a's index);
- marked: a clear shift, or a shift of one rater that the other marked
  unsure (its index within 2 points of the window);
- found: a flag within 2 points (each shift takes its closest free flag);
- on noise: a flag more than 2 points from every shift and every unsure
  window of both raters;
- F1 (against the marked shifts): recall = marked found / marked,
  precision = flags that found a marked shift / (those + flags on noise);
  a flag near another mark (one rater's shift the other left unmarked)
  counts neither way.
--verbose prints the tuning set's misses and flags on noise only: never
look at the held-out set's while a change is in progress.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import score  # noqa: E402

NEAR = 2


def pair(sa, sb):
    """Shifts of a and b within NEAR of each other, closest first."""
    cand = sorted((abs(x - y), i, j) for i, x in enumerate(sa)
                  for j, y in enumerate(sb) if abs(x - y) <= NEAR)
    ua, ub, out = set(), set(), []
    for _, i, j in cand:
        if i not in ua and j not in ub:
            ua.add(i)
            ub.add(j)
            out.append(sa[i])
    return out, [x for i, x in enumerate(sa) if i not in ua], \
        [y for j, y in enumerate(sb) if j not in ub]


def near_window(k, wins):
    return any(lo - NEAR <= k <= hi + NEAR for lo, hi in wins)


def truth(la, lb):
    clear, ra, rb = pair(sorted(la["shifts"]), sorted(lb["shifts"]))
    marked = clear + [k for k in ra if near_window(k, lb["unsure"])] \
        + [k for k in rb if near_window(k, la["unsure"])]
    marks = la["shifts"] + lb["shifts"]
    wins = la["unsure"] + lb["unsure"]
    return sorted(clear), sorted(marked), marks, wins


def match(shifts, flags):
    """Indices of the flags that found a shift (closest free flag)."""
    used = set()
    for k in shifts:
        best = None
        for j, f in enumerate(flags):
            if j not in used and abs(f - k) <= NEAR and (
                    best is None or abs(f - k) < abs(flags[best] - k)):
                best = j
        if best is not None:
            used.add(best)
    return used


def score_series(la, lb, flags, name, log):
    clear, marked, marks, wins = truth(la, lb)
    fl = sorted(flags)
    uc, um = match(clear, fl), match(marked, fl)
    noise = [f for f in fl if not any(abs(f - k) <= NEAR for k in marks)
             and not near_window(f, wins)]
    if log:
        for k in clear:
            if not any(abs(f - k) <= NEAR for f in fl):
                log(f"  missed clear: {name[:48]} at {k} (flags {fl})")
        for f in noise:
            log(f"  noise: {name[:48]} at {f}")
    return {"clear": len(clear), "clear_found": len(uc),
            "marked": len(marked), "marked_found": len(um),
            "flags": len(fl), "noise": len(noise)}


def cpdetect(tool, s, src):
    lines = [src["direction"]]
    for n, v in s.items():
        for i, x, u in v:
            lines.append(f"{n}\t{score.metric_name(u, v[0][2])}\t{i}\t{x!r}")
    r = subprocess.run(tool.split(), input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"cpdetect exit {r.returncode}: {r.stderr}")
    flags = {}
    for ln in r.stdout.splitlines():
        n, i = ln.rsplit("\t", 1)
        flags.setdefault(n, []).append(int(i))
    return flags


def project(pv, tool, proj, log, osrc=None, base=score.CORPUS):
    d = os.path.join(base, proj)
    src = json.load(open(os.path.join(d, "source.json")))
    a = json.load(open(os.path.join(d, "labels.json")))["series"]
    b = json.load(open(os.path.join(d, "labels-b.json")))["series"]
    s = score.load(d)
    if osrc:
        fl = score.otava(osrc, s, a)
    elif tool:
        fl = cpdetect(tool, s, src)
    else:
        fl = score.perfverdict(pv, d, s, src)
    tot = {}
    for n in a:
        r = score_series(a[n], b[n], fl.get(n, []), n, log)
        for k, v in r.items():
            tot[k] = tot.get(k, 0) + v
    return tot


def summary(t):
    tp_flags = t["marked_found"]
    prec = tp_flags / max(tp_flags + t["noise"], 1)
    rec = t["marked_found"] / max(t["marked"], 1)
    f1 = 2 * prec * rec / max(prec + rec, 1e-12)
    return {**t, "clear_pct": 100 * t["clear_found"] / max(t["clear"], 1),
            "marked_pct": 100 * rec, "noise_pct":
            100 * t["noise"] / max(t["flags"], 1), "f1": f1}


def main(argv):
    pv = argv[0]
    tool = argv[argv.index("--cpdetect") + 1] if "--cpdetect" in argv else None
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    osrc = argv[argv.index("--otava") + 1] if "--otava" in argv else None
    verbose = "--verbose" in argv
    base = argv[argv.index("--dir") + 1] if "--dir" in argv else score.CORPUS
    if "--dir" in argv:
        split = {os.path.basename(os.path.normpath(base)): sorted(
            p for p in os.listdir(base)
            if os.path.isfile(os.path.join(base, p, "labels-b.json")))}
    else:
        split = json.load(open(os.path.join(HERE, "split.json")))
    res = {}
    for half in split:
        if half not in ("tuning", "held_out") and "--dir" not in argv:
            continue
        if only and half != only:
            continue
        log = (lambda m: print(m, file=sys.stderr)) \
            if verbose and half == "tuning" else None
        tot = {}
        for proj in split[half]:
            for k, v in project(pv, tool, proj, log, osrc, base).items():
                tot[k] = tot.get(k, 0) + v
        res[half] = summary(tot)
    print("| set | clear found | marked found | flags on noise | F1 |")
    print("|---|---|---|---|---|")
    for half, r in res.items():
        print(f"| {half} | {r['clear_found']}/{r['clear']} "
              f"({r['clear_pct']:.1f}%) | {r['marked_found']}/{r['marked']} "
              f"({r['marked_pct']:.1f}%) | {r['noise']}/{r['flags']} "
              f"({r['noise_pct']:.1f}%) | {r['f1']:.3f} |")
    if "--json" in argv:
        json.dump(res, open(argv[argv.index("--json") + 1], "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])

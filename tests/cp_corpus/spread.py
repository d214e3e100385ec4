#!/usr/bin/python3
"""How far apart a tuning set and a held-out set score by the luck of the
split alone: the gap that split.json's seed gives, against the gaps of
every other seed of the same method (issue 41's "within 3 points").

    spread.py PERFVERDICT [--seeds N]

Scores PERFVERDICT once on every project (evaluate.py's scoring), then,
for seeds 1..N (default 2000) of split.py's method, the held-out set's
clear shifts found (%) less the tuning set's.  Prints the fixed split's
gap, the gaps' mean, sd and 5/50/95% quantiles, and the share of splits
whose gap is at least as far from 0 as the fixed one.  Projects that
joined later (split.json's "joined") are held out in every split, as in
the fixed one.  A detector that
fits its tuning projects better than projects it has not seen has a
fixed-split gap below the others (tuning above held-out); luck alone
puts the fixed gap where the others lie.  Aggregates only: no series,
miss or flag is printed.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evaluate  # noqa: E402
import score  # noqa: E402
import split  # noqa: E402


def gap(per, tune, held):
    def pct(ps):
        c = sum(per[p]["clear"] for p in ps)
        return 100 * sum(per[p]["clear_found"] for p in ps) / max(c, 1)
    return pct(held) - pct(tune), pct(tune), pct(held)


def main(argv):
    pv = argv[0]
    n = int(argv[argv.index("--seeds") + 1]) if "--seeds" in argv else 2000
    projects = sorted(os.listdir(score.CORPUS))
    per = {p: evaluate.project(pv, None, p, None) for p in projects}
    fixed = json.load(open(os.path.join(HERE, "split.json")))
    later = [p for j in fixed.get("joined", []) for p in j["projects"]]
    first = sorted(set(projects) - set(later))
    g0, t0, h0 = gap(per, fixed["tuning"], fixed["held_out"])
    gaps = []
    for s in range(1, n + 1):
        tune, held = split.split(first, s)
        gaps.append(gap(per, tune, held + later)[0])
    gaps.sort()
    q = lambda f: gaps[min(int(f * len(gaps)), len(gaps) - 1)]  # noqa: E731
    far = sum(abs(g) >= abs(g0) for g in gaps) / len(gaps)
    print(f"fixed split (seed {fixed['seed']}): tuning {t0:.1f}%, "
          f"held-out {h0:.1f}%, gap {g0:+.1f} points")
    print(f"{n} other seeds: gap mean {statistics.mean(gaps):+.1f}, "
          f"sd {statistics.stdev(gaps):.1f}, 5% {q(0.05):+.1f}, "
          f"median {q(0.5):+.1f}, 95% {q(0.95):+.1f}; "
          f"|gap| >= {abs(g0):.1f} in {100 * far:.0f}% of splits")


if __name__ == "__main__":
    main(sys.argv[1:])

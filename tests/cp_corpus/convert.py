#!/usr/bin/python3
"""Convert one github-action-benchmark data.js into a corpus project.

    convert.py MIRROR_GIT REF PATH SUITE NAME OUT_DIR [--series K] [--points P]

reads PATH at REF of the git directory MIRROR_GIT (a fetched gh-pages
snapshot), takes the suite SUITE (a key of `entries`), one point per
commit (the last entry of a commit wins), the newest P points (default
100), and keeps K series (default 30) of at least 30 points, drawn with a
fixed seed from the series of that suite.  Writes OUT_DIR/NAME/series.csv
(series,index,commit,value,unit) and OUT_DIR/NAME/source.json (repository,
ref, the data.js commit, path, suite, tool, direction).
"""
import json
import os
import random
import subprocess
import sys

BIGGER = {"customBiggerIsBetter", "benchmarkjs", "pytest"}


def main(argv):
    git, ref, path, suite, name, out = argv[:6]
    k = int(argv[argv.index("--series") + 1]) if "--series" in argv else 30
    p = int(argv[argv.index("--points") + 1]) if "--points" in argv else 100
    text = subprocess.run(["git", "-C", git, "show", f"{ref}:{path}"],
                          check=True, capture_output=True, text=True).stdout
    commit = subprocess.run(["git", "-C", git, "rev-parse", ref], check=True,
                            capture_output=True, text=True).stdout.strip()
    data = json.loads(text[text.index("{"):].rstrip().rstrip(";"))
    entries = data["entries"][suite]
    order, by_commit = [], {}
    for e in entries:
        cid = e["commit"]["id"]
        if cid not in by_commit:
            order.append(cid)
        by_commit[cid] = e
    order = order[-p:]
    tool = by_commit[order[-1]]["tool"]
    series = {}
    for i, cid in enumerate(order):
        for b in by_commit[cid]["benches"]:
            if not isinstance(b.get("value"), (int, float)):
                continue
            series.setdefault(b["name"], {})[i] = (b["value"], b.get("unit", ""))
    names = sorted(n for n, s in series.items() if len(s) >= 30)
    random.Random(22).shuffle(names)
    names = sorted(names[:k])
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "series.csv"), "w") as f:
        f.write("series,index,commit,value,unit\n")
        for n in names:
            for i in sorted(series[n]):
                v, u = series[n][i]
                q = n.replace('"', "'")
                f.write(f'"{q}",{i},{order[i][:12]},{v!r},"{u}"\n')
    repo = data.get("repoUrl", "")
    # JMH's throughput modes write ops per time: higher is better
    units = {u for n in names for _, u in series[n].values()}
    higher = tool in BIGGER or (tool == "jmh" and units and
                                all(u.startswith("ops/") for u in units))
    src = {"repository": repo, "ref": ref, "data_commit": commit,
           "path": path, "suite": suite, "tool": tool,
           "direction": "higher" if higher else "lower",
           "points": len(order), "series": len(names)}
    with open(os.path.join(d, "source.json"), "w") as f:
        json.dump(src, f, indent=1)
        f.write("\n")
    print(name, tool, len(order), "points", len(names), "series")


if __name__ == "__main__":
    main(sys.argv[1:])

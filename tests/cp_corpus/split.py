#!/usr/bin/python3
"""Split tests/data/cp-corpus by project into a tuning set and a held-out
set, with the seed and method fixed before any detector change (issue 41).

    split.py [--write]      print (or write split.json) the split

Method: the tool is the last '-' word of the project's directory name.
Tools in sorted order; within each tool the projects, sorted, are
shuffled with random.Random(SEED), and the first ceil(n/3) of a tool's
n projects are held out when n >= 2 (a tool with one project is all
tuning: holding it out would leave its tool untuned, and it is too few
to judge a tool by).  On the 30 projects: 12 held out, across 8 tools.

Projects that joined the corpus later (split.json's "joined": drawn by
a rule fixed in advance, labelled blind by two raters, scored once with
the frozen detector before joining) are held out, never tuned on, and
take no part in the method: the 30 keep their split.
"""
import json
import os
import random
import sys

SEED = 41  # the number, chosen before any score was seen
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "data", "cp-corpus")


def split(projects, seed=SEED):
    by_tool = {}
    for p in sorted(projects):
        by_tool.setdefault(p.rsplit("-", 1)[1], []).append(p)
    rng = random.Random(seed)
    held = []
    for t in sorted(by_tool):
        rng.shuffle(by_tool[t])
        n = len(by_tool[t])
        if n >= 2:
            held += by_tool[t][:(n + 2) // 3]
    held.sort()
    return sorted(set(projects) - set(held)), held


def main(argv):
    try:
        joined = json.load(open(os.path.join(HERE, "split.json"))).get(
            "joined", [])
    except FileNotFoundError:
        joined = []
    later = {p for j in joined for p in j["projects"]}
    tune, held = split(sorted(set(os.listdir(CORPUS)) - later))
    out = {"seed": SEED, "method": __doc__.split("Method: ", 1)[1].strip(),
           "tuning": tune, "held_out": sorted(held + list(later)),
           "joined": joined}
    text = json.dumps(out, indent=1) + "\n"
    if "--write" in argv:
        open(os.path.join(HERE, "split.json"), "w").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])

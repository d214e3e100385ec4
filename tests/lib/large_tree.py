#!/usr/bin/python3
"""large_tree.py DIR - write DIR/baseline and DIR/candidate: 10,000 metrics
of 5 runs each whose names hold table pipes, HTML, ANSI escape codes,
@here, invalid UTF-8 and other hostile text; every 50th metric is 20%
slower in the candidate.
(Moved out of a heredoc of tests/check_large.sh.)"""
import os, random, sys
root = sys.argv[1]
rng = random.Random(10000)
hostile = ["a|b", "<script>", "x > y & z", "]]>", "*bold*", "_it_",
           "`tick`", "\x1b[31mred\x1b[0m", "@here", "bad\xff\xfeutf8",
           "tab\tsep", "#123", "~strike~", "[link](x)"]
for side, seed in (("baseline", 1), ("candidate", 2)):
    rng2 = random.Random(seed)
    d = os.path.join(root, side)
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "wb") as f:
        f.write(b"group,benchmark,metric,unit,value\n")
        for i in range(10000):
            g = hostile[i % len(hostile)]
            b = f"{hostile[(i // 7) % len(hostile)]} {i}"
            base = 1000 + (i % 97) * 10
            slow = 1.2 if side == "candidate" and i % 50 == 0 else 1.0
            for _ in range(5):
                v = base * slow * rng2.gauss(1, 0.01)
                row = '"%s","%s",time,ns,%.3f\n' % (g.replace('"', '""'),
                                                     b.replace('"', '""'), v)
                f.write(row.encode("utf-8", "surrogateescape")
                        if "\xff" not in row else
                        row.encode("latin-1", "replace"))

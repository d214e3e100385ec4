#!/usr/bin/python3
"""Write DIR/p1 ... DIR/p12, result trees of net/stream/throughput (Mbps)
and net/rr/latency (us), three runs each, the throughput 8% lower from
p8 on, and the pull request candidates DIR/good (as before) and DIR/bad
(8% lower) (seeded), for the history jobs of ci/scripts/history-*.sh.

  usage: ci_history_trees.py DIR

Run by tests/ci/history.sh.
"""
import os, random, sys
random.seed(8)
root = sys.argv[1]
def tree(d, f):
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as o:
        o.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            o.write("net,stream,throughput,Mbps,%.3f\n" % (9400 * f * (1 + random.gauss(0, 0.004))))
            o.write("net,rr,latency,us,%.3f\n" % (52 * (1 + random.gauss(0, 0.004))))
for i in range(1, 13):
    tree(os.path.join(root, "p%d" % i), 0.92 if i >= 8 else 1.0)
tree(os.path.join(root, "good"), 1.0)
tree(os.path.join(root, "bad"), 0.92)

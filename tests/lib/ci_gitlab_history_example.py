#!/usr/bin/python3
"""Check that the history example of ci/gitlab/README.md includes
ci/gitlab/perfverdict.gitlab-ci.yml, write it to OUT.yml with that
include made local and no image, and write its result trees TREES/p1 ...
p4, good (as before) and bad (10% lower throughput) (seeded).

  usage: ci_gitlab_history_example.py EXAMPLE.yml OUT.yml TREES

Run by tests/ci/runners.sh.
"""
import os, random, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
assert doc["include"][0]["file"] == "ci/gitlab/perfverdict.gitlab-ci.yml", doc["include"]
doc["include"] = [{"local": "perfverdict.gitlab-ci.yml"}]
doc[".perf"].pop("image", None)
yaml.safe_dump(doc, open(sys.argv[2], "w"), sort_keys=False)
random.seed(3)
for name, f in (("p1", 1), ("p2", 1), ("p3", 1), ("p4", 1), ("good", 1), ("bad", 0.9)):
    d = os.path.join(sys.argv[3], name)
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as o:
        o.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            o.write("net,stream,throughput,Mbps,%.3f\n" % (9400 * f * (1 + random.gauss(0, 0.004))))

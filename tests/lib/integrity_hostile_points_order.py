#!/usr/bin/python3
"""Check the points --save-points wrote from the hostile data.js: their
commits kept verbatim and in order, no control characters in them, the
two colliding short ids told apart as -same123-1 and -same123-2.

  usage: integrity_hostile_points_order.py DIR

Run by tests/check_archive_integrity.sh.
"""
import gzip, json, os, sys
d = sys.argv[1]
names = sorted(os.listdir(d))
commits = [json.load(gzip.open(os.path.join(d, n)))["commit"] for n in names]
assert commits[-2:] == ["same1234aaaa", "same1234bbbb"], (names, commits)
assert not any(c < " " or c == "\x7f" for x in commits for c in x), commits
assert commits[3] == "$(touch pwned)" and commits[6] == "../../etc/passwd", commits
assert names[-2].endswith("-same123-1.json.gz") and names[-1].endswith("-same123-2.json.gz"), names

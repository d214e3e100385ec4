#!/usr/bin/python3
"""Label the candidate of each report in DIR "commit-NNNN", after its file
name.

  usage: hist_reports_archive_names.py DIR

Run by tests/check_history_reports.sh.
"""
import json, os, sys
root = sys.argv[1]
for name in sorted(os.listdir(root)):
    p = os.path.join(root, name)
    r = json.load(open(p))
    r["candidate"]["label"] = "commit-" + name[:4]
    json.dump(r, open(p, "w"))

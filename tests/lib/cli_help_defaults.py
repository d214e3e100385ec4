#!/usr/bin/python3
"""Check that every default compare --help shows agrees with the
configuration in the JSON report.

  usage: cli_help_defaults.py HELP.txt REPORT.json

Run by tests/check_cli.sh.
"""
import json, re, sys
help = open(sys.argv[1]).read().split("\ncompare options:\n")[1].split("\n\n")[0]
cfg = json.load(open(sys.argv[2]))["config"]
shown = dict(re.findall(r"--([a-z-]+) \S+ .*\(default: ([^)]*)\)", help))
want = {"alpha": "%g" % cfg["alpha"], "test": cfg["test"],
        "correction": cfg["correction"], "sided": cfg["sided"],
        "threshold": "%g%%" % (cfg["threshold"] * 100),
        "min-samples": str(cfg["min_samples"]),
        "markdown-limit": str(cfg["markdown_limit"]), "format": cfg["format"]}
for k, v in want.items():
    assert shown.get(k) == v, (k, shown.get(k), v)

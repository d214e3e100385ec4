#!/usr/bin/python3
"""render_v1_junit.py REPORT-v1.json RENDERED.xml - in the JUnit that render
wrote from a schema_version 1 report, every metric with direction none
is skipped with an 'ungated:' message.  Exit 1 on a finding.
(Moved out of a heredoc of tests/check_render_v1.sh.)"""
import sys
import xml.etree.ElementTree as ET
import json
report = json.load(open(sys.argv[1]))
none = {m["benchmark"] + " " + m["metric"] for m in report["metrics"]
        if m["direction"] == "none"}
bad = 0
for tc in ET.parse(sys.argv[2]).iter("testcase"):
    if tc.get("name") in none:
        sk = tc.find("skipped")
        if sk is None or not sk.get("message", "").startswith("ungated:"):
            print("check_render_v1: %s is not skipped as ungated" % tc.get("name"),
                  file=sys.stderr)
            bad = 1
sys.exit(bad)

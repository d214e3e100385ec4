#!/usr/bin/python3
"""check_message_table.py - docs/messages.md lists exactly the message
codes of src/util/msg.c, with their levels and meanings, and the report
schemas' warnings[].level allows exactly msg.c's non-error levels.
    check_message_table.py TABLE DOC
TABLE is what build/tests/tools/msgtable prints (code TAB level TAB text);
DOC the Markdown file whose '| `code` | level | meaning |' rows are read.
Exit status 1, with a line per difference, when they disagree."""
import re, sys
table = {}
for line in open(sys.argv[1], encoding="utf-8"):
    code, level, text = line.rstrip("\n").split("\t")
    table[code] = (level, text)
readme, sec = {}, True  # every table row of DOC
for line in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r"^\| `([^`]*)` \| (note|warning|usage|input|fatal)(?: \(\d\))? \| (.*) \|$", line.rstrip("\n"))
    if sec and m:
        if m.group(1) in readme:
            print("check_messages: the table lists '%s' twice" % m.group(1))
            sys.exit(1)
        readme[m.group(1)] = (m.group(2), m.group(3))
bad = 0
for c in sorted(set(table) - set(readme)):
    print("check_messages: code '%s' is not in docs/messages.md" % c); bad = 1
for c in sorted(set(readme) - set(table)):
    print("check_messages: docs/messages.md lists '%s', which is not in src/util/msg.c" % c); bad = 1
for c in sorted(set(table) & set(readme)):
    if table[c] != readme[c]:
        print("check_messages: '%s' is %s in msg.c but %s in docs/messages.md" % (c, table[c], readme[c])); bad = 1
# The levels a report's warnings[] can hold are the schemas' too.
import json
listed = {lv for lv, _ in table.values() if lv in ("note", "warning")}
for schema in ("schemas/report.schema.json", "schemas/history.schema.json"):
    sch = json.load(open(schema, encoding="utf-8"))
    level = sch["properties"]["warnings"]["items"]["properties"]["level"]
    if set(level.get("enum", [level.get("const")])) != listed:
        print("check_messages: %s: warnings[].level is %r, msg.c lists %r" % (schema, level, sorted(listed))); bad = 1
if listed != {"note", "warning"}:
    print("check_messages: msg.c has no note or no warning: %r" % sorted(listed)); bad = 1
if len(table) < 50:
    print("check_messages: only %d codes read from msgtable" % len(table)); bad = 1
sys.exit(bad)

#!/bin/sh
# History reports with hostile metric names, units and point labels: the
# Markdown keeps its table shape and its fences, links nothing, and holds
# no raw HTML; the HTML escapes them (independent of the writers: the
# checks parse the output with Python).
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" - "$tmp/archive" <<'PY'
import os, random, sys
random.seed(5)
root = sys.argv[1]
for p in range(9):
    d = os.path.join(root, "%04d-@team`x" % (p + 1) if p == 8 else "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            v = 100 * (1.2 if p >= 6 else 1.0) * (1 + 0.005 * random.gauss(0, 1))
            f.write('"g|1 <script>x</script>","b```c @team #12",t_ime|x,"n""s|",%.4f\n' % v)
PY
"$PV_BIN" history "$tmp/archive" --markdown "$tmp/h.md" --html "$tmp/h.html" \
	--json "$tmp/h.json" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 1 ] || { echo "check_history_names: exit $st, expected 1: $(cat "$tmp/err")"; exit 1; }
"$PYTHON" - "$tmp/h.md" "$tmp/h.html" <<'PY'
import html.parser, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
bad = []
fences = [l for l in md.splitlines() if l.startswith("```")]
if len(fences) % 2:
    bad.append("unbalanced ``` fences: %d" % len(fences))
# code spans (a run of N backquotes to the next run of exactly N) show
# their content literally: what is outside them must link and embed nothing
def outside_code(text):
    return re.sub(r"(`+)(.+?)(?<!`)\1(?!`)", "", text)
inside_fence = False
tables, cur = [], []
for l in md.splitlines():
    if l.startswith("```"):
        inside_fence = not inside_fence
        continue
    if inside_fence:
        continue
    if l.startswith("|"):
        cur.append(l)
    elif cur:
        tables.append(cur); cur = []
    plain = outside_code(l)
    if "<script" in plain.lower():
        bad.append("raw <script> outside a code span: " + l[:80])
    if re.search(r"(?<![\\\w])@team", plain):
        bad.append("@team outside a code span: " + l[:80])
if cur:
    tables.append(cur)
def cells(line):
    return len(re.findall(r"(?<!\\)\|", outside_code(line).replace("\\|", ""))) - 1
for t in tables:
    for l in t:
        if cells(l) != cells(t[0]):
            bad.append("a table row with %d cells, not %d: %s" % (cells(l), cells(t[0]), l[:80]))
if not any(len(t) > 2 for t in tables):
    bad.append("no table of change points")
class P(html.parser.HTMLParser):
    scripts = 0
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            P.scripts += 1
P().feed(open(sys.argv[2], encoding="utf-8").read())
if P.scripts:
    bad.append("a <script> element in the HTML")
for b in bad:
    print("check_history_names:", b)
sys.exit(1 if bad else 0)
PY

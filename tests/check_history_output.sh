#!/bin/sh
# The history reports' content (issue 22, "Reports"), checked by parsing
# what they say, independent of the writers: the trend is in every
# report; the Markdown keeps compare's comment rules (at most 6 columns,
# one row per metric with its change points in it, the limit with the
# recent regressions first and "... and N more"); changes read at any
# magnitude; the plots draw the value the test sees, not each point's
# mean; the terminal fits COLUMNS, says more than the closing line when
# reports are written, and -v lists every change point.
# (How tall the comment renders is measured by tests/look/, with
# Chromium, which make check does not need.)
. "$(dirname "$0")/lib/test-lib.sh"
failed=0

printf '[metric "*throughput"]\ndirection = higher\n[gate]\ndirection = lower\n' \
	>"$tmp/perf.conf"
"$PYTHON" tests/look/history_archive.py "$tmp/a" || exit 2
"$PV_BIN" history -c "$tmp/perf.conf" "$tmp/a" --json "$tmp/h.json" \
	--markdown "$tmp/h.md" --html "$tmp/h.html" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] || bad "exit $st, expected 1: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" -gt 1 ] ||
	bad "with reports written, the terminal shows only: $(cat "$tmp/out")"
COLUMNS=60 "$PV_BIN" history -c "$tmp/perf.conf" "$tmp/a" -v >"$tmp/v60" 2>/dev/null
"$PV_BIN" history -c "$tmp/perf.conf" "$tmp/a" -v >"$tmp/v" 2>/dev/null

"$PYTHON" - "$tmp" <<'PY' || failed=1
import json, re, sys
tmp = sys.argv[1]
r = json.load(open(tmp + "/h.json"))
md = open(tmp + "/h.md", encoding="utf-8").read()
html = open(tmp + "/h.html", encoding="utf-8").read()
out = open(tmp + "/out", encoding="utf-8").read()
v = open(tmp + "/v", encoding="utf-8").read()
v60 = open(tmp + "/v60", encoding="utf-8").read()
bad = []
def name(m):
    return "/".join(x for x in (m["group"], m["benchmark"], m["metric"]) if x)
byname = {name(m): m for m in r["metrics"]}

# the trend: +2.4-2.5% a point, in every report
tr = byname["trend/ingest/throughput"]
if not tr["trend"]["significant"]:
    bad.append("the fixture's trend is not significant in the JSON")
pct = re.compile(r"\+2\.[3-6]% a point")
for what, text in (("Markdown", md), ("HTML", html), ("terminal", out)):
    if not pct.search(text):
        bad.append("no '+2.5%% a point' trend in the %s" % what)

# Markdown: tables of at most 6 columns; one row per metric
rows = {}
for line in md.splitlines():
    if not line.startswith("|") or line.startswith("|---"):
        continue
    cells = re.split(r"(?<!\\)\|", line)[1:-1]
    if len(cells) > 6:
        bad.append("a table row of %d columns: %s" % (len(cells), line[:80]))
    plain = cells[1].replace("<wbr>", "").replace("\\", "").strip() if len(cells) > 1 else ""
    if plain in byname:
        rows[plain] = rows.get(plain, 0) + 1
        rows.setdefault("cells:" + plain, cells)
flagged = [n for n, m in byname.items() if m["change_points"] or m["trend"]["significant"]]
for n in flagged:
    if rows.get(n) != 1:
        bad.append("metric %s has %s rows in the Markdown, not 1" % (n, rows.get(n)))
lat = rows.get("cells:lat/rpc_echo/p99_time")
if not lat or lat[2].count("<br>") != 2:
    bad.append("the metric with 3 change points does not list them in its row")
# readable at any magnitude: no percentage of more than 5 digits
for what, text in (("Markdown", md), ("HTML", html), ("terminal", v)):
    if re.search(r"[0-9]{6,}(\.[0-9]+)?%", text.replace(",", "")):
        bad.append("an unreadable percentage in the %s" % what)
if "\u00d77.07e+11" not in md or "\u00d77.07e+11" not in v:
    bad.append("the 1e-9 -> 707 ns step is not the factor x7.07e+11")
# -v lists every change point, and every line fits the width
ncp = sum(len(m["change_points"]) for m in r["metrics"])
got = sum(1 for l in v.splitlines() if re.search(r" (rose|dropped|changed) .* at ", l))
if got != ncp:
    bad.append("-v lists %d change points, the JSON %d" % (got, ncp))
for l in v60.splitlines():
    if len(l) > 60:
        bad.append("a line wider than COLUMNS=60: %r" % l)
for b in bad:
    print("check_history_output:", b)
sys.exit(1 if bad else 0)
PY

# The plots draw the value the test sees: one 2x outlier run at point 4,
# a real +15% step at point 7; the outlier must not be the tallest bar.
"$PYTHON" - "$tmp/o" <<'PY'
import os, random, sys
random.seed(4)
for p in range(12):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            v = 800 * (1.15 if p >= 6 else 1) * (1 + 0.003 * random.gauss(0, 1))
            f.write("g,b,cpu_time,ns,%.6g\n" % (v * (2 if p == 3 and r == 1 else 1)))
PY
"$PV_BIN" history "$tmp/o" --markdown "$tmp/o.md" --html "$tmp/o.html" \
	--json "$tmp/o.json" >/dev/null 2>&1
"$PYTHON" - "$tmp/o.md" "$tmp/o.html" "$tmp/o.json" <<'PY' || failed=1
import json, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
html = open(sys.argv[2], encoding="utf-8").read()
series = json.load(open(sys.argv[3]))["metrics"][0]["series"]
bad = []
bars = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
m = re.search("[%s]{12}" % bars, md)
if not m:
    bad.append("no 12-bar sparkline")
else:
    s = m.group(0)
    if bars.index(s[3]) >= min(bars.index(c) for c in s[6:]):
        bad.append("the sparkline draws the outlier run's point (%s) as tall as the step" % s)
line = re.search(r"line \[([^\]]*)\]", md)
vals = [float(x) for x in line.group(1).split(",")] if line else []
if not vals or abs(vals[3] - series[3]["value"]) > 1e-3 * series[3]["value"] \
        or vals[3] > 850:
    bad.append("the Mermaid chart does not draw the robust values: %s" % vals[:5])
t = re.search(r"<title>0004: ([0-9.]+)", html)
if not t or abs(float(t.group(1)) - 800) > 10:
    bad.append("the SVG's point 0004 is not at its robust value (about 800)")
for b in bad:
    print("check_history_output:", b)
sys.exit(1 if bad else 0)
PY

# --markdown-limit: 150 metrics with steps, 40 of them recent
# regressions; the comment fits, the recent regressions come first, the
# rest is "... and N more", and the JSON keeps every one.
"$PYTHON" - "$tmp/big" <<'PY'
import os, random, sys
random.seed(9)
for p in range(12):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for k in range(150):
            at = 9 if k % 4 == 0 else 4
            for r in range(3):
                v = 100 * (1.3 if p >= at else 1) * (1 + 0.003 * random.gauss(0, 1))
                f.write("grp,bench_%03d,cpu_time,ns,%.6g\n" % (k, v))
PY
for lim in 8000 default; do
	opt="--markdown-limit $lim"
	[ $lim = default ] && opt=
	# shellcheck disable=SC2086
	"$PV_BIN" history "$tmp/big" --markdown "$tmp/big.md" --json "$tmp/big.json" \
		$opt >/dev/null 2>&1
	"$PYTHON" - "$tmp/big.md" "$tmp/big.json" "$lim" <<'PY' || failed=1
import json, re, sys
md = open(sys.argv[1], "rb").read()
r = json.load(open(sys.argv[2]))
lim = 65000 if sys.argv[3] == "default" else int(sys.argv[3])
text = md.decode("utf-8")
bad = []
if len(md) > lim:
    bad.append("%d bytes, over the limit %d" % (len(md), lim))
rows = [l for l in text.splitlines() if l.startswith("| ") and "bench" in l]
names = [re.search(r"bench\\?_(\d+)", l).group(1) for l in rows]
recent = [n for n in names if int(n) % 4 == 0]
k = len(recent)
if names[:k] != recent or k == 0:
    bad.append("the recent regressions are not first: %s" % names[:12])
shown = len(rows)
if shown < 150:
    m = re.search(r"\u2026 and (\d+) more", text)
    if not m or int(m.group(1)) != 150 - shown:
        bad.append("%d rows shown and no '\u2026 and %d more'" % (shown, 150 - shown))
if sum(len(m["change_points"]) for m in r["metrics"]) != 150:
    bad.append("the JSON does not keep all 150 change points")
for b in bad:
    print("check_history_output: limit %s: %s" % (sys.argv[3], b))
sys.exit(1 if bad else 0)
PY
done

[ $failed -eq 0 ] && echo "check_history_output: ok"
exit $failed

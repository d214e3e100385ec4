#!/bin/sh
# One policy (issue 20): a config means the same in compare, merge -c and
# history.  One archive of 12 points (3 runs each) where most metrics
# step by 10% at point 10, and one config that uses every [metric] key
# (direction, threshold, abs_threshold, alpha, ignore) and two waivers,
# one holding and one expired:
#   - each metric's resolved rule (direction and whether it was guessed,
#     threshold, abs_threshold, alpha, ignored) is the same in compare's
#     JSON, in the JSON of merge -c over a report compared without the
#     config, in history's JSON and in compare --baseline-history's;
#   - each gate decision (regression, waived, or passes) is the same in
#     all three and the one expected: abs_threshold, alpha and threshold
#     each turn a 10% step into a pass, which a control config without
#     those three keys shows failing in all three (alpha = 1e-300, a
#     level no p reaches: history's test of 9 points against 3, with the
#     metric's step found at a commit the others stepped at, has p near
#     1e-148, below the 1e-30 this used);
#   - the expired waiver gives one waiver-expired warning, worded the
#     same, in compare and in history (history dropped it);
#   - the no-direction warning comes out once, worded the same, in
#     compare, history and compare --baseline-history (which said it
#     twice, in two wordings); the expired waiver's warning once there
#     too; and a metric a rule ignores is ungated there, as in compare
#     (history left it out, so its pooled baseline was empty: "new");
#   - an ungated metric is listed as moved by the same floor
#     (abs_threshold too);
#   - insufficient = fail fails the gate and is a JUnit error, as the
#     gate says (JUnit said skipped), and the closing line names it, not
#     a missing metric that the gate lets pass.
. "$(dirname "$0")/lib/test-lib.sh"
bad=0
say() { bad "$@"; }

"$PYTHON" - "$tmp/arch" <<'EOF'
import os, random, sys
rnd = random.Random(20)
# name, unit, level, step at point 10, within-point sd, between-point sd
M = [("thr", "ops/s", 1000.0, -0.10), ("thr_big", "ops/s", 1000.0, -0.10),
     ("lat_waived", "ms", 100.0, 0.10), ("lat_expired", "ms", 100.0, 0.10),
     ("lat_abs", "ms", 100.0, 0.10), ("lat_strict", "ms", 100.0, 0.10),
     ("size_none", "B", 500.0, 0.10), ("noise_ignored", "ms", 100.0, 0.10),
     ("lat_flat", "ms", 100.0, 0.0)]
for p in range(12):
    d = os.path.join(sys.argv[1], "%04d" % (p + 1))
    os.makedirs(d)
    level = {n: v * (1 + (s if p >= 9 else 0)) * (1 + rnd.gauss(0, 0.003))
             for n, u, v, s in M}
    rows = ["group,benchmark,metric,unit,value"]
    for r in range(3):
        rows += ["g,b,%s,%s,%.4f" % (n, u, level[n] * (1 + rnd.gauss(0, 0.01)))
                 for n, u, v, s in M]
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
EOF
cat >"$tmp/perf.conf" <<'EOF'
[gate]
threshold = 5%

[metric "thr*"]
direction = higher

[metric "thr_big"]
threshold = 25%

[metric "lat_abs"]
abs_threshold = 50

[metric "lat_strict"]
alpha = 1e-300

[metric "size_none"]
direction = none
abs_threshold = 1000

[metric "noise_*"]
ignore = true

[waiver "lat_waived"]
until = 2999-12-31
reason = accepted cost

[waiver "g/b/lat_expired"]
until = 2000-01-01
reason = was accepted
EOF
# The control: the same without the three keys that turn a step into a
# pass.
sed -e '/^threshold = 25%/d' -e '/^abs_threshold/d' -e '/^alpha/d' \
	"$tmp/perf.conf" >"$tmp/control.conf"
printf '[gate]\nthreshold = 5%%\n' >"$tmp/plain.conf"
mkdir "$tmp/older"
for p in 0001 0002 0003 0004 0005 0006 0007 0008 0009; do
	cp -R "$tmp/arch/$p" "$tmp/older/$p"
done

for c in perf control; do
	"$PV_BIN" compare -c "$tmp/$c.conf" "$tmp/arch/0009" "$tmp/arch/0012" \
		--json "$tmp/$c-compare.json" --markdown "$tmp/$c.md" \
		>/dev/null 2>"$tmp/$c-compare.err"
	echo $? >"$tmp/$c-compare.exit"
	"$PV_BIN" compare -c "$tmp/plain.conf" "$tmp/arch/0009" "$tmp/arch/0012" \
		--json "$tmp/$c-shard.json" >/dev/null 2>&1
	"$PV_BIN" merge -c "$tmp/$c.conf" "$tmp/$c-shard.json" \
		--json "$tmp/$c-merge.json" >/dev/null 2>"$tmp/$c-merge.err"
	echo $? >"$tmp/$c-merge.exit"
	"$PV_BIN" history -c "$tmp/$c.conf" "$tmp/arch" \
		--json "$tmp/$c-history.json" >/dev/null 2>"$tmp/$c-history.err"
	echo $? >"$tmp/$c-history.exit"
done
"$PV_BIN" compare -c "$tmp/perf.conf" --baseline-history "$tmp/older" \
	"$tmp/arch/0012" --json "$tmp/bh.json" >/dev/null 2>"$tmp/bh.err"

"$PYTHON" - "$tmp" <<'EOF' || bad=1
import json, os, sys
tmp = sys.argv[1]
problems = []
EXPECT = {
    "perf": {"thr": "regression", "thr_big": "pass", "lat_waived": "waived",
             "lat_expired": "regression", "lat_abs": "pass",
             "lat_strict": "pass", "size_none": "pass",
             "noise_ignored": "pass", "lat_flat": "pass"},
}
EXPECT["control"] = dict(EXPECT["perf"], thr_big="regression",
                         lat_abs="regression", lat_strict="regression")
RULE = ("direction", "direction_assumed", "threshold", "abs_threshold",
        "alpha", "ignored")


def load(name):
    try:
        with open(os.path.join(tmp, name), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        problems.append(f"{name}: {e}")
        return {"metrics": [], "warnings": []}


def compare_decision(m):
    return m["verdict"] if m["verdict"] in ("regression", "waived") else "pass"


def history_decision(m):
    # The tool's own fields: fails_gate decides, status says waived.
    if any(c.get("fails_gate", "absent") is True for c in m["change_points"]):
        return "regression"
    if any("fails_gate" not in c for c in m["change_points"]):
        return "no fails_gate"
    return "waived" if m["status"] == "waived" else "pass"


def messages(report, code):
    return [w["message"] for w in report.get("warnings", [])
            if w.get("code") == code]


for conf, expect in EXPECT.items():
    reports = {k: load(f"{conf}-{k}.json") for k in ("compare", "merge", "history")}
    hist = {m["metric"]: m for m in reports["history"]["metrics"]}
    for kind in ("compare", "merge"):
        for m in reports[kind]["metrics"]:
            name = m["metric"]
            got = compare_decision(m)
            if got != expect[name]:
                problems.append(f"{conf} {kind}: {name} is {got}, not {expect[name]}")
            h = hist.get(name)
            if h is None:
                problems.append(f"{conf}: {name} is not in history")
                continue
            for k in RULE:
                if m.get(k, "absent") != h.get(k, "absent"):
                    problems.append(f"{conf}: {name}'s {k} is {m.get(k, 'absent')} in {kind}, {h.get(k, 'absent')} in history")
            if history_decision(h) != got:
                problems.append(f"{conf}: {name} is {got} in {kind}, {history_decision(h)} in history")
    for kind in ("compare", "merge", "history"):
        with open(os.path.join(tmp, f"{conf}-{kind}.exit")) as f:
            st = f.read().strip()
        if st != "1":
            problems.append(f"{conf} {kind}: exit status {st}, not 1")
    exp_c = messages(reports["compare"], "waiver-expired")
    exp_h = messages(reports["history"], "waiver-expired")
    if len(exp_c) != 1 or exp_c != exp_h:
        problems.append(f"{conf}: waiver-expired in compare {exp_c}, in history {exp_h}")
    nd_c = messages(reports["compare"], "no-direction")
    nd_h = messages(reports["history"], "no-direction")
    if len(nd_c) != 1 or nd_c != nd_h:
        problems.append(f"{conf}: no-direction in compare {nd_c}, in history {nd_h}")

bh = load("bh.json")
plain = {m["metric"]: m for m in load("perf-compare.json")["metrics"]}
for m in bh["metrics"]:
    for k in RULE:
        p = plain.get(m["metric"], {})
        if m.get(k, "absent") != p.get(k, "absent"):
            problems.append(f"compare --baseline-history: {m['metric']}'s {k} is {m.get(k, 'absent')}, {p.get(k, 'absent')} in compare")
    if m.get("ignored") and m["verdict"] != "ungated":
        problems.append(f"compare --baseline-history: the ignored {m['metric']} is {m['verdict']}, not ungated")
nd = messages(bh, "no-direction")
with open(os.path.join(tmp, "bh.err"), encoding="utf-8") as f:
    err = [l for l in f if l.rstrip().endswith("[no-direction]")]
plain = messages(load("perf-compare.json"), "no-direction")
if len(nd) != 1 or len(err) != 1 or nd != plain:
    problems.append(f"compare --baseline-history: no-direction {len(nd)} times in the JSON, {len(err)} on stderr: {nd} (compare: {plain})")
if len(messages(bh, "waiver-expired")) != 1:
    problems.append(f"compare --baseline-history: waiver-expired {messages(bh, 'waiver-expired')}")
for p in problems:
    print(f"check_policy: FAIL: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
# An ungated metric "moved" by the same floor as a gated one: size_none's
# 10% (50 B) is below its abs_threshold of 1000, so the PR comment does
# not list it as moved (it did); without abs_threshold it does.
# (noise_ignored moves 10% in both.)
grep -q '<summary>1 ungated metric moved' "$tmp/perf.md" ||
	say "size_none is listed as an ungated metric that moved, below its abs_threshold"
grep -q '<summary>2 ungated metrics moved' "$tmp/control.md" ||
	say "size_none is not listed as an ungated metric that moved in the control"

# insufficient = fail: the gate fails, and JUnit's case for that metric
# is an error, as the gate says (it was <skipped>), with the closing
# line naming it.
cp -R "$tmp/arch/0012" "$tmp/few"
# A missing metric (missing = warn) does not fail it: the closing line
# names the insufficient one (it named the missing one, more severe).
awk '!/,thr,/ && (!/,lat_flat,/ || n++ < 2)' "$tmp/arch/0012/results.csv" \
	>"$tmp/few/results.csv"
printf '[gate]\nthreshold = 5%%\nmin_samples = 3\ninsufficient = fail\nmissing = warn\n[metric "thr*"]\ndirection = higher\n' \
	>"$tmp/few.conf"
"$PV_BIN" compare -c "$tmp/few.conf" "$tmp/arch/0012" "$tmp/few" \
	--junit "$tmp/few.xml" >"$tmp/few.out" 2>/dev/null
st=$?
[ $st -eq 1 ] || say "insufficient = fail: exit $st, not 1"
grep -q '<error type="InsufficientSamples"' "$tmp/few.xml" ||
	say "insufficient = fail: JUnit has no InsufficientSamples error"
[ "$(grep -c '<error' "$tmp/few.xml")" = 1 ] || say "insufficient = fail: not one JUnit error"
xmllint --noout --schema schemas/junit.xsd "$tmp/few.xml" 2>/dev/null ||
	say "insufficient = fail: the JUnit does not validate"
"$PV_BIN" compare -q -c "$tmp/few.conf" "$tmp/arch/0012" "$tmp/few" \
	>"$tmp/few.q" 2>/dev/null
grep -q '^FAIL: 1 insufficient, first g b lat_flat' "$tmp/few.q" ||
	say "insufficient = fail: closing line $(cat "$tmp/few.q")"

for f in "$tmp"/*-history.json "$tmp"/*-compare.json "$tmp"/*-merge.json "$tmp/bh.json"; do
	"$PYTHON" tests/lib/validate_json.py "$f" || say "$f does not validate"
done
exit $bad

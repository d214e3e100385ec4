#!/usr/bin/python3
"""Check each policy run's report in TMPDIR against the verdict each metric
is built to give (perf, and control without the policy) and the rule the
JSON says applied.

  usage: policy_check_policy.py TMPDIR

Run by tests/check_policy.sh.
"""
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

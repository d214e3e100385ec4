#!/usr/bin/python3
"""github-action-benchmark data for tests/ci/history.sh.

  benchdata.py synth OUT.js            a data.js, three suites (cargo,
                                       benchmarkjs, customBiggerIsBetter),
                                       12 commits, a planted 8% step at
                                       commit 8 in each
  benchdata.py candidate IN.js OUT.js FACTOR
                                       IN with one more commit whose values
                                       are the last ones times FACTOR
  benchdata.py points IN.js DIR        the same data as a directory of
                                       perfverdict history points, written
                                       independently of perfverdict's reader
                                       (the key mapping of src/readers/benchdata.h)
  benchdata.py compare A.json B.json   two history JSON reports agree on
                                       every metric's series, change points,
                                       status and direction
"""
import datetime
import json
import os
import random
import sys

PREFIX = "window.BENCHMARK_DATA = "
BIGGER = {"benchmarkjs", "pytest", "customBiggerIsBetter"}


def load(path):
    text = open(path, encoding="utf-8").read()
    if text.startswith(PREFIX):
        text = text[len(PREFIX):]
    return json.loads(text)


def synth(out):
    random.seed(21)
    suites = {"rust (cargo)": ("cargo", "ns/iter", 1000.0, 1.08),
              "js (benchmarkjs)": ("benchmarkjs", "ops/sec", 5000.0, 0.92),
              "custom": ("customBiggerIsBetter", "MB/s", 300.0, 1.08)}
    t0 = datetime.datetime(2026, 11, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    entries = {}
    for name, (tool, unit, level, step) in suites.items():
        lst = []
        for i in range(12):
            cid = "%040x" % random.getrandbits(160) if name == "rust (cargo)" else None
            lst.append((i, cid))
        entries[name] = lst
    # one commit id per push, shared by the suites
    ids = [e[1] for e in entries["rust (cargo)"]]
    data = {"lastUpdate": 0, "repoUrl": "https://example.invalid/r", "entries": {}}
    for name, (tool, unit, level, step) in suites.items():
        lst = []
        for i in range(12):
            t = t0 + datetime.timedelta(hours=i)
            f = step if i >= 7 else 1.0
            benches = [{"name": "bench_%s" % k, "value": round(level * (k + 1) * f * (1 + random.gauss(0, 0.004)), 3),
                        "range": "± 1", "unit": unit} for k in range(2)]
            lst.append({"commit": {"id": ids[i], "timestamp": t.isoformat(), "message": "push %d" % (i + 1)},
                        "date": int(t.timestamp() * 1000) + 60000, "tool": tool, "benches": benches})
        data["entries"][name] = lst
    with open(out, "w", encoding="utf-8") as f:
        f.write(PREFIX + json.dumps(data, indent=2))


def candidate(src, out, factor):
    d = load(src)
    for lst in d["entries"].values():
        last = json.loads(json.dumps(lst[-1]))
        last["commit"]["id"] = "c" * 40
        for b in last["benches"]:
            b["value"] = b["value"] * factor
        lst.append(last)
    with open(out, "w", encoding="utf-8") as f:
        f.write(PREFIX + json.dumps(d, indent=2))


def parse_time(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(datetime.timezone.utc)


def points(src, outdir):
    d = load(src)
    commits = {}
    for suite, lst in d["entries"].items():
        for e in lst:
            c = commits.setdefault(e["commit"]["id"], {"time": parse_time(e["commit"]["timestamp"]), "m": {}})
            for b in e["benches"]:
                key = (suite, b["name"], b["unit"])
                m = c["m"].setdefault(key, {"suite": "default", "test": "", "group": suite,
                                            "benchmark": b["name"], "metric": "value", "unit": b["unit"],
                                            "direction": "higher" if e["tool"] in BIGGER else "lower",
                                            "samples": []})
                m["samples"].append(b["value"])
    os.makedirs(outdir, exist_ok=True)
    for cid, c in commits.items():
        t = c["time"]
        p = {"point_version": 1, "tool": {"name": "perfverdict", "version": "test"},
             "label": cid[:7], "commit": cid, "time": t.strftime("%Y-%m-%dT%H:%M:%SZ"),
             "suite": "default", "context": {}, "metrics": [c["m"][k] for k in sorted(c["m"])]}
        name = "%s-%s.json" % (t.strftime("%Y-%m-%dT%H%M%SZ"), cid[:7])
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            json.dump(p, f)


def compare(a, b):
    def digest(path):
        h = json.load(open(path))
        return {m["id"]: (m["direction"], m["status"], m["unit"],
                          [(c["index"], c["label"], c.get("verdict"), round(c["rel"], 9))
                           for c in m["change_points"]],
                          [(s["index"], round(s["value"], 9)) for s in m["series"]])
                for m in h["metrics"]}, [(p["label"], p.get("commit"), p["time"]) for p in h["points"]], h["verdict"]
    da, db = digest(a), digest(b)
    if da != db:
        print("differ:\n%s\n%s" % (da, db), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "synth":
        synth(sys.argv[2])
    elif cmd == "candidate":
        candidate(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif cmd == "points":
        points(sys.argv[2], sys.argv[3])
    elif cmd == "compare":
        compare(sys.argv[2], sys.argv[3])

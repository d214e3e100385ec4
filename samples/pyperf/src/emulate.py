#!/usr/bin/python3
"""Write pyperf-format JSON from real timings (Debian does not package pyperf).

    /usr/bin/python3 samples/pyperf/src/emulate.py OUTDIR

Writes OUTDIR/baseline/bench.json and OUTDIR/candidate/bench.json in the
layout of `python -m pyperf` / pyperf.Runner (format "1.0"): a suite of
benchmarks, each with one calibration run (warmups only) and then several
runs, each from its own worker process, with one warmup and three values
per run; values are seconds per loop.  Metadata is split as pyperf does:
what every benchmark shares sits in the suite, what every run of a
benchmark shares sits in the benchmark, the rest stays in the run.  The
file is written with sorted keys and compact separators, like pyperf.

Baseline and candidate workers alternate run by run, so that load from
other processes falls on both sides alike.  The candidate's workers get
PV_SLOWDOWN=1, which makes only the "sort" benchmark sort 20% more items.
Standard library only.
"""
import datetime
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import time

BENCHMARKS = ("sort", "json_dumps", "sha256")
RUNS = 8            # worker processes per benchmark and side
VALUES = 3          # values per worker run (after one warmup)
MIN_TIME = 0.05     # seconds per value; loops are calibrated to reach it


def workload(name):
    """Return a function doing one loop of benchmark `name`."""
    if name == "sort":
        import random
        work = 1.2 if os.environ.get("PV_SLOWDOWN") == "1" else 1.0
        rng = random.Random(42)
        data = [rng.random() for _ in range(int(2000 * work))]
        return lambda: sorted(data)
    if name == "json_dumps":
        doc = {"k%d" % i: [i, str(i), {"x": i * 0.5}] for i in range(100)}
        return lambda: json.dumps(doc)
    if name == "sha256":
        buf = b"x" * 16384
        return lambda: hashlib.sha256(buf).digest()
    raise SystemExit("unknown benchmark " + name)


def timed(fn, loops):
    t0 = time.perf_counter()
    for _ in range(loops):
        fn()
    return (time.perf_counter() - t0) / loops


def worker(name, loops):
    """One pyperf worker run: print its run as JSON on stdout."""
    fn = workload(name)
    start = time.time()
    run = {"metadata": {}}
    if loops == 0:                      # calibration: double loops
        loops, warmups = 1, []
        while True:
            dt = timed(fn, loops)
            warmups.append([loops, dt])
            if dt * loops >= MIN_TIME or loops >= 2 ** 20:
                break
            loops *= 2
        run["warmups"] = warmups
        run["metadata"]["calibrate_loops"] = loops
    else:
        run["warmups"] = [[loops, timed(fn, loops)]]
        run["values"] = [timed(fn, loops) for _ in range(VALUES)]
    md = run["metadata"]
    md["date"] = datetime.datetime.now().isoformat(" ")
    md["duration"] = round(time.time() - start, 3)
    md["load_avg_1min"] = round(os.getloadavg()[0], 2)
    md["mem_max_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    md["uptime"] = round(time.monotonic(), 1)
    print(json.dumps(run))


def spawn(name, loops, slowdown):
    env = dict(os.environ, PV_SLOWDOWN="1" if slowdown else "0")
    out = subprocess.run([sys.executable, os.path.abspath(__file__),
                          "--worker", name, str(loops)], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def hoist(dicts):
    """The items every dict shares, removed from each of them."""
    if not dicts:
        return {}
    common = {k: v for k, v in dicts[0].items()
              if all(d.get(k) == v for d in dicts[1:])}
    for d in dicts:
        for k in common:
            del d[k]
    return common


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(outdir):
    sides = {"baseline": [], "candidate": []}
    for name in BENCHMARKS:
        runs = {s: [] for s in sides}
        loops = {}
        for side in sides:             # calibration runs
            cal = spawn(name, 0, side == "candidate")
            loops[side] = cal["metadata"]["calibrate_loops"]
            runs[side].append(cal)
        for i in range(RUNS):          # alternate the sides, ABBA
            order = list(sides) if i % 2 == 0 else list(sides)[::-1]
            for side in order:
                runs[side].append(spawn(name, loops[side],
                                        side == "candidate"))
        for side in sides:
            bench_md = hoist([r["metadata"] for r in runs[side]])
            for r in runs[side]:
                if not r["metadata"]:
                    del r["metadata"]
            bench_md.update({"name": name, "loops": loops[side]})
            sides[side].append({"metadata": bench_md, "runs": runs[side]})
    suite_md = {
        "aslr": "Full randomization",
        "cpu_count": os.cpu_count(),
        "cpu_model_name": cpu_model(),
        "hostname": platform.node(),
        "perf_version": "2.6.1 (emulated by samples/pyperf/src/emulate.py)",
        "platform": platform.platform(),
        "python_executable": sys.executable,
        "python_implementation": platform.python_implementation().lower(),
        "python_version": "%s (64-bit)" % platform.python_version(),
        "timer": "clock_gettime(CLOCK_MONOTONIC), resolution: 1.00 ns",
        "unit": "second",
    }
    for side, benches in sides.items():
        os.makedirs(os.path.join(outdir, side), exist_ok=True)
        doc = {"benchmarks": benches, "metadata": suite_md, "version": "1.0"}
        with open(os.path.join(outdir, side, "bench.json"), "w") as f:
            json.dump(doc, f, sort_keys=True, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        raise SystemExit(__doc__)

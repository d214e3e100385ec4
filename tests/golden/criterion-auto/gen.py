#!/usr/bin/python3
"""gen.py - writes this case's two criterion trees (run once; committed).

Each side is a target/criterion tree as criterion 0.5 leaves it: for
"fib/20" new/sample.json, benchmark.json, estimates.json and raw.csv,
plus report/index.html; "old_parse" in criterion 0.2's sample.json
([[iters...], [times...]], no benchmark.json); a stray notes.csv at the
top.  The candidate's fib/20 takes 10% longer; old_parse is unchanged.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fp:
        fp.write(text)


def side(name, seed, fib_ns):
    rng = random.Random(seed)
    root = os.path.join(HERE, name, "target", "criterion")
    iters = [float(10 * (i + 1)) for i in range(12)]
    times = [round(n * fib_ns * rng.gauss(1, 0.01), 1) for n in iters]
    d = os.path.join(root, "fib", "20", "new")
    write(os.path.join(d, "sample.json"), json.dumps(
        {"sampling_mode": "Linear", "iters": iters, "times": times}))
    write(os.path.join(d, "benchmark.json"), json.dumps(
        {"group_id": "fib", "function_id": None, "value_str": "20",
         "throughput": None, "full_id": "fib/20", "directory_name": "fib/20",
         "title": "fib/20"}))
    write(os.path.join(d, "estimates.json"), json.dumps(
        {"mean": {"confidence_interval": {"confidence_level": 0.95,
                                          "lower_bound": fib_ns * 0.99,
                                          "upper_bound": fib_ns * 1.01},
                  "point_estimate": fib_ns, "standard_error": 1.0}}))
    rows = ["group,function,value,throughput_num,throughput_type,"
            "sample_measured_value,unit,iteration_count"]
    rows += ["fib,,20,,,%s,ns,%d" % (t, n) for t, n in zip(times, iters)]
    write(os.path.join(d, "raw.csv"), "\n".join(rows) + "\n")
    write(os.path.join(root, "fib", "20", "report", "index.html"),
          "<!DOCTYPE html><html><body>fib/20</body></html>\n")
    write(os.path.join(root, "report", "index.html"),
          "<!DOCTYPE html><html><body>index</body></html>\n")
    iters = [float(5 * (i + 1)) for i in range(10)]
    times = [round(n * 812.0 * rng.gauss(1, 0.01), 1) for n in iters]
    write(os.path.join(root, "old_parse", "new", "sample.json"),
          json.dumps([iters, times]))
    write(os.path.join(HERE, name, "notes.csv"),
          "date,comment\n2026-11-30,quiet machine\n")


side("baseline", 1, 26000.0)
side("candidate", 2, 28600.0)

#!/usr/bin/python3
"""Write criterion.rs result trees (criterion is not packaged by Debian).

    /usr/bin/python3 samples/criterion/src/generate.py OUTDIR

The numbers are synthetic but the files are laid out and spelled as
criterion 0.5 writes them under target/criterion/:

    <id>/new/sample.json      {"sampling_mode", "iters", "times"}
    <id>/new/benchmark.json   {"group_id", "function_id", "value_str",
                               "throughput", "full_id", "directory_name",
                               "title"}
    <id>/new/estimates.json   summary estimates (perfverdict ignores it)
    <id>/base/...             the saved baseline (candidate tree only)

Linear sampling: sample i runs iters[i] = d*(i+1) iterations and records
their total time in ns.  Each benchmark has a true time per iteration;
every sample gets log-normal noise (sigma 2%) and, rarely, an outlier,
from a seeded random.Random, so a rerun reproduces every byte.

OUTDIR/baseline/ holds one run.  OUTDIR/candidate/ holds the next run in
new/ and the baseline run in base/ (as `cargo bench` leaves it), so both
    perfverdict compare OUTDIR/baseline OUTDIR/candidate
    perfverdict compare --criterion-baseline base OUTDIR/candidate OUTDIR/candidate
compare the same numbers.  The candidate's "fib 20" is 20% slower; the
other benchmarks are unchanged.
"""
import json
import math
import os
import random
import shutil
import statistics
import sys

SAMPLES = 30
# (group_id, function_id, value_str, ns per iteration, iterations step)
BENCHES = [
    ("fib 20", None, None, 18500.0, 20),
    ("sort", "std", "1000", 31000.0, 10),
    ("sort", "unstable", "1000", 24000.0, 10),
    ("parse", "json", None, 5200.0, 60),
]
SLOWED = {"fib 20": 1.20}


def full_id(g, f, v):
    return "/".join(x for x in (g, f, v) if x is not None)


def write_run(root, sub, rng, slowdown):
    for g, f, v, ns, step in BENCHES:
        fid = full_id(g, f, v)
        d = os.path.join(root, fid, sub)
        os.makedirs(d, exist_ok=True)
        per_iter = ns * (slowdown.get(fid, 1.0))
        iters = [float(step * (i + 1)) for i in range(SAMPLES)]
        times = []
        for n in iters:
            noise = math.exp(rng.gauss(0.0, 0.02))
            if rng.random() < 0.03:
                noise *= 1.3            # an occasional outlier
            times.append(round(n * per_iter * noise, 1))
        with open(os.path.join(d, "sample.json"), "w") as fp:
            json.dump({"sampling_mode": "Linear", "iters": iters,
                       "times": times}, fp, separators=(",", ":"))
        with open(os.path.join(d, "benchmark.json"), "w") as fp:
            json.dump({"group_id": g, "function_id": f, "value_str": v,
                       "throughput": None, "full_id": fid,
                       "directory_name": fid, "title": fid}, fp,
                      separators=(",", ":"))
        per = [t / n for t, n in zip(times, iters)]
        mean, sd = statistics.mean(per), statistics.stdev(per)
        med = statistics.median(per)

        def est(x):
            return {"confidence_interval": {"confidence_level": 0.95,
                                            "lower_bound": x * 0.99,
                                            "upper_bound": x * 1.01},
                    "point_estimate": x, "standard_error": x * 0.005}
        with open(os.path.join(d, "estimates.json"), "w") as fp:
            json.dump({"mean": est(mean), "median": est(med),
                       "median_abs_dev": est(sd * 0.67), "slope": est(mean),
                       "std_dev": est(sd)}, fp, separators=(",", ":"))


def main(outdir):
    base = os.path.join(outdir, "baseline")
    cand = os.path.join(outdir, "candidate")
    for d in (base, cand):
        shutil.rmtree(d, ignore_errors=True)
    write_run(base, "new", random.Random("criterion-baseline"), {})
    write_run(cand, "base", random.Random("criterion-baseline"), {})
    write_run(cand, "new", random.Random("criterion-candidate"), SLOWED)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])

#!/usr/bin/python3
"""Write JMH result files (-rf json); JMH is not packaged by Debian.

    /usr/bin/python3 samples/jmh/src/generate.py OUTDIR

The numbers are synthetic but each entry is laid out as JMH 1.37 writes
it: jmhVersion, benchmark, mode, threads, forks, jvm, jvmArgs, jdkVersion,
vmName, vmVersion, warmup and measurement settings, params,
primaryMetric {score, scoreError, scoreConfidence, scorePercentiles,
scoreUnit, rawData[fork][iteration]} and secondaryMetrics (here the gc
profiler's "·gc.alloc.rate.norm").  Every iteration score gets log-normal
noise (sigma 2%, plus a per-fork offset of 1%) from a seeded
random.Random, so a rerun reproduces every byte.

The candidate's MapBench.put (avgt, us/op) is 20% slower; everything else
is unchanged, including ListBench.add in thrpt mode (higher is better).
"""
import json
import math
import os
import random
import statistics
import sys

FORKS, ITERS = 3, 5
# (benchmark, mode, params, score, unit, alloc B/op)
ENTRIES = [
    ("org.example.ListBench.add", "thrpt", {"size": "100"}, 1520.0,
     "ops/ms", 2416.0),
    ("org.example.ListBench.add", "thrpt", {"size": "10000"}, 14.8,
     "ops/ms", 240016.0),
    ("org.example.MapBench.put", "avgt", {}, 0.845, "us/op", 48.0),
    ("org.example.MapBench.get", "avgt", {}, 0.212, "us/op", 0.0),
]
SLOWED = {("org.example.MapBench.put", "avgt"): 1.20}


def metric(rng, score, unit, noise=0.02):
    raw = []
    for _ in range(FORKS):
        fork = rng.gauss(0.0, 0.01)
        raw.append([round(score * math.exp(fork + rng.gauss(0.0, noise)), 6)
                    for _ in range(ITERS)])
    flat = [x for f in raw for x in f]
    mean = statistics.mean(flat)
    err = 2.6 * statistics.stdev(flat) / math.sqrt(len(flat))
    s = sorted(flat)
    pct = {"0.0": s[0], "50.0": statistics.median(s), "90.0": s[-2],
           "95.0": s[-1], "99.0": s[-1], "99.9": s[-1], "99.99": s[-1],
           "99.999": s[-1], "99.9999": s[-1], "100.0": s[-1]}
    return {"score": mean, "scoreError": err,
            "scoreConfidence": [mean - err, mean + err],
            "scorePercentiles": pct, "scoreUnit": unit, "rawData": raw}


def run(rng, slowdown):
    out = []
    for bench, mode, params, score, unit, alloc in ENTRIES:
        factor = slowdown.get((bench, mode), 1.0)
        # thrpt is ops per time: slower code means a lower score
        score = score / factor if mode == "thrpt" else score * factor
        e = {
            "jmhVersion": "1.37", "benchmark": bench, "mode": mode,
            "threads": 1, "forks": FORKS,
            "jvm": "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
            "jvmArgs": ["-Xms1g", "-Xmx1g"], "jdkVersion": "17.0.13",
            "vmName": "OpenJDK 64-Bit Server VM",
            "vmVersion": "17.0.13+11-Debian-2deb12u1",
            "warmupIterations": 3, "warmupTime": "1 s",
            "warmupBatchSize": 1, "measurementIterations": ITERS,
            "measurementTime": "1 s", "measurementBatchSize": 1,
        }
        if params:
            e["params"] = params
        e["primaryMetric"] = metric(rng, score, unit)
        e["secondaryMetrics"] = {
            "\u00b7gc.alloc.rate.norm": metric(rng, alloc or 0.001, "B/op",
                                               0.0001)}
        out.append(e)
    return out


def main(outdir):
    for side, seed, slow in (("baseline", "jmh-baseline", {}),
                             ("candidate", "jmh-candidate", SLOWED)):
        os.makedirs(os.path.join(outdir, side), exist_ok=True)
        with open(os.path.join(outdir, side, "jmh-result.json"), "w",
                  encoding="utf-8") as fp:
            json.dump(run(random.Random(seed), slow), fp, indent=4,
                      ensure_ascii=False, separators=(",", " : "))
            fp.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])

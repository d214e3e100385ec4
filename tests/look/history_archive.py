#!/usr/bin/python3
"""An archive of 30 CSV trees x 3 runs for looking at the history
reports (tests/check_history_reports.sh, and by eye): four regressions
in the newest points, a metric with three change points, a trend of
+2.5% a point, a 1e-9 -> 707 ns jump, a step from 0, one 2x outlier run
before a real step, long names, and flat metrics.
    history_archive.py DIR"""
import os
import random
import sys

random.seed(22)
P = 30


def metrics():
    m = []
    for k, (at, f) in enumerate([(27, 0.91), (26, 0.75), (27, 0.88), (26, 0.93)]):
        # higher is better for throughput, lower for time
        m.append(("netperf", "TCP_STREAM-%d" % (1024 << k), "throughput", "Mbps",
                  lambda p, at=at, f=f: 9400 * (f if p >= at else 1), 0.003))
    m.append(("lat", "rpc_echo", "p99_time", "ns",
              lambda p: 5000 * (1.2 if p >= 10 else 1) * (0.7 if p >= 17 else 1)
              * (1.3 if p >= 23 else 1), 0.004))
    m.append(("alloc", "BM_parse", "bytes_per_op", "B",
              lambda p: 64.0 if p >= 15 else 0.0, 0.0))
    m.append(("tiny", "BM_noop", "real_time", "ns",
              lambda p: 707.0 if p >= 12 else 1e-9, 0.002))
    m.append(("trend", "ingest", "throughput", "items/s",
              lambda p: 1e5 * 1.025 ** p, 0.003))
    m.append(("outlier", "BM_hash", "cpu_time", "ns",
              lambda p: 800 * (1.15 if p >= 20 else 1), 0.003))
    m.append(("very_long_group_name_for_wrapping",
              "BM_SomethingRatherLong<int, std::vector<double>>/1048576",
              "real_time", "us", lambda p: 350 * (1.3 if p >= 14 else 1), 0.003))
    for k in range(15):
        m.append(("flat", "BM_case_%02d" % k, "cpu_time", "ns",
                  lambda p, k=k: 100.0 * (k + 1), 0.003))
    return m


def main():
    root = sys.argv[1]
    ms = metrics()
    for p in range(P):
        d = os.path.join(root, "%04d-%07x" % (p + 1, random.getrandbits(28)))
        os.makedirs(d)
        with open(os.path.join(d, "results.csv"), "w", encoding="utf-8") as f:
            f.write("group,benchmark,metric,unit,value\n")
            for g, b, name, unit, level, sd in ms:
                for r in range(3):
                    v = level(p) * (1 + sd * random.gauss(0, 1))
                    if g == "outlier" and p == 8 and r == 1:
                        v *= 2
                    f.write('%s,"%s",%s,%s,%.6g\n' % (g, b, name, unit, v))


if __name__ == "__main__":
    main()

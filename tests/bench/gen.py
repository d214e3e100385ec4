#!/usr/bin/python3
"""Write seeded autotest trees (and the same numbers as long CSV) for
`make bench`.

  gen.py METRICS OUTDIR

OUTDIR/{baseline,candidate}/kvm.repeatN.bench.netperf/results/netperf-result.RHS
for N = 1..10, in the 16-column netperf layout: 2 key columns and 14
value columns, so METRICS/14 rows split over TCP_STREAM, TCP_MAERTS and
TCP_RR.  OUTDIR/perf.conf has the [netperf] suite with avg_update.
OUTDIR/csv/{baseline,candidate}/results.csv hold the same samples.
"""
import os
import random
import sys

HEADER = ("%5s|%8s|%10s|%6s|%9s|%10s|%10s|%12s|%12s|%9s|%8s|%8s|%10s|%10s"
          "|%11s|%10s") % ("size", "sessions", "throughput", "%CPU",
                           "thr/%CPU", "#tx-pkts", "#rx-pkts", "#tx-byts",
                           "#rx-byts", "#re-trans", "#tx-intr", "#rx-intr",
                           "#io_exit", "#irq_inj", "#tpkt/#exit", "#rpkt/#irq")
ROW = ("%5d|%8d|%10.2f|%6.2f|%9.2f|%10d|%10d|%12d|%12d|%9d|%8d|%8d|%10d|%10d"
       "|%11.2f|%10.2f")
CATS = ("TCP_STREAM", "TCP_MAERTS", "TCP_RR")
RUNS = 10


def rows_of(metrics):
    """(category, size, sessions, base values) for METRICS/14 rows."""
    rng = random.Random(20241130)
    rows = []
    n = max(1, metrics // 14)
    per_cat = (n + len(CATS) - 1) // len(CATS)
    for i in range(n):
        cat = CATS[i // per_cat]
        j = i % per_cat
        size, sessions = 64 * (1 + j // 50), 1 + j % 50
        rows.append((cat, size, sessions, rng.uniform(500, 9000),
                     rng.uniform(20, 95), rng.uniform(1e5, 5e6)))
    return rows


def write_side(rows, root, side, seed, slow):
    rng = random.Random(seed)
    csv_rows = []
    for r in range(1, RUNS + 1):
        d = os.path.join(root, side, f"kvm.repeat{r}.bench.netperf", "results")
        os.makedirs(d, exist_ok=True)
        out = ["### kvm_version : 6.1.0-bench", "### session-length : 60"]
        cat = None
        for k, (c, size, sess, thr0, cpu0, pk0) in enumerate(rows):
            if c != cat:
                cat = c
                out += [f"Category:{c}", HEADER]
            thr = thr0 * rng.gauss(1, 0.02) * (0.92 if slow and k % 97 == 0 else 1)
            cpu = cpu0 * rng.gauss(1, 0.01)
            tx, rx = int(pk0 * rng.gauss(1, 0.02)), int(2 * pk0 * rng.gauss(1, 0.02))
            io, irq = int(tx / 1.15), int(rx / 1.78)
            vals = (size, sess, thr, cpu, thr / cpu, tx, rx, tx * 66, rx * 7800,
                    rng.randrange(3), int(tx / 16), int(rx / 2), io, irq,
                    tx / io, rx / irq)
            out.append(ROW % vals)
            csv_rows.append((c, f"size={size},sessions={sess}", "throughput",
                             "%.2f" % thr))
        with open(os.path.join(d, "netperf-result.RHS"), "w") as f:
            f.write("\n".join(out) + "\n")
    d = os.path.join(root, "csv", side)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,value\n")
        for row in csv_rows:
            f.write('%s,"%s",%s,%s\n' % row)


def main():
    metrics, root = int(sys.argv[1]), sys.argv[2]
    rows = rows_of(metrics)
    write_side(rows, root, "baseline", 1, False)
    write_side(rows, root, "candidate", 2, True)
    with open(os.path.join(root, "perf.conf"), "w") as f:
        f.write("[netperf]\nresult_file_pattern = netperf-result\\.RHS$\n"
                "ignore_col = 2\navg_update = 4,2,3|14,5,12|15,6,13\n\n"
                "[gate]\ndirection = lower\n\n[metric \"throughput\"]\n"
                "direction = higher\n")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Generate perfverdict's sample result trees.

    /usr/bin/python3 samples/generate.py [OUTDIR]

OUTDIR defaults to the directory holding this script (samples/).  The
script writes only the four data trees below and removes them first, so a
rerun never leaves stale files behind:

    netperf/baseline/    netperf/candidate/     autotest netperf .RHS tables
    kernbench/baseline/  kernbench/candidate/   CSV long form

The perf.conf files and README.md next to them are written by hand.

Everything is drawn from random.Random streams seeded with fixed strings
(string seeds are hashed with SHA-512, stable across Python 3 versions),
and only random() and gauss() are used, so a rerun reproduces every file
byte for byte.  Standard library only.

The planted effects are listed in PLANTED below and in samples/README.md.
"""

import math
import os
import random
import shutil
import sys

SEED = "perfverdict-samples-v1"


def stream(*parts):
    """An independent, reproducible random stream for one purpose."""
    return random.Random(":".join((SEED,) + parts))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


# ---------------------------------------------------------------------------
# netperf: autotest's 2012 layout, exhost_guest (an external host runs the
# netperf client against netserver in a 2-vCPU virtio_net guest, 60 s each).
# ---------------------------------------------------------------------------

REPEATS = 5
SESSION_LENGTH = 60
VARIANT = "smp2.virtio_net"
LINE_RATE = 9410.0  # Mbit/s of TCP payload on 10GbE

STREAM_SIZES = (64, 256, 1024, 4096, 16384)
STREAM_SESSIONS = (1, 2, 4)
RR_SIZES = (1, 64, 1024)
RR_SESSIONS = (1, 25, 50)  # autotest passed these as the burst (-b)
PROTOCOLS = ("TCP_STREAM", "TCP_MAERTS", "TCP_RR")

# Mean throughput (Mbit/s; transactions/s for TCP_RR) by (size, sessions).
THROUGHPUT = {
    "TCP_STREAM": {  # external host -> guest: the guest receives
        64: (1850, 2780, 3610),
        256: (4350, 6240, 7900),
        1024: (7650, 9050, 9330),
        4096: (9020, 9340, 9380),
        16384: (9290, 9370, 9390),
    },
    "TCP_MAERTS": {  # guest -> external host: the guest transmits
        64: (1240, 2010, 2870),
        256: (3120, 4980, 6650),
        1024: (6380, 8510, 9160),
        4096: (8650, 9280, 9350),
        16384: (9110, 9330, 9370),
    },
    "TCP_RR": {
        1: (11850, 74200, 97600),
        64: (11420, 71800, 93900),
        1024: (9380, 52600, 66100),
    },
}

# Average packet size (bytes) of the bulk direction as the guest counts it
# (GRO/TSO make packets much larger than the MTU).
STREAM_RX_PKT = {64: 3900, 256: 8700, 1024: 15800, 4096: 21600, 16384: 25400}
MAERTS_TX_PKT = {64: 2900, 256: 7400, 1024: 14800, 4096: 24600, 16384: 31200}
MAERTS_TX_PER_EXIT = {64: 4.1, 256: 3.4, 1024: 2.6, 4096: 1.9, 16384: 1.6}
RR_COALESCE = {1: 1.0, 25: 2.8, 50: 4.6}  # transactions per packet (Nagle)
TIMER_IRQS = 400 * SESSION_LENGTH  # injections that are not virtio's

# What the candidate changes: (protocol, size predicate, sessions predicate,
# column, factor on the mean).  Everything else is the same distribution
# with different random draws.
PLANTED = (
    # Single-stream receive into the guest is ~8% slower at every size.
    ("TCP_STREAM", lambda s: True, lambda k: k == 1, "throughput", 0.92),
    # Guest transmit at 4 sessions, 1 KiB and up, costs ~6.5% more host CPU.
    ("TCP_MAERTS", lambda s: s >= 1024, lambda k: k == 4, "cpu", 1.065),
)

PREAMBLE = {
    "baseline": (
        ("kvm-userspace-ver", "qemu-kvm-1.2.0-16.fc18.x86_64"),
        ("guest-kernel-ver", "2.6.32-279.el6.x86_64"),
        ("kvm_version", "3.6.6-3.fc18.x86_64"),
        ("session-length", str(SESSION_LENGTH)),
    ),
    "candidate": (
        ("kvm-userspace-ver", "qemu-kvm-1.2.0-16.fc18.x86_64"),
        ("guest-kernel-ver", "2.6.32-279.el6.x86_64"),
        ("kvm_version", "3.7.2-204.fc18.x86_64"),
        ("session-length", str(SESSION_LENGTH)),
    ),
}

HEADER = ("%5s|%8s|%10s|%6s|%9s|%10s|%10s|%12s|%12s|%9s|%8s|%8s|%10s|%10s"
          "|%11s|%10s") % (
    "size", "sessions", "throughput", "%CPU", "thr/%CPU", "#tx-pkts",
    "#rx-pkts", "#tx-byts", "#rx-byts", "#re-trans", "#tx-intr",
    "#rx-intr", "#io_exit", "#irq_inj", "#tpkt/#exit", "#rpkt/#irq")

ROW = ("%5d|%8d|%10.2f|%6.2f|%9.2f|%10d|%10d|%12d|%12d|%9d|%8d|%8d|%10d|%10d"
       "|%11.2f|%10.2f")


def cells(protocol):
    if protocol == "TCP_RR":
        sizes, sessions = RR_SIZES, RR_SESSIONS
    else:
        sizes, sessions = STREAM_SIZES, STREAM_SESSIONS
    for size in sizes:
        for i, k in enumerate(sessions):
            yield size, k, THROUGHPUT[protocol][size][i]


def effect(side, protocol, size, k, column):
    f = 1.0
    if side == "candidate":
        for proto, size_ok, sess_ok, col, factor in PLANTED:
            if proto == protocol and col == column and size_ok(size) \
                    and sess_ok(k):
                f *= factor
    return f


def throughput_cv(protocol, size, k, thr):
    if protocol == "TCP_RR":
        return 0.015 if k == 1 else 0.02
    # Noisier far from line rate, and at tiny sizes.
    return 0.010 + 0.015 * (1.0 - thr / LINE_RATE) + (0.005 if size == 64
                                                       else 0.0)


def saturate(x):
    """A smooth min(x, LINE_RATE): bulk throughput never passes the wire."""
    return x / (1.0 + (x / LINE_RATE) ** 200) ** (1.0 / 200)


def cpu_mean(protocol, size, k, thr):
    """Host %CPU (100 - mpstat idle), a function of the baseline mean."""
    if protocol == "TCP_RR":
        return 24.0 + 38.0 * thr / 100000.0 + (3.0 if size == 1024 else 0.0)
    small = {64: 10.0, 256: 4.0}.get(size, 0.0)
    if protocol == "TCP_STREAM":
        return 22.0 + 48.0 * thr / LINE_RATE + small + 6.0 * math.log2(k)
    return 26.0 + 52.0 * thr / LINE_RATE + 1.4 * small + 6.0 * math.log2(k)


def netperf_row(r, side, day, protocol, size, k, base_thr):
    g = r.gauss
    thr = base_thr * effect(side, protocol, size, k, "throughput")
    thr *= day * g(1.0, throughput_cv(protocol, size, k, base_thr))
    if protocol != "TCP_RR":
        thr = saturate(thr)
    thr = round(thr, 2)
    cpu = cpu_mean(protocol, size, k, base_thr)
    cpu *= effect(side, protocol, size, k, "cpu")
    cpu = round(min(99.5, cpu * g(1.0, 0.015)), 2)

    bulk_bytes = thr * 1e6 / 8 * SESSION_LENGTH * g(1.035, 0.002)
    if protocol == "TCP_STREAM":
        rx_pkts = int(bulk_bytes / (STREAM_RX_PKT[size] * g(1.0, 0.02)))
        rx_byts = int(bulk_bytes)
        tx_pkts = int(rx_pkts * g(0.50, 0.01))  # ACKs
        tx_byts = tx_pkts * 66
        re_trans = int(abs(g(0.0, 2.0)))
        tx_intr = int(tx_pkts * g(0.06, 0.003))
        rx_intr = int(rx_pkts / g(1.9, 0.05))
        io_exit = int(tx_pkts / g(1.15, 0.03))
    elif protocol == "TCP_MAERTS":
        tx_pkts = int(bulk_bytes / (MAERTS_TX_PKT[size] * g(1.0, 0.02)))
        tx_byts = int(bulk_bytes)
        rx_pkts = int(tx_pkts * g(0.62, 0.015))  # ACKs
        rx_byts = rx_pkts * 66
        re_trans = int(abs(g(40.0 * k, 15.0)))
        tx_intr = int(tx_pkts * g(0.03, 0.002))
        rx_intr = int(rx_pkts / g(1.6, 0.04))
        io_exit = int(tx_pkts / g(MAERTS_TX_PER_EXIT[size], 0.08))
    else:
        c = RR_COALESCE[k]
        pkts = thr * SESSION_LENGTH / c
        rx_pkts = int(pkts * g(1.0, 0.002))
        tx_pkts = int(pkts * g(1.0, 0.002))
        rx_byts = int(rx_pkts * (66 + size * c))
        tx_byts = int(tx_pkts * (66 + size * c))
        re_trans = int(abs(g(0.0, 0.8)))
        tx_intr = int(tx_pkts * g(0.01, 0.001))
        rx_intr = int(rx_pkts / g(1.08, 0.02))
        io_exit = int(tx_pkts / g(1.02, 0.01))
    irq_inj = rx_intr + tx_intr + int(TIMER_IRQS * g(1.0, 0.05))

    # As autotest computed them: from the values it printed.
    return ROW % (size, k, thr, cpu, thr / cpu, tx_pkts, rx_pkts, tx_byts,
                  rx_byts, re_trans, tx_intr, rx_intr, io_exit, irq_inj,
                  tx_pkts / io_exit, rx_pkts / irq_inj)


def netperf(out):
    for side in ("baseline", "candidate"):
        root = os.path.join(out, "netperf", side)
        shutil.rmtree(root, ignore_errors=True)
        for n in range(1, REPEATS + 1):
            r = stream("netperf", side, str(n))
            day = r.gauss(1.0, 0.004)  # a small host-wide per-repeat shift
            lines = ["### %s : %s" % kv for kv in PREAMBLE[side]]
            for protocol in PROTOCOLS:
                lines.append("Category:" + protocol)
                lines.append(HEADER)
                for size, k, thr in cells(protocol):
                    lines.append(netperf_row(r, side, day, protocol, size, k,
                                             thr))
            d = "kvm.repeat%d.%s.netperf.exhost_guest" % (n, VARIANT)
            write(os.path.join(root, d, "results", "netperf-result.RHS"),
                  "\n".join(lines) + "\n")


# ---------------------------------------------------------------------------
# kernbench: a PV-spinlock benchmark matrix in CSV long form.  The guest is
# run alone (1x) and beside one or two busy guests of the same size (2x, 3x
# overcommit).  The candidate enables paravirtualised ticket spinlocks.
# ---------------------------------------------------------------------------

RUNS = 8
OVERCOMMIT = ("1x", "2x", "3x")

# benchmark: (metric, unit, decimals,
#             {overcommit: (baseline mean, baseline cv, candidate factor,
#                           candidate cv)})
MATRIX = (
    ("kernbench", "elapsed", "s", 2, {
        "1x": (48.52, 0.015, 1.000, 0.015),
        "2x": (131.40, 0.060, 0.830, 0.030),
        "3x": (228.70, 0.060, 0.770, 0.040),
    }),
    ("sysbench", "elapsed", "s", 3, {
        "1x": (12.412, 0.015, 1.000, 0.015),
        "2x": (16.930, 0.040, 0.925, 0.025),
        "3x": (24.810, 0.050, 0.850, 0.030),
    }),
    ("hackbench", "elapsed", "s", 2, {
        "1x": (41.23, 0.020, 1.065, 0.020),
        "2x": (98.05, 0.050, 0.810, 0.030),
        "3x": (171.30, 0.060, 0.770, 0.035),
    }),
    ("specjbb", "bops", "bops", 0, {
        "1x": (36510, 0.012, 1.000, 0.012),
        "2x": (13220, 0.050, 1.200, 0.030),
        "3x": (8104, 0.060, 1.150, 0.035),
    }),
    ("ebizzy", "records", "records/s", 0, {
        "1x": (5575, 0.020, 1.000, 0.020),
        "2x": (2742, 0.080, 1.215, 0.035),
        "3x": (2146, 0.070, 1.070, 0.035),
    }),
    ("dbench", "throughput", "MB/s", 2, {
        "1x": (14111.56, 0.020, 1.000, 0.020),
        "2x": (2481.63, 0.030, 1.075, 0.025),
        "3x": (1510.25, 0.025, 1.000, 0.025),
    }),
)


def kernbench(out):
    for side in ("baseline", "candidate"):
        root = os.path.join(out, "kernbench", side)
        shutil.rmtree(root, ignore_errors=True)
        values = {}
        for bench, metric, unit, dec, cellmap in MATRIX:
            for oc in OVERCOMMIT:
                mean, cv, factor, ccv = cellmap[oc]
                if side == "candidate":
                    mean, cv = mean * factor, ccv
                r = stream("kernbench", side, bench, oc)
                values[bench, oc] = [
                    "%.*f" % (dec, r.gauss(mean, mean * cv))
                    for _ in range(RUNS)]
        rows = []
        if side == "baseline":
            # One benchmark at a time, every overcommit level, all runs.
            for bench, metric, unit, dec, _ in MATRIX:
                for oc in OVERCOMMIT:
                    for v in values[bench, oc]:
                        rows.append((bench, oc, metric, unit, v))
        else:
            # Round-robin: run i of every cell before run i+1, overcommit
            # next - so almost no row sits where the baseline's does.
            for i in range(RUNS):
                for oc in OVERCOMMIT:
                    for bench, metric, unit, dec, _ in MATRIX:
                        rows.append((bench, oc, metric, unit,
                                     values[bench, oc][i]))
        text = "group,benchmark,metric,unit,value\n" + "".join(
            "%s,overcommit=%s,%s,%s,%s\n" % row for row in rows)
        write(os.path.join(root, "results.csv"), text)


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        sys.stderr.write("usage: %s [OUTDIR]\n" % argv[0])
        return 2
    out = argv[1] if len(argv) == 2 else os.path.dirname(
        os.path.abspath(__file__))
    netperf(out)
    kernbench(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

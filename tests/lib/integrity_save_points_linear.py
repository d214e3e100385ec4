#!/usr/bin/python3
"""Check that history --save-points takes time linear in the points: its
user CPU against history alone.

  usage: integrity_save_points_linear.py PERFVERDICT DATA.js OUTDIR

Run by tests/check_archive_integrity.sh.
"""
import resource, subprocess, sys
pv, js, out = sys.argv[1:]
def cpu(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime
alone = cpu([pv, "history", "-q", js])
save = cpu([pv, "history", "-q", "--save-points", out, js])
print("check_archive_integrity: 6,000 commits: history %.2f s, with --save-points %.2f s (user CPU)" % (alone, save))
assert save - alone < alone + 1.0, (alone, save)

#!/usr/bin/python3
"""signals_commit.py PERFVERDICT TMP - a SIGTERM while a report set is committed
(util/atomic.c) leaves the set all old or all new: strace delays every
rename(2) by 0.4 s, the signal comes once the first report is in place,
and no temporary file or kept copy may be left.  Exit 1 on a finding.
(Moved out of a heredoc of tests/check_signals.sh.)"""
import os, signal, subprocess, sys, time
pv, tmp = os.path.abspath(sys.argv[1]), sys.argv[2]
out = os.path.join(tmp, "commit")
os.mkdir(out)
names = ("r.json", "r.xml", "r.md")
for n in names:
    with open(os.path.join(out, n), "w") as f:
        f.write("old " + n + "\n")
pidfile = os.path.join(tmp, "pid")
p = subprocess.Popen(
    ["strace", "-qq", "-o", "/dev/null", "-e", "trace=/^rename",
     "-e", "inject=/^rename:delay_exit=400000",
     "sh", "-c", 'echo $$ >"$0"; exec "$@"', pidfile, pv, "compare", "-q",
     "-c", "samples/netperf/perf.conf", "samples/netperf/baseline",
     "samples/netperf/candidate",
     "--json", out + "/r.json", "--junit", out + "/r.xml",
     "--markdown", out + "/r.md"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 60
pid = None
while time.time() < deadline and p.poll() is None:
    try:
        if pid is None:
            pid = int(open(pidfile).read())
        if not open(os.path.join(out, "r.json")).read().startswith("old "):
            break
    except (OSError, ValueError):
        pass
    time.sleep(0.002)
if pid is None or p.poll() is not None:
    print("check_signals: FAIL: the commit window was never caught")
    sys.exit(1)
os.kill(pid, signal.SIGTERM)
p.wait(timeout=60)
new = [not open(os.path.join(out, n)).read().startswith("old ") for n in names]
left = sorted(n for n in os.listdir(out) if n.startswith("."))
bad = 0
if any(new) and not all(new):
    print("check_signals: FAIL: SIGTERM in the commit left a mixed set: %s" %
          ", ".join("%s %s" % (n, "new" if x else "old") for n, x in zip(names, new)))
    bad = 1
if left:
    print("check_signals: FAIL: SIGTERM in the commit left %s" % left)
    bad = 1
sys.exit(bad)

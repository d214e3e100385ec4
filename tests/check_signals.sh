#!/bin/sh
# A report run killed while it writes leaves no temporary file behind
# (util/atomic.c): SIGTERM, SIGINT and SIGHUP each reach the process
# while its ".NAME.XXXXXX" files exist (it is stopped there with SIGSTOP,
# found by polling), and after the signal the output directory must be
# empty and the process must have died of that signal.  Then a SIGTERM
# inside the commit of a report set (below) must not leave it mixed.
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/bench/gen.py 20000 "$tmp/t" >/dev/null || exit 1
"$PYTHON" - "$PV_BIN" "$tmp" <<'PY'
import os, signal, subprocess, sys, time
pv, tmp = sys.argv[1], sys.argv[2]
t = os.path.join(tmp, "t")
bad = 0
def default_dispositions():
    # A suite started in the background of a non-interactive shell (CI,
    # a chroot) inherits SIGINT ignored, and a program rightly keeps an
    # ignored signal ignored; the test is of the handler, so the child
    # starts with the default dispositions.
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    caught = False
    for attempt in range(20):
        out = os.path.join(tmp, "out-%d-%d" % (sig, attempt))
        os.mkdir(out)
        p = subprocess.Popen(
            [pv, "compare", "-q", "-c", t + "/perf.conf", t + "/baseline",
             t + "/candidate", "--json", out + "/r.json",
             "--junit", out + "/r.xml"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            restore_signals=True, preexec_fn=default_dispositions)
        while p.poll() is None:
            if any(n.startswith(".r.json.") for n in os.listdir(out)):
                os.kill(p.pid, signal.SIGSTOP)
                break
            time.sleep(0.0005)
        else:
            continue            # finished first: try again
        temps = [n for n in os.listdir(out) if n.startswith(".")]
        if not temps:           # stopped just after the rename
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            continue
        os.kill(p.pid, sig)
        os.kill(p.pid, signal.SIGCONT)
        rc = p.wait(timeout=60)
        left = os.listdir(out)
        if rc != -sig:
            print("check_signals: FAIL: %s: exit %s, not killed by it" %
                  (signal.Signals(sig).name, rc))
            bad = 1
        if left:
            print("check_signals: FAIL: %s: left %s" %
                  (signal.Signals(sig).name, left))
            bad = 1
        caught = True
        break
    if not caught:
        print("check_signals: FAIL: %s: never caught the process mid-write" %
              signal.Signals(sig).name)
        bad = 1
sys.exit(bad)
PY
[ $? -eq 0 ] || exit 1

# A signal while a report set is committed (util/atomic.c, step 2)
# leaves the set all old or all new, never mixed: strace holds every
# rename(2) for 0.4 s after it is done, SIGTERM comes once the first
# report is renamed into place, and afterwards the three reports must be
# all new or all as before, with no temporary file or kept copy left.
if ! command -v strace >/dev/null 2>&1; then
	echo "check_signals: skip: the commit window needs strace"
	exit 0
fi
"$PYTHON" - "$PV_BIN" "$tmp" <<'PY'
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
PY

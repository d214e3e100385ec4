#!/usr/bin/python3
"""signals_midwrite.py PERFVERDICT TMP - SIGTERM, SIGINT and SIGHUP while a
report is being written (its temporary file found by polling, the process
stopped there) kill the process by that signal and leave the output
directory empty.  TMP holds the generated tree t/.  Exit 1 on a finding.
(Moved out of a heredoc of tests/check_signals.sh.)"""
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

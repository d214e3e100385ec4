#!/bin/sh
# A report run killed while it writes leaves no temporary file behind
# (util/atomic.c): SIGTERM, SIGINT and SIGHUP each reach the process
# while its ".NAME.XXXXXX" files exist (it is stopped there with SIGSTOP,
# found by polling), and after the signal the output directory must be
# empty and the process must have died of that signal.  Then a SIGTERM
# inside the commit of a report set (below) must not leave it mixed.
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/bench/gen.py 20000 "$tmp/t" >/dev/null || exit 1
"$PYTHON" tests/lib/signals_midwrite.py "$PV_BIN" "$tmp"
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
"$PYTHON" tests/lib/signals_commit.py "$PV_BIN" "$tmp"

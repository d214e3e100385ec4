#!/bin/sh
# check_options.sh - help, man page and README list the same options
# (tests/lib/check_options.py says how each list is read).
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/lib/check_options.py "${PV_BIN:-build/perfverdict}"

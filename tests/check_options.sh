#!/bin/sh
# check_options.sh - help, man page and README list the same options
# (tests/lib/check_options.py says how each list is read).
cd "$(dirname "$0")/.." || exit 1
exec "${PYTHON:-/usr/bin/python3}" tests/lib/check_options.py "${PV_BIN:-build/perfverdict}"

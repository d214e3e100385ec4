#!/bin/sh
# Rerun the pyperf samples.  Debian does not package pyperf, so
# emulate.py measures real timings in worker processes and writes them in
# pyperf's JSON format; see its docstring.
#   sh samples/pyperf/src/run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$here")
rm -rf "$out/baseline" "$out/candidate"
/usr/bin/python3 "$here/emulate.py" "$out"

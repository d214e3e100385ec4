#!/bin/sh
# Regenerate the JMH samples (synthetic: see generate.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$(dirname "$here")/baseline" "$(dirname "$here")/candidate"
/usr/bin/python3 "$here/generate.py" "$(dirname "$here")"

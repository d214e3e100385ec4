#!/bin/sh
# Regenerate the criterion.rs samples (synthetic: see generate.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 "$here/generate.py" "$(dirname "$here")"

#!/bin/sh
# check_docs.sh - the Markdown documentation stands on its own and agrees
# with the program: links resolve inside the repository, README.md's
# commands run on samples/ and exit as it says, docs/ is by topic, the
# bare usage points at the README, and the pages agree with the manual on
# `ignore` (tests/lib/check_docs.py says each check).  Options, config
# keys and exit statuses are tests/check_options.sh's.
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/lib/check_docs.py "$PV_BIN"

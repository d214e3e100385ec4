#!/bin/sh
# check_ci_runners.sh - ci/ in real runners and validators from npm
# (gitlab-ci-local, action-validator): tests/ci/runners.sh.  Skipped, with
# a message, where node/npm or the npm registry is not available.
. "$(dirname "$0")/lib/test-lib.sh"
sh tests/ci/runners.sh

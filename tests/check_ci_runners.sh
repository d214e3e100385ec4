#!/bin/sh
# check_ci_runners.sh - ci/ in real runners and validators from npm
# (gitlab-ci-local, action-validator): tests/ci/runners.sh.  Skipped, with
# a message, where node/npm or the npm registry is not available.
cd "$(dirname "$0")/.." || exit 1
exec sh tests/ci/runners.sh

#!/bin/sh
# The statistics against scipy, live: 1,200 random cases (unequal n from 2
# to 30, ties, integer data, scales 1e-3..1e8, zero variance) through the
# pvstat driver, each test and alternative to 1e-9 relative.
. "$(dirname "$0")/lib/test-lib.sh"
"$PYTHON" tests/lib/stats_vs_scipy.py \
	"${PV_BUILD:-build}/tests/tools/pvstat"

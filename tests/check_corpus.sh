#!/bin/sh
# History on the labelled corpus of real archives (tests/data/cp-corpus,
# docs/history.md): the shifts both raters marked that it finds may not
# fall below the floor, and at most 2% of its flags may be on noise.  A
# change that finds fewer must say why, and lower the floor with it.
set -u
FLOOR=167
out=$("${PYTHON:-/usr/bin/python3}" tests/cp_corpus/score.py \
	"${PV_BIN:-build/perfverdict}") || { printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$out" | awk -v floor=$FLOOR -F'|' '
	$2 ~ /^ all / {
		split($7, f, " "); flags = $8 + 0; split($9, z, " ")
		found = f[1] + 0; noise = z[1] + 0; seen = 1
	}
	END {
		if (!seen) { print "check_corpus: no total row"; exit 1 }
		printf "corpus: %d shifts found (floor %d), %d of %d flags on noise\n",
			found, floor, noise, flags
		if (found < floor) { print "check_corpus: fewer shifts than the floor"; exit 1 }
		if (noise * 50 > flags) { print "check_corpus: over 2% of the flags on noise"; exit 1 }
	}'

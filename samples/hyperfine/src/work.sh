#!/bin/sh
# The commands that run.sh times.  PV_SLOWDOWN=1 makes "loop" do 20% more
# iterations; "count" and "checksum" do the same work either way.
set -eu
case "$1" in
loop)           # a shell busy loop of $2 iterations (x1.2 with PV_SLOWDOWN=1)
	n=$2
	[ "${PV_SLOWDOWN:-0}" = 1 ] && n=$((n * 12 / 10))
	i=0
	while [ "$i" -lt "$n" ]; do i=$((i + 1)); done ;;
count)          # read the first $2 lines of this script 50 times
	j=0
	while [ "$j" -lt 50 ]; do head -n "$2" "$0" >/dev/null; j=$((j + 1)); done ;;
checksum)       # checksum the shell binary 20 times
	j=0
	while [ "$j" -lt 20 ]; do cksum /bin/sh >/dev/null; j=$((j + 1)); done ;;
*)
	echo "usage: work.sh loop N | count N | checksum" >&2
	exit 2 ;;
esac

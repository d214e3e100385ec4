#!/bin/sh
# A report that cannot be written is an error naming its file and the
# reason, from every writer (issue 20): compare's JSON, JUnit, Markdown
# and HTML, and history's JSON, Markdown and HTML, each alone on a full
# file system, must exit 2 with
#   perfverdict: error: cannot write report 'DIR/NAME': No space left on device [cannot-write]
# and leave no file behind.  As root, on a 64 KiB tmpfs mounted for the
# test (compare's reports of a 2,000-metric tree do not fit, so the
# writer's own write fails; history's small ones are written into a
# tmpfs filled up first, so the flush at commit fails); otherwise, and where
# no tmpfs can be mounted, on /dev/full through a link (written through
# at commit: the commit's message), or skipped without either.  Standard
# output on /dev/full gives "cannot write to standard output: REASON".
. "$(dirname "$0")/lib/test-lib.sh"
case $PV_BIN in /*) ;; *) PV_BIN=$PWD/$PV_BIN ;; esac
mnt=""
TL_ON_EXIT='[ -z "$mnt" ] || umount "$mnt" 2>/dev/null'
failed=0

"$PYTHON" tests/bench/gen.py 2000 "$tmp/t" >/dev/null || exit 2
mkdir "$tmp/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	mnt=$tmp/full
	how="a 64 KiB tmpfs"
elif [ -c /dev/full ]; then
	how="/dev/full"
else
	echo "check_write_errors: skip: no tmpfs to mount and no /dev/full"
	exit 0
fi

# expect NAME ARGS...: the run writes the report NAME into the full
# directory and fails on it.  With fill=1 the tmpfs is filled up first
# (history's Markdown and HTML of this archive are small).
fill=0
expect() {
	name=$1
	shift
	if [ -n "$mnt" ] && [ $fill = 1 ]; then
		dd if=/dev/zero of="$mnt/.fill" bs=4k 2>/dev/null
	fi
	if [ -z "$mnt" ]; then
		rm -f "$tmp/full/$name"
		ln -s /dev/full "$tmp/full/$name"
	fi
	"$PV_BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	st=$?
	want="perfverdict: error: cannot write report '$tmp/full/$name': No space left on device [cannot-write]"
	[ $st -eq 2 ] || bad "$name ($*): exit $st, not 2: $(cat "$tmp/err")"
	[ "$(tail -n 1 "$tmp/err")" = "$want" ] ||
		bad "$name ($*): stderr is '$(tail -n 1 "$tmp/err")', not '$want'"
	[ -n "$mnt" ] && rm -f "$mnt/.fill"
	if [ -n "$mnt" ] && [ -n "$(ls -A "$mnt")" ]; then
		bad "$name: left $(ls -A "$mnt")"
		rm -f "$mnt"/.??* "$mnt"/*
	fi
}

t=$tmp/t
c="compare -q -c $t/perf.conf $t/baseline $t/candidate"
# shellcheck disable=SC2086
expect r.json $c --json "$tmp/full/r.json"
# shellcheck disable=SC2086
expect r.xml $c --junit "$tmp/full/r.xml"
# shellcheck disable=SC2086
expect r.md $c --markdown "$tmp/full/r.md" --markdown-limit 1000000
# shellcheck disable=SC2086
expect r.html $c --html "$tmp/full/r.html"
# The first reports fit elsewhere; the set still fails as one.
# shellcheck disable=SC2086
expect r.html $c --json "$tmp/r.json" --html "$tmp/full/r.html"
[ -e "$tmp/r.json" ] && bad "a failed set left its first report '$tmp/r.json'"

# history: an archive of points, each a copy of the generated tree's
# first run (its JSON is 1.8 MB).
mkdir "$tmp/a"
for i in 1 2 3 4; do
	mkdir "$tmp/a/p$i"
	cp -r "$t/baseline/"*repeat1.* "$tmp/a/p$i/" || exit 2
done
h="history -q -c $t/perf.conf $tmp/a"
fill=1
# shellcheck disable=SC2086
expect h.json $h --json "$tmp/full/h.json"
# shellcheck disable=SC2086
expect h.md $h --markdown "$tmp/full/h.md"
# shellcheck disable=SC2086
expect h.html $h --html "$tmp/full/h.html"

# Standard output that cannot be written: the summaries, and a report
# given as '-'.
if [ -c /dev/full ]; then
	want="perfverdict: error: cannot write to standard output: No space left on device [cannot-write]"
	for args in "$c" "$c --json -" "$h" "$h --markdown -" \
		"calibrate --iterations 3 -c $t/perf.conf $t/baseline"; do
		# shellcheck disable=SC2086
		"$PV_BIN" $args >/dev/full 2>"$tmp/err" </dev/null
		st=$?
		[ $st -eq 2 ] && [ "$(tail -n 1 "$tmp/err")" = "$want" ] ||
			bad "$args >/dev/full: exit $st: $(tail -n 1 "$tmp/err")"
	done
fi

[ $failed -eq 0 ] && echo "check_write_errors: ok (on $how)"
exit $failed

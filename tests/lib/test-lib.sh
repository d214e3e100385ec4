# tests/lib/test-lib.sh - the one start of every shell test, sourced
# first thing:
#
#	. "$(dirname "$0")/lib/test-lib.sh"        (a script in tests/)
#	. "$(dirname "$0")/../lib/test-lib.sh"     (tests/bad/, tests/ci/)
#
# After it:
#   - set -u, LC_ALL=C, and the working directory is the repository's
#     root (ROOT), so every path in a test is relative to it;
#   - PV_BIN, PV_BUILD and PYTHON have their defaults (build/perfverdict,
#     build, Debian's python3) and are exported;
#   - $tmp is a fresh directory (mktemp -d), removed when the script
#     exits, however it exits (set TL_KEEP=1 to keep it for a look);
#     TL_ON_EXIT, when set, is a command run first (an umount, say);
#   - TEST is the script's name, for messages.
#
# The one failure helper:
#   bad MESSAGE...  prints "TEST: MESSAGE" on stderr and marks the test
#                   failed; the script goes on, so one run shows every
#                   failure.  A test marked failed exits 1 even if its
#                   last command succeeds (the exit trap sees to it).
#   tl_die MESSAGE  bad, then exit now (when nothing after can run).
#   expect_exit NAME STATUS PATTERN CMD...
#                   runs CMD; bad unless it exits STATUS with PATTERN
#                   (an extended regex, "" for none) in its stderr.
# A script that names its helper otherwise (say, problem) defines that
# name as a one-line call of bad, so the bodies need not change.

set -u
LC_ALL=C
export LC_ALL
TEST=${TEST:-$(basename "$0" .sh)}
ROOT=$(cd "$(dirname "$0")" && while [ ! -f tests/lib/test-lib.sh ] &&
	[ "$PWD" != / ]; do cd ..; done; pwd)
cd "$ROOT" || exit 2
PV_BIN=${PV_BIN:-build/perfverdict}
PV_BUILD=${PV_BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
export PV_BIN PV_BUILD PYTHON
tl_failed=0

bad() {
	echo "$TEST: $*" >&2
	tl_failed=1
}

tl_die() {
	bad "$@"
	exit 1
}

tl_exit() {
	tl_st=$?
	[ -z "${TL_ON_EXIT:-}" ] || eval "$TL_ON_EXIT"
	if [ -z "${TL_KEEP:-}" ]; then
		chmod -R u+rwx "$tmp" 2>/dev/null
		rm -rf "$tmp"
	else
		echo "$TEST: kept $tmp" >&2
	fi
	[ "$tl_st" -eq 0 ] && [ "$tl_failed" -ne 0 ] && tl_st=1
	exit "$tl_st"
}

# expect_exit NAME STATUS PATTERN CMD...: CMD exits STATUS and its stderr
# holds PATTERN (an extended regex; "" for none), else bad NAME: ...;
# CMD's output is left in $tmp/out and $tmp/err.
expect_exit() {
	tl_name=$1 tl_want=$2 tl_pat=$3
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	tl_got=$?
	[ "$tl_got" -eq "$tl_want" ] ||
		bad "$tl_name: exit $tl_got, expected $tl_want: $(head -c 600 "$tmp/err")"
	if [ -n "$tl_pat" ] && ! grep -Eq -- "$tl_pat" "$tmp/err"; then
		bad "$tl_name: stderr lacks /$tl_pat/: $(head -c 600 "$tmp/err")"
	fi
}

tmp=$(mktemp -d) || exit 2
trap tl_exit EXIT
trap 'exit 130' INT TERM HUP

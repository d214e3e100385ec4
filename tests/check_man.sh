#!/bin/sh
# check_man.sh - the manual page: perfverdict.1 is clean under
# `mandoc -T lint`, renders, and `make install DESTDIR=...` installs it
# where man finds it (PREFIX/share/man/man1), `make uninstall` removes it.
# The lint judges the page, not the machine: messages that say whether
# another manual is installed ("referenced manual not found", and the
# lines about the local mandoc.db) depend on what the machine happens to
# have (manpages-dev, makewhatis), so they are not findings.  Instead the
# page's cross references are checked against the fixed list XREFS:
# a new .Xr is added there on purpose, and a typo in one fails here.
. "$(dirname "$0")/lib/test-lib.sh"
fail=0

if ! command -v mandoc >/dev/null 2>&1; then
	echo "check_man: mandoc is not installed (ci/scripts/install-deps.sh installs it)" >&2
	exit 1
fi
lint=$(mandoc -T lint -W style perfverdict.1 2>&1)
st=$?
lint=$(printf '%s\n' "$lint" | grep -v 'mandoc\.db' |
	grep -v 'STYLE: referenced manual not found: Xr ' | grep -v '^$')
# mandoc's status is 1 for style messages alone, which may be just the
# filtered ones; anything it printed and we kept is a finding.
if [ $st -gt 1 ] || [ -n "$lint" ]; then
	printf '%s\n' "$lint" >&2
	bad "mandoc -T lint perfverdict.1 is not clean (status $st)"
fi
XREFS="regcomp(3) setlocale(3)"
xrefs=$(awk '$1 == ".Xr" { print $2 "(" $3 ")" }' perfverdict.1 | sort -u | tr '\n' ' ')
[ "$xrefs" = "$XREFS " ] ||
	bad "perfverdict.1 refers to ${xrefs:-no manual}; check_man.sh's XREFS expects $XREFS"
text=$(mandoc -T ascii perfverdict.1 2>/dev/null) || bad "mandoc cannot render perfverdict.1"
for s in NAME SYNOPSIS DESCRIPTION CONFIGURATION FORMATS "EXIT STATUS" EXAMPLES; do
	grep -qx "\.Sh $s" perfverdict.1 || bad "perfverdict.1 has no $s section"
done
# Every command of the usage text has its own entry.
for c in $("$PV_BIN" --help 2>/dev/null | sed -n 's/^[a-z: ]*perfverdict \([a-z][a-z]*\).*/\1/p' | sort -u); do
	grep -q "^\.It Cm $c\( \|$\)" perfverdict.1 || bad "perfverdict.1 has no '.It Cm $c' entry for the command $c"
done
# Every format the program reads.
for f in $("$PV_BIN" formats 2>/dev/null | awk 'NR > 1 { print $1 }'); do
	grep -q "^\.It Cm $f\$" perfverdict.1 || bad "perfverdict.1's FORMATS has no '.It Cm $f' entry"
done

# -o: install the binary under test as it is; make must not rebuild it
# (without its SANITIZE flags) while other parts of the suite run it.
d=$tmp
if make --no-print-directory -s install BUILD="$PV_BUILD" -o "$PV_BUILD/perfverdict" DESTDIR="$d" PREFIX=/usr/local >"$d/log" 2>&1; then
	m=$d/usr/local/share/man/man1/perfverdict.1
	cmp -s perfverdict.1 "$m" || bad "make install put no copy of perfverdict.1 in PREFIX/share/man/man1"
	[ -x "$d/usr/local/bin/perfverdict" ] || bad "make install put no binary in PREFIX/bin"
	make --no-print-directory -s uninstall BUILD="$PV_BUILD" DESTDIR="$d" PREFIX=/usr/local >>"$d/log" 2>&1
	[ ! -e "$m" ] || bad "make uninstall left $m"
	[ ! -e "$d/usr/local/bin/perfverdict" ] || bad "make uninstall left the binary"
else
	cat "$d/log" >&2
	bad "make install DESTDIR=... failed"
fi
[ $fail -eq 0 ] && echo "check_man: perfverdict.1 lint-clean, every command and format has an entry, install/uninstall ok"
exit $fail

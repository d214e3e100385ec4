#!/bin/sh
# src/util/ contracts that no unit test sees:
#  - banned.h refuses git's list (sprintf, vsprintf, strcpy, strcat,
#    strncpy, strncat, strtok, strtok_r, gmtime, localtime, ctime,
#    ctime_r, asctime, asctime_r, mktemp), and every source file includes
#    it after its other headers;
#  - no allocation in src/ multiplies a count by a size itself: the
#    product goes through st_mult() or ALLOC_ARRAY (util/err.h), which
#    stop on overflow;
#  - no object of the library holds writable static data (.data, .bss):
#    no file-level mutable state, no static memo, which is what makes
#    the JSON writer's helper thread safe (writers/json.c);
. "$(dirname "$0")/lib/test-lib.sh"
CC=${CC:-cc}
bad=0
say() { bad "$@"; }

for call in 'sprintf(b, "x")' 'vsprintf(b, "x", ap)' 'strcpy(b, "x")' \
	    'strcat(b, "x")' 'strncpy(b, "x", 1)' 'strncat(b, "x", 1)' \
	    'strtok(b, ",")' 'strtok_r(b, ",", &s)' 'gmtime(&t)' \
	    'localtime(&t)' 'ctime(&t)' 'ctime_r(&t, b)' 'asctime(&tm)' \
	    'asctime_r(&tm, b)' 'mktemp(b)'; do
	cat >"$tmp/t.c" <<C
#define _GNU_SOURCE 1
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/banned.h"
void f(va_list ap);
void f(va_list ap) { char b[32], *s; time_t t = 0; struct tm tm = { 0 };
	(void)ap; (void)s; (void)t; (void)tm; $call; }
C
	if $CC -Isrc -c -o "$tmp/t.o" "$tmp/t.c" 2>"$tmp/err"; then
		say "banned.h lets '$call' compile"
	elif ! grep -q "_is_a_banned_function" "$tmp/err"; then
		say "'$call' fails to compile, but not because banned.h names it"
	fi
done
for f in $(find src -name '*.c' | sort); do
	last=$(grep '^#include' "$f" | tail -n 1)
	case $last in
	*'banned.h"') ;;
	*) say "$f: its last #include is not util/banned.h ($last)" ;;
	esac
done
# A count times a size, unchecked, in an allocation's argument (the
# statement up to its ';'): what st_mult() and ALLOC_ARRAY are for.
# Text inside st_mult( ... ) is checked already; err.h defines them.
for f in $(find src -name '*.[ch]' ! -path src/util/err.h | sort); do
	awk -v f="$f" '
		/(malloc|calloc|realloc|reallocarray|arena_alloc)[ \t]*\(/ {
			s = $0; l = FNR
			while (s !~ /;/ && (getline more) > 0)
				s = s " " more
			t = s
			sub(/st_mult[ \t]*\(.*/, "", t)
			if (t ~ /\*[ \t]*sizeof/ || t ~ /sizeof[ \t]*(\([^)]*\))?[ \t]*\*/ ||
			    t ~ /sizeof[ \t]+[a-z_]+[ \t]*\*/)
				print f ":" l ": " $0
		}' "$f" >>"$tmp/mult"
done
if [ -s "$tmp/mult" ]; then
	cat "$tmp/mult" >&2
	say "a count times a size in an allocation, unchecked: use st_mult() or ALLOC_ARRAY (util/err.h)"
fi
# Writable static data, from the symbol tables of the built objects.
# Sanitizer builds add their own (__asan_*, .L*).
PV_BUILD=${PV_BUILD:-build}
objs=$(find "$PV_BUILD/src" -name '*.o' ! -name 'main.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
	say "no objects under $PV_BUILD/src: build first"
elif command -v objdump >/dev/null 2>&1; then
	for o in $objs; do
		objdump -t "$o" | awk -v o="$o" '
			$0 ~ / O / {
				sec = $(NF - 2); name = $NF
				# The signal handler'"'"'s list of temporary
				# files has nowhere else to live (atomic.c).
				if (o ~ /util\/atomic\.o$/ &&
				    (name == "cleanup" || name == "cleanup_installed"))
					next
				if (sec ~ /^\.(data|bss)/ && sec !~ /rel\.ro/ &&
				    name !~ /^(__|\.)/)
					print o ": writable static data: " name " (" sec ")"
			}' >>"$tmp/mutable"
	done
	if [ -s "$tmp/mutable" ]; then
		cat "$tmp/mutable" >&2
		say "file-level mutable state in the library"
	fi
else
	echo "check_util: objdump missing, static data not checked" >&2
fi
exit $bad

#!/bin/sh
# check_src.sh - the size limits of src/, as curl's checksrc keeps its
# style:
#  - every .c and .h file under src/ is at most MAX_FILE lines;
#  - every function of a .c file under src/ is at most MAX_FUNC lines,
#    from the line at column 0 that begins its definition to its closing
#    brace at column 0 (the style of this code base: a function's
#    braces stand alone at column 0, nothing else's do);
#  - no file of src/stats/ or src/history/ makes a constant a -D knob
#    (#ifndef NAME / #define NAME ...): a constant is named once, with
#    its reason;
#  - the modules' borders: no reader (src/readers/) includes a header of
#    src/history/ (history reads through the readers, never the other
#    way), and nothing outside src/stats/ includes its private
#    internal.h (history's detector and pooled gate use stats' public
#    headers).
# Each offender is one line, "path:line: function NAME is N lines (at
# most 120)", "path: N lines (at most 900)", "path:line: NAME is a -D
# knob (#ifndef): name the constant once" or "path:line: includes
# HEADER (...)"; the script fails on any.
# First it checks its own measure on a file of known shape.
. "$(dirname "$0")/lib/test-lib.sh"

# Files exempt from every check here, while a split is under way: none
# since the detector's split (issue 41).  A file named here must exist.
EXEMPT=""

MAX_FILE=900
MAX_FUNC=120

# measure FILE...: "path:line:name:length" for every function.
measure() {
	awk '
	function fname(sig,   s, n) {
		s = sig
		while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
			n = substr(s, RSTART, RLENGTH - 1)
			if (n != "__attribute__")
				return n
			s = substr(s, RSTART + RLENGTH)
		}
		return "?"
	}
	FNR == 1 { inside = 0; pending = 0 }
	inside {
		if ($0 ~ /^}/) {
			printf "%s:%d:%s:%d\n", FILENAME, start, name, FNR - start + 1
			inside = 0
		}
		next
	}
	# a definition whose brace ends its first line: int f(void) {
	/^[A-Za-z_][^=;]*\)[ \t]*\{[ \t]*$/ {
		start = FNR; name = fname($0); inside = 1; pending = 0
		next
	}
	/^\{[ \t]*$/ {
		start = pending ? pending : FNR
		name = pending ? fname(sig) : "?"
		inside = 1; pending = 0
		next
	}
	# a column-0 line goes on a signature that has no "(" yet:
	# static const char *
	# name(void)
	/^[A-Za-z_]/ {
		if (pending && sig !~ /\(/)
			sig = sig " " $0
		else {
			pending = FNR; sig = $0
		}
		if ($0 ~ /[;{][ \t]*$/) pending = 0
		next
	}
	pending && /^[ \t]+[^ \t]/ {
		sig = sig " " $0
		if ($0 ~ /[;{][ \t]*$/) pending = 0
		next
	}
	{ pending = 0 }
	' "$@"
}

# The measure itself, on a file of known shape: each function named and
# measured, and nothing else taken for one.
cat >"$tmp/shape.c" <<'EOF'
#include <stdio.h>

/* not a function: { */
static const struct { int a, b; } table[] = {
	{ 1, 2 },
{ 3, 4 },
};

struct pair {
	int a;
};

int proto(void);

static int one(void)
{
	return 1;
}

static int two(int a,
	       int b)
{
	const char *s = "}";

	if (a) {
		return b;
	}
#ifdef X
	a++;
#endif
out:
	return *s;
}

int three(void) {
	return 3;
}

static const char *
four(void)
{
	return "{";
}

static void (*five(void))(int)
{
	return 0;
}
EOF
measure "$tmp/shape.c" | sed "s|^$tmp/||" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
shape.c:15:one:4
shape.c:20:two:14
shape.c:35:three:3
shape.c:39:four:5
shape.c:45:five:4
EOF
cmp -s "$tmp/got" "$tmp/want" ||
	bad "the function measure is wrong on a file of known shape: got $(tr '\n' ' ' <"$tmp/got"), expected $(tr '\n' ' ' <"$tmp/want")"

exempt() {
	for e in $EXEMPT; do
		[ "$1" = "$e" ] && return 0
	done
	return 1
}

: >"$tmp/functions"
: >"$tmp/knobs"
files=$(find src -name '*.[ch]' | sort)
[ -n "$files" ] || tl_die "no sources under src/"
for e in $EXEMPT; do
	[ -f "$e" ] || bad "EXEMPT names $e, which does not exist"
done
n=0
for f in $files; do
	exempt "$f" && continue
	lines=$(wc -l <"$f")
	if [ "$lines" -gt "$MAX_FILE" ]; then
		echo "$f: $lines lines (at most $MAX_FILE)"
		n=$((n + 1))
	fi
	case $f in
	*.c)	measure "$f" >>"$tmp/functions" ;;
	esac
	case $f in
	src/stats/*|src/history/*)
		awk -v f="$f" '
			prev != "" && $0 ~ "^#define[ \t]+" prev "([ \t(]|$)" &&
			    prev !~ /_H$/ {
				printf "%s:%d: %s is a -D knob (#ifndef): name the constant once\n", f, FNR - 1, prev
			}
			{ prev = "" }
			/^#ifndef[ \t]+[A-Za-z_]/ { prev = $2 }
		' "$f" >>"$tmp/knobs" ;;
	esac
done
# borders FILE...: a reader including history, stats' internal.h outside
# stats.
borders() {
	for f in "$@"; do
		awk -v f="$f" '
			/^#[ \t]*include[ \t]*"/ {
				h = $0
				sub(/^#[ \t]*include[ \t]*"/, "", h)
				sub(/".*/, "", h)
				if (f ~ /^src\/readers\// && h ~ /(^|\/)history\//)
					printf "%s:%d: includes %s (a reader never knows history)\n", f, FNR, h
				if (f !~ /^src\/stats\// && h ~ /(^|\/)stats\/internal\.h$/)
					printf "%s:%d: includes %s (private to src/stats/; use its public headers)\n", f, FNR, h
			}
		' "$f"
	done
}
mkdir -p "$tmp/src/readers" "$tmp/src/history"
printf '#include "../history/history.h"\n' >"$tmp/src/readers/x.c"
printf '#include "../stats/internal.h"\n#include "../stats/order.h"\n' >"$tmp/src/history/y.c"
got=$(cd "$tmp" && borders src/readers/x.c src/history/y.c | cut -d: -f1,2 | tr '\n' ' ')
[ "$got" = "src/readers/x.c:1 src/history/y.c:1 " ] ||
	bad "the border check found '$got' in its planted files, expected a reader including history and history including stats/internal.h"
borders $files >"$tmp/borders"
nf=$(grep -c . "$tmp/functions")
# The same ends as Universal Ctags finds, where it is installed (a
# one-line function, which the measure leaves out, is never too long).
if ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
	ctags --c-kinds=f --fields=+ne -o - $(echo "$files" | grep '\.c$') |
		awk -F'\t' '{
			for (i = 4; i <= NF; i++) {
				if ($i ~ /^line:/) l = substr($i, 6)
				if ($i ~ /^end:/) e = substr($i, 5)
			}
			if (e + 0 > l + 0) print $2 ":" e
		}' | sort >"$tmp/ctags"
	measure $(echo "$files" | grep '\.c$') |
		awk -F: '{ print $1 ":" $2 + $4 - 1 }' | sort >"$tmp/ends"
	cmp -s "$tmp/ctags" "$tmp/ends" ||
		bad "the function measure and ctags disagree on where these functions end: $(comm -3 "$tmp/ctags" "$tmp/ends" | tr -d '\t' | tr '\n' ' ')"
fi
[ "$nf" -gt 100 ] || bad "only $nf functions measured in src/; has the style changed?"
awk -F: -v max="$MAX_FUNC" '$4 > max {
	printf "%s:%d: function %s is %d lines (at most %d)\n", $1, $2, $3, $4, max
}' "$tmp/functions" >"$tmp/long"
cat "$tmp/long" "$tmp/knobs" "$tmp/borders"
n=$((n + $(grep -c . "$tmp/long") + $(grep -c . "$tmp/knobs") + $(grep -c . "$tmp/borders")))
[ "$n" -eq 0 ] || bad "$n offender(s) above"

#!/bin/sh
# truncate-summary.sh - cap a Markdown file to a byte budget.
#
# Usage: truncate-summary.sh [-n NOTE] LIMIT [FILE]
#
# Copies FILE (or stdin) to stdout unchanged when it is at most LIMIT
# bytes.  Otherwise it keeps the longest run of whole lines that fits,
# closes a code fence and any <details> left open by the cut, and ends
# with a note saying that the report was truncated, followed by NOTE
# (e.g. where the full report is).  The output is never longer than
# LIMIT bytes.  Bytes, not characters: a byte budget is safe for every
# consumer (GitHub counts characters, and a character is >= 1 byte).
#
# Exit status: 0 done, 2 usage error, 3 unreadable input.
set -u

note=
while [ $# -gt 0 ]; do
	case $1 in
	-n)
		[ $# -ge 2 ] || {
			echo "truncate-summary: -n needs a value" >&2
			exit 2
		}
		note=$2
		shift 2
		;;
	-h | --help)
		awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
		exit 0
		;;
	--)
		shift
		break
		;;
	-?*)
		echo "truncate-summary: unknown option $1" >&2
		exit 2
		;;
	*) break ;;
	esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: truncate-summary.sh [-n NOTE] LIMIT [FILE]" >&2
	exit 2
fi
limit=$1
case $limit in
'' | *[!0-9]*)
	echo "truncate-summary: LIMIT must be a byte count: $limit" >&2
	exit 2
	;;
esac

tmp=
cleanup() { [ -n "$tmp" ] && rm -f "$tmp"; }
trap cleanup EXIT
if [ $# -eq 2 ] && [ "$2" != - ]; then
	file=$2
	if [ ! -r "$file" ] || [ -d "$file" ]; then
		echo "truncate-summary: cannot read $file" >&2
		exit 3
	fi
else
	tmp=$(mktemp) || exit 3
	cat >"$tmp" || exit 3
	file=$tmp
fi

size=$(wc -c <"$file" | tr -d ' ')
if [ "$size" -le "$limit" ]; then
	cat "$file"
	exit 0
fi

LC_ALL=C awk -v limit="$limit" -v size="$size" -v extra="$note" '
function suffix(   s, i) {
	s = ""
	if (fence != "") s = s fence "\n"
	for (i = 0; i < open; i++) s = s "</details>\n"
	return s
}
function notetext(shown,   t) {
	t = "\n> **Note:** this report was truncated to fit " limit " bytes (" shown " of " size " bytes shown)."
	if (extra != "") t = t " " extra
	return t "\n"
}
# Update the fence and <details> state after line s.
function scan(s,   t, m) {
	if (fence == "") {
		if (match(s, /^ ? ? ?(```+|~~~+)/)) {
			t = substr(s, RSTART, RLENGTH); sub(/^ +/, "", t)
			fence = t
			return
		}
		t = s
		open += gsub(/<details[ >]|<details$/, "", t)
		t = s
		open -= gsub(/<\/details>/, "", t)
		if (open < 0) open = 0
	} else {
		t = s; sub(/^ +/, "", t)
		if (index(t, fence) == 1 && t ~ /^(`+|~+)[ \t]*$/ && length(t) >= length(fence))
			fence = ""
	}
}
BEGIN { fence = ""; open = 0; used = 0; done = 0; out = "" }
done { next }
{
	sf = fence; so = open
	scan($0)
	cost = length($0) + 1
	# Reserve room for the closers and the note (its digits are at most
	# as long as those of size).
	if (used + cost + length(suffix()) + length(notetext(size)) > limit) {
		fence = sf; open = so; done = 1; next
	}
	printf "%s\n", $0
	used += cost
}
END {
	tail = suffix() notetext(used)
	if (used + length(tail) > limit) tail = substr(tail, 1, limit - used)
	printf "%s", tail
}' "$file"

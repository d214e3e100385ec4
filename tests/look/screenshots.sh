#!/bin/sh
# make screenshots: every sample pair's HTML report and PR comment
# rendered by headless Chromium to build/screenshots/<sample>.{html,md}.png,
# for people to look at (not part of make check: Chromium is not a check
# dependency).  The PR comment is cmark-gfm with GitHub's extensions in
# GitHub-like CSS at 900 px (tests/look/md2html.sh); its collapsed height
# is printed, measured in the browser (tests/look/height.py).  The
# netperf pair also gives the README's images in docs/img/ when
# PV_README_IMAGES=1.
set -eu
PV_BIN=${PV_BIN:-build/perfverdict}
out=build/screenshots
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT INT TERM
shot() {  # shot PAGE PNG WIDTH HEIGHT
	chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile/u" --hide-scrollbars \
		--screenshot="$2" --window-size="$3,$4" "file://$(pwd)/$1" \
		>/dev/null 2>&1
}
for dir in samples/*/; do
	dir=${dir%/}
	s=$(basename "$dir")
	[ -d "$dir/baseline" ] && [ -d "$dir/candidate" ] || continue
	conf=
	[ -f "$dir/perf.conf" ] && conf="-c $dir/perf.conf"
	# shellcheck disable=SC2086
	SOURCE_DATE_EPOCH=1764460800 "$PV_BIN" compare $conf \
		--baseline-label main --candidate-label feature \
		"$dir/baseline" "$dir/candidate" --html "$out/$s.html" \
		--markdown "$out/$s.md" >/dev/null 2>&1 || [ $? -eq 1 ]
	sh tests/look/md2html.sh "$out/$s.md" >"$out/$s.md.html"
	h=$(python3 tests/look/height.py "$out/$s.md.html" 900)
	shot "$out/$s.html" "$out/$s.html.png" 1000 1600
	shot "$out/$s.md.html" "$out/$s.md.png" 900 "$h"
	echo "$s: PR comment $h px tall at 900 px; $out/$s.html.png $out/$s.md.png"
done
if [ "${PV_README_IMAGES:-0}" = 1 ]; then
	mkdir -p docs/img
	shot "$out/netperf.html" docs/img/html-report.png 1000 1100
	h=$(python3 tests/look/height.py "$out/netperf.md.html" 900)
	shot "$out/netperf.md.html" docs/img/pr-comment.png 900 "$h"
	ls -l docs/img/
fi

#!/bin/sh
# make screenshots: every sample pair's HTML report and PR comment
# rendered by headless Chromium to build/screenshots/<sample>.{html,md}.png,
# for people to look at (not part of make check: Chromium is not a check
# dependency).  The PR comment is cmark-gfm with GitHub's extensions in
# GitHub-like CSS at 900 px (tests/look/md2html.sh); its collapsed height
# is printed, measured in the browser (tests/look/height.py).  The
# README's and docs' images in docs/img/ come from it too with
# PV_README_IMAGES=1.  Fonts as a reader has them: fonts-liberation2
# (Arial's metrics, as GitHub's font stack falls back to on Linux) and
# fonts-noto-color-emoji; Debian's default DejaVu Sans is about 15% wider.
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
	wide=$(python3 tests/look/height.py --expanded "$out/$s.md.html" 900)
	shot "$out/$s.html" "$out/$s.html.png" 1000 1600
	shot "$out/$s.md.html" "$out/$s.md.png" 900 "$h"
	echo "$s: PR comment $h px tall at 900 px, $wide tables wider than the column when expanded; $out/$s.html.png $out/$s.md.png"
done
if [ "${PV_README_IMAGES:-0}" = 1 ]; then
	# palette PNGs (tests/look/pngsmall.py), each well under 150 KB: the
	# README's comment (gbench, at GitHub's 800 px), docs/reports.md's
	# HTML report (netperf) and docs/history.md's history page
	mkdir -p docs/img
	shot "$out/netperf.html" "$out/readme-html.png" 1000 1100
	python3 tests/look/pngsmall.py "$out/readme-html.png" docs/img/html-report.png
	# the comment's top (verdict, counts, regressions), so that the
	# README's install lines stay near the first screen
	shot "$out/gbench.md.html" "$out/readme-md.png" 800 470
	python3 tests/look/pngsmall.py "$out/readme-md.png" docs/img/pr-comment.png
	SOURCE_DATE_EPOCH=1764460800 "$PV_BIN" history -c samples/history/perf.conf \
		samples/history/archive --html "$out/history.html" >/dev/null 2>&1 || [ $? -eq 1 ]
	shot "$out/history.html" "$out/readme-history.png" 1000 1100
	python3 tests/look/pngsmall.py "$out/readme-history.png" docs/img/history-report.png
	ls -l docs/img/
fi

#!/bin/sh
# Install the Debian/Ubuntu packages perfverdict needs to build and test.
# As root it runs apt-get; otherwise it prints the exact command to run.
# Usage: install-deps.sh [--build-only]
set -eu

build="gcc libc6-dev make pkg-config libgsl-dev libjansson-dev libxml2-dev libinih-dev zlib1g-dev"
test="libcmocka-dev python3 python3-scipy python3-numpy python3-jsonschema python3-yaml python3-junitparser libxml2-utils cmark-gfm mandoc rsync shellcheck locales clang libclang-rt-14-dev"
pkgs="$build"
[ "${1:-}" = "--build-only" ] || pkgs="$build $test"

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: not a Debian system; install the equivalents of:$missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages; run:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

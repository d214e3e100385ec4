#!/bin/sh
# Install the Debian/Ubuntu packages perfverdict needs to build and test.
# As root it runs apt-get; otherwise it prints the exact command to run.
# Usage: install-deps.sh [--build-only | --release]
#   --release: also what `make release` (x86_64 and aarch64) and
#   `make release-check` need; adds the arm64 architecture.  Never
#   libgsl-dev:arm64: it is not Multi-Arch: same and would remove the
#   native libgsl-dev (make release ARCH=aarch64 unpacks it instead).
set -eu

build="gcc libc6-dev make pkg-config libgsl-dev libjansson-dev libxml2-dev libinih-dev zlib1g-dev"
test="libcmocka-dev curl python3 python3-scipy python3-numpy python3-jsonschema python3-yaml python3-junitparser libxml2-utils cmark-gfm mandoc rsync shellcheck locales clang libclang-rt-14-dev"
release="gcc-aarch64-linux-gnu libc6-dev-arm64-cross libjansson-dev:arm64 libxml2-dev:arm64 libinih-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64 qemu-user-static debootstrap buildah crun curl man-db file python3"
pkgs="$build"
case ${1:-} in
--build-only) ;;
--release) pkgs="$build $release" ;;
*) pkgs="$build $test" ;;
esac

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
	case $missing in
	*:arm64*) echo "  sudo dpkg --add-architecture arm64" >&2 ;;
	esac
	echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
case $missing in
*:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64 ;;
esac
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

#!/bin/sh
# install-perfverdict.sh - install a released perfverdict, verified.
#
#   install-perfverdict.sh VERSION ARCH=SHA256 [ARCH=SHA256...]
#   e.g. install-perfverdict.sh 0.1.0 x86_64=ec5d...282c aarch64=298f...60bd
#
# Downloads perfverdict-VERSION-linux-ARCH.tar.gz for this machine's
# architecture (uname -m: x86_64 or aarch64) and checks it against the
# SHA-256 given for that architecture on the command line: the integration
# that calls this script writes the pinned sums itself, so they never come
# from the server the tarball comes from.  Only a tarball whose sum matches
# is unpacked (into the tool cache) and nothing from it runs before that;
# on a mismatch the error names both sums and nothing is installed.
#
# Prints the directory holding the binary on stdout (everything else goes
# to stderr) and, on GitHub Actions, appends it to GITHUB_PATH.
#
#   PERFVERDICT_RELEASE_URL  where the release's files are (default: the
#                            GitHub release of tag vVERSION)
#   PERFVERDICT_TOOL_CACHE   the tool cache (default: RUNNER_TOOL_CACHE,
#                            else XDG_CACHE_HOME or ~/.cache)
#
# Exit status: 0 installed; 2 usage (a missing or malformed sum, an
# architecture with no release); 3 the download failed or the sum did not
# match.  POSIX sh; needs curl or wget, sha256sum, tar and gzip.
set -eu

die() {
	st=$1
	shift
	printf 'install-perfverdict: %s\n' "$*" >&2
	exit "$st"
}

[ $# -ge 2 ] || die 2 "usage: install-perfverdict.sh VERSION ARCH=SHA256 [ARCH=SHA256...]"
version=$1
shift
case $version in
'' | *[!0-9A-Za-z.+~-]*) die 2 "'$version' is not a version: expected e.g. 0.1.0" ;;
esac

arch=$(uname -m)
case $arch in
amd64) arch=x86_64 ;;
arm64) arch=aarch64 ;;
esac
want=
for pin in "$@"; do
	case $pin in
	*=*) ;;
	*) die 2 "'$pin' is not ARCH=SHA256" ;;
	esac
	[ "${pin%%=*}" = "$arch" ] && want=${pin#*=}
done
[ -n "$want" ] || die 2 "no pinned SHA-256 for $arch: perfverdict $version is released for $(printf '%s ' "$@" | sed 's/=[^ ]*//g')"
case $want in
unpinned) die 2 "this integration pins no release of perfverdict $version for $arch yet: build from source, or pin one (docs/releasing.md)" ;;
*[!0-9a-f]*) die 2 "the pinned SHA-256 for $arch is not 64 lowercase hex digits: '$want'" ;;
esac
[ ${#want} -eq 64 ] || die 2 "the pinned SHA-256 for $arch is not 64 lowercase hex digits: '$want'"

name=perfverdict-$version-linux-$arch
url=${PERFVERDICT_RELEASE_URL:-https://github.com/perfverdict/perfverdict/releases/download/v$version}
url=${url%/}/$name.tar.gz
cache=${PERFVERDICT_TOOL_CACHE:-${RUNNER_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}}}/perfverdict
dir=$cache/$version-$want
bin=$dir/$name/perfverdict

# A cached copy is the tarball that matched this very sum: its directory
# is named by the sum and appears only after the check (mv below).
if [ ! -x "$bin" ]; then
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.download.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	echo "install-perfverdict: downloading $url" >&2
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 3 -o "$tmp/$name.tar.gz" "$url" ||
			die 3 "cannot download $url"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$tmp/$name.tar.gz" "$url" || die 3 "cannot download $url"
	else
		die 3 "neither curl nor wget is installed: cannot download $url"
	fi
	got=$(sha256sum "$tmp/$name.tar.gz" | cut -d' ' -f1)
	[ "$got" = "$want" ] ||
		die 3 "checksum mismatch for $name.tar.gz from $url: expected (pinned) $want, got $got; nothing was installed"
	mkdir "$tmp/unpack"
	tar -xzf "$tmp/$name.tar.gz" -C "$tmp/unpack" "$name/perfverdict" "$name/perfverdict.1" ||
		die 3 "$name.tar.gz: its sum matches but it does not unpack"
	# Another job may install the same sum at once: whichever mv wins,
	# the binary is there (a loser's copy lands inside, unused).
	[ -d "$dir" ] && [ ! -x "$bin" ] && rm -rf "$dir"
	mv "$tmp/unpack" "$dir" 2>/dev/null || :
	[ -x "$bin" ] || die 3 "cannot install into $dir"
fi
"$bin" --version >&2 || die 3 "$bin does not run on this machine"
[ -n "${GITHUB_PATH:-}" ] && echo "$dir/$name" >>"$GITHUB_PATH"
echo "$dir/$name"

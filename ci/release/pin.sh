#!/bin/sh
# pin.sh - write a release's version and SHA-256 sums into the three
# integrations (ci/github/action.yml, ci/gitlab/perfverdict.gitlab-ci.yml,
# ci/jenkins/Jenkinsfile), from the SHA256SUMS of the uploaded release.
#
#   sh ci/release/pin.sh VERSION dist/SHA256SUMS
#
# Step 4 of docs/releasing.md; then review `git diff ci/` and commit.
set -eu
[ $# -eq 2 ] || { echo "usage: ci/release/pin.sh VERSION SHA256SUMS" >&2; exit 2; }
v=$1 sums=$2
cd "$(dirname "$0")/../.."
script=$(mktemp)
trap 'rm -f "$script"' EXIT
printf '%s\n' "s/^\\(\\s*PERFVERDICT_RELEASE\\(:\\| =\\) '\\?\\)[0-9][^' ]*/\\1$v/" >"$script"
for a in x86_64 aarch64; do
	s=$(awk -v f="perfverdict-$v-linux-$a.tar.gz" '$2 == f { print $1 }' "$sums")
	case $s in
	*[!0-9a-f]*) s= ;;
	esac
	[ ${#s} -eq 64 ] || { echo "pin.sh: no sum for perfverdict-$v-linux-$a.tar.gz in $sums" >&2; exit 3; }
	printf '%s\n' "s/\\b$a=\\(unpinned\\|[0-9a-f]\\{64\\}\\)/$a=$s/g" >>"$script"
done
for f in ci/github/action.yml ci/gitlab/perfverdict.gitlab-ci.yml ci/jenkins/Jenkinsfile; do
	sed -i -f "$script" "$f"
	[ "$(grep -cE "(x86_64|aarch64)=[0-9a-f]{64}" "$f")" -ge 1 ] ||
		{ echo "pin.sh: $f: no sums written" >&2; exit 3; }
done
git diff --stat -- ci/ 2>/dev/null || :

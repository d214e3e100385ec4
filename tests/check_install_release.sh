#!/bin/sh
# shellcheck disable=SC2015
# ci/scripts/install-perfverdict.sh against an HTTP server on 127.0.0.1:
# a release tarball (laid out as `make release` lays it out, holding
# PV_BIN) installs when its pinned sum matches, and is found in the tool
# cache the second time; a tampered tarball, a wrong pinned sum, a
# malformed one, a missing architecture and a missing file each fail with
# their exit status, the mismatch naming both sums (the tarball's computed
# here by sha256sum), and nothing from a rejected tarball runs or stays.
# tests/release/check.sh runs the same script on the real dist/.
. "$(dirname "$0")/lib/test-lib.sh"
TL_ON_EXIT='[ -n "$server" ] && kill "$server" 2>/dev/null'
case $PV_BIN in /*) ;; *) PV_BIN=$PWD/$PV_BIN ;; esac
script=$PWD/ci/scripts/install-perfverdict.sh
server=
fails=0
fail() {
	echo "not ok: $*"
	fails=$((fails + 1))
}

arch=$(uname -m)
v=9.9.9
name=perfverdict-$v-linux-$arch
mkdir -p "$tmp/srv" "$tmp/good/$name" "$tmp/bad/$name"
cp "$PV_BIN" "$tmp/good/$name/perfverdict"
cp perfverdict.1 "$tmp/good/$name/"
tar -C "$tmp/good" -czf "$tmp/good.tar.gz" "$name"
# The tampered tarball's binary would leave a mark if anything ran it.
printf '#!/bin/sh\ntouch %s/ran\n' "$tmp" >"$tmp/bad/$name/perfverdict"
chmod +x "$tmp/bad/$name/perfverdict"
cp perfverdict.1 "$tmp/bad/$name/"
tar -C "$tmp/bad" -czf "$tmp/bad.tar.gz" "$name"
good=$(sha256sum "$tmp/good.tar.gz" | cut -d' ' -f1)
bad=$(sha256sum "$tmp/bad.tar.gz" | cut -d' ' -f1)
other=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
cp "$tmp/good.tar.gz" "$tmp/srv/$name.tar.gz"

"$PYTHON" tests/lib/install_release_server.py "$tmp/srv" "$tmp/port" 2>/dev/null &
server=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/port" ] || { echo "not ok: the HTTP server did not start"; exit 1; }
PERFVERDICT_RELEASE_URL=http://127.0.0.1:$(cat "$tmp/port")/
export PERFVERDICT_RELEASE_URL
unset RUNNER_TOOL_CACHE XDG_CACHE_HOME

# run CACHE ARGS...: the script with its own tool cache; sets st, out, err.
run() {
	c=$1
	shift
	PERFVERDICT_TOOL_CACHE=$tmp/$c GITHUB_PATH=$tmp/$c.path \
		sh "$script" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# 1. The pinned sum matches: installed, on stdout and GITHUB_PATH, runs.
run c1 $v "other=$other" "$arch=$good"
[ $st -eq 0 ] || fail "good tarball: exit $st: $err"
[ "$out" = "$tmp/c1/perfverdict/$v-$good/$name" ] || fail "good tarball: stdout '$out'"
[ "$(cat "$tmp/c1.path" 2>/dev/null)" = "$out" ] || fail "good tarball: GITHUB_PATH not appended"
[ "$("$out/perfverdict" --version 2>&1)" = "$("$PV_BIN" --version)" ] ||
	fail "good tarball: the installed binary is not PV_BIN"
[ -f "$out/perfverdict.1" ] || fail "good tarball: no man page"
# 2. The second time the cache serves it: the server no longer has it.
rm "$tmp/srv/$name.tar.gz"
run c1 $v "$arch=$good"
[ $st -eq 0 ] && [ "$out" = "$tmp/c1/perfverdict/$v-$good/$name" ] ||
	fail "cached: exit $st, stdout '$out': $err"
# 3. A tampered tarball under the good sum's name.
cp "$tmp/bad.tar.gz" "$tmp/srv/$name.tar.gz"
run c3 $v "$arch=$good"
[ $st -eq 3 ] || fail "tampered: exit $st, expected 3"
case $err in
*"checksum mismatch"*"expected (pinned) $good, got $bad;"*) ;;
*) fail "tampered: the error does not name both sums: $err" ;;
esac
[ -z "$out" ] || fail "tampered: stdout '$out'"
[ -z "$(ls -A "$tmp/c3/perfverdict")" ] || fail "tampered: left $(ls -A "$tmp/c3/perfverdict")"
[ ! -e "$tmp/c3.path" ] || fail "tampered: GITHUB_PATH written"
# 4. A wrong pinned sum for the good tarball.
cp "$tmp/good.tar.gz" "$tmp/srv/$name.tar.gz"
run c4 $v "$arch=$other"
[ $st -eq 3 ] || fail "wrong sum: exit $st, expected 3"
case $err in
*"expected (pinned) $other, got $good;"*) ;;
*) fail "wrong sum: the error does not name both sums: $err" ;;
esac
[ -z "$(ls -A "$tmp/c4/perfverdict")" ] || fail "wrong sum: left files behind"
# 5. A malformed sum, no sum for this machine, a bad version: usage, exit 2.
run c5 $v "$arch=$(echo "$good" | tr a-f A-F)"
[ $st -eq 2 ] && case $err in *"not 64 lowercase hex"*) true ;; *) false ;; esac ||
	fail "uppercase sum: exit $st: $err"
run c5 $v "$arch=${good%?}"
[ $st -eq 2 ] || fail "63-digit sum: exit $st"
run c5 $v "riscv64=$good"
[ $st -eq 2 ] && case $err in *"no pinned SHA-256 for $arch"*) true ;; *) false ;; esac ||
	fail "no sum for $arch: exit $st: $err"
run c5 '1.0;rm' "$arch=$good"
[ $st -eq 2 ] || fail "bad version: exit $st"
[ ! -e "$tmp/c5" ] || fail "usage errors created the cache"
# 6. Nothing at that URL.
run c6 0.0.1 "$arch=$good"
[ $st -eq 3 ] && case $err in *"cannot download"*) true ;; *) false ;; esac ||
	fail "missing release: exit $st: $err"
[ ! -e "$tmp/ran" ] || fail "a rejected tarball's binary ran"

# 7. The integrations with perfverdict: release, on a copy of ci/ whose
# pins ci/release/pin.sh wrote from a SHA256SUMS: each installs the release
# and gates samples/netperf with it (exit 1: it regresses); with a
# tampered tarball each fails as a tool error and names both sums.
mkdir -p "$tmp/repo"
cp -R ci "$tmp/repo/"
otherarch=x86_64
[ "$arch" = x86_64 ] && otherarch=aarch64
printf '%s  %s\n' "$good" "$name.tar.gz" "$other" "perfverdict-$v-linux-$otherarch.tar.gz" \
	>"$tmp/SHA256SUMS"
sh "$tmp/repo/ci/release/pin.sh" $v "$tmp/SHA256SUMS" >/dev/null 2>"$tmp/err" || fail "pin.sh: $(cat "$tmp/err")"
for f in github/action.yml gitlab/perfverdict.gitlab-ci.yml jenkins/Jenkinsfile; do
	grep -q "$arch=$good" "$tmp/repo/ci/$f" && ! grep -q unpinned "$tmp/repo/ci/$f" ||
		fail "pin.sh: $f not pinned"
done
grep -q "unpinned" ci/github/action.yml || fail "pin.sh changed the worktree's ci/"
top=$PWD
samples=$top/samples/netperf
integrations() { # integrations TAG: each CI runs the gate with perfverdict: release
	w=$tmp/$1
	mkdir -p "$w" && cd "$w" || exit 1
	env -i PATH="$PATH" HOME="$w" PERFVERDICT_RELEASE_URL="$PERFVERDICT_RELEASE_URL" \
		PERFVERDICT_TOOL_CACHE="$w/cache-gh" GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r \
		GITHUB_EVENT_NAME=push GITHUB_OUTPUT="$w/gh-out" GITHUB_PATH="$w/gh-path" \
		GITHUB_STEP_SUMMARY="$w/summary.md" PERFVERDICT_BUILD=never \
		"$PYTHON" "$top/tests/ci/sim.py" github "$tmp/repo/ci/github" \
		--input perfverdict=release --input comment=never \
		--input baseline="$samples/baseline" --input candidate="$samples/candidate" \
		--input config="$samples/perf.conf" --input suite=netperf \
		--outputs "$w/gh-outputs" >gh.out 2>gh.err
	gh=$?
	env -i PATH="$PATH" HOME="$w" PERFVERDICT_RELEASE_URL="$PERFVERDICT_RELEASE_URL" \
		PERFVERDICT_TOOL_CACHE="$w/cache-gl" CI_PROJECT_DIR="$w" GITLAB_CI=true \
		PERFVERDICT_BUILD=never \
		"$PYTHON" "$top/tests/ci/sim.py" gitlab "$tmp/repo/ci/gitlab/perfverdict.gitlab-ci.yml" \
		.perfverdict --artifacts "$w/gl-art" --var PERFVERDICT_WHICH=release \
		--var PERFVERDICT_HOME="$tmp/repo" --var PERFVERDICT_COMMENT=never \
		--var PERFVERDICT_BASELINE="$samples/baseline" --var PERFVERDICT_CANDIDATE="$samples/candidate" \
		--var PERFVERDICT_CONFIG="$samples/perf.conf" --var PERFVERDICT_SUITE=netperf >gl.out 2>gl.err
	gl=$?
	# Jenkins: the install stage's and the gate stage's sh steps as
	# written, in the pipeline's environment.
	inst=$(sed -n "s/.*PERFVERDICT_BIN = sh(script: '\([^']*\)', returnStdout: true).*/\1/p" "$tmp/repo/ci/jenkins/Jenkinsfile")
	gate=$(sed -n "s/.*sh(script: '\([^']*\)', returnStatus: true).*/\1/p" "$tmp/repo/ci/jenkins/Jenkinsfile")
	rel=$(sed -n "s/^ *PERFVERDICT_RELEASE = '\([^']*\)'$/\1/p" "$tmp/repo/ci/jenkins/Jenkinsfile")
	sums=$(sed -n "s/^ *PERFVERDICT_RELEASE_SHA256 = '\([^']*\)'$/\1/p" "$tmp/repo/ci/jenkins/Jenkinsfile")
	jenv() {
		env -i PATH="$PATH" HOME="$w" PERFVERDICT_RELEASE_URL="$PERFVERDICT_RELEASE_URL" \
			PERFVERDICT_TOOL_CACHE="$w/cache-j" PERFVERDICT_CI=jenkins PERFVERDICT_BUILD=never \
			PERFVERDICT_HOME="$tmp/repo" PERFVERDICT_COMMENT=never \
			PERFVERDICT_RELEASE="$rel" PERFVERDICT_RELEASE_SHA256="$sums" \
			PERFVERDICT_BASELINE="$samples/baseline" PERFVERDICT_CANDIDATE="$samples/candidate" \
			PERFVERDICT_CONFIG="$samples/perf.conf" PERFVERDICT_SUITE=netperf "$@"
	}
	if d=$(jenv sh -c "$inst" 2>j.err); then
		jenv PERFVERDICT_BIN="$d/perfverdict" sh -c "$gate" >j.out 2>>j.err
		jk=$?
	else
		jk=error
	fi
	cd "$top" || exit 1
}
integrations int-good
for ci in gh gl j; do
	grep -q "downloading .*/$name.tar.gz" "$tmp/int-good/$ci.err" ||
		fail "$ci with release: no download: $(tail -n 3 "$tmp/int-good/$ci.err")"
	[ -d "$tmp/int-good/cache-$ci/perfverdict/$v-$good" ] || fail "$ci with release: not installed"
done
[ $gh -eq 1 ] && grep -qx status=1 "$tmp/int-good/gh-outputs" ||
	fail "github with release: exit $gh, expected 1: $(tail -n 3 "$tmp/int-good/gh.err")"
[ $gl -eq 1 ] || fail "gitlab with release: exit $gl, expected 1: $(tail -n 3 "$tmp/int-good/gl.err")"
[ "$jk" = 1 ] || fail "jenkins with release: exit $jk, expected 1: $(tail -n 3 "$tmp/int-good/j.err")"
cp "$tmp/bad.tar.gz" "$tmp/srv/$name.tar.gz"
integrations int-bad
[ $gh -eq 2 ] && grep -qx status=2 "$tmp/int-bad/gh-outputs" ||
	fail "github, tampered release: exit $gh, expected 2: $(tail -n 3 "$tmp/int-bad/gh.err")"
[ $gl -eq 3 ] || fail "gitlab, tampered release: exit $gl, expected 3"
[ "$jk" = error ] || fail "jenkins, tampered release: $jk, expected the install stage's error"
for ci in gh gl j; do
	grep -q "expected (pinned) $good, got $bad;" "$tmp/int-bad/$ci.err" ||
		fail "$ci, tampered release: the log does not name both sums"
done
[ ! -e "$tmp/ran" ] || fail "a rejected tarball's binary ran"

[ $fails -eq 0 ] && echo "ok: install-perfverdict.sh (install, cache, tampered, wrong/malformed sums, 404; GitHub, GitLab, Jenkins with release)"
[ $fails -eq 0 ]

#!/bin/sh
# shellcheck disable=SC2015
# make release-check: the release's slow tests (a few minutes; root).
#
#   sh tests/release/check.sh [STEP...]   steps: repro chroot deb install qemu image
#
#   repro    two clean clones of HEAD, `make release` for x86_64 and
#            aarch64 in each: dist/ must be the same bytes
#   chroot   the static binary in a minimal Debian 12 with none of its
#            libraries: compare on samples/ and history on samples/history,
#            each report the same as the dynamic build's (PV_BIN) on this host
#   deb      the .deb installs there with dpkg -i, runs, has its man page
#            where man finds it, and uninstalls leaving nothing
#   install  ci/scripts/install-perfverdict.sh on dist/ served from
#            127.0.0.1, with the sums of dist/SHA256SUMS; a tampered
#            tarball and a wrong pinned sum fail
#   qemu     the aarch64 binary under qemu-aarch64-static gives the same
#            verdicts on samples/ as the x86_64 one
#   image    ci/Containerfile builds with buildah and runs compare and history
#
# dist/ comes from the first clone of `repro` (or the worktree's dist/ when
# repro is not run).  The chroot is a debootstrap minbase (make, git,
# ca-certificates, as ../shared/tools/fresh-debian.sh makes it), cached in
# PV_RELEASE_BASE (/tmp/perfverdict-release-base); nothing else needs the
# network.  Prints "ok"/"not ok" per check; exit 0 when all passed.
set -u
[ "$(id -u)" = 0 ] || { echo "release-check: needs root (chroot, dpkg)" >&2; exit 2; }
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
PV_BIN=${PV_BIN:-build/perfverdict}
case $PV_BIN in /*) ;; *) PV_BIN=$ROOT/$PV_BIN ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
BASE=${PV_RELEASE_BASE:-/tmp/perfverdict-release-base}
steps=${*:-repro chroot deb install qemu image}
VERSION=$(sed -n 's/^VERSION = //p' Makefile)
tmp=$(mktemp -d /tmp/pv-release-check.XXXXXX)
RUN=$tmp/chroot
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	umount "$RUN/proc" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fails=0
ok() { echo "ok: $*"; }
fail() { echo "not ok: $*"; fails=$((fails + 1)); }
DIST=$ROOT/dist

# --- repro ---------------------------------------------------------------
repro() {
	for c in a b; do
		git clone -q "$ROOT" "$tmp/clone-$c" || { fail "git clone"; return; }
		for arch in x86_64 aarch64; do
			make -C "$tmp/clone-$c" release ARCH=$arch >"$tmp/make-$c-$arch.log" 2>&1 ||
				{ fail "clone $c: make release ARCH=$arch (log below)"; tail -n 20 "$tmp/make-$c-$arch.log"; return; }
		done
	done
	(cd "$tmp/clone-a/dist" && ls) >"$tmp/ls-a"
	(cd "$tmp/clone-b/dist" && ls) >"$tmp/ls-b"
	if ! cmp -s "$tmp/ls-a" "$tmp/ls-b"; then
		fail "repro: the two dist/ hold different files"
	elif [ "$(wc -l <"$tmp/ls-a")" -ne 5 ]; then
		fail "repro: dist/ holds $(wc -l <"$tmp/ls-a") files, expected 2 tarballs, 2 .debs, SHA256SUMS"
	else
		same=1
		while read -r f; do
			cmp -s "$tmp/clone-a/dist/$f" "$tmp/clone-b/dist/$f" || { same=0; fail "repro: $f differs"; }
		done <"$tmp/ls-a"
		[ $same = 1 ] && ok "repro: two clones' dist/ are the same bytes ($(tr '\n' ' ' <"$tmp/ls-a"))"
	fi
	(cd "$tmp/clone-a/dist" && sha256sum -c --quiet SHA256SUMS) || fail "repro: SHA256SUMS does not check"
	DIST=$tmp/clone-a/dist
}

# --- the chroot ------------------------------------------------------------
make_base() {
	[ -f "$BASE/.done" ] && return 0
	command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
		{ fail "cannot install debootstrap"; return 1; }
	mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
	rm -rf "$BASE"
	debootstrap --variant=minbase --include=make,git,ca-certificates bookworm "$BASE" "$mirror" \
		>"$tmp/debootstrap.log" 2>&1 || { fail "debootstrap (log: $tmp/debootstrap.log)"; cat "$tmp/debootstrap.log"; return 1; }
	cp /etc/apt/sources.list.d/debian.sources "$BASE/etc/apt/sources.list.d/" 2>/dev/null
	rm -f "$BASE"/var/cache/apt/archives/*.deb
	touch "$BASE/.done"
}

fresh_chroot() {
	umount "$RUN/proc" 2>/dev/null
	rm -rf "$RUN"
	make_base || return 1
	cp -a "$BASE" "$RUN"
	mount -t proc proc "$RUN/proc"
}

chroot_run() {
	chroot "$RUN" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C HOME=/root /bin/sh -c "$1"
}

# report BIN ROOT DIR: compare and history reports of samples/ under ROOT
# (/ or the chroot), run as BIN (a path inside ROOT), into ROOT/DIR.
reports() {
	bin=$1 root=$2 dir=$3
	mkdir -p "$root$dir"
	cp -R "$ROOT/samples" "$root$dir/samples"
	cmd="cd $dir && $bin compare -c samples/netperf/perf.conf -s netperf samples/netperf/baseline samples/netperf/candidate --json compare.json --markdown compare.md >compare.out 2>&1; echo \$? >compare.rc;
		$bin history -c samples/history/perf.conf samples/history/archive --json history.json >history.out 2>&1; echo \$? >history.rc"
	if [ "$root" = / ]; then sh -c "$cmd"; else chroot_run "$cmd"; fi
}

# same_reports A B: the two report sets agree (generated_at aside).
same_reports() {
	for f in compare.rc history.rc compare.md compare.out history.out; do
		cmp -s "$1/$f" "$2/$f" || { echo "$f differs"; diff "$1/$f" "$2/$f" | head -n 5; return 1; }
	done
	for f in compare.json history.json; do
		grep -v '"generated_at"' "$1/$f" >"$tmp/x"
		grep -v '"generated_at"' "$2/$f" >"$tmp/y"
		cmp -s "$tmp/x" "$tmp/y" || { echo "$f differs"; return 1; }
	done
}

chroot_step() {
	fresh_chroot || return
	tar="$DIST/perfverdict-$VERSION-linux-x86_64.tar.gz"
	[ -f "$tar" ] || { fail "chroot: no $tar (make release)"; return; }
	libs=$(cd "$RUN/usr/lib/x86_64-linux-gnu" && echo libgsl* libjansson* libxml2* libinih* libicu* |
		tr ' ' '\n' | grep -v '\*$' | tr '\n' ' ')
	[ -z "$libs" ] || { fail "chroot: the base has $libs"; return; }
	tar -xzf "$tar" -C "$RUN/opt"
	bin=/opt/perfverdict-$VERSION-linux-x86_64/perfverdict
	v=$(chroot_run "$bin --version") || { fail "chroot: --version failed: $v"; return; }
	reports "$bin" "$RUN" /root/r
	reports "$PV_BIN" / "$tmp/host"
	c=$(cat "$RUN/root/r/compare.rc") h=$(cat "$RUN/root/r/history.rc")
	if [ "$c" = 1 ] && [ "$h" = 1 ] && msg=$(same_reports "$RUN/root/r" "$tmp/host"); then
		ok "chroot: static binary ($v) without GSL, jansson, libxml2, inih or ICU: compare exit $c, history exit $h, reports as the dynamic build's"
	else
		fail "chroot: compare exit $c, history exit $h (both 1 expected: the samples regress); $msg"
		head -n 5 "$RUN/root/r/compare.out" "$RUN/root/r/history.out"
	fi
}

deb_step() {
	before=$fails
	fresh_chroot || return
	deb="$DIST/perfverdict_${VERSION}_amd64.deb"
	[ -f "$deb" ] || { fail "deb: no $deb (make release)"; return; }
	cp "$deb" "$RUN/root/"
	if ! out=$(chroot_run "dpkg -i /root/${deb##*/}" 2>&1); then
		fail "deb: dpkg -i: $out"
		return
	fi
	v=$(chroot_run "perfverdict --version" 2>&1)
	case $v in
	"perfverdict $VERSION (commit "[0-9a-f]*")") ;;
	*) fail "deb: perfverdict --version printed '$v'" ;;
	esac
	man=$(man --manpath="$RUN/usr/share/man" -w perfverdict 2>/dev/null)
	[ "$man" = "$RUN/usr/share/man/man1/perfverdict.1.gz" ] || fail "deb: man does not find the page ('$man')"
	reports perfverdict "$RUN" /root/r
	reports "$PV_BIN" / "$tmp/host-deb"
	msg=$(same_reports "$RUN/root/r" "$tmp/host-deb") || fail "deb: reports differ from the dynamic build's: $msg"
	files=$(chroot_run "dpkg -L perfverdict" | grep -E 'perfverdict(\.1\.gz)?$' | tr '\n' ' ')
	chroot_run "dpkg -r perfverdict" >/dev/null 2>&1 || fail "deb: dpkg -r failed"
	left=$(cd "$RUN" && ls usr/bin/perfverdict usr/share/man/man1/perfverdict.1.gz usr/share/doc/perfverdict 2>/dev/null)
	[ -z "$left" ] || fail "deb: left after dpkg -r: $left"
	[ $fails -eq "$before" ] && ok "deb: dpkg -i, $v, man -w finds it, compare and history as the dynamic build, dpkg -r leaves nothing ($files)"
}

install_step() {
	sums=$DIST/SHA256SUMS
	name=perfverdict-$VERSION-linux-$(uname -m)
	want=$(awk -v f="$name.tar.gz" '$2 == f { print $1 }' "$sums")
	[ -n "$want" ] || { fail "install: $name.tar.gz not in $sums"; return; }
	mkdir -p "$tmp/srv"
	cp "$DIST"/* "$tmp/srv/"
	"$PYTHON" -c '
import functools, http.server, os, sys
class Q(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), functools.partial(Q, directory=sys.argv[1]))
open(sys.argv[2] + ".t", "w").write(str(s.server_address[1])); os.rename(sys.argv[2] + ".t", sys.argv[2])
s.serve_forever()' "$tmp/srv" "$tmp/port" 2>/dev/null &
	server=$!
	i=0
	while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	url=http://127.0.0.1:$(cat "$tmp/port")
	start=$(date +%s.%N)
	d=$(PERFVERDICT_RELEASE_URL=$url PERFVERDICT_TOOL_CACHE=$tmp/cache1 GITHUB_PATH='' \
		sh ci/scripts/install-perfverdict.sh "$VERSION" "$(uname -m)=$want" 2>"$tmp/err") &&
		v=$("$d/perfverdict" --version)
	st=$?
	end=$(date +%s.%N)
	if [ $st -eq 0 ]; then
		ok "install: $v from $url in $(awk "BEGIN { printf \"%.2f\", $end - $start }") s (empty tool cache, script to --version)"
	else
		fail "install: exit $st: $(cat "$tmp/err")"
	fi
	# Tampered: one byte of the served tarball changed.
	printf 'X' | dd of="$tmp/srv/$name.tar.gz" bs=1 seek=1000 conv=notrunc 2>/dev/null
	got=$(sha256sum "$tmp/srv/$name.tar.gz" | cut -d' ' -f1)
	PERFVERDICT_RELEASE_URL=$url PERFVERDICT_TOOL_CACHE=$tmp/cache2 GITHUB_PATH='' \
		sh ci/scripts/install-perfverdict.sh "$VERSION" "$(uname -m)=$want" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -eq 3 ] && grep -q "expected (pinned) $want, got $got;" "$tmp/err" &&
		[ -z "$(ls -A "$tmp/cache2/perfverdict")" ]; then
		ok "install: tampered tarball refused: $(tail -n 1 "$tmp/err" | cut -c1-100)..."
	else
		fail "install: tampered tarball: exit $st: $(cat "$tmp/err")"
	fi
	cp "$DIST/$name.tar.gz" "$tmp/srv/"
	wrong=$(printf '%s' "$want" | tr 0-9a-f 1-9a-f0)
	PERFVERDICT_RELEASE_URL=$url PERFVERDICT_TOOL_CACHE=$tmp/cache3 GITHUB_PATH='' \
		sh ci/scripts/install-perfverdict.sh "$VERSION" "$(uname -m)=$wrong" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -eq 3 ] && grep -q "expected (pinned) $wrong, got $want;" "$tmp/err"; then
		ok "install: wrong pinned sum refused (exit 3, both sums named)"
	else
		fail "install: wrong pinned sum: exit $st: $(cat "$tmp/err")"
	fi
}

qemu_step() {
	q=$(command -v qemu-aarch64-static) || { fail "qemu: qemu-aarch64-static is not installed (ci/scripts/install-deps.sh --release aarch64)"; return; }
	for a in x86_64 aarch64; do
		tar="$DIST/perfverdict-$VERSION-linux-$a.tar.gz"
		[ -f "$tar" ] || { fail "qemu: no $tar (make release ARCH=$a)"; return; }
		mkdir -p "$tmp/q-$a"
		tar -xzf "$tar" -C "$tmp/q-$a"
	done
	a64=$tmp/q-aarch64/perfverdict-$VERSION-linux-aarch64/perfverdict
	x64=$tmp/q-x86_64/perfverdict-$VERSION-linux-x86_64/perfverdict
	file "$a64" | grep -q 'ARM aarch64.*statically linked' || { fail "qemu: $(file "$a64")"; return; }
	v=$("$q" "$a64" --version) || { fail "qemu: --version failed"; return; }
	bad=
	for s in netperf kernbench gbench catch2 jmh pyperf hyperfine gobench pytest criterion; do
		args="samples/$s/baseline samples/$s/candidate"
		[ -f "samples/$s/perf.conf" ] && args="-c samples/$s/perf.conf -s $s $args"
		# shellcheck disable=SC2086
		"$q" "$a64" compare $args --json "$tmp/a.json" >/dev/null 2>&1
		sa=$?
		# shellcheck disable=SC2086
		"$x64" compare $args --json "$tmp/x.json" >/dev/null 2>&1
		sx=$?
		# The verdicts and the summary; the last bits of a double may differ
		# (aarch64 contracts a*b+c into one rounding).
		"$PYTHON" -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
pick = lambda r: (r["summary"], r["verdict"], [(m["id"], m["verdict"]) for m in r["metrics"]])
sys.exit(pick(a) != pick(b))' "$tmp/a.json" "$tmp/x.json" && [ $sa = $sx ] || bad="$bad $s"
	done
	"$q" "$a64" history -c samples/history/perf.conf samples/history/archive --json "$tmp/ha.json" >/dev/null 2>&1
	ha=$?
	"$x64" history -c samples/history/perf.conf samples/history/archive --json "$tmp/hx.json" >/dev/null 2>&1
	hx=$?
	[ $ha = $hx ] || bad="$bad history($ha/$hx)"
	if [ -z "$bad" ]; then
		ok "qemu: aarch64 binary ($v) under qemu-user: compare on 10 sample sets and history, verdicts as x86_64's"
	else
		fail "qemu: the aarch64 verdicts differ on:$bad"
	fi
}

# image: ci/Containerfile built with buildah (Debian's; vfs storage, chroot
# isolation: no registry is needed) on a base imported from the chroot
# tree, then compare and history run in it.
image_step() {
	command -v buildah >/dev/null || { fail "image: buildah is not installed (apt-get install buildah crun)"; return; }
	make_base || return
	B="buildah --storage-driver vfs"
	base=localhost/perfverdict-check-base
	if ! $B inspect "$base" >/dev/null 2>&1; then
		c=$($B from scratch) && m=$($B mount "$c") && cp -a "$BASE/." "$m/" &&
			$B umount "$c" >/dev/null && $B commit -q "$c" "$base" >/dev/null && $B rm "$c" >/dev/null ||
			{ fail "image: cannot make the base image"; return; }
	fi
	$B bud --isolation chroot -f ci/Containerfile --build-arg VERSION="$VERSION" \
		--build-arg BASE="$base" -t localhost/perfverdict-check "$DIST" >"$tmp/bud.log" 2>&1 ||
		{ fail "image: buildah bud failed"; tail -n 10 "$tmp/bud.log"; return; }
	c=$($B from localhost/perfverdict-check) || { fail "image: buildah from"; return; }
	out=$($B run --isolation chroot -v "$ROOT/samples:/w:ro" "$c" -- sh -c 'perfverdict --version; cd /w &&
		perfverdict compare -c netperf/perf.conf -s netperf netperf/baseline netperf/candidate >/dev/null 2>&1; echo "compare $?";
		perfverdict history -c history/perf.conf history/archive >/dev/null 2>&1; echo "history $?"' 2>&1)
	$B rm "$c" >/dev/null
	$B rmi localhost/perfverdict-check >/dev/null 2>&1
	case $out in
	"perfverdict $VERSION (commit "*")
compare 1
history 1") ok "image: ci/Containerfile builds (buildah) and runs compare and history: $(echo "$out" | head -n 1)" ;;
	*) fail "image: $out" ;;
	esac
}

for s in $steps; do
	case $s in
	repro) repro ;;
	chroot) chroot_step ;;
	deb) deb_step ;;
	install) install_step ;;
	qemu) qemu_step ;;
	image) image_step ;;
	*) echo "release-check: no step '$s'" >&2; exit 2 ;;
	esac
done
echo "release-check: $fails failed"
[ $fails -eq 0 ]

#!/bin/sh
# tests/determinism.sh - the same inputs give byte-identical output.
#
# Two comparisons (the netperf sample with its perf.conf, and a catch-all
# run over a tree mixing RHS, CSV and Google Benchmark files) are run once
# as the reference; then every variation below must reproduce the exit
# status, stdout, stderr and all three reports byte for byte:
#   - the same run twice more;
#   - the trees rebuilt elsewhere with their files and directories created
#     in reverse order (the runs use the same relative paths);
#   - readdir order reversed and shuffled with three seeds by an LD_PRELOAD
#     shim (tests/lib/shuffle_readdir.c, built here).  On ext4, readdir order
#     is a hash of the name and creation order changes nothing, so the
#     shim is what really varies it; the test checks it was in use;
#   - LC_ALL=de_DE.UTF-8 (LANG and LC_NUMERIC too) with TZ=Asia/Tokyo.  The
#     locale is generated with localedef into a private LOCPATH when the
#     system does not have it; that needs the `locales` package (installed
#     here with apt-get when running as root).  The test makes sure the
#     locale is live (Python formats 1.5 as "1,5" under it).
# And generated_at honours SOURCE_DATE_EPOCH (0 and 1764460800).
#   PV_BIN (build/perfverdict), PYTHON (python3), CC (cc)
. "$(dirname "$0")/lib/test-lib.sh"
unset LANG LC_NUMERIC LC_CTYPE TZ
case $PV_BIN in /*) ;; *) PV_BIN=$ROOT/$PV_BIN ;; esac
CC=${CC:-cc}
NO_COLOR=1
export NO_COLOR
# An LD_PRELOAD library goes before the ASan runtime (SANITIZE builds).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

fail=0
problem() { bad "$@"; }

# copy SRC DST [reverse]: recreate a tree file by file, in sorted or
# reverse-sorted order of the paths.
copy() {
	order=""
	[ "${3:-}" = reverse ] && order=-r
	mkdir -p "$2"
	(cd "$1" && find . -type d | LC_ALL=C sort $order) | while IFS= read -r d; do
		mkdir -p "$2/$d"
	done
	(cd "$1" && find . -type f | LC_ALL=C sort $order) | while IFS= read -r f; do
		cp "$1/$f" "$2/$f"
	done
}

# build DIR [reverse]: the two comparisons' inputs under DIR.
build() {
	copy "$ROOT/samples/netperf/baseline" "$1/netperf/base" "${2:-}"
	copy "$ROOT/samples/netperf/candidate" "$1/netperf/cand" "${2:-}"
	cp "$ROOT/samples/netperf/perf.conf" "$1/netperf/perf.conf"
	for side in base cand; do
		src=baseline
		[ $side = cand ] && src=candidate
		copy "$ROOT/samples/gbench/$src" "$1/mixed/$side/gbench" "${2:-}"
		copy "$ROOT/samples/kernbench/$src" "$1/mixed/$side/kernbench" "${2:-}"
		for r in 3 1 2; do
			mkdir -p "$1/mixed/$side/rhs/repeat$r"
			printf 'Category:X\nk|a|b\nx|1%s|2%s\ny|3%s|4%s\n' $r $r $r $r \
				>"$1/mixed/$side/rhs/repeat$r/t.RHS"
		done
	done
}

# run DIR TAG [env...]: both comparisons in DIR; results in $tmp/res/TAG.
run() {
	dir=$1 tag=$2
	shift 2
	res=$tmp/res/$tag
	mkdir -p "$res/netperf" "$res/mixed"
	(cd "$dir/netperf" && env SOURCE_DATE_EPOCH=1764460800 "$@" \
		"$PV_BIN" compare -c perf.conf -s netperf base cand \
		--json "$res/netperf/r.json" --junit "$res/netperf/r.xml" \
		--markdown "$res/netperf/r.md" >"$res/netperf/stdout" \
		2>"$res/netperf/stderr"; echo $? >"$res/netperf/status")
	(cd "$dir/mixed" && env SOURCE_DATE_EPOCH=1764460800 "$@" \
		"$PV_BIN" compare base cand --json "$res/mixed/r.json" \
		--junit "$res/mixed/r.xml" --markdown "$res/mixed/r.md" \
		>"$res/mixed/stdout" 2>"$res/mixed/stderr"; \
		echo $? >"$res/mixed/status")
	# The terminal summary, too (its own run: reports replace it).
	(cd "$dir/netperf" && env SOURCE_DATE_EPOCH=1764460800 "$@" \
		"$PV_BIN" compare -c perf.conf -s netperf base cand \
		>"$res/netperf/summary" 2>&1)
}

same() {  # same TAG: TAG's results equal the reference
	if ! diff -r "$tmp/res/ref" "$tmp/res/$1" >"$tmp/diff" 2>&1; then
		problem "$1 differs from the reference:"
		head -n 20 "$tmp/diff"
	fi
}

build "$tmp/a"
build "$tmp/b" reverse
run "$tmp/a" ref
for s in netperf mixed; do
	st=$(cat "$tmp/res/ref/$s/status")
	[ "$st" -le 1 ] || problem "the $s reference run failed with status $st: $(head -n 3 "$tmp/res/ref/$s/stderr")"
	[ -s "$tmp/res/ref/$s/r.json" ] || problem "the $s reference wrote no JSON"
done
grep -q '"format"' "$tmp/res/ref/mixed/r.json" || problem "mixed: no JSON report"

run "$tmp/a" again1
same again1
run "$tmp/a" again2
same again2
run "$tmp/b" reverse-created
same reverse-created

# readdir order: reversed, then three shuffles.
if $CC -shared -fPIC -o "$tmp/shuffle.so" "$ROOT/tests/lib/shuffle_readdir.c" -ldl; then
	for seed in 0 1 2 3; do
		: >"$tmp/shuffle.log"
		run "$tmp/a" "readdir-$seed" LD_PRELOAD="$tmp/shuffle.so" \
			PV_SHUFFLE_SEED=$seed PV_SHUFFLE_LOG="$tmp/shuffle.log"
		[ -s "$tmp/shuffle.log" ] ||
			problem "readdir-$seed: the shim was not used"
		same "readdir-$seed"
	done
else
	problem "cannot build tests/lib/shuffle_readdir.c with $CC"
fi

# de_DE.UTF-8: from the system, or generated into a private LOCPATH.
locpath=""
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$'; then
	if [ ! -f /usr/share/i18n/locales/de_DE ] && [ "$(id -u)" = 0 ] &&
	   command -v apt-get >/dev/null 2>&1; then
		echo "determinism: installing the locales package"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends locales >/dev/null 2>&1 ||
		{ DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends locales >/dev/null 2>&1; }
	fi
	locpath=$tmp/locale
	mkdir -p "$locpath"
	localedef -i de_DE -f UTF-8 "$locpath/de_DE.UTF-8" >/dev/null 2>&1
fi
de_env="LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 LC_NUMERIC=de_DE.UTF-8 TZ=Asia/Tokyo"
[ -z "$locpath" ] || de_env="LOCPATH=$locpath $de_env"
# shellcheck disable=SC2086
live=$(env $de_env "$PYTHON" -c '
import locale
locale.setlocale(locale.LC_ALL, "")
print(locale.format_string("%.1f", 1.5))' 2>/dev/null)
if [ "$live" != "1,5" ]; then
	problem "cannot use de_DE.UTF-8 (got '$live'): install the locales package (localedef and /usr/share/i18n/locales/de_DE)"
else
	# shellcheck disable=SC2086
	run "$tmp/a" de_DE $de_env
	same de_DE
fi

# generated_at follows SOURCE_DATE_EPOCH, in UTC whatever TZ says.
for pair in 0:1970-01-01T00:00:00Z 1764460800:2025-11-30T00:00:00Z; do
	epoch=${pair%%:*} want=${pair#*:}
	(cd "$tmp/a/netperf" && SOURCE_DATE_EPOCH=$epoch TZ=America/New_York \
		"$PV_BIN" compare -c perf.conf -s netperf base cand \
		--json "$tmp/sde.json" --markdown "$tmp/sde.md" >/dev/null 2>&1)
	got=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["generated_at"])' "$tmp/sde.json" 2>&1)
	[ "$got" = "$want" ] ||
		problem "SOURCE_DATE_EPOCH=$epoch: generated_at is '$got', expected '$want'"
	grep -q "$want" "$tmp/sde.md" ||
		problem "SOURCE_DATE_EPOCH=$epoch: the Markdown does not show $want"
done

if [ $fail -eq 0 ]; then
	echo "determinism: identical over repeated runs, reverse-created trees, 4 readdir orders and de_DE.UTF-8; SOURCE_DATE_EPOCH honoured"
fi
exit $fail

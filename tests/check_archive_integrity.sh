#!/bin/sh
# Hostile and broken archive inputs (issue 37), each a defect of 75655ec:
# a gzip bomb stops at [limits] max_inflated_size and jansson's own out
# of memory is exit 4; every gzip member is read and trailing bytes are
# refused; data.js times outside 1970-9999 and ISO times with blanks are
# errors; --save-points names points with [0-9A-Za-z._-] only, tells
# colliding ones apart, writes all of them or none, in linear time.
. "$(dirname "$0")/lib/test-lib.sh"
case $PV_BIN in /*) ;; *) PV_BIN=$PWD/$PV_BIN ;; esac

# points DIR N [VALUE]: three points; the first has N samples of VALUE
# (a long array of small elements: the worst text-to-memory ratio).
points() {
	"$PYTHON" tests/lib/integrity_bomb_points.py "$@"
}

# 1. A 100 MB-inflated point (about 100 KB of gzip) stops at the limit,
# naming the key that raises it; a raised limit reads it.
points "$tmp/bomb" 50000000
expect_exit gzip-bomb 3 "c1.json.gz: inflates past max_inflated_size \(8388608 bytes\); raise \[limits\] max_inflated_size to read it \[too-large\]" \
	"$PV_BIN" history "$tmp/bomb"
points "$tmp/p5" 2500000
printf '[limits]\nmax_inflated_size = 4M\n' >"$tmp/4m.conf"
expect_exit inflated-4M 3 "max_inflated_size \(4194304 bytes\)" "$PV_BIN" history -c "$tmp/4m.conf" "$tmp/p5"
printf '[limits]\nmax_inflated_size = 64M\n' >"$tmp/64m.conf"
expect_exit inflated-raised 0 "" "$PV_BIN" history -c "$tmp/64m.conf" "$tmp/p5"
printf '[limits]\nmax_inflated_size = lots\n' >"$tmp/bad.conf"
expect_exit inflated-bad-value 2 "max_inflated_size" "$PV_BIN" history -c "$tmp/bad.conf" "$tmp/p5"
# jansson out of memory (60 MB of text needs ~1.7 GB parsed, under a
# 600 MB address space) is exit 4, out-of-memory, never malformed-json.
# Sanitizer builds reserve more address space than any ulimit allows.
if (ulimit -v 600000 && "$PV_BIN" --version) >/dev/null 2>&1; then
	points "$tmp/big" 30000000
	expect_exit json-oom 4 "c1.json.gz: out of memory while parsing its JSON \[out-of-memory\]" \
		sh -c 'ulimit -v 600000; exec "$@"' sh "$PV_BIN" history -c "$tmp/64m.conf" "$tmp/big"
	grep -q malformed "$tmp/err" && bad "json-oom: reported as malformed: $(cat "$tmp/err")"
else
	echo "check_archive_integrity: skip the out-of-memory case (ulimit -v does not apply to this build)"
fi

# 2. gzip: two members (cat a.gz b.gz) read as gunzip -c does; trailing
# bytes that are no member are refused by name.
points "$tmp/gz" 5
f=$tmp/gz/2026-01-01T000000Z-c1.json.gz
gzip -dc "$f" >"$tmp/whole"
head -c 100 "$tmp/whole" | gzip -n >"$tmp/m1"
tail -c +101 "$tmp/whole" | gzip -n >"$tmp/m2"
cat "$tmp/m1" "$tmp/m2" >"$f"
gzip -dc "$f" | cmp -s - "$tmp/whole" || bad "gzip: the two-member file is not what gunzip reads"
expect_exit gzip-two-members 0 "" "$PV_BIN" history "$tmp/gz" --json "$tmp/gz.json"
"$PYTHON" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r["points"]) == 3' "$tmp/gz.json" ||
	bad "gzip-two-members: not 3 points"
{ cat "$tmp/m1" "$tmp/m2"; printf 'garbage'; } >"$f"
expect_exit gzip-trailing 3 "c1.json.gz: trailing data after the gzip data at byte [0-9]+: expected another gzip member or the end of the file \[bad-gzip\]" \
	"$PV_BIN" history "$tmp/gz"
# pyperf's .json.gz in a compare tree goes through the same reader.
mkdir -p "$tmp/py/a" "$tmp/py/b"
printf '{"version":"1.0","benchmarks":[{"runs":[{"values":[1.0,1.1,1.2]}],"metadata":{"name":"x","unit":"second"}}],"metadata":{}}' >"$tmp/py.json"
head -c 40 "$tmp/py.json" | gzip -n >"$tmp/py/a/r.json.gz"
tail -c +41 "$tmp/py.json" | gzip -n >>"$tmp/py/a/r.json.gz"
cp "$tmp/py/a/r.json.gz" "$tmp/py/b/r.json.gz"
expect_exit pyperf-two-members 0 "" "$PV_BIN" compare -f pyperf "$tmp/py/a" "$tmp/py/b"

# 3. data.js times: 1e300 ms (undefined behaviour as a time_t), -1e15 and
# 9.2e18 ms (points named -29719-... and 291538364-...), a timestamp of
# year 10000: an error at the entry.  The last date in range is read.
for d in 1e300 -1e15 9.2e18; do
	"$PYTHON" tests/lib/datajs.py "$tmp/d.js" 5 @1767225600000 @1767229200000 @$d @1767232800000 @1767236400000
	expect_exit "date-$d" 3 "d.js: entries\[\"s\"\]\[2\]\.date: .* ms is outside 1970-01-01 to 9999-12-31: expected the run's time in milliseconds since 1970 \[bad-structure\]" \
		"$PV_BIN" history --save-points "$tmp/dates" "$tmp/d.js"
	[ -e "$tmp/dates" ] && bad "date-$d: points were written" && rm -rf "$tmp/dates"
done
"$PYTHON" tests/lib/datajs.py "$tmp/d.js" 5 =2026-01-01T00:00:00Z =2026-01-02T00:00:00Z =10000-01-01T00:00:00Z
expect_exit timestamp-10000 3 "entries\[\"s\"\]\[2\]\.commit\.timestamp: .* \[bad-structure\]|entries\[\"s\"\]\[2\]: expected commit.timestamp" \
	"$PV_BIN" history "$tmp/d.js"
"$PYTHON" tests/lib/datajs.py "$tmp/d.js" 4 @1767225600000 @1767229200000 @253402300799000 @1767232800000
expect_exit date-9999 0 "" "$PV_BIN" history --save-points "$tmp/d9999" "$tmp/d.js"
ls "$tmp/d9999" | grep -q '^9999-12-31T235959Z-' || bad "date-9999: no point of 9999-12-31: $(ls "$tmp/d9999")"

# 4. A point's time with blanks (strptime skips them) is refused.
points "$tmp/tw" 5
for t in ' 2026-01-01T00:00:00Z' '2026-01- 1T00:00:00Z'; do
	f=$tmp/tw/2026-01-01T000000Z-c1.json.gz
	gzip -dc "$f" | sed "s/\"time\":\"[^\"]*\"/\"time\":\"$t\"/" | gzip -n >"$tmp/t.gz" && mv "$tmp/t.gz" "$f"
	expect_exit "time-blank '$t'" 3 "c1.json.gz: time: expected an ISO 8601 UTC time" "$PV_BIN" history "$tmp/tw"
done

# Hostile commit ids: every point name holds [0-9A-Za-z._-] only, and
# each is distinct (the last two collide on time and short id).
"$PYTHON" tests/lib/integrity_hostile_datajs.py "$tmp/hostile.js"
mkdir "$tmp/hw" && cd "$tmp/hw" || exit 1
expect_exit hostile-names 0 "" "$PV_BIN" history --save-points pts "$tmp/hostile.js"
cd - >/dev/null || exit 1
[ -e "$tmp/hw/pwned" ] && bad "hostile-names: a command in a commit id ran"
n=$(ls -A "$tmp/hw/pts" | wc -l)
[ "$n" -eq 10 ] || bad "hostile-names: $n points, expected 10: $(ls -A "$tmp/hw/pts")"
ls -A "$tmp/hw/pts" | LC_ALL=C grep -v '^[0-9A-Za-z._-]*$' >"$tmp/unsafe" &&
	bad "hostile-names: unsafe names: $(cat "$tmp/unsafe")"
ls -A "$tmp/hw" | grep -v '^pts$' >"$tmp/extra" && bad "hostile-names: left beside the points: $(cat "$tmp/extra")"
"$PYTHON" tests/lib/integrity_hostile_points_order.py "$tmp/hw/pts" || bad "hostile-names: the points do not keep their commits, or are out of order"
expect_exit hostile-reread 0 "" "$PV_BIN" history "$tmp/hw/pts"

# 5. All or nothing: an import into a directory that already holds one
# of the names writes none of the others; a clean one writes them all.
"$PYTHON" tests/lib/datajs.py "$tmp/twelve.js" 12
"$PV_BIN" history --save-points "$tmp/all" "$tmp/twelve.js" >/dev/null 2>&1
[ "$(ls "$tmp/all" | wc -l)" -eq 12 ] || bad "twelve: $(ls "$tmp/all" | wc -l) points, expected 12"
mkdir "$tmp/some"
cp "$tmp/all/$(ls "$tmp/all" | sed -n 9p)" "$tmp/some/"
expect_exit import-collides 2 "exists: a second import, or a point already in the archive \(nothing was imported\)" \
	"$PV_BIN" history --save-points "$tmp/some" "$tmp/twelve.js"
[ "$(ls -A "$tmp/some" | wc -l)" -eq 1 ] || bad "import-collides: $(ls -A "$tmp/some" | wc -l) files, expected the 1 that was there"
ls -A "$tmp" | grep -q import- && bad "import-collides: a temporary directory was left: $(ls -A "$tmp")"
# A point with no time (a tree archive, ordered by name) stops the import
# before anything is written.
mkdir -p "$tmp/trees"
for i in 1 2 3; do mkdir "$tmp/trees/000$i"; printf 'benchmark,value\nb,%s\n' 1 >"$tmp/trees/000$i/r.csv"; done
"$PV_BIN" history --save-points "$tmp/none" "$tmp/trees" >/dev/null 2>&1
[ -e "$tmp/none" ] && bad "no-time import: '$tmp/none' was created: $(ls -A "$tmp/none")"

# 6. Linear: --save-points over 6,000 commits of 20 benches takes less
# extra CPU than reading them (75655ec: 2.3 s extra against 0.4 s, a
# scan of every metric for each point).
DATAJS_BENCHES=20 "$PYTHON" tests/lib/datajs.py "$tmp/big.js" 6000
"$PYTHON" tests/lib/integrity_save_points_linear.py "$PV_BIN" "$tmp/big.js" "$tmp/bigpts" || bad "save-points is not linear"

# 7. A point whose runs overflow a double (1e308, 1e308, -1e308) is no
# "unchanged" metric with a null mean: history names it as an error;
# compare makes the metric insufficient, saying why.
mkdir "$tmp/ov"
"$PYTHON" tests/lib/integrity_overflow_points.py "$tmp/ov"
expect_exit overflow-history 3 "point 'p9' of archive '.*/ov': metric 'b/m': the mean or standard deviation of its 3 runs overflows a double.*\[not-finite\]" \
	"$PV_BIN" history "$tmp/ov"
for v in "1e308 1e308 -1e308" "1e308 -1e308 1e308"; do
	rm -rf "$tmp/ca" "$tmp/cb"
	i=0
	for x in $v; do
		i=$((i + 1))
		mkdir -p "$tmp/ca/r$i" "$tmp/cb/r$i"
		printf 'benchmark,value\nb,1.%s\nc,2.%s\n' $i $i >"$tmp/ca/r$i/r.csv"
		printf 'benchmark,value\nb,%s\nc,2.%s\n' "$x" $i >"$tmp/cb/r$i/r.csv"
	done
	printf '[s]\nresult_file_pattern = r.csv$\nrepeat_pattern = r[0-9]\n' >"$tmp/c.conf"
	expect_exit "overflow-compare $v" 0 "" "$PV_BIN" compare -c "$tmp/c.conf" "$tmp/ca" "$tmp/cb" --json "$tmp/c.json"
	"$PYTHON" - "$tmp/c.json" <<'PY' || bad "overflow-compare $v: metric b is not insufficient"
import json, sys
m = {x["benchmark"]: x for x in json.load(open(sys.argv[1]))["metrics"]}
assert m["b"]["verdict"] == "insufficient", m["b"]["verdict"]
assert "overflow a double" in m["b"]["reason"], m["b"]["reason"]
PY
done

# 8. Empty points (a run that wrote a header and no rows, or nothing; a
# point file with no metrics) are left out as gaps, with a warning naming
# them, not the end of the history; [limits] empty_points = error keeps
# the error, worded as a point's.  One empty file among others is still
# empty_files' error.
mkdir "$tmp/ep"
for i in 1 2 3 4 5; do mkdir "$tmp/ep/000$i"; printf 'benchmark,value\nb,1.%s\nb,1.%s1\n' $i $i >"$tmp/ep/000$i/r.csv"; done
printf 'benchmark,value\n' >"$tmp/ep/0003/r.csv"
expect_exit empty-point 0 "point '0003' of archive '.*/ep' holds no results; left out as a gap \[no-results\]" \
	"$PV_BIN" history "$tmp/ep" --json "$tmp/ep.json"
"$PYTHON" -c 'import json,sys; r=json.load(open(sys.argv[1])); assert [p["label"] for p in r["points"]] == ["0001","0002","0004","0005"], r["points"]' \
	"$tmp/ep.json" || bad "empty-point: the points are not the other four"
grep -q "candidate tree" "$tmp/err" && bad "empty-point: a point called a candidate tree: $(cat "$tmp/err")"
rm "$tmp/ep/0003/r.csv"
expect_exit empty-point-no-files 0 "point '0003' of archive '.*/ep' holds no results; left out as a gap" "$PV_BIN" history "$tmp/ep"
printf '[limits]\nempty_points = error\n' >"$tmp/ee.conf"
expect_exit empty-point-error 3 "point '0003' of archive '.*/ep' holds no results: expected the results of a run \(\[limits\] empty_points = warn leaves such a point out as a gap\) \[no-results\]" \
	"$PV_BIN" history -c "$tmp/ee.conf" "$tmp/ep"
printf 'benchmark,value\n' >"$tmp/ep/0003/r.csv"
printf 'benchmark,value\nc,1\n' >"$tmp/ep/0003/s.csv"
expect_exit empty-file-among-others 3 "0003/r.csv: a header but no records.*\[no-results\]" "$PV_BIN" history "$tmp/ep"
mkdir "$tmp/epp"
"$PYTHON" tests/lib/integrity_empty_point.py "$tmp/epp"
expect_exit empty-point-file 0 "point '2026-01-03T000000Z-c2.json.gz' of archive '.*/epp' holds no results; left out as a gap" \
	"$PV_BIN" history "$tmp/epp"

# 9. A benchmark-action candidate is its suite's newest entry by time, as
# history orders them, not the array's last (here an older one).
"$PYTHON" tests/lib/integrity_benchaction_order.py "$tmp/ba.js" "$tmp/bb.js"
"$PYTHON" tests/lib/datajs.py "$tmp/hist.js" 10
"$PV_BIN" compare --baseline-history "$tmp/hist.js" "$tmp/bb.js" --json "$tmp/ba.json" >/dev/null 2>&1
"$PYTHON" -c 'import json,sys; m=[m for m in json.load(open(sys.argv[1]))["metrics"] if m["benchmark"] == "a"][0]; assert m["candidate"]["mean"] == 300, m["candidate"]' \
	"$tmp/ba.json" || bad "benchmark-action: the candidate is not the newest entry by time"

# 10. A symlinked archive entry is said to be a symlink, not followed.
mkdir "$tmp/sl"
for i in 1 2 3 4; do mkdir "$tmp/sl/000$i"; printf 'benchmark,value\nb,1.%s\nb,1.%s1\n' $i $i >"$tmp/sl/000$i/r.csv"; done
ln -s "$tmp/sl/0001" "$tmp/sl/0005"
ln -s "$tmp/ep.json" "$tmp/sl/0006.json"
expect_exit symlink-entry 0 "archive '.*/sl': '0005' is a symbolic link, which history does not follow; left out \[not-a-point\]" \
	"$PV_BIN" history "$tmp/sl"
grep -q "'0006.json' is a symbolic link" "$tmp/err" || bad "symlink-entry: 0006.json is not named as a symbolic link: $(cat "$tmp/err")"


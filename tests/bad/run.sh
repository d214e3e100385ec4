#!/bin/sh
# tests/bad/run.sh - the hostile-input suite (issue 5).
#
# Each case builds its input in a fresh directory (large inputs are
# generated here, never committed), runs perfverdict under `timeout` and
# checks:
#   - the exit status and a substring of stderr;
#   - stderr: for an error (2, 3) exactly one "perfverdict: error: ..."
#     line, last, after any "perfverdict: warning: ..." lines (usage
#     errors too); otherwise
#     only warnings; always printable UTF-8 with no control characters,
#     no sanitizer report, no crash, no hang;
#   - stdout: printable UTF-8 (no escape sequence from a name gets out);
#   - no partial reports: every case starts with old reports in out/;
#     after a failure they are byte for byte unchanged and no temporary
#     file (".NAME.XXXXXX") is left anywhere in the case directory;
#   - `runr` cases ask for all three reports; when they succeed, the JSON
#     is valid JSON and valid against the schema (tests/lib/validate_json.py),
#     the JUnit is well-formed (xmllint) and valid against
#     schemas/junit.xsd, and the Markdown tables keep their cell counts.
#
# Environment:
#   PV_BIN          the binary (build/perfverdict)
#   PV_BUILD        the build directory, for the fuzz replay driver (build)
#   PV_WRAP         a command to run perfverdict under (e.g. valgrind)
#   PV_BAD_TIMEOUT  seconds allowed per case (10)
#   PV_BAD_ONLY     run only the cases whose name contains this
#   PV_BAD_KEEP     keep the temporary directory (for a look at a case)
#   PYTHON          python3
# A case marked `known_bug` documents a bug in a module this suite does
# not own: its failure is reported as "xfail" and does not fail the
# suite (and "XPASS" says when the mark can go).  Crash inputs of the
# fuzzers named known-bug-* are replayed the same way.
# The last line is "bad: N passed, M failed, K skipped, X known bugs";
# the exit status is 0 only when nothing failed.
TL_KEEP=${PV_BAD_KEEP:-}
. "$(dirname "$0")/../lib/test-lib.sh"
NO_COLOR=1
SOURCE_DATE_EPOCH=1764460800
export NO_COLOR SOURCE_DATE_EPOCH
case $PV_BIN in /*) ;; *) PV_BIN=$ROOT/$PV_BIN ;; esac
case $PV_BUILD in /*) ;; *) PV_BUILD=$ROOT/$PV_BUILD ;; esac
TIMEOUT=${PV_BAD_TIMEOUT:-10}
WRAP=${PV_WRAP:-}
ONLY=${PV_BAD_ONLY:-}
CHECK="$PYTHON $ROOT/tests/bad/check_output.py"

# The unreadable-file cases run as nobody when we are root.
chmod 755 "$tmp"

pass=0
fail=0
skip=0
xfail=0
name=""
active=0

# ---- the case machinery ------------------------------------------------

# t NAME STATUS SUBSTRING: start a case in a fresh directory $tmp/w.
t() {
	name=$1 want=$2 sub=$3
	active=1
	post=""
	known=""
	if [ -n "$ONLY" ]; then
		case $name in *"$ONLY"*) ;; *) active=0 ;; esac
	fi
	cd "$tmp" || exit 2
	chmod -R u+rwx w 2>/dev/null
	rm -rf w
	mkdir w || exit 2
	cd w || exit 2
	mkdir out
	for f in r.json r.md r.xml; do
		echo "old report $f" >"out/$f"
	done
}

# known_bug WHAT: the current case shows a bug in another module.
known_bug() { known=$1; }

skipcase() {  # skipcase WHY
	[ "$active" = 1 ] || return 0
	skip=$((skip + 1))
	echo "skip bad/$name: $1"
	active=0
}

# put FILE TEXT: write TEXT (a printf format: \n, \xHH, %% escapes).
put() {
	mkdir -p "$(dirname "$1")"
	# shellcheck disable=SC2059
	printf "$2" >"$1"
}

# A valid RHS table; $1 picks the run, so repeats differ a little.
rhs_table() {
	printf 'Category:TCP_STREAM\nsize|sessions|throughput|cpu\n'
	printf '64|1|10%s.5|4%s.1\n256|1|20%s.5|5%s.2\n' "$1" "$1" "$1" "$1"
}

# tree DIR [EXT]: three repeats of a valid table (.RHS, or .csv).
tree() {
	for r in 1 2 3; do
		mkdir -p "$1/repeat$r"
		if [ "${2:-RHS}" = csv ]; then
			printf 'benchmark,metric,unit,value\nsort,time,ns,10%s.5\nsort,mem,B,5%s\n' \
				"$r" "$r" >"$1/repeat$r/r.csv"
		else
			rhs_table "$r" >"$1/repeat$r/r.RHS"
		fi
	done
}

both() { tree base "$@"; tree cand "$@"; }

# conf TEXT: perf.conf in the case directory.
conf() { put perf.conf "$1"; }

suite_conf() {  # a suite reading *.RHS with two key columns
	conf "[s]\nresult_file_pattern = \\\\.RHS\$\nignore_col = 2\n$1"
}

fail_case() {  # fail_case PROBLEMS
	fail=$((fail + 1))
	echo "FAIL bad/$name:$1"
	sed -e 's/^/     stderr: /' ../stderr | head -n 8 | cut -c1-300
}

# run ARGS...: run perfverdict in the case directory and check it.
run() {
	[ "$active" = 1 ] || return 0
	: >../stdout
	: >../stderr
	# shellcheck disable=SC2086
	timeout -k 5 "$TIMEOUT" $WRAP "$PV_BIN" "$@" \
		>../stdout 2>../stderr </dev/null
	got=$?
	check
}

# runr ARGS...: the same with all three reports asked for.
runr() {
	reports=1
	run "$@" --json out/r.json --junit out/r.xml --markdown out/r.md
	reports=0
}
reports=0

check() {
	p=""
	if [ "$got" -eq 124 ] || [ "$got" -eq 137 ]; then
		p="$p hung (killed after ${TIMEOUT}s);"
	elif [ "$got" -gt 128 ]; then
		p="$p crashed (signal $((got - 128)));"
	fi
	[ "$got" = "$want" ] || p="$p exit status $got, expected $want;"
	[ -z "$sub" ] || grep -qF -- "$sub" ../stderr ||
		p="$p stderr lacks '$sub';"
	if grep -qE 'Sanitizer|runtime error:|^==[0-9]+==' ../stderr; then
		p="$p sanitizer or valgrind report;"
	fi
	out=$($CHECK stderr ../stderr "$got") || p="$p $out;"
	out=$($CHECK text ../stdout) || p="$p $out;"
	# A failure leaves the old reports and no temporary file.
	if [ "$got" -ge 2 ]; then
		for f in r.json r.md r.xml; do
			[ "$(cat "out/$f" 2>/dev/null)" = "old report $f" ] ||
				p="$p out/$f was changed;"
		done
	fi
	left=$(find out ! -name out | sort | tr '\n' ' ')
	if [ "$got" -ge 2 ] && [ "$left" != "out/r.json out/r.md out/r.xml " ]; then
		p="$p out/ holds $left;"
	fi
	stray=$(find . -name '.*' ! -name . -type f 2>/dev/null | head -n 3)
	[ -z "$stray" ] || p="$p temporary files left: $stray;"
	if [ "$reports" = 1 ] && [ "$got" -le 1 ]; then
		check_reports
	fi
	[ -z "$post" ] || $post
	if [ -n "$p" ] && [ -n "$known" ]; then
		xfail=$((xfail + 1))
		echo "xfail bad/$name: known bug: $known:$p" | cut -c1-300
	elif [ -n "$p" ]; then
		fail_case "$p"
	else
		pass=$((pass + 1))
		echo "ok   bad/$name${known:+ (XPASS: the known bug $known looks fixed: drop its known_bug mark)}"
	fi
}

check_reports() {
	out=$("$PYTHON" "$ROOT/tests/lib/validate_json.py" out/r.json 2>&1) ||
		p="$p JSON report invalid: $(echo "$out" | head -n 3);"
	out=$($CHECK text out/r.json) || p="$p $out;"
	check_junit_markdown
	check_finite
}

# No report text says nan or inf (issue 13): the JSON's reasons, the
# JUnit, the Markdown and the terminal summary.
check_finite() {
	out=$("$PYTHON" -c 'import json, sys
for m in json.load(open(sys.argv[1]))["metrics"]:
    print(m["reason"])' out/r.json | cat - out/r.md out/r.xml ../stdout |
		grep -iwE -m 3 'nan%?|[+-]?inf%?')
	[ -z "$out" ] || p="$p a report says nan or inf: $(echo "$out" | head -c 200);"
}

check_junit_markdown() {
	out=$(xmllint --noout out/r.xml 2>&1) ||
		p="$p JUnit not well-formed: $(echo "$out" | head -n 3);"
	out=$(xmllint --noout --schema "$ROOT/schemas/junit.xsd" out/r.xml 2>&1) ||
		p="$p JUnit not valid: $(echo "$out" | head -n 3);"
	out=$($CHECK text out/r.xml) || p="$p $out;"
	out=$($CHECK markdown out/r.md) || p="$p $out;"
}

# ---- text inputs: autotest .RHS ----------------------------------------

t rhs-empty-all 3 "r.RHS: no table found"
for r in 1 2 3; do put base/repeat$r/r.RHS ''; put cand/repeat$r/r.RHS ''; done
runr compare base cand

t rhs-empty-one 3 "cand/repeat2/r.RHS: no table found: expected a '|'-separated header, then rows: the file holds no results ([limits] empty_files = warn allows such files)"
both; put cand/repeat2/r.RHS ''
runr compare base cand

t rhs-header-only 3 "r.RHS:2: the table has a header but no rows"
for r in 1 2 3; do
	put base/repeat$r/r.RHS 'Category:A\nsize|throughput\n'
	put cand/repeat$r/r.RHS 'Category:A\nsize|throughput\n'
done
runr compare base cand

t rhs-bom 0 ""
both; for r in 1 2 3; do
	{ printf '\357\273\277'; rhs_table $r; } >cand/repeat$r/r.RHS
done
runr compare base cand

t rhs-crlf 0 ""
both; for r in 1 2 3; do rhs_table $r | sed 's/$/\r/' >cand/repeat$r/r.RHS; done
runr compare --threshold 1% base cand

t rhs-nul 3 "cand/repeat2/r.RHS:3: unexpected NUL byte"
both; put cand/repeat2/r.RHS 'Category:A\nsize|v\n64|1\0002\n'
runr compare base cand

t rhs-invalid-utf8-value 3 "r.RHS:3:4: cannot parse '\\xff\\xfe1'"
both; put cand/repeat2/r.RHS 'Category:A\nsize|v\n64|\377\3761\n'
runr compare base cand

t rhs-1e309 3 "cannot parse '1e309' as a number in column 'throughput' (not a finite number)"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1e309|1\n'
runr compare base cand

t rhs-nan 3 "cannot parse 'nan' as a number"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|nan|1\n'
runr compare base cand

t rhs-inf 3 "cannot parse '-inf' as a number"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1|-inf\n'
runr compare base cand

t rhs-hex 3 "cand/repeat3/r.RHS:3:8: cannot parse '0x10'"
both; put cand/repeat3/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1|0x10\n'
runr compare base cand

t rhs-decimal-comma 3 "cannot parse '1,5' as a number"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1| 1,5 |1\n'
runr compare base cand

t rhs-12abc 3 "cannot parse '12abc' as a number"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|12abc|1\n'
runr compare base cand

t rhs-empty-cell 3 "(an empty cell)"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1||1\n'
runr compare base cand

t rhs-more-columns 3 "cand/repeat1/r.RHS:4: row has 5 columns but the header at line 2 has 4"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1|1\n64|2|1|1|9\n'
runr compare base cand

t rhs-fewer-columns 3 "row has 3 columns but the header at line 2 has 4"
both; put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1\n'
runr compare base cand

t rhs-duplicate-key 3 "r.RHS:4: duplicate row key 'size=64,sessions=1' in group 'A' (first at line 3)"
both; suite_conf ''
put cand/repeat1/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1|1\n64|1|2|2\n'
runr compare -c perf.conf base cand

t rhs-duplicate-title 3 "duplicate column title 'cpu'"
both; put cand/repeat1/r.RHS 'Category:A\nsize|cpu|throughput|cpu\n64|1|1|1\n'
runr compare base cand

t rhs-empty-title 3 "empty title of column 1"
both; put cand/repeat1/r.RHS 'Category:A\nsize||cpu\n64|1|1\n'
runr compare base cand

t rhs-1mb-line 3 "r.RHS:3: line is longer than 1048576 bytes (limits.max_line)"
both
{ printf 'Category:A\nsize|v\n'; head -c 1100000 /dev/zero | tr '\0' 'x'; printf '|1\n'; } >cand/repeat1/r.RHS
runr compare base cand

t rhs-1mb-name-fits 0 ""
both
for s in base cand; do
	for r in 1 2 3; do
		{ rhs_table $r; head -c 1000000 /dev/zero | tr '\0' 'n'; printf '|7|1%s|1\n' $r; } >$s/repeat$r/r.RHS
	done
done
runr compare base cand

t rhs-max-line-limit 3 "line is longer than 16 bytes (limits.max_line)"
both; conf '[limits]\nmax_line = 16\n'
runr compare -c perf.conf base cand

t rhs-invalid-utf8-names 0 ""
for s in base cand; do
	for r in 1 2 3; do
		put $s/repeat$r/r.RHS "### k\377ey : v\376al\nCategory:TCP\377\nsi\300ze|thr\355\240\200put\n6\3774|1$r\n"
	done
done
runr compare base cand

# A preamble key first empty, then with two other values (in three
# repeats): joining the context must not loop.
t rhs-context-empty-then-values 0 ""
both
for r in 1 2 3; do
	{ case $r in 1) printf '### kvm_version :\n' ;; *) printf '### kvm_version : v%s\n' $r ;; esac
	  rhs_table $r; } >cand/repeat$r/r.RHS
done
runr compare base cand

# ---- text inputs: long CSV ---------------------------------------------

t csv-empty-all 3 "base/repeat1/r.csv: empty file: no header"
for r in 1 2 3; do put base/repeat$r/r.csv ''; put cand/repeat$r/r.csv ''; done
runr compare -f csv base cand

t csv-header-only 3 "r.csv: a header but no records"
for r in 1 2 3; do
	put base/repeat$r/r.csv 'benchmark,value\n'
	put cand/repeat$r/r.csv 'benchmark,value\n'
done
runr compare base cand

t csv-bom-crlf 0 ""
both csv
for r in 1 2 3; do
	{ printf '\357\273\277'; cat base/repeat$r/r.csv; } | sed 's/$/\r/' >cand/repeat$r/r.csv
done
runr compare base cand

t csv-nul 3 "cand/repeat1/r.csv:2: unexpected NUL byte"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,1\000\n'
runr compare base cand

t csv-nan 3 "r.csv:2:3: cannot parse 'NaN' as a number in column 'value'"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,NaN\n'
runr compare base cand

t csv-1e309 3 "cannot parse '-1e309' as a number in column 'value' (not a finite number)"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,-1e309\n'
runr compare base cand

t csv-quoted-decimal-comma 3 "r.csv:2:4: cannot parse '1,5'"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,"1,5"\n'
runr compare base cand

t csv-decimal-comma 3 "r.csv:2: record has 3 fields but the header has 2"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,1,5\n'
runr compare base cand

t csv-newline-in-value 3 "cannot parse '1\\x0a2' as a number"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,"1\n2"\n'
runr compare base cand

t csv-escape-in-value 3 "cannot parse '\\x1b[2J\\x1b]0;pwned\\x07' as a number"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,"\033[2J\033]0;pwned\007"\n'
runr compare base cand

t csv-unterminated-quote 3 "r.csv:2:1: unterminated quoted field"
both csv; put cand/repeat1/r.csv 'benchmark,value\n"a,1\nb,2\n'
runr compare base cand

t csv-garbage-after-quote 3 "unexpected 'x' after a closing quote"
both csv; put cand/repeat1/r.csv 'benchmark,value\n"a"x,1\n'
runr compare base cand

t csv-duplicate-column 3 "column 'value' appears twice in the header"
both csv; put cand/repeat1/r.csv 'benchmark,value,value\na,1,2\n'
runr compare base cand

t csv-missing-column 3 "missing required column 'value'"
both csv; put cand/repeat1/r.csv 'benchmark,metric\na,time\n'
runr compare base cand

t csv-empty-benchmark 3 "r.csv:3:1: empty 'benchmark' field"
both csv; put cand/repeat1/r.csv 'benchmark,value\na,1\n,2\n'
runr compare base cand

t csv-unit-changes 3 "unit 'ms' of metric 'time' differs from 'ns' at line 2"
both csv; put cand/repeat1/r.csv 'benchmark,metric,unit,value\na,time,ns,1\na,time,ms,2\n'
runr compare base cand

t csv-1mb-line 3 "r.csv:2: line is longer than 1048576 bytes (limits.max_line)"
both csv
{ printf 'benchmark,value\n'; head -c 1100000 /dev/zero | tr '\0' 'b'; printf ',1\n'; } >cand/repeat1/r.csv
runr compare base cand

# ---- JSON inputs -------------------------------------------------------

# deep FILE PREFIX: PREFIX, then 100000 nested arrays.
deep() {
	mkdir -p "$(dirname "$1")"
	{ printf '%s' "$2"; head -c 100000 /dev/zero | tr '\0' '['; } >"$1"
}

t gbench-truncated 3 "cand/bench.json:"
mkdir base cand
cp "$ROOT/samples/gbench/baseline/repeat1/bench.json" base/
head -c 700 base/bench.json >cand/bench.json
runr compare -f gbench base cand

t gbench-wrong-shape 3 "cand/bench.json: benchmarks: expected an array, found an object"
mkdir base cand
cp "$ROOT/samples/gbench/baseline/repeat1/bench.json" base/
put cand/bench.json '{"context": {"num_cpus": 1}, "benchmarks": {"name": "x"}}'
runr compare -f gbench base cand

t gbench-top-array 3 "expected an object, found an array"
mkdir base cand
cp "$ROOT/samples/gbench/baseline/repeat1/bench.json" base/
put cand/bench.json '[{"context": {}, "benchmarks": []}]'
runr compare -f gbench base cand

t gbench-invalid-utf8 3 "cand/bench.json:1:"
mkdir base cand
cp "$ROOT/samples/gbench/baseline/repeat1/bench.json" base/
put cand/bench.json '{"context": {}, "benchmarks": [{"name": "a\377b", "real_time": 1}]}'
runr compare -f gbench base cand

for fmt in gbench pyperf hyperfine pytest jmh; do
	t "json-deep-$fmt" 3 "base/bench.json:1:"
	deep base/bench.json '{"benchmarks": '
	cp -r base cand
	runr compare -f $fmt base cand
done

t json-deep-criterion 3 "sample.json:1:"
mkdir base
cp -r "$ROOT/samples/criterion/baseline" cand
cp -r "$ROOT/samples/criterion/baseline/parse" base/
deep cand/parse/json/new/sample.json '{"iters": '
runr compare -f criterion base cand

# criterion reads benchmark.json next to new/sample.json itself.
t criterion-sibling-fifo 3 "benchmark.json"
cp -r "$ROOT/samples/criterion/baseline" base
cp -r "$ROOT/samples/criterion/baseline" cand
rm cand/parse/json/new/benchmark.json
mkfifo cand/parse/json/new/benchmark.json
runr compare -f criterion base cand

t criterion-truncated 3 "cand/parse/json/new/sample.json:"
cp -r "$ROOT/samples/criterion/baseline" base
cp -r "$ROOT/samples/criterion/baseline" cand
head -c 40 base/parse/json/new/sample.json >cand/parse/json/new/sample.json
runr compare -f criterion base cand

t pytest-truncated 3 "cand/repeat2/bench.json:"
cp -r "$ROOT/samples/pytest/baseline" base
cp -r "$ROOT/samples/pytest/baseline" cand
head -c 1000 base/repeat2/bench.json >cand/repeat2/bench.json
runr compare -f pytest base cand

t jmh-wrong-shape 3 "cand/jmh-result.json: \$: expected an array"
cp -r "$ROOT/samples/jmh/baseline" base
mkdir cand; put cand/jmh-result.json '{"jmhVersion": "1.37"}'
runr compare -f jmh base cand

t hyperfine-wrong-shape 3 "cand/bench.json: results"
mkdir base; put cand/bench.json '{"results": [{"command": "a", "times": "fast"}]}'
runr compare -f hyperfine base cand

t pyperf-gzip-corrupt 3 "cand/bench.json.gz: corrupt gzip data"
mkdir base cand; printf '\037\213\010\000garbage' >cand/bench.json.gz
runr compare -f pyperf base cand

t pyperf-gzip-bomb 3 "cand/bench.json.gz: inflates to more than 1048576 bytes (limits.max_file_size)"
mkdir base cand
head -c 20000000 /dev/zero | gzip -c >cand/bench.json.gz
conf '[limits]\nmax_file_size = 1M\n'
runr compare -c perf.conf -f pyperf base cand

t gobench-garbage 3 "base/bench.txt: no benchmark result lines that parse"
mkdir base cand
put base/bench.txt 'goos: linux\ngoarch: amd64\nBenchmarkX-8 \377\377 ns/op\n'
put cand/bench.txt 'goos: linux\ngoarch: amd64\nBenchmarkX-8 10 nan ns/op\n'
runr compare -f gobench base cand

# Catch2 XML: libxml2 must neither fetch external entities nor expand
# exponential ones.
catch2_tree() {
	cp -r "$ROOT/samples/catch2/baseline" base
	cp -r "$ROOT/samples/catch2/baseline" cand
}

t catch2-truncated 3 "cand/repeat1/bench.xml:"
catch2_tree; head -c 800 base/repeat1/bench.xml >cand/repeat1/bench.xml
runr compare -f catch2 base cand

t catch2-external-entity 3 "cand/repeat1/bench.xml:"
catch2_tree
sed -e '1a<!DOCTYPE Catch [<!ENTITY x SYSTEM "file:///etc/passwd">]>' \
    -e 's/name="sort 4096"/name="sort \&x;"/' base/repeat1/bench.xml >cand/repeat1/bench.xml
post_xxe() {
	! grep -q 'root:' ../stdout ../stderr out/* ||
		p="$p the content of /etc/passwd got out;"
}
post=post_xxe
runr compare -f catch2 base cand

t catch2-entity-bomb 3 "cand/repeat1/bench.xml:"
catch2_tree
{ printf '<?xml version="1.0"?>\n<!DOCTYPE Catch [<!ENTITY a "aaaaaaaaaa">'
  prev=a
  for e in b c d e f g h i j; do
	printf '<!ENTITY %s "%s">' $e "$(printf "&$prev;%.0s" 1 2 3 4 5 6 7 8 9 10)"
	prev=$e
  done
  printf ']>\n'
  sed -e 1d -e 's/name="sort 4096"/name="sort \&j;"/' base/repeat1/bench.xml; } >cand/repeat1/bench.xml
runr compare -f catch2 base cand

# ---- render and merge: archived JSON reports ---------------------------

# A real report to break.
report() {
	both
	"$PV_BIN" compare base cand --json good.json >/dev/null 2>&1
}
# edit EXPR: good.json -> bad.json through a python expression on r.
edit() {
	"$PYTHON" -c "
import json, sys
r = json.load(open('good.json'))
$1
json.dump(r, open('bad.json', 'w'))"
}

t render-truncated 3 "bad.json:1:"
report; head -c 500 good.json | tr -d '\n' >bad.json
run render bad.json --junit out/r.xml --markdown out/r.md

t render-top-array 3 "bad.json: expected a perfverdict JSON report (an object)"
put bad.json '[1, 2]'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-deep 3 "bad.json:1:"
deep bad.json '{"metrics": '
run render bad.json --junit out/r.xml --markdown out/r.md

t render-schema-version 3 "expected schema_version 1"
report; edit 'r["schema_version"] = 99'
run render bad.json --junit out/r.xml --markdown out/r.md

# A history report is an output only: render refuses one of either
# version by its kind, and so does history for an archive point.
t render-history-v1 3 "bad.json: expected a compare report, not a history report (schema_version 1"
put bad.json '{"schema_version": 1, "kind": "history", "metrics": [{"test": "x"}]}'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-history-v2 3 "h.json: expected a compare report, not a history report (schema_version 2"
"$PV_BIN" history -c "$ROOT/samples/history/perf.conf" --json h.json "$ROOT/samples/history/archive" >/dev/null 2>&1
run render h.json --junit out/r.xml --markdown out/r.md

t history-point-is-history 3 "9999-h.json: expected a compare report, not a history report (schema_version 2"
cp -r "$ROOT/samples/history/archive" a
"$PV_BIN" history -c "$ROOT/samples/history/perf.conf" --json a/9999-h.json "$ROOT/samples/history/archive" >/dev/null 2>&1
run history -c "$ROOT/samples/history/perf.conf" a

t render-bad-sample 3 "bad.json: metrics[0].baseline.samples: expected an array of finite numbers"
report; edit 'r["metrics"][0]["baseline"]["samples"][0] = "x"'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-count-mismatch 3 "metrics[1].candidate.n: expected the number of samples"
report; edit 'r["metrics"][1]["candidate"]["n"] = 1000000'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-negative-count 3 "expected a non-negative integer"
report; edit 'r["baseline"]["files"] = -1'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-metric-not-object 3 "bad.json: metrics[0]: expected an object"
report; edit 'r["metrics"][0] = 7'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-unknown-verdict 3 "metrics[0].verdict: expected one of the documented names"
report; edit 'r["metrics"][0]["verdict"] = "\u001b[31mpass"'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-nul-in-string 3 "bad.json:1:"
report; edit 'r["metrics"][0]["benchmark"] = "a\x00b"'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-duplicate-key 3 "duplicate object key"
put bad.json '{"schema_version": 1, "schema_version": 1}'
run render bad.json --junit out/r.xml --markdown out/r.md

t render-missing-file 3 "cannot read 'nope.json': No such file or directory"
run render nope.json --junit out/r.xml --markdown out/r.md

t render-directory 3 "cannot read 'dir.json': it is a directory"
mkdir dir.json
run render dir.json --junit out/r.xml --markdown out/r.md

t render-fifo 3 "cannot read 'fifo.json': not a regular file"
mkfifo fifo.json
run render fifo.json --junit out/r.xml --markdown out/r.md

t render-report-missing-dir 2 "cannot write report 'out/nodir/r.md'"
report
run render good.json --junit out/r.xml --markdown out/nodir/r.md

t render-hostile-strings 0 ""
report
edit '
for m in r["metrics"]:
    m["benchmark"] = "a|b<c>&d]]>\u001b[31m@here\ud800"[:-1] + "\u202e|"
    m["reason"] = "x\n| y | z |\n<script>]]>"
r["warnings"] = ["\u001b]0;t\u0007 @channel"]
r["baseline"]["context"]["k|<"] = "v\n|w"'
post=check_junit_markdown
run render bad.json --junit out/r.xml --markdown out/r.md

t merge-same-metric 3 "good.json: metric 'default/r.RHS/TCP_STREAM/size=256/cpu' is already in another report"
report
run merge good.json good.json --json out/r.json

t merge-gate-differs 2 "its gate settings differ from the first report's"
report; edit 'r["config"]["alpha"] = 0.01; r["metrics"] = []'
run merge good.json bad.json --json out/r.json

# ---- calibrate: one tree -----------------------------------------------

t calibrate-bad-value 3 "cand/repeat2/r.RHS:3:8: cannot parse '0x1p3'"
both; put cand/repeat2/r.RHS 'Category:A\nsize|sessions|throughput|cpu\n64|1|1|0x1p3\n'
run calibrate --iterations 3 cand

t calibrate-too-few-runs 3 "calibrate needs at least 4 runs of a metric"
both
run calibrate --iterations 3 cand

t calibrate-empty-tree 3 "no samples found in 'empty'"
mkdir empty
run calibrate empty

t calibrate-fifo 3 "'fifo' is not a directory"
mkfifo fifo
run calibrate fifo

# ---- trees -------------------------------------------------------------

t tree-missing 3 "cannot read tree 'nope': No such file or directory"
tree base
runr compare base nope

t tree-is-file 3 "file: cannot tell the format of this file (no reader knows its first line 'x')"
tree base; put file 'x'
runr compare base file

t tree-is-fifo 3 "'fifo' is not a directory"
tree base; mkfifo fifo
runr compare fifo base

t symlink-loop 0 "cand/repeat1/loop: ignoring a symbolic link"
both; ln -s .. cand/repeat1/loop; ln -s l2 cand/l1; ln -s l1 cand/l2
runr compare base cand

t symlink-out-of-tree 0 "cand/repeat4/r.RHS: ignoring a symbolic link"
both; suite_conf ''; mkdir cand/repeat4; ln -s /etc/passwd cand/repeat4/r.RHS
runr compare -c perf.conf base cand

t fifo-named-like-result 3 "cand/repeat2/x.RHS: a FIFO, not a regular file"
both; suite_conf ''; mkfifo cand/repeat2/x.RHS
runr compare -c perf.conf base cand

t fifo-catch-all 0 "cand/repeat2/x.RHS: ignoring a FIFO"
both; mkfifo cand/repeat2/x.RHS
runr compare base cand

t directory-named-like-result 3 "no metric could be compared"
both; suite_conf ''; rm cand/repeat2/r.RHS; mkdir cand/repeat2/r.RHS
put cand/repeat2/r.RHS/notes.txt 'x'
runr compare -c perf.conf base cand

t tree-too-deep 3 "deeper than 32 directories (limits.max_depth)"
both; mkdir -p "cand/$(printf 'd/%.0s' $(seq 34))"
runr compare base cand

t tree-max-depth-limit 3 "deeper than 1 directories (limits.max_depth)"
both; mkdir -p cand/a/b; conf '[limits]\nmax_depth = 1\n'
runr compare -c perf.conf base cand

t max-file-size 3 "cand/repeat1/r.RHS: larger than 64 bytes (limits.max_file_size)"
both; conf '[limits]\nmax_file_size = 64\n'
runr compare -c perf.conf cand base

t max-metrics 3 "more than 3 metrics (limits.max_metrics)"
both; conf '[limits]\nmax_metrics = 3\n'
runr compare -c perf.conf base cand

t pattern-matches-nothing 3 "(check result_file_pattern)"
both; conf '[s]\nresult_file_pattern = \\.nothing$\n'
runr compare -c perf.conf base cand

t pattern-matches-unknown-format 3 "cand/repeat1/notes.txt: cannot tell the format of this file"
both; conf '[s]\nresult_file_pattern = (RHS|txt)$\nignore_col = 2\n'; put cand/repeat1/notes.txt 'hello\n'
runr compare -c perf.conf base cand

# Root reads a chmod 000 file anyway: as root, run the case as nobody.
unreadable() {  # unreadable ARGS...: run as a user the mode applies to
	if [ "$(id -u)" != 0 ]; then
		run "$@"
	elif command -v setpriv >/dev/null 2>&1 &&
	     setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		WRAP="setpriv --reuid=65534 --regid=65534 --clear-groups $WRAP" run "$@"
	else
		skipcase "running as root without setpriv: chmod 000 cannot stop root"
	fi
}

t unreadable-file 3 "cannot read 'cand/repeat2/r.RHS': Permission denied"
both; chmod 000 cand/repeat2/r.RHS
unreadable compare base cand

t unreadable-directory 3 "cannot read directory 'cand/repeat2': Permission denied"
both; chmod 000 cand/repeat2
unreadable compare base cand

# ---- the config --------------------------------------------------------

t conf-bad-regex 2 "perf.conf:2: bad result_file_pattern '([a': "
both; conf '[s]\nresult_file_pattern = ([a\n'
runr compare -c perf.conf base cand

t conf-bad-repeat-regex 2 "perf.conf:3: bad repeat_pattern 'repeat(': "
both; conf '[s]\nresult_file_pattern = RHS\nrepeat_pattern = repeat(\n'
runr compare -c perf.conf base cand

# regcomp() would take minutes and gigabytes over these.
t conf-regex-stacked-plus 2 "bad result_file_pattern 'RHS++++++++++++++++++++++++++++++++++++++++': a repetition (+, *, ? or {m,n}) follows another; POSIX leaves that undefined"
both; conf '[s]\nresult_file_pattern = RHS++++++++++++++++++++++++++++++++++++++++\n'
runr compare -c perf.conf base cand

t conf-regex-nested-bounds 2 "bad repeat_pattern '((repeat{99}){99}){99}': too complex"
both; conf '[s]\nresult_file_pattern = RHS\nrepeat_pattern = ((repeat{99}){99}){99}\n'
runr compare -c perf.conf base cand

t conf-regex-backreference 2 "back-references"
both; conf '[s]\nresult_file_pattern = ((a*)*)*\\3RHS\n'
runr compare -c perf.conf base cand

t conf-ignore-col-range 2 "bad value '99999999999999999999' for 'ignore_col': expected a column count from 0 to 1024"
both; conf '[s]\nresult_file_pattern = RHS\nignore_col = 99999999999999999999\n'
runr compare -c perf.conf base cand

t conf-ignore-col-negative 2 "bad value '-1' for 'ignore_col'"
both; conf '[s]\nresult_file_pattern = RHS\nignore_col = -1\n'
runr compare -c perf.conf base cand

t conf-ignore-col-wider-than-table 3 "base/repeat1/r.RHS:2: ignore_col = 9 but the header has only 4 columns"
both; conf '[s]\nresult_file_pattern = RHS\nignore_col = 9\n'
runr compare -c perf.conf base cand

t conf-avg-update-out-of-range 3 "avg_update column 99 is out of range: the header has 4 columns (0-3)"
both; suite_conf 'avg_update = 2,99,3\n'
runr compare -c perf.conf base cand

t conf-avg-update-syntax 2 "bad value '2,3' for 'avg_update'"
both; suite_conf 'avg_update = 2,3\n'
runr compare -c perf.conf base cand

t conf-avg-update-huge 2 "bad value '2,3,99999999999999999999' for 'avg_update'"
both; suite_conf 'avg_update = 2,3,99999999999999999999\n'
runr compare -c perf.conf base cand

t conf-avg-update-key-column 2 "avg_update 0,2,3 of [s] uses a key column (ignore_col = 2)"
both; suite_conf 'avg_update = 0,2,3\n'
runr compare -c perf.conf base cand

t conf-avg-update-zero-denominator 0 ""
for s in base cand; do
	for r in 1 2 3; do
		put $s/repeat$r/r.RHS "Category:A\nsize|sessions|ratio|num|den\n64|1|1.$r|1$r|0\n128|1|2.$r|2$r|-0\n"
	done
done
suite_conf 'avg_update = 2,3,4\n'
runr compare -c perf.conf base cand

# Columns that are 0 on every run of both sides (0 and -0 too) are
# unchanged: with inconclusive = fail the gate still passes.
t zero-columns-inconclusive-fail 0 ""
for s in base cand; do
	for r in 1 2 3; do
		put $s/repeat$r/r.RHS "Category:A\nsize|sessions|time|errors|drops\n64|1|100.$r|0|-0\n128|1|200.$r|0.0|0\n"
	done
done
suite_conf '[gate]\ninconclusive = fail\ndirection = lower\n'
runr compare -c perf.conf base cand

# From 0 to 1 on every run: a certain regression, in absolute terms.
t zero-column-from-zero 1 ""
for s in base cand; do
	for r in 1 2 3; do
		e=0; [ $s = cand ] && e=1
		put $s/repeat$r/r.RHS "Category:A\nsize|sessions|time|errors\n64|1|1$r.5|$e\n"
	done
done
suite_conf '[gate]\ndirection = lower\n'
runr compare -c perf.conf base cand

for a in 0 1 1.5 -0.1 nan inf 1e309 0x0.1 0,05; do
	t "conf-alpha-$a" 2 "perf.conf:2: bad value '$a' for 'alpha': expected a number between 0 and 1"
	both; conf "[gate]\nalpha = $a\n"
	runr compare -c perf.conf base cand
done

t conf-metric-alpha 2 "perf.conf:3: bad value '2' for 'alpha'"
both; conf '[metric "thr*"]\ndirection = higher\nalpha = 2\n'
runr compare -c perf.conf base cand

t conf-threshold-negative 2 "bad value '-5%' for 'threshold'"
both; conf '[gate]\nthreshold = -5%%\n'
runr compare -c perf.conf base cand

t conf-unknown-key-gate 2 "perf.conf:2: unknown key 'alpah' in [gate]"
both; conf '[gate]\nalpah = 0.1\n'
runr compare -c perf.conf base cand

t conf-unknown-key-suite 2 "unknown key 'result_pattern' in suite [s]"
both; conf '[s]\nresult_file_pattern = RHS\nresult_pattern = x\n'
runr compare -c perf.conf base cand

t conf-unknown-key-limits 2 "unknown key 'max_lines' in [limits]"
both; conf '[limits]\nmax_lines = 5\n'
runr compare -c perf.conf base cand

t conf-unknown-key-waiver 2 "unknown key 'untill' in [waiver \"x\"]"
both; conf '[waiver "x"]\nuntill = 2030-01-01\n'
runr compare -c perf.conf base cand

t conf-duplicate-key 2 "perf.conf:3: duplicate key 'alpha' in [gate]"
both; conf '[gate]\nalpha = 0.1\nalpha = 0.2\n'
runr compare -c perf.conf base cand

t conf-duplicate-suite 2 "duplicate section [s] (first at line 1)"
both; conf '[s]\nresult_file_pattern = RHS\n[s]\nresult_file_pattern = RHS\n'
runr compare -c perf.conf base cand

# [gate] and [limits] may repeat, but not to disagree (issue 13);
# repeated [metric "GLOB"] sections override the earlier ones.
t conf-conflicting-gate 2 "perf.conf:4: conflicting values for 'alpha' in a repeated [gate]: '0.01' here, '0.05' at line 2"
both; conf '[gate]\nalpha = 0.05\n[gate]\nalpha = 0.01\n'
runr compare -c perf.conf base cand

t conf-conflicting-limits 2 "perf.conf:5: conflicting values for 'max_depth' in a repeated [limits]: '8' here, '4' at line 2"
both; conf '[limits]\nmax_depth = 4\n[gate]\n[limits]\nmax_depth = 8\n'
runr compare -c perf.conf base cand

t conf-repeated-sections-agree 0 ""
both; conf '[gate]\nalpha = 0.05\n[metric "*"]\nthreshold = 1%%\n[gate]\nalpha = 0.05\nthreshold = 50%%\n[metric "*"]\nthreshold = 50%%\n'
runr compare -c perf.conf base cand

t conf-key-outside-section 2 "perf.conf:1: key 'alpha' is outside any [section]"
both; conf 'alpha = 0.1\n'
runr compare -c perf.conf base cand

t conf-bad-metric-section 2 "bad section [metric thr]"
both; conf '[metric thr]\ndirection = higher\n'
runr compare -c perf.conf base cand

t conf-empty-section 2 "perf.conf:1: empty section name []"
both; conf '[]\n'
runr compare -c perf.conf base cand

t conf-unclosed-section 2 "perf.conf:1: cannot parse this line"
both; conf '[gate\nalpha = 0.1\n'
runr compare -c perf.conf base cand

t conf-nul 2 "perf.conf:2: unexpected NUL byte"
both; conf '[gate]\nalpha = 0.1\000 junk\n'
runr compare -c perf.conf base cand

t conf-bom-crlf 0 ""
both; conf '\357\273\277[gate]\r\nalpha = 0.1\r\n\r\n[metric "thr*"]\r\ndirection = higher\r\n'
runr compare -c perf.conf base cand

t conf-long-desc 0 ""
both
{ printf '[s]\nresult_file_pattern = RHS\nignore_col = 2\ndesc = '
  head -c 300000 /dev/zero | tr '\0' 'd'; printf '\n  and \377 more\n'; } >perf.conf
runr compare -c perf.conf base cand

t conf-directory 2 "cannot read config 'conf.d': it is a directory"
both; mkdir conf.d
runr compare -c conf.d base cand

t conf-fifo 2 "cannot read config 'fifo.conf': not a regular file"
both; mkfifo fifo.conf
runr compare -c fifo.conf base cand

t conf-missing 2 "cannot read config 'nope.conf': No such file or directory"
both
runr compare -c nope.conf base cand

t conf-bad-date 2 "bad value '2023-02-29' for 'until': expected a date YYYY-MM-DD"
both; conf '[waiver "x"]\nuntil = 2023-02-29\nreason = r\n'
runr compare -c perf.conf base cand

t conf-limit-zero 2 "bad value '0' for 'max_file_size'"
both; conf '[limits]\nmax_file_size = 0\n'
runr compare -c perf.conf base cand

t conf-unknown-suite 2 "no suite [nope] in perf.conf"
both; suite_conf ''
runr compare -c perf.conf -s nope base cand

t conf-several-suites 2 "perf.conf has several suites (a, b): choose one with -s"
both; conf '[a]\nresult_file_pattern = x\n[b]\nresult_file_pattern = y\n'
runr compare -c perf.conf base cand

t conf-unknown-format 2 "unknown format 'xls'"
both; conf '[s]\nresult_file_pattern = RHS\nformat = xls\n'
runr compare -c perf.conf base cand

# ---- the command line --------------------------------------------------

t cli-alpha 2 "bad --alpha '1': expected a number between 0 and 1"
both
runr compare --alpha 1 base cand

t cli-threshold 2 "bad --threshold 'lots'"
both
runr compare --threshold lots base cand

t cli-format 2 "unknown format 'nope'"
both
runr compare -f nope base cand

t cli-one-tree 2 "compare needs two trees"
both
runr compare base

# ---- report paths: no partial reports ----------------------------------

t report-missing-directory 2 "cannot write report 'out/nodir/r.xml': No such file or directory"
both
run compare base cand --json out/r.json --junit out/nodir/r.xml --markdown out/r.md

t report-is-directory 2 "cannot write report 'dir': it is a directory"
both; mkdir dir
run compare base cand --json out/r.json --junit out/r.xml --markdown dir

t report-empty-name 2 "cannot write report '': the file name is empty"
both
run compare base cand --json out/r.json --junit out/r.xml --markdown ''

t report-same-file 2 "'out/r.json' is given for two reports"
both
run compare base cand --json out/r.json --junit out/r.json

t report-fifo-without-reader 2 "cannot write report 'fifo': it is a FIFO that nobody reads"
both; mkfifo fifo
run compare base cand --json out/r.json --junit out/r.xml --markdown fifo

# A full disk on the last report: the first two must not be replaced.
t report-disk-full 2 "cannot write report 'full': No space left on device"
both
post_full() {
	{ [ -L full ] && [ -c /dev/full ]; } ||
		p="$p /dev/full or the link to it was replaced;"
}
if [ -c /dev/full ]; then
	ln -s /dev/full full
	post=post_full
	run compare base cand --json out/r.json --junit out/r.xml --markdown full
else
	skipcase "no /dev/full"
fi

# Devices are written through, never replaced (as root, a rename over
# /dev/null would replace it).
t report-to-device 0 ""
both; ln -s /dev/null null.json
post_null() {
	{ [ -L null.json ] && [ -c /dev/null ]; } ||
		p="$p /dev/null or the link to it was replaced;"
}
post=post_null
run compare base cand --json null.json --markdown -

# SOURCE_DATE_EPOCH beyond year 9999 is ignored, not turned into garbage.
t source-date-epoch-range 0 ""
both
post_sde() {
	grep -qE '"generated_at": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"' out/r.json ||
		p="$p generated_at is not a date: $(grep generated_at out/r.json);"
}
post=post_sde
SOURCE_DATE_EPOCH=99999999999999999
runr compare base cand
SOURCE_DATE_EPOCH=1764460800

t report-stdout 0 ""
both
post_stdout() {
	"$PYTHON" "$ROOT/tests/lib/validate_json.py" ../stdout >/dev/null 2>&1 ||
		p="$p stdout is not a valid JSON report;"
}
post=post_stdout
run compare base cand --json - --junit out/r.xml

t input-error-keeps-reports 3 "cannot parse 'x' as a number"
both; put cand/repeat3/r.RHS 'Category:A\nsize|v\n64|x\n'
runr compare base cand

# ---- names that try to escape: JSON, JUnit, Markdown, terminal ---------

# Every special of the three formats, an escape sequence, a mention and
# invalid UTF-8, in groups, column titles, keys and context.
# shellcheck disable=SC2016
hostile='a|b <c> &amp; ]]> \033[31mred\033[0m \033]0;title\007 @here #1 \377\376 `x` *y* _z_ [l](u) $x ~s~'
# In a .RHS table '|' separates cells: only its group line may hold one.
hrhs=$(printf '%s' "$hostile" | tr '|' '/')
t inject-rhs 0 ""
for s in base cand; do
	for r in 1 2 3; do
		put $s/repeat$r/r.RHS "### kernel : $hostile\nCategory:$hostile\nsize|$hrhs|<t>\n$hrhs|1$r|2$r\n"
	done
done
runr compare base cand

t inject-rhs-terminal 0 ""
for s in base cand; do
	for r in 1 2 3; do
		put $s/repeat$r/r.RHS "### kernel : $hostile\nCategory:$hostile\nsize|$hrhs|<t>\n$hrhs|1$r|2$r\n"
	done
done
post_terminal() {
	grep -q "$(printf '\033')" ../stdout &&
		p="$p an escape sequence reached the terminal summary;"
	grep -q "$(printf '\033')" ../stderr &&
		p="$p an escape sequence reached stderr;"
}
post=post_terminal
run compare base cand

t inject-csv 1 ""
for s in base cand; do
	for r in 1 2 3; do
		v=$r; [ $s = cand ] && v=$((r + 50))
		put $s/repeat$r/r.csv "group,benchmark,metric,unit,value\n\"$hostile\",\"$hostile\nsecond | line\",\"time $hostile\",\"\033[1mns\",10$v\n\"g\",\"@here\",\"\\\\\",\"|\",10$v\n"
	done
done
conf '[gate]\ndirection = lower\n'
runr compare -c perf.conf base cand

# The same through a JSON reader: names, counters, units and context.
t inject-gbench 0 ""
mkdir base cand
"$PYTHON" "$ROOT/tests/lib/bad_hostile_context.py" "$ROOT/samples/gbench/baseline/repeat1/bench.json"
runr compare base cand

# ---- issue 13: what real files and crashed runs leave ------------------

# gbench FILE: a real Google Benchmark file.
gbench() {
	mkdir -p "$(dirname "$1")"
	cp "$ROOT/samples/gbench/baseline/repeat1/bench.json" "$1"
}

# at_most N: stderr has at most N lines (a post check).
stderr_lines=5
post_lines() {
	n=$(wc -l <../stderr)
	[ "$n" -le "$stderr_lines" ] || p="$p stderr has $n lines, more than $stderr_lines;"
}

# Auto-detection looks at the content, not the name.
t detect-stray-notes-csv 0 ""
both
put base/notes.csv 'date,comment\n2026-11-30,quiet machine\n'
put cand/notes.csv 'date,comment\n2026-12-01,noisy neighbour\n'
runr compare base cand

t detect-criterion-raw-csv 1 ""
cp -r "$ROOT/tests/golden/criterion-auto/baseline" base
cp -r "$ROOT/tests/golden/criterion-auto/candidate" cand
runr compare base cand

t criterion-old-pair-bad 3 "sample.json: \$: expected a pair of arrays [[iters...], [times...]] (criterion 0.2)"
cp -r "$ROOT/tests/golden/criterion-auto/baseline" base
cp -r "$ROOT/tests/golden/criterion-auto/candidate" cand
put cand/target/criterion/old_parse/new/sample.json '[[1, 2], [3, 4], [5]]'
runr compare -f criterion base cand

t criterion-old-pair-lengths 3 "iters has 2 entries but times has 1"
cp -r "$ROOT/tests/golden/criterion-auto/baseline" base
cp -r "$ROOT/tests/golden/criterion-auto/candidate" cand
put cand/target/criterion/old_parse/new/sample.json '[[1, 2], [3]]'
runr compare base cand

# A file no reader knows, where the other side read that path: named,
# with what is wrong with it (no longer "the candidate no longer
# reports this metric").
t peer-empty 3 "cand/bench.json: the file is empty: the file holds no results; expected gbench results, as in 'base/bench.json'"
gbench base/bench.json; put cand/bench.json ''
runr compare base cand

t peer-blank 3 "cand/bench.json: the file holds only blank space: the file holds no results"
gbench base/bench.json; put cand/bench.json '\n  \n'
runr compare base cand

t peer-top-array 3 "cand/bench.json: \$: expected an object, found an array"
gbench base/bench.json; put cand/bench.json '[1, 2, 3]'
runr compare base cand

t peer-unknown-json 3 "cand/bench.json: benchmarks: expected an array"
gbench base/bench.json; put cand/bench.json '{"results": {"x": 1}}'
runr compare base cand

t peer-deep-nesting 3 "cand/bench.json:1:"
gbench base/bench.json; deep cand/bench.json ''
runr compare base cand

t peer-garbage-line 3 "cand/bench.json:1:"
gbench base/bench.json; mkdir cand
head -c 1000000 /dev/zero | tr '\0' 'x' >cand/bench.json
runr compare base cand

t peer-baseline-unreadable 3 "base/bench.json: cannot read it as any format: the file is empty; expected gbench results, as in 'cand/bench.json'"
put base/bench.json ''; gbench cand/bench.json
runr compare base cand

t peer-baseline-json-array 3 "base/bench.json: cannot read it as any format: a JSON array of 2 elements that no reader knows"
put base/bench.json '[1, 2]'; gbench cand/bench.json
runr compare base cand

# (read as the baseline's file of that path was: the reader says why)
t peer-repeat-unreadable 3 "cand/repeat3/bench.json: benchmarks: expected an array, found nothing"
for r in 1 2 3; do gbench base/repeat$r/bench.json; gbench cand/repeat$r/bench.json; done
put cand/repeat3/bench.json '{"foo": 1}'
runr compare base cand

t repeat-unreadable-same-side 3 "base/repeat3/bench.json: cannot read it as any format: a JSON object with keys 'foo' that no reader knows; expected gbench results, as in 'base/repeat1/bench.json'"
for r in 1 2 3; do gbench base/repeat$r/bench.json; gbench cand/repeat$r/bench.json; done
put base/repeat3/bench.json '{"foo": 1}'
runr compare base cand

t peer-cr-only 3 "cand/repeat2/r.RHS: CR-only line endings (classic Mac OS text): rhs would read the whole file as one line; expected LF or CRLF line ends"
both; printf 'Category:TCP_STREAM\rsize|sessions|throughput|cpu\r64|1|10.5|4.1\r' >cand/repeat2/r.RHS
runr compare base cand

# An empty tree is an input error that names it.
t empty-candidate-tree 3 "no result files found in candidate tree 'cand': it holds no files"
tree base; mkdir cand
runr compare base cand

t empty-baseline-tree 3 "no result files found in baseline tree 'base': it holds no files"
mkdir base; tree cand
runr compare base cand

t candidate-only-unknown-files 3 "no result files found in candidate tree 'cand': none of its 2 files is of a known format"
tree base; put cand/README 'results went missing\n'; put cand/log.txt 'segfault\n'
runr compare base cand

t candidate-pattern-matches-nothing 3 "no result files found in candidate tree 'cand' (check result_file_pattern)"
tree base; put cand/other.txt 'x\n'; suite_conf ''
runr compare -c perf.conf base cand

# Files that hold no results: what a crashed run leaves.
t rhs-preamble-only 3 "cand/repeat2/r.RHS: no table found: expected a '|'-separated header, then rows (the file has only a preamble): the file holds no results"
both; put cand/repeat2/r.RHS '### kernel : 6.1\n### qemu : 8.0\n'
runr compare base cand

t rhs-garbage-line 3 "cand/repeat1/r.RHS: no table found"
both; head -c 1000000 /dev/zero | tr '\0' 'x' >cand/repeat1/r.RHS
runr compare base cand

t csv-header-only-one 3 "cand/repeat2/r.csv: a header but no records: the file holds no results ([limits] empty_files = warn allows such files)"
both csv; put cand/repeat2/r.csv 'benchmark,metric,unit,value\n'
runr compare base cand

t gbench-all-failed 3 "cand/bench.json: no benchmark in it gave a sample: the file holds no results"
gbench base/bench.json
put cand/bench.json '{"context": {"num_cpus": 2}, "benchmarks": [{"name": "BM_Sort/4096", "run_name": "BM_Sort/4096", "run_type": "iteration", "error_occurred": true, "error_message": "killed"}]}'
runr compare base cand

t gbench-empty-list 3 "cand/bench.json: no benchmarks in the file: the array is empty: the file holds no results"
gbench base/bench.json; put cand/bench.json '{"context": {"num_cpus": 2}, "benchmarks": []}'
runr compare base cand

t gobench-no-results 3 "cand/bench.txt: no benchmark result lines: expected 'BenchmarkName <iterations> <value> <unit>...': the file holds no results"
put base/bench.txt 'goos: linux\ngoarch: amd64\nBenchmarkX-8 10 5 ns/op\n'
put cand/bench.txt 'goos: linux\ngoarch: amd64\npanic: runtime error\n'
runr compare -f gobench base cand

t gobench-syntax-error-warns 0 "cand/bench.txt:4: syntax error: 'oops' is not an iteration count"
put base/bench.txt 'goos: linux\ngoarch: amd64\nBenchmarkX-8 10 5 ns/op\nBenchmarkX-8 10 5 ns/op\nBenchmarkX-8 10 5 ns/op\n'
put cand/bench.txt 'goos: linux\ngoarch: amd64\nBenchmarkX-8 10 5 ns/op\nBenchmarkX-8 oops 5 ns/op\nBenchmarkX-8 10 5 ns/op\nBenchmarkX-8 10 5 ns/op\n'
runr compare base cand

# [limits] empty_files = warn: a warning, and the gate goes on; ten
# crashed repeats make one line of stderr.
t empty-files-warn 0 "cand/repeat10/r.RHS: no table found: expected a '|'-separated header, then rows: the file holds no results (and 9 more files like it)"
for r in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
	mkdir -p base/repeat$r cand/repeat$r
	rhs_table "$((r % 4))" >base/repeat$r/r.RHS
	rhs_table "$((r % 4))" >cand/repeat$r/r.RHS
done
for r in 2 3 4 5 6 7 8 9 10 11; do put cand/repeat$r/r.RHS ''; done
conf '[limits]\nempty_files = warn\n'
post=post_lines
runr compare -c perf.conf base cand

t empty-files-bad-value 2 "perf.conf:2: bad value 'ignore' for 'empty_files': expected error or warn"
tree base; tree cand; conf '[limits]\nempty_files = ignore\n'
runr compare -c perf.conf base cand

t empty-files-error-explicit 3 "the file holds no results"
both; put cand/repeat2/r.RHS ''; conf '[limits]\nempty_files = error\n'
runr compare -c perf.conf base cand

# A failed run's stderr: at most five lines, however many files warn.
t warnings-collapse-on-failure 3 "no result files found in candidate tree 'cand'"
tree base
for r in 1 2 3 4 5 6 7 8 9 10; do put cand/repeat$r/r.RHS ''; done
conf '[limits]\nempty_files = warn\n'
post=post_lines
runr compare -c perf.conf base cand

# Pairing: one result file per side, one format, any names.
t pair-old-new 1 ""
put base/old.txt 'goos: linux\nBenchmarkX-8 10 5.0 ns/op\nBenchmarkX-8 10 5.1 ns/op\nBenchmarkX-8 10 4.9 ns/op\nBenchmarkX-8 10 5.0 ns/op\n'
put cand/new.txt 'goos: linux\nBenchmarkX-8 10 9.0 ns/op\nBenchmarkX-8 10 9.1 ns/op\nBenchmarkX-8 10 8.9 ns/op\nBenchmarkX-8 10 9.0 ns/op\n'
runr compare base cand

t pair-file-file 1 ""
put base/old.txt 'goos: linux\nBenchmarkX-8 10 5.0 ns/op\nBenchmarkX-8 10 5.1 ns/op\nBenchmarkX-8 10 4.9 ns/op\nBenchmarkX-8 10 5.0 ns/op\n'
put cand/new.txt 'goos: linux\nBenchmarkX-8 10 9.0 ns/op\nBenchmarkX-8 10 9.1 ns/op\nBenchmarkX-8 10 8.9 ns/op\nBenchmarkX-8 10 9.0 ns/op\n'
runr compare base/old.txt cand/new.txt

t pair-file-file-unknown 3 "cand/new.txt: cannot tell the format of this file (the file is empty)"
put base/old.txt 'goos: linux\nBenchmarkX-8 10 5.0 ns/op\n'
put cand/new.txt ''
runr compare base/old.txt cand/new.txt

t pair-not-across-formats 3 "no metric could be compared"
put base/old.txt 'goos: linux\nBenchmarkX-8 10 5.0 ns/op\nBenchmarkX-8 10 5.1 ns/op\n'
gbench cand/new.json
runr compare base cand

t rhs-duplicate-key-hint 3 "duplicate row key 'size=64' in group 'TCP_STREAM' (first at line 3): if column 2 ('sessions') is a key column too, set ignore_col = 2 in the suite (e.g. -c perf.conf)"
for s in base cand; do
	put $s/repeat1/r.RHS 'Category:TCP_STREAM\nsize|sessions|throughput\n64|1|10\n64|2|19\n'
done
runr compare base cand

# Summaries as input: the summary CSV form.
t csv-summary-negative-sd 3 "cand/r.csv:2:5: sd is negative: expected a standard deviation >= 0"
put base/r.csv 'benchmark,mean,sd,n\nx,1,0.1,3\n'
put cand/r.csv 'benchmark,mean,sd,n\nx,1,-0.1,3\n'
runr compare base cand

t csv-summary-fractional-n 3 "cand/r.csv:2:9: n is '2.5': expected the number of runs, a whole number >= 1"
put base/r.csv 'benchmark,mean,stddev,n\nx,1,0.1,3\n'
put cand/r.csv 'benchmark,mean,stddev,n\nx,1,0.1,2.5\n'
runr compare base cand

t csv-summary-missing-n 3 "cand/r.csv:1: missing required column 'n' in the header: a summary needs 'mean', 'sd' (or 'stddev') and 'n'"
put base/r.csv 'benchmark,mean,sd,n\nx,1,0.1,3\n'
put cand/r.csv 'benchmark,mean,sd\nx,1,0.1\n'
runr compare -f csv base cand

t csv-summary-twice 3 "cand/r.csv: metric 'value' of 'x' is summarised twice in this file"
put base/r.csv 'benchmark,mean,sd,n\nx,1,0.1,3\n'
put cand/r.csv 'benchmark,mean,sd,n\nx,1,0.1,3\nx,2,0.1,3\n'
runr compare base cand

t csv-summary-nan 3 "cand/r.csv:2:3: cannot parse 'nan' as a number in column 'mean'"
put base/r.csv 'benchmark,mean,sd,n\nx,1,0.1,3\n'
put cand/r.csv 'benchmark,mean,sd,n\nx,nan,0.1,3\n'
runr compare base cand

t csv-summary-compared 1 ""
put base/r.csv 'group,benchmark,metric,unit,mean,sd,n\nk,1x,elapsed,s,49.23,1.0171,3\n'
put cand/r.csv 'group,benchmark,metric,unit,mean,sd,n\nk,1x,elapsed,s,58.53,0.8947,3\n'
conf '[gate]\ndirection = lower\n'
runr compare -c perf.conf base cand

t gbench-aggregates-without-stddev 3 "no metric could be compared"
mkdir base cand
for s in base cand; do
	put $s/bench.json '{"context": {"num_cpus": 2}, "benchmarks": [{"name": "BM_X_mean", "run_name": "BM_X", "run_type": "aggregate", "aggregate_name": "mean", "repetitions": 5, "real_time": 10, "cpu_time": 10, "time_unit": "ns"}]}'
done
runr compare base cand

# ---- crashes the fuzzers found (tests/fuzz/regress/) and the seeds -----

replay="$PV_BUILD/tests/tools/fuzzreplay"
for target_dir in "$ROOT"/tests/fuzz/regress/*/; do
	[ -d "$target_dir" ] || continue
	target=$(basename "$target_dir")
	t "fuzz-regress-$target" 0 ""
	[ "$active" = 1 ] || continue
	p=""
	if [ ! -x "$replay" ]; then
		skipcase "$replay is not built (make unit)"
		continue
	fi
	for input in "$target_dir"*; do
		[ -f "$input" ] || continue
		case $(basename "$input") in known-bug-*) continue ;; esac
		# shellcheck disable=SC2086
		timeout -k 5 60 $WRAP "$replay" "$target" "$input" \
			>../stdout 2>../stderr
		got=$?
		if [ $got -ne 0 ] || grep -qE 'Sanitizer|runtime error:|^==[0-9]+==' ../stderr; then
			p="$p $(basename "$input"): status $got;"
		fi
	done
	if [ -n "$p" ]; then
		fail_case "$p"
	else
		pass=$((pass + 1))
		echo "ok   bad/$name"
	fi
	p=""
	for input in "$target_dir"known-bug-*; do
		[ -f "$input" ] || continue
		t "fuzz-regress-$target-$(basename "$input")" 0 ""
		known_bug "see $input"
		# shellcheck disable=SC2086
		timeout -k 5 "$TIMEOUT" $WRAP "$replay" "$target" "$input" \
			>../stdout 2>../stderr
		got=$?
		p=""
		if [ $got -ne 0 ] || grep -qE 'Sanitizer|runtime error:|^==[0-9]+==' ../stderr; then
			p=" status $got"
		fi
		if [ -n "$p" ]; then
			xfail=$((xfail + 1))
			echo "xfail bad/$name:$p"
		else
			pass=$((pass + 1))
			echo "ok   bad/$name (XPASS: rename it without known-bug-)"
		fi
	done
done

echo "bad: $pass passed, $fail failed, $skip skipped, $xfail known bugs"
[ "$fail" -eq 0 ]

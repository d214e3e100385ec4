#!/bin/sh
# tests/ci/run.sh - tests for the CI integrations in ci/.
#
# Run from anywhere: sh tests/ci/run.sh.  No network: perfverdict, gh
# and curl are fakes (tests/ci/fakes/) placed first on PATH, and every
# case runs in a scratch directory with a clean environment (env -i).
# Needs: sh, awk, sed, grep, shellcheck, python3 with yaml (python3-yaml).
#
# Prints one line per check and ends with "ci: N passed, M failed";
# exits 0 when nothing failed, 1 otherwise.
#
#   ONLY="group ..."  run only these groups (see the list at the end)
#   CI_DIR=DIR        test another copy of ci/ (the mutation checks do)
#   PYTHON=...        the python with yaml (default /usr/bin/python3)
# sh -c snippets take their arguments as $1...: single quotes are meant.
# shellcheck disable=SC2016
TL_KEEP=${KEEP_WORK:-}
# shellcheck source-path=SCRIPTDIR
# shellcheck source=../lib/test-lib.sh
. "$(dirname "$0")/../lib/test-lib.sh"

TESTS=$ROOT/tests/ci
CI_DIR=${CI_DIR:-$ROOT/ci}
S=$CI_DIR/scripts
FAKES=$TESTS/fakes
PY=${PYTHON:-/usr/bin/python3}
SIM=$TESTS/sim.py
SYSPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
MARKER='<!-- perfverdict-report -->'
MIB=1048576

WORK=$tmp

npass=0
nfail=0
ncase=0
C=
say() { printf '%s\n' "$*"; }

# check DESCRIPTION COMMAND...: one test.
check() {
	desc=$1
	shift
	if "$@" >/dev/null 2>&1; then
		npass=$((npass + 1))
		say "ok $((npass + nfail)) - $desc"
	else
		nfail=$((nfail + 1))
		say "not ok $((npass + nfail)) - $desc"
		if [ -n "$C" ]; then
			for f in out err calls; do
				[ -s "$C/$f" ] && {
					say "    --- $f"
					head -n 15 "$C/$f" | sed 's/^/    /'
				}
			done
		fi
	fi
}
has() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }
eq() { [ "$1" = "$2" ]; }
ne() { [ "$1" != "$2" ]; }
count() { grep -cF -- "$2" "$1" 2>/dev/null || true; }
size() { wc -c <"$1" | tr -d ' '; }
le() { [ "$1" -le "$2" ]; }
exists() { [ -f "$1" ]; }
missing() { [ ! -e "$1" ]; }
# val FILE KEY: the value of KEY=... in FILE
val() { sed -n "s/^$2=//p" "$1" | tail -n 1; }

# new_case: a fresh scratch directory with two result trees; cd into it.
new_case() {
	ncase=$((ncase + 1))
	C=$WORK/case$ncase
	mkdir -p "$C/base" "$C/cand" "$C/fake"
	: >"$C/calls"
	: >"$C/out"
	: >"$C/err"
	cd "$C" || exit 1
}

# xenv [VAR=VALUE]... COMMAND...: run in a clean environment, fakes first.
xenv() {
	env -i PATH="$FAKES:$SYSPATH" HOME="$C" TMPDIR="${TMPDIR:-/tmp}" \
		PERFVERDICT_BUILD=never FAKE_LOG="$C/calls" FAKE_DIR="$C/fake" \
		FAKE_PV_LOG="$C/pv-args" "$@"
}

# The GitHub environment of a pull_request run, with a canned event.
gh_event() { # gh_event NUMBER
	cat >"$C/event.json" <<EOF
{"action": "synchronize", "number": $1,
 "pull_request": {"number": $1, "head": {"ref": "feature"}, "milestone": {"number": 9}},
 "repository": {"full_name": "o/r"}}
EOF
}
GH_ENV() {
	echo GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r GITHUB_RUN_ID=99 \
		GITHUB_SERVER_URL=https://github.com GITHUB_EVENT_NAME=pull_request \
		GITHUB_EVENT_PATH="$C/event.json" GITHUB_OUTPUT="$C/gh-out" \
		GITHUB_STEP_SUMMARY="$C/summary.md" GITHUB_WORKFLOW_REF=o/r/.github/workflows/perf.yml@refs/heads/x
}

# A canned list of PR comments; the second one is ours.
comments_with_marker() {
	cat >"$C/comments.json" <<'EOF'
[{"id": 1000, "user": {"login": "alice", "id": 1}, "body": "LGTM"},
 {"id": 1001, "user": {"login": "github-actions[bot]", "id": 41898282, "type": "Bot"},
  "body": "<!-- perfverdict-report -->\n## perfverdict: fail"},
 {"id": 1002, "user": {"login": "bob", "id": 2}, "body": "please fix"}]
EOF
}
comments_without_marker() {
	cat >"$C/comments.json" <<'EOF'
[{"id": 1000, "user": {"login": "alice", "id": 1}, "body": "LGTM, but <!-- perfverdict -->"}]
EOF
}
mkmd() { # mkmd [LINES]: a Markdown report in the default output dir
	mkdir -p "$C/perfverdict-reports"
	{
		echo "$MARKER"
		echo "## perfverdict: fail"
		i=0
		while [ "$i" -lt "${1:-3}" ]; do
			i=$((i + 1))
			echo "| bench/m$i | regression | +12.0% |"
		done
	} >"$C/perfverdict-reports/perfverdict-report.md"
}

# ---------------------------------------------------------------------------
group_lint() {
	C=
	check "shellcheck is installed (Debian: shellcheck)" command -v shellcheck
	check "python3 has yaml (Debian: python3-yaml)" "$PY" -c 'import yaml'
	for f in "$S"/*.sh "$TESTS/run.sh" "$TESTS/runners.sh" "$TESTS/history.sh" "$TESTS/trust.sh" "$FAKES/perfverdict" "$FAKES/gh" "$FAKES/curl"; do
		check "shellcheck $(basename "$f")" shellcheck -x -s sh "$f"
	done
	for f in "$CI_DIR"/github/action.yml "$CI_DIR"/gitlab/*.yml; do
		check "YAML parses: ${f#"$CI_DIR"/}" "$PY" -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f"
	done
	check "action.yml runs.steps call only scripts that exist" "$PY" "$SIM" check-refs "$CI_DIR/github/action.yml"
	check "GitLab template calls only scripts that exist" "$PY" "$SIM" check-refs "$CI_DIR/gitlab/perfverdict.gitlab-ci.yml"
	check "Jenkinsfile calls only scripts that exist" "$PY" "$SIM" check-refs "$CI_DIR/jenkins/Jenkinsfile"
	check "action: builds the ref it was called at by default (perfverdict: build, github.action_ref)" sh -c \
		'grep -q "PERFVERDICT_ACTION_REF: \${{ github.action_ref }}" "$1" && "$2" -c "import yaml,sys; a = yaml.safe_load(open(sys.argv[1])); sys.exit(a[\"inputs\"][\"perfverdict\"][\"default\"] != \"build\")" "$1"' \
		sh "$CI_DIR/github/action.yml" "$PY"
	check "action: no output points at a file outside the repository" lacks "$CI_DIR/github/action.yml" "DESIGN.md"
	check "action.yml has the inputs and outputs of the spec" "$PY" -c '
import sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
need_in = {"baseline", "candidate", "config", "suite", "format", "args", "comment", "github-token", "output-dir"}
need_out = {"verdict", "regressions", "report-json", "report-junit", "report-markdown"}
assert need_in <= set(a["inputs"]), need_in - set(a["inputs"])
assert need_out <= set(a["outputs"]), need_out - set(a["outputs"])
assert a["runs"]["using"] == "composite"
assert a["inputs"]["comment"]["default"] == "on-regression"
' "$CI_DIR/github/action.yml"
	check "GitLab .perfverdict: hidden job, junit report, paths, when: always" "$PY" -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
j = d[".perfverdict"]
a = j["artifacts"]
assert a["when"] == "always"
assert a["reports"]["junit"].endswith("perfverdict-junit.xml")
assert any(p.endswith(".json") for p in a["paths"]) and any(p.endswith(".md") for p in a["paths"])
for v in ("PERFVERDICT_BASELINE", "PERFVERDICT_CANDIDATE", "PERFVERDICT_CONFIG", "PERFVERDICT_SUITE",
          "PERFVERDICT_FORMAT", "PERFVERDICT_ARGS", "PERFVERDICT_COMMENT", "PERFVERDICT_OUTPUT_DIR"):
    assert v in j["variables"], v
assert not any(not k.startswith(".") for k in d), "the template must define no visible job"
' "$CI_DIR/gitlab/perfverdict.gitlab-ci.yml"
	J=$CI_DIR/jenkins/Jenkinsfile
	check "Jenkinsfile records JUnit with junit" has "$J" "junit testResults:"
	check "Jenkinsfile archives the JSON and Markdown" has "$J" "archiveArtifacts artifacts:"
	check "Jenkinsfile notes xunit schema validation" has "$J" "xunit"
	check "Jenkinsfile maps 1 to FAILURE and 2/3 to error()" sh -c '
		grep -q "status == 1" "$1" && grep -q "buildResult: .FAILURE." "$1" && grep -q "error(\"perfverdict tool error" "$1"' sh "$J"
}

# ---------------------------------------------------------------------------
group_status() {
	for st in 0 1 2 3; do
		new_case
		mkdir -p perfverdict-reports
		echo stale >perfverdict-reports/perfverdict-report.json
		# shellcheck disable=SC2046
		xenv $(GH_ENV) FAKE_PV_STATUS=$st FAKE_PV_STDERR="perf.conf:12: unknown key 'speed'" \
			sh "$S/run-gate.sh" base cand >out 2>err
		rc=$?
		check "run-gate: compare exit $st -> exit $st" eq "$rc" "$st"
		case $st in
		0 | 1)
			v=pass
			[ "$st" = 1 ] && v=fail
			check "run-gate: exit $st -> output verdict=$v" eq "$(val gh-out verdict)" "$v"
			check "run-gate: exit $st -> regressions from the JSON" eq "$(val gh-out regressions)" "$((st * 2))"
			check "run-gate: exit $st -> three reports written" sh -c '[ -s "$1" ] && [ -s "$2" ] && [ -s "$3" ]' sh \
				"$(val gh-out report-json)" "$(val gh-out report-junit)" "$(val gh-out report-markdown)"
			check "run-gate: exit $st -> no tool-error annotation" lacks out "::error file="
			;;
		*)
			check "run-gate: exit $st -> ::error file=perf.conf,line=12 annotation" has out "::error file=perf.conf,line=12,"
			check "run-gate: exit $st -> verdict=error" eq "$(val gh-out verdict)" error
			check "run-gate: exit $st -> the stale JSON report is gone" missing perfverdict-reports/perfverdict-report.json
			check "run-gate: exit $st -> the error is in the step summary" has summary.md "exit $st"
			;;
		esac
		check "run-gate: exit $st -> status output and dotenv" sh -c \
			'[ "$(sed -n "s/^status=//p" gh-out)" = "$1" ] && grep -qx "PERFVERDICT_STATUS=$1" perfverdict-reports/perfverdict.env' sh "$st"
	done

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=3 FAKE_PV_STDERR="cand: no result files match" \
		sh "$S/run-gate.sh" base cand >out 2>err
	check "run-gate: input error names the tree in ::error file=" has out "::error file=cand,title=perfverdict::"

	# The messages of the real perfverdict (src/main.c).
	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=3 FAKE_PV_STDERR="perfverdict: error: cand/x/r.json:1:7: '[' or '{' expected" \
		sh "$S/run-gate.sh" base cand >out 2>err
	check "run-gate: 'perfverdict: error: FILE:LINE:COL:' -> file and line" has out \
		"::error file=cand/x/r.json,line=1,title=perfverdict::perfverdict compare failed: input error (exit 3): cand/x/r.json:1:7: '[' or '{' expected"
	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=3 FAKE_PV_STDERR="perfverdict: error: cannot read tree 'gone': No such file or directory" \
		sh "$S/run-gate.sh" base gone >out 2>err
	check "run-gate: \"cannot read tree 'PATH'\" -> file=PATH" has out "::error file=gone,title=perfverdict::"
	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=2 FAKE_PV_STDERR="perfverdict: unknown option '--nope'" \
		sh "$S/run-gate.sh" -c perf.conf base cand >out 2>err
	check "run-gate: a usage error names the config" has out "::error file=perf.conf,title=perfverdict::perfverdict compare failed: usage or config error (exit 2): unknown option '--nope'"

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) PERFVERDICT_BIN="$C/no/such/perfverdict" sh "$S/run-gate.sh" base cand >out 2>err
	rc=$?
	check "run-gate: a missing binary fails (exit 2)" eq "$rc" 2
	check "run-gate: a missing binary is annotated" has out "::error file="
	check "run-gate: a missing binary gives verdict=error" eq "$(val gh-out verdict)" error

	if ! PATH=$SYSPATH command -v perfverdict >/dev/null 2>&1; then
		new_case
		env -i PATH="$SYSPATH" HOME="$C" PERFVERDICT_CI=jenkins sh "$S/run-gate.sh" base cand >out 2>err
		rc=$?
		check "run-gate: perfverdict not on PATH fails (exit 2)" eq "$rc" 2
		check "run-gate: perfverdict not on PATH says so" has err "perfverdict not found"
	fi

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=139 sh "$S/run-gate.sh" base cand >out 2>err
	rc=$?
	check "run-gate: a crash (139) is a tool error, never a pass" eq "$rc" 2
	check "run-gate: a crash is annotated with the signal" has out "signal 11"

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=1 sh "$S/run-gate.sh" --no-fail base cand >out 2>err
	rc=$?
	check "run-gate --no-fail: exit 0" eq "$rc" 0
	check "run-gate --no-fail: status=1 still in the outputs" eq "$(val gh-out status)" 1

	new_case
	: >'cand/*'
	xenv PERFVERDICT_CONFIG=perf.conf PERFVERDICT_SUITE=netperf PERFVERDICT_FORMAT=rhs \
		PERFVERDICT_ARGS='--alpha 0.01  --threshold 3% cand/*' PERFVERDICT_BASELINE=base \
		PERFVERDICT_CANDIDATE=cand sh "$S/run-gate.sh" >out 2>err
	check "run-gate: inputs become compare flags, extra args unglobbed, trees last" eq "$(cat pv-args)" \
		"compare --config perf.conf --suite netperf --format rhs --json perfverdict-reports/perfverdict-report.json --junit perfverdict-reports/perfverdict-junit.xml --markdown perfverdict-reports/perfverdict-report.md --markdown-limit 60000 --alpha 0.01 --threshold 3% cand/* base cand"

	new_case
	xenv PERFVERDICT_CI=plain sh "$S/run-gate.sh" -o out-dir -c c.conf --markdown-limit 0 base cand >out 2>err
	check "run-gate: options override the environment; --markdown-limit 0 drops the flag" eq "$(cat pv-args)" \
		"compare --config c.conf --json out-dir/perfverdict-report.json --junit out-dir/perfverdict-junit.xml --markdown out-dir/perfverdict-report.md base cand"

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) PERFVERDICT_COMMENT=sometimes sh "$S/run-gate.sh" base cand >out 2>err
	rc=$?
	check "run-gate: a bad comment policy is a config error (exit 2)" eq "$rc" 2
	check "run-gate: a bad comment policy does not run compare" missing pv-args

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) sh "$S/run-gate.sh" base >out 2>err
	rc=$?
	check "run-gate: no candidate -> exit 2 with an annotation" sh -c '[ "$1" = 2 ] && grep -q "::error file=.github/workflows/perf.yml" out' sh "$rc"

	new_case
	xenv PERFVERDICT_CI=gitlab FAKE_PV_STATUS=2 FAKE_PV_STDERR="perf.conf:3: bad value" \
		sh "$S/run-gate.sh" base cand >out 2>err
	rc=$?
	check "run-gate (gitlab): exit 2 passes through" eq "$rc" 2
	check "run-gate (gitlab): compiler-style error line" has err "perf.conf:3: error: perfverdict compare failed"
	check "run-gate (gitlab): no GitHub workflow commands" lacks out "::error"

	new_case
	xenv PERFVERDICT_CI=jenkins FAKE_PV_STATUS=1 sh "$S/run-gate.sh" base cand >out 2>err
	rc=$?
	check "run-gate (jenkins): exit 1 passes through" eq "$rc" 1
	check "run-gate (jenkins): dotenv verdict" has perfverdict-reports/perfverdict.env "PERFVERDICT_VERDICT=fail"
}

# ---------------------------------------------------------------------------
group_truncate() {
	new_case
	T=$S/truncate-summary.sh
	{
		echo "$MARKER"
		echo "## perfverdict"
		echo '<details><summary>All metrics</summary>'
		echo
		echo '```'
		i=0
		while [ $i -lt 400 ]; do
			i=$((i + 1))
			echo "| bench/metric_$i | unchanged | +0.1% | ✅ |"
		done
	} >big.md
	sh "$T" 100000 big.md >out 2>err
	check "truncate: a file under the cap is copied unchanged" cmp -s out big.md
	sh "$T" -n "See the JSON." 3000 big.md >out 2>err
	check "truncate: the output fits the cap" le "$(size out)" 3000
	check "truncate: the output ends with the note" sh -c 'tail -n 1 out | grep -q "truncated to fit 3000 bytes.*See the JSON.$"'
	check "truncate: it cuts at a line boundary" sh -c 'grep "metric_" out | tail -n 1 | grep -q "✅ |$"'
	check "truncate: an open code fence is closed" sh -c '[ "$(grep -c "^\`\`\`" out)" = 2 ]'
	check "truncate: an open <details> is closed" has out "</details>"
	check "truncate: the marker survives" has out "$MARKER"
	ok=1
	for lim in 0 1 10 60 200 999 5000 17000; do
		sh "$T" -n "note" "$lim" big.md >o.$lim || ok=0
		[ "$(size o.$lim)" -le "$lim" ] || ok=0
	done
	check "truncate: never over the cap (0..17000 bytes)" eq "$ok" 1
	sh "$T" 500 <big.md >stdin.out 2>err
	check "truncate: reads stdin" sh -c '[ "$(wc -c <stdin.out)" -le 500 ] && grep -q truncated stdin.out'
	sh "$T" 5k big.md >out 2>err
	check "truncate: a bad limit is a usage error (exit 2)" eq "$?" 2

	new_case
	# A 2 MB report must not overflow the 1 MiB step summary.
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=1 FAKE_PV_MD_LINES=60000 sh "$S/run-gate.sh" base cand >out 2>err
	check "step summary: a 2 MB report stays under 1 MiB" le "$(size summary.md)" "$MIB"
	check "step summary: the cut is noted, with where the full report is" sh -c \
		'grep -q "truncated to fit" summary.md && grep -q "actions/runs/99" summary.md'
	check "step summary: the Markdown itself is appended" has summary.md "$MARKER"

	new_case
	head -c 700000 /dev/zero | tr '\0' 'x' >summary.md
	echo >>summary.md
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=0 FAKE_PV_MD_LINES=30000 sh "$S/run-gate.sh" base cand >out 2>err
	check "step summary: counts what the step already wrote" le "$(size summary.md)" "$MIB"
	check "step summary: earlier content is kept" sh -c 'head -c 10 summary.md | grep -q xxxxxxxxxx'
}

# ---------------------------------------------------------------------------
upsert_gh() { # upsert_gh [VAR=VALUE]... -- [upsert-comment.sh args]; no blanks in VALUEs
	vars=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2046,SC2086
	xenv $(GH_ENV) PERFVERDICT_CI=github PERFVERDICT_GITHUB_TOKEN=tok \
		FAKE_GH_COMMENTS="$C/comments.json" $vars sh "$S/upsert-comment.sh" "$@" >out 2>err
}

group_github_comment() {
	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	upsert_gh -- --status 1
	rc=$?
	check "comment (gh): exit 0" eq "$rc" 0
	check "comment (gh): lists the PR comments" has calls "gh api --paginate repos/o/r/issues/42/comments?per_page=100"
	check "comment (gh): creates one when none has the marker" has calls "gh api --method POST repos/o/r/issues/42/comments -F body=@"
	check "comment (gh): the posted body is the report" cmp -s fake/body.1 perfverdict-reports/perfverdict-report.md
	check "comment (gh): the token reaches gh as GH_TOKEN" has fake/gh-env "token=tok"
	check "comment (gh): output comment=created, comment-id=777" sh -c \
		'grep -qx comment=created gh-out && grep -qx comment-id=777 gh-out'

	new_case
	gh_event 42
	mkmd
	comments_with_marker
	upsert_gh -- --status 1
	check "comment (gh): updates the comment that has the marker" has calls "gh api --method PATCH repos/o/r/issues/comments/1001 -F body=@"
	check "comment (gh): ... and does not create a duplicate" lacks calls "--method POST"
	check "comment (gh): output comment=updated" has gh-out "comment=updated"

	new_case
	gh_event 42
	mkmd
	comments_without_marker
	upsert_gh -- --status 1
	check "comment (gh): other people's comments are not ours" has calls "--method POST repos/o/r/issues/42/comments"

	new_case
	gh_event 42
	mkmd
	{
		printf '[{"id": 1, "body": "a"}, {"id": 2, "body": "b"}]\n'
		printf '[{"id": 3, "body": "c"},\n {"id": 4444, "user": {"login": "github-actions[bot]", "type": "Bot"}, "body": "\\u003c!-- perfverdict-report --\\u003e\\n## x"}]\n'
	} >comments.json
	upsert_gh -- --status 1
	check "comment (gh): finds the marker on a later page, \\u-escaped" has calls "--method PATCH repos/o/r/issues/comments/4444 "

	new_case
	gh_event 42
	mkmd
	comments_with_marker
	upsert_gh -- --status 1 --policy never
	check "comment (gh): policy never makes no call" eq "$(size calls)" 0

	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	upsert_gh PERFVERDICT_COMMENT=never -- --status 1
	check "comment (gh): PERFVERDICT_COMMENT=never makes no call" eq "$(size calls)" 0

	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	upsert_gh PERFVERDICT_GITHUB_TOKEN= GH_TOKEN=other -- --status 1
	check "comment (gh): an empty token input falls back to GH_TOKEN" has fake/gh-env "token=other"

	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	# shellcheck disable=SC2046
	xenv $(GH_ENV) PERFVERDICT_CI=github FAKE_GH_COMMENTS="$C/comments.json" \
		sh "$S/upsert-comment.sh" --status 1 >out 2>err
	check "comment (gh): no token -> no call" eq "$(size calls)" 0
	check "comment (gh): no token -> says why" has err "skipped (no GitHub token)"

	new_case
	printf '{"ref": "refs/heads/main", "commits": []}\n' >event.json
	mkmd
	echo '[]' >comments.json
	upsert_gh GITHUB_REF=refs/heads/main -- --status 1
	check "comment (gh): a push (no PR) -> no call" eq "$(size calls)" 0

	new_case
	mkmd
	echo '[]' >comments.json
	upsert_gh GITHUB_EVENT_PATH= GITHUB_REF=refs/pull/17/merge -- --status 1
	check "comment (gh): PR number from GITHUB_REF" has calls "repos/o/r/issues/17/comments"

	new_case
	printf '{"issue": {"number": 23, "pull_request": {"url": "x"}}, "comment": {"id": 5}}\n' >event.json
	mkmd
	echo '[]' >comments.json
	upsert_gh -- --status 1
	check "comment (gh): PR number from an issue_comment event" has calls "repos/o/r/issues/23/comments"

	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	upsert_gh -- --status 0 --policy on-regression
	check "comment (gh): on-regression + pass + no comment -> none created" sh -c \
		'! grep -q -- "--method" calls && grep -qx comment=skipped gh-out'

	new_case
	gh_event 42
	mkmd
	comments_with_marker
	upsert_gh -- --status 0 --policy on-regression
	check "comment (gh): on-regression + pass + old comment -> it is updated" has calls "--method PATCH repos/o/r/issues/comments/1001"

	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	upsert_gh -- --status 0 --policy always
	check "comment (gh): always + pass -> created" has calls "--method POST"

	new_case
	gh_event 42
	echo '[]' >comments.json
	upsert_gh -- --status 3
	check "comment (gh): tool error, no comment yet -> none created" lacks calls "--method"

	new_case
	gh_event 42
	comments_with_marker
	upsert_gh -- --status 3
	check "comment (gh): tool error + old comment -> it says the gate errored" sh -c \
		'grep -q -- "--method PATCH repos/o/r/issues/comments/1001" calls && grep -q "could not compare" fake/body.1'

	new_case
	gh_event 42
	mkmd
	echo '[]' >comments.json
	upsert_gh FAKE_GH_FAIL=1 -- --status 1
	rc=$?
	check "comment (gh): an API error does not change the exit status" eq "$rc" 0
	check "comment (gh): an API error is a warning annotation" has out "::warning "
	upsert_gh FAKE_GH_FAIL=1 -- --status 1 --strict
	check "comment (gh): --strict turns an API error into exit 4" eq "$?" 4

	new_case
	gh_event 42
	mkmd 4000
	echo '[]' >comments.json
	upsert_gh -- --status 1
	check "comment (gh): a long report is cut under 65,536 characters" le "$(size fake/body.1)" 65000
	check "comment (gh): the cut body keeps the marker and notes the cut" sh -c \
		'head -n 1 fake/body.1 | grep -qF "$1" && grep -q "truncated to fit" fake/body.1' sh "$MARKER"

	new_case
	gh_event 42
	mkmd
	sed -i '1d' perfverdict-reports/perfverdict-report.md
	echo '[]' >comments.json
	upsert_gh -- --status 1
	check "comment (gh): a body without the marker gets it" sh -c 'head -n 1 fake/body.1 | grep -qF "$1"' sh "$MARKER"
}

# ---------------------------------------------------------------------------
GL_ENV() {
	echo GITLAB_CI=true CI_API_V4_URL=https://gitlab.example/api/v4 CI_PROJECT_ID=7 \
		CI_MERGE_REQUEST_IID=5 CI_JOB_URL=https://gitlab.example/g/p/-/jobs/3
}
notes_with_marker() {
	cat >"$C/notes.json" <<'EOF'
[{"id": 2001, "body": "nice", "author": {"id": 1}, "system": false},
 {"id": 2002, "body": "<!-- perfverdict-report -->\n## perfverdict: pass", "author": {"id": 2}}]
EOF
}
upsert_gl() { # as upsert_gh
	vars=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2046,SC2086
	xenv $(GL_ENV) PERFVERDICT_CI=gitlab PERFVERDICT_GITLAB_TOKEN=gltok \
		FAKE_CURL_NOTES="$C/notes.json" $vars sh "$S/upsert-comment.sh" "$@" >out 2>err
}

group_gitlab_comment() {
	new_case
	mkmd
	echo '[]' >notes.json
	upsert_gl -- --status 1
	check "note (gl): exit 0" eq "$?" 0
	check "note (gl): lists the MR notes" has calls \
		"https://gitlab.example/api/v4/projects/7/merge_requests/5/notes?per_page=100&page=1"
	check "note (gl): ... with the token, from a file (-H @FILE)" has calls "header-file: PRIVATE-TOKEN: gltok"
	check "note (gl): ... never on curl's command line" sh -c '! grep "^curl " calls | grep -q gltok'
	check "note (gl): creates a note when none has the marker" has calls \
		"-X POST -H @"
	check "note (gl): the posted body is the report" cmp -s fake/body.1 perfverdict-reports/perfverdict-report.md

	new_case
	mkmd
	notes_with_marker
	upsert_gl -- --status 1
	check "note (gl): updates the note with the marker (PUT)" has calls \
		"-X PUT -H @"
	check "note (gl): ... at notes/2002" has calls "/projects/7/merge_requests/5/notes/2002 "
	check "note (gl): ... and does not create a duplicate" lacks calls "-X POST"

	new_case
	mkmd
	notes_with_marker
	upsert_gl PERFVERDICT_GITLAB_TOKEN= -- --status 1
	check "note (gl): no token variable -> no call" eq "$(size calls)" 0

	new_case
	mkmd
	notes_with_marker
	upsert_gl CI_MERGE_REQUEST_IID= -- --status 1
	check "note (gl): not an MR pipeline -> no call" eq "$(size calls)" 0

	new_case
	mkmd
	notes_with_marker
	upsert_gl -- --status 1 --policy never
	check "note (gl): policy never -> no call" eq "$(size calls)" 0

	new_case
	mkmd
	echo '[]' >notes.json
	upsert_gl -- --status 0
	check "note (gl): on-regression + pass + no note -> none created" lacks calls "-X POST"

	new_case
	mkmd
	echo '[]' >notes.json
	upsert_gl FAKE_CURL_FAIL=1 -- --status 1
	check "note (gl): an API error is only a warning (exit 0)" sh -c '[ "$1" = 0 ] && grep -q "warning: could not" err' sh "$?"
}

# ---------------------------------------------------------------------------
sim_gh() { # sim_gh [VAR=VALUE]... -- [--input k=v]...; no blanks in VALUEs
	vars=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2046,SC2086
	xenv $(GH_ENV) SIM_GITHUB_TOKEN=ghs_tok FAKE_GH_COMMENTS="$C/comments.json" $vars \
		"$PY" "$SIM" github "$CI_DIR/github" --input baseline=base --input candidate=cand \
		--input perfverdict=path --outputs "$C/action-out" "$@" >out 2>err
}

group_github_action() {
	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=1
	rc=$?
	check "action: a regression fails the action (exit 1)" eq "$rc" 1
	check "action: outputs verdict=fail regressions=2" sh -c \
		'grep -qx verdict=fail action-out && grep -qx regressions=2 action-out'
	check "action: report outputs point at written files" sh -c \
		'for k in report-json report-junit report-markdown; do f=$(sed -n "s/^$k=//p" action-out); [ -s "$f" ] || exit 1; done'
	check "action: the Markdown is in the step summary" has summary.md "$MARKER"
	check "action: the PR comment is created" has calls "--method POST repos/o/r/issues/42/comments"
	check "action: gh gets the github-token input" has fake/gh-env "token=ghs_tok"

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=0
	rc=$?
	check "action: a clean pass succeeds (exit 0)" eq "$rc" 0
	check "action: pass outputs verdict=pass regressions=0" sh -c \
		'grep -qx verdict=pass action-out && grep -qx regressions=0 action-out'
	check "action: pass writes the summary" has summary.md "perfverdict: pass"
	check "action: pass + on-regression creates no comment" lacks calls "--method"

	for st in 2 3; do
		new_case
		gh_event 42
		echo '[]' >comments.json
		sim_gh FAKE_PV_STATUS=$st FAKE_PV_STDERR="cand/x.json:4:malformed" -- --input config=perf.conf
		rc=$?
		check "action: tool error $st fails the action with exit $st" eq "$rc" "$st"
		check "action: tool error $st is annotated ::error file=cand/x.json,line=4" has out "::error file=cand/x.json,line=4,"
		check "action: tool error $st -> verdict=error" has action-out "verdict=error"
	done

	new_case
	gh_event 42
	comments_with_marker
	sim_gh FAKE_PV_STATUS=1
	check "action: an existing PR comment is updated" has calls "--method PATCH repos/o/r/issues/comments/1001"
	check "action: ... not duplicated" lacks calls "--method POST"
	check "action: output comment=updated" has action-out "comment=updated"

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=1 -- --input comment=never
	rc=$?
	check "action: comment=never -> no gh call" lacks calls "gh api"
	check "action: comment=never still fails on a regression" eq "$rc" 1

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=1 SIM_GITHUB_TOKEN= -- --input github-token=
	check "action: no token at all -> no gh call" lacks calls "gh api"
	check "action: no token at all -> still fails on the regression" has action-out "status=1"

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh PERFVERDICT_BIN="$C/nope/perfverdict" PERFVERDICT_BUILD=never
	rc=$?
	check "action: no perfverdict -> the action fails" eq "$rc" 2
	check "action: no perfverdict -> annotated" has out "::error file="

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=1 FAKE_PV_MD_LINES=60000 -- --input markdown-limit=0
	check "action: a 2 MB report keeps the summary under 1 MiB" le "$(size summary.md)" "$MIB"
	check "action: ... and the comment under 65,536" le "$(size fake/body.1)" 65536

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=0 -- --input output-dir=reports/perf --input args="--alpha 0.01" --input suite=netperf
	check "action: inputs reach compare" sh -c \
		'grep -q -- "--suite netperf --json reports/perf/perfverdict-report.json" pv-args && grep -q -- "--alpha 0.01 base cand" pv-args'
}

# ---------------------------------------------------------------------------
sim_gl() { # sim_gl [VAR=VALUE]... (as project CI/CD variables)
	set -- --var PERFVERDICT_HOME="$CI_DIR/.." --var PERFVERDICT_BASELINE=base --var PERFVERDICT_CANDIDATE=cand "$@"
	# shellcheck disable=SC2046
	xenv $(GL_ENV) CI_PROJECT_DIR="$C" FAKE_CURL_NOTES="$C/notes.json" \
		FAKE_PV_STATUS="${FAKE_PV_STATUS:-0}" \
		"$PY" "$SIM" gitlab "$CI_DIR/gitlab/perfverdict.gitlab-ci.yml" .perfverdict \
		--artifacts "$C/artifacts" "$@" >out 2>err
}

group_gitlab_job() {
	new_case
	echo '[]' >notes.json
	FAKE_PV_STATUS=1 sim_gl --var PERFVERDICT_GITLAB_TOKEN=gltok
	rc=$?
	check "gitlab job: a regression fails the job" eq "$rc" 1
	check "gitlab job: the MR note is created" has calls "-X POST -H @"
	check "gitlab job: artifacts when: always" has artifacts "when=always"
	check "gitlab job: artifact paths and the junit report exist" sh -c '
		n=0
		for p in $(sed -n "s/^path=//p; s/^report\.junit=//p; s/^report\.dotenv=//p" artifacts); do
			[ -s "$p" ] || exit 1; n=$((n + 1)); done
		[ "$n" = 5 ]'

	new_case
	notes_with_marker
	FAKE_PV_STATUS=1 sim_gl --var PERFVERDICT_GITLAB_TOKEN=gltok
	check "gitlab job: an existing note is updated" has calls "-X PUT"
	check "gitlab job: ... not duplicated" lacks calls "-X POST"

	new_case
	echo '[]' >notes.json
	FAKE_PV_STATUS=0 sim_gl --var PERFVERDICT_GITLAB_TOKEN=gltok
	rc=$?
	check "gitlab job: a clean pass succeeds" eq "$rc" 0
	check "gitlab job: a clean pass creates no note" lacks calls "-X POST"

	new_case
	echo '[]' >notes.json
	FAKE_PV_STATUS=3 sim_gl --var PERFVERDICT_GITLAB_TOKEN=gltok
	rc=$?
	check "gitlab job: a tool error fails the job (exit 3)" eq "$rc" 3
	check "gitlab job: a tool error prints an error line" has err "error: perfverdict compare failed: input error"

	new_case
	notes_with_marker
	FAKE_PV_STATUS=1 sim_gl
	check "gitlab job: without a token no API call" eq "$(size calls)" 0

	new_case
	# PERFVERDICT_HOME left at its default: the project itself is a checkout.
	# shellcheck disable=SC2046
	xenv $(GL_ENV) CI_PROJECT_DIR="$CI_DIR/.." FAKE_PV_STATUS=1 \
		"$PY" "$SIM" gitlab "$CI_DIR/gitlab/perfverdict.gitlab-ci.yml" .perfverdict \
		--var PERFVERDICT_BASELINE=base --var PERFVERDICT_CANDIDATE=cand >out 2>err
	rc=$?
	check "gitlab job: finds ci/scripts in the project dir by default" sh -c '[ "$1" = 1 ] && [ -s pv-args ]' sh "$rc"

	new_case
	FAKE_PV_STATUS=0 sim_gl --var PERFVERDICT_HOME="$C/nowhere"
	rc=$?
	check "gitlab job: no perfverdict checkout -> the job fails" ne "$rc" 0
}

# ---------------------------------------------------------------------------
# What the job log says: each error once, the worst regressions by name,
# a warning when the two sides ran in different environments.
group_log() {
	new_case
	xenv PERFVERDICT_CI=gitlab FAKE_PV_STATUS=2 \
		FAKE_PV_STDERR="perfverdict: warning: something to know
perfverdict: error: perf.conf:3: unknown key 'speed' in section [gate]" \
		sh "$S/run-gate.sh" base cand >out 2>err
	check "log (gitlab): a config error is printed once" eq "$(count err "unknown key 'speed'")" 1
	check "log (gitlab): ... on the compiler-style line" has err "perf.conf:3: error: perfverdict compare failed: usage or config error (exit 2): perf.conf:3: unknown key"
	check "log (gitlab): warnings are still shown" has err "perfverdict: warning: something to know"

	new_case
	xenv PERFVERDICT_CI=gitlab FAKE_PV_STATUS=1 sh "$S/run-gate.sh" base cand >out 2>err
	check "log (gitlab): a regression names the worst ones, largest first" has err \
		"gate failed: 2 regression(s); worst: g/big/ops -25.0%, g/small/time +6.1%"
	check "log (gitlab): ... not the unchanged ones" lacks err "flat"

	new_case
	# shellcheck disable=SC2046
	xenv $(GH_ENV) FAKE_PV_STATUS=1 sh "$S/run-gate.sh" base cand >out 2>err
	check "log (github): the error annotation names the worst regressions" sh -c \
		'grep "^::error title=perfverdict::" out | grep -q "worst: g/big/ops -25.0%"'

	new_case
	xenv PERFVERDICT_CI=gitlab FAKE_PV_STATUS=0 FAKE_PV_CONTEXT_B='{"num_cpus": "2", "host_name": "a", "executable": "b/bench", "cpu": "X"}' \
		FAKE_PV_CONTEXT_C='{"num_cpus": "4", "host_name": "a", "executable": "c/bench", "cpu": "Y"}' \
		sh "$S/run-gate.sh" base cand >out 2>err
	check "log: different environments -> a warning naming what differs" has err \
		"warning: baseline and candidate ran in different environments: num_cpus (2 vs 4); cpu (X vs Y)"
	check "log: ... not what is the same, nor what is not the machine" sh -c \
		'! grep "different environments" err | grep -q "host_name\|executable"'
	check "log: ... and the gate status is unchanged" has perfverdict-reports/perfverdict.env "PERFVERDICT_STATUS=0"

	new_case
	xenv PERFVERDICT_CI=gitlab FAKE_PV_STATUS=0 FAKE_PV_CONTEXT_B='{"num_cpus": "2"}' \
		FAKE_PV_CONTEXT_C='{"num_cpus": "2"}' sh "$S/run-gate.sh" base cand >out 2>err
	check "log: the same environment -> no warning" lacks err "different environments"

	new_case
	mkmd
	xenv GITLAB_CI=true CI_API_V4_URL=https://gitlab.example/api/v4 CI_PROJECT_ID=7 \
		PERFVERDICT_CI=gitlab PERFVERDICT_STATUS=1 sh "$S/upsert-comment.sh" >out 2>err
	check "log (gitlab): outside an MR pipeline the comment is skipped for that reason" has err \
		"comment: skipped (not a merge request pipeline)"
	check "log (gitlab): ... not for a missing token" lacks err "no GitLab token"
}

# ---------------------------------------------------------------------------
# The baseline from the default branch's artifact, and the first pull
# request, before there is one (fetch-baseline.sh through the action).
group_github_baseline() {
	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=1 FAKE_GH_RUN= -- --input baseline-artifact=perf-baseline
	rc=$?
	check "first PR: no baseline run yet -> the action passes (skip)" eq "$rc" 0
	check "first PR: outputs verdict=skipped status=0" sh -c \
		'grep -qx verdict=skipped action-out && grep -qx status=0 action-out && grep -qx regressions= action-out'
	check "first PR: a notice, not an error" sh -c 'grep -q "^::notice " out && ! grep -q "^::error" out'
	check "first PR: the job summary says it was skipped and why" sh -c \
		'grep -q "skipped, no baseline yet" summary.md && grep -q "perf.yml has no successful push run on main" summary.md'
	check "first PR: the summary gives the command that creates the baseline" has summary.md \
		"gh workflow run perf.yml --repo o/r --ref main"
	check "first PR: compare is not run" missing pv-args
	check "first PR: the runs of this workflow (from GITHUB_WORKFLOW_REF) on main" has calls \
		"gh run list --repo o/r --workflow perf.yml --branch main --event push --status success"
	check "first PR: gh gets the github-token input" has fake/gh-env "token=ghs_tok"
	check "first PR: no comment is created" lacks calls "--method POST"

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_GH_RUN= -- --input baseline-artifact=perf-baseline --input missing-baseline=fail
	rc=$?
	check "first PR, missing-baseline fail: the action fails with exit 3" eq "$rc" 3
	check "first PR, missing-baseline fail: verdict=error" has action-out "verdict=error"
	check "first PR, missing-baseline fail: the error names the baseline and the command" sh -c \
		'grep "^::error file=base," out | grep -q "gh workflow run perf.yml"'

	new_case
	mkdir -p art/repeat1
	echo base >art/repeat1/r.csv
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=0 FAKE_GH_RUN=4242:abc123 FAKE_GH_ARTIFACT="$C/art" -- \
		--input baseline-artifact=perf-baseline
	rc=$?
	check "baseline artifact: downloaded, then compared (exit 0)" eq "$rc" 0
	check "baseline artifact: gh run download of the run found" has calls \
		"gh run download 4242 --repo o/r --name perf-baseline --dir base"
	check "baseline artifact: the tree is in the baseline input's directory" exists base/repeat1/r.csv
	check "baseline artifact: compare ran on it" has pv-args " base cand"
	check "baseline artifact: output baseline-run=4242" has action-out "baseline-run=4242"
	check "baseline artifact: the summary names the run and commit" has summary.md "run 4242 of perf.yml on main (commit abc123)"

	new_case
	echo '{"number": 42, "pull_request": {"number": 42}, "repository": {"full_name": "o/r", "default_branch": "develop"}}' >event.json
	echo '[]' >comments.json
	sim_gh FAKE_GH_RUN= -- --input baseline-artifact=perf-baseline
	check "baseline branch: the repository's default branch from the event" has calls "--branch develop"

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_GH_RUN= -- --input baseline-artifact=b --input baseline-workflow=bench.yml --input baseline-branch=trunk
	check "baseline-workflow and baseline-branch inputs reach gh" has calls "--workflow bench.yml --branch trunk"

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_GH_RUN=4242:abc -- --input baseline-artifact=perf-baseline
	rc=$?
	check "baseline artifact gone (expired): a tool error, exit 2" eq "$rc" 2
	check "baseline artifact gone: the error says so" sh -c 'grep "^::error" out | grep -q "has no artifact .perf-baseline."'

	new_case
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_GH_FAIL=1 -- --input baseline-artifact=perf-baseline
	rc=$?
	check "baseline lookup: an API error is a tool error, never a skip" sh -c \
		'[ "$1" = 2 ] && ! grep -q verdict=skipped action-out' sh "$rc"

	new_case
	echo x >base/r.csv
	gh_event 42
	echo '[]' >comments.json
	sim_gh FAKE_PV_STATUS=0 FAKE_GH_RUN= -- --input baseline-artifact=perf-baseline
	check "baseline already there: no download" lacks calls "gh run"
	check "baseline already there: compared" has pv-args " base cand"
}

# The same on GitLab: the job-artifacts API, through the template.
group_gitlab_baseline() {
	new_case
	echo '[]' >notes.json
	sim_gl --var PERFVERDICT_BASELINE_JOB=benchmarks --var CI_DEFAULT_BRANCH=main
	rc=$?
	check "gitlab first MR: no baseline yet -> the job passes" eq "$rc" 0
	check "gitlab first MR: a notice says why and how to create it" sh -c \
		'grep -q "notice: gate skipped: no baseline yet: main has no successful pipeline" err && grep -q "Run pipeline" err'
	check "gitlab first MR: the dotenv says skipped" has perfverdict-reports/perfverdict.env "PERFVERDICT_VERDICT=skipped"
	check "gitlab first MR: the job-artifacts API of the default branch" has calls \
		"https://gitlab.example/api/v4/projects/7/jobs/artifacts/main/download?job=benchmarks"

	new_case
	echo '[]' >notes.json
	sim_gl --var PERFVERDICT_BASELINE_JOB=benchmarks --var PERFVERDICT_MISSING_BASELINE=fail
	check "gitlab first MR, missing-baseline fail: exit 3" eq "$?" 3

	new_case
	echo '[]' >notes.json
	mkdir -p z/cand/repeat1
	echo base >z/cand/repeat1/r.csv
	(cd z && "$PY" -m zipfile -c ../a.zip cand)
	FAKE_PV_STATUS=0 sim_gl --var PERFVERDICT_BASELINE_JOB=benchmarks --var FAKE_CURL_ARTIFACT="$C/a.zip"
	rc=$?
	check "gitlab baseline: the candidate path of the default branch's artifacts becomes the baseline" \
		sh -c '[ "$1" = 0 ] && [ -f base/repeat1/r.csv ]' sh "$rc"
	check "gitlab baseline: with the job token, from a file" has calls "header-file: JOB-TOKEN:"
}

# ---------------------------------------------------------------------------
group_build() {
	if PATH=$SYSPATH command -v perfverdict >/dev/null 2>&1; then
		# a perfverdict on the system PATH would hide the build
		say "# skipped: the build group (a perfverdict is on the system PATH: $(PATH=$SYSPATH command -v perfverdict))"
		return
	fi
	if ! command -v make >/dev/null 2>&1; then
		say "# skipped: the build group (no make)"
		return
	fi
	# A copy of the tree whose Makefile "builds" the fake and whose
	# install-deps.sh only records that it ran.
	new_case
	t=$C/tree
	mkdir -p "$t" "$C/bin"
	cp -R "$CI_DIR" "$t/ci"
	printf '#!/bin/sh\necho "$*" >>"$DEPS_LOG"\n' >"$t/ci/scripts/install-deps.sh"
	printf 'all:\n\tmkdir -p build && cp "$(FAKEPV)" build/perfverdict\n' >"$t/Makefile"
	ln -s "$FAKES/gh" "$C/bin/gh"
	printf '#!/bin/sh\nexec "$@"\n' >"$C/bin/sudo"
	chmod +x "$C/bin/sudo"
	env -i PATH="$C/bin:$SYSPATH" HOME="$C" DEPS_LOG="$C/deps" FAKEPV="$FAKES/perfverdict" \
		FAKE_PV_LOG="$C/pv-args" FAKE_PV_STATUS=1 PERFVERDICT_CI=github GITHUB_OUTPUT="$C/gh-out" \
		sh "$t/ci/scripts/gate.sh" base cand >out 2>err
	rc=$?
	check "build: no perfverdict -> install-deps.sh --build-only" has deps "--build-only"
	check "build: ... then make builds it in the checkout" exists "$t/build/perfverdict"
	check "build: ... and the gate runs with it (exit 1 passes through)" sh -c '[ "$1" = 1 ] && [ -s pv-args ]' sh "$rc"
	check "build: the build log is a collapsed group" has out "::group::Build perfverdict"

	new_case
	rm -rf "$t/build"
	: >"$C/deps"
	env -i PATH="$C/bin:$SYSPATH" HOME="$C" DEPS_LOG="$C/deps" FAKEPV="$FAKES/perfverdict" \
		PERFVERDICT_BUILD=never PERFVERDICT_CI=github GITHUB_OUTPUT="$C/gh-out" \
		sh "$t/ci/scripts/gate.sh" base cand >out 2>err
	rc=$?
	check "build: PERFVERDICT_BUILD=never -> no build, exit 2" sh -c '[ "$1" = 2 ] && [ ! -s deps ]' sh "$rc"

	# PERFVERDICT_FROM=checkout (the action's default): a perfverdict on
	# PATH is another version, so the checkout is built and used instead.
	new_case
	rm -rf "$t/build"
	: >"$C/deps"
	mkdir -p "$C/bin2"
	printf '#!/bin/sh\necho called >"%s/path-pv"\nexit 0\n' "$C" >"$C/bin2/perfverdict"
	chmod +x "$C/bin2/perfverdict"
	env -i PATH="$C/bin2:$C/bin:$SYSPATH" HOME="$C" DEPS_LOG="$C/deps" FAKEPV="$FAKES/perfverdict" \
		FAKE_PV_LOG="$C/pv-args" FAKE_PV_STATUS=1 PERFVERDICT_CI=github GITHUB_OUTPUT="$C/gh-out" \
		PERFVERDICT_FROM=checkout PERFVERDICT_ACTION_REF=0123abc \
		sh "$t/ci/scripts/gate.sh" base cand >out 2>err
	rc=$?
	check "build (checkout): the perfverdict on PATH is not used" missing path-pv
	check "build (checkout): the checkout is built and runs the gate" sh -c \
		'[ "$1" = 1 ] && [ -s pv-args ] && [ -x "$2/build/perfverdict" ]' sh "$rc" "$t"
	check "build (checkout): the log names the ref the action was called at" has err \
		"building perfverdict from $t at 0123abc"

	new_case
	xenv PERFVERDICT_CI=github sh "$S/exit-status.sh" "" >out 2>err
	rc=$?
	check "exit-status: no recorded status is an error (exit 2)" sh -c '[ "$1" = 2 ] && grep -q "::error" out' sh "$rc"
	for st in 0 1 2 3; do
		xenv sh "$S/exit-status.sh" "$st" >out 2>err
		check "exit-status: $st -> $st" eq "$?" "$st"
	done
}

# ---------------------------------------------------------------------------
group_jenkins() {
	# The Jenkinsfile's sh step, run as Jenkins would (returnStatus).
	J=$CI_DIR/jenkins/Jenkinsfile
	cmd=$(sed -n "s/.*sh(script: '\([^']*\)', returnStatus: true).*/\1/p" "$J")
	check "jenkins: the stage runs one sh step with returnStatus" ne "$cmd" ""
	for st in 0 1 2 3; do
		new_case
		xenv JENKINS_URL=http://jenkins/ BUILD_URL=http://jenkins/job/1/ PERFVERDICT_CI=jenkins \
			PERFVERDICT_HOME="$CI_DIR/.." PERFVERDICT_BASELINE=base PERFVERDICT_CANDIDATE=cand \
			PERFVERDICT_OUTPUT_DIR=perfverdict-reports PERFVERDICT_COMMENT=never \
			FAKE_PV_STATUS=$st sh -c "$cmd" >out 2>err
		rc=$?
		check "jenkins: exit $st reaches the pipeline as $st" eq "$rc" "$st"
	done
	check "jenkins: a tool error prints a compiler-style error" has err "cand: error: perfverdict compare failed"
}

# ---------------------------------------------------------------------------
# Mutation checks: the tests must be able to fail.  Break a copy of ci/ in
# one place and expect this suite to notice.
mutant() { # mutant NAME GROUPS FILE SED-EXPR
	m=$WORK/mutant-$1
	rm -rf "$m"
	mkdir -p "$m"
	cp -R "$CI_DIR" "$m/ci"
	sed -i "$4" "$m/ci/scripts/$3"
	if cmp -s "$m/ci/scripts/$3" "$CI_DIR/scripts/$3"; then
		return 1 # the mutation did not apply: the check is void
	fi
	! CI_DIR=$m/ci ONLY=$2 sh "$TESTS/run.sh" >"$m/log" 2>&1
}
group_mutation() {
	C=
	check "mutation: run-gate maps exit 3 to 0 -> caught" mutant status-3 status run-gate.sh \
		's/^\t0 | 1 | 2 | 3) status=\$raw ;;/\t0 | 1 | 2) status=$raw ;;\n\t3) status=0 ;;/'
	check "mutation: the marker search never matches -> caught" mutant marker github_comment lib.sh \
		's/m1 = "<!-- perfverdict-report -->"/m1 = "<!-- nothing -->"/'
	check "mutation: truncation disabled -> caught" mutant trunc truncate truncate-summary.sh \
		's/if \[ "\$size" -le "\$limit" \]; then/if true; then/'
	check "mutation: a rejected history push never retried -> caught" mutant retry history_race history-main.sh \
		's/\[ "\$tries" -lt 5 \]/[ "$tries" -lt 1 ]/'
	check "mutation: the archive never pruned -> caught" mutant prune history history-lib.sh \
		's/\[ "\$pv_n" -le "\$2" \] \&\& return 0/return 0/'
	check "mutation: a recent history regression only warns -> caught" mutant gate history history-main.sh \
		's/^\tfinish 1 fail$/\tfinish 0 fail/'
	check "mutation: policy never ignored -> caught" mutant never github_comment upsert-comment.sh \
		's/^\[ "\$policy" = never \] && skip "policy never"$/:/'
	check "mutation: a forged PR claim accepted -> caught" mutant claim comment_trust upsert-comment.sh \
		's/if \[ -n "\$claim" \] && \[ "\$claim" != "\$pr" \]; then/if false; then/'
	check "mutation: any author's marker comment updated -> caught" mutant author comment_trust upsert-comment.sh \
		's/id=\$(pv_json_marker_id "\$tmpd\/list" \.user\.login "\$who_login" \.user\.type "\$who_type")/id=$(pv_json_marker_id "$tmpd\/list")/'
}

# Issue 21: data.js archives and the history jobs (tests/ci/history.sh).
# shellcheck disable=SC1091 # checked on its own in group_lint
. "$TESTS/history.sh"
# Issue 37: forks, hostile archives, shared runners (tests/ci/trust.sh).
# shellcheck disable=SC1091 # checked on its own in group_lint
. "$TESTS/trust.sh"

# ---------------------------------------------------------------------------
ALL="lint status truncate github_comment gitlab_comment comment_trust comment_names token_first archive_names archive_lock archive_token archive_onerun log github_action github_baseline gitlab_job gitlab_baseline build jenkins benchdata history history_race history_first history_gitlab mutation"
for g in ${ONLY:-$ALL}; do
	"group_$g"
done
cd "$ROOT" || exit 1
say "ci: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]

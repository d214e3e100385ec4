# shellcheck shell=sh
# tests/ci/trust.sh - issue 37's groups of tests/ci/run.sh (sourced by
# it): what a fork, a hostile archive or a shared runner can do to the CI
# scripts.  comment_trust: the PR comment of a workflow_run job and whose
# comment is updated; the other groups are added below it.
# shellcheck disable=SC2016,SC2154,SC2012,SC1091

# A fork's pull request commented from a workflow_run job: the event of
# run HEAD-SHA of fork/r's branch BRANCH (a pull_request run; no
# pull_requests listed, as GitHub gives for a fork).
wr_event() { # wr_event HEAD-SHA BRANCH [PULL_REQUESTS-JSON]
	cat >"$C/event.json" <<EOF
{"action": "completed", "workflow_run": {"id": 555, "event": "pull_request", "head_sha": "$1",
 "head_branch": "$2", "pull_requests": ${3:-[]},
 "head_repository": {"full_name": "fork/r", "owner": {"login": "fork"}},
 "repository": {"full_name": "o/r"}}, "repository": {"full_name": "o/r"}}
EOF
}
pulls() { # pulls NUMBER HEAD-SHA [HEAD-REPO]: the API's open pull requests of o/r
	printf '[{"number": %s, "head": {"sha": "%s", "ref": "feat", "repo": {"full_name": "%s"}},\n  "base": {"repo": {"full_name": "o/r"}}}]\n' \
		"$1" "$2" "${3:-fork/r}" >"$C/pulls.json"
}

# What a fork's run uploaded (the PR number) is a claim; only the bot's
# own comment is ever updated.
group_comment_trust() {
	new_case
	mkmd
	echo '[]' >comments.json
	wr_event abc123 feat
	pulls 42 abc123
	upsert_gh FAKE_GH_PULLS="$C/pulls.json" PERFVERDICT_PR=7 -- --status 1
	rc=$?
	check "workflow_run: a forged PR number (7, the run is #42's) is refused (exit 2)" eq "$rc" 2
	check "workflow_run: ... with an error naming both" sh -c 'grep "^::error" out | grep -q "claim pull request #7.*belongs to #42"'
	check "workflow_run: ... and nothing is posted or edited" sh -c '! grep -q -- "--method" calls && [ ! -e fake/body.1 ]'
	check "workflow_run: the PR was looked up by head owner:branch, then SHA and repository" has calls \
		"gh api --paginate repos/o/r/pulls?state=open&per_page=100&head=fork%3Afeat"

	new_case
	mkmd
	echo '[]' >comments.json
	wr_event abc123 feat
	pulls 42 abc123
	upsert_gh FAKE_GH_PULLS="$C/pulls.json" PERFVERDICT_PR=42 -- --status 1
	check "workflow_run: the right claim (#42) is posted on #42" sh -c \
		'[ "$1" = 0 ] && grep -q -- "--method POST repos/o/r/issues/42/comments" calls' sh "$?"
	new_case
	mkmd
	echo '[]' >comments.json
	wr_event abc123 feat
	pulls 42 abc123
	upsert_gh FAKE_GH_PULLS="$C/pulls.json" -- --status 1
	check "workflow_run: without a claim the event's PR (#42) is used" has calls "--method POST repos/o/r/issues/42/comments"

	new_case
	mkmd
	echo '[]' >comments.json
	wr_event abc123 feat
	pulls 42 fff999
	upsert_gh FAKE_GH_PULLS="$C/pulls.json" PERFVERDICT_PR=42 -- --status 1
	check "workflow_run: a PR whose head moved on (another SHA) gets no comment" sh -c \
		'! grep -q -- "--method" calls && grep -q "skipped (no open pull request" err'
	new_case
	mkmd
	echo '[]' >comments.json
	wr_event abc123 feat
	pulls 42 abc123 other/r
	upsert_gh FAKE_GH_PULLS="$C/pulls.json" PERFVERDICT_PR=42 -- --status 1
	check "workflow_run: a PR from another head repository gets no comment" lacks calls "--method"

	new_case
	mkmd
	echo '[]' >comments.json
	wr_event abc123 'fe&at' '[{"number": 99, "head": {"sha": "abc123", "repo": {"url": "https://api.github.com/repos/fork/r"}},
	  "base": {"repo": {"url": "https://api.github.com/repos/someone/else"}}}]'
	pulls 42 abc123
	upsert_gh FAKE_GH_PULLS="$C/pulls.json" -- --status 1
	check "workflow_run: a listed PR of another base repository is not ours (#42 from the API instead)" sh -c \
		'grep -q -- "--method POST repos/o/r/issues/42/comments" calls && ! grep -q "issues/99" calls'
	check "workflow_run: the branch is URL-encoded in the lookup" has calls "head=fork%3Afe%26at"

	new_case
	mkmd
	echo '[]' >comments.json
	cat >event.json <<'EOF'
{"workflow_run": {"id": 5, "event": "pull_request", "head_sha": "abc123", "head_branch": "feat",
 "head_repository": {"full_name": "o/r", "owner": {"login": "o"}},
 "pull_requests": [{"number": 5, "head": {"sha": "abc123", "repo": {"url": "https://api.github.com/repos/o/r"}},
                    "base": {"repo": {"url": "https://api.github.com/repos/o/r"}}}]}}
EOF
	upsert_gh PERFVERDICT_PR=5 -- --status 1
	check "workflow_run: a same-repository PR from the event's pull_requests, no lookup" sh -c \
		'grep -q -- "--method POST repos/o/r/issues/5/comments" calls && ! grep -q pulls calls'

	new_case
	mkmd
	echo '[]' >comments.json
	cat >event.json <<'EOF'
{"workflow_run": {"id": 5, "event": "push", "head_sha": "abc123", "head_branch": "main",
 "head_repository": {"full_name": "o/r", "owner": {"login": "o"}}, "pull_requests": []}}
EOF
	upsert_gh PERFVERDICT_PR=5 -- --status 1
	check "workflow_run: a push run gets no comment" lacks calls "--method"

	# Comments that carry the marker but were not written by the bot.
	new_case
	gh_event 42
	mkmd
	cat >comments.json <<'EOF'
[{"id": 900, "user": {"login": "mallory", "id": 66, "type": "User"}, "body": "<!-- perfverdict-report -->\nall fine"},
 {"id": 901, "user": {"login": "github-actions[bot]", "id": 67, "type": "User"}, "body": "<!-- perfverdict-report -->"},
 {"id": 902, "user": {"login": "evil[bot]", "id": 68, "type": "Bot"}, "body": "<!-- perfverdict-report -->"},
 {"id": 903, "body": "<!-- perfverdict-report -->"}]
EOF
	upsert_gh -- --status 1
	check "comment (gh): a marker planted by others (a user, a fake type, another bot) is never edited" \
		lacks calls "--method PATCH"
	check "comment (gh): ... a new comment is created instead" has calls "--method POST repos/o/r/issues/42/comments"
	check "comment (gh): ... and the log says which comment was ignored" has err "ignoring comment 900"
	upsert_gh -- --status 0
	check "comment (gh): ... on a pass (on-regression) nothing is updated or created" \
		eq "$(grep -c -- "--method" calls)" 1

	new_case
	gh_event 42
	mkmd
	cat >comments.json <<'EOF'
[{"id": 900, "user": {"login": "mallory", "type": "User"}, "body": "<!-- perfverdict-report -->"},
 {"id": 910, "user": {"login": "perf-bot", "type": "User"}, "body": "<!-- perfverdict-report -->"}]
EOF
	echo '{"login": "perf-bot", "type": "User"}' >user.json
	upsert_gh FAKE_GH_USER="$C/user.json" -- --status 1
	check "comment (gh): a personal token's own comment (GET /user) is updated, not another's" has calls \
		"--method PATCH repos/o/r/issues/comments/910 "
	new_case
	gh_event 42
	mkmd
	cat >comments.json <<'EOF'
[{"id": 920, "user": {"login": "my-app[bot]", "type": "Bot"}, "body": "<!-- perfverdict-report -->"}]
EOF
	upsert_gh 'PERFVERDICT_COMMENT_AUTHOR=my-app[bot]' -- --status 1
	check "comment (gh): PERFVERDICT_COMMENT_AUTHOR names the bot whose comment is ours" has calls \
		"--method PATCH repos/o/r/issues/comments/920 "

	new_case
	mkmd
	cat >notes.json <<'EOF'
[{"id": 2001, "body": "<!-- perfverdict-report -->\nplanted", "author": {"id": 66}},
 {"id": 2002, "body": "<!-- perfverdict-report -->", "author": {"id": 2}}]
EOF
	upsert_gl -- --status 1
	check "note (gl): the token's own note (GET /user: id 2) is updated, not a planted one" sh -c \
		'grep -q "/notes/2002 " calls && ! grep -q "/notes/2001" calls'
	new_case
	mkmd
	cat >notes.json <<'EOF'
[{"id": 2001, "body": "<!-- perfverdict-report -->\nplanted", "author": {"id": 66}}]
EOF
	upsert_gl -- --status 1
	check "note (gl): a marker planted by another user is not edited; a new note is created" sh -c \
		'! grep -q -- "-X PUT" calls && grep -q -- "-X POST" calls'
}

# ---------------------------------------------------------------------------
# The main job of the dir store (Jenkins): push N of tree TREE into
# $C/kept, in $C/ws.
jk_push() { # jk_push N TREE [VAR=VALUE...]
	n=$1 tree=$2
	shift 2
	(cd "$C/ws" && env -i PATH="$SYSPATH" HOME="$C" JENKINS_URL=http://j/ BRANCH_NAME=main \
		GIT_COMMIT="$(printf '%040d' "$n")" SOURCE_DATE_EPOCH=$((1796155200 + n * 60)) BUILD_TAG="jenkins-main-$n" \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$tree" \
		PERFVERDICT_CONFIG="$C/t/perf.conf" PERFVERDICT_HISTORY_STORE=dir PERFVERDICT_HISTORY_DIR="$C/kept" \
		PERFVERDICT_HISTORY_KEEP=3 PERFVERDICT_OUTPUT_DIR="$C/jout$n" "$@" sh "$S/gate.sh")
}
jk_pr() { # jk_pr TAG TREE [VAR=VALUE...]
	tag=$1 tree=$2
	shift 2
	(cd "$C/ws" && env -i PATH="$SYSPATH" HOME="$C" JENKINS_URL=http://j/ BRANCH_NAME=PR-3 CHANGE_ID=3 \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$tree" \
		PERFVERDICT_CONFIG="$C/t/perf.conf" PERFVERDICT_HISTORY_STORE=dir PERFVERDICT_HISTORY_DIR="$C/kept" \
		PERFVERDICT_COMMENT=never PERFVERDICT_OUTPUT_DIR="$C/jpr$tag" "$@" sh "$S/gate.sh")
}

# Pruning, names and the lock of the kept directory.
group_archive_names() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	echo secret >"$C/ws/.env"
	echo secret >"$C/.env"
	for i in 1 2 3; do jk_push "$i" "$C/t/p$i" >"$C/jlog$i" 2>&1; done
	# A point named with a newline, ".env" and a newline (an import of a
	# hostile commit id did it), the oldest by name.
	bad=$(printf '2026-01-01T000000Z-a\n.env\n.json.gz')
	first=$(ls "$C/kept" | head -n 1)
	mv "$C/kept/$first" "$C/kept/$bad"
	jk_push 4 "$C/t/p4" >"$C/jlog4" 2>&1
	check "prune: a point named 'x<NL>.env<NL>.json.gz' deletes no .env in the workspace" exists "$C/ws/.env"
	check "prune: ... nor beside the archive" exists "$C/.env"
	check "prune: ... the hostile point itself is pruned (the oldest), 3 points kept" sh -c \
		'[ ! -e "$1/$2" ] && [ "$(ls "$1" | wc -l)" = 3 ]' sh "$C/kept" "$bad"
	check "prune: ... and the log shows its name on one line" grep -q '^pruned 2026-01-01T000000Z-a?\.env?\.json\.gz$' "$C/jlog4"
	ln -s /etc/hostname "$C/kept/2020-01-01T000000Z-link.json.gz"
	jk_push 5 "$C/t/p5" >"$C/jlog5" 2>&1
	check "prune: a symbolic link in the archive is neither counted nor followed" sh -c \
		'[ -L "$1/2020-01-01T000000Z-link.json.gz" ] && [ -e /etc/hostname ] && [ "$(ls "$1" | wc -l)" = 4 ]' sh "$C/kept"
	rm -f "$C/kept/2020-01-01T000000Z-link.json.gz"
	jk_push 6 "$C/t/p6" GIT_COMMIT="$(printf 'ab$(touch pwned)\n.e`x`' )" >"$C/jlog6" 2>&1
	check "names: a hostile commit id gives a point name of [0-9A-Za-z._-] only" sh -c \
		'ls "$1" | grep -q "^2026-12-01T200600Z-abtouch\.json\.gz$" && [ ! -e pwned ] && [ ! -e "$2/pwned" ]' sh "$C/kept" "$C/ws"

	# The copy into the store is atomic: a temporary name, then a rename.
	mkdir -p "$C/bin"
	printf '#!/bin/sh\nfor a in "$@"; do :; done\nprintf "%%s\\n" "$a" >>"%s/cp-dest"\nexec /bin/cp "$@"\n' "$C" >"$C/bin/cp"
	chmod +x "$C/bin/cp"
	jk_push 7 "$C/t/p7" PATH="$C/bin:$SYSPATH" >"$C/jlog7" 2>&1
	check "store: the point is copied to a temporary name in the store, then renamed" sh -c \
		'grep -q "^$1/\.pv-new-[0-9]*-2026-12-01T200700Z-0000000\.json\.gz$" "$2/cp-dest" && [ -f "$1/2026-12-01T200700Z-0000000.json.gz" ] &&
		 ! ls -A "$1" | grep -q "^\.pv-new"' sh "$C/kept" "$C"
}

group_archive_lock() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	for i in 1 2 3; do jk_push "$i" "$C/t/p$i" >"$C/jlog$i" 2>&1; done
	# A lock left by a job killed on another machine 40 minutes ago.
	mkdir "$C/kept/.lock"
	printf 'host=elsewhere\nwhere=-/-\npid=4242\njob=jenkins-main-99\ntime=%s\n' $(($(date +%s) - 2400)) >"$C/kept/.lock/owner"
	jk_push 4 "$C/t/p4" >"$C/jlog4" 2>&1
	check "lock: a stale lock (40 min, timeout 900 s) is broken: the job passes" eq "$?" 0
	check "lock: ... with a warning naming its owner and why" grep -q \
		"warning: broke the stale lock .*job jenkins-main-99, process 4242 on elsewhere.*24[0-9][0-9] s old, more than PERFVERDICT_HISTORY_LOCK_TIMEOUT" "$C/jlog4"
	check "lock: ... the point is in and the lock released" sh -c \
		'[ -f "$1/kept/2026-12-01T200400Z-0000000.json.gz" ] && [ ! -e "$1/kept/.lock" ]' sh "$C"
	# A lock of a process of this host that is gone: broken at once.
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	where=$(. "$S/lib.sh" 2>/dev/null; . "$S/history-lib.sh"; pv_lock_where)
	mkdir "$C/kept/.lock"
	printf 'host=%s\nwhere=%s\npid=%s\njob=jenkins-main-98\ntime=%s\n' "$(uname -n)" "$where" "$dead" "$(date +%s)" >"$C/kept/.lock/owner"
	jk_push 5 "$C/t/p5" >"$C/jlog5" 2>&1
	check "lock: a fresh lock whose process on this host is gone is broken" sh -c \
		'[ "$1" = 0 ] && grep -q "stale lock.*its owner, process $2 on this host, is gone" "$3"' sh "$?" "$dead" "$C/jlog5"
	# A live lock is never broken: the job waits, then fails, naming the owner.
	sleep 300 &
	live=$!
	mkdir "$C/kept/.lock"
	printf 'host=%s\nwhere=%s\npid=%s\njob=jenkins-main-97\ntime=%s\n' "$(uname -n)" "$where" "$live" "$(date +%s)" >"$C/kept/.lock/owner"
	jk_push 6 "$C/t/p6" PV_LOCK_WAIT=2 >"$C/jlog6" 2>&1
	rc=$?
	check "lock: a live lock is kept: the main job fails with exit 5" eq "$rc" 5
	check "lock: ... naming the job that holds it" grep -q "held by job jenkins-main-97, process $live" "$C/jlog6"
	check "lock: ... and the lock is still there, the archive unchanged" sh -c \
		'[ -f "$1/.lock/owner" ] && [ ! -e "$1/2026-12-01T200600Z-0000000.json.gz" ]' sh "$C/kept"
	jk_pr live "$C/t/good" PV_LOCK_WAIT=2 >"$C/jlogpr1" 2>&1
	check "lock: the PR job does not read the archive while it is locked" sh -c \
		'[ "$1" = 2 ] && grep -q "stays locked" "$2"' sh "$?" "$C/jlogpr1"
	kill "$live" 2>/dev/null
	wait "$live" 2>/dev/null
	rm -rf "$C/kept/.lock"
	jk_pr ok "$C/t/good" >"$C/jlogpr2" 2>&1
	check "lock: the PR job reads a snapshot taken under the lock" sh -c \
		'[ "$1" = 0 ] && grep -q -- "--baseline-history $2/jprok/perfverdict-history " "$3" && [ ! -e "$2/kept/.lock" ] &&
		 [ "$(ls "$2/jprok/perfverdict-history" | wc -l)" = 3 ]' sh "$?" "$C" "$C/jlogpr2"
}

# The push credential never on a command line (ps shows it to every user).
group_archive_token() {
	need_pv || return 0
	new_case
	mk_trees "$C/t"
	mk_remote "$C"
	mkdir -p "$C/bin"
	cat >"$C/bin/git" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>"$C/git-argv"
[ -n "\${GIT_CONFIG_VALUE_0:-}" ] && printf '%s=%s\n' "\$GIT_CONFIG_KEY_0" "\$GIT_CONFIG_VALUE_0" >>"$C/git-env"
case "\$*" in *gitlab.invalid*) echo "fatal: unable to access" >&2; exit 128 ;; esac
exec /usr/bin/git "\$@"
EOF
	chmod +x "$C/bin/git"
	# actions/checkout keeps the token as an extraheader of the checkout.
	git -C "$C/ws" config http.https://github.com/.extraheader "AUTHORIZATION: basic U0VDUkVUVE9LRU4="
	hcommit "$C/ws" 1
	gh_push "$C/ws" 1 "$C/t/p1" PATH="$C/bin:$SYSPATH" >"$C/log.1" 2>&1
	rc=$?
	check "token (github): the main job pushes" sh -c '[ "$1" = 0 ] && [ -n "$2" ]' sh "$rc" "$(branch_points "$C/remote.git")"
	check "token (github): no git command line holds the extraheader" lacks "$C/git-argv" "U0VDUkVUVE9LRU4="
	check "token (github): ... git gets it from its environment (GIT_CONFIG_*)" has "$C/git-env" \
		"http.https://github.com/.extraheader=AUTHORIZATION: basic U0VDUkVUVE9LRU4="
	: >"$C/git-argv"
	: >"$C/git-env"
	(cd "$C/ws" && env -i PATH="$C/bin:$SYSPATH" HOME="$C" GITLAB_CI=true CI_PIPELINE_SOURCE=push \
		CI_COMMIT_BRANCH=main CI_DEFAULT_BRANCH=main CI_COMMIT_SHA="$(git rev-parse HEAD)" \
		CI_SERVER_URL=https://gitlab.invalid CI_PROJECT_PATH=o/r PERFVERDICT_HISTORY_TOKEN=glpat-SECRET-42 \
		PERFVERDICT_BIN="$PVREAL" PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE="$C/t/p1" \
		PERFVERDICT_OUTPUT_DIR="$C/gout" sh "$S/gate.sh") >"$C/glog" 2>&1
	check "token (gitlab): git ran against the project's URL" has "$C/git-argv" "https://gitlab.invalid/o/r.git"
	check "token (gitlab): no git command line holds the project access token" lacks "$C/git-argv" "glpat-SECRET-42"
	check "token (gitlab): ... it goes in the environment, as a Basic header for the server" has "$C/git-env" \
		"http.https://gitlab.invalid/.extraheader=Authorization: Basic $(printf 'oauth2:glpat-SECRET-42' | base64)"
	check "token (gitlab): ... and never into the log" lacks "$C/glog" "glpat-SECRET-42"
}

# history-main.sh compares the candidate with itself to write its point.
group_archive_onerun() {
	need_pv || return 0
	new_case
	mkdir -p "$C/t"
	printf '[gate]\nthreshold = 3%%\n[metric "throughput"]\ndirection = higher\n[metric "latency"]\ndirection = lower\n' >"$C/t/perf.conf"
	mk_remote "$C"
	for i in 1 2 3 4; do
		mkdir -p "$C/t/one$i"
		printf 'group,benchmark,metric,unit,value\nnet,stream,throughput,Mbps,%s\nnet,rr,latency,us,52\n' $((9400 + i)) >"$C/t/one$i/results.csv"
		jk_push "$i" "$C/t/one$i" >"$C/jlog$i" 2>&1
		eval "rc$i=\$?"
	done
	check "one run: four main jobs of a one-run candidate pass" eq "$rc1$rc2$rc3$rc4" 0000
	check "one run: ... and log no error (no false 'no metric could be compared')" sh -c \
		'! grep -q "error" "$@"' sh "$C/jlog1" "$C/jlog2" "$C/jlog3" "$C/jlog4"
	check "one run: ... the points are there" eq "$(ls "$C/kept" | wc -l | tr -d ' ')" 3
}

# history-comment.sh: hostile metric ids, units, labels and commits.
group_comment_names() {
	if ! command -v cmark-gfm >/dev/null 2>&1; then
		say "# skip: comment_names (no cmark-gfm; ci/scripts/install-deps.sh installs it)"
		return 0
	fi
	new_case
	cat >r.json <<'EOF'
{"baseline": {"pooled_points": [
   {"label": "2026-a`b\u001b[31m", "commit": "abc|def`$(rm -rf ~)", "age": 1, "metrics": 2},
   {"label": "../x\r\n| a | b |", "commit": "", "age": 2, "metrics": 2}]},
 "metrics": [
  {"id": "g/b/``m|x\n| injected | row |\r\u001b[2J\u202e../../etc $(id) `", "unit": "ms<img src=x onerror=alert(1)>*[a](javascript:x)|\n",
   "verdict": "regression", "baseline": {"samples": [1, 2, 3]}, "candidate": {"mean": 4}, "change": {"rel": 0.5}},
  {"id": "`\u202eevil\u2066", "unit": "`_x_`", "verdict": "regression",
   "baseline": {"samples": [1]}, "candidate": {"mean": 2}, "change": {"rel": 1}}]}
EOF
	sh "$S/history-comment.sh" r.json >c.md 2>err
	check "comment names: history-comment.sh reads the hostile report" eq "$?" 0
	check "comment names: no raw control character or U+202E in the Markdown" sh -c \
		'! LC_ALL=C grep -q "$(printf "[\001-\010\013-\037\177]")" c.md && ! grep -q "$(printf "\342\200\256")" c.md && [ "$(grep -c "^|" c.md)" = 8 ]'
	cmark-gfm --unsafe -e table -e autolink c.md >c.html
	check "comment names: rendered (cmark-gfm), every row has its cells and each name is shown whole, nothing injected" "$PY" "$ROOT/tests/lib/ci_comment_names.py" r.json c.html
}

# A GitLab main job without the push token stops before it clones or
# builds anything (issue 40, item 10).
group_token_first() {
	new_case
	echo '[]' >notes.json
	sim_gl --var PERFVERDICT_BASELINE=history --var CI_PIPELINE_SOURCE=push --var CI_COMMIT_BRANCH=main \
		--var CI_DEFAULT_BRANCH=main --var PERFVERDICT_HOME="$C/perfverdict-clone" \
		--var PERFVERDICT_REPO="file://$C/no-such-repo.git"
	rc=$?
	check "gitlab template: a main history job without PERFVERDICT_HISTORY_TOKEN fails (exit 2)" eq "$rc" 2
	check "gitlab template: ... naming the token" has err "set it as the masked variable PERFVERDICT_HISTORY_TOKEN"
	check "gitlab template: ... before cloning perfverdict" missing "$C/perfverdict-clone"
	new_case
	echo '[]' >notes.json
	sim_gl --var PERFVERDICT_BASELINE=history --var CI_PIPELINE_SOURCE=merge_request_event --var CI_COMMIT_BRANCH= \
		--var CI_DEFAULT_BRANCH=main --var PERFVERDICT_HOME="$C/perfverdict-clone" \
		--var PERFVERDICT_REPO="file://$C/no-such-repo.git"
	check "gitlab template: a merge-request job needs no push token (it goes on to clone)" sh -c \
		'grep -q "fatal\|no perfverdict checkout\|git" err && ! grep -q PERFVERDICT_HISTORY_TOKEN err' sh

	# gate.sh itself: no build before the check (a tree whose Makefile
	# and install-deps.sh only record that they ran).
	if ! command -v make >/dev/null 2>&1; then
		say "# skip: gate.sh's build check (no make)"
		return 0
	fi
	new_case
	t=$C/tree
	mkdir -p "$t"
	cp -R "$CI_DIR" "$t/ci"
	printf '#!/bin/sh\necho "$*" >>"$DEPS_LOG"\n' >"$t/ci/scripts/install-deps.sh"
	printf 'all:\n\techo make >>"$(DEPS_LOG)"\n' >"$t/Makefile"
	env -i PATH="$SYSPATH" HOME="$C" DEPS_LOG="$C/deps" GITLAB_CI=true CI_PIPELINE_SOURCE=push \
		CI_COMMIT_BRANCH=main CI_DEFAULT_BRANCH=main PERFVERDICT_BASELINE=history PERFVERDICT_CANDIDATE=cand \
		sh "$t/ci/scripts/gate.sh" >out 2>err
	rc=$?
	check "gate.sh: a GitLab main history job without the token fails (exit 2) before building" sh -c \
		'[ "$1" = 2 ] && [ ! -s deps ] && grep -q PERFVERDICT_HISTORY_TOKEN err' sh "$rc"
}

# shellcheck shell=sh
# tests/ci/trust.sh - issue 37's groups of tests/ci/run.sh (sourced by
# it): what a fork, a hostile archive or a shared runner can do to the CI
# scripts.  comment_trust: the PR comment of a workflow_run job and whose
# comment is updated; the other groups are added below it.
# shellcheck disable=SC2016,SC2154

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

# shellcheck shell=sh disable=SC2034
# lib.sh - helpers shared by the ci/ scripts.  Sourced, never run.
#
# Every setting is an environment variable, so the three CI systems can
# pass their inputs the same way (GitHub `env:`, GitLab `variables:`,
# Jenkins `environment {}`); command-line options override them.
#
#   PERFVERDICT_BASELINE, PERFVERDICT_CANDIDATE   the two result trees
#   PERFVERDICT_CONFIG, PERFVERDICT_SUITE, PERFVERDICT_FORMAT
#   PERFVERDICT_ARGS            extra compare flags, split on blanks
#   PERFVERDICT_OUTPUT_DIR      where the reports go (perfverdict-reports)
#   PERFVERDICT_MARKDOWN_LIMIT  --markdown-limit for compare (60000; 0: not passed)
#   PERFVERDICT_COMMENT         on-regression | always | never
#   PERFVERDICT_CI              github | gitlab | jenkins | plain (detected)
#   PERFVERDICT_BIN             the perfverdict binary (default: PATH)
#   PERFVERDICT_BUILD           auto | never: build from this checkout if missing
#   PERFVERDICT_FROM            path (default) | checkout: which perfverdict to
#                               run when PERFVERDICT_BIN is not set; checkout
#                               ignores PATH and builds this checkout (the
#                               GitHub action: the ref it was called at)
#   PERFVERDICT_BASELINE_ARTIFACT, PERFVERDICT_BASELINE_JOB,
#   PERFVERDICT_BASELINE_WORKFLOW, PERFVERDICT_BASELINE_BRANCH,
#   PERFVERDICT_BASELINE_PATH   download the baseline (fetch-baseline.sh)
#   PERFVERDICT_MISSING_BASELINE  skip (default) | fail: when the download
#                               finds no baseline yet (the first pull request)
#
# POSIX sh; shellcheck-clean.

PV_MARKER='<!-- perfverdict-report -->'
PV_SCRIPTS=$(cd "$(dirname "$0")" && pwd)
PV_ROOT=$(cd "$PV_SCRIPTS/../.." && pwd)

pv_log() {
	printf 'perfverdict: %s\n' "$*" >&2
}

# Exit-status names, shared by the log lines and the annotations.
pv_status_name() {
	case $1 in
	0) echo "pass" ;;
	1) echo "regression" ;;
	2) echo "usage or config error" ;;
	3) echo "input error" ;;
	*) echo "unexpected status $1" ;;
	esac
}

pv_detect_ci() {
	if [ -n "${PERFVERDICT_CI:-}" ]; then
		echo "$PERFVERDICT_CI"
	elif [ "${GITHUB_ACTIONS:-}" = true ]; then
		echo github
	elif [ "${GITLAB_CI:-}" = true ]; then
		echo gitlab
	elif [ -n "${JENKINS_URL:-}" ] || [ -n "${JENKINS_HOME:-}" ]; then
		echo jenkins
	else
		echo plain
	fi
}

# pv_help: print the calling script's header comment.
pv_help() {
	awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

pv_usage_common() {
	echo
	cat <<'EOF'
Options (each overrides the environment variable in brackets):
  --ci DIALECT          github|gitlab|jenkins|plain   [PERFVERDICT_CI]
  -o, --output-dir DIR  reports directory             [PERFVERDICT_OUTPUT_DIR]
  -c, --config FILE     perf.conf                     [PERFVERDICT_CONFIG]
  -s, --suite NAME      suite section                 [PERFVERDICT_SUITE]
  -f, --format FMT      input format                  [PERFVERDICT_FORMAT]
  --args "FLAGS"        extra compare flags           [PERFVERDICT_ARGS]
  --markdown-limit N    0: do not pass the flag       [PERFVERDICT_MARKDOWN_LIMIT]
  --comment POLICY      on-regression|always|never    [PERFVERDICT_COMMENT]
  --no-fail             exit 0; the status is in the outputs
  BASELINE CANDIDATE                                  [PERFVERDICT_BASELINE/_CANDIDATE]
EOF
}

# pv_parse_args "$@": sets the PERFVERDICT_* variables from the options.
# Returns 2 after printing a message on a bad option, 3 for --help.
pv_parse_args() {
	PV_NO_FAIL=${PV_NO_FAIL:-0}
	pv_npos=0
	while [ $# -gt 0 ]; do
		pv_opt=$1
		pv_val=
		pv_has_val=0
		case $pv_opt in
		--*=*)
			pv_val=${pv_opt#*=}
			pv_opt=${pv_opt%%=*}
			pv_has_val=1
			;;
		esac
		case $pv_opt in
		--ci | -o | --output-dir | -c | --config | -s | --suite | -f | --format | --args | --markdown-limit | --comment)
			if [ "$pv_has_val" = 0 ]; then
				if [ $# -lt 2 ]; then
					pv_log "option $pv_opt needs a value"
					return 2
				fi
				pv_val=$2
				shift
			fi
			;;
		esac
		case $pv_opt in
		--ci) PERFVERDICT_CI=$pv_val ;;
		-o | --output-dir) PERFVERDICT_OUTPUT_DIR=$pv_val ;;
		-c | --config) PERFVERDICT_CONFIG=$pv_val ;;
		-s | --suite) PERFVERDICT_SUITE=$pv_val ;;
		-f | --format) PERFVERDICT_FORMAT=$pv_val ;;
		--args) PERFVERDICT_ARGS=$pv_val ;;
		--markdown-limit) PERFVERDICT_MARKDOWN_LIMIT=$pv_val ;;
		--comment) PERFVERDICT_COMMENT=$pv_val ;;
		--no-fail) PV_NO_FAIL=1 ;;
		-h | --help) return 3 ;;
		--)
			shift
			break
			;;
		-?*)
			pv_log "unknown option: $1"
			return 2
			;;
		*)
			pv_npos=$((pv_npos + 1))
			case $pv_npos in
			1) PERFVERDICT_BASELINE=$1 ;;
			2) PERFVERDICT_CANDIDATE=$1 ;;
			*)
				pv_log "too many arguments: $1"
				return 2
				;;
			esac
			;;
		esac
		shift
	done
	for pv_a in "$@"; do
		pv_npos=$((pv_npos + 1))
		case $pv_npos in
		1) PERFVERDICT_BASELINE=$pv_a ;;
		2) PERFVERDICT_CANDIDATE=$pv_a ;;
		*)
			pv_log "too many arguments: $pv_a"
			return 2
			;;
		esac
	done
	pv_defaults
	return 0
}

pv_defaults() {
	PERFVERDICT_CI=$(pv_detect_ci)
	: "${PERFVERDICT_OUTPUT_DIR:=perfverdict-reports}"
	: "${PERFVERDICT_MARKDOWN_LIMIT:=60000}"
	: "${PERFVERDICT_COMMENT:=on-regression}"
	: "${PERFVERDICT_BASELINE:=}" "${PERFVERDICT_CANDIDATE:=}"
	: "${PERFVERDICT_CONFIG:=}" "${PERFVERDICT_SUITE:=}" "${PERFVERDICT_FORMAT:=}"
	: "${PERFVERDICT_ARGS:=}" "${PERFVERDICT_BIN:=}" "${PERFVERDICT_BUILD:=auto}"
	: "${PERFVERDICT_FROM:=path}" "${PERFVERDICT_MISSING_BASELINE:=skip}"
	export PERFVERDICT_CI PERFVERDICT_OUTPUT_DIR PERFVERDICT_MARKDOWN_LIMIT \
		PERFVERDICT_COMMENT PERFVERDICT_BASELINE PERFVERDICT_CANDIDATE \
		PERFVERDICT_CONFIG PERFVERDICT_SUITE PERFVERDICT_FORMAT \
		PERFVERDICT_ARGS PERFVERDICT_BIN PERFVERDICT_BUILD \
		PERFVERDICT_FROM PERFVERDICT_MISSING_BASELINE
	PV_JSON=$PERFVERDICT_OUTPUT_DIR/perfverdict-report.json
	PV_JUNIT=$PERFVERDICT_OUTPUT_DIR/perfverdict-junit.xml
	PV_MD=$PERFVERDICT_OUTPUT_DIR/perfverdict-report.md
	PV_ENVFILE=$PERFVERDICT_OUTPUT_DIR/perfverdict.env
}

# --- annotations -----------------------------------------------------------

# GitHub workflow-command escaping (the runner's own rules): data escapes
# % CR LF; a property value escapes : and , as well.
pv_gh_data() {
	printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/\r/%0D/g' |
		awk 'NR > 1 { printf "%%0A" } { printf "%s", $0 }'
}
pv_gh_prop() {
	pv_gh_data "$1" | sed -e 's/:/%3A/g' -e 's/,/%2C/g'
}

# pv_annotate LEVEL FILE LINE MESSAGE...  (LEVEL: error|warning|notice)
# GitHub: a workflow command on stdout.  Elsewhere: a compiler-style
# "file:line: level: message" line on stderr (Jenkins warnings-ng and
# most log parsers read it; GitLab shows it in red).
pv_annotate() {
	pv_lvl=$1 pv_file=$2 pv_line=$3
	shift 3
	case ${PERFVERDICT_CI:-plain} in
	github)
		pv_props=
		[ -n "$pv_file" ] && pv_props="file=$(pv_gh_prop "$pv_file"),"
		[ -n "$pv_file" ] && [ -n "$pv_line" ] && pv_props="${pv_props}line=$pv_line,"
		pv_props="${pv_props}title=perfverdict"
		printf '::%s %s::%s\n' "$pv_lvl" "$pv_props" "$(pv_gh_data "$*")"
		;;
	*)
		pv_loc=
		[ -n "$pv_file" ] && pv_loc="$pv_file:"
		[ -n "$pv_file" ] && [ -n "$pv_line" ] && pv_loc="$pv_file:$pv_line:"
		if [ "${PERFVERDICT_CI:-}" = gitlab ] && [ "$pv_lvl" = error ]; then
			printf '\033[31;1m%s%s%s: %s\033[0m\n' "$pv_loc" "${pv_loc:+ }" "$pv_lvl" "$*" >&2
		else
			printf '%s%s%s: %s\n' "$pv_loc" "${pv_loc:+ }" "$pv_lvl" "$*" >&2
		fi
		;;
	esac
}

# --- JSON --------------------------------------------------------------------
# No jq or python needed: grep splits the JSON into tokens (a JSON string
# never holds a raw newline), awk walks them and prints one line per
# scalar: DOC<TAB>PATH<TAB>RAW-VALUE, e.g. "0	.summary.regressions	2"
# or "1	[3].body	"text"".  Several concatenated documents (gh api
# --paginate prints "[...][...]") are numbered from 0.  Strings stay
# JSON-escaped; keys are used raw.
pv_json_flat() {
	LC_ALL=C grep -oE '"([^"\\]|\\.)*"|[][{}:,]|-?[0-9][0-9.eE+-]*|true|false|null' "$1" 2>/dev/null |
		LC_ALL=C awk '
		function here() { return type[d] == "{" ? base[d] "." key[d] : base[d] "[" idx[d] "]" }
		BEGIN { d = 0; doc = -1; OFS = "\t" }
		$0 == "{" || $0 == "[" {
			if (d == 0) { doc++; p = "" } else p = here()
			d++; type[d] = $0; base[d] = p; idx[d] = 0; key[d] = ""; wantkey[d] = ($0 == "{")
			next
		}
		$0 == "}" || $0 == "]" { if (d > 0) d--; next }
		$0 == ":" { wantkey[d] = 0; next }
		$0 == "," { if (type[d] == "{") wantkey[d] = 1; else idx[d]++; next }
		{
			if (d == 0) { doc++; print doc, "", $0; next }
			if (type[d] == "{" && wantkey[d]) { key[d] = substr($0, 2, length($0) - 2); next }
			print doc, here(), $0
		}'
}

# pv_json_get FILE PATH: the first value at PATH (strings unquoted).
pv_json_get() {
	pv_json_flat "$1" | awk -F '\t' -v p="$2" '
		$2 == p { v = $3; if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2); print v; exit }'
}

# pv_json_marker_id FILE [PATH VALUE]...: the id of the first element of
# the (possibly paginated) array whose "body" holds the marker, raw or
# \u-escaped, and whose every PATH (e.g. .user.login) has VALUE (strings
# compared unquoted).  An element missing a PATH never matches.
pv_json_marker_id() {
	pv_mf=$1
	shift
	pv_conds=
	while [ $# -ge 2 ]; do
		pv_conds="$pv_conds$1	$2
"
		shift 2
	done
	pv_json_flat "$pv_mf" | awk -F '\t' -v conds="$pv_conds" '
		BEGIN {
			m1 = "<!-- perfverdict-report -->"; m2 = "\\u003c!-- perfverdict-report --\\u003e"
			nc = split(conds, cl, "\n")
			for (i = 1; i <= nc; i++) if (cl[i] != "") { split(cl[i], kv, "\t"); want[kv[1]] = kv[2]; nw++ }
		}
		$2 ~ /^\[[0-9]+\]\./ {
			o = $1 ":" $2; sub(/\..*/, "", o)
			k = $2; sub(/^\[[0-9]+\]/, "", k)
			if (!(o in seen)) { seen[o] = 1; order[++n] = o }
			if (k == ".id") id[o] = $3
			else if (k == ".body") { if (index($3, m1) || index(tolower($3), m2)) hit[o] = 1 }
			else if (k in want) {
				v = $3; if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
				if (v == want[k]) ok[o]++
			}
		}
		END {
			for (i = 1; i <= n; i++)
				if ((order[i] in hit) && (order[i] in id) && ok[order[i]] + 0 == nw) { print id[order[i]]; exit }
		}'
}

# pv_urlencode STRING: STRING percent-encoded for a URL query (every
# byte but A-Z a-z 0-9 . _ ~ -), after undoing the JSON escapes \" \\ \/.
pv_urlencode() {
	printf '%s' "$1" | LC_ALL=C awk '
		BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
		{
			s = (NR > 1 ? "\n" : "") $0
			gsub(/\\"/, "\"", s); gsub(/\\\//, "/", s); gsub(/\\\\/, "\\", s)
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				printf "%s", (c ~ /[A-Za-z0-9._~-]/) ? c : sprintf("%%%02X", ord[c])
			}
		}'
}

# pv_json_count FILE: how many top-level array elements carry an "id".
pv_json_count() {
	pv_json_flat "$1" | awk -F '\t' '$2 ~ /^\[[0-9]+\]\.id$/ { n++ } END { print n + 0 }'
}

# --- the binary ----------------------------------------------------------------

# pv_find_binary: sets PV_BIN to a runnable perfverdict, or returns 1.
pv_find_binary() {
	PV_BIN=
	if [ -n "${PERFVERDICT_BIN:-}" ]; then
		case $PERFVERDICT_BIN in
		*/*) [ -x "$PERFVERDICT_BIN" ] && [ -f "$PERFVERDICT_BIN" ] && PV_BIN=$PERFVERDICT_BIN ;;
		*) PV_BIN=$(command -v "$PERFVERDICT_BIN" 2>/dev/null) || PV_BIN= ;;
		esac
		[ -n "$PV_BIN" ]
		return
	fi
	if [ "${PERFVERDICT_FROM:-path}" = checkout ]; then
		# Only this checkout's own build: never another version on PATH.
		PV_BIN=
		[ -x "$PV_ROOT/build/perfverdict" ] && PV_BIN=$PV_ROOT/build/perfverdict
	else
		PV_BIN=$(command -v perfverdict 2>/dev/null) || PV_BIN=
	fi
	[ -n "$PV_BIN" ]
}

# pv_ensure_binary: pv_find_binary, else build this checkout with make
# after install-deps.sh --build-only (through sudo when not root).  Sets
# and exports PERFVERDICT_BIN.  Build output goes to stderr.
pv_ensure_binary() {
	if pv_find_binary; then
		PERFVERDICT_BIN=$PV_BIN
		export PERFVERDICT_BIN
		return 0
	fi
	[ -n "${PERFVERDICT_BIN:-}" ] && return 1
	if [ -x "$PV_ROOT/build/perfverdict" ]; then
		PERFVERDICT_BIN=$PV_ROOT/build/perfverdict
		export PERFVERDICT_BIN
		return 0
	fi
	[ "${PERFVERDICT_BUILD:-auto}" = never ] && return 1
	if [ ! -f "$PV_ROOT/Makefile" ] || [ ! -f "$PV_SCRIPTS/install-deps.sh" ]; then
		return 1
	fi
	[ "${PERFVERDICT_CI:-}" = github ] && echo "::group::Build perfverdict"
	pv_rev=$(git -C "$PV_ROOT" rev-parse --short HEAD 2>/dev/null) || pv_rev=
	pv_at="${PERFVERDICT_ACTION_REF:+ at $PERFVERDICT_ACTION_REF}${pv_rev:+ (commit $pv_rev)}"
	if [ "${PERFVERDICT_FROM:-path}" = checkout ]; then
		pv_log "building perfverdict from $PV_ROOT$pv_at"
	else
		pv_log "perfverdict is not on PATH; building it in $PV_ROOT$pv_at"
	fi
	if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
		sudo -n sh "$PV_SCRIPTS/install-deps.sh" --build-only >&2
	else
		sh "$PV_SCRIPTS/install-deps.sh" --build-only >&2
	fi
	pv_rc=$?
	if [ "$pv_rc" -eq 0 ]; then
		make -C "$PV_ROOT" >&2
		pv_rc=$?
	fi
	[ "${PERFVERDICT_CI:-}" = github ] && echo "::endgroup::"
	[ "$pv_rc" -eq 0 ] && [ -x "$PV_ROOT/build/perfverdict" ] || return 1
	PERFVERDICT_BIN=$PV_ROOT/build/perfverdict
	export PERFVERDICT_BIN
	return 0
}

# pv_json_flat_get FLAT PATH: pv_json_get on the output of pv_json_flat.
pv_json_flat_get() {
	awk -F '\t' -v p="$2" '
		$2 == p { v = $3; if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2); print v; exit }' "$1"
}

# pv_worst_regressions FLAT N: the N regressions that moved most, one a
# line as "group/benchmark/metric +12.3%" (from a flattened JSON report).
pv_worst_regressions() {
	awk -F '\t' -v n="$2" '
		function unq(v) { if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2); return v }
		$2 ~ /^\.metrics\[[0-9]+\]\.(verdict|group|benchmark|metric|change\.rel)$/ {
			i = $2; sub(/^\.metrics\[/, "", i); sub(/\].*/, "", i)
			k = $2; sub(/^\.metrics\[[0-9]+\]\./, "", k)
			v[i, k] = unq($3); seen[i] = 1
		}
		END {
			m = 0
			for (i in seen) if (v[i, "verdict"] == "regression") {
				r = v[i, "change.rel"] + 0; a = r < 0 ? -r : r
				name = v[i, "benchmark"] "/" v[i, "metric"]
				if (v[i, "group"] != "") name = v[i, "group"] "/" name
				m++; key[m] = a; line[m] = sprintf("%s %+.1f%%", name, 100 * r)
			}
			for (j = 1; j <= m && j <= n; j++) {   # selection of the n largest
				b = j
				for (q = j + 1; q <= m; q++) if (key[q] > key[b]) b = q
				t = key[j]; key[j] = key[b]; key[b] = t
				t = line[j]; line[j] = line[b]; line[b] = t
				print line[j]
			}
		}' "$1"
}

# pv_context_diff FLAT: the context keys that describe the machine
# (host, CPU, OS, kernel, runtime: what a harness records about where it
# ran, not what it ran) that both sides have with different values, as
# "key (baseline vs candidate)", one a line.
pv_context_diff() {
	awk -F '\t' -v machine='host|node|cpu|mhz|cache|machine|system|release|platform|kernel|goos|goarch|arch|os_|memory|runner|jdk|vmname|vmversion|python_version|python_implementation|compiler' '
		function unq(v) { if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2); return v }
		$2 ~ /^\.baseline\.context\./ { k = $2; sub(/^\.baseline\.context\./, "", k); b[k] = unq($3); if (!(k in o)) { o[k] = ++n; ord[n] = k } }
		$2 ~ /^\.candidate\.context\./ { k = $2; sub(/^\.candidate\.context\./, "", k); c[k] = unq($3); if (!(k in o)) { o[k] = ++n; ord[n] = k } }
		END {
			for (j = 1; j <= n; j++) {
				k = ord[j]
				if ((k in b) && (k in c) && b[k] != c[k] && tolower(k) ~ machine) print k " (" b[k] " vs " c[k] ")"
			}
		}' "$1"
}

# pv_artifacts_hint: where a reader finds the full report, for notes.
pv_artifacts_hint() {
	if [ -n "${GITHUB_RUN_ID:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
		printf 'The full report is in the JSON artifact of [this run](%s/%s/actions/runs/%s).' \
			"${GITHUB_SERVER_URL:-https://github.com}" "$GITHUB_REPOSITORY" "$GITHUB_RUN_ID"
	elif [ -n "${CI_JOB_URL:-}" ]; then
		printf 'The full report is in the [job artifacts](%s/artifacts/browse).' "$CI_JOB_URL"
	elif [ -n "${BUILD_URL:-}" ]; then
		printf 'The full report is in the [build artifacts](%sartifact/).' "$BUILD_URL"
	else
		printf 'The full report is in %s.' "${PV_JSON:-the JSON report}"
	fi
}

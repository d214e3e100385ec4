#!/bin/sh
# history-comment.sh - the pooled baseline in the PR comment: which
# points were pooled (label, commit, age) and each regression's recent
# trend, as Markdown on stdout (run-gate.sh appends it to the report).
#
# Usage: history-comment.sh REPORT.json
#
# Reads compare --baseline-history's JSON: baseline.pooled_points, and
# for each regression the pooled points' values (baseline.samples, oldest
# first) and the candidate's mean, drawn as a Unicode sparkline (no
# images).  Exit status: 0, or 3 when the report cannot be read.
set -u
# shellcheck source-path=SCRIPTDIR
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -r "${1:-}" ] || {
	pv_log "history-comment.sh: cannot read '${1:-}'"
	exit 3
}
pv_json_flat "$1" | LC_ALL=C awk -F '\t' '
	function un(s) { if (s ~ /^".*"$/) s = substr(s, 2, length(s) - 2); gsub(/\|/, "\\|", s); return s }
	$2 ~ /^\.baseline\.pooled_points\[[0-9]+\]\.[a-z]+$/ {
		i = $2; sub(/^\.baseline\.pooled_points\[/, "", i); k = i; sub(/\].*/, "", i); sub(/.*\./, "", k)
		pp[i, k] = un($3); if (i + 1 > np) np = i + 1
	}
	$2 ~ /^\.metrics\[[0-9]+\]\.(id|verdict|unit|group|benchmark|metric)$/ {
		i = $2; sub(/^\.metrics\[/, "", i); k = i; sub(/\].*/, "", i); sub(/.*\./, "", k)
		m[i, k] = un($3); if (i + 1 > nm) nm = i + 1
	}
	$2 ~ /^\.metrics\[[0-9]+\]\.baseline\.samples\[[0-9]+\]$/ {
		i = $2; sub(/^\.metrics\[/, "", i); sub(/\].*/, "", i)
		s[i, ns[i]++] = $3 + 0
	}
	$2 ~ /^\.metrics\[[0-9]+\]\.candidate\.mean$/ {
		i = $2; sub(/^\.metrics\[/, "", i); sub(/\].*/, "", i); cand[i] = $3
	}
	$2 ~ /^\.metrics\[[0-9]+\]\.change\.rel$/ {
		i = $2; sub(/^\.metrics\[/, "", i); sub(/\].*/, "", i); rel[i] = $3
	}
	function spark(v, n,    lo, hi, j, b, out) {
		split("▁ ▂ ▃ ▄ ▅ ▆ ▇ █", bar, " ")
		lo = v[0]; hi = v[0]
		for (j = 1; j < n; j++) { if (v[j] < lo) lo = v[j]; if (v[j] > hi) hi = v[j] }
		out = ""
		for (j = 0; j < n; j++) {
			b = hi > lo ? int((v[j] - lo) / (hi - lo) * 7 + 0.5) + 1 : 4
			out = out (j == n - 1 ? " → " : "") bar[b]
		}
		return out
	}
	# The name a reader knows, group/benchmark/metric (not the id).
	function readable(i,    out, k, part) {
		split("group benchmark metric", part, " ")
		out = ""
		for (k = 1; k <= 3; k++)
			if (m[i, part[k]] != "") out = out (out == "" ? "" : "/") m[i, part[k]]
		return out == "" ? m[i, "id"] : out
	}
	# One unit for a row: a time unit scaled so that the pooled mean is
	# at least 1 and below 1000 (ns, µs, ms, s), as the report shows it;
	# sets scale_f (the factor) and scale_u (the unit).
	function scale(unit, base,    f, u, k, us) {
		split("ns µs ms s", us, " ")
		f = unit == "ns" ? 1 : unit == "us" || unit == "µs" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 0
		scale_f = 1; scale_u = unit
		if (!f) return
		for (k = 4; k > 1 && base * f < 1000 ^ (k - 1); k--) ;
		scale_f = f / 1000 ^ (k - 1); scale_u = us[k]
	}
	END {
		if (!np) exit
		printf "\n### Pooled baseline: %d point%s of main'"'"'s history\n\n", np, np == 1 ? "" : "s"
		print "| point | commit | age (points) | metrics |"
		print "|---|---|---|---|"
		# a label that is a full commit id (GIT_COMMIT) shown as short as
		# the commit column
		for (i = 0; i < np; i++)
			if ((length(pp[i, "label"]) == 40 || length(pp[i, "label"]) == 64) && pp[i, "label"] !~ /[^0-9a-f]/)
				pp[i, "label"] = substr(pp[i, "label"], 1, 12)
		for (i = 0; i < np; i++)
			printf "| `%s` | %s | %s | %s |\n", pp[i, "label"], pp[i, "commit"] != "" ? "`" substr(pp[i, "commit"], 1, 12) "`" : "-", pp[i, "age"], pp[i, "metrics"]
		nr = 0
		for (i = 0; i < nm; i++) if (m[i, "verdict"] == "regression") nr++
		if (!nr) exit
		printf "\n### Recent trend of each regression\n\n"
		print "The pooled points, oldest first, then this change (after →)."
		print ""
		print "| metric | trend | pooled mean | this change | change |"
		print "|---|---|---|---|---|"
		shown = 0
		for (i = 0; i < nm && shown < 20; i++) {
			if (m[i, "verdict"] != "regression") continue
			n = 0; sum = 0
			for (j = 0; j < ns[i]; j++) { v[n++] = s[i, j]; sum += s[i, j] }
			base = ns[i] ? sum / ns[i] : 0
			v[n++] = cand[i] + 0
			m[i, "id"] = readable(i)
			scale(m[i, "unit"], base)
			base *= scale_f; cand[i] *= scale_f; m[i, "unit"] = scale_u
			printf "| `%s` | %s | %.4g %s | %.4g %s | %+.1f%% |\n", m[i, "id"], spark(v, n), base, m[i, "unit"], cand[i], m[i, "unit"], rel[i] * 100
			shown++
		}
		if (nr > shown) printf "\n_and %d more regressions (see the JSON report)_\n", nr - shown
	}'

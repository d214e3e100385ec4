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
	# Text from the report (metric ids, units, point labels and commits)
	# may hold anything: it is decoded from JSON, its control characters
	# and bidirectional overrides become U+FFFD, and it is printed either
	# as a code span (md_code: a fence longer than any backtick run in
	# it, | escaped) or as text with every ASCII punctuation escaped
	# (md_text), so no name can end a table row, open a link or HTML, or
	# reorder what a reader sees.
	function un(s) { if (s ~ /^".*"$/) s = substr(s, 2, length(s) - 2); return s }
	function utf8(c) {
		if (c < 128) return sprintf("%c", c)
		if (c < 2048) return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
		return sprintf("%c%c%c", 224 + int(c / 4096), 128 + int(c / 64) % 64, 128 + c % 64)
	}
	function hex(h,    i, v) {
		v = 0
		for (i = 1; i <= 4; i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
		return v
	}
	function clean(s,    out, c, e, v) {
		out = ""
		while (s != "") {
			c = substr(s, 1, 1)
			if (c != "\\") { out = out c; s = substr(s, 2); continue }
			e = substr(s, 2, 1)
			if (e == "u" && substr(s, 3, 4) ~ /^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]$/) {
				v = hex(substr(s, 3, 4)); s = substr(s, 7)
				out = out ((v < 32 || v == 127 || (v >= 55296 && v < 57344)) ? "\001" : utf8(v))
				continue
			}
			out = out (e == "\"" || e == "/" || e == "\\" ? e : "\001"); s = substr(s, 3)
		}
		gsub(/[\001-\037\177]|\342\200[\216\217\252-\256]|\342\201[\246-\251]|\330\234/, "\357\277\275", out)
		return out
	}
	function md_code(s,    t, n, m, d, pad) {
		s = clean(s); gsub(/\|/, "\\|", s)
		t = s; n = 0
		while (match(t, /`+/)) { if (RLENGTH > n) n = RLENGTH; t = substr(t, RSTART + RLENGTH) }
		d = ""; for (m = 0; m <= n; m++) d = d "`"
		pad = (s ~ /^[` ]/ || s ~ /[` ]$/) ? " " : ""
		return d pad s pad d
	}
	function md_text(s) {
		s = clean(s)
		gsub(/[][!"#$%&'"'"'()*+,.\/:;<=>?@\\^_`{|}~-]/, "\\\\&", s)
		return s
	}
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
			printf "| %s | %s | %s | %s |\n", md_code(pp[i, "label"]), pp[i, "commit"] != "" ? md_code(substr(pp[i, "commit"], 1, 12)) : "-", md_text(pp[i, "age"]), md_text(pp[i, "metrics"])
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
			printf "| %s | %s | %.4g %s | %.4g %s | %+.1f%% |\n", md_code(m[i, "id"]), spark(v, n), base, md_text(m[i, "unit"]), cand[i], md_text(m[i, "unit"]), rel[i] * 100
			shown++
		}
		if (nr > shown) printf "\n_and %d more regressions (see the JSON report)_\n", nr - shown
	}'

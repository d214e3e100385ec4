#!/bin/sh
# The history reports' content (issue 22, "Reports"), checked by parsing
# what they say, independent of the writers: the trend is in every
# report; the Markdown keeps compare's comment rules (at most 6 columns,
# one row per metric with its change points in it, the limit with the
# recent regressions first and "... and N more"); changes read at any
# magnitude; the plots draw the value the test sees, not each point's
# mean; the terminal fits COLUMNS, says more than the closing line when
# reports are written, and -v lists every change point.
# (How tall the comment renders is measured by tests/look/, with
# Chromium, which make check does not need.)
. "$(dirname "$0")/lib/test-lib.sh"
failed=0

printf '[metric "*throughput"]\ndirection = higher\n[gate]\ndirection = lower\n' \
	>"$tmp/perf.conf"
"$PYTHON" tests/look/history_archive.py "$tmp/a" || exit 2
"$PV_BIN" history -c "$tmp/perf.conf" "$tmp/a" --json "$tmp/h.json" \
	--markdown "$tmp/h.md" --html "$tmp/h.html" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] || bad "exit $st, expected 1: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" -gt 1 ] ||
	bad "with reports written, the terminal shows only: $(cat "$tmp/out")"
COLUMNS=60 "$PV_BIN" history -c "$tmp/perf.conf" "$tmp/a" -v >"$tmp/v60" 2>/dev/null
"$PV_BIN" history -c "$tmp/perf.conf" "$tmp/a" -v >"$tmp/v" 2>/dev/null

"$PYTHON" tests/lib/hist_output_check_reports.py "$tmp" || failed=1

# The plots draw the value the test sees: one 2x outlier run at point 4,
# a real +15% step at point 7; the outlier must not be the tallest bar.
"$PYTHON" tests/lib/hist_output_outlier_archive.py "$tmp/o"
"$PV_BIN" history "$tmp/o" --markdown "$tmp/o.md" --html "$tmp/o.html" \
	--json "$tmp/o.json" >/dev/null 2>&1
"$PYTHON" tests/lib/hist_output_check_plots.py "$tmp/o.md" "$tmp/o.html" "$tmp/o.json" || failed=1

# --markdown-limit: 150 metrics with steps, 40 of them recent
# regressions; the comment fits, the recent regressions come first, the
# rest is "... and N more", and the JSON keeps every one.
"$PYTHON" tests/lib/hist_output_big_archive.py "$tmp/big"
for lim in 8000 default; do
	opt="--markdown-limit $lim"
	[ $lim = default ] && opt=
	# shellcheck disable=SC2086
	"$PV_BIN" history "$tmp/big" --markdown "$tmp/big.md" --json "$tmp/big.json" \
		$opt >/dev/null 2>&1
	"$PYTHON" tests/lib/hist_output_check_limit.py "$tmp/big.md" "$tmp/big.json" "$lim" || failed=1
done

[ $failed -eq 0 ] && echo "check_history_output: ok"
exit $failed

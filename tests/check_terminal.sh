#!/bin/sh
# The terminal summary of every sample pair, at 80 and 160 columns
# (COLUMNS) and at 80 when not a terminal: no line wider than the
# terminal, at most 60 lines for samples/netperf at 80, the first lines
# say what was compared with what, every regression is listed, the
# closing line names the worst one, and -v lists every metric.
set -u
PV_BIN=${PV_BIN:-build/perfverdict}
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
st=0
for dir in samples/*/; do
	dir=${dir%/}
	s=$(basename "$dir")
	[ -d "$dir/baseline" ] && [ -d "$dir/candidate" ] || continue
	conf=
	[ -f "$dir/perf.conf" ] && conf="-c $dir/perf.conf"
	# shellcheck disable=SC2086
	"$PV_BIN" compare $conf "$dir/baseline" "$dir/candidate" \
		--json "$tmp/$s.json" -q >/dev/null 2>&1
	for cols in 80 160 none; do
		if [ $cols = none ]; then
			# shellcheck disable=SC2086
			env -u COLUMNS NO_COLOR=1 "$PV_BIN" compare $conf \
				--candidate-label 0123456789abcdef0123456789abcdef01234567 \
				"$dir/baseline" "$dir/candidate" >"$tmp/$s.$cols" 2>/dev/null
		else
			# shellcheck disable=SC2086
			COLUMNS=$cols NO_COLOR=1 "$PV_BIN" compare $conf \
				--candidate-label 0123456789abcdef0123456789abcdef01234567 \
				"$dir/baseline" "$dir/candidate" >"$tmp/$s.$cols" 2>/dev/null
		fi
	done
	# shellcheck disable=SC2086
	COLUMNS=80 NO_COLOR=1 "$PV_BIN" compare -v $conf "$dir/baseline" \
		"$dir/candidate" >"$tmp/$s.verbose" 2>/dev/null
	"$PYTHON" - "$s" "$tmp/$s.json" "$tmp/$s" <<'PY' || st=1
import json
import sys
name, report, base = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
bad = []
for cols in ("80", "160", "none"):
    w = 80 if cols == "none" else int(cols)
    lines = open(base + "." + cols, encoding="utf-8").read().split("\n")[:-1]
    for i, ln in enumerate(lines, 1):
        if len(ln) > w:
            bad.append(f"{cols}: line {i} is {len(ln)} columns: {ln[:50]}")
    if not (lines[0].startswith("Baseline:  ") and
            lines[1].startswith("Candidate: 0123456789ab ") and
            lines[1].endswith(" runs)") or lines[1].endswith(" run)")):
        bad.append(f"{cols}: the first lines do not say what was compared")
    if name == "netperf" and w == 80 and len(lines) > 60:
        bad.append(f"{cols}: {len(lines)} lines, more than 60")
    regs = [m for m in report["metrics"] if m["verdict"] == "regression"]
    listed = [ln for ln in lines if ln.startswith("  ")]
    sec = next((i for i, ln in enumerate(lines) if ln.startswith("Regressions (")), None)
    if regs and (sec is None or not lines[sec].startswith("Regressions (%d)" % len(regs))):
        bad.append(f"{cols}: no 'Regressions ({len(regs)})' section")
    last = lines[-1]
    if regs:
        worst = max(regs, key=lambda m: abs(m["change"]["rel"] or 0))
        if not last.startswith("FAIL: %d regression" % len(regs)) or \
                worst["metric"] not in last and "\u2026" not in last:
            bad.append(f"{cols}: the closing line does not name the worst: {last}")
    elif not last.startswith(("PASS: ", "FAIL: ")):
        bad.append(f"{cols}: no closing verdict line")
    if "q: " not in "\n".join(lines):
        bad.append(f"{cols}: q is not explained")
verbose = open(base + ".verbose", encoding="utf-8").read().split("\n")
# (an inconclusive row's second line, indented by four, is no row)
rows = [ln for ln in verbose if ln.startswith("  ")
        and not ln.startswith(("  \u2026", "    this run could detect"))]
if len(rows) != len(report["metrics"]):
    bad.append(f"-v lists {len(rows)} metrics, the report has {len(report['metrics'])}")
for b in bad:
    print(f"check_terminal: {name}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
exit $st

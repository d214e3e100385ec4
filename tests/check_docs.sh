#!/bin/sh
# check_docs.sh - the Markdown documentation stands on its own: every
# relative link points at a file or directory in the repository, and
# nothing points outside it (../shared/).
. "$(dirname "$0")/lib/test-lib.sh"
exec "${PYTHON:-/usr/bin/python3}" - README.md docs/*.md samples/README.md ci/*/README.md <<'PY'
import os, re, sys
bad = []
for doc in sys.argv[1:]:
    base = os.path.dirname(doc)
    text = open(doc, encoding="utf-8").read()
    for n, line in enumerate(text.splitlines(), 1):
        if "../shared" in line:
            bad.append(f"{doc}:{n}: points outside the repository (../shared)")
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = os.path.normpath(os.path.join(base, target.split("#")[0]))
            if path.startswith("..") or not os.path.exists(path):
                bad.append(f"{doc}:{n}: link to '{target}', which is not in the repository")
for b in bad:
    print("check_docs: " + b, file=sys.stderr)
if not bad:
    print(f"check_docs: {len(sys.argv) - 1} Markdown files, every relative link resolves")
sys.exit(1 if bad else 0)
PY

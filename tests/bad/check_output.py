#!/usr/bin/python3
"""Output checks of the hostile-input suite (tests/bad/run.sh).

    check_output.py stderr FILE STATUS   the shape of perfverdict's stderr
    check_output.py text FILE...         printable UTF-8 (stdout, reports)
    check_output.py markdown FILE        tables keep their cell counts

Whatever the input held (escape sequences, invalid UTF-8, newlines in
names), what perfverdict prints must stay printable UTF-8, every message
one line, and every Markdown table row as many cells as its header.
Prints the problems found and exits 1 if there are any.
"""
import re
import sys

ZWSP = "\u200b"
CODE = re.compile(r" \[[a-z0-9]+(-[a-z0-9]+)*\]$")
TALLY = re.compile(r"^perfverdict: warning: \d+ more warnings? not shown ")


def printable(path, data, allow_tab=True):
    """Valid UTF-8 with no control characters but newline (and tab)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, [f"{path}: not valid UTF-8 at byte {e.start}"]
    bad = [c for c in text
           if (ord(c) < 0x20 and c != "\n" and not (allow_tab and c == "\t"))
           or 0x7f <= ord(c) <= 0x9f]
    if bad:
        return text, [f"{path}: control character U+{ord(bad[0]):04X} "
                      f"({len(bad)} in all)"]
    return text, []


def check_stderr(path, status):
    with open(path, "rb") as f:
        text, problems = printable(path, f.read(), allow_tab=False)
    if text is None:
        return problems
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        problems.append(f"{path}: the last line has no newline")
    for ln in lines:
        if not ln.startswith("perfverdict: "):
            problems.append(f"{path}: line not from perfverdict: {ln[:80]!r}")
        # Every message ends in its code (docs/messages.md) but the
        # tally of warnings not shown.
        elif not CODE.search(ln) and not TALLY.match(ln):
            problems.append(f"{path}: message without a code: {ln[:80]!r}")
    errors = [ln for ln in lines if ln.startswith("perfverdict: error: ")]
    others = [ln for ln in lines
              if not ln.startswith("perfverdict: error: ")
              and not ln.startswith("perfverdict: warning: ")]
    if status in (2, 3):
        if len(errors) != 1:
            problems.append(f"{path}: {len(errors)} error lines, expected one")
        elif lines[-1] != errors[0]:
            problems.append(f"{path}: the error is not the last line")
        if others:
            problems.append(f"{path}: unexpected line {others[0][:80]!r}")
    else:
        if errors:
            problems.append(f"{path}: an error line but status {status}")
        if others:
            problems.append(f"{path}: unexpected line {others[0][:80]!r}")
    return problems


def cells(row):
    """Cells of a GFM table row: '|' not escaped by a backslash."""
    n, i, esc = 0, 0, False
    for c in row:
        if esc:
            esc = False
        elif c == "\\":
            esc = True
        elif c == "|":
            n += 1
    return n


def check_markdown(path):
    with open(path, "rb") as f:
        text, problems = printable(path, f.read())
    if text is None:
        return problems
    table = []
    lines = text.split("\n") + [""]
    for no, ln in enumerate(lines, 1):
        if ln.startswith("|"):
            table.append((no, ln))
            continue
        if table:
            want = cells(table[0][1])
            if len(table) < 2 or not re.match(r"^\|(\s*:?-+:?\s*\|)+\s*$",
                                               table[1][1]):
                problems.append(f"{path}:{table[0][0]}: a table without "
                                f"its delimiter row")
            for tno, row in table:
                if cells(row) != want:
                    problems.append(f"{path}:{tno}: {cells(row)} cell "
                                    f"separators, the header has {want}")
            table = []
    # in a code span GitHub mentions no one and links nothing
    plain = re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", "`x`",
                   text.replace("\\`", ""))
    for m in re.finditer(r"@(here|channel|everyone|[A-Za-z0-9])", plain):
        problems.append(f"{path}: '{m.group(0)}' would mention someone")
        break
    return problems


def main(argv):
    problems = []
    if len(argv) == 4 and argv[1] == "stderr":
        problems = check_stderr(argv[2], int(argv[3]))
    elif len(argv) >= 3 and argv[1] == "text":
        for p in argv[2:]:
            with open(p, "rb") as f:
                problems += printable(p, f.read())[1]
    elif len(argv) == 3 and argv[1] == "markdown":
        problems = check_markdown(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

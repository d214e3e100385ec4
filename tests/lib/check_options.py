#!/usr/bin/python3
"""check_options.py - `perfverdict --help` is the authoritative list of
options; the man page and the README must document each one, and must
document no option the program lacks.

Where each list comes from:

  help    `perfverdict --help`, and `perfverdict CMD --help` for every
          command named in its usage lines (a command whose --help fails
          adds nothing).  An option is a line that starts with blanks and
          then `-x, --long`, `-x` or `--long`, or a `-x`/`--long` in a
          usage line.
  man     every `Fl` macro argument of perfverdict.1 (`.Fl c` is -c,
          `.Fl \\-config` is --config); other programs' flags are written
          with Cm or Li there, never Fl.
  README  every `-x`/`--long` inside backquotes or indented code in the
          README's "## Usage" section (down to the next "## " heading).

Usage: check_options.py [PERFVERDICT] (default build/perfverdict, or $PV_BIN)
Exit status 0 when the three lists agree; otherwise one line per
difference saying what is missing where, and exit status 1.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPT = re.compile(r"(?<![\w\-\\])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*|-[A-Za-z])(?![\w-])")
HELP_LINE = re.compile(r"^\s+((?:-[A-Za-z0-9](?:,\s*|\s+|$))?(?:--[a-z][a-z0-9-]*)?)")


def run(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except OSError as e:
        sys.exit(f"check_options: cannot run {argv[0]}: {e}")
    return p.returncode, p.stdout


def help_options(binary):
    """{option: where it was seen} from every --help text."""
    st, text = run([binary, "--help"])
    if st != 0 or not text.strip():
        sys.exit(f"check_options: '{binary} --help' failed (status {st})")
    texts = [("perfverdict --help", text)]
    commands = sorted(set(re.findall(r"^(?:usage:)?\s*perfverdict ([a-z][a-z-]*)", text, re.M)))
    if not commands:
        sys.exit("check_options: found no command in the usage lines of --help")
    for c in commands:
        st, t = run([binary, c, "--help"])
        if st == 0 and t.strip():
            texts.append((f"perfverdict {c} --help", t))
    found = {}
    for where, t in texts:
        for line in t.splitlines():
            m = HELP_LINE.match(line)
            if m and m.group(1).strip():
                for o in OPT.findall(m.group(1)):
                    found.setdefault(o, where)
            if re.match(r"^(usage:)?\s*perfverdict\b", line):
                for o in OPT.findall(line):
                    found.setdefault(o, where)
    return found, commands


def man_options(path):
    """{option: line number} of every Fl argument in an mdoc page."""
    found = {}
    macro = re.compile(r"^[A-Z][a-z][a-z]?$")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.startswith(".") or line.startswith('.\\"'):
                continue
            toks = line[1:].split()
            i = 0
            while i < len(toks):
                if toks[i] != "Fl":
                    i += 1
                    continue
                i += 1
                while i < len(toks) and not macro.match(toks[i]):
                    t = toks[i].replace("\\-", "-").replace("\\&", "")
                    i += 1
                    if re.fullmatch(r"[,;.:()|\[\]]", t) or not t:
                        continue
                    found.setdefault("-" + t, n)
    return found


def readme_options(path):
    """{option: line number} in the README's Usage section."""
    found = {}
    inside = False
    fence = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if re.match(r"^## ", line):
                inside = bool(re.match(r"^## Usage\b", line))
                continue
            if not inside:
                continue
            if line.startswith("```"):
                fence = not fence
                continue
            if fence or line.startswith("    "):
                spans = [line]
            else:
                spans = re.findall(r"`([^`]*)`", line)
            for s in spans:
                for o in OPT.findall(s):
                    found.setdefault(o, n)
    return found


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PV_BIN", "build/perfverdict")
    os.chdir(ROOT)
    helped, commands = help_options(binary)
    man = man_options("perfverdict.1")
    readme = readme_options("README.md")
    problems = []
    if not readme:
        problems.append("README.md: no '## Usage' section with options in backquotes")
    for o in sorted(helped):
        if o not in man:
            problems.append(f"perfverdict.1: does not document {o} (listed by '{helped[o]}'); "
                            f"add an entry such as '.It Fl {o[1:].replace('-', chr(92) + '-')}' under Options")
        if o not in readme:
            problems.append(f"README.md: the Usage section does not document {o} (listed by '{helped[o]}')")
    for o in sorted(man):
        if o not in helped:
            problems.append(f"perfverdict.1:{man[o]}: documents {o}, which no --help lists "
                            "(remove it, or write another program's flag with Cm)")
    for o in sorted(readme):
        if o not in helped:
            problems.append(f"README.md:{readme[o]}: the Usage section documents {o}, which no --help lists")
    for p in problems:
        print("check_options: " + p, file=sys.stderr)
    if problems:
        print(f"check_options: {len(problems)} difference(s) between --help, perfverdict.1 and README.md",
              file=sys.stderr)
        return 1
    print(f"check_options: {len(helped)} options of {len(commands)} commands "
          "agree in --help, perfverdict.1 and README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())

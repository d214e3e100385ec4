#!/usr/bin/python3
"""check_options.py - `perfverdict --help` is the authoritative list of
options, src/config.c the list of config keys, and --help's last lines the
exit statuses: the man page must document every one of them, and no page
may document an option or key the program lacks.

Where each list comes from:

  help    `perfverdict --help`, and `perfverdict CMD --help` for every
          command named in its usage lines (a command whose --help fails
          adds nothing).  An option is a line that starts with blanks and
          then `-x, --long`, `-x` or `--long`, or a `-x`/`--long` in a
          usage line.
  man     every `Fl` macro argument of perfverdict.1 (`.Fl c` is -c,
          `.Fl \\-config` is --config); other programs' flags are written
          with Cm or Li there, never Fl.
  docs    every `-x`/`--long` of a perfverdict command line in README.md
          and docs/*.md (a code line or a backquoted span that starts with
          `perfverdict` or `build/perfverdict`): each must be in --help.
  keys    every `strcmp(key, "KEY")` of src/config.c, by the function it is
          in (suite_key, gate_key, limits_key, rule_key, waiver_key): each
          must be an `.It Cm KEY` entry of perfverdict.1 and a backquoted
          `KEY` of docs/configuration.md.
  exits   the codes of --help's "exit status:" lines: each is an `.It N`
          of the man page's EXIT STATUS and a `| N |` row of README.md.

Usage: check_options.py [PERFVERDICT] (default build/perfverdict, or $PV_BIN)
Exit status 0 when the lists agree; otherwise one line per
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


CMDLINE = re.compile(r"^\s*(?:\$ )?(?:build/)?perfverdict (?:[a-z]+)\b.*")


def docs_options(paths):
    """{option: 'file:line'} of the options on perfverdict command lines."""
    found = {}
    for path in paths:
        fence = False
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.startswith("```"):
                    fence = not fence
                    continue
                if fence or line.startswith("    "):
                    spans = [line]
                else:
                    spans = re.findall(r"`([^`]*)`", line)
                for sp in spans:
                    m = CMDLINE.match(sp.split("#")[0])
                    if m:
                        for o in OPT.findall(m.group(0)):
                            found.setdefault(o, f"{path}:{n}")
    return found


def config_keys(path):
    """{key: section kind} from the strcmp chains of src/config.c."""
    kinds = {"suite_key": "suite", "gate_key": "[gate]", "limits_key": "[limits]",
             "rule_key": "[metric]", "waiver_key": "[waiver]"}
    keys, fn = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^static int (\w+)\(", line)
            if m:
                fn = m.group(1)
            if fn in kinds:
                for k in re.findall(r'strcmp\(key, "([a-z_]+)"\)', line):
                    keys.setdefault(k, set()).add(kinds[fn])
    return keys


def exit_codes(help_text):
    text = help_text.split("\nexit status:", 1)
    return sorted(set(re.findall(r"\b(\d) [a-z]", text[1]))) if len(text) == 2 else []


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PV_BIN", "build/perfverdict")
    os.chdir(ROOT)
    helped, commands = help_options(binary)
    man = man_options("perfverdict.1")
    import glob
    docs = docs_options(["README.md"] + sorted(glob.glob("docs/*.md")))
    problems = []
    for o in sorted(helped):
        if o not in man:
            problems.append(f"perfverdict.1: does not document {o} (listed by '{helped[o]}'); "
                            f"add an entry such as '.It Fl {o[1:].replace('-', chr(92) + '-')}' under Options")
    for o in sorted(man):
        if o not in helped:
            problems.append(f"perfverdict.1:{man[o]}: documents {o}, which no --help lists "
                            "(remove it, or write another program's flag with Cm)")
    for o in sorted(docs):
        if o not in helped:
            problems.append(f"{docs[o]}: a perfverdict command line uses {o}, which no --help lists")
    man_text = open("perfverdict.1", encoding="utf-8").read()
    conf_doc = ""
    if os.path.exists("docs/configuration.md"):
        conf_doc = open("docs/configuration.md", encoding="utf-8").read()
    else:
        problems.append("docs/configuration.md: missing")
    conf_man = man_text.split(".Sh CONFIGURATION", 1)[-1].split("\n.Sh ", 1)[0]
    keys = config_keys("src/config.c")
    if len(keys) < 20:
        problems.append(f"src/config.c: only {len(keys)} config keys found; has its shape changed?")
    for k in sorted(keys):
        where = " and ".join(sorted(keys[k]))
        if not re.search(r"(?m)^\.It Cm (?:[^\n]* )?" + re.escape(k) + r"(?: |$)", conf_man):
            problems.append(f"perfverdict.1: does not document the {where} key {k}; "
                            f"add '.It Cm {k}' under CONFIGURATION")
        if f"`{k}" not in conf_doc:
            problems.append(f"docs/configuration.md: does not name the {where} key `{k}`")
    st, help_text = run([binary, "--help"])
    codes = exit_codes(help_text)
    if len(codes) < 4:
        problems.append(f"perfverdict --help: found exit statuses {codes} in its 'exit status:' lines")
    ex = man_text.split(".Sh EXIT STATUS", 1)[-1].split("\n.Sh ", 1)[0]
    readme_text = open("README.md", encoding="utf-8").read()
    for c in codes:
        if not re.search(r"(?m)^\.It " + c + r"$", ex):
            problems.append(f"perfverdict.1: EXIT STATUS has no '.It {c}'")
        if not re.search(r"(?m)^\| " + c + r" \|", readme_text):
            problems.append(f"README.md: the exit status table has no row for {c}")
    for p in problems:
        print("check_options: " + p, file=sys.stderr)
    if problems:
        print(f"check_options: {len(problems)} difference(s) between --help, src/config.c, perfverdict.1 and the docs",
              file=sys.stderr)
        return 1
    print(f"check_options: {len(helped)} options of {len(commands)} commands, {len(keys)} config keys "
          f"and {len(codes)} exit statuses agree in --help, src/config.c, perfverdict.1 and the docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())

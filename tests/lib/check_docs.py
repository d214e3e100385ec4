#!/usr/bin/python3
"""check_docs.py - the Markdown documentation stands on its own and says
what the program does.

  links     every relative link of README.md, HACKING.md, docs/*.md,
            samples/README.md and ci/*/README.md points at a file or
            directory of the repository, and none points outside it;
  readme    README.md has at most 200 lines, and every command of its code
            blocks (fenced or indented) that starts with `perfverdict` or
            `build/perfverdict` states its exit status (`# exit N` at the
            end of the line) and exits with it, run against samples/ in a
            scratch directory (samples/ and build/perfverdict linked in);
  topics    no file of docs/ is organised by issue or by round: no heading
            names an issue number or a round;
  usage     `perfverdict` with no arguments exits 2 and names compare,
            history and the README section to start with, which exists;
  ignore    README.md, the manual and docs/ agree on `ignore = true`: the
            metric is still reported, as ungated (the manual's words), in
            compare and in history, and no page says it leaves the metric
            out; history on samples/history with the rule keeps the metric
            in its JSON, marked ignored, and passes.

Usage: check_docs.py PERFVERDICT (run from the repository's root)
Exit status 1, with one line per finding, when any check fails."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

PV = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/perfverdict")
bad = []


def say(msg):
    bad.append(msg)


def check_links(docs):
    for doc in docs:
        base = os.path.dirname(doc)
        for n, line in enumerate(open(doc, encoding="utf-8").read().splitlines(), 1):
            if "../shared" in line:
                say(f"{doc}:{n}: points outside the repository (../shared)")
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue
                path = os.path.normpath(os.path.join(base, target.split("#")[0]))
                if path.startswith("..") or not os.path.exists(path):
                    say(f"{doc}:{n}: link to '{target}', which is not in the repository")


def readme_commands(path):
    """[(line number, command, stated exit status or None)]"""
    out, fence = [], False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            fence = not fence
            continue
        if not fence and not line.startswith("    "):
            continue
        cmd = line.strip()
        if not re.match(r"(build/)?perfverdict(\s|$)", cmd):
            continue
        m = re.search(r"\s#\s*exit (\d)\s*$", cmd)
        out.append((n, re.sub(r"\s#.*$", "", cmd), int(m.group(1)) if m else None))
    return out


def check_readme(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    if len(lines) > 200:
        say(f"{path}: {len(lines)} lines, more than 200")
    cmds = readme_commands(path)
    if len(cmds) < 3:
        say(f"{path}: only {len(cmds)} perfverdict commands in its code blocks")
    with tempfile.TemporaryDirectory() as d:
        os.symlink(os.path.abspath("samples"), os.path.join(d, "samples"))
        os.mkdir(os.path.join(d, "build"))
        os.symlink(PV, os.path.join(d, "build", "perfverdict"))
        env = dict(os.environ, PATH=os.path.join(d, "build") + ":" + os.environ["PATH"])
        for n, cmd, want in cmds:
            if want is None:
                say(f"{path}:{n}: '{cmd}' does not state its exit status ('# exit N')")
                continue
            p = subprocess.run(cmd, shell=True, cwd=d, env=env, capture_output=True,
                               text=True, timeout=120)
            if p.returncode != want:
                say(f"{path}:{n}: '{cmd}' exits {p.returncode}, the README says {want}: "
                    f"{p.stderr.strip()[:300]}")
    return cmds


def check_topics():
    for doc in sorted(glob.glob("docs/*.md")):
        if re.search(r"issue|round", os.path.basename(doc), re.I):
            say(f"{doc}: a file named by issue or round; name it by topic")
        for n, line in enumerate(open(doc, encoding="utf-8"), 1):
            if re.match(r"#+ ", line) and re.search(r"\bissue \d+|\brounds?\b", line, re.I):
                say(f"{doc}:{n}: a heading by issue or round: {line.strip()}")


def check_usage():
    p = subprocess.run([PV], capture_output=True, text=True)
    if p.returncode != 2:
        say(f"perfverdict with no arguments exits {p.returncode}, expected 2")
    for word in ("compare", "history"):
        if f"perfverdict {word}" not in p.stderr:
            say(f"perfverdict with no arguments does not name 'perfverdict {word}'")
    m = re.search(r'"([^"]+)" in README\.md', p.stderr)
    headings = [h.strip("# \n") for h in open("README.md", encoding="utf-8") if h.startswith("#")]
    if not m:
        say("perfverdict with no arguments does not say where the quick start is in README.md")
    elif m.group(1) not in headings:
        say(f"perfverdict with no arguments points at README.md's \"{m.group(1)}\", which is no heading")


def check_ignore():
    man = open("perfverdict.1", encoding="utf-8").read()
    m = re.search(r"\.It Cm ignore Ns = Ns Cm true\n(.*?)\n\.(?:It|El)", man, re.S)
    if not m or "still reported" not in m.group(1):
        say("perfverdict.1: the ignore entry no longer says the metric is still reported")
    pages = ["README.md"] + sorted(glob.glob("docs/*.md"))
    for page in pages:
        text = open(page, encoding="utf-8").read()
        flat = re.sub(r"\s+", " ", text)
        for hit in re.finditer(r"`ignore[^`]*`[^.;]{0,60}(leaves the metric out|left out|skips? the metric|drops? the metric)", flat):
            say(f"{page}: says `ignore` {hit.group(1)}; the metric is still reported, as ungated (perfverdict.1)")
    for page in ("docs/configuration.md", "docs/history.md"):
        if not os.path.exists(page):
            say(f"{page}: missing")
            continue
        flat = re.sub(r"\s+", " ", open(page, encoding="utf-8").read())
        if not re.search(r"`ignore[^`]*`[^.]{0,80}still reported", flat):
            say(f"{page}: does not say that an ignored metric is still reported")
    with tempfile.TemporaryDirectory() as d:
        conf = os.path.join(d, "perf.conf")
        with open(conf, "w") as f:
            f.write(open("samples/history/perf.conf").read())
            f.write('\n[metric "throughput"]\nignore = true\n')
        out = os.path.join(d, "h.json")
        p = subprocess.run([PV, "history", "-q", "-c", conf, "samples/history/archive",
                            "--json", out], capture_output=True, text=True)
        if p.returncode != 0:
            say(f"history with the regressing metric ignored exits {p.returncode}, expected 0: {p.stderr[:300]}")
            return
        ms = [m for m in json.load(open(out))["metrics"] if m.get("metric") == "throughput"]
        if not ms or not all(m.get("ignored") for m in ms):
            say("history with ignore = true leaves the metric out of its JSON, or does not mark it ignored")


def main():
    docs = ["README.md", "HACKING.md"] + sorted(glob.glob("docs/*.md")) + \
        ["samples/README.md"] + sorted(glob.glob("ci/*/README.md"))
    check_links([d for d in docs if os.path.exists(d)])
    cmds = check_readme("README.md")
    check_topics()
    check_usage()
    check_ignore()
    for b in bad:
        print("check_docs: " + b, file=sys.stderr)
    if not bad:
        print(f"check_docs: {len(docs)} Markdown files link only within the repository; "
              f"README.md's {len(cmds)} commands exit as it says; docs/ is by topic; "
              "the bare usage and the ignore rule agree with the docs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

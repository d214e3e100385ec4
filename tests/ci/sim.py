#!/usr/bin/python3
"""Tiny offline simulators for the CI definitions in ci/, used by run.sh.

  sim.py github ACTION_DIR [--input NAME=VALUE]... [--outputs FILE]
      Runs the composite action's steps the way the runner does: inputs
      with their defaults, ${{ }} expressions (inputs.*, github.token,
      github.action_path, github.action_ref (SIM_ACTION_REF),
      steps.ID.outputs.*), step env, a fresh
      GITHUB_OUTPUT per step, `if:` (success()/always()/failure()), and a
      failing step skipping the rest.  GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH
      and the rest come from the caller's environment.  Writes the action's
      outputs to FILE; exits with the first failing step's status, else 0.

  sim.py gitlab TEMPLATE JOB [--var NAME=VALUE]... [--artifacts FILE]
      Runs JOB's before_script + script in one `sh -e` (as the runner does:
      the first failing command fails the job), with the job's variables
      expanded over the environment, --var overriding them like project
      CI/CD variables.  Writes the expanded artifact paths (paths, reports)
      to FILE.  Exits with the job's status.

  sim.py check-refs ACTION_YML|GITLAB_YML|JENKINSFILE...
      Prints every script a CI definition calls that does not exist, and
      exits 1 if there is one.

Only what ci/ uses is supported; anything else is an error (exit 99), so
a change to the YAML that the simulator cannot follow fails loudly.
"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Unsupported(Exception):
    pass


def die(msg):
    print("sim.py: " + msg, file=sys.stderr)
    sys.exit(99)


def parse_kv(items):
    out = {}
    for it in items:
        if "=" not in it:
            die("expected NAME=VALUE: " + it)
        k, v = it.split("=", 1)
        out[k] = v
    return out


def parse_github_output(path):
    """key=value lines and key<<DELIM heredocs, as the runner reads them."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            k, delim = line.split("<<", 1)
            val = []
            while i < len(lines) and lines[i] != delim:
                val.append(lines[i])
                i += 1
            i += 1
            out[k] = "\n".join(val)
        elif "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
        else:
            die("malformed GITHUB_OUTPUT line: " + line)
    return out


def github(argv):
    action_dir = os.path.abspath(argv[0])
    opts = {"input": [], "outputs": None}
    i = 1
    while i < len(argv):
        if argv[i] == "--input":
            opts["input"].append(argv[i + 1])
            i += 2
        elif argv[i] == "--outputs":
            opts["outputs"] = argv[i + 1]
            i += 2
        else:
            die("unknown argument " + argv[i])
    given = parse_kv(opts["input"])
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    if action.get("runs", {}).get("using") != "composite":
        die("not a composite action")
    steps_out = {}
    token = os.environ.get("SIM_GITHUB_TOKEN", "")

    def ev(text, ctx):
        def one(m):
            e = m.group(1)
            if e.startswith("inputs."):
                return ctx["inputs"].get(e[7:], "")
            if e == "github.token":
                return token
            if e == "github.action_path":
                return action_dir
            if e == "github.action_ref":
                return os.environ.get("SIM_ACTION_REF", "")
            m2 = re.fullmatch(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)", e)
            if m2:
                return steps_out.get(m2.group(1), {}).get(m2.group(2), "")
            raise Unsupported(e)
        try:
            return EXPR.sub(one, str(text))
        except Unsupported as exc:
            die("unsupported expression ${{ %s }}" % exc)
            return ""

    inputs = {}
    for name, spec in (action.get("inputs") or {}).items():
        spec = spec or {}
        if name in given:
            inputs[name] = given[name]
        elif spec.get("required") and "default" not in spec:
            die("required input missing: " + name)
        else:
            inputs[name] = ev(spec.get("default", ""), {"inputs": {}})
    for name in given:
        if name not in inputs:
            die("unknown input: " + name)
    ctx = {"inputs": inputs}

    failed_status = 0
    tmp = tempfile.mkdtemp(prefix="sim-gh-")
    for n, step in enumerate(action["runs"]["steps"]):
        cond = str(step.get("if", "success()")).strip()
        cond = EXPR.sub(lambda m: m.group(1), cond)
        if cond == "success()":
            run_it = failed_status == 0
        elif cond == "always()":
            run_it = True
        elif cond == "failure()":
            run_it = failed_status != 0
        else:
            die("unsupported if: " + cond)
        if not run_it:
            continue
        if "uses" in step:
            die("uses: steps are not simulated")
        shell = step.get("shell")
        if shell == "bash":
            cmd = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]
        elif shell == "sh":
            cmd = ["sh", "-e"]
        else:
            die("unsupported shell: %r" % shell)
        env = dict(os.environ)
        for k, v in (step.get("env") or {}).items():
            env[k] = ev(v, ctx)
        out_file = os.path.join(tmp, "output.%d" % n)
        open(out_file, "w").close()
        env["GITHUB_OUTPUT"] = out_file
        env["GITHUB_ACTION_PATH"] = action_dir
        env["GITHUB_ACTIONS"] = "true"
        script = os.path.join(tmp, "step.%d.sh" % n)
        with open(script, "w", encoding="utf-8") as f:
            f.write(ev(step["run"], ctx))
        rc = subprocess.call(cmd + [script], env=env)
        if "id" in step:
            steps_out[step["id"]] = parse_github_output(out_file)
        if rc != 0 and not step.get("continue-on-error"):
            failed_status = rc
    if opts["outputs"]:
        with open(opts["outputs"], "w", encoding="utf-8") as f:
            for name, spec in (action.get("outputs") or {}).items():
                f.write("%s=%s\n" % (name, ev(spec.get("value", ""), ctx)))
    return failed_status


VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def expand(text, env):
    return VAR.sub(lambda m: env.get(m.group(1) or m.group(2), ""), str(text))


def gitlab(argv):
    path, job_name = argv[0], argv[1]
    overrides, artifacts_file = [], None
    i = 2
    while i < len(argv):
        if argv[i] == "--var":
            overrides.append(argv[i + 1])
            i += 2
        elif argv[i] == "--artifacts":
            artifacts_file = argv[i + 1]
            i += 2
        else:
            die("unknown argument " + argv[i])
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    job = doc.get(job_name)
    if not isinstance(job, dict):
        die("no job " + job_name)
    for key in job:
        if key not in ("stage", "variables", "before_script", "script",
                       "after_script", "artifacts", "image", "rules"):
            die("unsupported job key: " + key)
    env = dict(os.environ)
    env.setdefault("GITLAB_CI", "true")
    env.setdefault("CI", "true")
    project = parse_kv(overrides)
    for k, v in (job.get("variables") or {}).items():
        if k not in project:
            env[k] = expand(v, env)
    env.update(project)
    lines = []
    for part in ("before_script", "script"):
        val = job.get(part) or []
        lines.extend([val] if isinstance(val, str) else val)
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write("\n".join(str(x) for x in lines) + "\n")
        script = f.name
    rc = subprocess.call(["sh", "-e", script], env=env)
    after = job.get("after_script") or []
    if after:
        with open(script, "w", encoding="utf-8") as f:
            f.write("\n".join(after) + "\n")
        subprocess.call(["sh", script], env=env)
    os.unlink(script)
    if artifacts_file:
        art = job.get("artifacts") or {}
        with open(artifacts_file, "w", encoding="utf-8") as f:
            f.write("when=%s\n" % art.get("when", "on_success"))
            for p in art.get("paths") or []:
                f.write("path=%s\n" % expand(p, env))
            for kind, p in (art.get("reports") or {}).items():
                for q in [p] if isinstance(p, str) else p:
                    f.write("report.%s=%s\n" % (kind, expand(q, env)))
    return rc


SCRIPT_REF = re.compile(r"(?:\$GITHUB_ACTION_PATH|\$\{\{\s*github\.action_path\s*\}\}|"
                        r"\$PERFVERDICT_HOME|\$\{PERFVERDICT_HOME\})/([A-Za-z0-9_./-]+\.sh)")


def check_refs(paths):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if os.environ.get("SIM_ROOT"):
        root = os.path.abspath(os.environ["SIM_ROOT"])
    bad = 0
    for path in paths:
        text_parts = []
        base = root
        if path.endswith((".yml", ".yaml")):
            with open(path, encoding="utf-8") as f:
                doc = yaml.safe_load(f)
            if "runs" in doc:  # a GitHub action: only runs.steps count
                base = os.path.dirname(os.path.abspath(path))
                for step in doc["runs"]["steps"]:
                    text_parts.append(str(step.get("run", "")))
            else:
                for job in doc.values():
                    if isinstance(job, dict):
                        for part in ("before_script", "script", "after_script"):
                            v = job.get(part) or []
                            text_parts.extend([v] if isinstance(v, str) else [str(x) for x in v])
        else:
            with open(path, encoding="utf-8") as f:
                text_parts.append(f.read())
        found = 0
        for text in text_parts:
            for m in SCRIPT_REF.finditer(text):
                found += 1
                target = os.path.normpath(os.path.join(base, m.group(1)))
                if not os.path.isfile(target):
                    print("%s: calls %s, which does not exist" % (path, m.group(1)))
                    bad += 1
        if not found:
            print("%s: calls no script at all" % path)
            bad += 1
    return 1 if bad else 0


def main():
    if len(sys.argv) < 2:
        die("usage: sim.py github|gitlab|check-refs ...")
    cmd, argv = sys.argv[1], sys.argv[2:]
    if cmd == "github":
        sys.exit(github(argv))
    if cmd == "gitlab":
        sys.exit(gitlab(argv))
    if cmd == "check-refs":
        sys.exit(check_refs(argv))
    die("unknown command " + cmd)


if __name__ == "__main__":
    main()

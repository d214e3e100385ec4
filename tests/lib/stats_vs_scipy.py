#!/usr/bin/python3
"""stats_vs_scipy.py - live cross-check of src/stats/ against scipy.

Usage: $PYTHON tests/lib/stats_vs_scipy.py PVSTAT [--cases N] [--seed S] [-v]

PVSTAT is the test driver built from tests/tools/pvstat.c
($PV_BUILD/tests/tools/pvstat).  The script draws N random two-sample
cases (default 1200, seed 1): sizes 2 to 30 on each side, drawn
independently; continuous, integer, rounded (ties), heavy-tailed and
outlier data at scales from 1e-3 to 1e8; constant samples (zero
variance, equal or different); and far-apart samples for tiny p.  Each
case runs through Welch, Student and Mann-Whitney, each two-sided and
one-sided both ways (9 comparisons), in the driver and in scipy
(ttest_ind, mannwhitneyu method='auto').  Holm and BH are compared with
the R p.adjust values recorded in tests/ref/stats_ref.txt, since a Python
re-implementation would not be an independent reference.  The t tail
itself (the driver's tsf) is compared with scipy.stats.t.sf on 600
random (t, df), df from 1 to 1e6 and t from 1e-6 to 1e3, either sign,
to TSF_TOL while p >= 1e-60 and to the tail's own conditioning below.

A value agrees when |ours - scipy| <= 1e-9 * max(|scipy|, 1e-300).
Where scipy returns NaN for t (0/0: zero variance and equal means) our
documented rule is t = 0, p = 1 and that is what is checked.

Prints one summary line and exits 0 when everything agrees, 1 otherwise
(2 on a usage or driver error).
"""
import argparse
import math
import os
import subprocess
import sys
import warnings

import numpy as np
from scipy import stats

TOL = 1e-9
TSF_TOL = 1e-13
FLOOR = 1e-300
# our alternative -> scipy's for test(a, b): "greater" = b is larger
SCIPY_ALT = {"two": "two-sided", "greater": "less", "less": "greater"}
REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ref",
                   "stats_ref.txt")


def relerr(got, want):
    if math.isnan(want) or math.isnan(got):
        return 0.0 if math.isnan(want) and math.isnan(got) else math.inf
    if math.isinf(want) or math.isinf(got):
        return 0.0 if got == want else math.inf
    return abs(got - want) / max(abs(want), FLOOR)


def constant_t(a, b, alt, r):
    """scipy's (t, p) for scipy's alternative alt, or, when each side is one value repeated, what
    exact arithmetic gives: scipy's np.mean rounds (three 2833.37 make
    2833.3700000000003), leaving a variance of rounding noise where
    there is none.  Equal values: 0/0 (NaN, the documented rule below);
    different: t = +-inf, p 0 or 1 (scipy's own answer when its means
    come out exact)."""
    if not (np.all(a == a[0]) and np.all(b == b[0])):
        return float(r.statistic), float(r.pvalue)
    if a[0] == b[0]:
        return math.nan, math.nan
    t = math.inf if a[0] > b[0] else -math.inf
    if alt == "two-sided":
        return t, 0.0
    return t, 0.0 if (t > 0) == (alt == "greater") else 1.0


def draw(rng, n, kind, scale, loc):
    if kind == "normal":
        return loc + scale * rng.uniform(0.001, 0.5) * rng.standard_normal(n)
    if kind == "integer":
        return rng.integers(0, rng.integers(2, 12), n).astype(float) * \
            rng.choice([1.0, scale])
    if kind == "rounded":
        x = loc + scale * 0.05 * rng.standard_normal(n)
        digits = int(rng.integers(1, 4))
        return np.array([float("%.*g" % (digits, v)) for v in x])
    if kind == "lognormal":
        return loc * np.exp(rng.uniform(0.05, 1.0) * rng.standard_normal(n))
    if kind == "outliers":
        x = loc + scale * 0.02 * rng.standard_normal(n)
        hit = rng.uniform(size=n) < 0.15
        x[hit] *= rng.uniform(1.5, 10.0, hit.sum())
        return x
    if kind == "cauchy":
        return loc + scale * 0.01 * rng.standard_cauchy(n)
    raise ValueError(kind)


def make_cases(n_cases, seed):
    rng = np.random.default_rng(seed)
    kinds = ["normal", "integer", "rounded", "lognormal", "outliers",
             "cauchy"]
    cases = []
    for i in range(n_cases):
        na, nb = (int(v) for v in rng.integers(2, 31, 2))
        scale = 10.0 ** rng.uniform(-3, 8)
        loc = scale * rng.uniform(0.2, 5.0)
        r = i % 20
        if r == 0:          # zero variance on both sides, equal values
            v = float("%.3g" % (loc * rng.uniform(0.5, 2)))
            a, b = np.full(na, v), np.full(nb, v)
        elif r == 1:        # zero variance, different values
            v = float("%.3g" % loc)
            a, b = np.full(na, v), np.full(nb, v * rng.choice([0.5, 1.1]))
        elif r == 2:        # one constant side
            a = np.full(na, float("%.3g" % loc))
            b = draw(rng, nb, "normal", scale, loc)
        elif r == 3:        # far apart: tiny p
            a = draw(rng, na, "normal", scale, loc)
            b = a.mean() + (a.max() - a.min() + scale) * \
                rng.uniform(5, 1e4) + draw(rng, nb, "normal", scale, loc) - loc
        elif r == 4:        # small samples: exact Mann-Whitney
            na, nb = int(rng.integers(1, 9)), int(rng.integers(2, 31))
            if rng.uniform() < 0.5:
                na, nb = nb, na
            na, nb = max(na, 2), max(nb, 2)
            a = draw(rng, na, "normal", scale, loc)
            b = draw(rng, nb, "normal", scale, loc * rng.choice([1, 1.3]))
        else:
            kind = kinds[i % len(kinds)]
            a = draw(rng, na, kind, scale, loc)
            b = draw(rng, nb, kind, scale, loc) * \
                rng.choice([1.0, 1.0, 1.02, 1.2, 3.0])
        cases.append((np.asarray(a, float), np.asarray(b, float)))
    return cases


def tsf_cases(seed):
    rng = np.random.default_rng(seed)
    df = 10.0 ** rng.uniform(0, 6, 600)
    df[::5] = np.round(df[::5])
    t = 10.0 ** rng.uniform(-6, 3, 600) * rng.choice([1.0, 1.0, -1.0], 600)
    return list(zip(t, df))


def tsf_tol(want):
    if want >= 1e-60:
        return TSF_TOL
    if want < 1e-300:
        return 0.0          # both underflow: checked apart
    return 4 * 2.0 ** -52 * -math.log(want)


def vec(x):
    return " ".join([str(len(x))] + [repr(float(v)) for v in x])


def run_driver(driver, lines):
    res = subprocess.run([driver], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        sys.exit("stats_vs_scipy: %s exited %d: %s" %
                 (driver, res.returncode, res.stderr.strip()))
    out = res.stdout.split("\n")
    if len(out) < len(lines):
        sys.exit("stats_vs_scipy: driver printed %d lines for %d cases" %
                 (len(out), len(lines)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("driver")
    ap.add_argument("--cases", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not os.access(args.driver, os.X_OK):
        print("stats_vs_scipy: %s is not an executable (build it with "
              "'make unit')" % args.driver, file=sys.stderr)
        return 2

    cases = make_cases(args.cases, args.seed)
    lines, expect = [], []
    warnings.simplefilter("ignore", RuntimeWarning)
    with np.errstate(all="ignore"):
        for ci, (a, b) in enumerate(cases):
            for alt in ("two", "greater", "less"):
                for eqv, name in ((0, "welch"), (1, "student")):
                    r = stats.ttest_ind(a, b, equal_var=bool(eqv),
                                        alternative=SCIPY_ALT[alt])
                    lines.append("ttest %d %s 0.95 %s %s" %
                                 (eqv, alt, vec(a), vec(b)))
                    expect.append((name, alt, ci) +
                                  constant_t(a, b, SCIPY_ALT[alt], r))
                r = stats.mannwhitneyu(a, b, alternative=SCIPY_ALT[alt],
                                       method="auto")
                lines.append("mwu %s 0.95 %s %s" % (alt, vec(a), vec(b)))
                expect.append(("mannwhitney", alt, ci, float(r.statistic),
                               float(r.pvalue)))

    # Holm and BH: the values R recorded
    n_ref = 0
    with open(REF) as f:
        for line in f:
            w = line.split()
            if w and w[0] in ("holm", "bh"):
                n = int(w[1])
                lines.append(" ".join(w[:2 + n]))
                expect.append((w[0], "-", -1, [float(v) for v in w[2 + n:]],
                               None))
                n_ref += 1

    tcases = tsf_cases(args.seed)
    for t, df in tcases:
        lines.append("tsf %r %r" % (float(t), float(df)))
        expect.append(("tsf", "-", -1, float(stats.t.sf(t, df)), None))

    out = run_driver(args.driver, lines)
    worst = {}
    counts = {}
    bad = 0
    nan_rule = 0
    nvalues = 0
    tiny = math.inf
    for line, res, (name, alt, ci, want_s, want_p) in zip(lines, out,
                                                          expect):
        key = name if name in ("holm", "bh") else "%s/%s" % (name, alt)
        counts[key] = counts.get(key, 0) + 1
        w = res.split()
        if not w or w[0] != "ok":
            bad += 1
            print("MISMATCH %s case %d: driver said %r" % (key, ci, res))
            continue
        if name == "tsf":
            got, want = float(w[1]), want_s
            nvalues += 1
            if want < 1e-300:
                e = 0.0 if got < 1e-290 else math.inf
            else:
                e = relerr(got, want)
            if e > worst.get(key, (0.0,))[0]:
                worst[key] = (e, "p", ci)
            if not e <= tsf_tol(want):
                bad += 1
                print("MISMATCH tsf: ours %.17g scipy %.17g (rel %.3g)\n"
                      "  %s" % (got, want, e, line))
            continue
        if name in ("holm", "bh"):
            pairs = [("q", float(g), q) for g, q in zip(w[1:], want_s)]
        else:
            got_s, got_p = float(w[1]), float(w[2])
            if name != "mannwhitney" and math.isnan(want_s):
                # 0/0: our documented rule instead of scipy's NaN
                nan_rule += 1
                want_s, want_p = 0.0, 1.0
            pairs = [("statistic", got_s, want_s), ("p", got_p, want_p)]
        for field, got, want in pairs:
            nvalues += 1
            if field == "p" and 0 < want < tiny:
                tiny = want
            e = relerr(got, want)
            if e > worst.get(key, (0.0,))[0]:
                worst[key] = (e, field, ci)
            if not e <= TOL:
                bad += 1
                print("MISMATCH %s case %d %s: ours %.17g scipy/R %.17g "
                      "(rel %.3g)\n  %s" % (key, ci, field, got, want, e,
                                            line[:300]))
    if args.verbose:
        for key in sorted(counts):
            e = worst.get(key, (0.0, "-", -1))
            print("  %-18s %5d runs, max rel. error %.3g (%s)" %
                  (key, counts[key], e[0], e[1]))
    overall = max([e[0] for e in worst.values()] + [0.0])
    if args.verbose:
        print("  smallest nonzero p compared: %.3g" % tiny)
    print("stats_vs_scipy: %d cases x 9 tests + %d R p.adjust vectors + "
          "%d t tails (max rel. error %.3g), %d values (%d by the 0/0 "
          "zero-variance rule), max rel. error %.3g: %s" %
          (len(cases), n_ref, len(tcases), worst.get("tsf/-", (0.0,))[0],
           nvalues, nan_rule, overall,
                        "%d MISMATCHES" % bad if bad else
                        "all agree to %g" % TOL))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

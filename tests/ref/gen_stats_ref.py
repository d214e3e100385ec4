#!/usr/bin/python3
"""gen_stats_ref.py - record reference values for src/stats/.

Writes tests/ref/stats_ref.txt, which tests/unit/test_stats.c reads (and
tests/lib/stats_vs_scipy.py re-checks).  Nothing in it comes from perfverdict:
every expected value is computed here by scipy/numpy or by R.

How the committed file was made (Debian 12):
    apt-get install -y --no-install-recommends python3-scipy \
        r-base-core r-bioc-limma
    /usr/bin/python3 tests/ref/gen_stats_ref.py
with scipy 1.10.1, numpy 1.24.2, R 4.2.2 and limma 3.54.1.  The header of
the file records the versions actually used.  Re-running it reproduces the
file exactly (fixed seeds); the tests themselves need neither R nor scipy.

Sources of truth:
  ttest     scipy.stats.ttest_ind(a, b, equal_var, alternative)
  ttestci   R t.test(b, a, var.equal, conf.level): mean(b) - mean(a), CI
  mwu       scipy.stats.mannwhitneyu(a, b, alternative, method='auto');
            the exact flag from scipy's own _mwu_choose_method
  mwuci     R wilcox.test(b, a, conf.int=TRUE, exact=TRUE): Hodges-Lehmann
            estimate and the exact Moses interval (samples without ties)
  holm, bh  R p.adjust
  triginv   limma:::trigammaInverse
  fitprior  limma::fitFDist(s2, df1 = d)
  modt      limma: lmFit(log values, ~group) then eBayes; t, p (two-sided),
            df.total per metric, df.prior and s2.prior for the family
  yuen      scipy ttest_ind(log a, log b, trim=0.2, equal_var=False): for
            equal sizes its t equals our pooled-Yuen t (see test_stats.c)
  mde       R (qt(1 - alpha[/2], df) + qt(power, df)) * se
  summary   numpy mean, std(ddof=1), median, min, max

Line format (one record a line, fields separated by spaces, numbers as
Python repr, so nan/inf appear as 'nan', 'inf', '-inf'; a vector is its
length followed by its values):
  ttest EQV ALT NA a.. NB b.. T P
  ttestci EQV CONF NA a.. NB b.. SHIFT LO HI
  mwu ALT NA a.. NB b.. U P EXACT
  mwuci CONF NA a.. NB b.. EST LO HI
  holm N p.. q..          bh N p.. q..
  triginv X Y
  fitprior N s2.. d.. S0SQ D0
  modt M NA NB D0 S0SQ then M times: a.. b.. T P DF
  yuen NA a.. NB b.. T
  mde SE DF ALPHA TWO POWER V
  summary N x.. MEAN SD MEDIAN MIN MAX
ALT is ours: 'greater' means the candidate b is larger, which is scipy's
alternative='less' for test(a, b).
"""
import os
import subprocess
import sys
import warnings

import numpy as np
import scipy
from scipy import stats
from scipy.stats import _mannwhitneyu

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "stats_ref.txt")
SCIPY_ALT = {"two": "two-sided", "greater": "less", "less": "greater"}


def fmt(x):
    return repr(float(x))


def vec(xs):
    return " ".join([str(len(xs))] + [fmt(x) for x in xs])


def rvec(xs):
    """An R vector literal that reproduces the doubles exactly (hex)."""
    return "c(" + ",".join(float(x).hex() if np.isfinite(x) else "NA"
                           for x in xs) + ")"


def run_r(code):
    """Runs R code; returns its stdout lines."""
    res = subprocess.run(["Rscript", "--vanilla", "-"], input=code,
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        sys.exit("gen_stats_ref: R failed:\n" + res.stderr)
    return res.stdout.split("\n")


def sample(rng, n, kind, scale):
    loc = scale * rng.uniform(0.5, 2.0)
    if kind == "normal":
        return loc + scale * rng.uniform(0.001, 0.3) * rng.standard_normal(n)
    if kind == "integer":
        return rng.integers(0, 6, n).astype(float) * scale
    if kind == "rounded":
        x = loc + scale * 0.05 * rng.standard_normal(n)
        return np.array([float("%.2g" % v) for v in x])
    if kind == "lognormal":
        return loc * np.exp(0.3 * rng.standard_normal(n))
    raise ValueError(kind)


def gen_tests(rng, lines):
    kinds = ["normal", "integer", "rounded", "lognormal"]
    cases = []
    for i in range(40):
        na, nb = rng.integers(2, 31, 2)
        kind = kinds[i % len(kinds)]
        scale = 10.0 ** rng.uniform(-3, 8)
        a = sample(rng, na, kind, scale)
        b = sample(rng, nb, kind, scale) * rng.choice([1.0, 1.05, 1.5])
        cases.append((a, b))
    # small exact cases, far apart (tiny p), zero variance
    for na, nb in [(2, 2), (3, 2), (2, 7), (5, 5), (8, 8), (8, 9), (3, 30)]:
        a = rng.standard_normal(na)
        cases.append((a, rng.standard_normal(nb) + 1.0))
    cases.append((np.arange(1, 21.0), np.arange(1, 21.0) + 100))
    cases.append((np.full(4, 2.5), np.full(5, 2.5)))
    cases.append((np.full(4, 2.5), np.full(3, 3.5)))
    cases.append((np.full(4, 2.5), np.array([1.0, 2.0, 4.0])))
    for a, b in cases:
        for eqv in (0, 1):
            for alt in ("two", "greater", "less"):
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    r = stats.ttest_ind(a, b, equal_var=bool(eqv),
                                        alternative=SCIPY_ALT[alt])
                t, p = float(r.statistic), float(r.pvalue)
                if np.isnan(t):
                    continue    # 0/0: our rule differs by design (tested)
                lines.append(" ".join(["ttest", str(eqv), alt, vec(a),
                                       vec(b), fmt(t), fmt(p)]))
        for alt in ("two", "greater", "less"):
            r = stats.mannwhitneyu(a, b, alternative=SCIPY_ALT[alt],
                                   method="auto")
            xy = np.concatenate([a, b])
            exact = _mannwhitneyu._mwu_choose_method(len(a), len(b), xy,
                                                     "auto") == "exact"
            lines.append(" ".join(["mwu", alt, vec(a), vec(b),
                                   fmt(r.statistic), fmt(r.pvalue),
                                   str(int(exact))]))
    return cases


def gen_ttestci(rng, cases, lines):
    code = []
    recs = []
    for i, (a, b) in enumerate(cases[:40]):
        if np.var(a) == 0 and np.var(b) == 0:
            continue
        eqv = i % 2
        conf = [0.95, 0.9, 0.99, 0.8][i % 4]
        recs.append((eqv, conf, a, b))
        code.append('r <- t.test(%s, %s, var.equal=%s, conf.level=%r)\n'
                    'cat(sprintf("%%.17g", c(r$estimate[1] - '
                    'r$estimate[2], r$conf.int)), "\\n")\n'
                    % (rvec(b), rvec(a), "TRUE" if eqv else "FALSE", conf))
    out = run_r("".join(code))
    for (eqv, conf, a, b), line in zip(recs, out):
        lines.append(" ".join(["ttestci", str(eqv), fmt(conf), vec(a),
                               vec(b), line.strip()]))


def gen_mwuci(rng, lines):
    code = []
    recs = []
    sizes = [(1, 1), (1, 5), (2, 3), (3, 3), (4, 6), (5, 5), (6, 4),
             (7, 8), (8, 8), (5, 12), (10, 10), (12, 15), (20, 18),
             (3, 30), (25, 30)]
    for i, (na, nb) in enumerate(sizes):
        a = np.round(rng.standard_normal(na) * 100, 6)
        b = np.round(rng.standard_normal(nb) * 100 + 50, 6)
        if len(np.unique(np.concatenate([a, b]))) < na + nb:
            continue
        conf = [0.95, 0.9, 0.99][i % 3]
        recs.append((conf, a, b))
        code.append('r <- suppressWarnings(wilcox.test(%s, %s, conf.int=TRUE,'
                    ' exact=TRUE, conf.level=%r))\n'
                    'cat(sprintf("%%.17g", c(r$estimate, r$conf.int)), '
                    '"\\n")\n' % (rvec(b), rvec(a), conf))
    out = run_r("".join(code))
    for (conf, a, b), line in zip(recs, out):
        lines.append(" ".join(["mwuci", fmt(conf), vec(a), vec(b),
                               line.strip()]))


def gen_adjust(rng, lines):
    vectors = [[0.01, 0.02, 0.03, 0.04, 0.05],
               [0.05], [float("nan")], [0.5, float("nan"), 0.01],
               [1.0, 1.0, 0.9], [0.01, 0.01, 0.01, 0.2],
               [1e-300, 1e-10, 0.04, 0.04, 0.8, 1.0]]
    for i in range(40):
        n = int(rng.integers(1, 41))
        p = rng.uniform(0, 1, n) ** rng.choice([1, 3, 8])
        if i % 3 == 0:
            p[rng.integers(0, n, max(1, n // 4))] = float("nan")
        if i % 4 == 1 and n > 2:
            p[1] = p[0]          # ties
            p[-1] = p[0]
        if i % 5 == 2:
            p = np.round(p, 2)
        vectors.append([float(x) for x in p])
    code = []
    for p in vectors:
        for m in ("holm", "BH"):
            code.append('cat(sprintf("%%.17g", p.adjust(%s, "%s")), "\\n")\n'
                        % (rvec(p), m))
    out = run_r("".join(code))
    k = 0
    for p in vectors:
        for m in ("holm", "bh"):
            q = [float(x) if x != "NA" else float("nan")
                 for x in out[k].split()]
            k += 1
            lines.append(" ".join([m, vec(p)] + [fmt(x) for x in q]))


def gen_limma(rng, lines):
    xs = [1e-12, 1e-6, 5e-7, 1e-3, 0.01, 0.1, 0.5, 1, 2, 10, 1e3, 1e6,
          9.9e6, 2e7, 1e9]
    out = run_r('library(limma)\ncat(sprintf("%%.17g", '
                'trigammaInverse(%s)), "\\n")\n' % rvec(xs))
    for x, y in zip(xs, out[0].split()):
        lines.append("triginv %s %s" % (fmt(x), y))

    # fitFDist on assorted variance sets
    sets = []
    for i in range(12):
        n = int(rng.integers(2, 60))
        d = np.full(n, float(rng.integers(1, 30)))
        if i % 3 == 1:
            d = rng.integers(1, 20, n).astype(float)
        spread = [0.05, 0.5, 2.0][i % 3]
        s2 = 0.01 * np.exp(spread * rng.standard_normal(n))
        s2 *= stats.chi2.rvs(d, random_state=rng) / d
        if i % 4 == 3:
            s2[: n // 3] = 0.0          # zero variances get floored
        sets.append((s2, d))
    sets.append((np.zeros(6), np.full(6, 4.0)))       # median 0 -> 1
    sets.append((np.array([0.1, 0.2]), np.array([3.0, 3.0])))
    sets.append((np.full(8, 0.04), np.full(8, 10.0)))  # d0 = Inf
    code = ["library(limma)\n"]
    for s2, d in sets:
        code.append('r <- suppressWarnings(fitFDist(%s, df1=%s))\n'
                    'cat(sprintf("%%.17g", c(r$scale, r$df2)), "\\n")\n'
                    % (rvec(s2), rvec(d)))
    out = run_r("".join(code))
    for (s2, d), line in zip(sets, out):
        lines.append(" ".join(["fitprior", vec(s2)] +
                              [fmt(x) for x in d] + [line.strip()]))

    # moderated t over families: (metrics, na, nb, kind)
    fams = [(30, 3, 3, "hetero"), (40, 5, 4, "hetero"), (20, 10, 10, "same"),
            (25, 3, 5, "lognormal"), (3, 2, 2, "hetero")]
    code = ["library(limma)\n"]
    data = []
    for m, na, nb, kind in fams:
        rows = []
        for k in range(m):
            scale = 10.0 ** rng.uniform(-3, 8)
            cv = 0.03 if kind == "same" else 10 ** rng.uniform(-2.5, -1)
            if kind == "lognormal":
                a = scale * np.exp(cv * rng.standard_normal(na))
                b = scale * np.exp(cv * rng.standard_normal(nb) + 0.02)
            else:
                a = scale * (1 + cv * rng.standard_normal(na))
                b = scale * (1 + cv * rng.standard_normal(nb)) * \
                    rng.choice([1.0, 1.1])
            rows.append((a, b))
        data.append((na, nb, rows))
        mat = ",".join(rvec(np.log(np.concatenate([a, b])))[2:-1]
                       for a, b in rows)
        code.append(
            'y <- matrix(c(%s), nrow=%d, byrow=TRUE)\n'
            'g <- factor(c(rep(0,%d), rep(1,%d)))\n'
            'fit <- eBayes(lmFit(y, model.matrix(~g)))\n'
            'cat(sprintf("%%.17g", c(fit$df.prior, fit$s2.prior)), "\\n")\n'
            'cat(sprintf("%%.17g", rbind(fit$t[,2], fit$p.value[,2], '
            'fit$df.total)), "\\n")\n' % (mat, m, na, nb))
    out = run_r("".join(code))
    for f, (na, nb, rows) in enumerate(data):
        d0, s0sq = out[2 * f].split()
        res = out[2 * f + 1].split()
        fields = ["modt", str(len(rows)), str(na), str(nb), d0, s0sq]
        for k, (a, b) in enumerate(rows):
            fields += [fmt(x) for x in a] + [fmt(x) for x in b]
            fields += res[3 * k: 3 * k + 3]
        lines.append(" ".join(fields))


def gen_yuen(rng, lines):
    for n in (2, 4, 5, 7, 10, 13, 20, 30):
        a = 10.0 * np.exp(0.1 * rng.standard_normal(n))
        b = 11.0 * np.exp(0.1 * rng.standard_normal(n))
        b[0] *= 3.0                         # an outlier to trim
        r = stats.ttest_ind(np.log(a), np.log(b), trim=0.2, equal_var=False)
        lines.append(" ".join(["yuen", vec(a), vec(b), fmt(r.statistic)]))


def gen_mde(lines):
    cases = [(1.0, 4.0, 0.05, 1, 0.8), (0.3, 10.0, 0.05, 0, 0.8),
             (2.0, 58.0, 0.01, 1, 0.9), (1.0, 2.5, 0.1, 0, 0.5),
             (0.01, 1000.0, 0.05, 1, 0.8)]
    code = "".join('cat(sprintf("%%.17g", (qt(1 - %r, %r) + qt(%r, %r)) * %r),'
                   ' "\\n")\n' % (al / 2 if two else al, df, pw, df, se)
                   for se, df, al, two, pw in cases)
    out = run_r(code)
    for (se, df, al, two, pw), v in zip(cases, out):
        lines.append("mde %s %s %s %d %s %s" % (fmt(se), fmt(df), fmt(al),
                                                two, fmt(pw), v.strip()))


def gen_summary(rng, lines):
    xs = [[1.0, 2.0, 3.0, 10.0], [5.0], [2.0, 2.0], [-1.0, 1.0],
          list(rng.standard_normal(9) * 1e6 + 3e7),
          list(rng.integers(0, 5, 200).astype(float)),
          list(rng.standard_normal(130) * 1e-3 + 0.01)]
    for x in xs:
        x = np.array(x)
        sd = np.std(x, ddof=1) if len(x) > 1 else float("nan")
        lines.append(" ".join(["summary", vec(x), fmt(np.mean(x)), fmt(sd),
                               fmt(np.median(x)), fmt(np.min(x)),
                               fmt(np.max(x))]))


def main():
    rng = np.random.default_rng(20240601)
    rver = run_r('cat(R.version.string, "limma", '
                 'as.character(packageVersion("limma")), "\\n")\n')[0]
    lines = ["# stats_ref.txt - written by tests/ref/gen_stats_ref.py; "
             "do not edit.",
             "# scipy %s, numpy %s, %s" % (scipy.__version__, np.__version__,
                                          rver.strip())]
    cases = gen_tests(rng, lines)
    gen_ttestci(rng, cases, lines)
    gen_mwuci(rng, lines)
    gen_adjust(rng, lines)
    gen_limma(rng, lines)
    gen_yuen(rng, lines)
    gen_mde(lines)
    gen_summary(rng, lines)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("gen_stats_ref: wrote %d records to %s" % (len(lines) - 2, OUT))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""gen_tdist_ref.py - record scipy's t distribution on a grid.

Writes tests/ref/tdist_ref.txt, which tests/unit/test_stats.c reads to
check src/stats/tdist.c (pv_t_sf, pv_t_quantile and their memo
variants).  Every expected value is scipy's; nothing comes from
perfverdict.

How the committed file was made (Debian 12, python3-scipy 1.10.1):
    /usr/bin/python3 tests/ref/gen_tdist_ref.py
The grid is fixed, so a re-run reproduces the file exactly.

Grid: df from 1 to 2e6 (integers, halves, the fractional df of Welch
and moderated tests), t from 1e-6 to 1e3 on a log scale and a few
negative t; tails below 1e-300 are left out (they underflow in scipy's
double arithmetic too).  Quantiles at the levels the tool asks for
(intervals, one- and two-sided tests, power) and deep tails.

scipy.stats.t.ppf (cephes stdtri) is only good to about 2e-11 relative
(df = 1: 12.706204736432 for p = 0.975, where tan(pi 0.475) =
12.706204736174707), while its sf is good to the last digits.  So each
ppf value is polished by Newton steps on scipy's own sf and pdf, in the
tail that is the smaller one, until the step is below 1e-16 relative;
a value is kept only when scipy's sf at it then gives back its tail to
1e-13 relative.  The header counts what was left out.

Line format (numbers as Python repr):
  sf T DF P        P = scipy.stats.t.sf(T, DF)
  ppf P DF X       X = scipy.stats.t.ppf(P, DF), polished on t.sf
"""
import os

import numpy as np
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tdist_ref.txt")

DFS = [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.3, 10.0, 13.971592216029062,
       18.0, 30.0, 50.0, 100.0, 199.0, 201.0, 300.0, 1000.0, 2999.0, 3001.0,
       1e4, 3.3e4, 1e5, 3e5, 588766.6, 1e6, 2e6]
TS = [float(t) for t in np.logspace(-6, 3, 37)] + [1.96, 2.5, 18.5]
NEG = [-1e-3, -0.5, -3.0, -30.0]
PS = [1e-300, 1e-100, 1e-20, 1e-8, 1e-4, 0.001, 0.005, 0.01, 0.025, 0.05,
      0.1, 0.2, 0.3, 0.4, 0.45, 0.6, 0.7, 0.8, 0.9, 0.95, 0.975,
      0.99, 0.995, 0.999, 1 - 1e-6]


def polished_ppf(p, df):
    """scipy's ppf, polished on scipy's sf; None if it does not settle."""
    x = float(stats.t.ppf(p, df))
    tail, sign = (p, -1.0) if p < 0.5 else (1 - p, 1.0)
    x = abs(x)
    for _ in range(20):
        if not np.isfinite(x) or x == 0:
            return None
        sf, pdf = float(stats.t.sf(x, df)), float(stats.t.pdf(x, df))
        if not pdf > 0:
            return None
        step = (sf - tail) / pdf
        x += step
        if abs(step) <= 1e-16 * x:
            break
    if abs(float(stats.t.sf(x, df)) - tail) > 1e-13 * tail:
        return None
    return sign * x


def main():
    lines = ["# tdist_ref.txt - written by tests/ref/gen_tdist_ref.py; do not edit.",
             "# scipy %s, numpy %s" % (scipy.__version__, np.__version__)]
    for df in DFS:
        for t in TS + NEG:
            p = float(stats.t.sf(t, df))
            if p >= 1e-300:
                lines.append("sf %r %r %r" % (t, df, p))
    dropped = 0
    for df in DFS:
        for p in PS:
            x = polished_ppf(p, df)
            if x is None:
                dropped += 1
            else:
                lines.append("ppf %r %r %r" % (p, df, x))
    lines.insert(2, "# ppf values left out (did not settle): %d" % dropped)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

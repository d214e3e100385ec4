#!/usr/bin/python3
"""The table of pv_cp_scale_bias() (src/stats/changepoint.c): the mean of
the square of the change-point detector's robust scale (robust_scale():
the larger of the MAD's and the 90%-trimmed RMS's estimates from the
successive differences less their median, never below the median
|difference|'s) over sigma^2, for normal noise, by the series' length L.
Monte Carlo, 400,000 series a length to 100 points (s.e. about 0.1%),
100,000 beyond.  Prints the two C arrays.  Needs numpy and scipy."""
import numpy as np
from scipy.stats import norm

MAD_SD = 1.482602218505602
MEDIAN_DIFF_SD = 0.6744897501960817 * np.sqrt(2)


def scale(Y):
    d = np.diff(Y, axis=1)
    n = d.shape[1]
    med_abs = np.median(np.abs(d), axis=1) / MEDIAN_DIFF_SD
    dev = np.sort(np.abs(d - np.median(d, axis=1)[:, None]), axis=1)
    mad = MAD_SD * np.median(dev, axis=1)
    keep = min(int(np.ceil(0.9 * n)), n - 1)
    f = keep / n
    z = norm.ppf(0.5 + 0.5 * f)
    trim = np.sqrt(1 - 2 * z * norm.pdf(z) / f)
    rms = np.sqrt(np.sum(dev[:, :keep] ** 2, axis=1) / keep) / trim
    return np.maximum(np.maximum(mad, rms) / np.sqrt(2), med_abs)


def bias2(rng, L):
    reps = 400000 if L <= 100 else 100000
    out = []
    for _ in range(reps // 50000):
        out.append(np.mean(scale(rng.standard_normal((50000, L))) ** 2))
    return float(np.mean(out))


rng = np.random.default_rng(20261203)
short = [bias2(rng, L) for L in range(4, 41)]
long_L = [50, 60, 80, 100, 150, 200, 300, 500, 1000]
print("/* L = 4 .. 40 */")
print(", ".join("%.4f" % b for b in short))
print("/* L = " + ", ".join(map(str, long_L)) + " */")
print(", ".join("%.4f" % bias2(rng, L) for L in long_L))

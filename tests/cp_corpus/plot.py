#!/usr/bin/python3
"""Plot a corpus project's series, 12 to a PNG, for labelling by eye.

    plot.py PROJECT_DIR OUT_PREFIX [LABELS.json] [FLAGS.json]

Points are drawn by index with a grid every 5 points; labelled shifts
(if given) are green lines, a rule's flags red crosses.
"""
import csv
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def load(d):
    s = {}
    with open(f"{d}/series.csv") as f:
        for r in csv.DictReader(f):
            s.setdefault(r["series"], []).append((int(r["index"]), float(r["value"])))
    return s


def main(argv):
    d, out = argv[0], argv[1]
    labels = json.load(open(argv[2])) if len(argv) > 2 else {}
    labels = labels.get("series", labels)   # labels.json nests them
    flags = json.load(open(argv[3])) if len(argv) > 3 else {}
    s = load(d)
    names = sorted(s)
    for page in range(0, len(names), 12):
        fig, axes = plt.subplots(4, 3, figsize=(18, 14))
        for ax, n in zip(axes.flat, names[page:page + 12]):
            x = [i for i, _ in s[n]]
            y = [v for _, v in s[n]]
            ax.plot(x, y, ".-", lw=0.6, ms=3)
            ax.set_xticks(range(0, max(x) + 1, 5), minor=False)
            ax.tick_params(labelsize=6)
            ax.grid(True, lw=0.3)
            ax.set_title(f"{names.index(n)}: {n[:60]}", fontsize=7)
            for k in labels.get(n, {}).get("shifts", []):
                ax.axvline(k, color="g", lw=0.8)
            for k in flags.get(n, []):
                yy = dict(s[n]).get(k)
                if yy is not None:
                    ax.plot([k], [yy], "rx", ms=8)
        fig.tight_layout()
        fig.savefig(f"{out}-{page // 12}.png", dpi=60)
        plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1:])

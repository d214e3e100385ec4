#!/usr/bin/python3
"""Blind labelling of a new corpus project under labelling.md, in two
steps, so that a project joins the corpus labelled by two raters who saw
no rule's output, each other's labels or the project's name.

    blind.py plot PROJECT_DIR OUT_DIR SEED
        One series a PNG (10 x 4.2 in at 100 dpi: 1000 x 420 px), the
        points as dots joined by a thin line, a labelled tick and grid
        line every 5 points, the y axis in the series' unit (log only
        where the values span more than 30x, and the axis says so), the
        title a number only: SEED's last three digits and the series'
        place in an order shuffled with SEED.  OUT_DIR/key.json maps the
        numbers to the series; raters see only the PNGs.

    blind.py labels KEY_JSON RATER_JSON OUT_JSON RATER_NAME
        A rater's labels by number ({"series": {NUM: {"shifts": [{"at",
        "size_pct", "conf": "R"|"P"}], "drifts": [[a, b]], "note"}}}) into
        the corpus's labels.json form by series name: shifts the R
        shifts' indices, unsure the P shifts (one point each) and the
        drifts; the note and sizes kept beside them.  Numbers of other
        projects in RATER_JSON are left out.
"""
import csv
import json
import os
import random
import sys


def plot(d, out, seed):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    s, unit = {}, {}
    with open(os.path.join(d, "series.csv")) as f:
        for r in csv.DictReader(f):
            s.setdefault(r["series"], []).append(
                (int(r["index"]), float(r["value"])))
            unit[r["series"]] = r["unit"].split()[0] if r["unit"] else ""
    names = sorted(s)
    random.Random(seed).shuffle(names)
    os.makedirs(out, exist_ok=True)
    key = {}
    for i, n in enumerate(names):
        num = f"{seed % 1000:03d}{i:02d}"
        key[num] = n
        x = [a for a, _ in s[n]]
        y = [b for _, b in s[n]]
        fig, ax = plt.subplots(figsize=(10, 4.2), dpi=100)
        ax.plot(x, y, "-", lw=0.5, color="0.5")
        ax.plot(x, y, "o", ms=3)
        if min(y) > 0 and max(y) / min(y) > 30:
            ax.set_yscale("log")
            ax.set_ylabel(f"{unit[n]} (log scale)")
        else:
            ax.set_ylabel(unit[n])
        ax.set_xticks(range(0, max(x) + 1, 5))
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(True, lw=0.4, alpha=0.6)
        ax.set_xlim(-1, max(x) + 1)
        ax.set_title(num)
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"{num}.png"))
        plt.close(fig)
    with open(os.path.join(out, "key.json"), "w") as f:
        json.dump(key, f, indent=1)


def labels(key_json, rater_json, out_json, name):
    key = json.load(open(key_json))
    got = json.load(open(rater_json))["series"]
    ser = {}
    for num, lab in got.items():
        if num not in key:
            continue
        sh = lab.get("shifts", [])
        ser[key[num]] = {
            "shifts": sorted(x["at"] for x in sh if x["conf"] == "R"),
            "unsure": sorted([x["at"], x["at"]] for x in sh
                             if x["conf"] != "R") +
            sorted(list(w) for w in lab.get("drifts", [])),
            "sizes_pct": {str(x["at"]): x.get("size_pct") for x in sh},
            "note": lab.get("note", "")}
    missing = sorted(set(key.values()) - set(ser))
    if missing:
        sys.exit(f"{rater_json}: no label for {len(missing)} series "
                 f"(first: {missing[0]})")
    with open(out_json, "w") as f:
        json.dump({"rater": name, "series": ser}, f, indent=1)


def main(argv):
    if argv[:1] == ["plot"] and len(argv) == 4:
        plot(argv[1], argv[2], int(argv[3]))
    elif argv[:1] == ["labels"] and len(argv) == 5:
        labels(*argv[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

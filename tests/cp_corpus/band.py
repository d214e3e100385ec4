#!/usr/bin/python3
"""Check the held-out projects' score against the band of check_corpus.sh.

    band.py EVAL.json CLEAR_MIN NOISE_MAX F1_MIN

EVAL.json is what evaluate.py --json wrote.  Prints the held-out figures
beside their limits; exits 1 when one is outside its band.
"""
import json
import sys

r = json.load(open(sys.argv[1]))["held_out"]
cmin, nmax, fmin = (float(x) for x in sys.argv[2:5])
print(f"held-out: {r['clear_pct']:.1f}% of clear shifts (at least {cmin:g}), "
      f"{r['noise_pct']:.1f}% of flags on noise (at most {nmax:g}), "
      f"F1 {r['f1']:.3f} (at least {fmin:g})")
bad = [m for m, b in (("too few clear shifts found", r["clear_pct"] < cmin),
                      ("too many flags on noise", r["noise_pct"] > nmax),
                      ("F1 below the band", r["f1"] < fmin)) if b]
for m in bad:
    print(f"check_corpus: held-out {m}")
sys.exit(1 if bad else 0)

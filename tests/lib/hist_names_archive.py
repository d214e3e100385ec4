#!/usr/bin/python3
"""Write nine points whose group, benchmark, metric and unit (and the last
point's directory name) hold Markdown, HTML and mention syntax, with a
+20% step at point 7 (seeded).

  usage: hist_names_archive.py DIR

Run by tests/check_history_names.sh.
"""
import os, random, sys
random.seed(5)
root = sys.argv[1]
for p in range(9):
    d = os.path.join(root, "%04d-@team`x" % (p + 1) if p == 8 else "%04d" % (p + 1))
    os.makedirs(d)
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("group,benchmark,metric,unit,value\n")
        for r in range(3):
            v = 100 * (1.2 if p >= 6 else 1.0) * (1 + 0.005 * random.gauss(0, 1))
            f.write('"g|1 <script>x</script>","b```c @team #12",t_ime|x,"n""s|",%.4f\n' % v)

#!/usr/bin/python3
"""Write a large CSV result file: 200,000 runs of one benchmark and 20,000
benchmarks of 5 runs (seeded).

  usage: cli_big_csv.py OUT.csv

Run by tests/check_cli.sh.
"""
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("benchmark,metric,unit,value\n")
    f.writelines("big,time,ns,%d\n" % (1000 + random.randint(0, 50)) for _ in range(200000))
    for m in range(20000):
        f.writelines("b%d,time,ns,%d\n" % (m, 100 + random.randint(0, 5)) for _ in range(5))

#!/usr/bin/python3
"""Write three gzip points into DIR, the first with N samples of VALUE (a
long array of small elements: the worst text-to-memory ratio for
max_inflated_size).

  usage: integrity_bomb_points.py DIR N [VALUE]

Run by tests/check_archive_integrity.sh.
"""
import gzip, os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
def point(name, day, nvals, val):
    s = ('{"point_version":1,"label":"p%d","commit":"c%d","time":"2026-01-%02dT00:00:00Z",'
         '"suite":"s","context":{},"metrics":[{"suite":"","test":"","group":"","benchmark":"b",'
         '"metric":"m","unit":"ns","samples":[' % (day, day, day)) + ",".join([val] * nvals) + ']}]}\n'
    with gzip.open(os.path.join(d, name), "wb") as f:
        f.write(s.encode())
point("2026-01-01T000000Z-c1.json.gz", 1, n, "1")
point("2026-01-02T000000Z-c2.json.gz", 2, 5, "2")
point("2026-01-03T000000Z-c3.json.gz", 3, 5, "3")

"""pytest-benchmark suite for perfverdict's samples.

PV_SLOWDOWN=1 makes test_sort do 20% more work (it sorts 1.2x the
elements); the other benchmarks are the same in both runs.
"""
import hashlib
import json
import os
import random

import pytest

SORT_WORK = 1.2 if os.environ.get("PV_SLOWDOWN") == "1" else 1.0

_rng = random.Random(42)
_DATA = [_rng.random() for _ in range(int(5000 * SORT_WORK))]
_DOC = {"k%d" % i: [i, str(i), {"x": i * 0.5}] for i in range(200)}


def test_sort(benchmark):
    benchmark(sorted, _DATA)


def test_sha256(benchmark):
    buf = b"x" * 65536
    benchmark(lambda: hashlib.sha256(buf).digest())


@pytest.mark.benchmark(group="json")
def test_json_dumps(benchmark):
    benchmark(json.dumps, _DOC)


@pytest.mark.benchmark(group="json")
def test_json_loads(benchmark):
    text = json.dumps(_DOC)
    benchmark(json.loads, text)


@pytest.mark.parametrize("n", [100, 1000])
def test_join(benchmark, n):
    parts = ["abc"] * n
    benchmark("".join, parts)

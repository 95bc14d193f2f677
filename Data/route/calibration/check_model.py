#!/usr/bin/env python3
"""Independent re-evaluation of out/circuity.json, the way the Swift side will do it:
reads only the JSON and a pairs CSV, recomputes straight_m with geographiclib (Karney),
evaluates the model with plain math from the 'method' rule, prints the errors.

Usage: python3 check_model.py [pairs.csv ...]   (default: out/holdout_pairs.csv)
"""
import csv
import json
import math
import os
import statistics
import sys

from geographiclib.geodesic import Geodesic

HERE = os.path.dirname(os.path.abspath(__file__))
M = json.load(open(os.path.join(HERE, "out", "circuity.json")))
K = M["knots"]


def factor(s):
    x = math.log(min(max(s, K[0]["straight_m"]), K[-1]["straight_m"]))
    for i in range(len(K) - 1):
        a, b = math.log(K[i]["straight_m"]), math.log(K[i + 1]["straight_m"])
        if a <= x <= b:
            t = (x - a) / (b - a)
            return (1 - t) * K[i]["factor"] + t * K[i + 1]["factor"]
    raise AssertionError


def band(s):
    for b in M["band"]:
        if b["max_straight_m"] is None or s <= b["max_straight_m"]:
            return b


def pct(xs, q):  # linear interpolation between order statistics (numpy default)
    xs = sorted(xs)
    h = q / 100 * (len(xs) - 1)
    i = int(math.floor(h))
    return xs[i] if i + 1 >= len(xs) else xs[i] + (h - i) * (xs[i + 1] - xs[i])


for tv in M["test_vectors"]:
    assert abs(factor(tv["straight_m"]) - tv["factor"]) < 1e-12, tv

for path in sys.argv[1:] or [os.path.join(HERE, "out", "holdout_pairs.csv")]:
    rows = list(csv.DictReader(open(path)))
    by = {}
    maxdiff = 0.0
    for r in rows:
        s = Geodesic.WGS84.Inverse(float(r["o_lat"]), float(r["o_lon"]), float(r["d_lat"]), float(r["d_lon"]))["s12"]
        maxdiff = max(maxdiff, abs(s - float(r["straight_m"])))
        est = s * factor(s)
        dr = float(r["driven_m"])
        b = band(s)
        rec = (abs(est - dr) / dr, b["p10"] <= dr / est <= b["p90"], dr / s)
        by.setdefault(r["network"], []).append(rec)
        if r["network"] != "monaco":
            by.setdefault("ALL_without_monaco", []).append(rec)
        by.setdefault("ALL", []).append(rec)
    print(f"{path}: max |straight_m - geographiclib| = {maxdiff:.2e} m")
    for n, recs in sorted(by.items()):
        e = [x[0] for x in recs]
        print(f"  {n:20s} n={len(e):5d} median_abs_err={statistics.median(e):.4f} p90={pct(e, 90):.4f} "
              f"p10-p90 coverage={sum(x[1] for x in recs) / len(recs):.3f} median driven/straight={statistics.median(x[2] for x in recs):.3f}")

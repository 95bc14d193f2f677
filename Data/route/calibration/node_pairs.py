#!/usr/bin/env python3
"""Shortest legal driving distances between exact OSM junction nodes on every shared
extract, computed independently of GeoFare's router: pyosmium reads the ways, the road rules
are build_pairs.py's (section 1 of README.md, the same as
Tests/GeoFareGraphTests/Fixtures/calibration-profile.json), and scipy's plain Dijkstra runs on
the junction graph (largest strongly connected component).

The test `GroundTruthTests.nodePairsWithDefaultSnapping` routes each pair with the worker's
default snapping and compares (a route must never be shorter than the legal path).

Data: ../shared/data/osm/*.osm.pbf  (c) OpenStreetMap contributors, ODbL 1.0. Read in place.

Output: Tests/GeoFareGraphTests/Fixtures/node_pairs.csv
        (extract,o_lat,o_lon,d_lat,d_lon,shortest_m), coordinates with 7 decimals: the nodes'
        own E7 coordinates, exactly.

Usage:  python3 node_pairs.py [--per-extract 400] [--seed 20261125]
Needs:  pip install osmium pyproj numpy scipy     (deterministic: a rerun is byte-identical)
"""
import argparse
import os

import numpy as np
from scipy.sparse.csgraph import dijkstra

from build_pairs import OSM_DIR, build_graph, read_network

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "Tests", "GeoFareGraphTests", "Fixtures", "node_pairs.csv")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-extract", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    extracts = sorted(f for f in os.listdir(OSM_DIR) if f.endswith(".osm.pbf"))
    rows = []
    for k, fname in enumerate(extracts):
        ways, loc, _ = read_network(os.path.join(OSM_DIR, fname), include_service=False)
        g, lat, lon, info = build_graph(ways, loc)
        rng = np.random.default_rng(args.seed + k)
        n = len(lat)
        # two destinations per origin, all uniform over the junctions of the component
        origins = rng.choice(n, size=args.per_extract // 2, replace=False)
        dist = dijkstra(g, directed=True, indices=origins)
        got = 0
        for i, o in enumerate(origins):
            for t in rng.choice(n, size=2, replace=False):
                if t == o or not np.isfinite(dist[i, t]):
                    continue
                rows.append((fname, lat[o], lon[o], lat[t], lon[t], float(dist[i, t])))
                got += 1
        print(f"{fname:40s} {info['largest_scc_nodes']:6d} junctions  {got} pairs", flush=True)
    with open(args.out, "w") as f:
        f.write("extract,o_lat,o_lon,d_lat,d_lon,shortest_m\n")
        for r in rows:
            f.write(f"{r[0]},{r[1]:.7f},{r[2]:.7f},{r[3]:.7f},{r[4]:.7f},{r[5]:.3f}\n")
    print(f"wrote {len(rows)} pairs to {os.path.normpath(args.out)}")


if __name__ == "__main__":
    main()

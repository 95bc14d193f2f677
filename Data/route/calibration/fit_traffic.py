#!/usr/bin/env python3
"""Fits the NYC traffic profile (us-nyc) of Data/route/speed-profiles.json on real trips and
prints its report. Reads ../shared/data/nyc/nyc_trips_validation.csv (beside the checkout, or
$GEOFARE_SHARED/data/nyc): 25,358 TLC trips with metered distance, duration and pickup time.

Split: fit on the January 2016 trips, report on the March 2019 trips (another year, month and
set of days). The model is GeoFare's circuity-path traffic model (SpeedProfile,
CircuityRouteEstimator.stretches) driven over each trip's metered distance:
  - yellow trips (mostly Manhattan's) are the 'city' area; green cabs may not pick up in
    Manhattan below E 96th / W 110th St, so their trips are the outer boroughs: 'suburb';
  - the congestion index c[day type][hour] is fitted per cell so that the median of
    real / predicted duration of the cell's yellow trips is 1 (bisection);
  - the suburb's surface time factor so that the green trips' median ratio is 1;
  - the centre (Midtown, the centre box): its surface time factor is how much slower than all
    rides of 1-3 km the rides inside the box were on the night of rides with coordinates (no
    daytime traffic then), its sensitivity to congestion such that on weekdays 8 am-6 pm it
    runs 6.9 / 4.8 mph slower than the city (NYC DOT's CBD and Midtown speeds, via NY1 2024);
  - the duration band: p10 and p90 of real / predicted over the fit trips.
The graph factor (graph_factor) is fitted on the night of rides with coordinates
(nyc_yellow_trips_coords_flinktraining_20130101_0100.csv.gz), with both ends inside a road
graph's box: each ride is routed twice by `geofare fare-csv` (with and without --graph), and
the factor is scaled so that the median of (graph speed / no-graph speed) is 1: on a graph a
trip runs at the speed the no-graph model (fitted above on ordinary days) gives it, whatever
that night's own traffic, which both routes share. The graph's duration band is p10/p90 of
real / graph duration there, divided by that night's median (the night's own level removed).
Korea has no trips with times in the shared data: its graph factor is matched the same way
(graph speed = no-graph speed) over seeded random pairs of points of a Korean graph (--kr-graph).
Usage: python3 fit_traffic.py [--write] [--graph G] [--kr-graph K] [--geofare BIN]
  --write  updates the us-nyc profile in place (run it again after a rebuild to fit the graph)
  --graph  a graph built from ../shared/data/osm/nyc_midtown_south.osm.pbf, --geofare the binary
  --kr-graph  a graph built from ../shared/data/osm/seoul_mapo.osm.pbf
"""
import subprocess, tempfile, gzip  # noqa: E401
import csv, datetime, json, math, os, statistics, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("GEOFARE_SHARED", os.path.join(HERE, "..", "..", "..", "..", "shared"))
PROFILES = os.path.join(HERE, "..", "speed-profiles.json")
KINDS = ("expressway", "arterial", "local")

def load_trips():
    out = []
    for r in csv.DictReader(open(os.path.join(SHARED, "data", "nyc", "nyc_trips_validation.csv"))):
        p = datetime.datetime.strptime(r["pickup"], "%Y-%m-%d %H:%M:%S")
        wd = p.weekday()
        out.append(dict(src=r["source"], day=0 if wd < 5 else wd - 4, hour=p.hour, d=float(r["distance_mi"]) * 1609.344,
                        t=float(r["duration_s"]), area="city" if "yellow" in r["source"] else "suburb"))
    return out

def mix(profile, meters):
    knots = profile["road_mix"]
    km = max(meters / 1000, 1e-3)
    if km <= knots[0]["km"]: return knots[0]["expressway"], knots[0]["arterial"]
    if km >= knots[-1]["km"]: return knots[-1]["expressway"], knots[-1]["arterial"]
    i = 0
    while knots[i + 1]["km"] < km: i += 1
    a, b = knots[i], knots[i + 1]
    t = math.log(km / a["km"]) / math.log(b["km"] / a["km"])
    return a["expressway"] + t * (b["expressway"] - a["expressway"]), a["arterial"] + t * (b["arterial"] - a["arterial"])

def factor(profile, kind, area, c):
    f = profile["area_factors"][area]
    return f["time"][kind] * (1 + f["sensitivity"][kind] * (c - 1))

def predict(profile, meters, area, c):
    """Seconds to drive `meters` within one area at congestion index c (no hour boundary)."""
    e, a = mix(profile, meters)
    surface, express = meters * (1 - e), meters * e
    urban = min(express / 2, profile["urban_expressway_km"] * 1000)
    free = profile["free_kmh"]
    s = a / (1 - e) if e < 1 else 1
    va = free["arterial"] / 3.6 / factor(profile, "arterial", area, c)
    vl = free["local"] / 3.6 / factor(profile, "local", area, c)
    surf = s / va + (1 - s) / vl
    ve = free["expressway"] / 3.6 / factor(profile, "expressway", area, c)
    vr = free["expressway"] / 3.6 / factor(profile, "expressway", "rural", c)
    return surface * surf + 2 * urban / ve + (express - 2 * urban) / vr

def bisect(f, lo=0.3, hi=10.0):
    for _ in range(60):
        mid = (lo + hi) / 2
        if f(mid) > 0: hi = mid
        else: lo = mid
    return (lo + hi) / 2

def quantile(v, q):
    v = sorted(v); x = q * (len(v) - 1); i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])

def cbd_slowdown(profile):
    """Median speed (straight metres / seconds) of all the night's rides of 1-3 km straight over
    that of those with both ends in the centre box: how much slower the CBD is than the average
    yellow trip."""
    box = next(r["boxes"][0] for r in profile["areas"] if r["area"] == "centre")
    starts, ends = {}, {}
    path = os.path.join(SHARED, "data", "nyc", "nyc_yellow_trips_coords_flinktraining_20130101_0100.csv.gz")
    for r in csv.reader(gzip.open(path, "rt")):
        (starts if r[1] == "START" else ends)[r[0]] = r
    every, centre = [], []  # speeds of all rides and of those inside the centre box
    for rid, r in starts.items():
        if rid not in ends: continue
        lon1, lat1, lon2, lat2 = map(float, r[4:8])
        if 0 in (lon1, lat1, lon2, lat2): continue
        t = (datetime.datetime.strptime(ends[rid][2], "%Y-%m-%d %H:%M:%S") - datetime.datetime.strptime(r[2], "%Y-%m-%d %H:%M:%S")).total_seconds()
        kx = 111_320 * math.cos(math.radians((lat1 + lat2) / 2))
        d = math.hypot((lon2 - lon1) * kx, (lat2 - lat1) * 110_540)
        if t < 60 or not 1000 < d < 3000: continue
        every.append(d / t)
        if all(box[0] < x < box[2] for x in (lon1, lon2)) and all(box[1] < y < box[3] for y in (lat1, lat2)): centre.append(d / t)
    ratio = statistics.median(every) / statistics.median(centre)
    print(f"centre box: {len(centre)} of {len(every)} rides of 1-3 km that night, {ratio:.3f} x slower than all")
    return ratio

# NY1, 2024-09-20 (on the "Congestion Kills" report and the Mayor's Management Report): Midtown
# (34th-60th St, 9th Ave-East River) at 4.8 mph on weekdays 8 am-6 pm, the Central Business District
# at 6.9 mph: Midtown's weekday daytime traffic is 6.9 / 4.8 = 1.44 x slower than the CBD's.
MIDTOWN_DAYTIME_SLOWDOWN = 6.9 / 4.8

def fit(profile, trips):
    """Congestion index by cell on the yellow trips (area 'city', Manhattan's average); the
    suburb's (outer boroughs') surface time on the green trips; the centre (Midtown) from the
    night of rides (its free-flow time) and NYC DOT's daytime ratio (its sensitivity)."""
    areas = profile["area_factors"]
    yellow = [t for t in trips if "yellow" in t["src"]]
    green = [t for t in trips if "green" in t["src"]]
    table = [[1.0] * 24 for _ in range(3)]
    for day in range(3):
        for h in range(24):
            cell = [t for t in yellow if t["day"] == day and t["hour"] == h]
            table[day][h] = round(bisect(lambda c: statistics.median(predict(profile, t["d"], "city", c) / t["t"] for t in cell) - 1, 0.2, 10), 3)
    profile["congestion"] = {"weekday": table[0], "saturday": table[1], "sunday": table[2]}
    def suburb_gap(k):
        for kind in ("arterial", "local"): areas["suburb"]["time"][kind] = k
        return statistics.median(predict(profile, t["d"], "suburb", table[t["day"]][t["hour"]]) / t["t"] for t in green) - 1
    suburb_gap(round(bisect(suburb_gap, 0.2, 5), 3))
    # The centre: its free-flow time from the night (its rides of 1-3 km against all), its
    # sensitivity so that weekday 8 am-6 pm it runs MIDTOWN_DAYTIME_SLOWDOWN x slower than the city.
    night = cbd_slowdown(profile)
    day = statistics.mean(table[0][8:18])
    sens = (MIDTOWN_DAYTIME_SLOWDOWN * (1 + (day - 1)) / night - 1) / (day - 1)
    for kind in ("arterial", "local"):
        areas["centre"]["time"][kind] = round(night, 3)
        areas["centre"]["sensitivity"][kind] = round(sens, 3)
    print(f"centre: time {night:.3f}, sensitivity {sens:.3f} (weekday 8-18 mean congestion {day:.3f}); suburb time {areas['suburb']['time']['arterial']}")
    ratios = [t["t"] / predict(profile, t["d"], t["area"], table[t["day"]][t["hour"]]) for t in trips]
    profile["duration_band"]["circuity"] = {"p10": round(quantile(ratios, 0.1), 3), "p90": round(quantile(ratios, 0.9), 3)}
    return profile

def report(profile, trips, label):
    c = profile["congestion"]; table = [c["weekday"], c["saturday"], c["sunday"]]
    band = profile["duration_band"]["circuity"]
    errs, inside = [], 0
    by_hour = {}
    for t in trips:
        p = predict(profile, t["d"], t["area"], table[t["day"]][t["hour"]])
        e = p / t["t"] - 1
        errs.append(e)
        ok = p * band["p10"] <= t["t"] <= p * band["p90"]
        inside += ok
        by_hour.setdefault(t["hour"], []).append((e, ok))
    a = [abs(e) for e in errs]
    print(f"{label}: {len(trips)} trips; duration error median |e| {statistics.median(a):.1%}, signed median {statistics.median(errs):+.1%}, "
          f"p90 |e| {quantile(a, 0.9):.1%}; band [{band['p10']}, {band['p90']}] holds {inside / len(trips):.1%}")
    print("  by hour (signed median, |e| median, band):", " ".join(
        f"{h:02d}:{statistics.median(e for e, _ in v):+.0%}/{statistics.median(abs(e) for e, _ in v):.0%}/{sum(o for _, o in v) / len(v):.0%}"
        for h, v in sorted(by_hour.items())))

def night_rides(box):
    """The night's rides with a dropoff time and both ends inside `box` (W, S, E, N), 1 min to 3 h."""
    starts, ends = {}, {}
    path = os.path.join(SHARED, "data", "nyc", "nyc_yellow_trips_coords_flinktraining_20130101_0100.csv.gz")
    for r in csv.reader(gzip.open(path, "rt")):
        (starts if r[1] == "START" else ends)[r[0]] = r
    w, s, e, n = box
    out = []
    for rid, r in starts.items():
        if rid not in ends: continue
        lon1, lat1, lon2, lat2 = map(float, r[4:8])
        if not all(w < x < e for x in (lon1, lon2)) or not all(s < y < n for y in (lat1, lat2)): continue
        t0 = datetime.datetime.strptime(r[2], "%Y-%m-%d %H:%M:%S")
        real = (datetime.datetime.strptime(ends[rid][2], "%Y-%m-%d %H:%M:%S") - t0).total_seconds()
        if 60 <= real <= 3 * 3600:
            out.append((lat1, lon1, lat2, lon2, t0.strftime("%Y-%m-%dT%H:%M:%S-05:00"), real))
    return out

def routed(binary, rides, graph):
    """Each ride routed by the worker's `route` op: (distance m, duration s), or None where it
    failed or, with a graph, where the graph did not route it (no road near a point)."""
    lines = "".join(json.dumps({"id": i, "op": "route", "from": {"lat": r[0], "lon": r[1]}, "to": {"lat": r[2], "lon": r[3]}, "depart_at": r[4]}) + "\n"
                    for i, r in enumerate(rides))
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([binary, "worker", "--db", os.path.join(d, "w.db")] + (["--graph", graph] if graph else []),
                           input=lines, capture_output=True, text=True)
    out = []
    for line in p.stdout.splitlines():
        a = json.loads(line)
        ok = a.get("ok") and (not graph or a["result"]["estimator"].startswith("graph"))
        out.append((a["result"]["distance_m"], a["result"]["duration_s"]) if ok else None)
    return out

def graph_box(binary, graph):
    info = subprocess.run([binary, "graph", "info", graph], capture_output=True, text=True).stdout
    box = [float(x) for x in next(l for l in info.splitlines() if l.strip().startswith("box")).split()[1].split(",")]
    return (box[0] + 0.001, box[1] + 0.001, box[2] - 0.001, box[3] - 0.001)

def speed_match(profile, binary, graph, rides):
    """Scales graph_factor so that the median of (graph speed / no-graph speed) over `rides` is 1."""
    plain, ongraph = routed(binary, rides, None), routed(binary, rides, graph)
    pairs = [(p, g, r[5]) for p, g, r in zip(plain, ongraph, rides) if p and g and g[0] > 0 and g[1] > 0 and p[0] > 0 and p[1] > 0]
    speed = statistics.median((g[0] / g[1]) / (p[0] / p[1]) for p, g, _ in pairs)
    profile["graph_factor"] = round(profile["graph_factor"] * speed, 3)
    return pairs, speed

def fit_graph_korea(profile, binary, graph):
    """Korea has no trips with times here: the graph factor is matched to the no-graph model's
    speeds over 2,000 seeded random pairs of points of a Korean graph (Wednesday 14:00 KST)."""
    import random
    rng = random.Random(20261128)
    w, s, e, n = graph_box(binary, graph)
    rides = [(rng.uniform(s, n), rng.uniform(w, e), rng.uniform(s, n), rng.uniform(w, e), "2026-11-25T14:00:00+09:00", 0) for _ in range(2000)]
    pairs, speed = speed_match(profile, binary, graph, rides)
    print(f"kr graph: {len(pairs)} random pairs; graph speed / no-graph speed median {speed:.3f} (graph_factor -> {profile['graph_factor']})")

def fit_graph(profile, binary, graph):
    rides = night_rides(graph_box(binary, graph))
    pairs, speed = speed_match(profile, binary, graph, rides)
    ratios = [real / g[1] for _, g, real in pairs]
    level = statistics.median(ratios)
    profile["duration_band"]["graph"] = {"p10": round(quantile(ratios, 0.1) / level, 3), "p90": round(quantile(ratios, 0.9) / level, 3)}
    print(f"graph: {len(pairs)} rides of the night inside the graph; graph speed / no-graph speed median {speed:.3f} "
          f"(graph_factor -> {profile['graph_factor']}); real / graph duration median {level:.3f} (the night's level), "
          f"band {profile['duration_band']['graph']}")

def main():
    data = json.load(open(PROFILES))
    profile = next(p for p in data["profiles"] if p["id"] == "us-nyc")
    trips = load_trips()
    fit_set = [t for t in trips if t["src"].startswith("2016")]
    held = [t for t in trips if t["src"].startswith("2019")]
    fit(profile, fit_set)
    report(profile, fit_set, "fit (2016-01)")
    report(profile, held, "held out (2019-03)")
    if "--graph" in sys.argv:
        fit_graph(profile, sys.argv[sys.argv.index("--geofare") + 1], sys.argv[sys.argv.index("--graph") + 1])
    if "--kr-graph" in sys.argv:
        korea = next(p for p in data["profiles"] if p["id"] == "kr-cities")
        fit_graph_korea(korea, sys.argv[sys.argv.index("--geofare") + 1], sys.argv[sys.argv.index("--kr-graph") + 1])
    if "--write" in sys.argv:
        write(data)
        print("wrote", PROFILES)

def write(data):
    """The profiles file with each list of numbers and each small object on one line."""
    import re
    text = json.dumps(data, indent=1, ensure_ascii=False)
    text = re.sub(r"\[\s*([-0-9.,\s]+?)\s*\]", lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)
    text = re.sub(r"\{\s*((?:\"[a-z0-9_]+\": [-0-9.]+,?\s*)+)\}", lambda m: "{" + ", ".join(x.strip() for x in m.group(1).split(",") if x.strip()) + "}", text)
    open(PROFILES, "w").write(text + "\n")

if __name__ == "__main__":
    main()

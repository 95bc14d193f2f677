#!/usr/bin/env python3
"""GeoFare's accuracy against real trips: durations, fares and their 80 % bands.

    python3 Data/route/calibration/accuracy_report.py [--geofare BIN] [--graph MIDTOWN.graph]

Reads the team's shared real trips (../shared/data beside the checkout, or $GEOFARE_SHARED/data):
1. NYC ordinary days (nyc_trips_validation.csv: 25,358 TLC trips with metered distance, duration
   and fare, every hour of the week). The traffic model was fitted on the January 2016 trips
   (fit_traffic.py); the March 2019 trips are held out. Each trip is priced by `geofare fare-csv`
   from its metered distance and the duration the traffic model gives it (the model's Python
   twin in fit_traffic.py, without the split at hour boundaries; the Swift test
   TrafficTests.heldOutNewYork drives the 2019 trips through the estimator itself and gets
   22.0 % / -6.0 % / band 78.1 % against this report's 22.1 % / -5.9 % / 77.8 %): duration error, fare error, and
   whether the real duration and fare fall inside the bands (duration: the speed band;
   fare: the fare-csv band of the low and high durations).
2. NYC New Year's night 2013, 01:00-01:45 (rides with coordinates and times, no fares): each
   ride with both ends inside the graph's box is routed by `geofare fare-csv` from its
   coordinates, with and without the graph: duration error and duration-band coverage. That
   night is slower than an ordinary Tuesday at 1 am; the signed error shows by how much.
3. Korean reference trips from coordinates (no graph): distance, duration, fare and band.
4. Real metered Korean rides (korea/seongnam_taxi_trips_2024q1.csv: 489 Seongnam rides of
   January-March 2024 from the national taxi records, each with its fare, surcharge state, ends,
   distance and time), priced by `geofare worker` on a Seongnam taxi's meter
   (`kr-gyeonggi/regular`, its zone `kr-sgg-gyeonggi-seongnam`) three ways: the known trip with its ends (`from`, `to` and `trip`), the
   trip without its ends, and from the coordinates alone. Fare error by distance band, by hour and
   by recorded surcharge state; whether our surcharge (night or 시계외) agrees with the recorded
   state. The Korean slow-time model (Data/fare/slow-time-kr.json) was fitted on the 300 plain
   rides (no surcharge, inside Seongnam, by day): the figures are given for every ride and for
   the 189 rides the fit did not use.
5. Durations learned from completed rides: `geofare calibrate` on January-February Seongnam rides
   scored on March, and (with --graph) on the 2013-03-01 8 am NYC rides, 08:00-08:39 fitted and
   08:40-09:00 scored inside the Midtown graph (median |error| / signed, band coverage).
Prints medians (|error|, signed), p90 |error|, and coverage, overall and (for 1.) by hour.
"""
import csv, json, os, statistics, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_traffic as ft

def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
BIN = arg("--geofare", os.path.join(ROOT, ".build", "release", "geofare"))
GRAPH = arg("--graph")

def fare_csv(rows, header, extra=()):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.csv"), os.path.join(d, "out.csv")
        with open(src, "w", newline="") as f:
            w = csv.writer(f); w.writerow(header); w.writerows(rows)
        subprocess.run([BIN, "fare-csv", src, "-o", out, "--quiet", *extra], check=False)
        return list(csv.DictReader(open(out)))

def summary(label, errors, inside=None, within=None):
    a = [abs(e) for e in errors]
    text = (f"{label}: n={len(errors)}, median |error| {statistics.median(a):.1%}, signed median {statistics.median(errors):+.1%}, "
            f"p90 |error| {ft.quantile(a, 0.9):.1%}")
    if within is not None: text += f", within $0.50 {sum(within) / len(within):.1%}"
    if inside is not None: text += f", band holds {sum(inside) / len(inside):.1%}"
    print(text)

def by_hour(label, hours, errors, inside):
    groups = {}
    for h, e, i in zip(hours, errors, inside): groups.setdefault(h, []).append((e, i))
    print(f"  {label} by hour (signed median / median |error| / band):")
    print("   ", " ".join(f"{h:02d}:{statistics.median(e for e, _ in v):+.0%}/{statistics.median(abs(e) for e, _ in v):.0%}/{sum(i for _, i in v) / len(v):.0%}"
                         for h, v in sorted(groups.items())))

def ordinary_days():
    data = json.load(open(ft.PROFILES))
    profile = next(p for p in data["profiles"] if p["id"] == "us-nyc")
    table = [profile["congestion"][k] for k in ("weekday", "saturday", "sunday")]
    band = profile["duration_band"]["circuity"]
    raw = list(csv.DictReader(open(os.path.join(ft.SHARED, "data", "nyc", "nyc_trips_validation.csv"))))
    trips = ft.load_trips()
    for part, keep in (("fit, 2016-01", "2016"), ("held out, 2019-03", "2019")):
        idx = [i for i, t in enumerate(trips) if t["src"].startswith(keep)]
        pred = [ft.predict(profile, trips[i]["d"], trips[i]["area"], table[trips[i]["day"]][trips[i]["hour"]]) for i in idx]
        rows = []
        for i, p in zip(idx, pred):
            r = raw[i]; when = r["pickup"].replace(" ", "T") + "-05:00"
            for t in (p, p * band["p10"], p * band["p90"]):
                rows.append([40.75, -73.99, 40.76, -73.98, when, 1, "us-nyc/yellow", trips[i]["d"], t])
        out = fare_csv(rows, ["origin_lat", "origin_lon", "dest_lat", "dest_lon", "depart_at", "party_size", "tariff", "distance_m", "duration_s"])
        derr, dins, ferr, fins, fwithin, hours = [], [], [], [], [], []
        for k, (i, p) in enumerate(zip(idx, pred)):
            t = trips[i]; real_fare = round(float(raw[i]["fare_amount"]) * 100)
            mid, lo, hi = out[3 * k], out[3 * k + 1], out[3 * k + 2]
            if mid["error"]: continue
            derr.append(p / t["t"] - 1); dins.append(p * band["p10"] <= t["t"] <= p * band["p90"])
            fare = int(mid["meter"]); ferr.append(fare / real_fare - 1); fwithin.append(abs(fare - real_fare) <= 50)
            extras = lambda o: int(o["surcharges"]) + int(o["tolls"])  # the real fare is the meter alone
            fins.append(int(lo["low"]) - extras(lo) <= real_fare <= int(hi["high"]) - extras(hi)); hours.append(t["hour"])
        print(f"\n[1] NYC ordinary days, {part}, from the metered distance and the modelled duration")
        summary("  duration", derr, dins)
        summary("  fare (meter)", ferr, fins, fwithin)
        by_hour("duration", hours, derr, dins)

def new_years_night():
    if not GRAPH:
        print("\n[2] skipped: give --graph (a graph of ../shared/data/osm/nyc_midtown_south.osm.pbf)"); return
    info = subprocess.run([BIN, "graph", "info", GRAPH], capture_output=True, text=True).stdout
    box = [float(x) for x in next(l for l in info.splitlines() if l.strip().startswith("box")).split()[1].split(",")]
    rides = ft.night_rides((box[0] + 0.001, box[1] + 0.001, box[2] - 0.001, box[3] - 0.001))
    header = ["origin_lat", "origin_lon", "dest_lat", "dest_lon", "depart_at", "party_size"]
    rows = [[r[0], r[1], r[2], r[3], r[4], 1] for r in rides]
    print(f"\n[2] NYC New Year's night 2013, 01:00-01:45, {len(rides)} rides inside the graph's box, from their coordinates (worker: route)")
    for label, extra in (("no graph", ()), ("midtown graph", ("--graph", GRAPH))):
        out = fare_csv(rows, header, extra)
        worker = route_bands(rides, extra)
        err, ins = [], []
        for r, o, w in zip(rides, out, worker):
            if o["error"] or w is None: continue
            d = float(o["duration_s"]); err.append(d / r[5] - 1); ins.append(w[0] <= r[5] <= w[1])
        summary(f"  duration, {label}", err, ins)

def route_bands(rides, extra):
    """Each ride's duration band from the worker's route op (duration_low_s, duration_high_s)."""
    lines = "".join(json.dumps({"id": i, "op": "route", "from": {"lat": r[0], "lon": r[1]}, "to": {"lat": r[2], "lon": r[3]}, "depart_at": r[4]}) + "\n"
                    for i, r in enumerate(rides))
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([BIN, "worker", "--db", os.path.join(d, "w.db"), *extra], input=lines, capture_output=True, text=True)
    out = []
    for line in p.stdout.splitlines():
        a = json.loads(line)
        out.append((a["result"]["duration_low_s"], a["result"]["duration_high_s"]) if a.get("ok") else None)
    return out

KOREA = [
    ("Seoul City Hall -> Incheon Airport T1, Wed 15:00", 37.5665, 126.9780, 37.4492, 126.4505, "2026-11-25T15:00:00+09:00"),
    ("Seoul City Hall -> Gangnam station, Wed 14:00", 37.5665, 126.9780, 37.4979, 127.0276, "2026-11-25T14:00:00+09:00"),
    ("Seoul City Hall -> Gangnam station, Wed 22:30", 37.5665, 126.9780, 37.4979, 127.0276, "2026-11-25T22:30:00+09:00"),
    ("Seongnam City Hall -> Busan City Hall, Wed 10:00", 37.4200, 127.1267, 35.1796, 129.0756, "2026-11-25T10:00:00+09:00"),
    ("Seoul City Hall -> Daejeon City Hall, Wed 10:00", 37.5665, 126.9780, 36.3504, 127.3845, "2026-11-25T10:00:00+09:00"),
    ("Hampyeong county office -> Gwangju City Hall, Wed 14:00", 35.0659, 126.5166, 35.1595, 126.8526, "2026-11-25T14:00:00+09:00"),
]

def korea():
    out = fare_csv([[k[1], k[2], k[3], k[4], k[5], 1] for k in KOREA], ["origin_lat", "origin_lon", "dest_lat", "dest_lon", "depart_at", "party_size"])
    print("\n[3] Korean reference trips, from coordinates, no graph")
    for k, o in zip(KOREA, out):
        print(f"  {k[0]}: {float(o['distance_m']) / 1000:.1f} km, {float(o['duration_s']) / 60:.0f} min, {o['total']} KRW (band {o['low']}-{o['high']}; tolls {o['tolls']}), {o['tariff']}")

def korean_rides():
    path = os.path.join(ft.SHARED, "data", "korea", "seongnam_taxi_trips_2024q1.csv")
    rides = list(csv.DictReader(open(path, encoding="utf-8")))
    # Two rows are no meter ride: fare 0, 0 m, 0 s, the amount in 기타요금 (a fare agreed or keyed in).
    unmetered = [r for r in rides if int(r["승차요금"]) == 0]
    rides = [r for r in rides if int(r["승차요금"]) > 0]
    def request(i, r, how):
        q = {"id": i, "op": "fare", "tariff": "kr-gyeonggi/regular", "depart_at": r["승차시간"].replace(" ", "T") + "+09:00"}
        if how != "trip with its ends, no business_zone":
            q["business_zone"] = "kr-sgg-gyeonggi-seongnam"
        if how != "trip only":
            q["from"] = {"lat": float(r["승차Y좌표"]), "lon": float(r["승차X좌표"])}
            q["to"] = {"lat": float(r["하차Y좌표"]), "lon": float(r["하차X좌표"])}
        if how != "coordinates":
            q["trip"] = {"distance_m": float(r["승차거리(m)"]), "duration_s": float(r["승차시간(sec)"])}
        return json.dumps(q, ensure_ascii=False) + "\n"
    def fit_used(r):
        night = lambda t: int(t[11:13]) >= 23 or int(t[11:13]) < 4
        return (r["할증여부"] == "미할증" and r["승차법정동코드"].startswith("4113") and r["하차법정동코드"].startswith("4113")
                and not night(r["승차시간"]) and not night(r["하차시간"]))
    print(f"\n[4] Real metered Korean rides ({len(rides)} Seongnam rides, 2024-01..03), on a Seongnam taxi's meter (kr-gyeonggi/regular); "
          f"{len(unmetered)} rows without a metered fare left out")
    for how in ("trip with its ends", "trip with its ends, no business_zone", "trip only", "coordinates"):
        lines = "".join(request(i, r, how) for i, r in enumerate(rides))
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([BIN, "worker", "--db", os.path.join(d, "w.db")], input=lines, capture_output=True, text=True)
        answers = [json.loads(l) for l in p.stdout.splitlines()]
        for label, keep in (("all rides", lambda r: True), ("rides the slow-time fit did not use", lambda r: not fit_used(r))):
            got = [(r, a["result"]) for r, a in zip(rides, answers) if a.get("ok") and keep(r)]
            # The record's fare is the meter's: tolls (paid beside it) are taken off ours.
            paid = lambda q: int(q["total"]) - int(q["tolls"])
            errors = [paid(q) / int(r["승차요금"]) - 1 for r, q in got]
            within = [abs(paid(q) - int(r["승차요금"])) for r, q in got]
            inside = [int(q["low"]) - int(q["tolls"]) <= int(r["승차요금"]) <= int(q["high"]) - int(q["tolls"]) for r, q in got]
            agree = [(q["breakdown"]["base_surcharge"] + q["breakdown"]["unit_surcharges"] > 0) == (r["할증여부"] != "미할증") for r, q in got]
            print(f"  {how}, {label}: n={len(got)}, median |error| {statistics.median(abs(e) for e in errors):.2%}, signed median {statistics.median(errors):+.2%}, "
                  f"within 100 KRW {sum(w <= 100 for w in within) / len(got):.1%}, within 500 KRW {sum(w <= 500 for w in within) / len(got):.1%}, "
                  f"band holds {sum(inside) / len(got):.1%}, surcharge decision agrees {sum(agree) / len(got):.1%}")
            if label != "all rides" or how not in ("trip with its ends", "coordinates"): continue
            groups = {}
            for (r, q), e in zip(got, errors):
                km = float(r["승차거리(m)"]) / 1000
                band = "<2 km" if km < 2 else "2-10 km" if km < 10 else "10-20 km" if km < 20 else ">20 km"
                hour = int(r["승차시간"][11:13]); period = "night 23-04" if hour >= 23 or hour < 4 else "04-09" if hour < 9 else "09-18" if hour < 18 else "18-23"
                for key in (band, period, r["할증여부"]):
                    groups.setdefault(key, []).append(e)
            print("    by distance, pickup hour and recorded state (n, median |error|, signed):",
                  "; ".join(f"{k} {len(v)} {statistics.median(abs(e) for e in v):.1%} {statistics.median(v):+.1%}" for k, v in groups.items()))

def calibrated_traffic():
    """[5] `geofare calibrate` held out by time. Korea: fitted on January-February, scored on
    March, against the profile without its Seongnam calibration (what the defaults were before
    the rides), and the shipped default (fitted on all three months: in-sample for March). NYC:
    the 2013-03-01 8-9 am rides with both ends in the Midtown graph's box, by default (2013's
    level rests on this hour: in-sample) and with a calibration fitted on 08:00-08:39 (scored
    on 08:40-09:00)."""
    import rides_csv
    print("\n[5] Durations learned from completed rides (geofare calibrate), held out by time")
    with tempfile.TemporaryDirectory() as d:
        profiles = json.load(open(ft.PROFILES))
        for p in profiles["profiles"]:
            p.pop("calibration", None)
        os.makedirs(os.path.join(d, "data", "route"))
        json.dump(profiles, open(os.path.join(d, "data", "route", "speed-profiles.json"), "w"))
        bare = ["--data", os.path.join(d, "data")]
        src = os.path.join(ft.SHARED, "data", "korea", "seongnam_taxi_trips_2024q1.csv")
        fit, march = os.path.join(d, "fit.csv"), os.path.join(d, "march.csv")
        rides_csv.korea(src, fit, [1, 2]); rides_csv.korea(src, march, [3])
        profile = os.path.join(d, "seongnam.json")
        subprocess.run([BIN, "calibrate", fit, "-o", profile, "--quiet", *bare], check=True, capture_output=True)
        for label, extra in (("published averages only", bare), ("calibrated on Jan-Feb", [*bare, "--traffic", profile]),
                             ("the shipped default (fitted on all three months)", [])):
            ride_errors("  Seongnam, March 2024, from coordinates, " + label, march, extra)
        if GRAPH:
            nyc = os.path.join(d, "nyc.csv")
            rides_csv.nyc(os.path.join(ft.SHARED, "data", "nyc", "nyc_yellow_trips_coords_nrelhive_20130301_0800.csv"), nyc)
            rows = list(csv.DictReader(open(nyc)))
            info = subprocess.run([BIN, "graph", "info", GRAPH], capture_output=True, text=True).stdout
            box = [float(x) for x in next(l for l in info.splitlines() if l.strip().startswith("box")).split()[1].split(",")]
            inside = lambda r: all(box[0] + 0.001 <= float(r[k + "_lon"]) <= box[2] - 0.001 and box[1] + 0.001 <= float(r[k + "_lat"]) <= box[3] - 0.001
                                   for k in ("origin", "dest"))
            early, late = os.path.join(d, "early.csv"), os.path.join(d, "late.csv")
            for path, keep in ((early, lambda r: r["pickup_at"][11:16] < "08:40"), (late, lambda r: r["pickup_at"][11:16] >= "08:40" and inside(r))):
                with open(path, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=list(rows[0])); w.writeheader(); w.writerows(r for r in rows if keep(r))
            nycp = os.path.join(d, "nyc.json")
            subprocess.run([BIN, "calibrate", early, "-o", nycp, "--graph", GRAPH, "--quiet"], check=True, capture_output=True)
            for label, extra in (("by default", ["--graph", GRAPH]), ("calibrated on 08:00-08:39", ["--graph", GRAPH, "--traffic", nycp])):
                ride_errors("  NYC 2013-03-01 08:40-09:00 inside the Midtown graph, " + label, late, extra)

def ride_errors(label, path, extra):
    """Route and fare (where the rides have one) from coordinates: duration, distance and fare errors and bands."""
    rows = list(csv.DictReader(open(path)))
    lines = "".join(json.dumps({"id": i, "op": op, "from": {"lat": float(r["origin_lat"]), "lon": float(r["origin_lon"])},
                                "to": {"lat": float(r["dest_lat"]), "lon": float(r["dest_lon"])}, "depart_at": r["pickup_at"]}) + "\n"
                    for i, r in enumerate(rows) for op in ("route", "fare"))
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([BIN, "worker", "--db", os.path.join(d, "w.db"), *extra], input=lines, capture_output=True, text=True)
    answers = [json.loads(l) for l in p.stdout.splitlines()]
    from datetime import datetime
    dur, dins, dist, fare, fins = [], [], [], [], []
    for r, route, priced in zip(rows, answers[0::2], answers[1::2]):
        real = (datetime.fromisoformat(r["dropoff_at"]) - datetime.fromisoformat(r["pickup_at"])).total_seconds()
        if not route.get("ok") or real < 60: continue
        q = route["result"]; dur.append(q["duration_s"] / real - 1); dins.append(q["duration_low_s"] <= real <= q["duration_high_s"])
        if float(r.get("distance_m") or 0) > 0: dist.append(q["distance_m"] / float(r["distance_m"]) - 1)
        if int(float(r.get("fare") or 0)) > 0 and priced.get("ok"):
            f = priced["result"]; paid = int(r["fare"])
            fare.append((f["total"] - f["tolls"]) / paid - 1); fins.append(f["low"] - f["tolls"] <= paid <= f["high"] - f["tolls"])
    text = f"{label}: n={len(dur)}, duration {statistics.median(map(abs, dur)):.1%} / {statistics.median(dur):+.1%} (band {sum(dins) / len(dins):.1%})"
    if dist: text += f", distance {statistics.median(dist):+.1%}"
    if fare: text += f", fare {statistics.median(map(abs, fare)):.1%} / {statistics.median(fare):+.1%} (band {sum(fins) / len(fins):.1%})"
    print(text)

if __name__ == "__main__":
    print(f"GeoFare accuracy report ({BIN})")
    ordinary_days()
    new_years_night()
    korea()
    korean_rides()
    calibrated_traffic()

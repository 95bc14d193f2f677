#!/usr/bin/env python3
"""Regenerates the traffic calibrations the default profiles rest on (Data/route/traffic/), with
`geofare calibrate` on the team's shared real rides:

    python3 Data/route/calibration/make_traffic.py [--geofare BIN]

- kr-cities-seongnam-2024q1.json: the 489 metered Seongnam rides of January-March 2024
  (../shared/data/korea), routed without a graph: kr-cities' `calibration`.
- us-nyc-2013-03-01-0800.json: the yellow-cab rides of Friday 2013-03-01, 8-9 am
  (../shared/data/nyc), Midtown routed on the nyc_midtown_south graph (built here): the areas'
  levels of us-nyc's `levels_by_date` entry for 2012-2014 (`time_from`).

Each is fitted against the profile without itself (a copy of route/speed-profiles.json without
kr-cities' `calibration` and with that dated entry at 1, given by --data), as an operator's
calibration is fitted against the profile it will be applied on. Prints calibrate's report
(fitted values, held-out error by time). Then run `python3 Data/embed.py` and rebuild.
"""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SHARED = os.environ.get("GEOFARE_SHARED", os.path.join(ROOT, "..", "shared"))
BIN = sys.argv[sys.argv.index("--geofare") + 1] if "--geofare" in sys.argv else os.path.join(ROOT, ".build", "release", "geofare")
OUT = os.path.join(ROOT, "Data", "route", "traffic")
sys.path.insert(0, HERE)
import rides_csv

def main():
    profiles = json.load(open(os.path.join(ROOT, "Data", "route", "speed-profiles.json")))
    for p in profiles["profiles"]:
        p.pop("calibration", None)
        for level in p.get("levels_by_date", []):
            if "time_from" in level:
                del level["time_from"]; level["time"] = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "data", "route"))
        json.dump(profiles, open(os.path.join(tmp, "data", "route", "speed-profiles.json"), "w"), ensure_ascii=False)
        data = ["--data", os.path.join(tmp, "data")]
        korea = os.path.join(tmp, "seongnam.csv")
        rides_csv.korea(os.path.join(SHARED, "data", "korea", "seongnam_taxi_trips_2024q1.csv"), korea)
        run([BIN, "calibrate", korea, "-o", os.path.join(OUT, "kr-cities-seongnam-2024q1.json"), "--name", "kr-cities-seongnam-2024q1", *data])
        graph = os.path.join(tmp, "midtown.graph")
        subprocess.run([BIN, "graph", "build", os.path.join(SHARED, "data", "osm", "nyc_midtown_south.osm.pbf"), "-o", graph],
                       check=True, capture_output=True)
        nyc = os.path.join(tmp, "nyc.csv")
        rides_csv.nyc(os.path.join(SHARED, "data", "nyc", "nyc_yellow_trips_coords_nrelhive_20130301_0800.csv"), nyc)
        run([BIN, "calibrate", nyc, "-o", os.path.join(OUT, "us-nyc-2013-03-01-0800.json"), "--name", "us-nyc-2013-03-01-0800",
             "--graph", graph, *data])
    # The files name the temporary paths they were fitted with: keep the names only.
    for name in ("kr-cities-seongnam-2024q1.json", "us-nyc-2013-03-01-0800.json"):
        path = os.path.join(OUT, name)
        text = open(path).read().replace(graph, "nyc_midtown_south.graph (geofare graph build)")
        text = text.replace(os.path.join(tmp, "data"), "Data/ without this calibration")
        open(path, "w").write(text)

def run(cmd):
    print("$", " ".join(os.path.basename(c) if i < 2 else c for i, c in enumerate(cmd)), flush=True)
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Make `geofare pool` INPUT CSVs from the Flink NYC taxi slice.

Reads ../shared/data/nyc/nyc_yellow_trips_coords_flinktraining_20130101_0100.csv.gz (beside the checkout)
(no header; rideId,START|END,time1,time2,startLon,startLat,endLon,endLat,passengerCnt,taxiId,driverId;
see README_trips_coords.md beside it). Only START rows are used: time1 is the pickup time,
New York local wall-clock time, written with offset -05:00 (EST on 2013-01-01).

Keeps rides whose pickup AND drop-off lie inside a bounding box (inclusive) and whose pickup
time lies in [--from, --to) (local HH:MM or HH:MM:SS on 2013-01-01). Writes, in file order
(which is pickup-time order):

    id,depart_at,origin_lat,origin_lon,dest_lat,dest_lon,seats

id = rideId; depart_at = pickup time; seats = passengerCnt clamped to 1..--max-seats
(default 4: a yellow sedan carries four passengers; the data has 5 and 6 from minivans, and
a few 0s, which are read as one rider).

The box: --bbox W,S,E,N, or --graph G (the `box` line of `geofare graph info G`).

  make_requests.py --graph midtown_south.graph --from 01:20 --to 01:45 -o req.csv
  make_requests.py --graph midtown_south.graph --count --windows 01:00-01:20,01:20-01:45
"""
import argparse
import csv
import gzip
import os
import re
import subprocess
import sys

DEFAULT_TRIPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "nyc", "nyc_yellow_trips_coords_flinktraining_20130101_0100.csv.gz")
DEFAULT_BIN = os.environ.get("GEOFARE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "release", "geofare"))
OFFSET = "-05:00"
DAY = "2013-01-01"


def graph_box(binary, graph):
    """(W, S, E, N) from `geofare graph info`."""
    out = subprocess.run([binary, "graph", "info", graph], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"^\s*box\s+(\S+),(\S+),(\S+),(\S+)", out, re.M)
    if not m:
        raise SystemExit(f"no box line in `graph info {graph}`:\n{out}")
    return tuple(float(x) for x in m.groups())


def hms(text):
    parts = [int(p) for p in text.split(":")]
    if len(parts) == 2:
        parts.append(0)
    h, m, s = parts
    return f"{h:02d}:{m:02d}:{s:02d}"


def read_starts(path):
    with gzip.open(path, "rt", newline="") as f:
        for row in csv.reader(f):
            if len(row) < 9 or row[1] != "START":
                continue
            yield row


def select(rows, box, t_from, t_to, max_seats, min_dist_m=0.0):
    w, s, e, n = box
    out = []
    for row in rows:
        ride, _, time1 = row[0], row[1], row[2]
        clock = time1[11:19]
        if time1[:10] != DAY or not (t_from <= clock < t_to):
            continue
        slon, slat, elon, elat = (float(x) for x in row[4:8])
        if not (w <= slon <= e and s <= slat <= n and w <= elon <= e and s <= elat <= n):
            continue
        if min_dist_m > 0:
            # equirectangular is plenty to drop GPS-identical ends
            import math
            dx = (elon - slon) * 111320.0 * math.cos(math.radians((slat + elat) / 2))
            dy = (elat - slat) * 110574.0
            if math.hypot(dx, dy) < min_dist_m:
                continue
        seats = min(max(int(row[8]), 1), max_seats)
        out.append((ride, f"{DAY}T{clock}{OFFSET}", row[5], row[4], row[7], row[6], seats))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trips", default=DEFAULT_TRIPS)
    ap.add_argument("--graph", help="take the box from this graph file")
    ap.add_argument("--bbox", help="W,S,E,N")
    ap.add_argument("--geofare", default=DEFAULT_BIN, help="geofare binary (for graph info)")
    ap.add_argument("--from", dest="t_from", default="01:00", help="local pickup time, inclusive")
    ap.add_argument("--to", dest="t_to", default="01:45:06", help="local pickup time, exclusive")
    ap.add_argument("--max-seats", type=int, default=4)
    ap.add_argument("--min-dist-m", type=float, default=0.0,
                    help="drop rides whose ends are closer than this (straight line); default keeps all")
    ap.add_argument("--limit", type=int, default=0, help="keep only the first N rides")
    ap.add_argument("-o", "--output", help="output CSV (default stdout)")
    ap.add_argument("--count", action="store_true", help="only print counts per --windows")
    ap.add_argument("--windows", default="01:00-01:20,01:20-01:45", help="for --count")
    a = ap.parse_args()

    if a.bbox:
        box = tuple(float(x) for x in a.bbox.split(","))
    elif a.graph:
        box = graph_box(a.geofare, a.graph)
    else:
        ap.error("give --graph or --bbox")
    rows = list(read_starts(a.trips))

    if a.count:
        print(f"box W,S,E,N = {box[0]},{box[1]},{box[2]},{box[3]}")
        for win in a.windows.split(","):
            lo, hi = win.split("-")
            sel = select(rows, box, hms(lo), hms(hi), a.max_seats, a.min_dist_m)
            zero = sum(1 for r in sel if r[2:4] == r[4:6])
            print(f"  {lo}-{hi}: {len(sel)} rides (both ends in box; {zero} with identical ends)")
        return

    sel = select(rows, box, hms(a.t_from), hms(a.t_to), a.max_seats, a.min_dist_m)
    if a.limit:
        sel = sel[: a.limit]
    f = open(a.output, "w", newline="") if a.output else sys.stdout
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["id", "depart_at", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "seats"])
    w.writerows(sel)
    if a.output:
        f.close()
        print(f"{len(sel)} requests -> {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the team's shared real rides as `geofare calibrate` input
(pickup_at,dropoff_at,origin_lat,origin_lon,dest_lat,dest_lon,distance_m[,fare]).

    python3 Data/route/calibration/rides_csv.py nyc   IN.csv OUT.csv   # nyc_yellow_trips_coords_*.csv (local New York time, miles)
    python3 Data/route/calibration/rides_csv.py korea IN.csv OUT.csv   # korea/seongnam_taxi_trips_*.csv (KST, metres, fare in KRW)
       [--months 1,2]  keep pickups of these months only (korea)

New York's files give local times without an offset: EST (-05:00) is written, right for
January to the second Sunday of March (the shared files are 2013-01-01 and 2013-03-01).
Seongnam's fare is 승차요금 (the meter, won), its distance 승차거리(m).
"""
import csv, sys

def nyc(src, dst):
    with open(src) as f, open(dst, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["pickup_at", "dropoff_at", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "distance_m"])
        for r in csv.DictReader(f):
            t = lambda s: s.replace(" ", "T") + "-05:00"
            w.writerow([t(r["pickup_time"]), t(r["dropoff_time"]), r["pickup_lat"], r["pickup_lon"], r["dropoff_lat"], r["dropoff_lon"],
                        round(float(r["distance_miles"]) * 1609.344, 1)])

def korea(src, dst, months=None):
    with open(src, encoding="utf-8-sig") as f, open(dst, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["pickup_at", "dropoff_at", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "distance_m", "fare"])
        for r in csv.DictReader(f):
            if months and int(r["승차시간"][5:7]) not in months: continue
            t = lambda s: s.replace(" ", "T") + "+09:00"
            w.writerow([t(r["승차시간"]), t(r["하차시간"]), r["승차Y좌표"], r["승차X좌표"], r["하차Y좌표"], r["하차X좌표"], r["승차거리(m)"], r["승차요금"]])

if __name__ == "__main__":
    kind, src, dst = sys.argv[1:4]
    months = [int(m) for m in sys.argv[sys.argv.index("--months") + 1].split(",")] if "--months" in sys.argv else None
    {"nyc": lambda: nyc(src, dst), "korea": lambda: korea(src, dst, months)}[kind]()

#!/usr/bin/env python3
"""Recomputes the us-nyc hourly speed profile of Data/route/speed-profiles.json: the median
door-to-door speed (metered distance / duration, km/h) by local pickup hour over the NYC TLC
validation trips in ../shared/data/nyc (beside the checkout, or $GEOFARE_SHARED)."""
import csv, collections, os, statistics

SHARED = os.environ.get("GEOFARE_SHARED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "shared"))
rows = csv.DictReader(open(os.path.join(SHARED, "data", "nyc", "nyc_trips_validation.csv")))
by_hour = collections.defaultdict(list)
for r in rows:
    by_hour[int(r["pickup"][11:13])].append(float(r["distance_mi"]) * 1609.344 / float(r["duration_s"]) * 3.6)
print([round(statistics.median(by_hour[h]), 1) for h in range(24)])

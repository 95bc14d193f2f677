#!/usr/bin/env python3
"""Fits GeoFare's slow-time model for Korea (Data/fare/slow-time-kr.json) on real metered Korean
rides: ../shared/data/korea/seongnam_taxi_trips_2024q1.csv (beside the checkout, or
$GEOFARE_SHARED), 489 Seongnam rides of January-March 2024 from the national taxi records (TIMS),
each with the metered fare and the distance and time the ride took.

    cd Data/fare/calibration && python3 fit_slow_time_kr.py           # a few seconds
    python3 fit_slow_time_kr.py --write                                # also rewrites ../slow-time-kr.json

Same model (gamma-stop-v1), likelihood and meter as fit_slow_time.py (imported from it), in the
Korean meter's mode D (동시병산: below the changeover speed time counts on top of distance) and
units charged when they start. Fitted on the rides whose fare is the plain meter: no surcharge
recorded (미할증), both ends in Seongnam (legal-dong codes 4113x), no part in the night window
(23:00-04:00), under the Gyeonggi standard tariff of 2023-07-01 (4,800 KRW for 1,600 m, 100 KRW
per 131 m or 30 s). Held out by time: fitted on January-February, scored on March; the shipped
parameters are then fitted on all three months. Deterministic (Nelder-Mead from fixed starts).
Needs numpy and scipy only.
"""
import argparse, csv, datetime as dt, json, os, sys

import numpy as np

from fit_slow_time import fit as shared_fit, nll as shared_nll, meter_amount, model_parameters, slow_seconds, spread_seconds, write_json, OUTLIER_WEIGHT, HERE, SHARED

CSV = os.path.join(SHARED, "data", "korea", "seongnam_taxi_trips_2024q1.csv")
MODEL_JSON = os.path.join(HERE, "..", "slow-time-kr.json")

# Data/tariffs/kr-gyeonggi-regular.json, version 2023-07-01 (표준형: Suwon, Seongnam, ...).
GYEONGGI = dict(base_fare=4800, base_distance_m=1600.0, unit_price=100, unit_distance_m=131.0, unit_time_s=30.0,
                mode="concurrent", charge_unit="on_start")
V_STAR = GYEONGGI["unit_distance_m"] / GYEONGGI["unit_time_s"]


def load():
    rows = list(csv.DictReader(open(CSV, encoding="utf-8", newline="")))
    fare = np.array([int(r["승차요금"]) for r in rows], dtype=np.int64)
    D = np.array([float(r["승차거리(m)"]) for r in rows])
    T = np.array([float(r["승차시간(sec)"]) for r in rows])
    t0 = [dt.datetime.strptime(r["승차시간"], "%Y-%m-%d %H:%M:%S") for r in rows]
    t1 = [dt.datetime.strptime(r["하차시간"], "%Y-%m-%d %H:%M:%S") for r in rows]
    night = np.array([a.hour >= 23 or a.hour < 4 or b.hour >= 23 or b.hour < 4 or (b - a).total_seconds() > 3600 * 5 for a, b in zip(t0, t1)])
    inside = np.array([r["승차법정동코드"].startswith("4113") and r["하차법정동코드"].startswith("4113") for r in rows])
    plain = np.array([r["할증여부"] == "미할증" for r in rows]) & inside & ~night & (T > 0)
    month = np.array([a.month for a in t0])
    return fare, D, T, plain, month


def observed_interval(D, fare):
    """Slow seconds S (mode D: counter F = D + v* S) that the fare implies: N units charged on start
    put F in [base + (N-1) u, base + N u); a fare of the base alone, F < base."""
    t = GYEONGGI
    n = np.maximum(0, (fare - t["base_fare"]) // t["unit_price"])
    lo = np.where(n > 0, (t["base_distance_m"] + (n - 1) * t["unit_distance_m"] - D) / V_STAR, -1e9)
    hi = (t["base_distance_m"] + n * t["unit_distance_m"] - D) / V_STAR
    return lo, hi


def nll(p, k, D, T, lo, hi):
    return shared_nll(p, k, D, T, lo, hi, V_STAR, "concurrent")


def fit(k, D, T, lo, hi, start=(3.0, 1.0, 0.1, 30.0, 0.85)):
    return shared_fit(k, D, T, lo, hi, V_STAR, start, "concurrent")[0]


def priced(p, k, D, T, z):
    s = slow_seconds(p, k, D, T, T, V_STAR, "concurrent")
    w = z * spread_seconds(p, T)
    return (meter_amount(GYEONGGI, D, T, s), meter_amount(GYEONGGI, D, T, np.clip(s - w, 0, T)),
            meter_amount(GYEONGGI, D, T, np.clip(s + w, 0, T)))


def calibrate_z(p, k, D, T, fare, target=0.80):
    a, b = 0.0, 4.0
    for _ in range(30):
        z = (a + b) / 2
        _, low, high = priced(p, k, D, T, z)
        if np.mean((fare >= low) & (fare <= high)) >= target:
            b = z
        else:
            a = z
    return b


def scores(p, k, D, T, fare, z):
    est, low, high = priced(p, k, D, T, z)
    e = (est - fare) / fare
    d = np.abs(est - fare)
    return dict(n=len(D), median_abs_error=float(np.median(np.abs(e))), median_signed_error=float(np.median(e)),
                within_100=float(np.mean(d <= 100)), within_500=float(np.mean(d <= 500)), exact=float(np.mean(d == 0)),
                band=float(np.mean((fare >= low) & (fare <= high))))


def show(name, s):
    print(f"  {name:40s} n={s['n']:3d}  median |error| {100 * s['median_abs_error']:.2f} %  signed {100 * s['median_signed_error']:+.2f} %  "
          f"within 100 KRW {100 * s['within_100']:.1f} %  within 500 KRW {100 * s['within_500']:.1f} %  exact {100 * s['exact']:.1f} %  band {100 * s['band']:.1f} %")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="1,2,3,4,6,8,12")
    ap.add_argument("--write", action="store_true", help="rewrite ../slow-time-kr.json with the fit on all three months")
    args = ap.parse_args()
    fare, D, T, plain, month = load()
    lo, hi = observed_interval(D, fare)
    tr, te = plain & (month <= 2), plain & (month == 3)
    print(f"{len(fare)} rides in {os.path.relpath(CSV)}; plain meter (no surcharge, inside Seongnam, day): {plain.sum()}; "
          f"fit January-February {tr.sum()}, held out March {te.sum()}")
    nyc = json.load(open(os.path.join(HERE, "..", "slow-time.json")))["parameters"]
    p_nyc = [nyc["cruise_base_mps"], nyc["cruise_slope"], nyc["duration_exponent"], nyc["spread_ref_s"], nyc["spread_exponent"]]
    held = {}
    for k in [int(x) for x in args.shapes.split(",")]:
        p = fit(k, D[tr], T[tr], lo[tr], hi[tr])
        held[k] = (nll(p, k, D[te], T[te], lo[te], hi[te]), p)
        print(f"  k={k:2d}: held-out NLL {held[k][0]:.1f}")
    k = min(held, key=lambda x: held[x][0])
    p = held[k][1]
    z = calibrate_z(p, k, D[tr], T[tr], fare[tr])
    print(f"chosen k = {k}; fitted on January-February: c0 {p[0]:.4f} m/s, b {p[1]:.4f}, gamma {p[2]:.4f}, sigma_ref {p[3]:.3f} s, beta {p[4]:.4f}, band z {z:.4f}")
    print("held out (March, the meter given each ride's distance and time):")
    s_held = scores(p, k, D[te], T[te], fare[te], z)
    show("Korean model (fitted on Jan-Feb)", s_held)
    show("NYC model (slow-time.json), same rides", scores(p_nyc, nyc["speed_shape"], D[te], T[te], fare[te], nyc["band_z"]))
    p_all = fit(k, D[plain], T[plain], lo[plain], hi[plain])
    z_all = calibrate_z(p_all, k, D[plain], T[plain], fare[plain])
    print(f"fit on all three months: c0 {p_all[0]:.4f} m/s, b {p_all[1]:.4f}, gamma {p_all[2]:.4f}, sigma_ref {p_all[3]:.3f} s, beta {p_all[4]:.4f}, band z {z_all:.4f}")
    show("in sample (all plain rides)", scores(p_all, k, D[plain], T[plain], fare[plain], z_all))
    show("NYC model, all plain rides", scores(p_nyc, nyc["speed_shape"], D[plain], T[plain], fare[plain], nyc["band_z"]))
    us = np.array([5, 10, 15, 20, 25, 30, 40]) / 3.6
    TT = np.full(len(us), 1200.0)
    print("slow share of a 1,200-s ride at 5..40 km/h average (Korean | NYC model):",
          " ".join(f"{x:.2f}" for x in slow_seconds(p_all, k, us * TT, TT, TT, V_STAR, "concurrent") / TT), "|",
          " ".join(f"{x:.2f}" for x in slow_seconds(p_nyc, nyc["speed_shape"], us * TT, TT, TT, V_STAR, "concurrent") / TT))
    if args.write:
        write_model(p_all, k, z_all, s_held, int(plain.sum()), int(tr.sum()), int(te.sum()))
    return 0


def write_model(p, k, z, held, n, n_train, n_test):
    model = {
        "about": "GeoFare's slow-time model for Korean tariffs (those whose file says \"slow_time_model\": \"kr\"): the same model and units as slow-time.json, fitted on real metered Korean rides instead of New York's. Fitted by Data/fare/calibration/fit_slow_time_kr.py; see Data/fare/README.md.",
        "model": "gamma-stop-v1",
        "parameters": model_parameters(p, k, z),
        "validation": {
            "rides": n,
            "held_out": f"fitted on {n_train} rides of January-February 2024, scored on {n_test} of March 2024",
            "heldout_median_abs_error": round(held["median_abs_error"], 4),
            "heldout_median_signed_error": round(held["median_signed_error"], 4),
            "heldout_within_100_krw": round(held["within_100"], 4),
            "heldout_within_500_krw": round(held["within_500"], 4),
            "heldout_band_coverage": round(held["band"], 4),
        },
        "source": "Fitted on the plain-meter rides (no surcharge, both ends in Seongnam, daytime) of 489 real Seongnam taxi rides of January-March 2024 from the national taxi operation records (TIMS), as sampled in the repository jungeunjoorlokr/Seongnam_Taxi_Simulation_Scenario_1 (commit 44306693); Gyeonggi standard tariff of 2023-07-01 (131 m / 30 s, mode D). Only the fitted parameters are shipped, not the rides.",
        "licence": "The parameters are GeoFare's own fit. Upstream data: Korean national taxi records (TIMS) via the Seongnam research sample; no licence stated upstream, the records identify no passenger.",
    }
    write_json(MODEL_JSON, model)


if __name__ == "__main__":
    sys.exit(main())

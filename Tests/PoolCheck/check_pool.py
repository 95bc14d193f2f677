#!/usr/bin/env python3
"""Independent checker for the output of `geofare pool INPUT -o OUTPUT`.

Written from the spec only (not from the pool code). Route durations come from a
`geofare worker` subprocess (JSON lines; docs/protocol.md: `route` and `matrix` ops).

  check_pool.py INPUT OUTPUT --delay 300 --graph midtown_south.graph [--json]
  check_pool.py INPUT --matching-only --delay 300 --graph midtown_south.graph

Checks (exit 1 if any fails, 2 on usage / worker trouble):
 1. structure: every input id once in OUTPUT, in input order; groups, stops (+ before -, exactly
    the members), group sizes (>= 2, <= --max-riders if given), seats (only with --capacity);
 2. feasibility of every group under --delay, re-simulated with `route` answers departing at the
    exact time the taxi leaves each stop (tolerance --tol, 1 s); pickup_at / dropoff_at / delay_s
    against the simulation (tolerance --time-tol);
 3. money: shares sum to group_total exactly, share < solo_fare, all integers;
 4. maximum-cardinality matching over ALL feasible pairs (4 interleavings each), durations from
    `matrix` answers cached by (from, to, departure minute); pooled(pool) / pooled(matching)
    must be >= --min-ratio (0.95).
See README.md for the definitions, the pair prune and why it is safe.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict, defaultdict
from datetime import datetime, timezone

import numpy as np

DEFAULT_BIN = os.environ.get("GEOFARE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "release", "geofare"))
INPUT_COLS = ["id", "depart_at", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "seats"]
OUTPUT_COLS = ["id", "group", "stops", "pickup_at", "dropoff_at", "delay_s", "share",
               "solo_fare", "group_total", "currency"]
MATRIX_CELLS = 10_000
INT_RE = re.compile(r"^-?\d+$")


# --------------------------------------------------------------------------- reporting
class Report:
    def __init__(self):
        self.failures = OrderedDict()   # category -> [messages]
        self.warnings = OrderedDict()
        self.info = OrderedDict()

    def fail(self, cat, msg):
        self.failures.setdefault(cat, []).append(msg)

    def warn(self, cat, msg):
        self.warnings.setdefault(cat, []).append(msg)


# --------------------------------------------------------------------------- time
def parse_time(text):
    """ISO-8601 with offset (or a number of epoch seconds) -> (epoch seconds, tzinfo)."""
    s = text.strip()
    if re.match(r"^-?\d+(\.\d+)?$", s):
        return float(s), timezone.utc
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    dt = datetime.fromisoformat(s)
    if dt.tzinfo is None:
        raise ValueError(f"time without offset: {text!r}")
    return dt.timestamp(), dt.tzinfo


def iso(epoch, tz, ms=True):
    dt = datetime.fromtimestamp(epoch, tz)
    return dt.isoformat(timespec="milliseconds" if ms else "seconds")


# --------------------------------------------------------------------------- worker
class Worker:
    """`geofare worker` as a subprocess; batch() pipelines many lines and reads the answers."""

    def __init__(self, binary, graphs, extra):
        self.errlog = tempfile.TemporaryFile(mode="w+")
        cmd = [binary, "worker", "--db", ":memory:"]
        for g in graphs:
            cmd += ["--graph", g]
        cmd += extra
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errlog, bufsize=1 << 20)
        self.next_id = 0
        self.requests = 0
        self.seconds = 0.0

    def stderr_tail(self):
        self.errlog.seek(0)
        return self.errlog.read()[-2000:]

    def batch(self, lines_without_id):
        """lines_without_id: JSON object texts missing their leading '{"id":N,'; we add the id.
        Returns parsed answers in order."""
        t0 = time.time()
        n = len(lines_without_id)
        base = self.next_id
        self.next_id += n
        err = []

        def writer():
            try:
                buf = []
                size = 0
                for k, body in enumerate(lines_without_id):
                    line = '{"id":%d,%s\n' % (base + k, body)
                    buf.append(line)
                    size += len(line)
                    if size > (4 << 20):
                        self.proc.stdin.write("".join(buf).encode())
                        buf, size = [], 0
                if buf:
                    self.proc.stdin.write("".join(buf).encode())
                self.proc.stdin.flush()
            except Exception as e:  # broken pipe: reported by the reader
                err.append(e)

        th = threading.Thread(target=writer, daemon=True)
        th.start()
        out = []
        rd = self.proc.stdout
        for k in range(n):
            line = rd.readline()
            if not line:
                th.join(1)
                raise RuntimeError("geofare worker ended early (%r); stderr:\n%s"
                                   % (err, self.stderr_tail()))
            ans = json.loads(line)
            if ans.get("id") != base + k:
                raise RuntimeError(f"worker answered id {ans.get('id')} for {base + k}")
            out.append(ans)
        th.join()
        self.requests += n
        self.seconds += time.time() - t0
        return out

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()


def graph_boxes(binary, graphs):
    boxes = []
    for g in graphs:
        out = subprocess.run([binary, "graph", "info", g], check=True, capture_output=True,
                             text=True).stdout
        m = re.search(r"^\s*box\s+(\S+),(\S+),(\S+),(\S+)", out, re.M)
        if not m:
            raise RuntimeError(f"no box in `graph info {g}`")
        boxes.append(tuple(float(x) for x in m.groups()))
    return boxes


# --------------------------------------------------------------------------- legs
class Legs:
    """Point table + the two leg caches.

    Points: 0..N-1 the origins, N..2N-1 the destinations (by input row).
    exact(): `route` op at the exact departure (ms), cached by (from, to, departure ms).
    by_minute(): cached by (from, to, departure minute); filled from `matrix` requests departing
    at the start of that minute, or from `route` where a matrix cell would not equal the route
    (points in no common graph box, points with no road near, null cells).
    """

    def __init__(self, worker, lats, lons, tz, boxes, report):
        self.w = worker
        self.lat = lats
        self.lon = lons
        self.P = len(lats)
        self.tz = tz
        self.report = report
        self.pt = ['{"lat":%r,"lon":%r}' % (float(a), float(b)) for a, b in zip(lats, lons)]
        # which graph boxes hold each point (bit mask)
        mask = np.zeros(self.P, dtype=np.int64)
        for gi, (w, s, e, n) in enumerate(boxes):
            inside = (lons >= w) & (lons <= e) & (lats >= s) & (lats <= n)
            mask |= inside.astype(np.int64) << gi
        self.mask = mask
        self.exact_cache = {}
        self.min_keys = np.zeros(0, dtype=np.int64)
        self.min_vals = np.zeros(0, dtype=np.float64)
        self.minute0 = None
        self.M = 20_000  # minutes a key can span (about two weeks)
        self.stats = defaultdict(int)
        self.worker_errors = defaultdict(int)

    # ---- road check: a point in a box but with no road within the snap radius is answered by
    # the circuity model; a matrix holding it would be circuity for every cell, so such
    # points' legs go through `route`.
    def probe_roads(self, any_epoch):
        idx = np.nonzero(self.mask)[0]
        dep = iso(any_epoch, self.tz, ms=False)
        bodies = ['"op":"matrix","sources":[%s],"targets":[%s],"depart_at":"%s"}'
                  % (self.pt[i], self.pt[i], dep) for i in idx]
        ans = self.w.batch(bodies) if bodies else []
        off = 0
        for i, a in zip(idx, ans):
            if not a.get("ok") or a["result"].get("estimator", "").startswith("circuity"):
                self.mask[i] = 0
                off += 1
        self.stats["points_in_a_box"] = int(len(idx))
        self.stats["points_off_road_in_box"] = off
        self.stats["points_outside_every_box"] = int(self.P - len(idx))

    # ---- exact departures (`route`)
    def exact(self, legs):
        """legs: list of (from, to, depart_epoch). Returns list of durations (None on error)."""
        keys = [(s, t, int(round(dep * 1000))) for s, t, dep in legs]
        todo = sorted({k for k in keys if k not in self.exact_cache})
        if todo:
            bodies = ['"op":"route","from":%s,"to":%s,"depart_at":"%s"}'
                      % (self.pt[s], self.pt[t], iso(ms / 1000.0, self.tz)) for s, t, ms in todo]
            for k, a in zip(todo, self.w.batch(bodies)):
                if a.get("ok"):
                    self.exact_cache[k] = float(a["result"]["duration_s"])
                else:
                    self.exact_cache[k] = None
                    self.worker_errors[a["error"]["code"]] += 1
                    self.report.warn("worker_error", "route %s -> %s at %s: %s"
                                     % (self.pt[k[0]], self.pt[k[1]], iso(k[2] / 1000, self.tz),
                                        a["error"]))
            self.stats["route_requests_exact"] += len(todo)
        return [self.exact_cache[k] for k in keys]

    # ---- minute cache (`matrix`)
    def _key(self, s, t, minute):
        return (s.astype(np.int64) * self.P + t) * self.M + (minute - self.minute0)

    def by_minute(self, s, t, dep):
        """Vectorised: arrays of from, to, departure epoch -> durations (inf on error)."""
        minute = np.floor(dep / 60.0).astype(np.int64)
        if self.minute0 is None:
            self.minute0 = int(minute.min()) - 60
        rel = minute - self.minute0
        if len(rel) and (rel.min() < 0 or rel.max() >= self.M):
            raise RuntimeError("departure outside the cache's minute range")
        keys = self._key(s, t, minute)
        if len(self.min_keys):
            pos = np.minimum(np.searchsorted(self.min_keys, keys), len(self.min_keys) - 1)
            hit = self.min_keys[pos] == keys
        else:
            hit = np.zeros(len(keys), dtype=bool)
        missing = np.unique(keys[~hit])
        self.stats["leg_lookups"] += len(keys)
        if len(missing):
            vals = self._fetch(missing)
            allk = np.concatenate([self.min_keys, missing])
            allv = np.concatenate([self.min_vals, vals])
            order = np.argsort(allk, kind="stable")
            self.min_keys, self.min_vals = allk[order], allv[order]
        pos = np.searchsorted(self.min_keys, keys)
        return self.min_vals[pos]

    # cost model (measured on the Manhattan extracts): one upward search per matrix point
    # ~10 us, a cell ~1 us (worker + JSON), a request ~50 us. Per (minute, box) group the
    # sources are taken in chunks; a chunk is asked as one block (sources x union of targets)
    # when that is cheaper than one row per source with exactly its targets.
    C_SEARCH, C_CELL, C_REQ, CHUNK = 10.0, 1.5, 50.0, 100

    def _fetch(self, keys):
        rel = keys % self.M
        st = keys // self.M
        s = st // self.P
        t = st % self.P
        minute = rel + self.minute0
        common = self.mask[s] & self.mask[t]
        out = np.full(len(keys), np.nan)
        # route for legs no single graph box holds (a matrix would be all-circuity otherwise)
        via_route = np.nonzero(common == 0)[0].tolist()
        mat = np.nonzero(common != 0)[0]
        order = np.lexsort((t[mat], s[mat], common[mat], minute[mat]))
        mat = mat[order]
        reqs = []  # (body, leg indices, row positions, col positions)

        def emit(src_list, tgt_list, legs_idx, rows, cols, minute_v):
            dep = iso(minute_v * 60.0, self.tz, ms=False)
            body = '"op":"matrix","sources":[%s],"targets":[%s],"depart_at":"%s"}' % (
                ",".join(self.pt[i] for i in src_list), ",".join(self.pt[j] for j in tgt_list), dep)
            reqs.append((body, legs_idx, rows, cols))

        if len(mat):
            gkey = np.stack([minute[mat], common[mat]], axis=1)
            brk = np.nonzero(np.any(gkey[1:] != gkey[:-1], axis=1))[0] + 1
            for G in np.split(mat, brk):
                minute_v = int(minute[G[0]])
                srcs, first = np.unique(s[G], return_index=True)  # G is sorted by s
                bounds = np.concatenate([first, [len(G)]])
                for c in range(0, len(srcs), self.CHUNK):
                    lo, hi = bounds[c], bounds[min(c + self.CHUNK, len(srcs))]
                    sel = G[lo:hi]
                    chunk = srcs[c:c + self.CHUNK]
                    tg = np.unique(t[sel])
                    k = len(chunk)
                    rows_cost = k * self.C_REQ + len(sel) * (self.C_SEARCH + self.C_CELL) + k * self.C_SEARCH
                    nblk = math.ceil(k * len(tg) / MATRIX_CELLS)
                    block_cost = nblk * self.C_REQ + (nblk * k + len(tg)) * self.C_SEARCH \
                        + k * len(tg) * self.C_CELL
                    if block_cost < rows_cost:
                        step = max(1, MATRIX_CELLS // k)
                        rpos = np.searchsorted(chunk, s[sel])
                        cpos = np.searchsorted(tg, t[sel])
                        for c0 in range(0, len(tg), step):
                            m = (cpos >= c0) & (cpos < c0 + step)
                            emit(chunk.tolist(), tg[c0:c0 + step].tolist(), sel[m], rpos[m],
                                 cpos[m] - c0, minute_v)
                        self.stats["matrix_blocks"] += nblk
                    else:
                        sb = np.searchsorted(s[sel], chunk, side="left")
                        se = np.searchsorted(s[sel], chunk, side="right")
                        for src, a, b in zip(chunk.tolist(), sb.tolist(), se.tolist()):
                            for c0 in range(a, b, MATRIX_CELLS):
                                part = sel[c0:min(b, c0 + MATRIX_CELLS)]
                                emit([src], t[part].tolist(), part, np.zeros(len(part), dtype=np.int64),
                                     np.arange(len(part)), minute_v)
        CH = 2000
        cells = 0
        for c in range(0, len(reqs), CH):
            part = reqs[c:c + CH]
            answers = self.w.batch([r[0] for r in part])
            for (_, legs_idx, rows, cols), a in zip(part, answers):
                if not a.get("ok"):
                    self.worker_errors["matrix:" + a["error"]["code"]] += 1
                    via_route.extend(legs_idx.tolist())
                    continue
                res = a["result"]
                if res.get("estimator", "").startswith("circuity"):
                    # should not happen after probe_roads; fall back to routes
                    self.stats["matrix_circuity_answers"] += 1
                    via_route.extend(legs_idx.tolist())
                    continue
                tab = res["duration_s"]
                cells += len(tab) * (len(tab[0]) if tab else 0)
                try:
                    arr = np.array(tab, dtype=np.float64)
                except TypeError:  # null cells: no road path joins the pair
                    arr = np.array([[np.nan if v is None else v for v in r] for r in tab])
                vals = arr[rows, cols]
                out[legs_idx] = vals
                nulls = np.isnan(vals)
                if nulls.any():
                    self.stats["matrix_null_cells"] += int(nulls.sum())
                    via_route.extend(legs_idx[nulls].tolist())
        self.stats["matrix_requests"] += len(reqs)
        self.stats["matrix_cells_asked"] += cells
        self.stats["matrix_cells_needed"] += len(mat)
        if via_route:
            bodies = ['"op":"route","from":%s,"to":%s,"depart_at":"%s"}'
                      % (self.pt[int(s[j])], self.pt[int(t[j])],
                         iso(int(minute[j]) * 60.0, self.tz, ms=False)) for j in via_route]
            for j, a in zip(via_route, self.w.batch(bodies)):
                if a.get("ok"):
                    out[j] = float(a["result"]["duration_s"])
                else:
                    out[j] = np.inf
                    self.worker_errors["route:" + a["error"]["code"]] += 1
            self.stats["route_requests_minute"] += len(via_route)
        return out

    def cross_check(self, n, seed=1):
        """Compare n random minute-cache cells (matrix answers) with `route` at the same departure."""
        if len(self.min_keys) == 0 or n <= 0:
            return None
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(self.min_keys), size=min(n, len(self.min_keys)), replace=False)
        keys = self.min_keys[pick]
        vals = self.min_vals[pick]
        rel = keys % self.M
        st = keys // self.M
        s, t = st // self.P, st % self.P
        bodies = ['"op":"route","from":%s,"to":%s,"depart_at":"%s"}'
                  % (self.pt[int(a)], self.pt[int(b)], iso((int(m) + self.minute0) * 60.0, self.tz,
                                                           ms=False))
                  for a, b, m in zip(s, t, rel)]
        diffs = []
        for v, a in zip(vals, self.w.batch(bodies)):
            if a.get("ok") and np.isfinite(v):
                diffs.append(abs(float(a["result"]["duration_s"]) - float(v)))
        return {"cells": len(diffs), "max_abs_diff_s": max(diffs) if diffs else None}


# --------------------------------------------------------------------------- reading
def read_csv(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        r = csv.DictReader(f)
        rows = [dict(row) for row in r]
        return (r.fieldnames or []), rows


def load_input(path, rep):
    cols, rows = read_csv(path)
    miss = [c for c in INPUT_COLS if c not in cols]
    if miss:
        raise SystemExit(f"INPUT {path}: missing columns {miss}")
    ids, t, tzs, olat, olon, dlat, dlon, seats = [], [], [], [], [], [], [], []
    for k, row in enumerate(rows):
        ids.append(row["id"])
        e, tz = parse_time(row["depart_at"])
        t.append(e)
        tzs.append(tz)
        olat.append(float(row["origin_lat"]))
        olon.append(float(row["origin_lon"]))
        dlat.append(float(row["dest_lat"]))
        dlon.append(float(row["dest_lon"]))
        seats.append(int(row["seats"]) if row["seats"].strip() else 1)
    dup = [i for i, c in _counts(ids).items() if c > 1]
    if dup:
        rep.fail("input", f"INPUT has duplicate ids: {dup[:10]}")
    return dict(ids=ids, t=np.array(t), tz=tzs[0] if tzs else timezone.utc,
                olat=np.array(olat), olon=np.array(olon), dlat=np.array(dlat),
                dlon=np.array(dlon), seats=np.array(seats))


def _counts(xs):
    c = defaultdict(int)
    for x in xs:
        c[x] += 1
    return c


# --------------------------------------------------------------------------- check 1
def check_structure(inp, out_cols, out_rows, args, rep):
    ids = inp["ids"]
    pos = {i: k for k, i in enumerate(ids)}
    miss_cols = [c for c in OUTPUT_COLS if c not in out_cols]
    if miss_cols:
        rep.fail("columns", f"OUTPUT lacks columns {miss_cols} (checks needing them are skipped)")
    out_ids = [r.get("id", "") for r in out_rows]
    cnt = _counts(out_ids)
    missing = [i for i in ids if cnt.get(i, 0) == 0]
    extra = [i for i in cnt if i not in pos]
    dups = [i for i, c in cnt.items() if c > 1 and i in pos]
    if missing:
        rep.fail("ids", f"{len(missing)} input ids missing from OUTPUT, e.g. {missing[:10]}")
    if extra:
        rep.fail("ids", f"{len(extra)} OUTPUT ids not in INPUT, e.g. {extra[:10]}")
    if dups:
        rep.fail("ids", f"{len(dups)} ids appear more than once in OUTPUT, e.g. {dups[:10]}")
    if not (missing or extra or dups) and out_ids != ids:
        k = next(k for k, (a, b) in enumerate(zip(out_ids, ids)) if a != b)
        rep.fail("ids", f"OUTPUT not in input order: row {k + 2} is {out_ids[k]!r}, expected {ids[k]!r}")

    # rows by id (first occurrence), groups
    by_id = {}
    for r in out_rows:
        by_id.setdefault(r.get("id", ""), r)
    groups = OrderedDict()
    rider_group = {}
    for r in out_rows:
        i = r.get("id", "")
        if i not in pos:
            continue
        g = (r.get("group") or "").strip()
        if not g:
            continue
        if i in rider_group and rider_group[i] != g:
            rep.fail("groups", f"rider {i} in two groups: {rider_group[i]!r} and {g!r}")
            continue
        rider_group[i] = g
        groups.setdefault(g, [])
        if i not in groups[g]:
            groups[g].append(i)

    for i in ids:
        if i in by_id and i not in rider_group:
            st = (by_id[i].get("stops") or "").strip().replace(" ", "")
            if st and st != f"+{i};-{i}":
                rep.fail("stops", f"lone rider {i}: stops {st!r} (expected empty or +{i};-{i})")
    good = OrderedDict()  # group -> (members, stops list [(sign, id)])
    for g, mem in groups.items():
        ok = True
        if len(mem) < 2:
            rep.fail("groups", f"group {g!r} has a single member {mem}")
            ok = False
        if args.max_riders and len(mem) > args.max_riders:
            rep.fail("groups", f"group {g!r} has {len(mem)} riders > --max-riders {args.max_riders}")
        if args.capacity:
            seats = sum(int(inp["seats"][pos[i]]) for i in mem)
            if seats > args.capacity:
                rep.fail("seats", f"group {g!r} needs {seats} seats > --capacity {args.capacity}")
        texts = {(by_id[i].get("stops") or "").strip() for i in mem}
        if len(texts) != 1:
            rep.fail("stops", f"group {g!r}: members' rows disagree on stops: {sorted(texts)}")
            ok = False
        text = sorted(texts)[0]
        stops = []
        for tok in [x.strip() for x in text.split(";") if x.strip()]:
            if tok[0] not in "+-" or len(tok) < 2:
                rep.fail("stops", f"group {g!r}: bad stop token {tok!r} in {text!r}")
                ok = False
                continue
            stops.append((tok[0], tok[1:]))
        seen_p, seen_d = set(), set()
        for sign, i in stops:
            if i not in mem:
                rep.fail("stops", f"group {g!r}: stop {sign}{i} is not a member {mem}")
                ok = False
            elif sign == "+":
                if i in seen_p:
                    rep.fail("stops", f"group {g!r}: {i} picked up twice")
                    ok = False
                seen_p.add(i)
            else:
                if i not in seen_p:
                    rep.fail("stops", f"group {g!r}: {i} dropped before picked up ({text})")
                    ok = False
                if i in seen_d:
                    rep.fail("stops", f"group {g!r}: {i} dropped twice")
                    ok = False
                seen_d.add(i)
        for i in mem:
            if i not in seen_p or i not in seen_d:
                rep.fail("stops", f"group {g!r}: member {i} lacks its + or - stop ({text})")
                ok = False
        if ok:
            good[g] = (mem, stops)
            # the definition allows any order with + before -, including ones where the car
            # empties before the last stop (+a;-a;+b;-b): members who never share the car
            load = 0
            for k, (sign, i) in enumerate(stops):
                load += 1 if sign == "+" else -1
                if load == 0 and k < len(stops) - 1:
                    msg = (f"group {g!r}: the car is empty after stop {k + 1} of "
                           f"{';'.join(s_ + i_ for s_, i_ in stops)} (riders not sharing)")
                    (rep.fail if args.strict_sharing else rep.warn)("empty_car", msg)
                    break
    return by_id, rider_group, groups, good


# --------------------------------------------------------------------------- check 2
def simulate_groups(inp, legs, good, by_id, rider_group, args, rep):
    """Re-simulate every well-formed group with exact `route` answers; lone riders too."""
    ids = inp["ids"]
    pos = {i: k for k, i in enumerate(ids)}
    N = len(ids)
    t = inp["t"]
    D = args.delay
    tol = args.tol
    q = args.leg_departure
    snap = (lambda T: T) if q == "exact" else (lambda T: math.floor(T / (60.0 if q == "minute" else 3600.0))
                                              * (60.0 if q == "minute" else 3600.0))
    solo = legs.exact([(k, N + k, snap(float(t[k]))) for k in range(N)])
    sim = {}  # id -> (pickup, dropoff)
    # state per group
    state = {}
    for g, (mem, stops) in good.items():
        first = pos[stops[0][1]]
        state[g] = dict(k=0, T=float(t[first]), pick={stops[0][1]: float(t[first])}, drop={},
                        err=None)
    maxlen = max((len(s) for _, s in good.values()), default=0)
    for k in range(1, maxlen):
        todo = []
        for g, (mem, stops) in good.items():
            st = state[g]
            if k >= len(stops) or st["err"]:
                continue
            (s1, a), (s2, b) = stops[k - 1], stops[k]
            p = pos[a] + (0 if s1 == "+" else N)
            q = pos[b] + (0 if s2 == "+" else N)
            todo.append((g, p, q, st["T"]))
        durs = legs.exact([(p, q, snap(T)) for _, p, q, T in todo])
        for (g, p, q, T), d in zip(todo, durs):
            st = state[g]
            sign, i = good[g][1][k]
            if d is None:
                st["err"] = f"worker error on leg {k}"
                continue
            arr = T + d
            if sign == "+":
                arr = max(arr, float(t[pos[i]]))
                st["pick"][i] = arr
            else:
                st["drop"][i] = arr
            st["T"] = arr
    n_infeasible = 0
    for g, (mem, stops) in good.items():
        st = state[g]
        if st["err"]:
            rep.fail("feasibility", f"group {g!r}: {st['err']}")
            n_infeasible += 1
            continue
        bad = []
        for i in mem:
            k = pos[i]
            if solo[k] is None:
                bad.append(f"{i}: no solo route")
                continue
            lp = float(t[k]) + D
            ld = float(t[k]) + solo[k] + D
            if st["pick"][i] > lp + tol:
                bad.append(f"{i} picked up {st['pick'][i] - t[k]:.1f} s after request > {D:g}")
            if st["drop"][i] > ld + tol:
                bad.append(f"{i} arrives {st['drop'][i] - t[k] - solo[k]:.1f} s later than solo > {D:g}")
            sim[i] = (st["pick"][i], st["drop"][i])
        if bad:
            n_infeasible += 1
            rep.fail("feasibility", f"group {g!r} ({';'.join(s + i for s, i in stops)}): "
                     + "; ".join(bad))
    for k, i in enumerate(ids):
        if i not in rider_group and solo[k] is not None:
            sim[i] = (float(t[k]), float(t[k]) + solo[k])

    # times in the output against the simulation
    have = [c for c in ("pickup_at", "dropoff_at", "delay_s") if c in next(iter(by_id.values()), {})]
    mism = 0
    for k, i in enumerate(ids):
        if i not in by_id or i not in sim:
            continue
        if rider_group.get(i) and rider_group[i] not in good:
            continue
        row = by_id[i]
        pk, dr = sim[i]
        msgs = []
        for col, want in (("pickup_at", pk), ("dropoff_at", dr)):
            if col not in have:
                continue
            try:
                got, _ = parse_time(row[col])
            except Exception:
                msgs.append(f"{col} unreadable: {row[col]!r}")
                continue
            if abs(got - want) > args.time_tol:
                msgs.append(f"{col} {row[col]} vs simulated {iso(want, inp['tz'])} "
                            f"({got - want:+.1f} s)")
        if "delay_s" in have and solo[k] is not None:
            want = dr - float(t[k]) - solo[k]
            try:
                got = float(row["delay_s"])
                if abs(got - want) > args.time_tol:
                    alt = pk - float(t[k])
                    hint = " (it matches the pickup wait)" if abs(got - alt) <= args.time_tol else ""
                    msgs.append(f"delay_s {got:g} vs simulated arrival delay {want:.1f}{hint}")
            except ValueError:
                msgs.append(f"delay_s unreadable: {row['delay_s']!r}")
        if msgs:
            mism += 1
            rep.fail("times", f"{i}: " + "; ".join(msgs))
    return n_infeasible, mism, solo


# --------------------------------------------------------------------------- check 3
def check_money(inp, by_id, groups, rep):
    money = ("share", "solo_fare", "group_total")
    bad_int = 0
    for i in inp["ids"]:
        row = by_id.get(i)
        if row is None:
            continue
        for c in money:
            v = (row.get(c) or "").strip()
            if c in row and v and not INT_RE.match(v):
                bad_int += 1
                rep.fail("money", f"{i}: {c} {v!r} is not an integer (minor units)")
    for g, mem in groups.items():
        rows = [by_id[i] for i in mem]
        if any(not INT_RE.match((r.get(c) or "").strip()) for r in rows for c in money):
            rep.fail("money", f"group {g!r}: a member lacks an integer share/solo_fare/group_total")
            continue
        totals = {int(r["group_total"]) for r in rows}
        cur = {(r.get("currency") or "").strip() for r in rows}
        if len(cur) != 1:
            rep.fail("money", f"group {g!r}: currencies differ {sorted(cur)}")
        if len(totals) != 1:
            rep.fail("money", f"group {g!r}: group_total differs between members {sorted(totals)}")
            continue
        total = totals.pop()
        s = sum(int(r["share"]) for r in rows)
        if s != total:
            rep.fail("money", f"group {g!r}: shares sum to {s} != group_total {total}")
        for i, r in zip(mem, rows):
            if not int(r["share"]) < int(r["solo_fare"]):
                rep.fail("money", f"group {g!r}: {i} share {r['share']} not below solo_fare {r['solo_fare']}")
            if int(r["share"]) < 0:
                rep.fail("money", f"group {g!r}: {i} share {r['share']} negative")


# --------------------------------------------------------------------------- check 4
def feasible_pairs(inp, legs, args, timings):
    """All feasible pairs (i < j by input row) under the 4 interleavings, minute-cached legs."""
    N = len(inp["ids"])
    t = inp["t"]
    D = args.delay
    tol = args.tol
    ar = np.arange(N)
    solo = legs.by_minute(ar, ar + N, t)
    deadline_d = t + solo + D + tol  # latest drop-off
    deadline_p = t + D + tol         # latest pickup

    # Prune (safe, see README): with a first and b second (t_a <= t_b), a is dropped after b is
    # picked up, b is picked up no earlier than t_b (waiting), and legs take >= 0 s, so
    # t_b - t_a <= solo_a + D (+tol). With the later rider first, the earlier one is picked up
    # after t_b: t_b - t_a <= D (+tol). So any feasible pair has t_b - t_a <= solo_a + D + tol.
    order = np.argsort(t, kind="stable")
    ts = t[order]
    A, B = [], []
    hi = np.searchsorted(ts, ts + solo[order] + D + tol, side="right")
    for r in range(N):
        if hi[r] > r + 1:
            A.append(np.full(hi[r] - r - 1, order[r]))
            B.append(order[r + 1:hi[r]])
    A = np.concatenate(A) if A else np.zeros(0, dtype=np.int64)
    B = np.concatenate(B) if B else np.zeros(0, dtype=np.int64)
    if args.capacity:
        keep = inp["seats"][A] + inp["seats"][B] <= args.capacity
        A, B = A[keep], B[keep]
    n_pairs_window = len(A)
    # ordered candidates: X picked up first, Y second
    back = (t[B] - t[A]) <= D + tol
    X = np.concatenate([A, B[back]])
    Y = np.concatenate([B, A[back]])
    pid = np.concatenate([np.arange(len(A)), np.nonzero(back)[0]])
    # leg 1: X.o -> Y.o leaving at t_X
    d1 = legs.by_minute(X, Y, t[X])
    pY = np.maximum(t[X] + d1, t[Y])
    alive = pY <= deadline_p[Y]
    X, Y, pid, pY = X[alive], Y[alive], pid[alive], pY[alive]
    after1 = len(X)
    feasible = np.zeros(len(A), dtype=bool)
    # leg 2 + 3, two branches: drop X first (+X+Y-X-Y) or Y first (+X+Y-Y-X)
    for first_drop, second_drop in ((X, Y), (Y, X)):
        d2 = legs.by_minute(Y, first_drop + N, pY)
        a2 = pY + d2
        ok = a2 <= deadline_d[first_drop]
        d3 = np.full(len(X), np.inf)
        if ok.any():
            d3[ok] = legs.by_minute(first_drop[ok] + N, second_drop[ok] + N, a2[ok])
        a3 = a2 + d3
        ok &= a3 <= deadline_d[second_drop]
        feasible[pid[ok]] = True
    timings["pairs_in_time_window"] = n_pairs_window
    timings["ordered_candidates"] = int(len(np.concatenate([A, B[back]])))
    timings["ordered_after_pickup_check"] = after1
    return A[feasible], B[feasible]


def max_matching(n, A, B):
    import networkx as nx
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(A.tolist(), B.tolist()))
    t0 = time.time()
    m = nx.max_weight_matching(G, maxcardinality=True)  # unit weights (default 1)
    return m, time.time() - t0


# --------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output", nargs="?")
    ap.add_argument("--delay", type=float, required=True, help="Δ in seconds (as given to pool)")
    ap.add_argument("--graph", action="append", default=[], help="graph file(s), as given to pool")
    ap.add_argument("--geofare", default=DEFAULT_BIN, help="geofare binary (default $GEOFARE or %(default)s)")
    ap.add_argument("--worker-arg", action="append", default=[],
                    help="extra argument for `geofare worker` (repeatable, e.g. --worker-arg=--threads=2)")
    ap.add_argument("--max-riders", type=int, default=None, help="fail groups larger than this")
    ap.add_argument("--capacity", type=int, default=None,
                    help="seat capacity: fail groups needing more seats, and leave such pairs out of the matching "
                         "(the spec says nothing about seats: off by default)")
    ap.add_argument("--tol", type=float, default=1.0, help="feasibility tolerance, s (default 1)")
    ap.add_argument("--time-tol", type=float, default=3.0,
                    help="pickup_at/dropoff_at/delay_s vs simulation, s (default 3)")
    ap.add_argument("--min-ratio", type=float, default=0.95)
    ap.add_argument("--strict-sharing", action="store_true",
                    help="fail (not only warn) groups whose car empties before the last stop")
    ap.add_argument("--leg-departure", choices=["exact", "minute", "hour"], default="exact",
                    help="check 2: route each leg departing at the exact time the taxi leaves the stop "
                         "(default), or at the start of that minute / hour (to diagnose a pool that "
                         "uses per-minute or per-hour durations)")
    ap.add_argument("--skip-matching", action="store_true")
    ap.add_argument("--matching-only", action="store_true", help="only INPUT: feasible pairs and matching")
    ap.add_argument("--cross-check", type=int, default=200,
                    help="compare this many random matrix cells with `route` (default 200)")
    ap.add_argument("--pairs-out", help="write the feasible pairs and the matching here (CSV)")
    ap.add_argument("--max-listed", type=int, default=15, help="messages listed per category (text output)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.output and not args.matching_only:
        ap.error("OUTPUT is required (or --matching-only)")

    rep = Report()
    T0 = time.time()
    inp = load_input(args.input, rep)
    N = len(inp["ids"])
    summary = OrderedDict(input=args.input, output=args.output, requests=N, delay_s=args.delay,
                          graphs=args.graph)
    try:
        boxes = graph_boxes(args.geofare, args.graph)
        worker = Worker(args.geofare, args.graph, args.worker_arg)
    except Exception as e:
        print(f"check_pool: cannot start the worker: {e}", file=sys.stderr)
        return 2
    lats = np.concatenate([inp["olat"], inp["dlat"]])
    lons = np.concatenate([inp["olon"], inp["dlon"]])
    legs = Legs(worker, lats, lons, inp["tz"], boxes, rep)
    try:
        if N:
            legs.probe_roads(float(inp["t"][0]))
        pooled_out = None
        if not args.matching_only:
            out_cols, out_rows = read_csv(args.output)
            by_id, rider_group, groups, good = check_structure(inp, out_cols, out_rows, args, rep)
            t1 = time.time()
            n_inf, n_mism, _ = simulate_groups(inp, legs, good, by_id, rider_group, args, rep) \
                if by_id else (0, 0, None)
            check_money(inp, by_id, groups, rep)
            pooled_out = sum(len(m) for m in groups.values())
            sizes = _counts(len(m) for m in groups.values())
            summary.update(groups=len(groups), group_sizes={str(k): v for k, v in sorted(sizes.items())},
                           groups_checked=len(good), groups_infeasible=n_inf, rows_time_mismatch=n_mism,
                           riders_pooled_by_pool=pooled_out, simulate_s=round(time.time() - t1, 2))
        if not args.skip_matching and N:
            t2 = time.time()
            tm = OrderedDict()
            A, B = feasible_pairs(inp, legs, args, tm)
            t3 = time.time()
            m, mt = max_matching(N, A, B)
            pooled_m = 2 * len(m)
            summary.update(feasible_pairs=int(len(A)), **tm,
                           riders_in_some_feasible_pair=int(len(np.union1d(A, B))),
                           riders_pooled_by_max_pair_matching=pooled_m,
                           pair_search_s=round(t3 - t2, 2), matching_s=round(mt, 2))
            if args.pairs_out:
                ms = {frozenset(e) for e in m}
                with open(args.pairs_out, "w", newline="") as f:
                    w = csv.writer(f, lineterminator="\n")
                    w.writerow(["a", "b", "matched"])
                    for a, b in zip(A.tolist(), B.tolist()):
                        w.writerow([inp["ids"][a], inp["ids"][b], int(frozenset((a, b)) in ms)])
            if pooled_out is not None:
                ratio = pooled_out / pooled_m if pooled_m else (1.0 if pooled_out == 0 else float("inf"))
                summary["ratio"] = round(ratio, 4)
                summary["min_ratio"] = args.min_ratio
                if ratio < args.min_ratio:
                    rep.fail("ratio", f"pool pooled {pooled_out} riders, the max pair matching "
                             f"{pooled_m}: ratio {ratio:.4f} < {args.min_ratio}")
            if args.cross_check:
                summary["matrix_vs_route"] = legs.cross_check(args.cross_check)
                cc = summary["matrix_vs_route"]
                if cc and cc["max_abs_diff_s"] is not None and cc["max_abs_diff_s"] > 0.01:
                    rep.warn("matrix_vs_route", f"matrix cells differ from route by up to "
                             f"{cc['max_abs_diff_s']:.3f} s")
    except RuntimeError as e:
        print(f"check_pool: {e}", file=sys.stderr)
        worker.close()
        return 2
    worker.close()
    summary["worker"] = dict(legs.stats, requests=worker.requests, seconds=round(worker.seconds, 2),
                             errors=dict(legs.worker_errors))
    summary["elapsed_s"] = round(time.time() - T0, 2)
    summary["ok"] = not rep.failures
    summary["failures"] = rep.failures
    summary["warnings"] = rep.warnings

    if args.json:
        print(json.dumps(summary, indent=1, default=float))
    else:
        print_text(summary, args.max_listed)
    return 0 if summary["ok"] else 1


def print_text(s, k):
    print(f"geofare pool check: {s['input']} -> {s['output'] or '(matching only)'}")
    for key, val in s.items():
        if key in ("failures", "warnings", "ok", "input", "output"):
            continue
        print(f"  {key}: {val}")
    for title, d in (("WARNINGS", s["warnings"]), ("FAILURES", s["failures"])):
        for cat, msgs in d.items():
            print(f"{title[:-1]} [{cat}] {len(msgs)}:")
            for m in msgs[:k]:
                print(f"    {m}")
            if len(msgs) > k:
                print(f"    ... {len(msgs) - k} more")
    print("RESULT: " + ("PASS" if s["ok"] else "FAIL (" + ", ".join(s["failures"]) + ")"))


if __name__ == "__main__":
    sys.exit(main())

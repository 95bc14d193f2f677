extension MapPage {
    /// The page's script: plain JavaScript, no library, no network beyond this server.
    static let script = #"""
'use strict';
// GeoFare's map page: a Web Mercator map drawn on a canvas from the server's roads (or a grid),
// the open parties as the `clusters` op returns them for the view, a route with its fare from two
// clicks or the search box, and a party's match candidates as lines. Every number comes from the
// server's ops (POST /v1/{op}); nothing here computes a fare or a cluster.
(function () {
  const TILE = 256;
  const canvas = document.getElementById('map');
  const ctx = canvas.getContext('2d');
  const layer = document.getElementById('items');
  const info = document.getElementById('info');
  const view = { x: 0.5, y: 0.5, zoom: 12 };     // centre in world fractions, integer zoom
  let roads = { graphs: 0, roads: [] };
  let route = null, from = null, to = null, lines = [];
  let drawn = 0;

  const wx = lon => (lon + 180) / 360;
  const wy = lat => { const s = Math.sin(lat * Math.PI / 180); return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI); };
  const lonOf = x => x * 360 - 180;
  const latOf = y => 180 / Math.PI * Math.atan(Math.sinh(Math.PI * (1 - 2 * y)));
  const scale = () => TILE * Math.pow(2, view.zoom);
  const toScreen = (lon, lat) => [(wx(lon) - view.x) * scale() + canvas.width / 2, (wy(lat) - view.y) * scale() + canvas.height / 2];
  const toLonLat = (px, py) => [lonOf(view.x + (px - canvas.width / 2) / scale()), latOf(view.y + (py - canvas.height / 2) / scale())];
  function bbox() {
    const [west, north] = toLonLat(0, 0), [east, south] = toLonLat(canvas.width, canvas.height);
    const r = v => Math.round(v * 1e6) / 1e6;
    return { west: r(Math.max(-180, west)), south: r(Math.max(-85, south)), east: r(Math.min(180, east)), north: r(Math.min(85, north)) };
  }

  async function op(name, body) {
    const response = await fetch('/v1/' + name, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return response.json();
  }
  const money = (amount, currency) => {
    const digits = currency === 'KRW' || currency === 'JPY' ? 0 : 2;
    return (amount / Math.pow(10, digits)).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) + ' ' + currency;
  };
  function show(html) { info.innerHTML = html; }
  function escapeHTML(s) { return String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

  // ---- drawing -------------------------------------------------------------------------------
  const roadStyle = c => c <= 1 ? ['#e8a03a', 4] : c <= 3 ? ['#f0c060', 3.5] : c <= 5 ? ['#f6d98c', 3] : c <= 9 ? ['#ffffff', 2.2] : ['#ffffff', 1.4];
  function draw() {
    ctx.fillStyle = '#e9e5dc';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (roads.graphs === 0) drawGrid(); else drawRoads();
    for (const l of lines) polyline(l.points, l.colour, l.width, l.dash);
    if (route && route.geometry) polyline(route.geometry, '#1d4ed8', 5);
    for (const [p, colour] of [[from, '#16a34a'], [to, '#dc2626']]) if (p) dot(p[0], p[1], colour);
  }
  function drawGrid() {
    const b = bbox(), span = Math.max(b.east - b.west, 1e-9), step = Math.pow(10, Math.floor(Math.log10(span / 4)));
    ctx.strokeStyle = '#c9c3b6'; ctx.lineWidth = 1;
    for (let lon = Math.ceil(b.west / step) * step; lon <= b.east; lon += step) { const [x] = toScreen(lon, 0); ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, canvas.height); ctx.stroke(); }
    for (let lat = Math.ceil(b.south / step) * step; lat <= b.north; lat += step) { const [, y] = toScreen(0, lat); ctx.beginPath(); ctx.moveTo(0, y); ctx.lineTo(canvas.width, y); ctx.stroke(); }
  }
  function drawRoads() {
    const sorted = roads.roads.slice().sort((a, b) => b.class - a.class);
    for (const r of sorted) { const [colour, width] = roadStyle(r.class); polyline(r.points, '#b9b1a1', width + 1.5); polyline(r.points, colour, width); }
  }
  function polyline(points, colour, width, dash) {
    if (!points || points.length < 2) return;
    ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.lineCap = 'round'; ctx.lineJoin = 'round'; ctx.setLineDash(dash || []);
    ctx.beginPath();
    points.forEach(([lon, lat], i) => { const [x, y] = toScreen(lon, lat); if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y); });
    ctx.stroke(); ctx.setLineDash([]);
  }
  function dot(lon, lat, colour) {
    const [x, y] = toScreen(lon, lat);
    ctx.fillStyle = colour; ctx.strokeStyle = '#fff'; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(x, y, 7, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
  }

  // ---- data for the view ---------------------------------------------------------------------
  let generation = 0;
  async function refresh() {
    const mine = ++generation;
    const b = bbox();
    location.hash = [latOf(view.y).toFixed(5), lonOf(view.x).toFixed(5), view.zoom].join(',');
    const [roadAnswer, clusterAnswer] = await Promise.all([
      fetch(`/v1/roads?bbox=${b.west},${b.south},${b.east},${b.north}&zoom=${view.zoom}`).then(r => r.json()),
      op('clusters', { bbox: b, zoom: view.zoom, ids_limit: 10 }),
    ]);
    if (mine !== generation) return;
    if (roadAnswer.roads) roads = roadAnswer;
    draw();
    drawItems(clusterAnswer.ok ? clusterAnswer.result.items : []);
    document.body.dataset.bbox = [b.west, b.south, b.east, b.north].join(',');
    document.body.dataset.zoom = String(view.zoom);
    document.body.dataset.views = String(++drawn);
    document.body.dataset.ready = '1';
  }
  function drawItems(items) {
    layer.textContent = '';
    for (const item of items) {
      const el = document.createElement('div');
      const [x, y] = toScreen(item.center.lon, item.center.lat);
      const single = item.count === 1 && item.party_ids && item.party_ids.length === 1;
      el.className = single ? 'party' : 'cluster';
      el.dataset.count = String(item.count);
      if (single) el.dataset.partyId = item.party_ids[0]; else el.dataset.clusterId = item.id;
      const size = single ? 16 : Math.round(22 + 7 * Math.log2(item.count));
      Object.assign(el.style, { left: (x - size / 2) + 'px', top: (y - size / 2) + 'px', width: size + 'px', height: size + 'px', lineHeight: size + 'px' });
      if (!single) el.textContent = String(item.count);
      el.title = single ? 'party ' + item.party_ids[0] : item.count + ' parties';
      el.addEventListener('click', event => {
        event.stopPropagation();
        if (single) return showParty(item.party_ids[0]);
        view.x = wx(item.center.lon); view.y = wy(item.center.lat);
        view.zoom = Math.min(20, Math.max(view.zoom + 1, item.expansion_zoom || view.zoom + 1));
        refresh();
      });
      layer.appendChild(el);
    }
  }

  // ---- a party, its match candidates ---------------------------------------------------------
  async function showParty(id) {
    const answer = await op('party.get', { party_id: id });
    if (!answer.ok) return show('<b>' + escapeHTML(answer.error.message) + '</b>');
    const p = answer.result.party;
    show(`<h3>Party ${escapeHTML(p.id)}</h3><p>${escapeHTML(p.depart_at)} · ${p.free_seats} of ${p.seats_total} seats free · ${escapeHTML(p.status)}</p>` +
         `<button id="match-button">Who could ride along</button><div id="match-list"></div>`);
    document.getElementById('match-button').addEventListener('click', () => showMatches(p));
  }
  async function showMatches(p) {
    const answer = await op('match', { from: p.origin, to: p.destination, depart_at: p.depart_at, limit: 5 });
    const list = document.getElementById('match-list');
    lines = [];
    if (!answer.ok) { list.textContent = answer.error.message; draw(); return; }
    const candidates = (answer.result.parties || []).filter(c => c.party_id !== p.id);
    list.innerHTML = candidates.length ? '' : '<p>No open party fits this trip.</p>';
    for (const c of candidates) {
      const other = await op('party.get', { party_id: c.party_id });
      if (!other.ok) continue;
      const o = other.result.party;
      lines.push({ points: [[p.origin.lon, p.origin.lat], [o.origin.lon, o.origin.lat]], colour: '#7c3aed', width: 3, dash: [6, 4] });
      const row = document.createElement('p');
      row.className = 'match';
      row.dataset.partyId = c.party_id;
      row.textContent = `${c.party_id}: pays ${money(c.share, c.currency)}, saves ${Math.round(c.saving_pct)} %`;
      list.appendChild(row);
    }
    draw();
  }

  // ---- a route with its fare -----------------------------------------------------------------
  async function priceRoute() {
    const riders = Math.max(1, Math.min(20, parseInt(document.getElementById('riders').value, 10) || 1));
    const body = { from: { lat: from[1], lon: from[0] }, to: { lat: to[1], lon: to[0] }, party_size: riders, route: true, geometry: true };
    const answer = await op('fare', body);
    if (!answer.ok) { route = null; draw(); return show(`<p id="fare-total" data-error="${escapeHTML(answer.error.code)}">${escapeHTML(answer.error.message)}</p>`); }
    const q = answer.result;
    route = q.route;
    draw();
    const minutes = s => Math.round(s / 60);
    const band = q.duration_low_s != null ? ` (${minutes(q.duration_low_s)}–${minutes(q.duration_high_s)} min)` : '';
    show(`<h3>Route and fare</h3><p>${(q.distance_m / 1000).toFixed(1)} km · ${minutes(q.duration_s)} min${band}</p>` +
         `<p id="fare-total" data-total="${q.total}" data-currency="${escapeHTML(q.currency)}">${money(q.total, q.currency)}</p>` +
         `<p>likely ${money(q.low, q.currency)} – ${money(q.high, q.currency)} · ${escapeHTML(q.tariff)} ${escapeHTML(q.tariff_version)}</p>` +
         `<p id="per-person">${q.per_person.length} riders: ${q.per_person.map(a => money(a, q.currency)).join(' + ')}</p>`);
  }
  function place(lonlat) {
    if (!from || to) { from = lonlat; to = null; route = null; draw(); show('<p>Now click where the ride ends.</p>'); return; }
    to = lonlat; draw(); priceRoute();
  }

  // ---- pooling the parties in view (POST /v1/pool: geofare pool's planner) ----------------
  const groupColours = ['#db2777', '#7c3aed', '#0891b2', '#65a30d', '#ea580c', '#4f46e5'];
  document.getElementById('pool-button').addEventListener('click', async () => {
    const b = bbox();
    const [lon, lat] = toLonLat(canvas.width / 2, canvas.height / 2);
    const radius = Math.min(50000, 111320 * Math.max(b.north - b.south, (b.east - b.west) * Math.cos(lat * Math.PI / 180)) / 2);
    const near = await op('nearby', { center: { lat, lon }, radius_m: Math.round(radius), limit: 200, min_free_seats: 1 });
    if (!near.ok) return show(`<p>${escapeHTML(near.error.message)}</p>`);
    const parties = near.result.parties;
    const byId = new Map(parties.map(p => [p.id, p]));
    const riders = parties.map(p => ({ id: p.id, from: p.origin, to: p.destination, depart_at: p.depart_at }));
    const answer = await op('pool', { riders, delay_s: 600, max_riders: 2 });
    if (!answer.ok) return show(`<p>${escapeHTML(answer.error.message)}</p>`);
    lines = [];
    const groups = answer.result.groups;
    groups.forEach((g, k) => {
      const points = g.stops.map(s => { const p = byId.get(s.slice(1)); const c = s[0] === '+' ? p.origin : p.destination; return [c.lon, c.lat]; });
      lines.push({ points, colour: groupColours[k % groupColours.length], width: 3 });
    });
    draw();
    show(`<h3>Pooled</h3><p id="pool-summary" data-groups="${groups.length}">${parties.length} parties in view, ${groups.length} shared rides</p>` +
         groups.slice(0, 12).map(g => `<p class="group">${g.members.map(escapeHTML).join(' + ')}: ${g.shares.map(a => money(a, g.currency)).join(' / ')}</p>`).join(''));
  });

  // ---- search --------------------------------------------------------------------------------
  document.getElementById('search').addEventListener('submit', async event => {
    event.preventDefault();
    const q = document.getElementById('query').value.trim();
    if (!q) return;
    const [lon, lat] = toLonLat(canvas.width / 2, canvas.height / 2);
    const answer = await op('places.search', { q, near: { lat, lon }, limit: 5 });
    if (!answer.ok) return show(`<p>${escapeHTML(answer.error.message)}</p>`);
    show('<h3>Places</h3>');
    for (const m of answer.result.results || []) {
      const row = document.createElement('p');
      row.className = 'place';
      row.textContent = m.name + ' · ' + m.kind;
      row.addEventListener('click', () => { view.x = wx(m.lon); view.y = wy(m.lat); place([m.lon, m.lat]); refresh(); });
      info.appendChild(row);
    }
  });

  // ---- panning and zooming -------------------------------------------------------------------
  let press = null;
  canvas.addEventListener('mousedown', e => { press = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false }; });
  window.addEventListener('mousemove', e => {
    if (!press) return;
    const dx = e.clientX - press.x, dy = e.clientY - press.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) press.moved = true;
    if (!press.moved) return;
    view.x = press.vx - dx / scale(); view.y = press.vy - dy / scale();
    draw(); layer.style.transform = `translate(${dx}px, ${dy}px)`;
  });
  window.addEventListener('mouseup', e => {
    if (!press) return;
    const moved = press.moved;
    press = null;
    layer.style.transform = '';
    if (moved) return refresh();
    const r = canvas.getBoundingClientRect();
    place(toLonLat(e.clientX - r.left, e.clientY - r.top));
  });
  canvas.addEventListener('wheel', e => { e.preventDefault(); zoomBy(e.deltaY < 0 ? 1 : -1); }, { passive: false });
  document.getElementById('zoom-in').addEventListener('click', () => zoomBy(1));
  document.getElementById('zoom-out').addEventListener('click', () => zoomBy(-1));
  function zoomBy(d) { view.zoom = Math.max(2, Math.min(20, view.zoom + d)); refresh(); }
  function resize() { canvas.width = canvas.clientWidth; canvas.height = canvas.clientHeight; }
  window.addEventListener('resize', () => { resize(); refresh(); });

  // ---- start: the view from the URL (#lat,lon,zoom), else the first graph's, else Seoul ------
  async function start() {
    resize();
    const hash = location.hash.slice(1).split(',').map(Number);
    if (hash.length === 3 && hash.every(Number.isFinite)) {
      view.y = wy(hash[0]); view.x = wx(hash[1]); view.zoom = Math.round(hash[2]);
    } else {
      const version = await op('version', {});
      const g = version.ok && version.result.graphs && version.result.graphs[0];
      const [lat, lon] = g ? [(g.bbox.south + g.bbox.north) / 2, (g.bbox.west + g.bbox.east) / 2] : [37.5665, 126.978];
      view.y = wy(lat); view.x = wx(lon); view.zoom = g ? 14 : 12;
    }
    document.getElementById('riders').addEventListener('change', () => { if (from && to) priceRoute(); });
    await refresh();
  }
  start();
})();
"""#
}

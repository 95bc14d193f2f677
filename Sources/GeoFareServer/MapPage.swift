/// The map page `geofare serve` answers at `GET /` (with `/map.js` and `/map.css`): plain HTML,
/// CSS and JavaScript compiled into the binary, no library and no network beyond the server.
///
/// Testable hooks (docs/http.md): each drawn cluster is an element with `data-cluster-id` and
/// `data-count`, each single party one with `data-party-id`; the fare panel is `#fare-total`; the
/// body's `data-ready` is `"1"` once the first view is drawn, and `data-bbox`/`data-zoom` say
/// which view the drawn clusters are of.
enum MapPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GeoFare</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/map.css">
</head>
<body>
<div id="stage">
  <canvas id="map" aria-label="map"></canvas>
  <div id="items"></div>
  <div id="zoom"><button id="zoom-in" title="zoom in">+</button><button id="zoom-out" title="zoom out">−</button></div>
</div>
<aside id="panel">
  <h2>GeoFare</h2>
  <form id="search"><input id="query" placeholder="Search a place" autocomplete="off"><button>Find</button></form>
  <label>Riders <input id="riders" type="number" min="1" max="20" value="2"></label>
  <button id="pool-button" title="geofare pool over the open parties in view">Pool the parties in view</button>
  <p class="hint">Click the map twice (from, to) for a route and its fare; click a bubble to zoom in, a party for its details.</p>
  <div id="info"></div>
  <p class="credit">Roads © OpenStreetMap contributors (ODbL), from the loaded graph.</p>
</aside>
<script src="/map.js"></script>
</body>
</html>
"""#

    static let style = #"""
html, body { margin: 0; height: 100%; font: 14px/1.4 system-ui, sans-serif; color: #1f2937; }
body { display: flex; }
#stage { position: relative; flex: 1; overflow: hidden; }
#map { width: 100%; height: 100%; display: block; cursor: grab; }
#items { position: absolute; inset: 0; pointer-events: none; }
#items > div { position: absolute; border-radius: 50%; text-align: center; font-weight: 600; pointer-events: auto; cursor: pointer; }
.cluster { background: rgba(249, 115, 22, 0.88); color: #fff; border: 2px solid #fff; box-sizing: border-box; }
.party { background: #0ea5e9; border: 2px solid #fff; box-sizing: border-box; }
#zoom { position: absolute; left: 10px; top: 10px; display: flex; flex-direction: column; gap: 4px; }
#zoom button { width: 32px; height: 32px; font-size: 18px; }
#panel { width: 320px; padding: 12px 16px; border-left: 1px solid #d1d5db; overflow-y: auto; background: #fafaf9; }
#panel h2 { margin: 0 0 8px; }
#search { display: flex; gap: 4px; margin-bottom: 8px; }
#query { flex: 1; }
#fare-total { font-size: 22px; font-weight: 700; }
#pool-button { margin: 8px 0; }
.place, .match { cursor: pointer; margin: 4px 0; }
.hint, .credit { color: #6b7280; font-size: 12px; }
"""#
}

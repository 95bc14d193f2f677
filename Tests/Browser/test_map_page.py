"""The map page of `geofare serve` in a real headless browser (issue 44).

Starts `geofare serve` on a free loopback port with a seeded party store and a road graph built
from a shared OpenStreetMap extract, opens the page in Debian's Chromium through chromedriver
(selenium), and checks what a person would see: the clusters drawn equal the `clusters` op's
for the page's own viewport, a click on a cluster zooms in, two clicks on the map draw a route
and show its fare, and the browser console holds no error. With GEOFARE_SCREENSHOT set, the
page is saved there (docs/map.png in the README comes from this test).

Run: GEOFARE=.build/debug/geofare python3 -m pytest -q Tests/Browser   (from .ci/run)
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEOFARE = os.environ.get("GEOFARE", os.path.join(ROOT, ".build", "debug", "geofare"))
SHARED = os.environ.get("GEOFARE_SHARED", os.path.join(os.path.dirname(ROOT), "shared", "data"))
EXTRACT = os.path.join(SHARED, "osm", "nyc_midtown_south.osm.pbf")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def post(port, op, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/{op}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server():
    if not os.path.exists(EXTRACT):
        if os.environ.get("CI"):
            pytest.fail(f"missing {EXTRACT}")
        pytest.skip(f"needs {EXTRACT}")
    work = tempfile.mkdtemp(prefix="geofare-browser-")
    graph = os.path.join(work, "midtown.graph")
    subprocess.run([GEOFARE, "graph", "build", EXTRACT, "-o", graph], check=True, capture_output=True, timeout=600)
    info = subprocess.run([GEOFARE, "graph", "info", graph, "--json"], check=True, capture_output=True, text=True).stdout
    bbox = json.loads(info)
    # 400 open parties spread over the graph's area, some bunched (so that some bubbles hold many).
    rng = random.Random(44)
    rows = ["id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,seats_total,seats_taken"]
    south, north, west, east = bbox["south"], bbox["north"], bbox["west"], bbox["east"]
    for i in range(400):
        if i % 3 == 0:
            lat, lon = (south + north) / 2 + rng.gauss(0, 0.0015), (west + east) / 2 + rng.gauss(0, 0.0015)
        else:
            lat, lon = rng.uniform(south, north), rng.uniform(west, east)
        rows.append(f"p{i},{lat:.6f},{lon:.6f},{rng.uniform(south, north):.6f},{rng.uniform(west, east):.6f},"
                    f"2030-05-15T{18 + i % 4}:{i % 60:02d}:00-04:00,4,{1 + i % 3}")
    parties = os.path.join(work, "parties.csv")
    with open(parties, "w") as f:
        f.write("\n".join(rows) + "\n")
    db = os.path.join(work, "parties.db")
    subprocess.run([GEOFARE, "parties", "import", parties, "--db", db], check=True, capture_output=True, timeout=120)
    process = subprocess.Popen([GEOFARE, "serve", "--port", "0", "--db", db, "--graph", graph],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    port = None
    deadline = time.time() + 60
    while time.time() < deadline and port is None:
        line = process.stderr.readline()
        match = re.search(r"listening on http://[0-9.]+:([0-9]+)", line)
        if match:
            port = int(match.group(1))
    assert port, "geofare serve did not start"
    yield {"port": port, "bbox": bbox, "process": process}
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,860"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(driver, condition, what, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition(driver)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def drawn_items(driver):
    from selenium.webdriver.common.by import By
    clusters = {(e.get_attribute("data-cluster-id"), int(e.get_attribute("data-count")))
                for e in driver.find_elements(By.CSS_SELECTOR, "[data-cluster-id]")}
    parties = {e.get_attribute("data-party-id") for e in driver.find_elements(By.CSS_SELECTOR, "[data-party-id]")}
    return clusters, parties


def test_map_page(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    port, bbox = server["port"], server["bbox"]
    lat, lon = (bbox["south"] + bbox["north"]) / 2, (bbox["west"] + bbox["east"]) / 2
    browser.get(f"http://127.0.0.1:{port}/#{lat:.5f},{lon:.5f},15")
    wait_for(browser, lambda d: d.execute_script("return document.body.dataset.ready") == "1", "the first view")

    # The clusters drawn are the clusters op's for the page's own viewport and zoom.
    west, south, east, north = map(float, browser.execute_script("return document.body.dataset.bbox").split(","))
    zoom = int(browser.execute_script("return document.body.dataset.zoom"))
    answer = post(port, "clusters", {"bbox": {"west": west, "south": south, "east": east, "north": north}, "zoom": zoom, "ids_limit": 10})
    assert answer["ok"], answer
    items = answer["result"]["items"]
    want_clusters = {(i["id"], i["count"]) for i in items if not (i["count"] == 1 and i["party_ids"] and len(i["party_ids"]) == 1)}
    want_parties = {i["party_ids"][0] for i in items if i["count"] == 1 and i["party_ids"] and len(i["party_ids"]) == 1}
    clusters, parties = drawn_items(browser)
    assert clusters == want_clusters and parties == want_parties
    assert len(clusters) >= 1 and sum(c for _, c in clusters) + len(parties) == sum(i["count"] for i in items) > 20
    roads = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/roads?bbox={west},{south},{east},{north}&zoom={zoom}").read())
    assert roads["graphs"] == 1 and len(roads["roads"]) > 50

    if os.environ.get("GEOFARE_SCREENSHOT_CLUSTERS"):
        browser.save_screenshot(os.environ["GEOFARE_SCREENSHOT_CLUSTERS"])

    # A click on a cluster zooms in on it.
    views = int(browser.execute_script("return document.body.dataset.views"))
    biggest = max(browser.find_elements(By.CSS_SELECTOR, "[data-cluster-id]"), key=lambda e: int(e.get_attribute("data-count")))
    biggest.click()
    wait_for(browser, lambda d: int(d.execute_script("return document.body.dataset.views")) > views, "the view after the click")
    assert int(browser.execute_script("return document.body.dataset.zoom")) > zoom

    # Two clicks on the map (away from the bubbles): a route is drawn and its fare shown.
    canvas = browser.find_element(By.ID, "map")
    browser.execute_script("document.getElementById('items').style.display = 'none'")
    width, height = canvas.size["width"], canvas.size["height"]
    ActionChains(browser).move_to_element_with_offset(canvas, -width // 5, -height // 5).click().perform()
    ActionChains(browser).move_to_element_with_offset(canvas, width // 5, height // 5).click().perform()
    total = wait_for(browser, lambda d: d.execute_script(
        "const e = document.getElementById('fare-total'); return e && (e.dataset.total || e.dataset.error)"), "the fare")
    browser.execute_script("document.getElementById('items').style.display = ''")
    fare = browser.find_element(By.ID, "fare-total")
    assert fare.get_attribute("data-currency") == "USD" and int(total) > 250, fare.text
    assert "USD" in fare.text and browser.find_element(By.ID, "per-person").text.startswith("2 riders")

    if os.environ.get("GEOFARE_SCREENSHOT"):
        browser.save_screenshot(os.environ["GEOFARE_SCREENSHOT"])

    # Pooling the parties in view draws the planner's groups as lines.
    browser.find_element(By.ID, "pool-button").click()
    groups = wait_for(browser, lambda d: d.execute_script(
        "const e = document.getElementById('pool-summary'); return e && e.dataset.groups"), "the pooled groups", timeout=120)
    assert int(groups) >= 1, browser.find_element(By.ID, "info").text
    if os.environ.get("GEOFARE_SCREENSHOT_POOL"):
        browser.save_screenshot(os.environ["GEOFARE_SCREENSHOT_POOL"])

    # No error in the browser's console (a failed request, a script error).
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors

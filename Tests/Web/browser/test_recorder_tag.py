"""The phone recorder end to end (issue #13's done-when): a signed-in phone records a route
along a real GPX track, the camera photographs the QR code on its screen once, the route goes to
the server by itself; a second route is stopped offline and arrives when the phone is back
online, each route stored exactly once; then `waymark tag --server` finds the first route by the
QR photo's nonce, opens the envelope the browser sealed, and geotags photos within a metre of
the replayed track."""
import json
import math
import re
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from playwright.sync_api import expect

from conftest import WAYMARK, messages, username
from flows import sign_up
from routes_flows import local_route
from recorder_flows import PASSPHRASE, kept_route, replay, set_passphrase, start_recording, track_points

# The camera's clock: set to local time by hand, and off by a few seconds (what the QR photo fixes).
CAMERA_AHEAD = timedelta(hours=1, seconds=47.25)

FIXES = """async (id) => {
  const routes = await import('/recorder/routes.js');
  const route = await routes.getRoute(id);
  return route.tracks;
}"""


def wait_for_status(page, route_id, status, within=45):
    deadline = time.monotonic() + within
    while True:
        route = kept_route(page, route_id)
        if route and route["status"] == status:
            return route
        assert time.monotonic() < deadline, f"route {route_id} is {route and route['status']}, not {status}"
        page.wait_for_timeout(250)


def camera_time(instant):
    """What the camera writes for a UTC instant: a naive local time, and its hundredths."""
    local = datetime.fromtimestamp(instant, tz=timezone.utc).replace(tzinfo=None) + CAMERA_AHEAD
    return local.strftime("%Y:%m:%d %H:%M:%S"), f"{local.microsecond // 10_000:02d}"


def stamp(path, instant):
    when, hundredths = camera_time(instant)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=Waymark", "-Model=Test Camera",
                    f"-DateTimeOriginal={when}", f"-SubSecTimeOriginal={hundredths}", str(path)],
                   check=True, timeout=60)


def make_photo(path, instant):
    subprocess.run(["convert", "-size", "320x240", "gradient:#4a7ab5-#c8b27a", "-quality", "85", str(path)],
                   check=True, timeout=60)
    stamp(path, instant)


def metres_to_track(point, track):
    """The distance (m) from a point to the polyline through `track`, on a local plane: the
    segments here are tens of metres long, where the plane is exact to well under a millimetre."""
    lat0 = math.radians(point[0])
    scale_y = 111_132.954 - 559.822 * math.cos(2 * lat0)
    scale_x = 111_412.84 * math.cos(lat0)

    def plane(lat, lon):
        return ((lon - point[1]) * scale_x, (lat - point[0]) * scale_y)

    best = math.inf
    xy = [plane(p["latitude"], p["longitude"]) for p in track]
    for (ax, ay), (bx, by) in zip(xy, xy[1:]):
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / length))
        best = min(best, math.hypot(ax + t * dx, ay + t * dy))
    return best


def test_recorded_in_the_browser_stored_once_and_tagged(phone_for, server, tmp_path):
    points = track_points(count=40)
    phone = phone_for("en-US", geolocation={**points[0], "accuracy": 4})
    page = phone.page
    m = messages("en")

    # Every answer to a route upload, by the lookup key it was for: a retry must get the same route.
    uploads = {}

    def on_response(answer):
        request = answer.request
        if request.method == "POST" and answer.url.endswith("/api/v1/routes") and answer.status in (200, 201):
            lookup = json.loads(request.post_data)["lookup"]
            uploads.setdefault(lookup, set()).add(answer.json()["route_id"])

    page.on("response", on_response)

    page.goto("/account")
    signed_up = sign_up(phone, "en", username("photographer"), "correct horse battery", "Photographer")
    assert signed_up.status == 201, signed_up.text()
    token = signed_up.json()["token"]

    # The first route: recorded along the track with a 1 s QR period, the QR code photographed once.
    page.goto("/settings")
    page.get_by_label(m["settings.qrPeriod"]).fill("1")
    page.get_by_role("button", name=m["settings.save"]).click()
    expect(page.locator("#status")).to_have_text(m["settings.saved"])
    page.goto("/record")
    set_passphrase(phone, "en")
    start_recording(phone, "en")
    replay(phone, points[1:12], accuracy=4, every=0.5)
    photos = tmp_path / "photos"
    photos.mkdir()
    qr_photo = photos / "DSC0001.jpg"
    before = time.time()
    page.screenshot(path=str(qr_photo), type="jpeg", quality=90)
    after = time.time()
    stamp(qr_photo, (before + after) / 2)
    phone.shot("1-photographed")
    replay(phone, points[12:], accuracy=4, every=0.5)
    first = kept_route(page)
    assert first["tracks"] == [len(points)], first  # every replayed position was recorded, in one track
    page.get_by_role("button", name=m["record.stop"]).click()
    expect(page).to_have_url(re.compile(r"/routes/" + re.escape(first["id"]) + "$"), timeout=30000)
    first = wait_for_status(page, first["id"], "stored")

    # The second route, stopped offline: queued on the phone, stored when the network is back.
    page.goto("/record?start=1")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    replay(phone, list(reversed(points[:10])), accuracy=4, every=0.3)
    second = kept_route(page)
    phone.context.set_offline(True)
    page.get_by_role("button", name=m["record.stop"]).click()
    expect(page).to_have_url(re.compile(r"/routes/" + re.escape(second["id"]) + "$"), timeout=30000)
    page.wait_for_timeout(1500)
    assert kept_route(page, second["id"])["status"] == "queued"
    phone.shot("2-queued-offline")
    phone.context.set_offline(False)
    second = wait_for_status(page, second["id"], "stored")
    phone.shot("3-stored-online")

    # Each route is on the server exactly once, under the id the phone shows.
    stored = [local_route(page, local["id"])["serverRouteId"] for local in (first, second)]
    assert len(uploads) == 2, uploads
    assert sorted(next(iter(ids)) for ids in uploads.values() if len(ids) == 1) == sorted(stored), uploads

    # Photos taken along the first route, by the camera's own clock.
    tracks = page.evaluate(FIXES, first["id"])
    fixes = tracks[0]
    for number, index in enumerate([5, 20, 33], start=2):
        make_photo(photos / f"DSC000{number}.jpg", fixes[index]["time"])

    answer = subprocess.run(
        ["curl", "-sf", "-X", "POST", "-H", f"Authorization: Bearer {token}", "-H", "Content-Type: application/json",
         "--data", json.dumps({"name": "laptop"}), server.url + "/api/v1/keys"],
        capture_output=True, text=True, timeout=30, check=True)
    key = json.loads(answer.stdout)
    passphrase_file = tmp_path / "passphrase.txt"
    passphrase_file.write_text(PASSPHRASE + "\n", encoding="utf-8")
    tagged = subprocess.run(
        [WAYMARK, "tag", str(photos), "--server", server.url, "--passphrase-file", str(passphrase_file)],
        capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "WAYMARK_API_KEY": key["key"], "WAYMARK_API_SECRET": key["secret"],
             "HOME": str(tmp_path)})
    assert tagged.returncode == 0, tagged.stdout + tagged.stderr

    read = subprocess.run(["exiftool", "-json", "-n", "-GPSLatitude", "-GPSLongitude", str(photos)],
                          capture_output=True, text=True, timeout=60, check=True)
    positions = {Path(entry["SourceFile"]).name: entry for entry in json.loads(read.stdout)}
    for name in ["DSC0002.jpg", "DSC0003.jpg", "DSC0004.jpg"]:
        entry = positions[name]
        assert "GPSLatitude" in entry, f"{name} was not tagged:\n{tagged.stdout}{tagged.stderr}"
        off = metres_to_track((entry["GPSLatitude"], entry["GPSLongitude"]), points)
        assert off <= 1.0, f"{name} is {off:.2f} m from the replayed track"



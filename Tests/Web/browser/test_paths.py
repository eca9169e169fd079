"""Field paths (/paths, issue #15 point 4) on a phone, on the real server: a small square is
walked with emulated positions (one a second) while offline; Stop closes it and shows its area;
the path waits on the phone (through a reload too) and arrives once when the network is back,
every attempt with the same Idempotency-Key; the list shows the server's area, which is
GeographicLib's for the same points and the one the page showed; the KML file downloads and
validates against the OGC KML 2.2 schema; Delete asks first. German, and signed out."""
import re
import subprocess
from pathlib import Path

from geographiclib.geodesic import Geodesic
from playwright.sync_api import expect

from conftest import REPO, messages, username, wait_for_service_worker
from flows import sign_up

PASSWORD = "correct horse battery"
START = (48.2082, 16.3738)


def square_walk(side=50.0, per_side=2):
    """Points `per_side` to a side round a square of `side` metres (north, east, south, west from
    START, each side a geodesic found by GeographicLib's direct problem)."""
    corners = [START]
    for azimuth in (0, 90, 180):
        step = Geodesic.WGS84.Direct(corners[-1][0], corners[-1][1], azimuth, side)
        corners.append((step["lat2"], step["lon2"]))
    points = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        line = Geodesic.WGS84.InverseLine(a[0], a[1], b[0], b[1])
        for i in range(per_side):
            position = line.Position(line.s13 * i / per_side)
            points.append((position["lat2"], position["lon2"]))
    return points


def geographiclib_area(points):
    polygon = Geodesic.WGS84.Polygon()
    for latitude, longitude in points:
        polygon.AddPoint(latitude, longitude)
    _, perimeter, area = polygon.Compute()
    return abs(area), perimeter


def area_text(area, language="en"):
    """The page's "2,500 m² · 0.2500 ha" (Intl in en-US / de-DE)."""
    whole = f"{round(area):,}" if area >= 100 else f"{area:,.1f}"
    hectares = f"{area / 10000:.4f}"
    if language == "de":
        whole, hectares = whole.replace(",", "."), hectares.replace(".", ",")
    return f"{whole} m² · {hectares} ha"


def kml_schema():
    found = sorted((REPO / ".build-venv" / "tools" / "lib").glob("python*/site-packages/pykml/schemas/ogckml22.xsd"))
    assert found, "the OGC KML 2.2 schema (pykml in .build-venv) is missing: run scripts/bootstrap"
    return found[0]


def point_count(page):
    text = page.locator(".path-live").text_content() or ""
    found = re.match(r"(\d+)", text)
    return int(found.group(1)) if found else 0


def walk(phone, points, m, resumed=False):
    """Replays the walk from its start, where the phone already is (Record takes that fix): a new
    position about every second, each one waited for on the page."""
    page = phone.page
    live = page.locator(".path-live")
    if not resumed:
        expect(live).to_contain_text(m["paths.live"].split(" ·")[0].replace("{points}", "1"))
    for latitude, longitude in points[1:]:
        before = point_count(page)
        page.wait_for_timeout(1000)
        phone.context.set_geolocation({"latitude": latitude, "longitude": longitude, "accuracy": 3})
        expect(live).to_contain_text(m["paths.live"].split(" ·")[0].replace("{points}", str(before + 1)))


def test_a_square_walked_offline_is_measured_sent_once_exported_and_deleted(phone_for, tmp_path):
    m = messages("en")
    points = square_walk()
    phone = phone_for("en-US", geolocation={"latitude": START[0], "longitude": START[1], "accuracy": 3})
    page = phone.page
    page.goto("/account")
    assert sign_up(phone, "en", username("farmer"), PASSWORD, "Franz Farmer").status == 201
    page.goto("/paths")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["paths.title"])
    expect(page.locator(".path-empty")).to_be_visible()
    wait_for_service_worker(page)
    posts = []
    page.on("request", lambda r: posts.append(r) if r.url.endswith("/api/v1/paths") and r.method == "POST" else None)

    phone.context.set_offline(True)
    page.get_by_label(m["paths.name"]).fill("North field")
    page.get_by_role("button", name=m["paths.record"], exact=True).click()
    expect(page.get_by_role("status")).to_have_text(m["paths.status.recording"])
    walk(phone, points, m)
    phone.shot("1-walking")
    page.get_by_role("button", name=m["paths.stop"], exact=True).click()
    area, perimeter = geographiclib_area(points)
    assert abs(area - 2500) < 0.005 * 2500, area
    # The phone's own measure, before the server has it: GeographicLib's area.
    expect(page.locator(".path-result .path-area")).to_have_text(area_text(area))
    item = page.locator(".path-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("North field")
    expect(item.locator(".path-badge")).to_have_text(m["paths.state.unsent"])
    expect(item.get_by_role("button", name=m["paths.send"])).to_be_visible()
    item.scroll_into_view_if_needed()
    phone.shot("2-stopped-offline")
    assert posts == [] or all(r.failure for r in posts), "nothing reached the server while offline"

    # Still offline, the page opens again from the service worker: the path is kept on the phone.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["paths.title"])
    expect(page.locator(".path-item .path-badge")).to_have_text(m["paths.state.unsent"])

    with page.expect_response(lambda r: r.url.endswith("/api/v1/paths") and r.request.method == "POST" and r.status == 201) as sent:
        phone.context.set_offline(False)
    answer = sent.value.json()
    assert answer["name"] == "North field"
    assert answer["pointCount"] >= len(points)
    assert abs(answer["area"] - area) < 1e-6 * area, f"server {answer['area']} m², GeographicLib {area} m²"
    assert abs(answer["perimeter"] - perimeter) < 1e-6 * perimeter
    expect(item.locator(".path-badge")).to_have_text(m["paths.state.sent"])
    expect(item.locator(".path-item-area")).to_have_text(area_text(answer["area"]))
    item.scroll_into_view_if_needed()
    phone.shot("3-sent")
    keys = {r.header_value("idempotency-key") for r in posts}
    assert len(keys) == 1 and None not in keys, f"every attempt carried the same Idempotency-Key: {keys}"
    listed = page.request.get("/api/v1/paths").json()["items"]
    assert [p["id"] for p in listed] == [answer["id"]], "it arrived once"
    stored = page.request.get(f"/api/v1/paths/{answer['id']}").json()
    walked = [(p[0], p[1]) for p in stored["points"]]
    assert [place for index, place in enumerate(walked) if index == 0 or place != walked[index - 1]] == [tuple(p) for p in points], "the points as walked"
    assert abs(geographiclib_area(walked)[0] - answer["area"]) < 1e-6 * area

    # The KML file: named after the path, valid against the OGC schema, with the closed polygon.
    with page.expect_download() as download:
        item.get_by_role("link", name=m["paths.kml"]).click()
    assert download.value.suggested_filename == "North field.kml"
    kml = tmp_path / "north.kml"
    download.value.save_as(kml)
    text = kml.read_text(encoding="utf-8")
    assert "<Polygon>" in text and "<LineString>" in text and "<name>North field</name>" in text
    subprocess.run(["xmllint", "--nonet", "--noout", "--schema", str(kml_schema()), str(kml)], check=True, capture_output=True)
    area_data = re.search(r'<Data name="area"><value>([0-9.]+)</value>', text)
    assert area_data and abs(float(area_data.group(1)) - answer["area"]) <= 0.005

    # Delete asks first: No keeps it, Yes deletes it on the server and the phone.
    page.once("dialog", lambda dialog: dialog.dismiss())
    item.get_by_role("button", name=m["paths.delete"]).click()
    expect(item).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: "/api/v1/paths/" in r.url and r.request.method == "DELETE" and r.status == 204):
        item.get_by_role("button", name=m["paths.delete"]).click()
    expect(page.locator(".path-item")).to_have_count(0)
    expect(page.locator(".path-empty")).to_be_visible()
    assert page.request.get("/api/v1/paths").json()["items"] == []
    phone.shot("4-deleted")


def test_german_and_signed_out_the_path_stays_on_the_phone(phone_for):
    m = messages("de")
    points = square_walk(side=30.0, per_side=1)
    phone = phone_for("de-DE", geolocation={"latitude": START[0], "longitude": START[1], "accuracy": 3})
    page = phone.page
    page.goto("/settings")
    page.get_by_role("link", name=m["settings.toPaths"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["paths.title"])
    expect(page.get_by_text(m["paths.signInToSend"])).to_be_visible()
    page.get_by_label(m["paths.tone"]).check()
    page.get_by_label(m["paths.follow"]).uncheck()
    page.get_by_role("button", name=m["paths.record"], exact=True).click()
    walk(phone, points[:2], m)
    # The tab is closed mid-walk: the walk so far is still on the phone, and Continue goes on.
    page.reload()
    expect(page.get_by_role("button", name=m["paths.continue"], exact=True)).to_be_enabled()
    assert point_count(page) >= 2, page.locator(".path-live").text_content()
    page.get_by_role("button", name=m["paths.continue"], exact=True).click()
    walk(phone, points[1:], m, resumed=True)
    page.get_by_role("button", name=m["paths.stop"], exact=True).click()
    area, _ = geographiclib_area(points)
    expect(page.locator(".path-result .path-area")).to_have_text(area_text(area, "de"))
    item = page.locator(".path-item")
    expect(item).to_contain_text(m["paths.unnamed"])
    expect(item.locator(".path-badge")).to_have_text(m["paths.state.unsent"])
    phone.shot("1-german-signed-out")
    # The switches are remembered on the phone.
    page.reload()
    expect(page.get_by_label(m["paths.tone"])).to_be_checked()
    expect(page.get_by_label(m["paths.follow"])).not_to_be_checked()
    expect(page.locator(".path-item")).to_have_count(1)

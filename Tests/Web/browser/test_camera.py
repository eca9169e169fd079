"""The evidence camera (/tasks/:id/camera and /camera, issue #15 point 2) on a phone, on the real
server, with Chromium's fake camera, emulated positions and device orientation and motion events
sent from the test as a phone's sensors would send them. An officer hands a task to a user; the
user opens the camera with the centroid on (N = 10): 10 fixes arrive, "samples 10/10" shows, the
phone is still, the shutter counts down and the photo is on the task with the azimuth and tilt
as the sensors said and the centroid of the 10 fixes. Then offline: a second photo is refused
because the phone shakes during the countdown (the reason on screen, nothing stored), and a third
waits on the phone and arrives when the network is back. In German the stand-alone camera keeps a private photo through
the upload queue. Screenshots of the camera ready, counting and refusing, in English and German."""
import math
import re
from datetime import datetime, timezone

import pytest
from playwright.sync_api import expect
from pygeomag import GeoMag

from conftest import launch_chromium, messages, phones_on, username, wait_for_service_worker
from flows import sign_in
from photos_flows import PASSWORD, here, offset
from test_tasks import make_officer, make_user, task_through_api

# Needs a secure context (WebCrypto, the service worker, the camera, the position): met as a phone meets it.
pytestmark = pytest.mark.phone_origin

# The phone's sensors: every 50 ms a deviceorientationabsolute and a devicemotion event with the
# values of window.__sensors, which the test changes (shake: m/s² of acceleration).
SENSORS = """
window.__sensors = { alpha: 300, beta: 100, gamma: 8, shake: 0.03 };
setInterval(() => {
  const s = window.__sensors;
  if (!s.on) return;
  window.dispatchEvent(new DeviceOrientationEvent('deviceorientationabsolute', { alpha: s.alpha, beta: s.beta, gamma: s.gamma, absolute: true }));
  window.dispatchEvent(new DeviceMotionEvent('devicemotion', {
    acceleration: { x: s.shake, y: 0.01, z: 0.02 },
    accelerationIncludingGravity: { x: s.shake, y: 9.8, z: 0.02 },
    rotationRate: { alpha: 0, beta: 0, gamma: 0 }, interval: 50 }));
}, 50);
"""

ALPHA, BETA, GAMMA = 300.0, 100.0, 8.0


def camera_direction(alpha, beta, gamma):
    """Where the back camera (the device's −z axis) looks, from the W3C angles, worked out here on
    its own: R = Rz(alpha)·Rx(beta)·Ry(gamma) in east-north-up; azimuth from north, tilt up."""
    a, b, g = (math.radians(v) for v in (alpha, beta, gamma))
    # R·(0, 0, 1) = Rz(a)·Rx(b)·(sin g, 0, cos g)
    x, y, z = math.sin(g), 0.0, math.cos(g)
    x, y, z = x, y * math.cos(b) - z * math.sin(b), y * math.sin(b) + z * math.cos(b)
    x, y, z = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a), z
    east, north, up = -x, -y, -z
    return math.degrees(math.atan2(east, north)) % 360, math.degrees(math.asin(up))


def true_north(azimuth, place, when=None):
    """A magnetic azimuth turned into a true one with the declination of pygeomag (PyPI, NOAA's
    geomag program with the official WMM2025 coefficients), not the app's declination.js: the
    magnetic declination at the place (altitude on the ellipsoid when it has none), now."""
    when = when or datetime.now(timezone.utc)
    start, end = datetime(when.year, 1, 1, tzinfo=timezone.utc), datetime(when.year + 1, 1, 1, tzinfo=timezone.utc)
    year = when.year + (when - start) / (end - start)
    declination = GeoMag(coefficients_file="wmm/WMM_2025.COF").calculate(
        glat=place["latitude"], glon=place["longitude"], alt=(place.get("altitude") or 0) / 1000, time=year).d
    return (azimuth + declination) % 360


def apart(a, b):
    """Degrees between two directions."""
    return abs((a - b + 180) % 360 - 180)


def shown_degrees(locator):
    """The number of a readout such as "123.4°" (or "123,4°"), once it shows one."""
    expect(locator).to_have_text(re.compile(r"^-?\d+[.,]\d°$"))
    return float(locator.inner_text().rstrip("°").replace(",", "."))


@pytest.fixture(scope="module")
def camera_browser(playwright_instance, authority):
    """Chromium with its fake camera (a moving test picture) that needs no permission prompt."""
    browser = launch_chromium(playwright_instance, authority, ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"])
    yield browser
    browser.close()


@pytest.fixture
def camera_phone(camera_browser, server, request):
    """camera_phone(locale, geolocation) as conftest's phone_for, on the browser with the fake camera
    and with the sensors above; after the test it must have seen no problem."""
    def ready(phone):
        phone.context.grant_permissions(["geolocation", "camera"])
        phone.context.add_init_script(SENSORS)

    with phones_on(camera_browser, server, request, ready) as make:
        yield make


def officer_hands_out_a_task(api, tmp_path, user_name):
    officer_name = username("otto")
    make_officer(tmp_path, officer_name)
    signed_in = api.post("/api/v1/sessions", data={"username": officer_name, "password": PASSWORD})
    assert signed_in.status == 200, signed_in.text()
    token = signed_in.json()["token"]
    created = api.post("/api/v1/tasks", headers={"Authorization": f"Bearer {token}"},
                       data={"assignee": user_name, "name": "Field 12 gate", "instructions": "Photograph the gate from the road.", "dueDate": "2026-12-15"})
    assert created.status == 201, created.text()
    return created.json()["id"]


def use_centroid(page, samples):
    """The inspection settings as the settings page keeps them: the centroid on over `samples` fixes."""
    page.evaluate("(samples) => localStorage.setItem('waymark.inspection.settings', JSON.stringify({ centroid: true, samples, accuracy: 10, stillness: 0.6 }))", samples)


def sensors(page, **values):
    page.evaluate("(values) => Object.assign(window.__sensors, values)", values)


def fixes_around(centre, count):
    """`count` different positions within a few metres of `centre`, accurate to 4 m."""
    return [{**offset(centre, north=6 * math.cos(i * 2.3), east=8 * math.sin(i * 1.7)), "accuracy": 4} for i in range(count)]


def degrees(value, comma=False):
    """As the readout writes a latitude or longitude: six decimals and a degree sign."""
    text = f"{value:.6f}°"
    return text.replace(".", ",") if comma else text


def send_fixes(phone, fixes, comma=False):
    """Each fix as the phone's location service reports it; waits until the page shows it."""
    readout = phone.page.locator(".camera-readout")
    for fix in fixes:
        phone.context.set_geolocation(fix)
        expect(readout.locator(".camera-latitude")).to_have_text(degrees(fix["latitude"], comma))
        expect(readout.locator(".camera-longitude")).to_have_text(degrees(fix["longitude"], comma))


def hull_centroid(page, fixes):
    """The app's own hullCentroid (Web/inspection/geometry.js, checked against GeographicLib) of the fixes."""
    return page.evaluate("""async (points) => {
      const { hullCentroid } = await import('/inspection/geometry.js');
      return hullCentroid(points);
    }""", [{"latitude": f["latitude"], "longitude": f["longitude"]} for f in fixes])


def missing_text(m, key, **params):
    text = m[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def test_evidence_photos_for_a_task_centroid_refusal_and_offline(camera_phone, api, tmp_path):
    m = messages("en")
    user_name = username("ulla")
    user_token = make_user(api, user_name)
    task_id = officer_hands_out_a_task(api, tmp_path, user_name)
    spot = here()
    spot["accuracy"] = 4

    phone = camera_phone("en-US", geolocation=spot)
    page = phone.page
    page.goto("/account")
    assert sign_in(phone, "en", user_name, PASSWORD).status == 200
    use_centroid(page, 10)

    # The task page has a Camera button.
    page.goto(f"/tasks/{task_id}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Field 12 gate")
    page.get_by_role("link", name=m["task.camera"], exact=True).click()
    expect(page).to_have_url(re.compile(f"/tasks/{task_id}/camera$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(missing_text(m, "camera.heading.task", name="Field 12 gate"))
    video = page.locator("video.camera-video")
    expect(video).to_be_visible()
    expect(page.locator(".camera-problem")).to_be_hidden()

    # No motion data yet, positions still to collect: the shutter is off and says why.
    shutter = page.get_by_role("button", name=m["camera.shutter"], exact=True)
    missing = page.locator(".camera-missing")
    expect(shutter).to_be_disabled()
    expect(missing).to_contain_text(m["camera.missing.motion"])
    expect(missing).to_contain_text(missing_text(m, "camera.missing.centroid", samples=1, total=10))

    # The sensors start: the azimuth (true north: the compass plus pygeomag's declination at the
    # phone's place) and the tilt show what they say.
    sensors(page, on=True)
    magnetic, tilt = camera_direction(ALPHA, BETA, GAMMA)
    azimuth = true_north(magnetic, spot)
    shown = shown_degrees(page.locator(".camera-readout .camera-azimuth"))
    assert apart(shown, azimuth) < 1, (shown, azimuth, magnetic)
    expect(page.locator(".camera-readout .camera-tilt")).to_have_text(f"{tilt:.1f}°")

    # Ten different fixes: samples 10/10, the centroid, and then (still for 2 s) the shutter.
    fixes = fixes_around(spot, 10)
    send_fixes(phone, fixes)
    expect(page.locator(".camera-centroid .camera-samples")).to_have_text("10/10")
    expect(missing).to_have_text(m["camera.ready"])
    expect(shutter).to_be_enabled()
    phone.shot("1-ready")

    expected = hull_centroid(page, fixes)
    assert expected["ok"], expected
    centroid_box = page.get_by_role("region", name=m["camera.centroid"])
    expect(centroid_box.locator(".camera-centroid-latitude")).to_have_text(degrees(expected["latitude"]))
    expect(centroid_box.locator(".camera-centroid-longitude")).to_have_text(degrees(expected["longitude"]))

    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/tasks/{task_id}/photos") and r.request.method == "POST") as posted:
        shutter.click()
        countdown = page.locator(".camera-countdown")
        expect(countdown).to_have_text(missing_text(m, "camera.countdown", seconds=5))
        page.wait_for_timeout(1200)
        later = re.escape(m["camera.countdown"]).replace(re.escape("{seconds}"), "[1-4]")
        expect(countdown).to_have_text(re.compile(f"^{later}$"))
        phone.shot("2-counting")
    assert posted.value.status == 201, posted.value.text()
    expect(page.locator(".camera-result")).to_contain_text(m["camera.stored.sent"])

    photos = task_through_api(api, user_token, task_id)["photos"]
    assert len(photos) == 1
    photo = photos[0]
    assert abs((photo["azimuth"] - azimuth + 180) % 360 - 180) < 1, (photo["azimuth"], azimuth)
    assert abs(photo["tilt"] - tilt) < 1, (photo["tilt"], tilt)
    assert photo["centroid"]["samples"] == 10
    lats, lons = [f["latitude"] for f in fixes], [f["longitude"] for f in fixes]
    assert min(lats) < photo["centroid"]["latitude"] < max(lats)
    assert min(lons) < photo["centroid"]["longitude"] < max(lons)
    assert abs(photo["centroid"]["latitude"] - expected["latitude"]) < 1e-7
    assert abs(photo["centroid"]["longitude"] - expected["longitude"]) < 1e-7
    assert abs(photo["latitude"] - fixes[-1]["latitude"]) < 1e-7, "the photo's place is the last fix"
    assert photo["visibility"] == "private"
    shown = page.evaluate("() => { const v = document.querySelector('video.camera-video'); return [v.videoWidth, v.videoHeight]; }")
    assert photo["width"] * photo["height"] >= shown[0] * shown[1], f"the photo ({photo['width']}×{photo['height']}) has at least the preview's pixels {shown}"

    # Offline from here on, as in a field. A second photo: the phone shakes during the countdown,
    # so it is refused and nothing is kept.
    wait_for_service_worker(page)
    phone.context.set_offline(True)
    page.get_by_role("button", name=m["camera.another"]).click()
    send_fixes(phone, [{**offset(spot, north=1, east=-2), "accuracy": 4}])
    expect(shutter).to_be_enabled()
    shutter.click()
    expect(page.locator(".camera-countdown")).to_be_visible()
    page.wait_for_timeout(1500)
    sensors(page, shake=2.5)
    refusal = page.locator(".camera-refusal")
    expect(refusal).to_have_text(missing_text(m, "camera.refused", reason=m["camera.missing.moving"]))
    expect(page.locator(".camera-countdown")).to_be_hidden()
    expect(shutter).to_be_disabled()
    expect(missing).to_contain_text(m["camera.missing.moving"])
    phone.shot("3-refused")
    page.wait_for_timeout(1000)
    assert len(task_through_api(api, user_token, task_id)["photos"]) == 1, "the refused photo is not on the task"
    assert page.evaluate("""async () => {
      const { taskOutbox } = await import('/tasks/local.js');
      return (await taskOutbox().list()).length;
    }""") == 0, "nor waiting on the phone"

    # Still offline, a photo that is taken waits on the phone and arrives when the network is back.
    sensors(page, shake=0.03)
    send_fixes(phone, [{**offset(spot, north=-1, east=1), "accuracy": 4}])
    expect(shutter).to_be_enabled()
    shutter.click()
    expect(page.locator(".camera-result")).to_contain_text(m["camera.stored.waiting"], timeout=15000)
    phone.shot("4-waiting-offline")
    assert len(task_through_api(api, user_token, task_id)["photos"]) == 1, "nothing arrived while offline"
    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/tasks/{task_id}/photos") and r.request.method == "POST" and r.status == 201):
        phone.context.set_offline(False)
    expect(page.locator(".camera-result")).to_contain_text(m["camera.stored.sent"])
    photos = task_through_api(api, user_token, task_id)["photos"]
    assert len(photos) == 2, "the offline photo arrived once"
    assert photos[1]["centroid"]["samples"] == 10

    # Leaving the page stops the camera.
    page.evaluate("() => { window.__track = document.querySelector('video.camera-video').srcObject.getVideoTracks()[0]; }")
    assert page.evaluate("() => window.__track.readyState") == "live"
    page.get_by_role("link", name=m["camera.toTask"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Field 12 gate")
    expect(page.get_by_role("heading", name=m["task.photos"].replace("{count}", "2"))).to_be_visible()
    assert page.evaluate("() => document.querySelectorAll('video').length") == 0
    assert page.evaluate("() => window.__track.readyState") == "ended", "the camera is stopped"


def test_the_standalone_camera_in_german_keeps_a_private_photo(camera_phone, api, tmp_path):
    m = messages("de")
    user_name = username("uwe")
    user_token = make_user(api, user_name)
    spot = here()
    spot["accuracy"] = 4

    phone = camera_phone("de-DE", geolocation=spot)
    page = phone.page
    page.goto("/account")
    assert sign_in(phone, "de", user_name, PASSWORD).status == 200
    use_centroid(page, 10)
    page.goto("/camera")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["camera.title"])
    shutter = page.get_by_role("button", name=m["camera.shutter"], exact=True)
    missing = page.locator(".camera-missing")
    expect(missing).to_contain_text(m["camera.missing.motion"])
    sensors(page, on=True)
    fixes = fixes_around(spot, 10)
    send_fixes(phone, fixes, comma=True)
    expect(page.locator(".camera-centroid .camera-samples")).to_have_text("10/10")
    expect(missing).to_have_text(m["camera.ready"])
    phone.shot("1-bereit")

    shutter.click()
    expect(page.locator(".camera-countdown")).to_have_text(missing_text(m, "camera.countdown", seconds=5))
    phone.shot("2-countdown")
    page.wait_for_timeout(1000)
    sensors(page, shake=3)
    expect(page.locator(".camera-refusal")).to_have_text(missing_text(m, "camera.refused", reason=m["camera.missing.moving"]))
    phone.shot("3-abgelehnt")

    sensors(page, shake=0.02)
    send_fixes(phone, [{**offset(spot, north=2), "accuracy": 4}], comma=True)
    expect(shutter).to_be_enabled()
    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as posted:
        shutter.click()
        expect(page.locator(".camera-countdown")).to_be_visible()
    assert posted.value.status == 201, posted.value.text()
    photo = posted.value.json()
    expect(page.locator(".camera-result")).to_contain_text(m["camera.stored.sent"])
    phone.shot("4-gespeichert")
    assert photo["visibility"] == "private"
    magnetic, tilt = camera_direction(ALPHA, BETA, GAMMA)
    azimuth = true_north(magnetic, spot)
    assert apart(photo["azimuth"], azimuth) < 1 and abs(photo["tilt"] - tilt) < 1, (photo, azimuth)
    assert photo["centroid"]["samples"] == 10
    mine = api.get(f"/api/v1/photos/{photo['id']}", headers={"Authorization": f"Bearer {user_token}"})
    assert mine.status == 200, mine.text()


def test_without_a_camera_the_page_says_so_and_offers_no_file_instead(phone, api):
    """Chromium without the fake camera has none: the page says so, the shutter stays off, and no
    file input takes its place (evidence comes only from the live camera)."""
    m = messages("en")
    user_name = username("ulf")
    make_user(api, user_name)
    page = phone.page
    page.goto("/account")
    assert sign_in(phone, "en", user_name, PASSWORD).status == 200
    page.goto("/camera")
    problem = page.locator(".camera-problem")
    expect(problem).to_be_visible()
    assert problem.text_content() in (m["camera.error.none"], m["camera.error.denied"]), problem.text_content()
    expect(page.locator(".camera-missing")).to_contain_text(m["camera.missing.camera"])
    expect(page.get_by_role("button", name=m["camera.shutter"], exact=True)).to_be_disabled()
    assert page.locator("input[type=file]").count() == 0
    phone.shot("no-camera")

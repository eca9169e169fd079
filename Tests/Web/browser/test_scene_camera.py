"""The scene cameras (/scenes/new and /scenes/:id/retake, issue #14 points 4 and 5) on a phone, on
the real server, with Chromium's camera fed from a video file (MJPEG frames made here from a photo
drawn by ImageMagick), emulated positions and device orientation events sent as a phone's sensors
send them. User A captures a scene — reference, feet shot, the pin dragged on the map, a name —
and the stored place is the moved pin. User B nearby finds it first in the Nearby grid of
/scenes, opens it and retakes it: the navigation rectangle sits on
the dashed frame (within 2 px) when the emulated attitude is the reference's, and off it by what
the thesis' eq. 4.17 predicts — worked out here with its own quaternions — when it is not; the
overlay's opacity, Flip and the feet shot inside the camera; the comparison (overlay and wipe);
the upload. The timeline has both, oldest first, and both uploaded JPEGs carry the GPS position
and the direction in their Exif as exiftool reads it. Once in English and once in German, with
screenshots of every screen."""
import json
import math
import re
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import launch_chromium, messages, phones_on, username, wait_for_service_worker
from flows import sign_in
from photos_flows import PASSWORD, here, offset
from test_camera import true_north
from test_tasks import make_user

# Needs a secure context (WebCrypto, the service worker, the camera, the position): met as a phone meets it.
pytestmark = pytest.mark.phone_origin

# The phone's sensors: every 50 ms a deviceorientationabsolute event with window.__sensors' angles.
SENSORS = """
window.__sensors = { alpha: 300, beta: 90, gamma: 0, on: false };
setInterval(() => {
  const s = window.__sensors;
  if (!s.on) return;
  window.dispatchEvent(new DeviceOrientationEvent('deviceorientationabsolute', { alpha: s.alpha, beta: s.beta, gamma: s.gamma, absolute: true }));
}, 50);
"""

# The reference's attitude: upright, the back camera looking 60° west of north (alpha 300).
REFERENCE = {"alpha": 300.0, "beta": 90.0, "gamma": 0.0}


def text_of(m, key, **params):
    text = m[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


# ---- Attitude, worked out here on its own (W3C: R = Rz(alpha)·Rx(beta)·Ry(gamma)) ----

def q_multiply(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def q_axis(axis, degrees):
    half = math.radians(degrees) / 2
    s = math.sin(half)
    return (math.cos(half), *(s * c for c in axis))


def attitude(alpha, beta, gamma):
    return q_multiply(q_multiply(q_axis((0, 0, 1), alpha), q_axis((1, 0, 0), beta)), q_axis((0, 1, 0), gamma))


def rotation(alpha, beta, gamma):
    """R = Rz(alpha)·Rx(beta)·Ry(gamma) as a matrix, rows of columns."""
    a, b, g = (math.radians(v) for v in (alpha, beta, gamma))
    rz = [[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]]
    rx = [[1, 0, 0], [0, math.cos(b), -math.sin(b)], [0, math.sin(b), math.cos(b)]]
    ry = [[math.cos(g), 0, math.sin(g)], [0, 1, 0], [-math.sin(g), 0, math.cos(g)]]
    product = lambda p, q: [[sum(p[i][k] * q[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return product(product(rz, rx), ry)


def level_tilt(alpha, beta, gamma):
    """How far the screen is turned clockwise from level, degrees: the world's up in device
    coordinates (the matrix's last row) seen on the screen's plane."""
    up = rotation(alpha, beta, gamma)[2]
    return math.degrees(math.atan2(-up[0], up[1]))


def rectangle_offset(reference, current, width, height):
    """Eq. 4.17 of the thesis: qΔ = q0⁻¹·q1, ROLL and PITCH of qΔ, the centre's offset from the middle."""
    w0, x0, y0, z0 = reference
    w, x, y, z = q_multiply((w0, -x0, -y0, -z0), current)
    roll = math.atan2(-2 * x * z + 2 * w * y, z * z - y * y - x * x + w * w)
    pitch = math.asin(max(-1, min(1, 2 * y * z + 2 * w * x)))
    return roll / (2 * math.pi) * width, pitch / math.pi * height


def heading(alpha, beta, gamma):
    """Where the back camera (the device's −z axis) looks, degrees from the orientation's north
    (the compass's: magnetic; true_north adds pygeomag's declination)."""
    a, b, g = (math.radians(v) for v in (alpha, beta, gamma))
    east = -math.cos(a) * math.sin(g) - math.sin(a) * math.sin(b) * math.cos(g)
    north = -math.sin(a) * math.sin(g) + math.cos(a) * math.sin(b) * math.cos(g)
    return math.degrees(math.atan2(east, north)) % 360


def distance_m(a, b):
    north = (a["latitude"] - b["latitude"]) * 111_320
    east = (a["longitude"] - b["longitude"]) * 111_320 * math.cos(math.radians(a["latitude"]))
    return math.hypot(north, east)


# ---- The browser with a camera fed from a video file ----

@pytest.fixture(scope="module")
def scene_video(tmp_path_factory):
    """An MJPEG file (JPEG frames one after another, as Chromium's file capture reads them) of a
    made-up street: sky, a house with a door and a window, a road; the window changes colour
    from frame to frame so that the picture is a live one."""
    folder = tmp_path_factory.mktemp("scene-video")
    frames = []
    for i, window in enumerate(["gold", "orange", "khaki", "yellow"]):
        frame = folder / f"frame{i}.jpg"
        subprocess.run([
            "convert", "-size", "480x640", "gradient:skyblue-white",
            "-fill", "darkolivegreen", "-draw", "rectangle 0,430 480,640",
            "-fill", "slategray", "-draw", "polygon 0,640 480,640 300,430 180,430",
            "-fill", "firebrick", "-draw", "rectangle 90,220 390,440",
            "-fill", "saddlebrown", "-draw", "polygon 70,220 410,220 240,110",
            "-fill", "sienna", "-draw", "rectangle 210,330 270,440",
            "-fill", window, "-draw", "rectangle 120,260 180,310",
            "-fill", window, "-draw", "rectangle 300,260 360,310",
            "-quality", "88", str(frame)], check=True)
        frames.append(frame.read_bytes())
    video = folder / "street.mjpeg"
    video.write_bytes(b"".join(frames))
    return video


@pytest.fixture(scope="module")
def video_browser(playwright_instance, authority, scene_video):
    browser = launch_chromium(playwright_instance, authority, [
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={scene_video}"])
    yield browser
    browser.close()


@pytest.fixture
def scene_phone(video_browser, server, request):
    def ready(phone):
        phone.context.grant_permissions(["geolocation", "camera"])
        phone.context.add_init_script(SENSORS)

    with phones_on(video_browser, server, request, ready) as make:
        yield make


def sensors(page, **values):
    page.evaluate("(values) => Object.assign(window.__sensors, values)", values)


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def exif_of(api, token, url, tmp_path, name):
    answer = api.get(url, headers={"Authorization": f"Bearer {token}"})
    assert answer.status == 200, answer.text()
    path = tmp_path / name
    path.write_bytes(answer.body())
    return json.loads(subprocess.run(["exiftool", "-json", "-n", str(path)], check=True, capture_output=True, text=True).stdout)[0]


def numbers_in(text):
    return [float(n.replace(",", ".")) for n in re.findall(r"-?\d+[.,]\d+", text)]


@pytest.mark.parametrize("language,locale", [("en", "en-US"), ("de", "de-DE")])
def test_capture_a_scene_and_retake_it(scene_phone, api, tmp_path, language, locale):
    m = messages(language)
    spot = here()
    spot["accuracy"] = 5
    a_name, b_name = username("anna"), username("bert")
    a_token, b_token = make_user(api, a_name), make_user(api, b_name)

    # ---- User A captures a scene ----
    phone = scene_phone(locale, spot)
    page = phone.page
    # Signed out, the camera asks for a sign-in first and opens nothing.
    page.goto("/scenes/new")
    expect(page.get_by_text(m["sceneCamera.signInFirst"])).to_be_visible()
    assert page.locator("video").count() == 0
    phone.shot(f"{language}-00-new-signed-out")
    page.goto("/account")
    assert sign_in(phone, language, a_name, PASSWORD).status == 200
    page.goto("/scenes/new")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["sceneCamera.new.title"])
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.camera"])
    shutter = page.locator(".scene-shutter")
    # No orientation yet: the shutter waits for it and says so.
    expect(page.locator(".scene-waiting")).to_have_text(m["sceneCamera.waiting.attitude"])
    expect(shutter).to_be_disabled()
    # Nearly upright and leaning: the level rectangle is turned against the lean, so it stays level.
    sensors(page, on=True, alpha=300, beta=70, gamma=12)
    expect(shutter).to_be_enabled()
    expect(page.locator(".scene-level")).to_have_attribute("transform", f"rotate({-level_tilt(300, 70, 12):.2f} 150 200)")
    expect(page.locator(".scene-level.level")).to_have_count(0)
    sensors(page, **REFERENCE)
    expect(page.locator(".scene-level.level")).to_have_count(1)
    width = page.evaluate("() => document.querySelector('video.scene-video').videoWidth")
    assert width == 480, f"the camera gives {width} px, not the video file's 480"
    phone.shot(f"{language}-01-new-camera")

    shutter.click()
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.review"])
    expect(page.locator(".scene-review-image")).to_be_visible()
    phone.shot(f"{language}-02-new-review")
    # Back from the review to the camera and again: every step can go back.
    page.get_by_role("button", name=m["sceneCamera.again"]).click()
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.camera"])
    expect(shutter).to_be_enabled()
    shutter.click()
    page.get_by_role("button", name=m["sceneCamera.use"]).click()

    # The feet shot: the camera pointed at the ground.
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.feet"])
    expect(page.locator(".scene-hint")).to_have_text(m["sceneCamera.hint.feet"])
    sensors(page, beta=10)
    feet_shutter = page.get_by_role("button", name=m["sceneCamera.shutter.feet"])
    expect(feet_shutter).to_be_enabled()
    phone.shot(f"{language}-03-new-feet")
    feet_shutter.click()
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.feetReview"])
    phone.shot(f"{language}-04-new-feet-review")
    page.get_by_role("button", name=m["sceneCamera.use"]).click()

    # The map: the pin starts at the fix; dragged 60 px east and 40 px north.
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.map"])
    pin = page.locator(".scene-pin-marker")
    expect(pin).to_be_visible()
    expect(page.locator(".scene-pin")).to_contain_text(m["sceneCamera.map.atFix"].split("{")[0].strip())
    phone.shot(f"{language}-05-new-map")
    box = pin.bounding_box()
    x, y = centre(box)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + 6 * step, y - 4 * step)
    page.mouse.up()
    pin_text = page.locator(".scene-pin")
    expect(pin_text).to_contain_text(m["sceneCamera.map.moved"].split("{")[0].strip() or "m")
    moved = numbers_in(pin_text.inner_text())[-2:]
    pinned = {"latitude": moved[0], "longitude": moved[1]}
    assert pinned["latitude"] > spot["latitude"] and pinned["longitude"] > spot["longitude"], (pinned, spot)
    assert 3 < distance_m(pinned, spot) < 60, distance_m(pinned, spot)
    phone.shot(f"{language}-05b-new-map-moved")
    # Without a pointer: the focused pin moves with the arrow keys (and back).
    pin.focus()
    page.keyboard.press("ArrowRight")
    expect(pin_text).not_to_contain_text(f"{moved[1]:.6f}".replace(".", "," if language == "de" else "."))
    page.keyboard.press("ArrowLeft")
    expect(pin_text).to_contain_text(f"{moved[1]:.6f}".replace(".", "," if language == "de" else "."))
    # (Screen pixels there and back may leave the last digit of the latitude changed.)
    moved = numbers_in(pin_text.inner_text())[-2:]
    pinned = {"latitude": moved[0], "longitude": moved[1]}
    # Back to the feet shot's review and forward again keeps the moved pin.
    page.locator(".scene-back").click()
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.feetReview"])
    page.get_by_role("button", name=m["sceneCamera.use"]).click()
    expect(pin_text).to_contain_text(f"{moved[0]:.6f}".replace(".", "," if language == "de" else "."))
    page.locator(".scene-map-next").click()

    # Overview: a name, then the upload with its Idempotency-Key.
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.overview"])
    page.get_by_label(m["sceneCamera.overview.name"]).fill("Red house on the corner")
    phone.shot(f"{language}-06-new-overview")
    # The first attempt loses the network: the page says the scene is kept on the phone, and
    # Try sending now sends the first attempt's Idempotency-Key.
    keys = []

    def lose_the_first(route):
        keys.append(route.request.header_value("idempotency-key"))
        if len(keys) == 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/api/v1/scenes", lose_the_first)
    page.locator(".scene-upload").click()
    expect(page.locator(".scene-kept")).to_be_visible()
    expect(page.locator(".scene-kept")).to_contain_text(m["sceneCamera.upload.kept"])
    expect(page.locator(".scene-upload-problem")).to_be_hidden()
    expect(page.locator(".scene-upload")).to_have_text(m["sceneCamera.upload.sendNow"])
    phone.shot(f"{language}-06b-new-upload-lost")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/scenes") and r.request.method == "POST") as posted:
        page.locator(".scene-upload").click()
    assert posted.value.status == 201, posted.value.text()
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1], f"the retry must send the first attempt's Idempotency-Key: {keys}"
    scene = posted.value.json()
    scene_id = scene["id"]
    expect(page).to_have_url(re.compile(f"/scenes/{scene_id}$"))

    stored = api.get(f"/api/v1/scenes/{scene_id}", headers={"Authorization": f"Bearer {a_token}"}).json()
    assert stored["name"] == "Red house on the corner"
    assert distance_m(stored, pinned) < 0.2, (stored["latitude"], stored["longitude"], pinned)
    assert stored["feetShot"] is not None
    q = attitude(**REFERENCE)
    got = stored["attitude"]
    assert abs(abs(sum(a * b for a, b in zip(q, (got["w"], got["x"], got["y"], got["z"])))) - 1) < 1e-9, (got, q)
    # The heading is against true north: the compass plus pygeomag's declination at the fix.
    expected_heading = true_north(heading(**REFERENCE), spot)
    assert abs(stored["heading"] - expected_heading) < 0.05, (stored["heading"], expected_heading)
    tags = exif_of(api, a_token, stored["reference"]["urls"]["original"], tmp_path, "reference.jpg")
    assert abs(tags["GPSLatitude"] - pinned["latitude"]) < 1e-6 and abs(abs(tags["GPSLongitude"]) - abs(pinned["longitude"])) < 1e-6, tags
    assert abs(tags["GPSImgDirection"] - expected_heading) < 0.05 and tags["GPSImgDirectionRef"] == "T", tags
    assert tags["ImageWidth"] == 480 and tags["ImageDescription"].startswith("waymark-attitude "), tags
    feet_tags = exif_of(api, a_token, stored["feetShot"]["urls"]["original"], tmp_path, "feet.jpg")
    assert abs(feet_tags["GPSLatitude"] - pinned["latitude"]) < 1e-6, feet_tags
    # The feet shot was taken looking down (beta 10): its attitude is its own moment's.
    feet_attitude = json.loads(feet_tags["ImageDescription"].removeprefix("waymark-attitude "))
    q_feet = attitude(REFERENCE["alpha"], 10, 0)
    assert abs(abs(sum(a * b for a, b in zip(q_feet, (feet_attitude["w"], feet_attitude["x"], feet_attitude["y"], feet_attitude["z"])))) - 1) < 1e-9, feet_attitude

    # ---- User B, 20 m away, retakes it ----
    spot_b = {**offset(spot, north=15, east=-13), "accuracy": 6}
    other = scene_phone(locale, spot_b)
    page = other.page
    page.goto("/account")
    assert sign_in(other, language, b_name, PASSWORD).status == 200
    # Discover: the scene is the first cell of the Nearby grid (nearest first); its page has Retake.
    page.goto("/scenes")
    first = page.locator(".scenes-grid a[data-scene]").first
    expect(first).to_have_attribute("data-scene", scene_id)
    other.shot(f"{language}-07a-discover")
    first.click()
    expect(page).to_have_url(re.compile(f"/scenes/{scene_id}$"))
    page.locator(f'a[href="/scenes/{scene_id}/retake"]').click()
    expect(page).to_have_url(re.compile(f"/scenes/{scene_id}/retake$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(text_of(m, "sceneCamera.retake.heading", name="Red house on the corner"))
    navigation, target = page.locator(".scene-navigation"), page.locator(".scene-target")

    # The attitude of the reference: the rectangle covers the dashed frame.
    sensors(page, on=True, **REFERENCE)
    expect(navigation).to_be_visible()
    expect(page.locator(".scene-alignment")).to_have_text(m["sceneCamera.retake.aligned"])
    page.wait_for_timeout(300)
    (nx, ny), (tx, ty) = centre(navigation.bounding_box()), centre(target.bounding_box())
    assert abs(nx - tx) < 2 and abs(ny - ty) < 2, ((nx, ny), (tx, ty))
    other.shot(f"{language}-07-retake-aligned")

    # Turned 14° left and tilted 6° down: off the frame by what eq. 4.17 says.
    sensors(page, alpha=314, beta=84)
    expect(page.locator(".scene-alignment")).to_have_text(m["sceneCamera.retake.align"])
    page.wait_for_timeout(300)
    view = page.locator(".scene-view-retake").bounding_box()
    dx, dy = rectangle_offset(attitude(**REFERENCE), attitude(314, 84, 0), view["width"], view["height"])
    assert abs(dx) > 10 and abs(dy) > 10, (dx, dy)
    (nx, ny), (tx, ty) = centre(navigation.bounding_box()), centre(target.bounding_box())
    assert abs((nx - tx) - dx) < 2 and abs((ny - ty) - dy) < 2, ((nx - tx, ny - ty), (dx, dy))
    other.shot(f"{language}-08-retake-off")

    # The overlay's opacity on its slider; Flip to the reference and back; the feet shot inside the camera.
    overlay = page.locator(".scene-overlay")
    expect(overlay).to_have_attribute("opacity", "0.5")
    page.get_by_label(m["sceneCamera.retake.opacity"]).fill("20")
    expect(overlay).to_have_attribute("opacity", "0.2")
    flip = page.get_by_role("button", name=m["sceneCamera.retake.flip"])
    flip.click()
    expect(overlay).to_have_attribute("opacity", "1")
    expect(page.locator("video.scene-video")).to_be_hidden()
    other.shot(f"{language}-09-retake-flipped")
    page.get_by_role("button", name=m["sceneCamera.retake.flipBack"]).click()
    expect(overlay).to_have_attribute("opacity", "0.2")
    expect(page.locator("video.scene-video")).to_be_visible()
    page.get_by_role("button", name=m["sceneCamera.retake.feet"]).click()
    expect(page.locator(".scene-feet-inside")).to_be_visible()
    expect(page.get_by_role("button", name=m["sceneCamera.retake.feetHide"])).to_have_attribute("aria-pressed", "true")
    sensors(page, **REFERENCE)
    expect(page.locator(".scene-alignment")).to_have_text(m["sceneCamera.retake.aligned"])
    other.shot(f"{language}-10-retake-feet")
    page.evaluate("() => { window.__retakeStream = document.querySelector('video.scene-video').srcObject; }")

    # The shutter, then the comparison: overlay and wipe on one slider.
    page.locator(".scene-shutter").click()
    expect(page.locator(".scene-step-compare .scene-step-title")).to_have_text(m["sceneCamera.step.compare"])
    newer = page.locator(".scene-compare-new")
    expect(newer).to_have_attribute("opacity", "0.5")
    page.get_by_label(m["sceneCamera.compare.slider"]).fill("70")
    expect(newer).to_have_attribute("opacity", "0.7")
    other.shot(f"{language}-11-compare-overlay")
    page.get_by_label(m["sceneCamera.compare.wipe"]).check()
    page.get_by_label(m["sceneCamera.compare.slider"]).fill("40")
    expect(newer).to_have_attribute("opacity", "1")
    expect(newer).to_have_attribute("clip-path", re.compile(r"url\(#scene-wipe-\d+\)"))
    expect(page.locator(".scene-compare-divider")).to_have_attribute("x1", "192.0")
    other.shot(f"{language}-12-compare-wipe")
    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/scenes/{scene_id}/photos") and r.request.method == "POST") as posted:
        page.get_by_role("button", name=m["sceneCamera.retake.upload"]).click()
    assert posted.value.status == 201, posted.value.text()
    expect(page).to_have_url(re.compile(f"/scenes/{scene_id}$"))
    other.shot(f"{language}-13-scene-after")

    # The timeline: the reference, then the rephotograph; the rephotograph's Exif says where B stood.
    timeline = api.get(f"/api/v1/scenes/{scene_id}/timeline").json()["items"]
    assert [item["kind"] for item in timeline] == ["reference", "rephotograph"], timeline
    assert timeline[0]["photo"]["id"] == stored["reference"]["id"]
    tags = exif_of(api, b_token, api.get(f"/api/v1/scenes/{scene_id}", headers={"Authorization": f"Bearer {b_token}"}).json()["rephotographs"][0]["photo"]["urls"]["original"], tmp_path, "rephotograph.jpg")
    assert abs(tags["GPSLatitude"] - spot_b["latitude"]) < 1e-6, (tags["GPSLatitude"], spot_b)
    assert abs(tags["GPSImgDirection"] - true_north(heading(**REFERENCE), spot_b)) < 0.05 and tags["GPSImgDirectionRef"] == "T", tags
    # The camera was stopped when the page went on (no track still live).
    assert page.evaluate("() => window.__retakeStream.getTracks().every((track) => track.readyState === 'ended')")


def test_without_a_camera_the_page_says_so(phone_for, api):
    """A browser with no camera (the plain test browser): the page says there is none, and no
    shutter or "waiting for the camera" is left to confuse; in German the same."""
    for language, locale in (("en", "en-US"), ("de", "de-DE")):
        m = messages(language)
        name = username("carl")
        make_user(api, name)
        phone = phone_for(locale, here())
        page = phone.page
        page.goto("/account")
        assert sign_in(phone, language, name, PASSWORD).status == 200
        page.goto("/scenes/new")
        problem = page.locator(".scene-camera-problem")
        expect(problem).to_be_visible()
        expect(problem).to_have_text(re.compile("|".join(re.escape(m[key].split("{")[0]) for key in (
            "sceneCamera.camera.none", "sceneCamera.camera.denied", "sceneCamera.camera.failed"))))
        expect(page.locator(".scene-shutter")).to_be_hidden()
        expect(page.locator(".scene-waiting")).to_be_hidden()
        phone.shot(f"{language}-no-camera")


# ---- Offline: kept on the phone, sent once when the network is back ----

def capture_until_overview(page, m, name):
    """The new-scene camera from the reference to the overview with a name (the pin where the fix is)."""
    sensors(page, on=True, **REFERENCE)
    page.locator(".scene-shutter").click()
    page.get_by_role("button", name=m["sceneCamera.use"]).click()
    sensors(page, beta=10)
    page.get_by_role("button", name=m["sceneCamera.shutter.feet"]).click()
    page.get_by_role("button", name=m["sceneCamera.use"]).click()
    expect(page.locator(".scene-pin-marker")).to_be_visible()
    page.locator(".scene-map-next").click()
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.overview"])
    page.get_by_label(m["sceneCamera.overview.name"]).fill(name)
    sensors(page, **REFERENCE)


def reopen(phone, path):
    """The page is closed (a tab swiped away) and the app opened again in a new one."""
    phone.page.close()
    page = phone.context.new_page()
    phone.watch(page)
    phone.page = page
    page.goto(path)
    return page


def my_scenes(api, token):
    answer = api.get("/api/v1/me/scenes?limit=50", headers={"Authorization": f"Bearer {token}"})
    assert answer.status == 200, answer.text()
    return answer.json()["items"]


@pytest.mark.parametrize("language,locale", [("en", "en-US"), ("de", "de-DE")])
def test_scenes_made_offline_wait_on_the_phone_and_arrive_once(scene_phone, api, language, locale):
    """A scene made without a network is kept on the phone; the page is closed; opened again still
    offline, My scenes lists it as waiting; when the network returns it arrives, once, and the
    person is told. The same for a rephotograph, this time sent when the app is opened again
    online. A rephotograph kept while its scene is deleted is refused, says why, and is discarded."""
    m = messages(language)
    spot = {**here(), "accuracy": 5}
    name = username("olga")
    token = make_user(api, name)
    phone = scene_phone(locale, spot)
    page = phone.page
    page.goto("/account")
    assert sign_in(phone, language, name, PASSWORD).status == 200
    page.goto("/scenes/new")
    wait_for_service_worker(page)
    posts = []
    phone.context.on("request", lambda r: posts.append(r) if r.method == "POST" and "/api/v1/scenes" in r.url else None)

    # ---- A new scene, the network gone at the upload ----
    capture_until_overview(page, m, "Well by the mill")
    phone.context.set_offline(True)
    page.locator(".scene-upload").click()
    kept = page.locator(".scene-kept")
    expect(kept).to_be_visible()
    expect(kept).to_contain_text(m["sceneCamera.upload.kept"])
    expect(kept.get_by_role("link", name=m["sceneOutbox.waitingLink"])).to_have_attribute("href", "/me/scenes")
    expect(page.locator(".scene-upload")).to_have_text(m["sceneCamera.upload.sendNow"])
    phone.shot(f"{language}-20-new-kept-offline")

    # Closed, and opened again still offline (the service worker's shell): the scene waits.
    page = reopen(phone, "/me/scenes")
    waiting = page.locator(".scene-outbox-item")
    expect(waiting).to_have_count(1)
    scene_title = text_of(m, "sceneOutbox.scene", name="Well by the mill")
    expect(waiting).to_contain_text(scene_title)
    expect(waiting).to_contain_text(m["sceneOutbox.state.waiting"])
    expect(page.locator(".scene-outbox-thumb")).to_be_visible()
    expect(page.get_by_text(m["scenes.mine.offline"])).to_be_visible()
    phone.shot(f"{language}-21-mine-waiting-offline")
    assert my_scenes(api, token) == [], "nothing reached the server while offline"

    # The network returns: it goes, once, and the person is told.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/scenes") and r.request.method == "POST" and r.status == 201) as sent:
        phone.context.set_offline(False)
    scene_id = sent.value.json()["id"]
    expect(page.locator("#status")).to_have_text(text_of(m, "sceneOutbox.status.sent", title=scene_title))
    expect(page.locator(".scene-outbox")).to_be_hidden()
    expect(page.locator(f'.scenes-grid a[data-scene="{scene_id}"]')).to_be_visible()
    phone.shot(f"{language}-22-mine-arrived")
    stored = my_scenes(api, token)
    assert [item["name"] for item in stored] == ["Well by the mill"], "exactly one scene arrived"
    scene = api.get(f"/api/v1/scenes/{scene_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert scene["feetShot"] is not None and abs(scene["latitude"] - spot["latitude"]) < 1e-4
    scene_posts = [r for r in posts if r.url.endswith("/api/v1/scenes")]
    assert len({r.header_value("idempotency-key") for r in scene_posts}) == 1, "every attempt carried one Idempotency-Key"

    # ---- A rephotograph, the network gone at the upload ----
    page.goto(f"/scenes/{scene_id}/retake")
    sensors(page, on=True, **REFERENCE)
    expect(page.locator(".scene-alignment")).to_have_text(m["sceneCamera.retake.aligned"])
    page.locator(".scene-shutter").click()
    expect(page.locator(".scene-step-compare .scene-step-title")).to_have_text(m["sceneCamera.step.compare"])
    phone.context.set_offline(True)
    page.get_by_role("button", name=m["sceneCamera.retake.upload"]).click()
    expect(page.locator(".scene-kept")).to_be_visible()
    expect(page.locator(".scene-kept")).to_contain_text(m["sceneCamera.retake.kept"])
    expect(page.locator(".scene-upload")).to_have_text(m["sceneCamera.upload.sendNow"])
    phone.shot(f"{language}-23-retake-kept-offline")
    # Closed offline; opened again once online, on the home page: the app sends it at start.
    phone.page.close()
    phone.context.set_offline(False)
    with phone.context.expect_event("response", lambda r: r.url.endswith(f"/api/v1/scenes/{scene_id}/photos") and r.status == 201):
        page = reopen(phone, "/")
    retake_title = text_of(m, "sceneOutbox.rephotograph", name="Well by the mill")
    expect(page.locator("#status")).to_have_text(text_of(m, "sceneOutbox.status.sent", title=retake_title))
    detail = api.get(f"/api/v1/scenes/{scene_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert len(detail["rephotographs"]) == 1, "exactly one rephotograph arrived"
    retake_posts = [r for r in posts if r.url.endswith("/photos")]
    assert len({r.header_value("idempotency-key") for r in retake_posts}) == 1

    # ---- A rephotograph kept while its scene is deleted: refused, and saying why ----
    page.goto(f"/scenes/{scene_id}/retake")
    sensors(page, on=True, **REFERENCE)
    page.locator(".scene-shutter").click()
    phone.context.set_offline(True)
    page.get_by_role("button", name=m["sceneCamera.retake.upload"]).click()
    expect(page.locator(".scene-kept")).to_be_visible()
    assert api.delete(f"/api/v1/scenes/{scene_id}", headers={"Authorization": f"Bearer {token}"}).status == 204
    page = reopen(phone, "/me/scenes")
    expect(page.locator(".scene-outbox-item")).to_contain_text(m["sceneOutbox.state.waiting"])
    phone.context.set_offline(False)
    refused = page.locator(".scene-outbox-item.failed")
    expect(refused).to_contain_text(m["sceneOutbox.sceneGone"])
    expect(refused.get_by_role("button", name=text_of(m, "sceneOutbox.retryLabel", title=retake_title))).to_be_visible()
    phone.shot(f"{language}-24-mine-refused")
    refused.get_by_role("button", name=text_of(m, "sceneOutbox.discardLabel", title=retake_title)).click()
    expect(page.locator(".scene-outbox")).to_be_hidden()
    expect(page.locator("#status")).to_have_text(text_of(m, "sceneOutbox.status.discarded", title=retake_title))

    # Opened offline from the start, the camera does not ask for a sign-in the server cannot
    # confirm: the scene is made and waits (the server judges the account when it arrives).
    phone.context.set_offline(True)
    page.goto("/scenes/new")
    expect(page.locator(".scene-step-title")).to_have_text(m["sceneCamera.step.camera"])
    expect(page.get_by_text(m["sceneCamera.signInFirst"])).to_have_count(0)
    phone.context.set_offline(False)


# Version 3 of the app's database (before the scene outbox), with a photo waiting and a vault record.
DATABASE_3 = """async () => {
  const request = indexedDB.open('waymark', 3);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const name of ['uploads', 'routes', 'routeDeletes', 'keeper', 'vault']) db.createObjectStore(name, { keyPath: 'id' });
    db.createObjectStore('vaultRecords', { keyPath: 'id', autoIncrement: true });
    db.createObjectStore('routeFixes', { autoIncrement: true }).createIndex('routeId', 'routeId', { unique: false });
  };
  const db = await new Promise((resolve, reject) => { request.onsuccess = () => resolve(request.result); request.onerror = () => reject(request.error); });
  const tx = db.transaction(['uploads', 'vaultRecords', 'keeper'], 'readwrite');
  tx.objectStore('uploads').put({ id: 'old-upload', key: 'old-key', createdAt: 1, attempts: 1, state: 'failed', fields: { title: 'Old' },
    name: 'old.jpg', type: 'image/jpeg', data: new Uint8Array([1, 2, 3]).buffer, error: { status: 415, code: 'not_an_image', reason: '' }, photo: null });
  tx.objectStore('vaultRecords').add({ timestamp: '2026-01-01T00:00:00Z', latitude: 1, longitude: 2 });
  tx.objectStore('keeper').put({ id: 'settings', value: 'kept' });
  await new Promise((resolve) => { tx.oncomplete = resolve; });
  db.close();
  return db.version;
}"""


def test_the_database_of_version_3_gets_the_scene_outbox_and_keeps_its_data(phone_for):
    m = messages("en")
    phone = phone_for("en-US")
    page = phone.page
    page.goto("/healthz")
    assert page.evaluate(DATABASE_3) == 3
    page.goto("/me/scenes")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["scenes.mine.heading"])
    state = page.evaluate("""async () => {
      const store = await import('/app/store.js');
      const uploads = await store.records('uploads').all();
      const settings = await store.records('keeper').get('settings');
      const vault = await store.numberedRecords('vaultRecords').count();
      const waiting = await store.records('sceneOutbox').all();
      const db = await new Promise((resolve) => { const r = indexedDB.open('waymark'); r.onsuccess = () => resolve(r.result); });
      const result = { version: db.version, stores: [...db.objectStoreNames].sort(), uploads: uploads.map((u) => u.id), settings: settings.value, vault, waiting: waiting.length };
      db.close();
      return result;
    }""")
    # Version 4 added the scene outbox; 5 the tasks' and paths' stores (Web/app/store.js).
    assert state == {"version": 5, "stores": ["keeper", "paths", "routeDeletes", "routeFixes", "routes", "sceneOutbox", "taskOutbox", "tasks",
                                              "uploads", "vault", "vaultRecords"],
                     "uploads": ["old-upload"], "settings": "kept", "vault": 1, "waiting": 0}
    expect(page.locator(".scene-outbox")).to_be_hidden()

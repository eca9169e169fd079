"""The field-inspection main screen (/inspection) and its settings (/inspection/settings), issue #15
point 7, on a phone on the real server: the Basic info traffic lights turn green with an emulated
position, the online light follows the network, a refused position is red; a fix less accurate
than the settings' threshold is yellow; the settings are kept through a reload, Default and Set
default values restore them, a wrong sampling number is refused with its reason; an external
receiver (a stand-in navigator.serial whose port streams a real receiver's NMEA log, GPSD's
BU-353S4 capture) connected in the settings becomes the source of the main screen's position, and
when it is unplugged the phone is again, with the reason on screen. English and German."""
import base64
import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import REPO, messages, wait_for_service_worker

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
pytestmark = pytest.mark.database_independent

FIXTURES = Path(os.environ["WAYMARK_FIXTURES"]) if os.environ.get("WAYMARK_FIXTURES") else REPO.parent / "shared" / "fixtures"
LOG = FIXTURES / "nmea" / "bu353s4.log"
BERLIN = {"latitude": 52.52, "longitude": 13.405, "accuracy": 5}
VERSION = re.search(r"VERSION = '([^']+)'", (REPO / "Web" / "app" / "shell-manifest.js").read_text(encoding="utf-8")).group(1)

# A stand-in for Web Serial: one USB port (a Prolific PL2303, as in the BU-353S4) whose stream
# plays the log in chunks of 1–64 bytes every 10 ms, over and over, as a receiver sends each second;
# window.__serial.fail = true makes the next read fail as an unplugged device does.
FAKE_SERIAL = """
(() => {
  const log = Uint8Array.from(atob('%s'), (c) => c.charCodeAt(0));
  const state = window.__serial = { opened: [], chunks: 0, passes: 0, closed: 0, fail: false };
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) %% 2147483648) / 2147483648;
  const port = {
    readable: null,
    getInfo: () => ({ usbVendorId: 0x067b, usbProductId: 0x2303 }),
    async open({ baudRate }) {
      state.opened.push(baudRate);
      let at = 0;
      port.readable = new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          if (state.fail) {
            port.readable = null;
            controller.error(new DOMException('The device has been lost.', 'NetworkError'));
            return;
          }
          const size = 1 + Math.floor(random() * 64);
          controller.enqueue(log.slice(at, at + size));
          state.chunks += 1;
          at += size;
          if (at >= log.length) { at = 0; state.passes += 1; }
        },
      });
    },
    async close() { state.closed += 1; port.readable = null; },
  };
  Object.defineProperty(Navigator.prototype, 'serial', {
    configurable: true, get: () => ({ requestPort: async () => port, getPorts: async () => [port] }),
  });
})();
""" % base64.b64encode(LOG.read_bytes()).decode()

NO_SERIAL = "delete Navigator.prototype.serial;"


def log_positions(hemispheres=("N", "S", "E", "W"), point="."):
    """Every position of the log's valid RMC sentences as the page writes it (six decimals, the
    language's hemisphere letters and decimal sign)."""
    north, south, east, west = hemispheres
    found = set()
    for line in LOG.read_text(encoding="latin-1").splitlines():
        fields = line.split(",")
        if len(fields) > 6 and fields[0].endswith("RMC") and fields[2] == "A":
            lat = int(fields[3][:2]) + float(fields[3][2:]) / 60
            lon = int(fields[5][:3]) + float(fields[5][3:]) / 60
            found.add(f"{lat:.6f}° {south if fields[4] == 'S' else north}, {lon:.6f}° {west if fields[6] == 'W' else east}".replace(".", point))
    assert len(found) > 5, found
    return found


def light(page, name):
    return page.locator(f".inspection-light[data-light='{name}']")


def expect_light(page, m, name, colour, key, **params):
    """The light has its colour and says so in words (the sentence, and the colour for screen readers)."""
    item = light(page, name)
    expect(item).to_have_attribute("data-colour", colour)
    text = m[key]
    for placeholder, value in params.items():
        text = text.replace("{" + placeholder + "}", str(value))
    expect(item.locator(".light-says")).to_have_text(text)
    expect(item.locator(".visually-hidden")).to_have_text(f" ({m['inspection.colour.' + colour]})")


def top(phone, step):
    phone.page.evaluate("window.scrollTo(0, 0)")
    phone.shot(step)


def at(phone, selector, step):
    """A screenshot with `selector` at the top of the screen."""
    phone.page.locator(selector).evaluate("(element) => element.scrollIntoView({ block: 'start' })")
    phone.shot(step)


def test_the_lights_turn_green_follow_the_network_and_the_threshold(phone_for):
    m = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page
    page.goto("/inspection")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["inspection.title"])
    expect(page.get_by_role("heading", name=m["inspection.basicInfo"])).to_be_visible()
    expect(page.locator(".inspection-light")).to_have_count(6)
    expect_light(page, m, "location", "green", "inspection.light.location.fix")
    expect_light(page, m, "accuracy", "green", "inspection.light.accuracy.good", accuracy=5, threshold=10)
    expect_light(page, m, "online", "green", "inspection.light.online.yes")
    # The position and where it comes from.
    expect(page.locator(".inspection-source")).to_have_text(m["inspection.source.device"])
    expect(page.locator(".inspection-coordinates")).to_have_text("52.520000° N, 13.405000° E")
    expect(page.locator(".inspection-accuracy")).to_have_text("5 m")

    # The offline copy: green once the service worker is active.
    wait_for_service_worker(page)
    expect_light(page, m, "serviceWorker", "green", "inspection.light.serviceWorker.ready")
    # Motion sensors: yellow until an event with a reading arrives (a desktop's all-null event does
    # not count). Where the browser asks for them first (iOS Safari; this Chromium has the question
    # too), a button asks: refused, it says what that means; allowed, it goes.
    expect_light(page, m, "motion", "yellow", "inspection.light.motion.waiting")
    if page.evaluate("typeof DeviceMotionEvent.requestPermission === 'function'"):
        allow = page.get_by_role("button", name=m["inspection.motion.allow"])
        allow.click()
        expect(page.locator("#status")).to_have_text(m["inspection.motion.refused"])
        expect(allow).to_be_visible()
        phone.context.grant_permissions(["accelerometer", "gyroscope", "magnetometer"])
        allow.click()
        expect(allow).to_be_hidden()
    page.evaluate("window.dispatchEvent(new DeviceMotionEvent('devicemotion', {}))")
    expect_light(page, m, "motion", "yellow", "inspection.light.motion.waiting")
    page.evaluate("window.dispatchEvent(new DeviceMotionEvent('devicemotion', { accelerationIncludingGravity: { x: 0.1, y: 9.7, z: 0.3 } }))")
    expect_light(page, m, "motion", "green", "inspection.light.motion.seen")
    expect(page.get_by_role("button", name=m["inspection.motion.allow"])).to_be_hidden()
    # The camera: as the browser's device list says (this headless Chromium may have none).
    has_camera = page.evaluate("navigator.mediaDevices.enumerateDevices().then((list) => list.some((d) => d.kind === 'videoinput'))")
    if has_camera:
        expect_light(page, m, "camera", "green", "inspection.light.camera.present")
    else:
        expect_light(page, m, "camera", "yellow", "inspection.light.camera.none")
    top(phone, "1-ready")

    # Offline, then online again: the light follows, live, and the change is announced.
    phone.context.set_offline(True)
    expect_light(page, m, "online", "yellow", "inspection.light.online.no")
    expect(page.locator("#status")).to_contain_text(m["inspection.light.online.no"])
    top(phone, "2-offline")
    phone.context.set_offline(False)
    expect_light(page, m, "online", "green", "inspection.light.online.yes")

    # A fix worse than the threshold is yellow, with both numbers.
    phone.context.set_geolocation({"latitude": 52.5201, "longitude": 13.4051, "accuracy": 25})
    expect_light(page, m, "accuracy", "yellow", "inspection.light.accuracy.poor", accuracy=25, threshold=10)
    expect(page.locator(".inspection-coordinates")).to_have_text("52.520100° N, 13.405100° E")

    # The modules, and About with the shell's version.
    nav = page.get_by_role("navigation", name=m["inspection.modules"])
    for key, href in (("photos", "/camera"), ("tasks", "/tasks"), ("map", "/paths"), ("sky", "/sky"), ("settings", "/inspection/settings")):
        expect(nav.get_by_role("link", name=m[f"inspection.module.{key}"], exact=True)).to_have_attribute("href", href)
    boxes = [nav.get_by_role("link", name=m[f"inspection.module.{key}"], exact=True).bounding_box() for key in ("photos", "tasks")]
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes), boxes
    nav.get_by_role("button", name=m["inspection.module.about"]).click()
    about = page.get_by_role("dialog", name=m["inspection.about.title"])
    expect(about).to_be_visible()
    expect(about.locator(".inspection-version")).to_have_text(VERSION)
    expect(about).to_contain_text(m["inspection.about.leaflet"])
    phone.shot("3-about")
    about.get_by_role("button", name=m["inspection.about.close"]).click()
    expect(about).to_be_hidden()

    # A module opens in the app (no reload).
    nav.get_by_role("link", name=m["inspection.module.sky"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/sky$"))


def test_a_refused_position_is_red(phone_for):
    m = messages("en")
    phone = phone_for("en-US")
    page = phone.page
    phone.context.clear_permissions()
    page.goto("/inspection")
    expect_light(page, m, "location", "red", "inspection.light.location.denied")
    expect_light(page, m, "accuracy", "yellow", "inspection.light.accuracy.unknown", threshold=10)
    expect(page.locator(".inspection-nofix")).to_have_text(m["inspection.position.none"])
    expect(page.locator(".inspection-coordinates")).to_have_count(0)
    top(phone, "denied")


def test_settings_are_kept_defaults_restore_them_and_a_wrong_number_is_refused(phone_for):
    m = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page
    page.goto("/inspection/settings")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["inspection.settings.title"])
    switch = page.get_by_role("switch", name=m["inspection.settings.centroid"])
    samples = page.get_by_label(m["inspection.settings.samples"], exact=True)
    accuracy = page.get_by_label(m["inspection.settings.accuracy"], exact=True)
    stillness = page.get_by_label(m["inspection.settings.stillness"], exact=True)
    saved = page.locator(".saved-line")
    expect(switch).not_to_be_checked()
    expect(samples).to_have_value("10")
    expect(accuracy).to_have_value("10")
    expect(stillness).to_have_value("0.6")

    switch.check()
    expect(saved).to_have_text(m["inspection.settings.saved"])
    samples.fill("25")
    samples.press("Tab")
    expect(saved).to_have_text(m["inspection.settings.saved"])
    accuracy.fill("3")
    accuracy.press("Enter")
    expect(saved).to_have_text(m["inspection.settings.saved"])
    page.reload()
    expect(switch).to_be_checked()
    expect(samples).to_have_value("25")
    expect(accuracy).to_have_value("3")

    # A wrong number: its own message, marked, not kept (a reload shows the kept one).
    samples.fill("1")
    samples.press("Tab")
    error = page.locator(".form-error").first
    expected = m["inspection.settings.samples.invalid"].replace("{min}", "2").replace("{max}", "100").replace("{kept}", "25")
    expect(error).to_have_text(expected)
    expect(samples).to_have_attribute("aria-invalid", "true")
    expect(saved).to_have_text(m["inspection.settings.notSaved"])
    top(phone, "1-refused")
    page.reload()
    expect(samples).to_have_value("25")

    # The main screen measures against the kept threshold: ± 5 m is more than 3 m.
    page.goto("/inspection")
    expect_light(page, m, "accuracy", "yellow", "inspection.light.accuracy.poor", accuracy=5, threshold=3)
    page.get_by_role("link", name=m["inspection.module.settings"], exact=True).click()

    # Default sets the sampling number only; Set default values all of them.
    page.get_by_role("button", name=m["inspection.settings.samples.default"], exact=True).click()
    expect(samples).to_have_value("10")
    expect(saved).to_have_text(m["inspection.settings.saved"])
    page.reload()
    expect(samples).to_have_value("10")
    expect(switch).to_be_checked()
    expect(accuracy).to_have_value("3")
    stillness.fill("1,5")
    stillness.press("Tab")
    expect(saved).to_have_text(m["inspection.settings.saved"])
    page.get_by_role("button", name=m["inspection.settings.defaults"]).click()
    expect(saved).to_have_text(m["inspection.settings.defaults.done"])
    expect(switch).not_to_be_checked()
    expect(accuracy).to_have_value("10")
    expect(stillness).to_have_value("0.6")
    page.reload()
    expect(switch).not_to_be_checked()
    expect(samples).to_have_value("10")
    expect(accuracy).to_have_value("10")
    expect(stillness).to_have_value("0.6")
    stored = json.loads(page.evaluate("localStorage.getItem('waymark.inspection.settings')"))
    assert stored == {"centroid": False, "samples": 10, "accuracy": 10, "stillness": 0.6}, stored


def test_an_external_receiver_gives_the_position_until_it_is_unplugged(phone_for):
    m = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page
    phone.context.add_init_script(FAKE_SERIAL)
    page.goto("/inspection")
    expect(page.locator(".inspection-source")).to_have_text(m["inspection.source.device"])
    expect(page.locator(".inspection-coordinates")).to_have_text("52.520000° N, 13.405000° E")
    page.get_by_role("link", name=m["inspection.position.receiverLink"]).click()

    receiver = page.locator("section.inspection-receiver")
    expect(receiver.get_by_role("heading")).to_have_text(m["inspection.receiver.title"])
    baud = receiver.get_by_label(m["inspection.receiver.baud"])
    expect(baud).to_have_value("4800")
    assert [o.get_attribute("value") for o in baud.locator("option").all()] == ["4800", "9600", "38400", "115200"]
    status = receiver.locator(".inspection-receiver-status")
    expect(status).to_have_text(m["inspection.receiver.closed"])
    expect(receiver.get_by_role("button", name=m["inspection.receiver.disconnect"], exact=True)).to_be_disabled()
    baud.select_option("9600")
    receiver.get_by_role("button", name=m["inspection.receiver.connect"], exact=True).click()
    expect(status).to_have_text(m["inspection.receiver.receiving"])
    assert page.evaluate("window.__serial.opened") == [9600]
    expect(receiver.locator(".receiver-port")).to_have_text("USB 067B:2303")
    expect(receiver.locator(".receiver-hdop")).to_have_text("1.1")
    positions = log_positions()
    shown = receiver.locator(".receiver-position").text_content()
    assert shown in positions, f"{shown} is not a position of the log"
    expect(receiver.locator(".receiver-time")).to_contain_text("Dec 31, 2014")  # 03:07 UTC is 04:07 in Berlin
    expect(receiver.get_by_role("button", name=m["inspection.receiver.connect"], exact=True)).to_be_disabled()
    expect(baud).to_be_disabled()
    at(phone, "section.inspection-receiver", "1-settings-receiving")

    # The main screen (reached inside the app: the port stays open) takes the receiver's positions.
    page.get_by_role("link", name=m["inspection.settings.back"]).click()
    expect(page.locator(".inspection-source")).to_have_text(m["inspection.source.receiverNamed"].replace("{label}", "USB 067B:2303"))
    expect(page.locator(".inspection-coordinates")).to_have_text(re.compile(r"^37\.78\d{4}° S, 175\.31\d{4}° E$"))
    assert page.locator(".inspection-coordinates").text_content() in positions
    expect(page.locator(".inspection-accuracy")).to_have_text("5.5 m")  # HDOP 1.1 × 5 m
    expect_light(page, m, "location", "green", "inspection.light.location.fix")
    expect_light(page, m, "accuracy", "green", "inspection.light.accuracy.good", accuracy=5.5, threshold=10)
    at(phone, "section[aria-labelledby='inspection-position-heading']", "2-main-receiver")

    # Unplugged: the settings say why, and the phone is the source again.
    page.evaluate("window.__serial.fail = true")
    expect(page.locator(".inspection-source")).to_have_text(m["inspection.source.device"])
    expect(page.locator("#status")).to_have_text(m["inspection.source.changed"].replace("{source}", m["inspection.source.device"]))
    expected = m["inspection.receiver.failed"].replace("{reason}", "The device has been lost.")
    expect(page.locator(".inspection-receiver-problem")).to_have_text(expected)
    expect(page.locator(".inspection-coordinates")).to_have_text("52.520000° N, 13.405000° E")
    page.get_by_role("link", name=m["inspection.module.settings"], exact=True).click()
    expect(page.locator(".inspection-receiver-status")).to_have_text(expected)
    assert page.evaluate("window.__serial.closed") == 1
    expect(page.get_by_role("button", name=m["inspection.receiver.connect"], exact=True)).to_be_enabled()
    at(phone, "section.inspection-receiver", "3-unplugged")

    # Connected again; a reload opens the same port again without asking (the setting is kept).
    page.evaluate("window.__serial.fail = false")
    page.get_by_role("button", name=m["inspection.receiver.connect"], exact=True).click()
    expect(page.locator(".inspection-receiver-status")).to_have_text(m["inspection.receiver.receiving"])
    assert page.evaluate("window.__serial.opened") == [9600, 9600], "the baud rate chosen last is kept"
    page.goto("/inspection")
    expect(page.locator(".inspection-source")).to_have_text(m["inspection.source.receiverNamed"].replace("{label}", "USB 067B:2303"))
    expect(page.locator(".inspection-receiver-problem")).to_be_hidden()
    expect(page.locator(".inspection-coordinates")).to_have_text(re.compile(r"^37\.78\d{4}° S, 175\.31\d{4}° E$"))
    assert page.evaluate("window.__serial.opened") == [9600], "a new page, the same port at the same rate"

    # Disconnected by the user: not connected, no error, and a reload leaves it so.
    page.get_by_role("link", name=m["inspection.module.settings"], exact=True).click()
    page.get_by_role("button", name=m["inspection.receiver.disconnect"], exact=True).click()
    expect(page.locator(".inspection-receiver-status")).to_have_text(m["inspection.receiver.closed"])
    assert page.evaluate("window.__serial.closed") == 1
    page.reload()
    expect(page.locator(".inspection-receiver-status")).to_have_text(m["inspection.receiver.closed"])
    page.wait_for_timeout(300)
    assert page.evaluate("window.__serial.opened") == []
    expect(page.locator(".inspection-receiver-status")).to_have_text(m["inspection.receiver.closed"])


def test_without_web_serial_the_settings_say_which_browsers_have_it(phone_for):
    m = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page
    phone.context.add_init_script(NO_SERIAL)
    page.goto("/inspection/settings")
    expect(page.locator(".inspection-no-serial")).to_have_text(m["inspection.receiver.unsupported"])
    expect(page.get_by_role("button", name=m["inspection.receiver.connect"], exact=True)).to_have_count(0)


def test_german(phone_for):
    de = messages("de")
    phone = phone_for("de-DE", geolocation=BERLIN)
    page = phone.page
    phone.context.add_init_script(FAKE_SERIAL)
    page.goto("/inspection")
    expect(page.get_by_role("heading", level=1)).to_have_text(de["inspection.title"])
    expect_light(page, de, "location", "green", "inspection.light.location.fix")
    expect_light(page, de, "accuracy", "green", "inspection.light.accuracy.good", accuracy=5, threshold=10)
    expect(page.locator(".inspection-coordinates")).to_have_text("52,520000° N, 13,405000° O")
    wait_for_service_worker(page)
    expect_light(page, de, "serviceWorker", "green", "inspection.light.serviceWorker.ready")
    top(phone, "1-main")

    page.get_by_role("link", name=de["inspection.module.settings"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(de["inspection.settings.title"])
    stillness = page.get_by_label(de["inspection.settings.stillness"], exact=True)
    expect(stillness).to_have_value("0,6")
    samples = page.get_by_label(de["inspection.settings.samples"], exact=True)
    samples.fill("zehn")
    samples.press("Tab")
    expect(page.locator(".form-error").first).to_have_text(
        de["inspection.settings.samples.invalid"].replace("{min}", "2").replace("{max}", "100").replace("{kept}", "10"))
    page.get_by_role("button", name=de["inspection.settings.samples.default"], exact=True).click()
    expect(page.locator(".form-error").first).to_be_hidden()
    page.get_by_role("button", name=de["inspection.receiver.connect"], exact=True).click()
    expect(page.locator(".inspection-receiver-status")).to_have_text(de["inspection.receiver.receiving"])
    assert page.locator(".receiver-position").text_content() in log_positions(("N", "S", "O", "W"), point=",")
    at(phone, "section.inspection-receiver", "2-settings")
    page.get_by_role("link", name=de["inspection.settings.back"]).click()
    expect(page.locator(".inspection-source")).to_have_text(de["inspection.source.receiverNamed"].replace("{label}", "USB 067B:2303"))
    at(phone, "section[aria-labelledby='inspection-position-heading']", "3-main-receiver")

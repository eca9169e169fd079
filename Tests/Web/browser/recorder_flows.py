"""What a person does with the phone recorder (/record, /settings), and what the tests read back:
a real GPX track replayed as the phone's position, the QR code read from a screenshot by
`waymark qr` (zxing-cpp), and the route as the page kept it in IndexedDB."""
import json
import os
import re
import subprocess
import time
from pathlib import Path

from playwright.sync_api import expect

from conftest import REPO, WAYMARK, messages

TRACKS = (Path(os.environ["WAYMARK_FIXTURES"]) if os.environ.get("WAYMARK_FIXTURES") else REPO.parent / "shared" / "fixtures") / "tracks"
PASSPHRASE = "correct horse battery staple"
TRKPT = re.compile(r'<trkpt\s+lat="([-0-9.]+)"\s+lon="([-0-9.]+)"')


def track_points(name="around-visnjan-with-car.gpx", count=None):
    """The positions of a real recorded track, in order: [{latitude, longitude}]."""
    text = (TRACKS / name).read_text(encoding="utf-8")
    points = [{"latitude": float(lat), "longitude": float(lon)} for lat, lon in TRKPT.findall(text)]
    assert points, f"no track points in {name}"
    return points[:count] if count else points


# A watcher of its own beside the page's: Chromium hands a watcher only the newest position when
# it asks for the next one, so a renderer busy for longer than `every` (a loaded CI machine) would
# see two moves as one. Waiting until this watcher has seen a move before making the next keeps
# every move a fix of its own.
PROBE_SCRIPT = """() => {
  if (window.__replayProbe) return;
  window.__replayProbe = { latitude: null, longitude: null };
  navigator.geolocation.watchPosition((position) => {
    window.__replayProbe = { latitude: position.coords.latitude, longitude: position.coords.longitude };
  }, () => {}, { enableHighAccuracy: true, maximumAge: 0 });
}"""
PROBE_SEEN = """(point) => window.__replayProbe && window.__replayProbe.latitude === point.latitude
  && window.__replayProbe.longitude === point.longitude"""


def replay(phone, points, accuracy=5.0, every=0.25):
    """Moves the phone along `points` (Chromium's emulated position, with its accuracy); each
    move is a new fix for watchPosition, delivered to the page before the next one is made."""
    phone.page.evaluate(PROBE_SCRIPT)
    for point in points:
        phone.context.set_geolocation({**point, "accuracy": accuracy})
        phone.page.wait_for_function(PROBE_SEEN, arg=point, timeout=15000)
        phone.page.wait_for_timeout(int(every * 1000))


def set_passphrase(phone, language, text=PASSPHRASE):
    """On the Connection screen: the eye shows and hides the passphrase, Continue waits for one
    that is not blank, and Continue keeps it."""
    m = messages(language)
    page = phone.page
    expect(page.get_by_role("heading", level=1)).to_have_text(m["connection.heading"])
    field = page.get_by_label(m["connection.passphrase"], exact=True)
    eye = page.get_by_role("button", name=m["connection.show"])
    proceed = page.get_by_role("button", name=m["connection.continue"])
    # SCO-04/06: hidden, eye-slash, Continue disabled.
    expect(field).to_have_attribute("type", "password")
    expect(eye).to_have_attribute("data-icon", "eye-slash")
    expect(proceed).to_be_disabled()
    # SCO-08: blank (also Unicode spaces) keeps it disabled.
    for blank in ["   ", "\u00a0\u2003\t"]:
        field.fill(blank)
        expect(proceed).to_be_disabled()
    field.fill(text)
    expect(proceed).to_be_enabled()
    # SCO-05: the eye toggles between shown (eye) and hidden (eye-slash).
    eye.click()
    expect(field).to_have_attribute("type", "text")
    hide = page.get_by_role("button", name=m["connection.hide"])
    expect(hide).to_have_attribute("data-icon", "eye")
    expect(hide).to_have_attribute("aria-pressed", "true")
    phone.shot("connection-shown")
    hide.click()
    expect(field).to_have_attribute("type", "password")
    expect(page.get_by_role("button", name=m["connection.show"])).to_have_attribute("data-icon", "eye-slash")
    proceed.click()


def start_recording(phone, language):
    m = messages(language)
    page = phone.page
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.heading"])
    phone.shot("record-idle")
    page.get_by_role("button", name=m["record.start"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])


def distance_text(page):
    return page.locator(".distance-value").inner_text()


def time_text(page):
    return page.locator(".time-value").inner_text()


ROUTE_SCRIPT = """async (id) => {
  const routes = await import('/recorder/routes.js');
  const route = id ? await routes.getRoute(id) : await routes.unfinishedRoute();
  if (!route) return null;
  const full = await routes.getRoute(route.id);
  return { id: full.id, nonce: full.nonce, status: full.status, fixCount: full.fixCount, trackCount: full.trackCount,
           tracks: (full.tracks || []).map((track) => track.length), gaps: full.gaps || [],
           phase: full.engine ? full.engine.phase : null };
}"""


def kept_route(page, route_id=None):
    """The route as IndexedDB holds it (the unfinished one when no id is given): its nonce,
    status, and how many fixes each saved track has."""
    return page.evaluate(ROUTE_SCRIPT, route_id)


def read_qr(phone, folder, step):
    """Screenshots the QR code on the screen (as a camera would photograph it), keeps it with
    the other screenshots, and reads it with `waymark qr` (zxing-cpp): its payloads."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    # A JPEG, as a camera writes (`waymark qr` reads photos, not PNG).
    path = folder / f"{phone.name}-qr-{step}.jpg"
    phone.page.locator(".qr-code").screenshot(path=str(path), type="jpeg", quality=92)
    answer = subprocess.run([WAYMARK, "qr", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, answer.stderr
    found = json.loads(answer.stdout)
    return [payload for photo in found for payload in photo.get("payloads", [])]


def payload_parts(payload):
    """`<unix-seconds>-<NONCE>` → (seconds, nonce)."""
    match = re.fullmatch(r"(\d+)-([0-9A-Z]+)", payload)
    assert match, f"not a Waymark time-sync payload: {payload!r}"
    return int(match.group(1)), match.group(2)


def wait_for_new_qr(page, before, within):
    """Waits (at most `within` seconds) until the code on the screen is another one."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        now = page.locator(".qr-code").get_attribute("data-payload")
        if now and now != before:
            return now
        page.wait_for_timeout(100)
    raise AssertionError(f"the QR code stayed {before} for {within} s")


VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  Object.defineProperty(document, 'hidden', { value: state === 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def hide_page_for(page, seconds):
    """The phone locks (or another app comes to the front) for `seconds`, and back. Headless
    Chromium never hides a page, so the page is told so as the browser would tell it."""
    page.evaluate(VISIBILITY, "hidden")
    page.wait_for_timeout(int(seconds * 1000))
    page.evaluate(VISIBILITY, "visible")

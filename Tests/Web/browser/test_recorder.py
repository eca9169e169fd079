"""The phone recorder in the browser (issue #13, seed 000's Connection, Recording Route and
Settings), phone-sized against the real server, with the position emulated along a real GPX
track: keep a passphrase, record, see the distance grow, read the QR code from a screenshot,
pause, resume, reload mid-recording, stop; the same in German with imperial units and a 1 s
QR period; and the passphrase mismatch / Reset rules."""
import re
import time

import pytest
from playwright.sync_api import expect

from conftest import RESULTS, messages, wait_for_service_worker
from recorder_flows import (PASSPHRASE, distance_text, hide_page_for, kept_route, payload_parts, read_qr, replay,
                            set_passphrase, start_recording, time_text, track_points, wait_for_new_qr)

# Needs a secure context (WebCrypto, the service worker, the camera, the position): met as a phone meets it.
pytestmark = pytest.mark.phone_origin

UNITS_KEPT = """async () => {
  const routes = await import('/recorder/routes.js');
  const route = await routes.unfinishedRoute();
  return route && route.engine ? route.engine.settings.units : null;
}"""


def test_record_pause_resume_reload_stop(phone_for):
    points = track_points(count=24)
    phone = phone_for("en-US", geolocation={**points[0], "accuracy": 5})
    page = phone.page
    m = messages("en")
    page.goto("/record")
    set_passphrase(phone, "en")
    start_recording(phone, "en")
    route = kept_route(page)
    assert route and route["status"] == "recording"
    nonce = route["nonce"]
    assert re.fullmatch(r"[0-9A-Z]{12}", nonce)

    # The first fix (accurate: green) opens the track; the next ones add distance.
    status = page.locator(".gps-status")
    expect(status).to_have_attribute("data-status", "green")
    expect(status).to_have_attribute("aria-label", re.compile(re.escape(m["record.gps.green"])))
    expect(page.locator(".distance-value")).to_have_text("0 m")
    replay(phone, points[1:8])
    expect(page.locator(".distance-value")).not_to_have_text("0 m")
    first = distance_text(page)
    assert re.fullmatch(r"\d+ m", first), first
    phone.shot("1-recording")

    # The QR code on the screen, read from a screenshot: this route's nonce and the current time,
    # a new one after the 5 s period.
    payloads = read_qr(phone, RESULTS, "1")
    assert len(payloads) == 1, payloads
    shown, shown_nonce = payload_parts(payloads[0])
    assert shown_nonce == nonce
    assert abs(shown - time.time()) <= 6, (shown, time.time())
    assert shown % 5 == 0
    expect(page.get_by_role("meter", name=m["record.gaugeLabel"])).to_have_attribute("aria-valuemax", "5")
    new = wait_for_new_qr(page, payloads[0], within=6.5)
    payloads = read_qr(phone, RESULTS, "2")
    assert payloads == [new]
    assert payload_parts(new) == (shown + 5, nonce)

    # A fix worse than the threshold is not recorded and turns the status red.
    replay(phone, [points[8]], accuracy=250)
    expect(status).to_have_attribute("data-status", "red")
    assert distance_text(page) == first

    # Pause: the clock stands still, Stop and Pause give way to Resume (SRR-15).
    page.get_by_role("button", name=m["record.pause"]).click()
    resume = page.get_by_role("button", name=m["record.resume"])
    expect(resume).to_be_visible()
    expect(page.get_by_role("button", name=m["record.stop"])).to_be_hidden()
    expect(page.locator(".phase-line")).to_have_text(m["record.phase.paused"])
    held = time_text(page)
    replay(phone, points[9:12])  # moving while paused records nothing
    assert time_text(page) == held
    assert distance_text(page) == first
    phone.shot("2-paused")

    # Resume: a second track, the distance grows again.
    resume.click()
    expect(page.get_by_role("button", name=m["record.pause"])).to_be_visible()
    replay(phone, points[12:17])
    expect(page.locator(".distance-value")).not_to_have_text(first)
    before_reload = kept_route(page)
    assert before_reload["tracks"][0] == 8 and len(before_reload["tracks"]) == 2, before_reload
    saved = sum(before_reload["tracks"])

    # Tap the distance: imperial (SRR-10), and back.
    page.locator(".distance-panel").click()
    expect(page.locator(".distance-value")).to_have_text(re.compile(r"^\d+ yd$|^[\d.]+ mi$"))
    page.locator(".distance-panel").click()
    expect(page.locator(".distance-value")).to_have_text(re.compile(r"^\d+ m$|^[\d.]+ km$"))

    # Reload mid-recording: no passphrase again, the recording goes on with every saved fix,
    # and the next fix starts a new track.
    shown_distance = distance_text(page)
    # The tap's save is written within moments; a reload in the same instant could lose it (a
    # closed tab may lose the last second), which is not what this step is about.
    deadline = time.monotonic() + 5
    while page.evaluate(UNITS_KEPT) != "metric":
        assert time.monotonic() < deadline, "the units chosen were not saved"
        page.wait_for_timeout(50)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    expect(page.locator(".distance-value")).to_have_text(shown_distance)
    after_reload = kept_route(page)
    assert after_reload["id"] == before_reload["id"] and after_reload["tracks"] == before_reload["tracks"]
    replay(phone, points[17:22])
    expect(page.locator(".distance-value")).not_to_have_text(shown_distance)
    phone.shot("3-after-reload")
    kept = kept_route(page)
    assert kept["tracks"][:2] == before_reload["tracks"] and len(kept["tracks"]) == 3, kept
    assert sum(kept["tracks"]) > saved

    # SRR-19: the app's start goes to the recording while it is unfinished.
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/record$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])

    # Stop (asks nothing): sealed, queued, and shown.
    page.get_by_role("button", name=m["record.stop"]).click()
    expect(page).to_have_url(re.compile(r"/routes/" + re.escape(kept["id"]) + "$"), timeout=30000)
    stored = kept_route(page, kept["id"])
    assert stored["status"] in ("queued", "stored"), stored
    assert stored["tracks"][:3] == kept["tracks"]  # the reload on / began a fourth
    phone.shot("4-stopped")
    page.goto("/record")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.heading"])

    # SHO-08: the routes list's Start (`/record?start=1`) starts a new recording at once.
    page.goto("/record?start=1")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    expect(page).to_have_url(re.compile(r"/record$"))
    fresh = kept_route(page)
    assert fresh["status"] == "recording" and fresh["id"] != kept["id"] and fresh["nonce"] != nonce


def test_german_imperial_one_second_codes(phone_for):
    points = track_points(count=12)
    phone = phone_for("de-DE", geolocation={**points[0], "accuracy": 30})
    page = phone.page
    m = messages("de")
    page.goto("/record")
    set_passphrase(phone, "de", "Grüne Wiese im Mai")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.heading"])

    # Settings: a wrong value is refused with a clear message; imperial and 1 s codes are kept.
    page.get_by_role("link", name=m["record.settingsLink"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["settings.heading"])
    wifi = page.get_by_label(m["settings.wifiOnly"])
    expect(wifi).to_be_disabled()  # desktop Chromium does not tell the connection's type
    expect(page.get_by_text(m["settings.wifiOnly.unavailable"])).to_be_visible()
    period = page.get_by_label(m["settings.qrPeriod"])
    period.fill("3")
    page.get_by_label(m["settings.threshold"]).fill("0")
    page.get_by_role("button", name=m["settings.save"]).click()
    expect(page.get_by_text(m["settings.qrPeriod.invalid"])).to_be_visible()
    expect(page.get_by_text(m["settings.threshold.invalid"])).to_be_visible()
    expect(period).to_have_attribute("aria-invalid", "true")
    phone.shot("1-settings-invalid")
    period.fill("1")
    page.get_by_label(m["settings.threshold"]).fill("50")
    page.get_by_label(m["settings.units.imperial"]).check()
    page.get_by_role("button", name=m["settings.save"]).click()
    expect(page.locator(".saved-line")).to_have_text(m["settings.saved"])
    expect(page.get_by_text(m["settings.qrPeriod.invalid"])).to_be_hidden()
    page.reload()
    expect(page.get_by_label(m["settings.qrPeriod"])).to_have_value("1")
    expect(page.get_by_label(m["settings.units.imperial"])).to_be_checked()
    phone.shot("2-settings")

    page.get_by_role("link", name=m["settings.toRecorder"]).click()
    start_recording(phone, "de")
    # 30 m with a 50 m threshold: accurate enough, but only just (orange).
    expect(page.locator(".gps-status")).to_have_attribute("data-status", "orange")
    expect(page.locator(".gps-status")).to_have_attribute("aria-label", re.compile(re.escape(m["record.gps.orange"])))
    replay(phone, points[1:9], accuracy=4)
    expect(page.locator(".gps-status")).to_have_attribute("data-status", "green")
    expect(page.locator(".distance-value")).to_have_text(re.compile(r"^\d+ yd$|^[\d.]+ mi$"))
    expect(page.locator(".distance-value")).not_to_have_text("0 yd")
    expect(page.locator(".phase-line")).to_have_text(m["record.phase.recording"])
    expect(page.get_by_role("meter", name=m["record.gaugeLabel"])).to_have_attribute("aria-valuemax", "1")
    phone.shot("3-recording-imperial")

    nonce = kept_route(page)["nonce"]
    first = read_qr(phone, RESULTS, "1")
    assert len(first) == 1
    shown, shown_nonce = payload_parts(first[0])
    assert shown_nonce == nonce and abs(shown - time.time()) <= 3
    new = wait_for_new_qr(page, first[0], within=2.5)
    assert payload_parts(new)[0] > shown and payload_parts(new)[1] == nonce

    # A look at the settings while recording: the recording goes on in the page, in the same track.
    fixes = kept_route(page)["tracks"]
    page.get_by_role("link", name=m["record.settingsLink"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["settings.heading"])
    page.get_by_role("button", name=m["settings.save"]).click()
    expect(page.locator(".saved-line")).to_have_text(m["settings.savedNext"])
    replay(phone, [points[9]], accuracy=4)
    page.get_by_role("link", name=m["settings.toRecorder"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    assert kept_route(page)["tracks"] == [fixes[0] + 1], "the position taken on the settings page is in the same track"

    # The page hidden for a while (screen off): the gap is kept and told plainly; the next fix
    # starts a new track, no distance bridges the gap.
    before = kept_route(page)
    assert len(before["tracks"]) == 1 and before["gaps"] == []
    hide_page_for(page, 1.2)
    gap = page.locator(".gap-notice")
    expect(gap).to_be_visible()
    expect(gap).to_contain_text(m["record.screenOff"])
    expect(gap).to_contain_text(m["record.gapHidden"].split("{")[0].strip())
    held = distance_text(page)
    replay(phone, points[10:12], accuracy=4)
    expect(page.locator(".phase-line")).to_have_text(m["record.phase.recording"])
    after = kept_route(page)
    assert len(after["tracks"]) == 2 and len(after["gaps"]) == 1, after
    assert 1.0 <= after["gaps"][0]["to"] - after["gaps"][0]["from"] <= 5, after["gaps"]
    phone.shot("4-after-gap")

    # Switching the language while recording redraws the screen; the recording goes on as it was.
    page.get_by_role("button", name="English").click()
    en = messages("en")
    expect(page.get_by_role("heading", level=1)).to_have_text(en["record.recording"])
    expect(page.locator(".gap-notice")).to_contain_text(en["record.screenOff"])
    assert len(kept_route(page)["tracks"]) == 2

    page.get_by_role("button", name=en["record.stop"]).click()
    expect(page).to_have_url(re.compile(r"/routes/[0-9a-f-]+$"), timeout=30000)


def test_passphrase_mismatch_and_reset(phone_for):
    """SCO-10…12: a second tab that still shows the Connection screen while the first one kept a
    passphrase: another passphrase is refused with Reset instead of Continue; typing again
    brings Continue back; Reset asks first and forgets the kept passphrase."""
    phone = phone_for("en-US")
    m = messages("en")
    other = phone.context.new_page()
    phone.watch(other)
    other.goto("/record")
    expect(other.get_by_role("heading", level=1)).to_have_text(m["connection.heading"])
    page = phone.page
    page.goto("/record")
    set_passphrase(phone, "en")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.heading"])

    field = other.get_by_label(m["connection.passphrase"], exact=True)
    field.fill("something else")
    other.get_by_role("button", name=m["connection.continue"]).click()
    expect(other.get_by_text(m["connection.mismatch"])).to_be_visible()
    reset = other.get_by_role("button", name=m["connection.reset"])
    expect(reset).to_be_visible()
    expect(other.get_by_role("button", name=m["connection.continue"])).to_be_hidden()
    expect(field).to_have_attribute("aria-invalid", "true")
    other.screenshot(path=str(RESULTS / f"{phone.name}-mismatch.png"))

    # SCO-11: typing again brings Continue back and hides the error; the right one is matched.
    field.fill(PASSPHRASE)
    expect(other.get_by_text(m["connection.mismatch"])).to_be_hidden()
    expect(other.get_by_role("button", name=m["connection.continue"])).to_be_enabled()
    field.fill("wrong again")
    other.get_by_role("button", name=m["connection.continue"]).click()
    expect(reset).to_be_visible()

    # SCO-12: Reset asks; Keep it keeps it; Forget it forgets it and clears the field.
    reset.click()
    dialog = other.get_by_role("dialog")
    expect(dialog).to_contain_text(m["connection.reset.confirm"])
    dialog.get_by_role("button", name=m["connection.reset.no"]).click()
    expect(dialog).to_be_hidden()
    reset.click()
    other.get_by_role("dialog").get_by_role("button", name=m["connection.reset.yes"]).click()
    expect(field).to_have_value("")
    expect(other.get_by_role("button", name=m["connection.continue"])).to_be_disabled()
    expect(reset).to_be_hidden()

    # A new passphrase is kept now; /settings shows it is kept, and Reset there forgets it too.
    field.fill("a new one")
    other.get_by_role("button", name=m["connection.continue"]).click()
    expect(other.get_by_role("heading", level=1)).to_have_text(m["record.heading"])
    page.goto("/settings")
    expect(page.get_by_text(m["settings.passphrase.kept"])).to_be_visible()
    page.get_by_role("button", name=m["connection.reset"]).click()
    page.get_by_role("dialog").get_by_role("button", name=m["connection.reset.yes"]).click()
    expect(page.get_by_text(m["settings.passphrase.none"])).to_be_visible()
    phone.shot("settings-reset")
    page.goto("/record")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["connection.heading"])


def test_poor_accuracy_alert(phone_for):
    """SRR-06/08/09: positions worse than the threshold are not recorded (red status, waiting),
    and after the alert delay the alert sounds (Web Audio) and is shown; an accurate position
    ends it and opens the track."""
    points = track_points(count=3)
    phone = phone_for("en-US", geolocation={**points[0], "accuracy": 500})
    page = phone.page
    m = messages("en")
    page.goto("/settings")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["settings.heading"])
    page.get_by_label(m["settings.alertDelay"]).fill("0.5")
    page.get_by_role("button", name=m["settings.save"]).click()
    expect(page.get_by_text(m["settings.alertDelay.invalid"])).to_be_visible()
    page.get_by_label(m["settings.alertDelay"]).fill("2")
    page.get_by_role("button", name=m["settings.save"]).click()
    expect(page.locator(".saved-line")).to_have_text(m["settings.saved"])
    page.get_by_role("link", name=m["settings.toRecorder"]).click()
    set_passphrase(phone, "en")
    start_recording(phone, "en")

    expect(page.locator(".gps-status")).to_have_attribute("data-status", "red")
    expect(page.locator(".phase-line")).to_have_text(m["record.phase.waitingForFix"])
    alert = page.locator(".record-alert")
    expect(alert).to_be_hidden()
    # The sound is played (an AudioContext unlocked by the tap on Start), and the words shown.
    expect(alert).to_have_text(m["record.alert"].replace("{seconds}", "2"), timeout=4000)
    phone.shot("1-alert")
    assert kept_route(page)["tracks"] == []

    replay(phone, points[1:3], accuracy=8)
    expect(page.locator(".gps-status")).to_have_attribute("data-status", "green")
    expect(alert).to_be_hidden()
    expect(page.locator(".phase-line")).to_have_text(m["record.phase.recording"])
    assert kept_route(page)["tracks"] == [2]


def test_recording_goes_on_offline(phone_for):
    """A walk without network: the recorder, opened once online, opens again offline (from the
    service worker and the browser's cache), resumes the recording and draws its QR code."""
    points = track_points(count=8)
    phone = phone_for("en-US", geolocation={**points[0], "accuracy": 5})
    page = phone.page
    m = messages("en")
    page.goto("/record")
    set_passphrase(phone, "en")
    start_recording(phone, "en")
    expect(page.locator(".qr-code")).to_have_attribute("data-payload", re.compile(r"^\d+-[0-9A-Z]{12}$"))
    wait_for_service_worker(page)
    replay(phone, points[1:4])
    phone.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    nonce = kept_route(page)["nonce"]
    expect(page.locator(".qr-code")).to_have_attribute("data-payload", re.compile(r"^\d+-" + nonce + "$"))
    replay(phone, points[4:8])
    assert kept_route(page)["tracks"] == [4, 4]
    phone.shot("offline-recording")


def test_records_offline_with_its_qr_code(phone_for):
    """Unlike the test above (a recording begun online goes on offline, its QR library still in
    the browser's HTTP cache), a recording begun with no network at all after one visit: the app,
    the QR library from /vendor/ and the recording screen come from the service worker's cache."""
    points = track_points(count=8)
    phone = phone_for("en-US", geolocation={**points[0], "accuracy": 4})
    page = phone.page
    m = messages("en")
    page.goto("/record")
    wait_for_service_worker(page)
    set_passphrase(phone, "en")
    expect(page.get_by_role("button", name=m["record.start"], exact=True)).to_be_visible()

    phone.context.set_offline(True)
    page.reload()
    start_recording(phone, "en")
    code = page.locator(".qr-code")
    expect(code).to_have_attribute("data-payload", re.compile(r"^\d+-[0-9A-Z]{12}$"))
    replay(phone, points[1:], accuracy=4, every=0.3)
    expect(page.locator(".distance-value")).not_to_have_text("0 m")
    phone.shot("offline-recording")
    route = kept_route(page)
    assert route["tracks"] == [len(points)], route
    assert code.get_attribute("data-payload").endswith("-" + route["nonce"])

"""OwnTracks as Waymark's background recorder (issue #29, DESIGN §3.13), as a person meets it:
/account pairs an OwnTracks app on the HTTPS origin a phone uses (the QR code the page draws,
read back by zbarimg, is OwnTracks' configuration link), a message encrypted as OwnTracks
encrypts it (PyNaCl's SecretBox: libsodium's secretbox, a 24-byte nonce before the box) is
counted on the device, a plain one is refused, a revoked device is refused; /clock shows the
device's time code; /vault/user sends one position per interval to the stand-in data vault."""
import base64
import json
import re
import subprocess
import time
from datetime import datetime
from zoneinfo import ZoneInfo

import nacl.secret
import nacl.utils
import pytest
from playwright.sync_api import expect

from conftest import messages, username
from flows import sign_up
from vault_flows import USER_A, expect_module_list, fill, full_shot, log_in, user_screen

M = messages("en")
PASSPHRASE = "correct horse battery staple"
LINK = "owntracks:///config?inline="


def read_code(locator, path):
    """The text of the QR code `locator` shows, read from a screenshot by zbarimg (zbar: not the
    zxing-cpp Waymark itself uses)."""
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path))
    answer = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, f"zbarimg found no code in {path}: {answer.stderr}"
    return answer.stdout.strip()


def encrypted(message, key):
    """`message` as OwnTracks posts it with an encryption key: Base64 of a random 24-byte nonce
    and libsodium's secretbox of the JSON under the key padded with zero bytes to 32."""
    box = nacl.secret.SecretBox(key.encode().ljust(32, b"\0"))
    sealed = box.encrypt(json.dumps(message).encode(), nacl.utils.random(24))
    return json.dumps({"_type": "encrypted", "data": base64.b64encode(bytes(sealed)).decode()})


def post(api, user, secret, body):
    """One POST of OwnTracks' HTTP mode, with its Basic authentication and headers."""
    credentials = base64.b64encode(f"{user}:{secret}".encode()).decode()
    return api.post("/api/v1/owntracks", data=body, headers={
        "Authorization": f"Basic {credentials}", "Content-Type": "application/json", "X-Limit-U": user, "X-Limit-D": "waymark"})


def pair(phone, name):
    """Pairs an OwnTracks app on /account (signed in); returns the new-device region."""
    page = phone.page
    section = page.get_by_role("region", name=M["owntracks.heading"])
    expect(section.get_by_label(M["owntracks.name"])).to_have_value(M["owntracks.defaultName"])
    section.get_by_label(M["owntracks.name"]).fill(name)
    section.get_by_label(M["owntracks.passphrase"], exact=True).fill(PASSPHRASE)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/owntracks/devices") and r.request.method == "POST") as answer:
        section.get_by_role("button", name=M["owntracks.pair"]).click()
    assert answer.value.status == 201, answer.value.text()
    created = page.get_by_role("region", name=fill(M["owntracks.new.heading"], name=name))
    expect(created.locator("canvas.owntracks-code")).to_have_attribute("data-payload", re.compile("^" + re.escape(LINK)))
    return section, created, answer.value.json()


@pytest.mark.phone_origin
def test_pair_owntracks_count_its_message_show_its_time_code_and_revoke_it(phone, server, api, tmp_path):
    page = phone.page
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=phone.url(""))
    page.goto("/account")
    account = username("olga")
    assert sign_up(phone, "en", account, "correct horse battery", "Olga").status == 201
    section = page.get_by_role("region", name=M["owntracks.heading"])
    expect(section.get_by_role("listitem")).to_have_text([M["owntracks.empty"]])
    section.scroll_into_view_if_needed()
    phone.shot("1-account-owntracks")

    # A passphrase is needed.
    section.get_by_role("button", name=M["owntracks.pair"]).click()
    expect(page.locator("#owntracks-form").get_by_role("alert")).to_have_text(M["owntracks.passphrase.empty"])

    section, created, device = pair(phone, "Olga's phone")
    assert device["username"] and device["secret"] and re.fullmatch(r"[0-9A-Z]{12}", device["nonce"])
    code = created.locator("canvas.owntracks-code")
    text = read_code(code, tmp_path / "owntracks-code.png")
    assert text == code.get_attribute("data-payload")
    assert text.startswith(LINK)
    configuration = json.loads(base64.b64decode(text[len(LINK):], validate=True).decode())
    key = created.locator(".owntracks-key").text_content()
    assert list(configuration) == ["_type", "mode", "url", "auth", "username", "password", "deviceId", "tid", "encryptionKey",
                                   "monitoring", "locatorInterval", "locatorDisplacement", "cmd", "remoteConfiguration"]
    assert configuration["_type"] == "configuration" and configuration["mode"] == 3 and configuration["auth"] is True
    assert configuration["url"] == f"{server.url}/api/v1/owntracks" and configuration["url"].startswith("https://")
    assert configuration["username"] == device["username"] == account
    assert configuration["password"] == device["secret"]
    assert configuration["encryptionKey"] == key and re.fullmatch(r"[2-9A-HJ-NP-Za-km-np-z]{32}", key)
    expect(created).to_contain_text(device["secret"])
    expect(created).to_contain_text(M["owntracks.privacy.never"])
    expect(created.get_by_role("link", name=M["owntracks.openLink"])).to_have_attribute("href", text)
    created.get_by_role("button", name=M["owntracks.copyKey"]).click()
    expect(page.get_by_role("status")).to_have_text(M["status.copied"])
    assert page.evaluate("navigator.clipboard.readText()") == key
    created.scroll_into_view_if_needed()
    phone.shot("2-paired-code")
    created.locator("ol").scroll_into_view_if_needed()
    phone.shot("3-paired-steps")

    # What the server keeps of the key is sealed: it opens with the passphrase and the nonce only.
    listed = page.evaluate("fetch('/api/v1/owntracks/devices').then((answer) => answer.json())")["items"]
    assert [item["nonce"] for item in listed] == [device["nonce"]]
    assert key not in json.dumps(listed)
    opened = page.evaluate("""async ({sealed, passphrase, nonce}) => (await import('/recorder/envelope.js')).openOwnTracksKey(sealed, passphrase, nonce)""",
                           {"sealed": listed[0]["sealedKey"], "passphrase": PASSPHRASE, "nonce": device["nonce"]})
    assert opened == key

    # OwnTracks posts an encrypted location: the device counts it. A plain one is refused.
    answer = post(api, device["username"], device["secret"], encrypted({"_type": "location", "lat": 48.2082, "lon": 16.3738, "tst": int(time.time()), "tid": "WM"}, key))
    assert answer.status == 200 and answer.json() == [], answer.text()
    plain = post(api, device["username"], device["secret"], json.dumps({"_type": "location", "lat": 48.2, "lon": 16.3, "tst": int(time.time())}))
    assert plain.status == 400 and plain.json()["error"] == "not_encrypted", plain.text()
    created.get_by_role("button", name=M["devices.done"]).click()
    expect(page.locator("main")).not_to_contain_text(device["secret"])
    page.reload()
    item = section.get_by_role("listitem").filter(has_text="Olga's phone")
    expect(item).to_contain_text(fill(M["owntracks.messages"], count=1))
    expect(item).to_contain_text(device["nonce"])
    expect(item).not_to_contain_text(M["owntracks.noMessage"])
    assert device["secret"] not in page.content() and key not in page.content()
    item.scroll_into_view_if_needed()
    phone.shot("4-one-message")

    # /clock: the device's time code, <seconds>-<nonce>, within a few seconds of now.
    item.get_by_role("link", name=M["owntracks.clockLink"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(M["clock.heading"])
    expect(page.get_by_label(M["clock.device"])).to_have_value(device["nonce"])
    clock = page.locator("canvas.clock-code")
    expect(clock).to_have_attribute("data-payload", re.compile(r"^\d+-" + device["nonce"] + "$"))
    expect(page.locator(".awake-line")).not_to_be_empty()
    payload = read_code(clock, tmp_path / "clock-code.png")
    seconds, nonce = payload.split("-")
    assert nonce == device["nonce"] and abs(int(seconds) - time.time()) < 10, payload
    expect(page.get_by_role("meter")).to_have_attribute("aria-valuemax", "5")
    phone.shot("5-clock")
    page.goto("/clock?nonce=lowercase")
    expect(page.get_by_role("alert")).to_have_text(M["clock.badNonce"])

    # Revoke after confirming: gone from the list, and OwnTracks' next post is refused.
    page.goto("/account")
    section.get_by_role("button", name=fill(M["owntracks.revokeLabel"], name="Olga's phone")).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(fill(M["owntracks.confirm.text"], name="Olga's phone"))
    phone.shot("6-confirm-revoke")
    with page.expect_response(lambda r: "/api/v1/owntracks/devices/" in r.url and r.request.method == "DELETE") as answer:
        dialog.get_by_role("button", name=M["owntracks.confirm.yes"]).click()
    assert answer.value.status == 204
    expect(section.get_by_role("listitem")).to_have_text([M["owntracks.empty"]])
    expect(page.get_by_role("status")).to_have_text(fill(M["owntracks.revoked"], name="Olga's phone"))
    refused = post(api, device["username"], device["secret"], encrypted({"_type": "location", "lat": 48.2, "lon": 16.3, "tst": int(time.time())}, key))
    assert refused.status == 401, refused.text()


@pytest.mark.phone_origin
def test_the_owntracks_section_in_german(phone_for):
    m = messages("de")
    phone = phone_for("de-DE")
    page = phone.page
    page.goto("/account")
    assert sign_up(phone, "de", username("juergen"), "correct horse battery", "Jürgen").status == 201
    section = page.get_by_role("region", name=m["owntracks.heading"])
    expect(section.get_by_label(m["owntracks.name"])).to_have_value(m["owntracks.defaultName"])
    expect(section.get_by_role("button", name=m["owntracks.pair"])).to_be_visible()
    section.scroll_into_view_if_needed()
    phone.shot("1-account-owntracks-de")
    page.goto("/clock")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["clock.heading"])
    expect(page.locator("main")).to_contain_text(m["clock.noDevice"])
    phone.shot("2-clock-no-device-de")


def test_clock_signed_out_with_a_nonce_shows_its_code(phone, tmp_path):
    page = phone.page
    page.goto("/clock?nonce=2OANEZK7Q1XD")
    expect(page.get_by_role("heading", level=1)).to_have_text(M["clock.heading"])
    expect(page.locator("main")).to_contain_text(M["clock.intro"])
    clock = page.locator("canvas.clock-code")
    expect(clock).to_have_attribute("data-payload", re.compile(r"^\d+-2OANEZK7Q1XD$"))
    seconds, nonce = read_code(clock, tmp_path / "clock.png").split("-")
    assert nonce == "2OANEZK7Q1XD" and abs(int(seconds) - time.time()) < 10
    phone.shot("1-clock-signed-out")
    page.goto("/clock")
    expect(page.locator("main")).to_contain_text(M["clock.signedOut"])


@pytest.mark.database_independent
@pytest.mark.serve_args("--vault-url", "{vault}")
def test_owntracks_positions_one_per_interval_reach_the_vault(phone_for, vault, api):
    phone = phone_for("en-US")
    page = phone.page
    page.goto("/account")
    assert sign_up(phone, "en", username("vera"), "correct horse battery", "Vera").status == 201
    _, created, device = pair(phone, "Vera's phone")
    key = created.locator(".owntracks-key").text_content()

    # An hour of fixes, one a minute at :30, some with speed (km/h) and course; one before and one
    # after the span, a message that is no location, and one under another key.
    berlin = ZoneInfo("Europe/Berlin")
    # The span starts on a five-minute boundary: intervals are counted from the epoch.
    base = int(time.time()) // 300 * 300 - 2 * 3600
    fixes = [{"_type": "location", "lat": 48.2 + i / 1000, "lon": 16.3, "tst": base + 30 + 60 * i, "acc": 8, "alt": 170, "vel": 18, "cog": 90, "tid": "WM"}
             for i in range(60)]
    others = [{"_type": "location", "lat": 1, "lon": 1, "tst": base - 100}, {"_type": "location", "lat": 2, "lon": 2, "tst": base + 3700},
              {"_type": "transition", "event": "enter", "tst": base + 40}]
    for message in fixes + others:
        answer = post(api, device["username"], device["secret"], encrypted(message, key))
        assert answer.status == 200, answer.text()
    assert post(api, device["username"], device["secret"], encrypted({"_type": "location", "lat": 3, "lon": 3, "tst": base + 50}, "another key")).status == 200

    log_in(phone, "en", vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, "en", USER_A[2])
    user_screen(phone, "en")
    section = page.get_by_role("region", name=M["vault.owntracks.heading"])
    expect(section.get_by_label(M["vault.owntracks.device"])).to_have_value(device["nonce"])
    local = lambda seconds: datetime.fromtimestamp(seconds, berlin).strftime("%Y-%m-%dT%H:%M")
    section.get_by_label(M["vault.owntracks.from"]).fill(local(base))
    section.get_by_label(M["vault.owntracks.to"]).fill(local(base + 3600))
    expect(section.get_by_label(M["vault.owntracks.interval"])).to_have_value("5")
    section.get_by_label(M["owntracks.passphrase"], exact=True).fill("not the passphrase")
    section.get_by_role("button", name=M["vault.owntracks.submit"]).click()
    expect(section.get_by_role("alert")).to_have_text(M["vault.owntracks.wrongPassphrase"])
    section.get_by_label(M["owntracks.passphrase"], exact=True).fill(PASSPHRASE)
    section.get_by_role("button", name=M["vault.owntracks.submit"]).click()
    expect(section.locator(".vault-owntracks-message")).to_have_text(
        fill(M["vault.owntracks.added"], count=12, messages=64) + " " + M["vault.owntracks.unreadable.one"])
    expect(page.locator(".vault-message")).to_have_text(fill(M["vault.user.uploadedSealed"], count=12))
    expect(page.locator(".vault-count")).to_have_text("0")
    full_shot(phone, "vault-owntracks")

    records = [item["record"] for item in vault.items()]
    expected = [fixes[5 * k] for k in range(12)]
    assert [record["timestamp"] for record in records] == [datetime.fromtimestamp(fix["tst"], ZoneInfo("UTC")).strftime("%Y-%m-%dT%H:%M:%SZ") for fix in expected]
    assert [record["latitude"] for record in records] == [fix["lat"] for fix in expected]
    assert all(record["speed"] == 5 and record["heading"] == 90 and record["accuracy"] == 8 and record["altitude"] == 170 for record in records)

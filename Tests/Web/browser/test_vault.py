"""The /vault pages (seed 002, issue #16) on a 390×844 phone in English and German, against the
stand-in OwnYourData vault (Tests/Vault/standin-vault.py): the Login screen's three states with
the seed's exact texts and errors, QR sign-in from a photo, the module list with its ellipses and
the in-app module page, the User screen's actions, and records — read on the phone or from a
recorded route — that reach the vault sealed and decrypt to the JSON the page kept."""
import json
import time

import pytest
from playwright.sync_api import expect

from conftest import messages
from routes_flows import record_route, walk
from vault_flows import (APP, LOCALES, USER_A, USER_B, cached_records, cut_off, expect_module_list, fill, full_shot,
                         log_in, module_link, open_login_form, qr_png, read_location, scan_photo, user_screen,
                         vault_modules, words)

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
pytestmark = pytest.mark.database_independent

VAULT = pytest.mark.serve_args("--vault-url", "{vault}")


@pytest.mark.parametrize("locale,language", LOCALES)
def test_login_screen_three_states_with_the_seeds_words(phone_for, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    page.goto("/vault")
    # (1) The prompt, [Scan QR Code], [Enter login data] or [Sign up for new data vault], the copyright.
    expect(page.get_by_role("heading", level=1)).to_have_text(m["vault.title"])
    prompt = page.locator(".vault-prompt")
    expect(prompt).to_be_visible()
    assert words(prompt.text_content()) == fill(m["vault.login.prompt"], help=m["vault.login.help"])
    assert words(prompt.text_content()) == {"en": "Log in to your data vault (help):", "de": "Melde dich bei deinem Datentresor an (Hilfe):"}[language]
    expect(page.get_by_role("button", name=m["vault.login.scan"], exact=True)).to_be_visible()
    choice = page.locator(".vault-choice")
    assert words(choice.text_content()) == {"en": "Enter login data or Sign up for new data vault",
                                            "de": "Zugangsdaten eingeben oder neuen Datentresor anlegen"}[language]
    sign_up = page.get_by_role("link", name=m["vault.login.signUp"])
    expect(sign_up).to_have_attribute("href", f"https://data-vault.eu/{language}/new")
    expect(sign_up).to_have_attribute("target", "_blank")
    assert words(page.locator(".vault-copyright").text_content()) == "© 2015-2018 OwnYourData.eu"
    expect(page.get_by_role("link", name="OwnYourData.eu")).to_have_attribute("href", "https://www.ownyourdata.eu")
    expect(page.locator(".vault-help")).to_be_hidden()
    expect(page.locator(".vault-form")).to_be_hidden()
    phone.shot("1-start")

    # (2) help shows the seed's italic paragraph.
    page.get_by_role("button", name=m["vault.login.help"], exact=True).click()
    help_text = page.locator(".vault-help")
    expect(help_text).to_be_visible()
    seed = {
        "en": "In your data vault (https://data-vault.eu) under \"My Account\" is a graphic that holds your login credentials. "
              "Click [Scan QR Code] and point your camera at this graphic to login automatically. Otherwise, enter your "
              "credentials manually by clicking [Enter login data].",
        "de": "Im Datentresor (https://data-vault.eu) findest du unter „Mein Account“ eine Grafik die alle Informationen für die "
              "Anmeldung enthält. Klicke auf [QR-Code Scannen] und richte dann die Kamera deines Handys auf diese Grafik, um "
              "dich automatisch einzuloggen. Alternativ kannst du diese Daten auch selbst eingeben – klicke dazu auf "
              "[Zugangsdaten eingeben].",
    }[language]
    assert words(help_text.text_content()) == seed
    assert help_text.evaluate("(element) => getComputedStyle(element).fontStyle") == "italic"
    expect(help_text.get_by_role("link", name="https://data-vault.eu")).to_have_attribute("href", "https://data-vault.eu")
    phone.shot("2-help")

    # (3) the login form: address (default https://data-vault.eu), username, password, [Login], sign-up below.
    page.get_by_role("button", name=m["vault.login.help"], exact=True).click()
    expect(help_text).to_be_hidden()
    page.get_by_role("button", name=m["vault.login.enter"], exact=True).click()
    labels = {"en": ["Address of data vault (URL):", "Username:", "Password:", "Login"],
              "de": ["Adresse des Datentresors (URL):", "Benutzername:", "Passwort:", "Anmelden"]}[language]
    expect(page.get_by_label(labels[0])).to_have_value("https://data-vault.eu")
    expect(page.get_by_label(labels[1])).to_have_value("")
    expect(page.get_by_label(labels[2], exact=True)).to_have_attribute("type", "password")
    expect(page.get_by_role("button", name=labels[3], exact=True)).to_be_visible()
    expect(choice).to_be_hidden()
    expect(page.locator(".vault-form").get_by_role("link", name=m["vault.login.signUp"])).to_have_attribute("href", f"https://data-vault.eu/{language}/new")
    expect(page.get_by_role("button", name=m["vault.login.scan"], exact=True)).to_be_visible()
    # Nothing is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.shot("3-form")


@VAULT
@pytest.mark.parametrize("locale,language", LOCALES)
def test_wrong_password_then_login(phone_for, vault, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    log_in(phone, language, vault.url, USER_A[0], "not the password")
    error = page.locator(".vault-error")
    expect(error).to_have_text({"en": "Error: invalid username and/or password", "de": "Fehler: ungültiger Benutzername und/oder Passwort"}[language])
    phone.shot("wrong-password")
    page.get_by_label(m["vault.login.password"], exact=True).fill(USER_A[1])
    page.get_by_role("button", name=m["vault.login.submit"], exact=True).click()
    expect_module_list(phone, language, USER_A[2])
    # The session is kept: a reload shows the module list again.
    page.reload()
    expect_module_list(phone, language, USER_A[2])
    assert [request["path"] for request in vault.requests()].count("/oauth/token") == 2


@pytest.mark.serve_args("--vault-url", "{closed-vault}")
@pytest.mark.parametrize("locale,language", LOCALES)
def test_unreachable_vault(phone_for, server, locale, language):
    phone = phone_for(locale)
    closed = server.vault_origins[0]
    log_in(phone, language, closed, USER_A[0], USER_A[1])
    expect(phone.page.locator(".vault-error")).to_have_text({"en": "Error: can't access data vault", "de": "Fehler: Datentresor nicht erreichbar"}[language])
    phone.shot("unreachable")


@VAULT
@pytest.mark.vault_options(allow_origin=False)
@pytest.mark.parametrize("locale,language", LOCALES)
def test_vault_that_does_not_allow_the_browser(phone_for, server, vault, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    log_in(phone, language, vault.url, USER_A[0], USER_A[1])
    error = phone.page.locator(".vault-error")
    expect(error).to_contain_text("waymark vault push")
    assert words(error.text_content()) == words(fill(m["vault.error.blocked"], origin=server.url, command="waymark vault push"))
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390, "the message wraps on the phone"
    # The vault did answer (it is there): the page told the refusal from silence.
    assert any(request["path"] == "/oauth/token" for request in vault.requests())
    phone.shot("cors-blocked")


@pytest.mark.parametrize("locale,language", LOCALES)
def test_vault_the_server_does_not_list(phone_for, vault, locale, language):
    """The server's CSP would block the page: it says so and sends nothing (no CSP violation either)."""
    m = messages(language)
    phone = phone_for(locale)
    log_in(phone, language, vault.url + "/", USER_A[0], USER_A[1])
    error = phone.page.locator(".vault-error")
    command = f"waymark serve --vault-url {vault.url}"
    expect(error).to_contain_text(command)
    assert words(error.text_content()) == words(fill(m["vault.error.notAllowed"], vault=vault.url, command=command))
    # The long command wraps inside the message instead of widening the page.
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert vault.requests() == []
    phone.shot("not-listed")


@VAULT
@pytest.mark.parametrize("locale,language", LOCALES)
def test_qr_code_photo_logs_in(phone_for, vault, tmp_path, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    page.goto("/vault")
    # The seed's payload form, pointing at the stand-in.
    code = qr_png(tmp_path / "login.png", {"PIA_URL": vault.url, "email": USER_A[0], "password": USER_A[1]})
    page.get_by_role("button", name=m["vault.login.scan"], exact=True).click()
    # This Chromium has no BarcodeDetector: no camera view, and no hint to point a camera; the photo is offered.
    expect(page.locator("video.vault-camera")).to_be_hidden()
    expect(page.locator(".vault-scan-hint")).to_be_hidden()
    expect(page.get_by_text(m["vault.scan.photo"], exact=True)).to_be_visible()
    phone.shot("scan")
    # Cancel goes back to the Login screen.
    page.get_by_role("button", name=m["vault.cancel"], exact=True).click()
    expect(page.get_by_role("button", name=m["vault.login.enter"], exact=True)).to_be_visible()
    scan_photo(phone, language, code)
    expect_module_list(phone, language, USER_A[2])
    phone.shot("qr-modules")


@VAULT
@pytest.mark.parametrize("locale,language", LOCALES)
def test_qr_codes_that_fill_the_form(phone_for, vault, tmp_path, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    page.goto("/vault")
    url, username, password = (page.get_by_label(m["vault.login.url"]), page.get_by_label(m["vault.login.username"]),
                               page.get_by_label(m["vault.login.password"], exact=True))
    # Valid, but the login fails: the fields show what was read, and the seed's error.
    scan_photo(phone, language, qr_png(tmp_path / "wrong.png", {"PIA_URL": vault.url, "email": USER_A[0], "password": "nope"}))
    expect(page.locator(".vault-error")).to_have_text(m["vault.error.credentials"])
    expect(url).to_have_value(vault.url)
    expect(username).to_have_value(USER_A[0])
    expect(password).to_have_value("nope")
    phone.shot("qr-wrong")
    # Incomplete: what was read is filled in.
    page.reload()
    scan_photo(phone, language, qr_png(tmp_path / "part.png", {"PIA_URL": vault.url, "email": USER_B[0]}))
    expect(page.locator(".vault-error")).to_have_text(m["vault.scan.incomplete"])
    expect(url).to_have_value(vault.url)
    expect(username).to_have_value(USER_B[0])
    expect(password).to_have_value("")
    password.fill(USER_B[1])
    page.get_by_role("button", name=m["vault.login.submit"], exact=True).click()
    expect_module_list(phone, language, USER_B[2])
    # Not login data at all: said in the scan view.
    page.goto("/vault/user")
    page.get_by_role("button", name=m["vault.user.logout"]).click()
    scan_photo(phone, language, qr_png(tmp_path / "other.png", "https://example.org/not-a-login"))
    expect(page.locator(".vault-scan-status")).to_have_text(m["vault.scan.invalid"])


@VAULT
def test_qr_code_with_app_key_and_secret(phone_for, vault, tmp_path):
    phone = phone_for("en-US")
    phone.page.goto("/vault")
    scan_photo(phone, "en", qr_png(tmp_path / "app.png", {"PIA_URL": vault.url, "APP_KEY": APP[0], "APP_SECRET": APP[1]}))
    expect_module_list(phone, "en", USER_A[2])
    grants = [request for request in vault.requests() if request["path"] == "/oauth/token"]
    assert [request["status"] for request in grants] == [200]


@VAULT
@pytest.mark.parametrize("locale,language", LOCALES)
def test_module_list_ellipses_and_the_module_page(phone_for, vault, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    log_in(phone, language, vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, language, USER_A[2])
    names, descriptions = page.locator(".vault-module-name"), page.locator(".vault-module-description")
    expect(names).to_have_count(2)
    expect(page.locator("img.vault-module-picture")).to_have_count(2)
    # The long title: one line, cut with an ellipsis; the long description: three lines, cut.
    title = cut_off(names.nth(1))
    assert title["wide"] and title["ellipsis"] == "ellipsis" and title["lines"] == 1, title
    assert not cut_off(names.nth(0))["wide"]
    description = cut_off(descriptions.nth(0))
    assert description["tall"] and description["lines"] == 3 and description["clamp"] == "3", description
    short = cut_off(descriptions.nth(1))
    assert not short["tall"] and short["lines"] == 1, short
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.shot("modules")

    # The in-app page: the module's title in the header, the module opened with the seed's link.
    module = vault_modules(vault, USER_A[0], USER_A[1])[0]
    page.locator(".vault-module").nth(0).click()
    expect(page).to_have_url(phone.url("/vault/modules/1"))
    frame = page.locator("iframe.vault-module-frame")
    expect(frame).to_have_attribute("src", module_link(module, vault.url))
    inside = page.frame_locator("iframe.vault-module-frame")
    expect(inside.locator("#PIA_URL")).to_have_text(vault.url)
    expect(inside.locator("#APP_KEY")).to_have_text(module["uid"])
    expect(inside.locator("#APP_SECRET")).to_have_text(module["secret"])
    header = page.get_by_role("button", name=fill(m["vault.module.back"], name=module["name"]))
    expect(header).to_contain_text(module["name"])
    box = frame.bounding_box()
    assert box["width"] == 390 and box["height"] > 500, box
    # The same address in the phone's browser, for a module whose site refuses to be framed.
    outside = page.get_by_role("link", name=fill(m["vault.module.outside"], name=module["name"]))
    expect(outside).to_have_attribute("href", module_link(module, vault.url))
    expect(outside).to_have_attribute("target", "_blank")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.shot("module-page")
    # The page is an address of its own: a reload asks the vault for the list again and shows the module.
    page.reload()
    expect(page.locator("iframe.vault-module-frame")).to_have_attribute("src", module_link(module, vault.url))
    header.click()
    expect(page).to_have_url(phone.url("/vault"))
    expect_module_list(phone, language, USER_A[2])


@VAULT
@pytest.mark.parametrize("locale,language", LOCALES)
def test_no_modules_and_a_long_user_name(phone_for, vault, locale, language):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    log_in(phone, language, vault.url, USER_B[0], USER_B[1])
    expect_module_list(phone, language, USER_B[2])
    expect(page.locator(".vault-empty-title")).to_have_text({"en": "no modules available", "de": "keine Module verfügbar"}[language])
    line = page.locator(".vault-empty p").nth(1)
    assert words(line.text_content()) == {"en": "open your data vault and connect to data sources",
                                          "de": "öffne deinen Datentresor und erschließe Datenquellen"}[language]
    expect(line.get_by_role("link", name=m["vault.modules.open"])).to_have_attribute("href", vault.url)
    assert cut_off(page.locator(".vault-user-name"))["wide"]
    phone.shot("no-modules")
    user_screen(phone, language)
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(USER_B[2])
    assert cut_off(heading)["wide"], "the long username is cut with an ellipsis"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.shot("user-long-name")


@VAULT
@pytest.mark.parametrize("locale,language", LOCALES)
def test_user_screen_read_upload_refuse_clear_repo_logout(phone_for, vault, locale, language):
    m = messages(language)
    phone = phone_for(locale, geolocation={"latitude": 45.2411, "longitude": 13.9397, "accuracy": 8})
    page = phone.page
    log_in(phone, language, vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, language, USER_A[2])
    user_screen(phone, language)
    expect(page.get_by_role("heading", level=1)).to_have_text(USER_A[2])
    expect(page.locator(".vault-count")).to_have_text("0")
    expect(page.locator(".vault-last-upload")).to_have_text(m["vault.user.never"])
    expect(page.get_by_label(m["vault.user.repo"])).to_have_value("eu.ownyourdata.location")
    expect(page.get_by_role("link", name=m["vault.user.openVault"])).to_have_attribute("href", vault.url)
    # Headless Chromium does not tell the connection type: the page says uploads need the button.
    expect(page.locator(".vault-wifi")).to_have_text(m["vault.user.wifiUnknown"])
    assert words(page.locator(".vault-footer").text_content()).endswith("© 2015-2018 OwnYourData.eu")
    expect(page.locator(".vault-version")).to_contain_text("Waymark 2026-")
    full_shot(phone, "user-empty")

    # read location → 1, 2.
    read_location(phone, language, {"latitude": 45.2411, "longitude": 13.9397})
    expect(page.locator(".vault-count")).to_have_text("1")
    page.wait_for_timeout(1100)
    read_location(phone, language, {"latitude": 45.2420, "longitude": 13.9410})
    expect(page.locator(".vault-count")).to_have_text("2")
    sent = cached_records(page)
    assert [json.loads(text)["latitude"] for text in sent] == [45.2411, 45.242]
    phone.shot("user-two")

    # Upload now: the vault decrypts each item to exactly the record's JSON.
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-message")).to_have_text(fill(m["vault.user.uploadedSealed"], count=2))
    expect(page.locator(".vault-count")).to_have_text("0")
    expect(page.locator(".vault-last-upload")).not_to_have_text(m["vault.user.never"])
    items = vault.items()
    assert [item["plaintext"] for item in items] == sent
    assert all(item["repo"] == "eu.ownyourdata.location" and item["received"]["version"] == "0.4" and len(item["received"]["nonce"]) == 48 for item in items)
    assert all("latitude" not in json.dumps(item["received"]) for item in items), "sealed, not plain"
    phone.shot("user-uploaded")

    # Three more, one refused by the vault: exactly that one stays, and the page says so.
    for step in range(3):
        page.wait_for_timeout(1100)
        read_location(phone, language, {"latitude": 45.25 + step / 100, "longitude": 13.95})
        expect(page.locator(".vault-count")).to_have_text(str(step + 1))
    refused = json.loads(cached_records(page)[1])
    vault.refuse([refused["timestamp"]])
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-count")).to_have_text("1")
    message = page.locator(".vault-message")
    expect(message).to_contain_text(fill(m["vault.user.uploadedSealed"], count=2))
    expect(message).to_contain_text(fill(m["vault.user.refused"], count=1, reason="refused by the stand-in vault"))
    assert [json.loads(text) for text in cached_records(page)] == [refused]
    full_shot(phone, "user-refused")

    # clear cache asks first: Cancel keeps, confirm deletes.
    page.get_by_role("button", name=m["vault.user.clear"], exact=True).click()
    dialog = page.locator("dialog.vault-clear-dialog")
    expect(dialog).to_contain_text(fill(m["vault.user.clearConfirm"], count=1))
    phone.shot("user-clear-confirm")
    dialog.get_by_role("button", name=m["vault.cancel"]).click()
    expect(page.locator(".vault-count")).to_have_text("1")
    page.get_by_role("button", name=m["vault.user.clear"], exact=True).click()
    dialog.get_by_role("button", name=m["vault.user.clear"]).click()
    expect(page.locator(".vault-count")).to_have_text("0")
    expect(page.locator(".vault-message")).to_have_text(fill(m["vault.user.cleared"], count=1))

    # A repo without a key receives the plain record.
    repo = page.get_by_label(m["vault.user.repo"])
    repo.fill("waymark.test.plain")
    repo.press("Tab")
    expect(page.locator(".vault-message")).to_have_text(fill(m["vault.user.repoSaved"], repo="waymark.test.plain"))
    page.wait_for_timeout(1100)
    read_location(phone, language, {"latitude": 45.3, "longitude": 13.96})
    expect(page.locator(".vault-count")).to_have_text("1")
    plain = cached_records(page)
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-message")).to_have_text(fill(m["vault.user.uploadedPlain"], count=1))
    last = vault.items()[-1]
    assert last["repo"] == "waymark.test.plain" and last["plaintext"] is None
    assert json.dumps(last["received"], separators=(",", ":"), ensure_ascii=False) == plain[0]
    page.reload()
    expect(page.get_by_label(m["vault.user.repo"])).to_have_value("waymark.test.plain")

    # Log out → the Login screen.
    page.get_by_role("button", name=m["vault.user.logout"]).click()
    expect(page).to_have_url(phone.url("/vault"))
    expect(page.get_by_role("button", name=m["vault.login.scan"], exact=True)).to_be_visible()
    phone.shot("logged-out")


@VAULT
def test_upload_when_the_vault_is_gone_and_read_without_location(phone_for, vault):
    m = messages("en")
    phone = phone_for("en-US", geolocation={"latitude": 45.2411, "longitude": 13.9397, "accuracy": 8})
    page = phone.page
    log_in(phone, "en", vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, "en", USER_A[2])
    user_screen(phone, "en")
    read_location(phone, "en", {"latitude": 45.2411, "longitude": 13.9397})
    expect(page.locator(".vault-count")).to_have_text("1")
    vault.process.terminate()
    vault.process.wait(timeout=10)
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-user-error")).to_have_text("Error: can't access data vault")
    expect(page.locator(".vault-count")).to_have_text("1")
    phone.shot("upload-unreachable")
    # The browser gives no position (permission taken back).
    phone.context.clear_permissions()
    page.get_by_role("button", name=m["vault.user.read"], exact=True).click()
    expect(page.locator(".vault-user-error")).to_have_text(m["vault.user.readDenied"])
    expect(page.locator(".vault-count")).to_have_text("1")


@VAULT
def test_a_recorded_route_reaches_the_vault(phone_for, vault):
    m = messages("en")
    phone = phone_for("en-US")
    page = phone.page
    log_in(phone, "en", vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, "en", USER_A[2])
    start = int(time.time()) - 3600
    points = walk(45.2411, 13.9397, 300, 200, 12)
    record_route(page, start, [points[:6], points[6:]])
    user_screen(phone, "en")
    expect(page.locator(".vault-message")).to_have_text(fill(m["vault.user.imported"], count=12))
    expect(page.locator(".vault-count")).to_have_text("12")
    sent = cached_records(page)
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-count")).to_have_text("0")
    items = vault.items()
    assert [item["plaintext"] for item in items] == sent
    records = [item["record"] for item in items]
    assert [[record["latitude"], record["longitude"]] for record in records] == points
    assert list(records[0]) == ["timestamp", "latitude", "longitude", "altitude", "accuracy", "speed", "heading", "datum"]
    assert all(record["speed"] is not None and 0 <= record["heading"] < 360 for record in records)
    assert records[0]["altitude"] == 40 and records[0]["datum"] == "EPSG:4326"
    # Imported once: opening the screen again adds nothing.
    page.reload()
    expect(page.locator(".vault-count")).to_have_text("0")


# A route and its fixes as version 2 of the app's database kept them (before the vault's stores).
OLD_DATABASE = """async ({fixes}) => {
  const request = indexedDB.open('waymark', 2);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const name of ['uploads', 'routes', 'routeDeletes', 'keeper']) db.createObjectStore(name, { keyPath: 'id' });
    db.createObjectStore('routeFixes', { autoIncrement: true }).createIndex('routeId', 'routeId', { unique: false });
  };
  const db = await new Promise((resolve, reject) => { request.onsuccess = () => resolve(request.result); request.onerror = () => reject(request.error); });
  const tx = db.transaction(['routes', 'routeFixes'], 'readwrite');
  tx.objectStore('routes').put({ id: 'old-route', nonce: 'OLD', startedAt: fixes[0].time - 1, stoppedAt: fixes[fixes.length - 1].time + 1,
    status: 'stored', serverRouteId: null, distance: 0, elapsed: 0, trackCount: 1, fixCount: fixes.length, gaps: [], engine: null,
    settings: null, qrPeriod: 5, lookup: null, deleteToken: null, upload: null, lastError: null, storedAt: fixes[0].time });
  for (const fix of fixes) tx.objectStore('routeFixes').add({ routeId: 'old-route', track: 0, ...fix });
  await new Promise((resolve) => { tx.oncomplete = resolve; });
  db.close();
  return db.version;
}"""


@VAULT
def test_database_from_before_the_vault_is_upgraded_and_keeps_its_routes(phone_for, vault, server):
    m = messages("en")
    phone = phone_for("en-US")
    page = phone.page
    page.goto("/healthz")
    fixes = [{"latitude": 45.24 + i / 1000, "longitude": 13.94, "altitude": None, "accuracy": 5, "time": 1_764_000_000 + 10 * i} for i in range(3)]
    assert page.evaluate(OLD_DATABASE, {"fixes": fixes}) == 2
    log_in(phone, "en", vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, "en", USER_A[2])
    user_screen(phone, "en")
    expect(page.locator(".vault-count")).to_have_text("3")
    state = page.evaluate("""async () => {
      const routes = await import('/recorder/routes.js');
      const listed = await routes.listRoutes();
      const db = await new Promise((resolve) => { const r = indexedDB.open('waymark'); r.onsuccess = () => resolve(r.result); });
      const result = { version: db.version, stores: [...db.objectStoreNames].sort(), routes: listed.map((route) => route.id) };
      db.close();
      return result;
    }""")
    # Version 3 added the vault's stores; later versions add stores of their own (4: sceneOutbox).
    assert state["version"] >= 4 and state["routes"] == ["old-route"], state
    assert {"keeper", "routeDeletes", "routeFixes", "routes", "uploads", "vault", "vaultRecords"} <= set(state["stores"]), state
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-count")).to_have_text("0")
    assert [item["record"]["timestamp"] for item in vault.items()] == ["2025-11-24T16:00:00Z", "2025-11-24T16:00:10Z", "2025-11-24T16:00:20Z"]


def test_settings_link_to_the_vault(phone_for):
    m = messages("de")
    phone = phone_for("de-DE")
    phone.page.goto("/settings")
    phone.page.get_by_role("link", name=m["vault.settingsLink"]).click()
    expect(phone.page).to_have_url(phone.url("/vault"))
    expect(phone.page.get_by_role("heading", level=1)).to_have_text(m["vault.title"])


# A browser with BarcodeDetector and a camera (Chrome on Android): both stand-ins, since the
# Chromium here has neither. The detector answers with window.__qrText once a test sets it.
CAMERA = """
window.BarcodeDetector = class {
  static async getSupportedFormats() { return ['qr_code']; }
  constructor(options) { window.__detectorFormats = options.formats; }
  async detect(source) { window.__detected = (window.__detected || 0) + 1; return window.__qrText ? [{ rawValue: window.__qrText, format: 'qr_code' }] : []; }
};
navigator.mediaDevices.getUserMedia = async (constraints) => {
  window.__constraints = constraints;
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 64;
  canvas.getContext('2d').fillRect(0, 0, 64, 64);
  window.__stream = canvas.captureStream(5);
  return window.__stream;
};
"""


@VAULT
def test_camera_scanning_where_the_browser_reads_qr_codes(phone_for, vault):
    m = messages("de")
    phone = phone_for("de-DE")
    phone.context.add_init_script(CAMERA)
    page = phone.page
    page.goto("/vault")
    page.get_by_role("button", name=m["vault.login.scan"], exact=True).click()
    camera = page.locator("video.vault-camera")
    expect(camera).to_be_visible()
    expect(page.locator(".vault-scan-hint")).to_have_text(m["vault.scan.hint"])
    page.wait_for_timeout(600)
    assert page.evaluate("window.__detected || 0") >= 1, "the camera frames are looked at"
    assert page.evaluate("window.__detectorFormats") == ["qr_code"]
    assert page.evaluate("window.__constraints.video.facingMode") == "environment"
    # Abbrechen stops the camera and goes back.
    page.get_by_role("button", name=m["vault.cancel"], exact=True).click()
    expect(camera).to_be_hidden()
    assert page.evaluate("window.__stream.getTracks().every((track) => track.readyState === 'ended')")
    page.get_by_role("button", name=m["vault.login.scan"], exact=True).click()
    expect(camera).to_be_visible()
    page.evaluate("(text) => { window.__qrText = text; }", json.dumps({"PIA_URL": vault.url, "email": USER_A[0], "password": USER_A[1]}))
    expect_module_list(phone, "de", USER_A[2])
    assert page.evaluate("window.__stream.getTracks().every((track) => track.readyState === 'ended')"), "the camera is off after the code was read"


WIFI = """Object.defineProperty(navigator, 'connection', { configurable: true, value: Object.assign(new EventTarget(), { type: '%s' }) });"""


@VAULT
@pytest.mark.parametrize("kind,automatic", [("wifi", True), ("cellular", False)])
def test_automatic_upload_only_on_wifi(phone_for, vault, kind, automatic):
    m = messages("en")
    phone = phone_for("en-US", geolocation={"latitude": 45.2411, "longitude": 13.9397, "accuracy": 8})
    phone.context.add_init_script(WIFI % kind)
    page = phone.page
    log_in(phone, "en", vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, "en", USER_A[2])
    user_screen(phone, "en")
    expect(page.locator(".vault-wifi")).to_have_text(m["vault.user.wifi"])
    read_location(phone, "en", {"latitude": 45.2411, "longitude": 13.9397})
    expect(page.locator(".vault-count")).to_have_text("1")
    page.reload()
    if automatic:
        expect(page.locator(".vault-count")).to_have_text("0")
        expect(page.locator(".vault-message")).to_have_text(fill(m["vault.user.uploadedSealed"], count=1))
        assert len(vault.items()) == 1
    else:
        expect(page.get_by_role("button", name=m["vault.user.upload"])).to_be_enabled()
        page.wait_for_timeout(1000)
        expect(page.locator(".vault-count")).to_have_text("1")
        assert vault.items() == []


@pytest.mark.parametrize("locale,language", LOCALES)
def test_a_camera_that_may_not_be_used_leaves_the_photo(phone_for, locale, language):
    """BarcodeDetector is there but the camera is refused (no camera, or permission denied): the
    page says so and the photo is the way; no camera hint is left standing."""
    m = messages(language)
    phone = phone_for(locale)
    phone.context.add_init_script(CAMERA.replace("navigator.mediaDevices.getUserMedia = async (constraints) => {",
                                                 "navigator.mediaDevices.getUserMedia = async (constraints) => {\n"
                                                 "  throw new DOMException('Permission denied', 'NotAllowedError');"))
    page = phone.page
    page.goto("/vault")
    page.get_by_role("button", name=m["vault.login.scan"], exact=True).click()
    expect(page.locator(".vault-scan-status")).to_have_text(m["vault.scan.noCamera"])
    expect(page.locator("video.vault-camera")).to_be_hidden()
    expect(page.locator(".vault-scan-hint")).to_be_hidden()
    expect(page.get_by_text(m["vault.scan.photo"], exact=True)).to_be_visible()
    phone.shot("camera-refused")
    # Cancel clears the message.
    page.get_by_role("button", name=m["vault.cancel"], exact=True).click()
    expect(page.locator(".vault-scan-status")).to_be_hidden()


# 200 records put into the page's cache as the phone would have collected them.
CACHE_RECORDS = """async (records) => {
  const { vaultCache } = await import('/vault/connection.js');
  return vaultCache().add(records);
}"""


@VAULT
def test_two_hundred_records_in_batches_refused_ones_stay_and_go_again(phone_for, vault):
    """The issue's "done when" against the stand-in, from the browser: 200 records go in batches of
    100, sealed; exactly the refused ones stay cached; a second upload sends only those; the vault
    decrypts every item to the JSON the page kept."""
    m = messages("en")
    phone = phone_for("en-US")
    page = phone.page
    log_in(phone, "en", vault.url, USER_A[0], USER_A[1])
    expect_module_list(phone, "en", USER_A[2])
    start = 1_764_000_000
    records = [{"timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + 60 * i)), "latitude": 45 + i / 1000,
                "longitude": 13.5 + i / 2000, "altitude": 10 + i / 4, "accuracy": 5, "speed": 1.25, "heading": i % 360, "datum": "EPSG:4326"}
               for i in range(200)]
    assert page.evaluate(CACHE_RECORDS, records) == 200
    user_screen(phone, "en")
    expect(page.locator(".vault-count")).to_have_text("200")
    kept = cached_records(page)
    refused_indices = [3, 99, 100, 150, 199]
    vault.refuse([records[i]["timestamp"] for i in refused_indices])

    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-count")).to_have_text("5")
    message = page.locator(".vault-message")
    expect(message).to_contain_text(fill(m["vault.user.uploadedSealed"], count=195))
    expect(message).to_contain_text(fill(m["vault.user.refused"], count=5, reason="refused by the stand-in vault"))
    writes = [request for request in vault.requests() if request["method"] == "POST" and request["path"].endswith("/items")]
    assert [request["items"] for request in writes] == [100, 100]
    assert [request["status"] for request in writes] == [400, 400], "each batch held a refused record"
    items = vault.items()
    assert [item["plaintext"] for item in items] == [text for i, text in enumerate(kept) if i not in refused_indices]
    assert all(item["received"]["version"] == "0.4" for item in items)
    assert cached_records(page) == [kept[i] for i in refused_indices]

    # The vault takes them now: the second upload sends exactly those five, in one request.
    vault.refuse([])
    page.get_by_role("button", name=m["vault.user.upload"]).click()
    expect(page.locator(".vault-count")).to_have_text("0")
    expect(message).to_have_text(fill(m["vault.user.uploadedSealed"], count=5))
    writes = [request for request in vault.requests() if request["method"] == "POST" and request["path"].endswith("/items")]
    assert [request["items"] for request in writes] == [100, 100, 5]
    assert [item["plaintext"] for item in vault.items()[195:]] == [kept[i] for i in refused_indices]
    assert sorted(item["record"]["timestamp"] for item in vault.items()) == sorted(record["timestamp"] for record in records)
    full_shot(phone, "user-200")

"""A phone meets Waymark (#27): on https://phone.test:PORT/ (Waymark's CA trusted in the
browser's NSS database) the page is a secure context; the plain-HTTP port's /pair page tells
each platform how to trust the CA and opens the HTTPS address; /account shows the code that
opens /pair; and over plain HTTP on a name that is not local, every page says at once what the
browser withholds, in the chosen language, and links to HTTPS and /pair."""
import re
import subprocess

import pytest
from playwright.sync_api import expect

from conftest import PHONE_NAME, make_account, messages, username
from flows import sign_in

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
pytestmark = pytest.mark.database_independent


IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"

def read_code(locator, path):
    """The text of the QR code `locator` shows, read from a screenshot by zbarimg (zbar: not the
    zxing-cpp Waymark itself uses)."""
    locator.screenshot(path=str(path))
    answer = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, f"zbarimg found no code in {path}: {answer.stderr}"
    return answer.stdout.strip()


WHAT_A_PAGE_HAS = """() => ({
  secure: window.isSecureContext,
  subtle: Boolean(globalThis.crypto && crypto.subtle),
  serviceWorker: 'serviceWorker' in navigator,
  camera: Boolean(navigator.mediaDevices),
  protocol: location.protocol,
})"""


@pytest.mark.phone_origin
def test_on_https_the_phone_has_a_secure_context_and_no_warning(phone, server):
    page = phone.page
    m = messages("en")
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["home.heading"])
    assert page.url.startswith(f"https://{PHONE_NAME}:")
    assert page.evaluate(WHAT_A_PAGE_HAS) == {"secure": True, "subtle": True, "serviceWorker": True, "camera": True, "protocol": "https:"}
    expect(page.locator("#insecure")).to_be_hidden()
    phone.shot("1-secure")


@pytest.mark.phone_origin
@pytest.mark.parametrize("agent,platform,first_step,download", [
    (IPHONE, "ios", "pair.ios", "/ca.mobileconfig"),
    (ANDROID, "android", "pair.android", "/ca.crt"),
])
def test_the_pairing_page_shows_the_phones_steps_and_opens_waymark(phone_for, server, agent, platform, first_step, download):
    phone = phone_for("en-US", user_agent=agent)
    page = phone.page
    page.goto(f"http://{PHONE_NAME}:{server.http_port}/pair")
    expect(page.get_by_role("heading", level=1)).to_have_text("Open Waymark on this phone")
    # The phone's own platform comes first and open, the others folded.
    sections = page.locator("details")
    expect(sections.first).to_have_attribute("data-platform", platform)
    expect(sections.first).to_have_attribute("open", "")
    expect(sections.nth(1)).not_to_have_attribute("open", re.compile(".*"))
    link = sections.first.locator("a.download")
    expect(link).to_have_attribute("href", download)
    expect(page.locator(".fingerprint code")).to_have_text(re.compile(r"^([0-9A-F]{2}:){31}[0-9A-F]{2}$"))
    phone.shot(f"1-pair-{platform}")
    with page.expect_download() as downloaded:
        link.click()
    assert downloaded.value.suggested_filename in ("waymark-ca.crt", "waymark-ca.mobileconfig")

    page.get_by_role("link", name="Open Waymark").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(messages("en")["home.heading"])
    assert page.url == f"https://{PHONE_NAME}:{server.port}/"
    assert page.evaluate("() => window.isSecureContext")


@pytest.mark.phone_origin
def test_the_pairing_page_speaks_german_and_account_shows_its_code(phone_for, server, api, tmp_path):
    phone = phone_for("de-DE", user_agent=ANDROID)
    page = phone.page
    page.goto(f"http://{PHONE_NAME}:{server.http_port}/pair")
    expect(page.get_by_role("heading", level=1)).to_have_text("Waymark auf diesem Handy öffnen")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("link", name="Waymark öffnen")).to_have_attribute("href", f"https://{PHONE_NAME}:{server.port}/")
    phone.shot("1-pair-de")
    page.get_by_role("link", name="English").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Open Waymark on this phone")

    # A signed-in laptop pairs a phone too: /account shows the code that opens /pair.
    m = messages("de")
    name = username("paula")
    make_account(api, name)
    page.goto(f"https://{PHONE_NAME}:{server.port}/account")
    assert sign_in(phone, "de", name, "correct horse battery").status == 200
    section = page.locator("#pair")
    expect(section.get_by_role("heading", level=2)).to_have_text(m["pair.heading"])
    address = f"http://{PHONE_NAME}:{server.http_port}/pair"
    expect(section.get_by_role("link", name=address)).to_be_visible()
    section.scroll_into_view_if_needed()
    phone.shot("2-account-pair-code")
    assert read_code(section.locator(".pair-code"), tmp_path / "pair-code.png") == address


@pytest.mark.serve_args("--public-name", PHONE_NAME, "--tls", "off")
@pytest.mark.parametrize("language,locale", [("en", "en-US"), ("de", "de-DE")])
def test_plain_http_on_a_phone_name_says_what_the_browser_withholds(phone_for, server, language, locale):
    m = messages(language)
    phone = phone_for(locale)
    page = phone.page
    origin = f"http://{PHONE_NAME}:{server.port}"
    page.goto(origin + "/")
    assert page.evaluate(WHAT_A_PAGE_HAS) == {"secure": False, "subtle": False, "serviceWorker": False, "camera": False, "protocol": "http:"}
    notice = page.locator("#insecure")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(m["insecure.heading"])
    expect(notice).to_contain_text(m["insecure.text"])
    expect(notice.get_by_role("link", name=m["insecure.https"].replace("{address}", f"https://{PHONE_NAME}/"))).to_have_attribute("href", f"https://{PHONE_NAME}/")
    expect(notice.get_by_role("link", name=m["insecure.pair"])).to_have_attribute("href", "/pair")
    phone.shot("1-insecure-home")
    # The pages that need what is withheld open, with the notice, and fail loudly nowhere
    # (the phone fixture fails the test on any uncaught error).
    for path in ("/record", "/upload", "/camera", "/scenes/new", "/tasks", "/account"):
        page.goto(origin + path)
        expect(page.locator("#main")).not_to_contain_text(m["status.loading"])
        expect(notice).to_be_visible()
    phone.shot("2-insecure-account")
    page.goto(origin + "/")
    notice.get_by_role("link", name=m["insecure.pair"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Open Waymark on this phone" if language == "en" else "Waymark auf diesem Handy öffnen")
    expect(page.locator(".warning")).to_contain_text("--host 0.0.0.0")
    phone.shot("3-insecure-pair")

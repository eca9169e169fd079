"""Every page of pages.json opens cleanly on a phone (no console error, no CSP violation) with
the security headers; anything else is a 404; the app is installable."""
import json
import re
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect

from conftest import WEB, make_account, messages, username, wait_for_service_worker

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
pytestmark = pytest.mark.database_independent

PAGES = [page["path"] for page in json.loads((WEB / "app" / "pages.json").read_text())]
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src {images}; connect-src 'self' {vaults}; "
       "frame-src 'self' https: {vaults}; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
# The vault the /vault page may talk to when `serve` is given no --vault-url (DESIGN §3.11).
DEFAULT_VAULT = "https://data-vault.eu"


def shot_name(path):
    """`/` → home, `/photos/:id` → photos-id: a file name, not a folder."""
    return re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"


def check_headers(answer, server):
    """The security headers; images may also come from the map's tile server (--tile-url), and the
    browser may talk to (and frame) the default data vault; nothing else."""
    headers = answer.headers
    images = " ".join(["'self'", "data:", "blob:"] + ([server.tile_origin] if server.tile_origin else []))
    assert headers.get("content-security-policy") == CSP.format(images=images, vaults=DEFAULT_VAULT), headers.get("content-security-policy")
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("referrer-policy") == "same-origin"


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_every_page_opens_cleanly(phone, api, signed_in):
    page = phone.page
    if signed_in:
        grace = username("grace")
        make_account(api, grace)
        assert page.request.post("/api/v1/sessions", data={"username": grace, "password": "correct horse battery"}).status == 200
    # No page's own questions fail, signed in or not: who is signed in is asked of
    # /api/v1/session, which answers an anonymous visitor without an error status. (A page of
    # one thing, /photos/:id, is opened here with the id ":id": its 404 is the answer it shows.)
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.request.method} {r.url}")
            if "/api/" in r.url and r.status >= 400 and ":id" not in unquote(r.url) else None)
    for path in PAGES:
        answer = page.goto(path)
        assert answer.status == 200, path
        assert answer.headers["content-type"].startswith("text/html")
        check_headers(answer, phone.server)
        expect(page.locator("main h1")).to_have_count(1)
        expect(page.get_by_role("banner")).to_be_visible()
        page.wait_for_load_state("networkidle")
        phone.shot(shot_name(path))
    assert failed == []


def test_files_have_the_headers_and_the_right_types(phone):
    request = phone.page.request
    types = {
        "/app/main.js": "text/javascript", "/app/sw.js": "text/javascript", "/styles/app.css": "text/css",
        "/i18n/de.json": "application/json", "/app/pages.json": "application/json",
        "/manifest.webmanifest": "application/manifest+json", "/icons/icon-512.png": "image/png",
    }
    for path, mime in types.items():
        answer = request.get(path)
        assert answer.status == 200, path
        assert answer.headers["content-type"].split(";")[0].strip() in (mime, "application/javascript" if mime == "text/javascript" else mime), f"{path}: {answer.headers['content-type']}"
        check_headers(answer, phone.server)
    assert request.get("/app/sw.js").headers.get("service-worker-allowed") == "/"


def test_unknown_paths_are_404(phone):
    for path in ["/no-such-page", "/account/extra", "/app/missing.js", "/../Package.swift", "/app/%2e%2e/%2e%2e/Package.swift"]:
        answer = phone.page.request.get(path)
        assert answer.status == 404, f"{path}: {answer.status}"


def test_the_app_is_installable(phone):
    page = phone.page
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(messages("en")["home.heading"])
    assert wait_for_service_worker(page).endswith("/app/sw.js")
    phone.shot("home")
    cdp = phone.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest.get("errors", []) == [], manifest
    assert manifest["url"].endswith("/manifest.webmanifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, where Chromium never offers installing; everything
    # that depends on the app (manifest, icons, service worker, secure origin) must pass.
    assert [error for error in errors if error["errorId"] != "in-incognito"] == [], errors


def test_dark_mode_follows_the_system(browser, server, request):
    from conftest import PHONE, RESULTS
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2,
                                  color_scheme="dark", locale="de-DE", base_url=server.url)
    try:
        page = context.new_page()
        RESULTS.mkdir(parents=True, exist_ok=True)
        for path in PAGES:
            page.goto(path)
            expect(page.locator("main h1")).to_have_count(1)
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(15, 23, 21)", background
            page.screenshot(path=str(RESULTS / f"{request.node.name}-{shot_name(path)}.png"))
    finally:
        context.close()


def test_a_page_left_while_it_draws_never_covers_the_next(phone_for):
    """A page still waiting when it is left (for its module, or for the network) must not draw
    over the page that replaced it, nor take its title (a CI run once saw the inspection page
    drawn at /account after a quick back). Service workers are off, so that the test's routes see
    every request and can hold it."""
    phone = phone_for("en-US", service_workers="block")
    page = phone.page
    en = messages("en")
    account_title = f"{en['page.account.title']} · {en['app.name']}"
    held = []
    phone.context.route("**/app/pages/map.js", lambda route: held.append(route))
    phone.context.route("**/api/v1/photos/held-photo", lambda route: held.append(route))

    def settle():
        """Lets the page run what the released answer started, to the end."""
        page.wait_for_load_state("networkidle")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")

    def only_the_account_page():
        expect(page).to_have_url(phone.url("/account"))
        expect(page.locator("main")).to_have_count(1)
        expect(page.locator("main h1")).to_have_count(1)
        expect(page).to_have_title(account_title)
        expect(page.get_by_role("navigation").get_by_role("link", name=en["nav.account"])).to_have_attribute("aria-current", "page")

    # Left while its module loads: the map is tapped, then Account before map.js arrives.
    page.goto("/account")
    expect(page).to_have_title(account_title)
    nav = page.get_by_role("navigation")
    with page.expect_request("**/app/pages/map.js"):
        nav.get_by_role("link", name=en["nav.map"]).click()
    nav.get_by_role("link", name=en["nav.account"]).click()
    only_the_account_page()
    held.pop().continue_()
    settle()
    only_the_account_page()
    expect(page.locator("main")).not_to_have_class(re.compile("map-main"))
    expect(page.locator(".map")).to_have_count(0)

    # Left while it waits for the network: a photo's page, then Account before the photo comes.
    with page.expect_request("**/api/v1/photos/held-photo"):
        page.goto("/photos/held-photo")
    nav.get_by_role("link", name=en["nav.account"]).click()
    only_the_account_page()
    with page.expect_response("**/api/v1/photos/held-photo"):
        held.pop().continue_()
    settle()
    only_the_account_page()
    expect(page.locator("main")).not_to_contain_text(en["photo.notFound"])
    phone.shot("account-after-left-pages")

    # The pages still draw when they are not left.
    phone.context.unroute("**/app/pages/map.js")
    nav.get_by_role("link", name=en["nav.map"]).click()
    expect(page.locator("main.map-main .map")).to_have_count(1)


def test_the_skip_link_goes_to_the_content_without_drawing_the_page_again(phone):
    """"Skip to content" (the first thing the keyboard reaches) moves focus to the page; what was
    typed there stays, and Back returns to the top without drawing the page again either."""
    page = phone.page
    en = messages("en")
    page.goto("/account")
    username_field = page.locator("#sign-in-form").get_by_label(en["field.username"])
    username_field.fill("ada")
    skip = page.get_by_role("link", name=en["skip.link"])
    page.get_by_role("banner").get_by_role("link", name=en["app.name"]).focus()
    page.keyboard.press("Shift+Tab")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(phone.url("/account#main"))
    expect(page.locator("main")).to_be_focused()
    expect(username_field).to_have_value("ada")
    page.go_back()
    expect(page).to_have_url(phone.url("/account"))
    expect(username_field).to_have_value("ada")
    phone.shot("after-skip-and-back")

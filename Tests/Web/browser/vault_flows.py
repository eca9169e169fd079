"""What a person does on the /vault pages (seed 002), and what the tests read back: the stand-in
vault's accounts, a login QR code made with qrencode, the records the page keeps in IndexedDB
as the vault should receive them, and whether an element's text is cut with an ellipsis."""
import json
import subprocess
import urllib.parse
import urllib.request

from playwright.sync_api import expect

from conftest import RESULTS, messages

USER_A = ("user_a@ownyourdata.eu", "user_a", "User A")
USER_B = ("user_b@ownyourdata.eu", "Q/wdfbv67", "Very long User Name with many words")
APP = ("eu.ownyourdata.waymark", "waymark-app-secret-0123456789")
LOCALES = [("en-US", "en"), ("de-DE", "de")]


def words(text):
    """Text as a person reads it: runs of white space as one space."""
    return " ".join((text or "").split())


def fill(template, **parts):
    """A message with its {placeholders} filled in."""
    for name, value in parts.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def open_login_form(phone, language):
    m = messages(language)
    page = phone.page
    page.goto("/vault")
    page.get_by_role("button", name=m["vault.login.enter"], exact=True).click()
    expect(page.get_by_label(m["vault.login.url"])).to_be_visible()


def log_in(phone, language, url, email, password, submit=True):
    """Fills the login form (opening it when needed) and presses Login."""
    m = messages(language)
    page = phone.page
    if not page.get_by_label(m["vault.login.url"]).is_visible():
        open_login_form(phone, language)
    page.get_by_label(m["vault.login.url"]).fill(url)
    page.get_by_label(m["vault.login.username"]).fill(email)
    page.get_by_label(m["vault.login.password"], exact=True).fill(password)
    if submit:
        page.get_by_role("button", name=m["vault.login.submit"], exact=True).click()


def expect_module_list(phone, language, name):
    m = messages(language)
    expect(phone.page.get_by_role("heading", level=1)).to_have_text(m["vault.modules.heading"])
    expect(phone.page.locator(".vault-user-name")).to_have_text(name)


def qr_png(path, payload):
    """A PNG of the QR code of `payload` (a dict as JSON, or text), made by qrencode."""
    text = payload if isinstance(payload, str) else json.dumps(payload, indent=2)
    subprocess.run(["qrencode", "-s", "8", "-m", "4", "-o", str(path), text], check=True)
    return path


def scan_photo(phone, language, path):
    """[Scan QR Code], then the photo of the code (this browser has no BarcodeDetector)."""
    m = messages(language)
    page = phone.page
    page.get_by_role("button", name=m["vault.login.scan"], exact=True).click()
    expect(page.get_by_role("heading", name=m["vault.login.scan"])).to_be_visible()
    expect(page.get_by_role("button", name=m["vault.cancel"], exact=True)).to_be_visible()
    page.locator("input.vault-photo").set_input_files(str(path))


def cut_off(locator):
    """How an element's text is cut: {'wide': text wider than the box (one-line ellipsis),
    'tall': taller than the box, 'lines': the lines shown, 'ellipsis': text-overflow}."""
    return locator.evaluate("""(element) => {
      const style = getComputedStyle(element);
      return {
        wide: element.scrollWidth > element.clientWidth + 1,
        tall: element.scrollHeight > element.clientHeight + 1,
        lines: Math.round(element.clientHeight / parseFloat(style.lineHeight)),
        ellipsis: style.textOverflow,
        clamp: style.webkitLineClamp,
      };
    }""")


# The cached records as the page will send them: recordJSON of each, oldest first.
CACHED = """async () => {
  const { recordJSON } = await import('/vault/seal.js');
  const { numberedRecords } = await import('/app/store.js');
  return (await numberedRecords('vaultRecords').all()).map((cached) => recordJSON(cached.record));
}"""


def cached_records(page):
    return page.evaluate(CACHED)


def vault_modules(vault, email, password):
    """The stand-in's module list for a user, asked directly (not through the page)."""
    form = urllib.parse.urlencode({"grant_type": "password", "email": email, "password": password}).encode()
    with urllib.request.urlopen(urllib.request.Request(vault.url + "/oauth/token", data=form), timeout=10) as answer:
        token = json.loads(answer.read())["access_token"]
    request = urllib.request.Request(vault.url + "/api/modules/index", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def module_link(module, vault_url):
    """The seed's `[url]?PIA_URL=…&APP_KEY=…&APP_SECRET=…`, written independently of the page."""
    quote = lambda value: urllib.parse.quote(value, safe="")
    return f"{module['url']}?PIA_URL={quote(vault_url)}&APP_KEY={quote(module['uid'])}&APP_SECRET={quote(module['secret'])}"


def user_screen(phone, language):
    m = messages(language)
    phone.page.locator(".vault-user-link").click()
    expect(phone.page.get_by_role("button", name=m["vault.user.upload"])).to_be_visible()


def read_location(phone, language, point):
    """Moves the phone to `point` and taps [read location]."""
    m = messages(language)
    phone.context.set_geolocation({**point, "accuracy": 8})
    phone.page.get_by_role("button", name=m["vault.user.read"], exact=True).click()


def full_shot(phone, step):
    """A screenshot of the whole page, not only what the phone's screen shows."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{phone.name}-{step}.png"
    phone.page.screenshot(path=str(path), full_page=True)
    return path

"""Fixtures for the web app's browser tests: a fresh real `waymark serve` per test, and a
phone-sized Chromium page that records console errors, page errors and CSP violations and
saves screenshots to .build/test-results/web/.

WAYMARK picks the server binary (default .build/debug/waymark), CHROMIUM the browser
(default /usr/bin/chromium); DATABASE_URL is passed through to the server unchanged.

A test marked `phone_origin` meets the app where a phone does (#27): on
https://phone.test:PORT/, a name that is not localhost (Chromium maps it to 127.0.0.1 with
--host-resolver-rules), served by `waymark serve --tls auto --public-name phone.test`, with
Waymark's CA trusted the way a user trusts it: imported with certutil into the NSS database of
the browser's home. No flag makes the browser take an insecure origin as secure.
"""
import contextlib
import json
import os
import re
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time
import urllib.request
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[3]
WEB = REPO / "Web"
RESULTS = REPO / ".build" / "test-results" / "web"
WAYMARK = os.environ.get("WAYMARK", str(REPO / ".build" / "debug" / "waymark"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
# The name the phone_origin tests open the app by; Chromium resolves it to 127.0.0.1.
PHONE_NAME = "phone.test"


def messages(language):
    """The app's own words (Web/i18n/<language>.json), so tests assert what a person reads."""
    return json.loads((WEB / "i18n" / f"{language}.json").read_text(encoding="utf-8"))


def username(name):
    """A username no other test uses: on PostgreSQL (DATABASE_URL) every test's server shares one database."""
    return f"{name}-{os.urandom(4).hex()}"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url, port, log, tile_origin=None, api_url=None):
        self.url, self.port, self.log = url, port, log
        # Where the tests' own HTTP client (the api fixture) reaches it: the browser's name is
        # known only to the browser.
        self.api_url = api_url or url
        # With TLS on, the plain-HTTP port (/pair, /ca.crt, redirects).
        self.http_port = None
        self.tile_origin = tile_origin
        self.tile_requests = []
        # Data vaults this server lets the pages talk to ({vault}, {closed-vault}): the browser logs
        # their refusals (401, CORS, no answer) as errors, which the /vault page shows in its own words.
        self.vault_origins = []

    def log_text(self):
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


def pytest_configure(config):
    config.addinivalue_line("markers", "serve_args(*args): more arguments for `waymark serve` in this test ({tiles}: the tile stub's origin; "
                            "{vault}: the stand-in data vault's URL; {closed-vault}: a vault URL where nothing listens; "
                            "{geocoder}: the stand-in reverse geocoder's URL)")
    config.addinivalue_line("markers", "vault_options(allow_origin=True): how the stand-in data vault starts (allow_origin=False: no CORS headers)")
    config.addinivalue_line("markers", "database_independent: the server's database plays no part in what the test checks (make test's "
                            "PostgreSQL pass, DATABASE_URL set, deselects it: scripts/web-check)")
    config.addinivalue_line("markers", "phone_origin: the server speaks HTTPS (--tls auto) and the phone opens it at https://phone.test:PORT/ with Waymark's CA trusted")


class Authority:
    """Waymark's certificate authority for the session (made by `waymark serve --tls auto` on its
    first start) and a home folder whose NSS database trusts it, as a user's browser would."""

    def __init__(self, folder, home):
        self.folder, self.home = folder, home
        self.certificate = folder / "ca.crt"

    def install(self, data):
        """Gives the data folder `data` this CA, so that the server it starts signs with it."""
        tls = data / "tls"
        tls.mkdir(mode=0o700)
        for name in ("ca.key", "ca.crt"):
            shutil.copyfile(self.folder / name, tls / name)
            (tls / name).chmod(0o600)


def wait_for_health(process, served, check):
    """Waits until `check()` is true (the server answers /healthz); fails if the server exits or 60 s pass."""
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{served.log_text()}", pytrace=False)
        try:
            if check():
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the server did not answer /healthz within 60 s:\n{served.log_text()}", pytrace=False)
        time.sleep(0.1)


def https_health(port, ca_file, name=PHONE_NAME):
    """Whether the server on 127.0.0.1:`port` answers /healthz over TLS with a chain `ca_file` verifies for `name`."""
    context = ssl.create_default_context(cafile=str(ca_file))
    with socket.create_connection(("127.0.0.1", port), timeout=2) as raw, context.wrap_socket(raw, server_hostname=name) as tls:
        tls.sendall(f"GET /healthz HTTP/1.1\r\nHost: {name}:{port}\r\nConnection: close\r\n\r\n".encode())
        return tls.recv(64).startswith(b"HTTP/1.1 200")


@pytest.fixture(scope="session")
def authority(tmp_path_factory):
    if not os.access(WAYMARK, os.X_OK):
        pytest.fail(f"no server binary at {WAYMARK}: build it (swift build) or pass its path to scripts/web-check", pytrace=False)
    if not shutil.which("certutil"):
        pytest.fail("certutil is missing: run scripts/bootstrap (Debian: apt install libnss3-tools)", pytrace=False)
    root = tmp_path_factory.mktemp("authority")
    data = root / "data"
    data.mkdir()
    port, http_port = free_port(), free_port()
    log = root / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([WAYMARK, "serve", "--data", str(data), "--host", "127.0.0.1", "--tls", "auto", "--public-name", PHONE_NAME,
                                    "--port", str(port), "--http-port", str(http_port), "--web", "none"],
                                   cwd=REPO, env=os.environ.copy(), stdout=out, stderr=subprocess.STDOUT)
    wait_for_health(process, Server("", port, log), lambda: https_health(port, data / "tls" / "ca.crt"))
    stop_process(process)
    return Authority(data / "tls", home_trusting(root / "home", data / "tls" / "ca.crt", "Waymark (tests)"))


def home_trusting(home, certificate, nickname):
    """A home folder whose NSS database (~/.pki/nssdb, where Chromium on Linux keeps the
    authorities a user added) trusts the CA certificate `certificate` (PEM) for web sites."""
    nss = home / ".pki" / "nssdb"
    nss.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nss}", "--empty-password"], check=True, capture_output=True)
    subprocess.run(["certutil", "-A", "-d", f"sql:{nss}", "-n", nickname, "-t", "C,,", "-i", str(certificate)], check=True, capture_output=True)
    return home


@pytest.fixture(scope="session")
def playwright_instance(authority):
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: run scripts/bootstrap (Debian: apt install chromium) or set CHROMIUM", pytrace=False)
    # The tests' own HTTP client (Playwright's, in node) trusts the CA too.
    os.environ["NODE_EXTRA_CA_CERTS"] = str(authority.certificate)
    with sync_playwright() as p:
        yield p


def launch_chromium(playwright_instance, authority, args=(), name=PHONE_NAME):
    """Chromium with a home whose NSS database trusts `authority`'s CA (Waymark's, or any with a
    `home`), and `name` resolved to 127.0.0.1 (the one name a test maps; nothing else about the
    browser's security changes)."""
    return playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True, env={**os.environ, "HOME": str(authority.home)},
        args=[f"--host-resolver-rules=MAP {name} 127.0.0.1", *args])


@pytest.fixture(scope="session")
def browser(playwright_instance, authority):
    browser = launch_chromium(playwright_instance, authority)
    yield browser
    browser.close()


def tile_png():
    """One 256-px map tile: pale green with a darker grid line on two edges, so that a
    screenshot shows where the tiles meet."""
    size = 256
    light, line = b"\xe4\xee\xe0", b"\xb8\xc8\xb4"
    rows = []
    for y in range(size):
        row = line * size if y == 0 else line + light * (size - 1)
        rows.append(b"\x00" + row)
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


class StandIn(BaseHTTPRequestHandler):
    """A quiet request handler for the tests' local stand-ins, with one way to answer."""

    def answer(self, content_type, body, status=200, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serving(handler):
    """Runs `handler` (a StandIn) on 127.0.0.1 at a free port for the block; yields its origin."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def tile_server():
    """A local stand-in for the map's tile server (tests never use the internet): any path
    answers one PNG; the paths asked for are recorded."""
    png = tile_png()
    asked = []

    class Handler(StandIn):
        def do_GET(self):
            asked.append(self.path)
            self.answer("image/png", png, headers=[("Cache-Control", "max-age=3600")])

    with serving(Handler) as origin:
        yield origin, asked


_SERVE_HELP = []


def serve_options():
    """The options this server binary's `serve` knows (the map's --tile-url came with issue #12).
    Asked once; while the binary is being rebuilt ("text file busy") it is asked again."""
    if not _SERVE_HELP:
        deadline = time.monotonic() + 60
        while True:
            try:
                _SERVE_HELP.append(subprocess.run([WAYMARK, "serve", "--help"], capture_output=True, text=True, timeout=60, check=True).stdout)
                break
            except (OSError, subprocess.CalledProcessError) as error:
                if time.monotonic() > deadline:
                    pytest.fail(f"`{WAYMARK} serve --help` failed: {error}", pytrace=False)
                time.sleep(1)
    return _SERVE_HELP[0]


@pytest.fixture
def server_port():
    """The port of this test's server, known before it starts (the stand-in vault allows its origin)."""
    return free_port()


class Vault:
    def __init__(self, url, state, process):
        self.url, self.state, self.process = url, state, process
        self.origin = url

    def items(self):
        """What the vault stored (items.jsonl): {repo, id, received, plaintext, record} each."""
        path = self.state / "items.jsonl"
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] if path.exists() else []

    def requests(self):
        path = self.state / "requests.jsonl"
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] if path.exists() else []

    def refuse(self, timestamps):
        """Makes the vault refuse the records with these timestamps (refuse.json, read on every request)."""
        (self.state / "refuse.json").write_text(json.dumps(list(timestamps)), encoding="utf-8")


@pytest.fixture
def vault(tmp_path, request, server_port):
    """The stand-in OwnYourData vault (Tests/Vault/standin-vault.py) on a free port, allowing this
    test's server origin (CORS) unless the test is marked vault_options(allow_origin=False)."""
    marker = request.node.get_closest_marker("vault_options")
    options = marker.kwargs if marker else {}
    state = tmp_path / "vault"
    command = [sys.executable, str(REPO / "Tests" / "Vault" / "standin-vault.py"), "--state", str(state)]
    if options.get("allow_origin", True):
        command += ["--allow-origin", f"http://127.0.0.1:{server_port}"]
    log = open(tmp_path / "vault.log", "wb")
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=log)
    line = []
    reader = threading.Thread(target=lambda: line.append(process.stdout.readline().decode().strip()), daemon=True)
    reader.start()
    reader.join(30)
    if not line or not line[0].startswith("listening "):
        process.kill()
        pytest.fail(f"the stand-in vault did not start: {line} {(tmp_path / 'vault.log').read_text(errors='replace')}", pytrace=False)
    yield Vault(line[0].split(" ", 1)[1], state, process)
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


@pytest.fixture
def geocoder():
    """A local stand-in for a Nominatim-compatible reverse geocoder (`serve --nominatim-url`):
    `/reverse` answers as Nominatim's jsonv2 does, naming the asked point and language in
    `display_name`; the queries asked are recorded."""
    asked = []

    class Handler(StandIn):
        def do_GET(self):
            query = dict(parse_qsl(urlsplit(self.path).query))
            asked.append(query)
            name = f"Náměstí Svobody 1, 602 00 Brno ({query.get('accept-language')})"
            self.answer("application/json; charset=utf-8", json.dumps({
                "place_id": 1, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
                "lat": query.get("lat"), "lon": query.get("lon"), "display_name": name}).encode())

    with serving(Handler) as origin:
        yield origin, asked


@pytest.fixture
def server(tmp_path, request, tile_server, server_port):
    """A fresh server: its own data folder and a free port, map tiles from the local tile stub;
    killed after the test."""
    marker = request.node.get_closest_marker("serve_args")
    extra = [str(arg) for arg in marker.args] if marker else []
    if not os.access(WAYMARK, os.X_OK):
        pytest.fail(f"no server binary at {WAYMARK}: build it (swift build) or pass its path to scripts/web-check", pytrace=False)
    tile_origin, tile_requests = tile_server
    # "{tiles}" in a serve_args argument is the tile stub's origin (e.g. the route map's --terrain-tile-url);
    # "{tiles-alias}" the same stub by another name (localhost), a second origin for the CSP.
    alias = tile_origin.replace("127.0.0.1", "localhost")
    extra = [arg.replace("{tiles}", tile_origin).replace("{tiles-alias}", alias) for arg in extra]
    # "{vault}" is the stand-in data vault (started for the test); "{closed-vault}" a port where nothing listens.
    vault_origins = []
    if any("{vault}" in arg for arg in extra):
        vault_url = request.getfixturevalue("vault").url
        vault_origins.append(vault_url)
        extra = [arg.replace("{vault}", vault_url) for arg in extra]
    if any("{closed-vault}" in arg for arg in extra):
        closed = f"http://127.0.0.1:{free_port()}"
        vault_origins.append(closed)
        extra = [arg.replace("{closed-vault}", closed) for arg in extra]
    # "{geocoder}" is the stand-in reverse geocoder (started for the test).
    if any("{geocoder}" in arg for arg in extra):
        geocoder_url = request.getfixturevalue("geocoder")[0]
        extra = [arg.replace("{geocoder}", geocoder_url) for arg in extra]
    if "--tile-url" in serve_options():
        extra = ["--tile-url", tile_origin + "/{z}/{x}/{y}.png", *extra]
    else:
        tile_origin = None
    port = server_port
    data = tmp_path / "data"
    data.mkdir()
    log = tmp_path / "server.log"
    secure = request.node.get_closest_marker("phone_origin") is not None
    if secure:
        authority = request.getfixturevalue("authority")
        authority.install(data)
        http_port = free_port()
        extra = ["--tls", "auto", "--public-name", PHONE_NAME, "--http-port", str(http_port), *extra]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [WAYMARK, "serve", "--data", str(data), "--host", "127.0.0.1", "--port", str(port), "--web", str(WEB), *extra],
            cwd=REPO, env=os.environ.copy(), stdout=out, stderr=subprocess.STDOUT)
    if secure:
        served = Server(f"https://{PHONE_NAME}:{port}", port, log, tile_origin, api_url=f"https://127.0.0.1:{port}")
        served.http_port = http_port
        check = lambda: https_health(port, authority.certificate)
    else:
        served = Server(f"http://127.0.0.1:{port}", port, log, tile_origin)

        def check():
            with urllib.request.urlopen(served.url + "/healthz", timeout=2) as answer:
                return answer.status == 200
    served.tile_requests = tile_requests
    served.vault_origins = vault_origins
    wait_for_health(process, served, check)
    yield served
    stop_process(process)


def stop_process(process):
    """Stops a process a test started: SIGTERM, then SIGKILL after 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def api(playwright_instance, server):
    """An HTTP client of its own (not the browser's cookies), for setting up and checking."""
    context = playwright_instance.request.new_context(base_url=server.api_url)
    yield context
    context.dispose()


def make_account(api, username, password="correct horse battery", display_name=None):
    answer = api.post("/api/v1/accounts", data={"username": username, "password": password, "displayName": display_name or username.title()})
    assert answer.status == 201, answer.text()
    return answer.json()["user"]


class Phone:
    """A phone-sized page that collects what would be a defect: console errors, uncaught
    exceptions, CSP violations and 5xx answers."""

    def __init__(self, context, page, server, name):
        self.context, self.page, self.server, self.name = context, page, server, name
        self.problems = []
        self.shots = []

    def url(self, path="/"):
        return self.server.url + path

    def shot(self, step):
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{self.name}-{step}.png"
        self.page.screenshot(path=str(path))
        self.shots.append(path)
        return path

    def watch(self, page):
        def console(message):
            if message.type != "error":
                return
            location = message.location.get("url", "") if message.location else ""
            # The browser logs every 4xx answer and every request that failed offline; for the API
            # those are expected answers that the page shows in its own words.
            if message.text.startswith("Failed to load resource") and "/api/" in location:
                return
            # The same for a data vault the test started: its 401, CORS refusal or silence is what
            # the /vault page then explains.
            if any(location.startswith(origin) or f"'{origin}/" in message.text for origin in self.server.vault_origins):
                if message.text.startswith("Failed to load resource") or "blocked by CORS policy" in message.text:
                    return
            self.problems.append(f"console error on {page.url}: {message.text} ({location})")

        page.on("console", console)
        page.on("pageerror", lambda error: self.problems.append(f"uncaught error on {page.url}: {error}"))

        def response(answer):
            if answer.status >= 500:
                self.problems.append(f"{answer.status} from {answer.request.method} {answer.url}")

        page.on("response", response)


CSP_WATCH = """
document.addEventListener('securitypolicyviolation', (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} in ${event.sourceFile}:${event.lineNumber}`);
});
"""


# Every phone but a newcomer's has chosen its job on the first screen already (photos, whose
# bar is Nearby, Map, Upload, Account), so that `/` opens Nearby; test_navigation.py meets the
# first screen with newcomer=True.
KNOWN_JOB = """
try { if (!localStorage.getItem('waymark.job')) localStorage.setItem('waymark.job', 'photos'); } catch {}
"""


def open_phone(browser, server, request, locale, geolocation=None, newcomer=False, **options):
    """A phone (see Phone) in `locale`; `options` go to browser.new_context as they are. A
    `newcomer` has chosen no job yet, so its `/` opens the first screen."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name).strip("-")
    if geolocation is not None:
        options |= {"geolocation": geolocation, "permissions": ["geolocation"]}
    sizes = {"viewport": PHONE, "screen": PHONE} | {key: options.pop(key) for key in ("viewport", "screen") if key in options}
    context = browser.new_context(
        **sizes, is_mobile=True, has_touch=True, device_scale_factor=2,
        locale=locale, timezone_id="Europe/Berlin", base_url=server.url, accept_downloads=True, **options)
    context.set_default_timeout(15000)
    context.add_init_script(CSP_WATCH)
    if not newcomer:
        context.add_init_script(KNOWN_JOB)
    page = context.new_page()
    phone = Phone(context, page, server, name)
    phone.watch(page)
    return phone


@contextlib.contextmanager
def phones_on(browser, server, request, prepare=lambda phone: None):
    """make(locale, geolocation) opens phones on `browser` (see open_phone), each readied by
    `prepare`; at the end of the block every one is closed and must have seen no problem."""
    phones = []

    def make(locale="en-US", geolocation=None, newcomer=False, **options):
        phone = open_phone(browser, server, request, locale, geolocation, newcomer, **options)
        prepare(phone)
        phones.append(phone)
        return phone

    yield make
    problems = [problem for phone in phones for problem in phone.problems]
    for phone in phones:
        phone.context.close()
    assert problems == [], "\n".join(problems) + f"\nserver log:\n{server.log_text()}"


@pytest.fixture
def phone_for(browser, server, request):
    """phone_for(locale, geolocation={"latitude": …, "longitude": …, "accuracy": …}) opens a phone
    in that locale (with its position, and the permission to read it, when given; other keyword
    arguments go to the browser context); after the test it must have seen no problem."""
    with phones_on(browser, server, request) as make:
        yield make


@pytest.fixture
def phone(phone_for):
    return phone_for("en-US")


# page.evaluate has no time limit of its own: a worker whose install fails (a shell file the
# server does not answer) would hold the test, and the whole run, forever.
WAIT_FOR_SERVICE_WORKER = """async (seconds) => {
  const controlled = new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true }));
  if (!navigator.serviceWorker.controller) {
    const late = new Promise((resolve) => setTimeout(() => resolve(false), seconds * 1000));
    if (!(await Promise.race([controlled, late])) && !navigator.serviceWorker.controller) {
      const registration = await navigator.serviceWorker.getRegistration();
      const worker = registration && (registration.installing || registration.waiting || registration.active);
      return { error: `no service worker controls the page after ${seconds} s (registered: ${registration ? 'yes' : 'no'}, worker: ${worker ? worker.state : 'none'})` };
    }
  }
  return { url: navigator.serviceWorker.controller.scriptURL };
}"""


def wait_for_service_worker(page, seconds=60):
    """Waits until the service worker controls the page (page.evaluate works under the CSP;
    wait_for_function would need eval) and returns its script URL; fails after `seconds`."""
    answer = page.evaluate(WAIT_FOR_SERVICE_WORKER, seconds)
    if "error" in answer:
        pytest.fail(answer["error"], pytrace=False)
    return answer["url"]

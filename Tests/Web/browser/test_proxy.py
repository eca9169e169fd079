"""deploy/ as an operator runs it (#27), in front of `waymark serve --tls off --trusted-proxy 127.0.0.1`:
- Caddy with deploy/Caddyfile gets a certificate for waymark.test from pebble (Let's Encrypt's
  ACME test server, here told to take every challenge as passed, since no DNS names this machine);
- nginx with deploy/nginx.conf, the certificate paths that certbot would fill pointed at one made
  here by OpenSSL for waymark.test.
Through each, Chromium, trusting the issuing root the way a user's browser trusts Let's
Encrypt's, signs up and uploads a photo on a secure context; and Waymark's throttle and log see
each client's own address (clients here connect from 127.0.0.2 and 127.0.0.3, loopback addresses
of their own), never one a client wrote into X-Forwarded-For."""
import json
import os
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import REPO, free_port, home_trusting, launch_chromium, messages, open_phone, stop_process, username
from flows import sign_up
from photos_flows import here, make_jpeg
from test_photos import take_photo

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
pytestmark = pytest.mark.database_independent

PROXY_NAME = "waymark.test"


class Trusted:
    def __init__(self, home):
        self.home = home


def wait_until(check, what, seconds=90):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, ssl.SSLError) as error:
            last = error
        time.sleep(0.2)
    pytest.fail(f"{what} within {seconds} s (last: {last})", pytrace=False)


def wait_for_tls(process, port, root, log, what, seconds=90):
    """Waits until the proxy `process` on 127.0.0.1:`port` completes a handshake for waymark.test
    that `root` verifies; fails with its log if it exits."""
    context = ssl.create_default_context(cafile=str(root))

    def served():
        if process.poll() is not None:
            pytest.fail(f"{what}: it exited with {process.returncode}:\n{log.read_text(errors='replace')[-3000:]}", pytrace=False)
        with socket.create_connection(("127.0.0.1", port), timeout=2) as raw, context.wrap_socket(raw, server_hostname=PROXY_NAME):
            return True

    wait_until(served, what, seconds)


@pytest.fixture
def pebble(tmp_path):
    """pebble on free ports; yields (its directory URL, the CA file of its own HTTPS, the root it issues under)."""
    folder = tmp_path / "pebble"
    folder.mkdir()
    key, cert = folder / "key.pem", folder / "cert.pem"
    # Its own HTTPS listener needs a certificate (Debian ships none): a throwaway one for 127.0.0.1.
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                    "-subj", "/CN=pebble", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    acme, management = free_port(), free_port()
    config = folder / "pebble.json"
    config.write_text(json.dumps({"pebble": {
        "listenAddress": f"127.0.0.1:{acme}", "managementListenAddress": f"127.0.0.1:{management}",
        "certificate": str(cert), "privateKey": str(key), "httpPort": free_port(), "tlsPort": free_port(),
        "ocspResponderURL": "", "externalAccountBindingRequired": False}}))
    env = {**os.environ, "PEBBLE_VA_ALWAYS_VALID": "1", "PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": "0"}
    log = open(folder / "pebble.log", "wb")
    process = subprocess.Popen(["pebble", "-config", str(config)], env=env, stdout=log, stderr=subprocess.STDOUT)
    context = ssl.create_default_context(cafile=str(cert))
    wait_until(lambda: urllib.request.urlopen(f"https://127.0.0.1:{acme}/dir", context=context, timeout=2).status == 200, "pebble did not answer")
    root = folder / "root.pem"
    root.write_bytes(urllib.request.urlopen(f"https://127.0.0.1:{management}/roots/0", context=context, timeout=10).read())
    yield f"https://127.0.0.1:{acme}/dir", cert, root
    stop_process(process)
    log.close()


@pytest.fixture
def caddy(tmp_path, pebble, server):
    """Caddy running deploy/Caddyfile for waymark.test in front of this test's server, its
    certificate from pebble; yields (its HTTPS port, the root that verifies it)."""
    directory, pebble_cert, root = pebble
    folder = tmp_path / "caddy"
    folder.mkdir()
    https_port, http_port = free_port(), free_port()
    # The operator's file as it is, after the global options that point Caddy at pebble and at free ports.
    caddyfile = folder / "Caddyfile"
    caddyfile.write_text(f"""{{
	admin off
	acme_ca {directory}
	acme_ca_root {pebble_cert}
	http_port {http_port}
	https_port {https_port}
	storage file_system {folder / "storage"}
}}

import {REPO / "deploy" / "Caddyfile"}
""")
    env = {**os.environ, "WAYMARK_NAME": PROXY_NAME, "WAYMARK_UPSTREAM": f"127.0.0.1:{server.port}",
           "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config")}
    log = open(folder / "caddy.log", "wb")
    process = subprocess.Popen(["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"], env=env, stdout=log, stderr=subprocess.STDOUT)
    wait_for_tls(process, https_port, root, folder / "caddy.log", "Caddy had no certificate from pebble for waymark.test")
    yield https_port, root
    stop_process(process)
    log.close()


@pytest.fixture
def nginx(tmp_path, server):
    """nginx running deploy/nginx.conf for waymark.test in front of this test's server, with a
    certificate from a CA made here; yields (its HTTPS port, that CA)."""
    folder = tmp_path / "nginx"
    folder.mkdir()
    root_key, root, key, cert = folder / "root.key", folder / "root.pem", folder / "key.pem", folder / "fullchain.pem"
    run = lambda *args: subprocess.run(args, check=True, capture_output=True)
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=certbot stand-in root", "-keyout", str(root_key), "-out", str(root))
    run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", f"/CN={PROXY_NAME}",
        "-keyout", str(key), "-out", str(folder / "leaf.csr"))
    (folder / "leaf.ext").write_text(f"subjectAltName=DNS:{PROXY_NAME}\nextendedKeyUsage=serverAuth\n")
    run("openssl", "x509", "-req", "-in", str(folder / "leaf.csr"), "-CA", str(root), "-CAkey", str(root_key), "-CAcreateserial",
        "-days", "2", "-extfile", str(folder / "leaf.ext"), "-out", str(cert))
    https_port, http_port = free_port(), free_port()
    site = (REPO / "deploy" / "nginx.conf").read_text()
    # What an operator edits (the name, the ports this machine has free) and what certbot fills in.
    site = (site.replace("photos.example.org", PROXY_NAME)
            .replace("listen 80;", f"listen 127.0.0.1:{http_port};").replace("listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
            .replace(f"/etc/letsencrypt/live/{PROXY_NAME}/fullchain.pem", str(cert)).replace(f"/etc/letsencrypt/live/{PROXY_NAME}/privkey.pem", str(key))
            .replace("http://127.0.0.1:8080", f"http://127.0.0.1:{server.port}"))
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
    (folder / "waymark.conf").write_text(site)
    (folder / "nginx.conf").write_text(f"""{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"};
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {folder / "body"};
    proxy_temp_path {folder / "proxy"};
    fastcgi_temp_path {folder / "fastcgi"};
    uwsgi_temp_path {folder / "uwsgi"};
    scgi_temp_path {folder / "scgi"};
    include {folder / "waymark.conf"};
}}
""")
    nginx_binary = shutil.which("nginx") or "/usr/sbin/nginx"
    check = subprocess.run([nginx_binary, "-t", "-p", str(folder), "-c", str(folder / "nginx.conf")], capture_output=True, text=True)
    assert check.returncode == 0, f"nginx -t refused deploy/nginx.conf:\n{check.stderr}"
    log = open(folder / "nginx.log", "wb")
    process = subprocess.Popen([nginx_binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"], stdout=log, stderr=subprocess.STDOUT)
    wait_for_tls(process, https_port, root, folder / "error.log", "nginx did not serve waymark.test", seconds=30)
    yield https_port, root
    stop_process(process)
    log.close()


def post_from(source, port, root, path, body, headers=()):
    """POSTs JSON to https://waymark.test:PORT/path through Caddy from the loopback address `source`; (status, body)."""
    context = ssl.create_default_context(cafile=str(root))
    data = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0)) as raw, \
            context.wrap_socket(raw, server_hostname=PROXY_NAME) as tls:
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
        tls.sendall((f"POST {path} HTTP/1.1\r\nHost: {PROXY_NAME}:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(data)}\r\nConnection: close\r\n{extra}\r\n").encode() + data)
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
    head, _, rest = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), rest


@pytest.mark.serve_args("--tls", "off", "--public-name", PROXY_NAME, "--trusted-proxy", "127.0.0.1")
@pytest.mark.parametrize("proxy", ["caddy", "nginx"])
def test_behind_the_proxy_a_phone_signs_up_and_uploads_and_each_client_keeps_its_address(playwright_instance, server, request, tmp_path, proxy):
    port, root = request.getfixturevalue(proxy)
    # Ten accounts from one client use up its allowance; the eleventh waits (429). A client that
    # writes its own X-Forwarded-For is still itself: Caddy replaces the header.
    for index in range(10):
        status, body = post_from("127.0.0.2", port, root, "/api/v1/accounts",
                                 {"username": username(f"crowd{index}"), "password": "correct horse battery"},
                                 headers=[("X-Forwarded-For", f"203.0.113.{index}")])
        assert status == 201, body
    status, body = post_from("127.0.0.2", port, root, "/api/v1/accounts", {"username": username("crowd"), "password": "correct horse battery"})
    assert status == 429, body
    status, body = post_from("127.0.0.3", port, root, "/api/v1/accounts", {"username": username("neighbour"), "password": "correct horse battery"})
    assert status == 201, body
    # The refusal is logged with the address it refused, the one Caddy saw.
    log = server.log.read_text(errors="replace")
    assert "too many from this address [client: 127.0.0.2," in log, server.log_text()
    assert "203.0.113." not in log, "a client's own X-Forwarded-For reached Waymark"

    # A phone (Chromium, 127.0.0.1) trusting pebble's root signs up and uploads a photo through Caddy.
    browser = launch_chromium(playwright_instance, Trusted(home_trusting(tmp_path / "home", root, f"{proxy}'s issuer (tests)")), name=PROXY_NAME)
    try:
        class Origin:
            url = f"https://{PROXY_NAME}:{port}"
            vault_origins = []

            @staticmethod
            def log_text():
                return server.log_text()

        phone = open_phone(browser, Origin, request, "en-US", geolocation=here())
        page = phone.page
        m = messages("en")
        page.goto("/account")
        assert page.evaluate("() => window.isSecureContext")
        name = username("carla")
        assert sign_up(phone, "en", name, "correct horse battery", "Carla").status == 201
        expect(page.get_by_role("heading", name=m["account.heading"])).to_be_visible()
        phone.shot(f"1-signed-up-through-{proxy}")
        page.goto("/upload")
        title = f"Through {proxy}"
        take_photo(phone, m, make_jpeg(tmp_path), title)
        with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as posted:
            page.get_by_role("button", name=m["upload.submit"], exact=True).click()
        assert posted.value.status == 201, posted.value.text()
        expect(page.get_by_role("status")).to_have_text(m["upload.status.sent"].replace("{title}", title))
        phone.shot(f"2-uploaded-through-{proxy}")
        cookie = next(c for c in phone.context.cookies() if c["domain"].endswith(PROXY_NAME))
        assert cookie["secure"], "behind the proxy's HTTPS the session cookie is Secure"
        assert phone.problems == [], "\n".join(phone.problems)
        phone.context.close()
    finally:
        browser.close()

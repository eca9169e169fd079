"""The hostile clients' tools: a real `waymark serve` of the test's own (a free port, a temporary
data folder, a fresh PostgreSQL database when DATABASE_URL is set), plain HTTP with exact
timings (http.client and raw sockets, nothing that retries or hides an answer), accounts made
the operator's way (`waymark users create`), photos, and what the kernel says of the server
process (its resident memory and CPU time in /proc).

WAYMARK picks the server binary (default .build/debug/waymark); WAYMARK_FIXTURES the shared
test files (default ../shared/fixtures).
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import threading
import time
import urllib.parse
import uuid
import zlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WAYMARK = os.environ.get("WAYMARK", str(REPO / ".build" / "debug" / "waymark"))
FIXTURES = Path(os.environ.get("WAYMARK_FIXTURES", str(REPO.parent / "shared" / "fixtures")))
PASSWORD = "correct horse battery staple"

# Every server started and not yet stopped: a failing test's report gets their logs.
RUNNING = []


def unique(name):
    """A username of its own: no two tests (nor two runs on one database) make the same account."""
    return f"{name}-{secrets.token_hex(4)}"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------- answers


class Answer:
    """One HTTP answer: status, headers (names lowercase; a repeated one keeps every value in
    `all_headers`), body bytes, and the seconds from the first byte sent to the last byte read."""

    def __init__(self, status, headers, body, elapsed):
        self.status = status
        self.all_headers = headers
        self.headers = {name.lower(): value for name, value in headers}
        self.body = body
        self.elapsed = elapsed

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            raise AssertionError(f"the answer ({self.status}) is not JSON: {self.body[:300]!r}") from None

    @property
    def error(self):
        """The `error` code of a JSON error answer, or None."""
        try:
            value = json.loads(self.body)
        except ValueError:
            return None
        return value.get("error") if isinstance(value, dict) else None

    def cookie(self, name):
        for header, value in self.all_headers:
            if header.lower() == "set-cookie" and value.startswith(name + "="):
                return value.split(";", 1)[0][len(name) + 1:]
        return None

    def __repr__(self):
        return f"<{self.status} {self.body[:300]!r} in {self.elapsed:.3f} s>"


class NoAnswer(AssertionError):
    """The server did not answer (in time, or at all)."""


# ---------------------------------------------------------------- the server


def _serve_options():
    """What this binary's `serve --help` says (asked again while a rebuild replaces the file)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return subprocess.run([WAYMARK, "serve", "--help"], capture_output=True, text=True, timeout=60, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as error:
            if time.monotonic() > deadline:
                pytest.fail(f"`{WAYMARK} serve --help` failed: {error}", pytrace=False)
            time.sleep(1)


def _postgres(tool, base_url, name):
    """Runs createdb or dropdb for database `name` on the PostgreSQL server of `base_url`."""
    program = shutil.which(tool)
    if not program:
        pytest.fail(f"{tool} is missing (Debian: postgresql-client): each server of this suite gets a database of its own", pytrace=False)
    url = urllib.parse.urlsplit(base_url)
    command = [program, "-h", url.hostname or "127.0.0.1", "-p", str(url.port or 5432), "-U", url.username or "postgres", name]
    env = os.environ.copy()
    if url.password:
        env["PGPASSWORD"] = urllib.parse.unquote(url.password)
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)


def _fresh_database(base_url):
    """A new, empty database on the PostgreSQL server of DATABASE_URL (its user must be allowed
    to create databases, as scripts/with-postgres's is): no test sees another's photos or cells."""
    name = "hostile_" + secrets.token_hex(6)
    done = _postgres("createdb", base_url, name)
    if done.returncode != 0:
        pytest.fail(f"createdb {name} for this test's server failed (the user of DATABASE_URL must be allowed to create databases): {done.stderr}",
                    pytrace=False)
    url = urllib.parse.urlsplit(base_url)
    return urllib.parse.urlunsplit((url.scheme, url.netloc, "/" + name, url.query, url.fragment)), name


class Account:
    def __init__(self, server, username, password, role, token, cookie, user):
        self.server, self.username, self.password, self.role = server, username, password, role
        self.token, self.cookie, self.user = token, cookie, user

    @property
    def bearer(self):
        return {"Authorization": f"Bearer {self.token}"}


class Server:
    """A `waymark serve` of one test (or one module): its own data folder, a free port, and a
    fresh PostgreSQL database when DATABASE_URL is set. `extra` are more `serve` arguments."""

    def __init__(self, folder, extra=(), web=False, name="server"):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.data = self.folder / "data"
        self.log = self.folder / f"{name}.log"
        self.extra = [str(arg) for arg in extra]
        self.web = web
        self.name = name
        self.process = None
        self.env = os.environ.copy()
        self.database = None
        if os.environ.get("DATABASE_URL"):
            url, self.database = _fresh_database(os.environ["DATABASE_URL"])
            self.env["DATABASE_URL"] = url

    # -- life

    def start(self):
        if not os.access(WAYMARK, os.X_OK):
            pytest.fail(f"no server binary at {WAYMARK}: build it (swift build) or pass its path to scripts/hostile-check", pytrace=False)
        web = ["--web", str(REPO / "Web")] if self.web else ["--web", "none"]
        for attempt in range(3):
            self.port = free_port()
            self.host = f"127.0.0.1:{self.port}"
            self.url = f"http://{self.host}"
            command = [WAYMARK, "serve", "--data", str(self.data), "--host", "127.0.0.1", "--port", str(self.port), *web, *self.extra]
            with open(self.log, "ab") as out:
                out.write(f"$ {' '.join(command)}\n".encode())
                out.flush()
                self.process = subprocess.Popen(command, cwd=REPO, env=self.env, stdout=out, stderr=subprocess.STDOUT)
            RUNNING.append(self)
            deadline = time.monotonic() + 60
            while True:
                if self.process.poll() is not None:
                    RUNNING.remove(self)
                    text = self.log_text()
                    if "already in use" in text.lower() and attempt < 2:
                        break  # another process took the port in between: another one
                    pytest.fail(f"the server exited with {self.process.returncode} before answering /healthz:\n{text}", pytrace=False)
                try:
                    if self.get("/healthz", timeout=2).status == 200:
                        return self
                except (OSError, NoAnswer):
                    pass
                if time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"the server did not answer /healthz within 60 s:\n{self.log_text()}", pytrace=False)
                time.sleep(0.05)
        return self

    def stop(self):
        """Stops the server (SIGTERM, SIGKILL after 3 s) and drops its database."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self in RUNNING:
            RUNNING.remove(self)
        if self.database:
            _postgres("dropdb", os.environ["DATABASE_URL"], self.database)
            self.database = None

    def log_text(self, lines=80):
        if not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    @property
    def pid(self):
        return self.process.pid

    # -- what the kernel knows of it

    def rss_mb(self):
        """Resident memory in MB (VmRSS of /proc/PID/status)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS for the server")

    def open_files(self):
        """How many files (sockets included) the process holds open (/proc/PID/fd)."""
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def cpu_seconds(self):
        """User plus system CPU time of the process so far (utime + stime of /proc/PID/stat)."""
        text = Path(f"/proc/{self.pid}/stat").read_text()
        fields = text[text.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def cpu_in(self, seconds=1.0):
        before = self.cpu_seconds()
        time.sleep(seconds)
        return self.cpu_seconds() - before

    # -- HTTP

    def request(self, method, path, body=None, headers=None, timeout=10, json_body=None, token=None, cookie=None, source=None):
        """One request on a connection of its own. `json_body` is sent as JSON; `token` as a
        bearer token; `cookie` as the session cookie; a `Host` in `headers` replaces the real one;
        `source` is the loopback address the connection comes from (127.0.0.1 unless given: Linux
        routes all of 127.0.0.0/8 here, so each stands for another client).
        Raises NoAnswer when nothing (complete) came within `timeout`."""
        headers = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body).encode()
            headers.setdefault("Content-Type", "application/json")
        if token:
            headers.setdefault("Authorization", f"Bearer {token}")
        if cookie:
            headers.setdefault("Cookie", f"waymark_session={cookie}")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0) if source else None)
        started = time.monotonic()
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            return Answer(response.status, response.getheaders(), data, time.monotonic() - started)
        except socket.timeout:
            raise NoAnswer(f"{method} {path[:200]}: no answer within {timeout} s") from None
        except (ConnectionError, http.client.HTTPException) as error:
            raise NoAnswer(f"{method} {path[:200]}: the connection failed without an answer ({error!r})") from None
        finally:
            connection.close()

    def get(self, path, **options):
        return self.request("GET", path, **options)

    def post(self, path, **options):
        return self.request("POST", path, **options)

    def patch(self, path, **options):
        return self.request("PATCH", path, **options)

    def delete(self, path, **options):
        return self.request("DELETE", path, **options)

    # -- accounts

    def cli(self, *args, check=True):
        """A `waymark` command against this server's data (or its database)."""
        done = subprocess.run([WAYMARK, *map(str, args), "--data", str(self.data)], cwd=REPO, env=self.env,
                              capture_output=True, text=True, timeout=120)
        if check and done.returncode != 0:
            raise AssertionError(f"waymark {' '.join(map(str, args))} failed ({done.returncode}): {done.stdout}{done.stderr}")
        return done

    def create_user(self, name="user", role="user", password=PASSWORD):
        """An account made as an operator makes one (`waymark users create`), not signed in; its username."""
        username = unique(name)
        password_file = self.folder / f"password-{username}"
        password_file.write_text(password + "\n")
        self.cli("users", "create", username, "--role", role, "--password-file", password_file)
        return username

    def sign_in(self, username, password=PASSWORD):
        answer = self.post("/api/v1/sessions", json_body={"username": username, "password": password})
        assert answer.status == 200, f"signing in {username}: {answer}"
        return answer

    def account(self, name="user", role="user"):
        """A new account, signed in: its bearer token and its session cookie."""
        username = self.create_user(name, role)
        answer = self.sign_in(username)
        cookie = answer.cookie("waymark_session")
        return Account(self, username, PASSWORD, role, answer.json()["token"], cookie, answer.json()["user"])

    # -- photos

    def upload(self, account, image=None, expect=201, **fields):
        """`POST /api/v1/photos` (multipart, signed in by bearer token) with `fields` as text parts;
        the photo JSON (status `expect` asserted)."""
        image = image if image is not None else jpeg()
        form = Multipart()
        for name, value in fields.items():
            form.field(name, value if isinstance(value, str) else json.dumps(value))
        form.file("photo", "photo.jpg", image)
        answer = self.post("/api/v1/photos", body=form.body(), headers={"Content-Type": form.content_type, **account.bearer}, timeout=30)
        assert answer.status == expect, f"upload: {answer}"
        return answer.json()


class Sampler:
    """The server's largest resident memory (MB) while the block runs, sampled every 50 ms."""

    def __init__(self, server):
        self.server, self.peak, self.stop = server, server.rss_mb(), threading.Event()

    def __enter__(self):
        def run():
            while not self.stop.is_set():
                try:
                    self.peak = max(self.peak, self.server.rss_mb())
                except (OSError, AssertionError):
                    return
                self.stop.wait(0.05)
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()
        try:
            self.peak = max(self.peak, self.server.rss_mb())
        except (OSError, AssertionError):
            pass


def same_id(a, b):
    return str(a).lower() == str(b).lower()


# ---------------------------------------------------------------- bodies


class Multipart:
    def __init__(self):
        self.boundary = "hostile" + secrets.token_hex(12)
        self.parts = []

    @property
    def content_type(self):
        return f"multipart/form-data; boundary={self.boundary}"

    def field(self, name, value):
        self.parts.append(f'--{self.boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value.encode() + b"\r\n")

    def file(self, name, filename, data, content_type="image/jpeg"):
        self.parts.append(f'--{self.boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                          f"Content-Type: {content_type}\r\n\r\n".encode() + data + b"\r\n")

    def body(self):
        return b"".join(self.parts) + f"--{self.boundary}--\r\n".encode()


def jpeg(name="Canon", exif_gps=None):
    """A real camera JPEG of the fixtures, made unique by a JPEG comment after SOI (blobs are
    content-addressed); `exif_gps=(latitude, longitude)` writes those GPS tags into it first
    (exiftool), as a phone's camera would."""
    source = FIXTURES / "photos" / f"{name}.jpg"
    if not source.exists():
        pytest.fail(f"the shared test files are missing ({source}); set WAYMARK_FIXTURES", pytrace=False)
    data = source.read_bytes()
    if exif_gps is not None:
        latitude, longitude = exif_gps
        done = subprocess.run(
            ["exiftool", "-q", "-q", "-n", "-o", "-", f"-GPSLatitude={abs(latitude)}", f"-GPSLatitudeRef={'N' if latitude >= 0 else 'S'}",
             f"-GPSLongitude={abs(longitude)}", f"-GPSLongitudeRef={'E' if longitude >= 0 else 'W'}", "-"],
            input=data, capture_output=True, timeout=60)
        assert done.returncode == 0 and done.stdout[:2] == b"\xff\xd8", f"exiftool failed: {done.stderr!r}"
        data = done.stdout
    comment = f"hostile {uuid.uuid4()}".encode()
    return data[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + data[2:]


def png_chunk(kind, data):
    return len(data).to_bytes(4, "big") + kind + data + (zlib.crc32(kind + data) & 0xFFFFFFFF).to_bytes(4, "big")


def one_colour_png(width, height, colour=b"\x80\x90\xa0"):
    """A true PNG of one colour (RGB, 8 bits), its IDAT compressed row by row: 9,990 × 9,990
    pixels come to about 310 KB."""
    row = b"\x00" + colour * width
    compressor = zlib.compressobj(9)
    parts = [compressor.compress(row) for _ in range(height)]
    parts.append(compressor.flush())
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", b"".join(parts)) + png_chunk(b"IEND", b"")


# ---------------------------------------------------------------- signed requests (DESIGN §3.3)


def signed_headers(key, secret, method, target, body=b""):
    """The five headers of a route-API request signed with a device key (waymark-sig-v2, as
    scripts/api/sign_requests.py signs them; nothing else is signed here)."""
    timestamp = int(time.time())
    nonce = secrets.token_urlsafe(16)
    text = f"waymark-sig-v2\n{method.upper()}\n{target}\n{timestamp}\n{nonce}\n{hashlib.sha256(body).hexdigest()}\n"
    signature = hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()
    return {"X-API-Key": key, "X-API-Timestamp": str(timestamp), "X-API-Nonce": nonce, "X-API-Signed-Headers": "", "X-API-Sig": signature}


# ---------------------------------------------------------------- raw sockets


def connect(server, timeout=10, source=None):
    """A plain TCP connection to `server`, from the loopback address `source` when given."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=timeout, source_address=(source, 0) if source else None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_answer(sock, timeout):
    """Reads one HTTP answer (head, and the body by Content-Length) from a raw socket; None when
    the connection closed or nothing came within `timeout`."""
    sock.settimeout(timeout)
    deadline = time.monotonic() + timeout
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
        length = int(dict((n.lower(), v) for n, v in headers).get("content-length", "0"))
        while len(rest) < length:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return Answer(status, headers, rest[:length], 0.0)
    except (socket.timeout, ConnectionError):
        return None


def is_closed(sock, timeout):
    """Whether the peer closes the connection within `timeout` (recv gives b'' or a reset)."""
    sock.settimeout(timeout)
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True
    except socket.timeout:
        return False
    except ConnectionError:
        return True

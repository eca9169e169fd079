"""Finding 11 of #34, the small ones: account creation had no throttle; no read or idle timeout and
no cap on open connections (5,000 idle ones were accepted); the data folder's files were readable by everyone; a device key's secret could be cached; public
images were cached `immutable` for a year; /vendor/ served all of /usr/share/nodejs; and the
server answered any Host (DNS rebinding)."""
import os
import select
import socket
import stat
import time

from hostile import PASSWORD, Account, Server, connect, jpeg, unique


# (a) ---------------------------------------------------------------- account creation


def test_finding_11a_account_creation_is_throttled_per_address(server):
    statuses = []
    for n in range(30):
        answer = server.post("/api/v1/accounts", json_body={"username": unique(f"new{n}"), "password": PASSWORD, "displayName": f"New {n}"})
        statuses.append(answer.status if answer.status != 429 else (429, answer.error, answer.headers.get("retry-after")))
    created = statuses.count(201)
    refused = [s for s in statuses if isinstance(s, tuple)]
    assert created <= 10, f"at most 10 accounts from one address in a row: {statuses}"
    assert refused and all(s[1] == "too_many_attempts" for s in refused), f"the later ones are 429 too_many_attempts: {statuses}"
    first = statuses.index(refused[0])
    assert all(isinstance(s, tuple) for s in statuses[first:]), f"once refused, the rest are refused too: {statuses}"


# (b) ---------------------------------------------------------------- idle connections


def test_finding_11b_idle_and_partial_connections_are_closed(start_server):
    """300 idle connections and a partial request from one address: the server holds at most
    --max-connections-per-address of them and closes the rest at once, answers another address
    meanwhile, and closes the ones it held after --idle-timeout."""
    server = start_server("--idle-timeout", "3", "--max-connections-per-address", "100")
    sockets = []
    try:
        partial = connect(server)
        partial.sendall(b"GET / HTTP/1.1\r\nHost: x")
        sockets.append(partial)
        opened = time.monotonic()
        for _ in range(300):
            sockets.append(connect(server))
        answer = server.get("/healthz", timeout=10, source="127.0.0.2")
        assert answer.status == 200, f"/healthz from another address while 127.0.0.1 holds 300 idle connections: {answer}"

        open_ = {sock.fileno(): sock for sock in sockets}
        poller = select.poll()
        for fd in open_:
            poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        while open_ and time.monotonic() - opened < 10:
            for fd, _ in poller.poll(200):
                sock = open_.get(fd)
                if sock is None:
                    continue
                try:
                    if sock.recv(65536, socket.MSG_DONTWAIT):
                        continue  # an answer (408, 400) before the close: the close comes next
                except BlockingIOError:
                    continue
                except OSError:
                    pass  # reset: closed
                poller.unregister(fd)
                del open_[fd]
        still = len(open_)
        print(f"{301 - still} of 301 connections closed {time.monotonic() - opened:.1f} s after the first was opened")
        assert still == 0, (f"{still} of 301 connections (300 idle, one partial request{' — still open' if partial.fileno() in open_ else ''})"
                            f" were not closed by the server within 10 s (--idle-timeout 3)")
    finally:
        for sock in sockets:
            sock.close()


def test_finding_11b_open_connections_are_capped(start_server):
    """200 idle connections from ten addresses (20 each, within the per-address limit) to a
    server with --max-connections 40: it never holds more than 40 (its open files show it), the
    others wait their turn rather than being refused, and every one is served or closed in the end;
    a request from another address waits its turn and is answered."""
    server = start_server("--idle-timeout", "2", "--max-connections", "40")
    base = server.open_files()
    sockets = []
    most = base
    try:
        for n in range(200):
            sockets.append(connect(server, source=f"127.0.0.{10 + n % 10}"))
        # Three files a connection at most (the client's socket and both ends of the splice to the HTTP server).
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            most = max(most, server.open_files())
            time.sleep(0.05)
        answer = server.get("/healthz", timeout=120, source="127.0.0.99")
        most = max(most, server.open_files())
        print(f"open files: {base} before, at most {most} with 200 connections asked for (--max-connections 40)")
        assert answer.status == 200, f"/healthz from another address after the idle ones: {answer}"
        assert most <= base + 3 * 40 + 8, (f"the server held {most - base} more files with 200 idle connections asked for than before;"
                                            f" with --max-connections 40 it may hold at most {3 * 40}")
    finally:
        for sock in sockets:
            sock.close()


# (c) ---------------------------------------------------------------- the data folder


def test_finding_11c_data_folder_is_private(tmp_path):
    server = Server(tmp_path / "operator", name="server")
    # The operator's way: the first account from the command line, then the server.
    username = server.create_user("admin", role="admin")
    try:
        server.start()
        token = server.sign_in(username).json()["token"]
        account = Account(server, username, PASSWORD, "admin", token, None, None)
        server.upload(account, latitude="46.05", longitude="14.5")
        assert server.post("/api/v1/keys", json_body={"name": "phone"}, token=token).status == 201
        mode = stat.S_IMODE(os.stat(server.data).st_mode)
        problems = [] if mode == 0o700 else [f"{server.data}: {mode:o} (must be 700)"]
        for root, folders, files in os.walk(server.data):
            for name in folders + files:
                path = os.path.join(root, name)
                mode = stat.S_IMODE(os.lstat(path).st_mode)
                if mode & 0o077:
                    problems.append(f"{os.path.relpath(path, server.data)}: {mode:o}")
        assert problems == [], "the data folder holds files that others on the machine can read:\n" + "\n".join(problems)
    finally:
        server.stop()


# (d) ---------------------------------------------------------------- secrets


def test_finding_11d_device_key_secret_is_not_cached(module_server):
    person = module_server.account("keys")
    answer = module_server.post("/api/v1/keys", json_body={"name": "phone"}, token=person.token)
    assert answer.status == 201, answer
    assert "no-store" in answer.headers.get("cache-control", ""), f"a device key's secret, Cache-Control: {answer.headers.get('cache-control')!r}"


# (e) ---------------------------------------------------------------- images


def test_finding_11e_images_are_revalidated_and_private_ones_private(module_server):
    server = module_server
    owner = server.account("images")
    public = server.upload(owner, image=jpeg("Canon"), latitude="46.1", longitude="14.6")
    private = server.upload(owner, image=jpeg("Nikon"), latitude="46.1", longitude="14.6", visibility="private")

    answer = server.get(f"/api/v1/photos/{public['id']}/image/thumb")
    assert answer.status == 200, answer
    cache, etag = answer.headers.get("cache-control", ""), answer.headers.get("etag")
    assert "no-cache" in cache and "immutable" not in cache, f"a public image, Cache-Control: {cache!r} (a change of visibility must be seen)"
    assert etag, "a public image has an ETag"
    again = server.get(f"/api/v1/photos/{public['id']}/image/thumb", headers={"If-None-Match": etag})
    assert again.status == 304, f"If-None-Match with its ETag: {again}"

    answer = server.get(f"/api/v1/photos/{private['id']}/image/thumb", token=owner.token)
    assert answer.status == 200, answer
    cache = answer.headers.get("cache-control", "")
    assert cache.startswith("private") and "immutable" not in cache, f"a private image, Cache-Control: {cache!r}"


# (f) ---------------------------------------------------------------- /vendor/


def test_finding_11f_vendor_serves_only_the_apps_libraries(start_server):
    server = start_server(web=True)
    for path in ["/vendor/leaflet/leaflet.esm.js", "/vendor/leaflet/leaflet.css", "/vendor/qrcode-generator/qrcode.js", "/vendor/tweetnacl/nacl-fast.js"]:
        answer = server.get(path)
        assert answer.status == 200 and answer.body, f"{path}, which the app loads: {answer.status}"
    served = []
    for path in ["/vendor/typescript/package.json", "/vendor/typescript/lib/typescript.js", "/vendor/jquery/jquery.js"]:
        answer = server.get(path, timeout=20)
        if answer.status != 404:
            served.append(f"{path}: {answer.status}, {len(answer.body)} bytes")
    assert served == [], "files the app never loads are served:\n" + "\n".join(served)


# (g) ---------------------------------------------------------------- Host


def host_get(server, host, path="/api/v1/config"):
    return server.get(path, headers={"Host": host})


def test_finding_11g_unknown_host_is_refused(module_server):
    server = module_server
    for host in ["evil.example", f"evil.example:{server.port}"]:
        answer = host_get(server, host)
        assert answer.status == 421 and answer.error == "unknown_host", f"Host: {host}: {answer}"
    for host in [f"127.0.0.1:{server.port}", f"localhost:{server.port}"]:
        answer = host_get(server, host)
        assert answer.status == 200, f"Host: {host}: {answer}"


def test_finding_11g_public_name_is_answered(start_server):
    server = start_server("--public-name", "photos.example")
    answer = host_get(server, "photos.example")
    assert answer.status == 200, f"Host: photos.example with --public-name photos.example: {answer}"
    answer = host_get(server, "evil.example")
    assert answer.status == 421 and answer.error == "unknown_host", f"Host: evil.example: {answer}"

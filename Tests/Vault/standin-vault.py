#!/usr/bin/env python3
"""A stand-in OwnYourData data vault for Waymark's tests, written from seed 002 only.

It implements the seed's four endpoints (POST /oauth/token, GET /api/modules/index,
GET /api/repos/{repo}/pub_key, POST /api/repos/{repo}/items) plus a module page, keeps the
private keys of its keyed repositories so that it can decrypt what it is sent, and writes down
what it received (DIR/items.jsonl) and every request (DIR/requests.jsonl). See
/tmp/v/contracts.md, contract A, and Tests/Vault/README.md.

  .build-venv/tools/bin/python Tests/Vault/standin-vault.py --state DIR [--port N]
      [--allow-origin ORIGIN ...] [--token-lifetime SECONDS]

Prints exactly one line `listening http://127.0.0.1:PORT` when ready; stops on SIGTERM.
"""
import argparse
import base64
import hashlib
import html
import json
import os
import secrets
import signal
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from nacl.exceptions import CryptoError
from nacl.public import Box, PrivateKey, PublicKey

# The seed's test users, and the app credentials of the QR form with APP_KEY/APP_SECRET.
USERS = {
    "user_a@ownyourdata.eu": {"password": "user_a", "username": "User A"},
    "user_b@ownyourdata.eu": {"password": "Q/wdfbv67", "username": "Very long User Name with many words"},
}
APPS = {"eu.ownyourdata.waymark": {"secret": "waymark-app-secret-0123456789", "user": "user_a@ownyourdata.eu"}}

# Repositories with a public key (the seed's example calls the field `public_key`, its API text `pub_key`).
KEYED_REPOS = {"eu.ownyourdata.location": ("pub_key", 1), "oyd.location": ("public_key", 2)}
FORBIDDEN_REPO = "forbidden.location"

# The sender's public key of every sealed item: X25519 base point · SHA-256("auth").
SENDER_PUBLIC_KEY = PrivateKey(hashlib.sha256(b"auth").digest()).public_key

MAX_BODY = 32 * 1024 * 1024
REFUSED = "refused by the stand-in vault"


def png(width, height, rgb):
    """A small real PNG of one colour (standard library only)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def picture(rgb):
    return "data:image/png;base64," + base64.b64encode(png(16, 16, rgb)).decode("ascii")


LOCATION_DESCRIPTION = (
    "Location shows where you have been: every location record your phone or your routes wrote into "
    "the repository eu.ownyourdata.location is drawn on a map, day by day, with the speed and the "
    "heading of each fix. Records that arrive encrypted are opened in your browser with the password "
    "of your data vault, so the data vault itself never sees them in clear. You can filter by date, "
    "export a day as GPX, delete single records, and share a day's map with somebody else for a "
    "limited time without giving them access to anything else in your data vault.")


def modules_for(email, base):
    if email != "user_a@ownyourdata.eu":
        return []
    return [
        {"id": 1, "name": "Location", "description": LOCATION_DESCRIPTION, "url": base + "/modules/location",
         "uid": "8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943",
         "secret": "95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694",
         "picture": picture((0x2E, 0x7D, 0x32))},
        {"id": 2, "name": "Annotate — add notes to places you visit, with a deliberately very long title",
         "description": "add notes to places you visit", "url": base + "/modules/annotate",
         "uid": hashlib.sha256(b"annotate-uid").hexdigest(),
         "secret": hashlib.sha256(b"annotate-secret").hexdigest(),
         "picture": picture((0xF9, 0xA8, 0x25))},
    ]


class Vault:
    """The state shared by the handler threads."""

    def __init__(self, state, lifetime, origins):
        self.state = state
        self.lifetime = lifetime
        self.origins = origins
        self.lock = threading.Lock()
        self.tokens = {}  # token -> (email, expiry as unix seconds)
        self.base = ""
        self.keys = self.load_keys()
        self.next_id = 1 + self.count_lines("items.jsonl")

    def path(self, name):
        return os.path.join(self.state, name)

    def count_lines(self, name):
        try:
            with open(self.path(name), "rb") as f:
                return sum(1 for _ in f)
        except FileNotFoundError:
            return 0

    def load_keys(self):
        try:
            with open(self.path("keys.json")) as f:
                stored = json.load(f)
        except FileNotFoundError:
            stored = {}
        changed = False
        for repo in KEYED_REPOS:
            if repo not in stored:
                key = PrivateKey.generate()
                stored[repo] = {"secret": bytes(key).hex(), "public": bytes(key.public_key).hex()}
                changed = True
        if changed:
            tmp = self.path("keys.json.tmp")
            with open(tmp, "w") as f:
                json.dump(stored, f, indent=1)
            os.replace(tmp, self.path("keys.json"))
        return {repo: PrivateKey(bytes.fromhex(v["secret"])) for repo, v in stored.items()}

    def append(self, name, obj):
        with self.lock:
            with open(self.path(name), "a", encoding="utf-8") as f:
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")

    def refused_timestamps(self):
        try:
            with open(self.path("refuse.json")) as f:
                listed = json.load(f)
        except (FileNotFoundError, ValueError):
            return set()
        return {t for t in listed if isinstance(t, str)} if isinstance(listed, list) else set()

    def issue_token(self, email):
        token = secrets.token_hex(32)
        now = int(time.time())
        with self.lock:
            self.tokens[token] = (email, time.time() + self.lifetime)
        return {"access_token": token, "token_type": "bearer", "expires_in": self.lifetime,
                "created_at": now, "username": USERS[email]["username"]}

    def user_of(self, authorization):
        if not authorization or not authorization.startswith("Bearer "):
            return None
        with self.lock:
            found = self.tokens.get(authorization[len("Bearer "):].strip())
        if found is None or time.time() >= found[1]:
            return None
        return found[0]

    def new_id(self):
        with self.lock:
            n = self.next_id
            self.next_id += 1
            return n


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "StandinVault/1"
    vault: Vault = None  # set in main

    def log_message(self, format, *args):  # requests.jsonl is the log; stderr stays quiet
        pass

    # ---- plumbing

    def cors_headers(self):
        origin = self.headers.get("Origin")
        if origin and ("*" in self.vault.origins or origin in self.vault.origins):
            return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
        return []

    def answer(self, status, body=None, content_type="application/json", items=None, extra=()):
        if body is None:
            data = b""
        elif isinstance(body, (bytes, bytearray)):
            data = bytes(body)
        elif isinstance(body, str):
            data = body.encode("utf-8")
        else:
            data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        if data or status != 204:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in list(self.cors_headers()) + list(extra):
            self.send_header(name, value)
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)
        self.vault.append("requests.jsonl", {"method": self.command, "path": urllib.parse.urlsplit(self.path).path,
                                             "items": items, "status": status})

    def read_body(self):
        """The request body, or None when it is too large (the answer is then sent)."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            parts, total = [], 0
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                total += size
                if total > MAX_BODY:
                    self.close_connection = True
                    self.answer(413, {"error": "too_large", "error_description": "the body is too large"})
                    return None
                parts.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(parts)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self.close_connection = True
            self.answer(413, {"error": "too_large", "error_description": "the body is too large"})
            return None
        return self.rfile.read(length) if length > 0 else b""

    def authorized(self):
        email = self.vault.user_of(self.headers.get("Authorization"))
        if email is None:
            self.answer(401, {"error": "invalid_token", "error_description": "The access token is invalid or expired"})
        return email

    # ---- verbs

    def do_OPTIONS(self):
        self.read_body()
        cors = self.cors_headers()
        extra = [("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
                 ("Access-Control-Allow-Headers", "Authorization, Content-Type"),
                 ("Access-Control-Max-Age", "600")] if cors else []
        self.answer(204, extra=extra)

    def do_GET(self):
        if self.read_body() is None:
            return
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/")
        if url.path.startswith("/modules/") and len(parts) == 3 and parts[2]:
            return self.module_page(urllib.parse.unquote(parts[2]), urllib.parse.parse_qs(url.query))
        if url.path.startswith("/api/"):
            email = self.authorized()
            if email is None:
                return
            if url.path == "/api/modules/index":
                return self.answer(200, modules_for(email, self.vault.base))
            if len(parts) == 5 and parts[2] == "repos" and parts[4] == "pub_key":
                return self.pub_key(urllib.parse.unquote(parts[3]))
        self.answer(404, {"error": "not_found", "error_description": "no such page"})

    def do_POST(self):
        body = self.read_body()
        if body is None:
            return
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/")
        if url.path == "/oauth/token":
            return self.token(body)
        if url.path.startswith("/api/"):
            if len(parts) == 5 and parts[2] == "repos" and parts[4] == "items":
                count = None
                try:
                    parsed = json.loads(body.decode("utf-8"))
                    count = len(parsed) if isinstance(parsed, list) else 1
                except (UnicodeDecodeError, ValueError):
                    parsed = None
                email = self.vault.user_of(self.headers.get("Authorization"))
                if email is None:
                    return self.answer(401, {"error": "invalid_token", "error_description": "The access token is invalid or expired"},
                                       items=count)
                return self.items(urllib.parse.unquote(parts[3]), body, parsed, count)
            if self.authorized() is None:
                return
        self.answer(404, {"error": "not_found", "error_description": "no such page"})

    # ---- endpoints

    def token(self, body):
        if (self.headers.get("Content-Type") or "").split(";")[0].strip().lower() == "application/json":
            try:
                form = {k: str(v) for k, v in json.loads(body.decode("utf-8")).items()}
            except (UnicodeDecodeError, ValueError, AttributeError):
                form = {}
        else:
            form = {k: v[0] for k, v in urllib.parse.parse_qs(body.decode("utf-8", "replace")).items()}
        grant = form.get("grant_type")
        if grant == "password":
            user = USERS.get(form.get("email", ""))
            if user is None or not secrets.compare_digest(user["password"].encode(), form.get("password", "").encode()):
                return self.answer(401, {"error": "invalid_grant", "error_description": "The provided authorization grant is invalid"})
            return self.answer(200, self.vault.issue_token(form["email"]))
        if grant == "client_credentials":
            app = APPS.get(form.get("client_id", ""))
            if app is None or not secrets.compare_digest(app["secret"].encode(), form.get("client_secret", "").encode()):
                return self.answer(401, {"error": "invalid_grant", "error_description": "The provided client credentials are invalid"})
            return self.answer(200, self.vault.issue_token(app["user"]))
        self.answer(400, {"error": "unsupported_grant_type", "error_description": "grant_type must be password or client_credentials"})

    def pub_key(self, repo):
        if repo == FORBIDDEN_REPO:
            return self.answer(403, {"error": "forbidden", "error_description": "no permission for this repo"})
        if repo in KEYED_REPOS:
            field, repo_id = KEYED_REPOS[repo]
            key = bytes(self.vault.keys[repo].public_key).hex()
            return self.answer(200, {"id": repo_id, "identifier": repo, field: key})
        self.answer(404, {"error": "not_found", "error_description": "this repo has no public key"})

    def items(self, repo, body, parsed, count):
        if repo == FORBIDDEN_REPO:
            return self.answer(403, {"error": "forbidden", "error_description": "no permission to write into this repo"}, items=count)
        if count is None:
            return self.answer(400, {"error": "the body is not JSON"}, items=None)
        if not isinstance(parsed, (list, dict)):
            return self.answer(400, {"error": "the body is neither a record nor an array of records"}, items=count)
        refused = self.vault.refused_timestamps()
        key = self.vault.keys.get(repo) if repo in KEYED_REPOS else None
        results = [self.store(repo, key, item, refused) for item in (parsed if isinstance(parsed, list) else [parsed])]
        if isinstance(parsed, dict):
            written = results[0]
            if "id" in written:
                return self.answer(200, {"id": written["id"]}, items=count)
            return self.answer(400, written, items=count)
        ok = all("id" in r for r in results)
        self.answer(200 if ok else 400, {"processed": len(results), "responses": results}, items=count)

    def store(self, repo, key, item, refused):
        """One item: `{"id": n, "status": 200}` when written, else `{"error": why}`."""
        if not isinstance(item, dict):
            return {"error": "an item must be a JSON object"}
        plaintext = None
        if key is not None:
            if set(item) != {"value", "nonce", "version"} or item.get("version") != "0.4":
                return {"error": "this repo is encrypted: an item must be {value, nonce, version 0.4}"}
            try:
                value = bytes.fromhex(item["value"])
                nonce = bytes.fromhex(item["nonce"])
                if len(nonce) != 24:
                    raise ValueError("nonce")
                opened = Box(key, SENDER_PUBLIC_KEY).decrypt(value, nonce)
                plaintext = opened.decode("utf-8")
                record = json.loads(plaintext)
            except (TypeError, ValueError, CryptoError, UnicodeDecodeError):
                return {"error": "the item does not decrypt to a JSON record"}
            if not isinstance(record, dict):
                return {"error": "the item does not decrypt to a JSON record"}
        else:
            record = item
        if record.get("timestamp") in refused:
            return {"error": REFUSED}
        n = self.vault.new_id()
        self.vault.append("items.jsonl", {"repo": repo, "id": n, "received": item, "plaintext": plaintext, "record": record})
        return {"id": n, "status": 200}

    def module_page(self, name, query):
        def shown(field):
            return html.escape(query.get(field, [""])[0])
        page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Module " + html.escape(name) + "</title></head>\n"
                "<body><h1>Module " + html.escape(name) + "</h1>\n<dl>"
                + "".join("<dt>%s</dt><dd id=\"%s\">%s</dd>" % (f, f, shown(f)) for f in ("PIA_URL", "APP_KEY", "APP_SECRET"))
                + "</dl></body></html>\n")
        self.answer(200, page, content_type="text/html; charset=utf-8")


def main():
    parser = argparse.ArgumentParser(description="A stand-in OwnYourData data vault for tests.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--state", required=True)
    parser.add_argument("--allow-origin", action="append", default=[])
    parser.add_argument("--token-lifetime", type=int, default=7200)
    args = parser.parse_args()
    os.makedirs(args.state, exist_ok=True)

    Handler.vault = Vault(args.state, args.token_lifetime, set(args.allow_origin))
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    base = "http://127.0.0.1:%d" % server.server_address[1]
    Handler.vault.base = base
    with open(os.path.join(args.state, "url"), "w") as f:
        f.write(base)

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # A launcher may hand its blocked signals down (Foundation's Process on Linux does): take SIGTERM anyway.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    print("listening " + base, flush=True)
    server.serve_forever()
    server.server_close()


if __name__ == "__main__":
    main()

"""schemathesis hooks: sign every request the way Waymark's API requires (DESIGN §3.3, version 2).

The signature covers the exact bytes sent, so it is computed on the prepared request at the
transport layer, after schemathesis has serialised the body, the query string and the headers.
Loaded with SCHEMATHESIS_HOOKS=sign_requests (PYTHONPATH=scripts/api).

Run as a program, it signs one request described in JSON and prints the string to sign and the
signature, so that a Swift test can check that this code and RequestSigning agree:

    python3 scripts/api/sign_requests.py --vector '{"secret": "…", "method": "POST", "target": "/route",
        "timestamp": 1700000000, "nonce": "…", "body_base64": "…", "headers": [["idempotency-key", "…"]]}'
"""
import base64
import hashlib
import hmac
import json
import os
import secrets
import sys
import time

VERSION_TAG = "waymark-sig-v2"
# Whenever a request carries one of these, it must sign it (the server refuses it otherwise).
MUST_SIGN = ("content-type", "idempotency-key", "x-delete-token", "x-delete-token-hash", "x-route-lookup")
PLACEHOLDER = "SIGN"


def trimmed(value: str) -> str:
    """A header value as it is signed: spaces and tabs trimmed at both ends."""
    return value.strip(" \t")


def string_to_sign(method: str, target: str, timestamp: int, nonce: str, body: bytes, signed_headers) -> str:
    """The exact text that is signed; signed_headers is [(lowercase name, value)] in signing order."""
    text = f"{VERSION_TAG}\n{method.upper()}\n{target}\n{timestamp}\n{nonce}\n{hashlib.sha256(body).hexdigest()}\n"
    for name, value in signed_headers:
        text += f"{name}:{trimmed(value)}\n"
    return text


def signature(secret: str, method: str, target: str, timestamp: int, nonce: str, body: bytes, signed_headers) -> str:
    """Lowercase hex HMAC-SHA256 of string_to_sign, keyed with the UTF-8 of the secret."""
    message = string_to_sign(method, target, timestamp, nonce, body, signed_headers)
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def new_nonce() -> str:
    """128 random bits as 22 characters of unpadded base64url."""
    return secrets.token_urlsafe(16)


def _as_received(value) -> str:
    """A header value as the server reads it: http.client sends text as Latin-1 bytes, the server
    reads the bytes as UTF-8 (an invalid sequence becoming U+FFFD)."""
    raw = value if isinstance(value, bytes) else value.encode("latin-1", errors="replace")
    return raw.decode("utf-8", errors="replace")


def _install():
    import requests.adapters

    key = os.environ["WAYMARK_API_KEY"]
    secret = os.environ["WAYMARK_API_SECRET"]
    send = requests.adapters.HTTPAdapter.send

    def signed_send(self, request, *args, **kwargs):
        body = request.body or b""
        if isinstance(body, str):
            body = body.encode()
        # scripts/api-check gives schemathesis the placeholder SIGN for the five signing headers.
        # Only placeholders are replaced: a case that drops a header or puts another value in it on
        # purpose checks that the server refuses it, and must reach the server as it is.
        placeholders = {name.lower(): name for name in request.headers if request.headers[name] == PLACEHOLDER}
        timestamp = int(time.time())
        nonce = new_nonce()
        if "x-api-timestamp" in placeholders:
            request.headers[placeholders["x-api-timestamp"]] = str(timestamp)
        else:
            timestamp = request.headers.get("X-API-Timestamp", "")
        if "x-api-nonce" in placeholders:
            request.headers[placeholders["x-api-nonce"]] = nonce
        else:
            nonce = request.headers.get("X-API-Nonce", "")
        if "x-api-key" in placeholders:
            request.headers[placeholders["x-api-key"]] = key
        if "x-api-signed-headers" in placeholders:
            names = [name for name in MUST_SIGN if name in request.headers]
            request.headers[placeholders["x-api-signed-headers"]] = ";".join(names)
        else:
            listed = trimmed(_as_received(request.headers.get("X-API-Signed-Headers", "")))
            names = [name for name in listed.split(";")] if listed else []
        if "x-api-sig" in placeholders:
            signed = [(name, _as_received(request.headers.get(name, ""))) for name in names]
            request.headers[placeholders["x-api-sig"]] = signature(secret, request.method, request.path_url, timestamp, nonce, body, signed)
        return send(self, request, *args, **kwargs)

    requests.adapters.HTTPAdapter.send = signed_send


def _main(argv) -> int:
    if len(argv) != 3 or argv[1] != "--vector":
        print(__doc__, file=sys.stderr)
        return 2
    vector = json.loads(argv[2])
    body = base64.b64decode(vector.get("body_base64", ""))
    headers = [(name, value) for name, value in vector.get("headers", [])]
    args = (vector["method"], vector["target"], int(vector["timestamp"]), vector["nonce"], body, headers)
    print(json.dumps({"string_to_sign": string_to_sign(*args), "signature": signature(vector["secret"], *args)}))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
else:
    _install()

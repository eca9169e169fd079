"""schemathesis hooks: sign every request the way Waymark's API requires (DESIGN §3.3).

The signature covers the exact bytes sent, so it is computed on the prepared request at the
transport layer, after schemathesis has serialised the body and the query string.
Loaded with SCHEMATHESIS_HOOKS=sign_requests (PYTHONPATH=scripts/api).
"""
import hashlib
import hmac
import os
import time

import requests.adapters

KEY = os.environ["WAYMARK_API_KEY"]
SECRET = os.environ["WAYMARK_API_SECRET"].encode()
PLACEHOLDER = "SIGN"
_send = requests.adapters.HTTPAdapter.send


def _signed_send(self, request, *args, **kwargs):
    body = request.body or b""
    if isinstance(body, str):
        body = body.encode()
    # scripts/api-check gives schemathesis the placeholder SIGN for the three signing headers.
    # Only placeholders are replaced: a case that drops a header or puts another value in it on
    # purpose checks that the server refuses it, and must reach the server as it is.
    headers = {name.lower(): name for name in request.headers if request.headers[name] == PLACEHOLDER}
    timestamp = str(int(time.time()))
    if "x-api-timestamp" in headers:
        request.headers[headers["x-api-timestamp"]] = timestamp
    if "x-api-key" in headers:
        request.headers[headers["x-api-key"]] = KEY
    if "x-api-sig" in headers:
        message = f"{request.method}\n{request.path_url}\n{timestamp}\n{hashlib.sha256(body).hexdigest()}"
        request.headers[headers["x-api-sig"]] = hmac.new(SECRET, message.encode(), hashlib.sha256).hexdigest()
    return _send(self, request, *args, **kwargs)


requests.adapters.HTTPAdapter.send = _signed_send

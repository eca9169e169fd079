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
_send = requests.adapters.HTTPAdapter.send


def _signed_send(self, request, *args, **kwargs):
    body = request.body or b""
    if isinstance(body, str):
        body = body.encode()
    timestamp = str(int(time.time()))
    message = f"{request.method}\n{request.path_url}\n{timestamp}\n{hashlib.sha256(body).hexdigest()}"
    request.headers["X-API-Key"] = KEY
    request.headers["X-API-Timestamp"] = timestamp
    request.headers["X-API-Sig"] = hmac.new(SECRET, message.encode(), hashlib.sha256).hexdigest()
    return _send(self, request, *args, **kwargs)


requests.adapters.HTTPAdapter.send = _signed_send

#!/usr/bin/env python3
"""A stand-in for the OwnTracks app in HTTP mode, written from OwnTracks' documentation, not
from Waymark's code (issue #29):

- owntracks.org/booklet/tech/http: one JSON message per POST, HTTP Basic, `X-Limit-U` and
  `X-Limit-D`, a 2xx answer is "posted" (anything else stays queued and is sent again), the answer
  to a 200 is a JSON array, typically `[]`.
- owntracks.org/booklet/tech/json: `_type: location` with `lat`, `lon`, `tst` (the fix's Unix
  seconds), `acc`, `alt`, `vel` (km/h), `tid` (required in HTTP mode), `topic`, `t`, `created_at`.
- owntracks.org/booklet/features/encrypt: with a key set, the app sends only
  `{"_type": "encrypted", "data": …}`, `data` being Base64 of libsodium's secretbox of the JSON
  under the key (text up to 32 bytes padded with zero bytes) — PyNaCl's SecretBox.encrypt gives
  exactly the nonce followed by the box, as the OwnTracks Recorder's decrypt() reads it.

Modes (the answer is one JSON line on standard output):
  track URL USER SECRET KEY GPX COUNT START   COUNT positions along the GPX's path, one every 10 s
      from START (Unix seconds), each encrypted; about one in ten is sent twice (a retry after a
      lost answer) and the order is shuffled a little (the app's queue after a dead zone). Prints
      {"posted", "duplicates", "positions": [[lat, lon, alt, acc, tst], …]}.
  plaintext URL USER SECRET   one plaintext location, as the app sends with no key set. Prints
      {"status", "body"}.
  send URL USER SECRET BODY   BODY as it is. Prints {"status", "body", "wwwAuthenticate"}.
"""
import base64
import json
import math
import random
import sys
import urllib.error
import urllib.request

import gpxpy
import nacl.secret
import nacl.utils

DEVICE = "phone"


def post(url, user, secret, body):
    """POSTs one message as the app does; returns (status, body text, WWW-Authenticate)."""
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Limit-U", user)
    request.add_header("X-Limit-D", DEVICE)
    token = base64.b64encode(f"{user}:{secret}".encode()).decode()
    request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers.get("WWW-Authenticate")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers.get("WWW-Authenticate")


def encrypt(message, key):
    box = nacl.secret.SecretBox(key.encode().ljust(nacl.secret.SecretBox.KEY_SIZE, b"\0"))
    data = base64.b64encode(bytes(box.encrypt(json.dumps(message).encode()))).decode()
    return json.dumps({"_type": "encrypted", "data": data}).encode()


def path_points(gpx_file):
    with open(gpx_file, encoding="utf-8") as handle:
        gpx = gpxpy.parse(handle)
    points = [(p.latitude, p.longitude, p.elevation or 0.0)
              for track in gpx.tracks for segment in track.segments for p in segment.points]
    if len(points) < 2:
        sys.exit(f"{gpx_file} has fewer than two track points")
    return points


def along(points, count):
    """COUNT positions evenly spaced by distance along the path (a walker's steady pace)."""
    def metres(a, b):
        mean = math.radians((a[0] + b[0]) / 2)
        return math.hypot((b[0] - a[0]) * 111_320, (b[1] - a[1]) * 111_320 * math.cos(mean))
    cumulative = [0.0]
    for a, b in zip(points, points[1:]):
        cumulative.append(cumulative[-1] + metres(a, b))
    total = cumulative[-1]
    result, segment = [], 0
    for index in range(count):
        target = total * index / (count - 1)
        while segment < len(points) - 2 and cumulative[segment + 1] < target:
            segment += 1
        span = cumulative[segment + 1] - cumulative[segment]
        share = 0.0 if span == 0 else (target - cumulative[segment]) / span
        a, b = points[segment], points[segment + 1]
        result.append(tuple(a[i] + (b[i] - a[i]) * share for i in range(3)))
    return result


def track(url, user, secret, key, gpx_file, count, start):
    rng = random.Random(29)
    positions = []
    messages = []
    for index, (lat, lon, alt) in enumerate(along(path_points(gpx_file), count)):
        tst = start + 10 * index
        acc = 3 + index % 5
        # The app sends whole metres and degrees with its platform's precision; 7 decimals is the
        # Android app's, and what is sent is what the photos are compared with.
        lat, lon = round(lat, 7), round(lon, 7)
        message = {"_type": "location", "tid": "WM", "topic": f"owntracks/{user}/{DEVICE}", "t": "t",
                   "lat": lat, "lon": lon, "alt": round(alt), "acc": acc, "vel": 4, "tst": tst,
                   "created_at": tst + 1, "batt": 80, "conn": "m"}
        positions.append([lat, lon, round(alt), acc, tst])
        messages.append(encrypt(message, key))
    # The queue after a dead zone: neighbours swapped here and there.
    for index in range(0, len(messages) - 1, 7):
        if rng.random() < 0.5:
            messages[index], messages[index + 1] = messages[index + 1], messages[index]
    duplicates = 0
    for index, body in enumerate(messages):
        for attempt in range(2 if index % 10 == 3 else 1):
            status, answer, _ = post(url, user, secret, body)
            if status != 200 or json.loads(answer) != []:
                sys.exit(f"message {index} (attempt {attempt + 1}) was answered {status}: {answer}")
            duplicates += attempt
    print(json.dumps({"posted": len(messages), "duplicates": duplicates, "positions": positions}))


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "track" and len(argv) == 9:
        track(argv[2], argv[3], argv[4], argv[5], argv[6], int(argv[7]), int(argv[8]))
    elif mode == "plaintext" and len(argv) == 5:
        body = json.dumps({"_type": "location", "tid": "WM", "lat": 46.43, "lon": 13.79, "tst": 1_700_000_000, "acc": 5}).encode()
        status, answer, _ = post(argv[2], argv[3], argv[4], body)
        print(json.dumps({"status": status, "body": answer}))
    elif mode == "send" and len(argv) == 6:
        status, answer, challenge = post(argv[2], argv[3], argv[4], argv[5].encode())
        print(json.dumps({"status": status, "body": answer, "wwwAuthenticate": challenge}))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

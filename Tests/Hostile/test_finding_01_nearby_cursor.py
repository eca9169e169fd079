"""Finding 1 of #34 (high, anonymous): a forged nearby cursor with a negative distance never
answered and kept a core busy after the client left. A cursor the server did not give for this
very search is refused at once, 400 invalid_cursor; a real one still pages through every photo
exactly once; and after a burst of forgeries the server is idle again."""
import json
import random
import urllib.parse
import uuid

import pytest

from hostile import NoAnswer, b64url, b64url_decode, same_id

HERE = (46.0512, 14.5060)
# Where no photo is: the probe's forged cursor made the nearest-first circle grow from below zero forever.
SPARSE = (-20.5, -60.25)


def nearby(latitude=HERE[0], longitude=HERE[1], **parameters):
    return "/api/v1/photos/nearby?" + urllib.parse.urlencode({"latitude": latitude, "longitude": longitude, **parameters})


def upload_around(server, count=5):
    """`count` public photos a few metres apart north of HERE, taken a minute apart; their ids."""
    owner = server.account("cursor")
    ids = []
    for n in range(count):
        photo = server.upload(owner, latitude=str(HERE[0] + 0.0001 * (n + 1)), longitude=str(HERE[1]),
                              capturedAt=f"2026-05-01T10:{n:02d}:00Z", title=f"photo {n}")
        ids.append(photo["id"])
    return ids


def forged_cursors(real, rng):
    """Cursors this server never gave: made up from nothing, or changed from a real one."""
    victim = str(uuid.uuid4())
    plain = b64url(json.dumps({"distance": -1000, "capturedAt": 0, "id": victim}).encode())
    forged = {
        "negative distance (the probe's)": plain,
        "negative distance with a made-up tag": plain + "." + b64url(rng.randbytes(16)),
        "huge distance": b64url(json.dumps({"distance": 1e308, "capturedAt": -1e308, "id": victim}).encode()),
        "random base64url": b64url(rng.randbytes(48)),
        "random base64url with a dot": b64url(rng.randbytes(40)) + "." + b64url(rng.randbytes(16)),
    }
    for position in (0, len(real) // 2, len(real) - 2):
        flipped = real[position]
        replacement = "A" if flipped != "A" else "B"
        forged[f"a real cursor with character {position} changed"] = real[:position] + replacement + real[position + 1:]
    # A real cursor's own position read back, changed to the probe's, its tag (if any) kept.
    head, dot, tag = real.partition(".")
    try:
        position = json.loads(b64url_decode(head))
    except ValueError:
        position = None
    if isinstance(position, dict) and "distance" in position:
        position["distance"] = -1000
        forged["a real cursor's position changed to a negative distance"] = b64url(json.dumps(position).encode()) + dot + tag
    return forged


def assert_refused(answer, what):
    assert answer.status == 400 and answer.error == "invalid_cursor", f"{what}: {answer}"
    assert answer.elapsed <= 1.0, f"{what}: answered in {answer.elapsed:.2f} s"


def test_finding_01_forged_nearby_cursor_is_refused_fast(server):
    upload_around(server, 3)
    first = server.get(nearby(limit=1)).json()
    real = first["next"]
    assert real, f"a page of 1 of 3 photos has a next cursor: {first}"
    rng = random.Random(1234)
    problems = []
    for what, cursor in forged_cursors(real, rng).items():
        for where, place in (("", HERE), (" where no photo is", SPARSE)):
            try:
                assert_refused(server.get(nearby(*place, limit=1, cursor=cursor), timeout=1), what + where)
            except (AssertionError, NoAnswer) as error:
                problems.append(f"{what}{where}: {error}")
    # The real cursor is one of this search: another place, radius or order is another list.
    for what, path in {
        "a real cursor at another latitude": nearby(latitude=HERE[0] + 0.001, limit=1, cursor=real),
        "a real cursor with another radius": nearby(radius=5000, limit=1, cursor=real),
        "a real cursor of the nearest-first order, newest first": nearby(sort="recent", limit=1, cursor=real),
    }.items():
        try:
            assert_refused(server.get(path, timeout=1), what)
        except (AssertionError, NoAnswer) as error:
            problems.append(f"{what}: {error}")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("order", ["distance", "recent"])
def test_finding_01_real_cursor_pages_through_every_photo_once(server, order):
    ids = upload_around(server, 5)
    seen, path, pages = [], nearby(limit=1, sort=order), 0
    while path and pages < 10:
        answer = server.get(path, timeout=1)
        assert answer.status == 200 and answer.elapsed <= 1.0, answer
        page = answer.json()
        seen += [item["id"] for item in page["items"]]
        pages += 1
        path = nearby(limit=1, sort=order, cursor=page["next"]) if page.get("next") else None
    assert sorted(i.lower() for i in seen) == sorted(i.lower() for i in ids), f"each photo once: {seen} of {ids}"
    if order == "distance":
        assert all(same_id(a, b) for a, b in zip(seen, ids)), "nearest first"
    else:
        assert all(same_id(a, b) for a, b in zip(seen, reversed(ids))), "newest first"


def test_finding_01_server_is_idle_after_forged_cursors(server):
    upload_around(server, 2)
    real = server.get(nearby(limit=1)).json()["next"]
    rng = random.Random(1234)
    forged = list(forged_cursors(real, rng).values())
    problems = []
    for n in range(50):
        cursor = forged[n % len(forged)]
        try:
            assert_refused(server.get(nearby(*SPARSE, limit=1, cursor=cursor), timeout=1), f"forged cursor {n + 1} of 50")
        except NoAnswer as error:
            problems.append(f"forged cursor {n + 1} of 50: {error}; no more were sent")
            break
        except AssertionError as error:
            problems.append(str(error))
    # The clients are gone: the server must not go on working for them.
    used = [server.cpu_in(1.0) for _ in range(3)]
    print(f"CPU seconds per second afterwards: {[round(u, 3) for u in used]}")
    if min(used) >= 0.2:
        problems.insert(0, f"CPU seconds the server used per second after the forged cursors: {[round(u, 2) for u in used]} (idle: < 0.2)")
    assert problems == [], "\n".join(problems[:10])

"""Item 6 of #34: a seeded fuzz of every query parameter and cursor. Every GET operation of the
server's own /openapi.yaml that takes query parameters gets 30 requests of hostile values
(huge, negative, NaN and infinite numbers, 10 KB strings, unicode, empty, repeated and bracketed
parameters, base64 junk and valid-looking forged cursors), anonymously and signed in: no answer
is a 5xx, and every one comes within 1 s."""
import json
import random
import urllib.parse
import uuid

import pytest
import yaml

from hostile import FIXTURES, Multipart, NoAnswer, Server, b64url, b64url_decode, jpeg, signed_headers

SEED = 1234
PER_OPERATION = 30
PLACE = (45.8150, 15.9819)

NUMBERS = ["1e309", "-1e309", "NaN", "nan", "-nan", "inf", "-inf", "Infinity", "-Infinity", "1e-400", "-0", "0x1F", "1_000",
           "9" * 400, "-" + "9" * 400, "4.9e-324", "1.7976931348623157e308", "-1.7976931348623157e308", "2147483648",
           "-2147483649", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1,5", "1.5.5", "+1",
           "١٢٣", "１２３", "0.000000000000000000000000000001", "-90.0000000000001", "180.00000000000003", "1e5", "-1e5"]
TIMES = ["2026-13-45T99:99:99Z", "0000-00-00T00:00:00Z", "99999-01-01T00:00:00Z", "-1e20", "1e20", "253402300800",
         "-62135596801", "2026-06-01T10:00:00+99:99", "2026-06-01T10:00:00", "2026-06-01", "T", "1e308", "NaN"]
STRINGS = ["", " ", "A" * 10240, "é" * 5120, "😀" * 2560, "\u202e\u0000\u202d", "\x00", "\r\n", "\t", "../../etc/passwd",
           "' OR 1=1 --", '"; DROP TABLE photos; --', "<script>alert(1)</script>", "{}", "[]", "null", "true", "%", "%zz",
           "\ud7ff\ue000\uffff", "ǅ" * 300, "a" * 33, "ADMIN", "-", "."]


def resolve(doc, value):
    while isinstance(value, dict) and "$ref" in value:
        node = doc
        for part in value["$ref"].lstrip("#/").split("/"):
            node = node[part]
        value = node
    return value


def operations(doc):
    """(path, parameters, signed) of every GET with query parameters; `signed` when its security
    is the route API's request signature."""
    found = []
    for path, item in doc["paths"].items():
        if "get" not in item:
            continue
        operation = item["get"]
        parameters = [resolve(doc, p) for p in item.get("parameters", []) + operation.get("parameters", [])]
        for parameter in parameters:
            parameter["schema"] = resolve(doc, parameter.get("schema", {}))
        if not any(p.get("in") == "query" for p in parameters):
            continue
        security = operation.get("security", doc.get("security", []))
        signed = any("apiKey" in requirement for requirement in security)
        found.append((path, parameters, signed))
    return found


def valid(schema, rng):
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "number":
        low = schema.get("minimum", schema.get("exclusiveMinimum", -1000))
        high = schema.get("maximum", 1000)
        return repr(round(rng.uniform(low + 1e-6, high), 6))
    if kind == "integer":
        return str(rng.randint(schema.get("minimum", 0), schema.get("maximum", 1000)))
    if schema.get("format") == "date-time":
        return rng.choice(["2026-06-01T10:00:00Z", "2020-05-01T10:00:00+02:00", "1700000000"])
    if schema.get("pattern") and "64" in schema["pattern"]:
        return "".join(rng.choice("0123456789abcdef") for _ in range(64))
    return rng.choice(["x", "alice", "gps"])


class Cursors:
    """Cursors a client might send: junk, forged positions in the look of this server's
    cursors (base64url JSON, with or without a made-up tag), and real ones changed."""

    def __init__(self, real, rng):
        self.real, self.rng = [c for c in real if c], rng

    def position(self):
        rng = self.rng
        value = rng.choice([-1000, -1e308, 1e308, 0, -0.0, 1e-320, 5e4, 123456789, "NaN", None, "x", [], {}])
        position = rng.choice([
            {"distance": value, "capturedAt": rng.choice([0, -1e308, 1e308, value]), "id": str(uuid.uuid4())},
            {"createdAt": rng.choice([-1e308, 1e308, 0, value]), "id": str(uuid.uuid4())},
            {"distance": value, "capturedAt": 0, "id": "not-a-uuid"},
            {"distance": -1, "capturedAt": 0, "id": str(uuid.uuid4()), "extra": "x" * rng.randint(0, 400)},
            {"distance": {"nested": [1, 2, {"deep": True}]}, "capturedAt": 0, "id": None},
        ])
        return json.dumps(position).encode()

    def __call__(self):
        rng = self.rng
        kind = rng.randrange(7)
        if kind == 0:
            return b64url(rng.randbytes(rng.randint(0, 600)))
        if kind == 1:
            return b64url(rng.randbytes(rng.randint(1, 200))) + "." + b64url(rng.randbytes(rng.randint(0, 40)))
        if kind == 2:
            return b64url(self.position())
        if kind == 3:
            return b64url(self.position()) + "." + b64url(rng.randbytes(16))
        if kind == 4 and self.real:
            real = list(rng.choice(self.real))
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(real))
                real[i] = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
            return "".join(real)
        if kind == 5 and self.real:
            head, dot, tag = rng.choice(self.real).partition(".")
            try:
                position = json.loads(b64url_decode(head))
            except ValueError:
                return head + "." + tag + "."
            for key in list(position):
                if key != "id":
                    position[key] = rng.choice([-1000, -1e308, 1e308])
            return b64url(json.dumps(position).encode()) + dot + tag
        return rng.choice(["", "=", "...", "." * 600, "A" * 10240, "!!!!", "eyJ", "null", "%00", "e30", "W10"])


def hostile(parameter, rng, cursors):
    name, schema = parameter["name"], parameter.get("schema", {})
    if name == "cursor" or (schema.get("type") == "string" and rng.random() < 0.1):
        return cursors()
    if schema.get("type") in ("number", "integer"):
        return rng.choice(NUMBERS + STRINGS[:6])
    if schema.get("format") == "date-time":
        return rng.choice(TIMES + NUMBERS[:8] + STRINGS[:4])
    return rng.choice(STRINGS + NUMBERS[:4])


def quote(text):
    return urllib.parse.quote(text, safe="")


def query(parameters, rng, cursors):
    """One hostile query string for these parameters (some valid, some not)."""
    query_parameters = [p for p in parameters if p.get("in") == "query"]
    mode = rng.random()
    pairs = []
    for parameter in query_parameters:
        include = parameter.get("required") or rng.random() < 0.5
        if include:
            pairs.append([parameter["name"], valid(parameter.get("schema", {}), rng)])
    if not pairs:
        parameter = rng.choice(query_parameters)
        pairs.append([parameter["name"], valid(parameter.get("schema", {}), rng)])
    if mode < 0.6:
        # One to three values hostile, the rest valid: the hostile one reaches deep.
        for _ in range(rng.randint(1, 3)):
            parameter = rng.choice(query_parameters)
            value = hostile(parameter, rng, cursors)
            for pair in pairs:
                if pair[0] == parameter["name"]:
                    pair[1] = value
                    break
            else:
                pairs.append([parameter["name"], value])
    elif mode < 0.75:
        # Repeated parameters: a valid one and a hostile one, in either order.
        parameter = rng.choice(query_parameters)
        extra = [parameter["name"], hostile(parameter, rng, cursors)]
        pairs.insert(rng.randrange(len(pairs) + 1), extra)
        pairs += [[parameter["name"], valid(parameter.get("schema", {}), rng)] for _ in range(rng.randint(0, 20))]
    elif mode < 0.85:
        # Bracketed names (the URL form decoder reads them as arrays and dictionaries).
        parameter = rng.choice(query_parameters)
        suffix = rng.choice(["[]", "[0]", "[a]", "[][]", "[a][b][c]", "[", "]", "[" * 50])
        pairs.append([parameter["name"] + suffix, valid(parameter.get("schema", {}), rng)])
    else:
        pairs = [[p["name"], hostile(p, rng, cursors)] for p in query_parameters if rng.random() < 0.8] or pairs
    text = "&".join(f"{quote(name)}={quote(value)}" for name, value in pairs)
    if rng.random() < 0.05:
        text += rng.choice(["&", "&&", "&=", "&latitude", "&%zz=1", "&=x", "&cursor=%", "&limit=%ff%fe"])
    return text


def header_value(rng):
    return rng.choice(["", "x" * 8000, "de-DE,de;q=0.9,en;q=0.8" * 50, "*", ";q=NaN", "zz-ZZZZ-" + "a" * 300, "\t", "de;q=-1, en;q=1e309"])


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    tle = [arg for name in ("gps-ops", "galileo", "glo-ops", "beidou") for arg in ("--tle", str(FIXTURES / "tle" / f"{name}.txt"))]
    server = Server(tmp_path_factory.mktemp("fuzz"), extra=tle, name="fuzz server")
    try:
        server.start()
        person = server.account("fuzzer")
        for n in range(3):
            server.upload(person, latitude=str(PLACE[0] + 0.0002 * n), longitude=str(PLACE[1]), capturedAt=f"2026-05-01T10:0{n}:00Z")
        scenes = []
        for _ in range(3):
            form = Multipart()
            form.field("metadata", json.dumps({"latitude": PLACE[0], "longitude": PLACE[1], "capturedAt": "2020-05-01T10:00:00+02:00",
                                               "attitude": {"w": 1, "x": 0, "y": 0, "z": 0}}))
            form.file("image", "reference.jpg", jpeg("Canon"))
            form.file("feetShot", "feet.jpg", jpeg("Nikon"))
            answer = server.post("/api/v1/scenes", body=form.body(), headers={"Content-Type": form.content_type, **person.bearer}, timeout=30)
            assert answer.status == 201, answer
            scenes.append(answer.json()["id"])
        key = server.post("/api/v1/keys", json_body={"name": "fuzz"}, token=person.token).json()
        real = [
            server.get(f"/api/v1/photos/nearby?latitude={PLACE[0]}&longitude={PLACE[1]}&limit=1").json().get("next"),
            server.get(f"/api/v1/photos/nearby?latitude={PLACE[0]}&longitude={PLACE[1]}&limit=1&sort=recent").json().get("next"),
            server.get(f"/api/v1/scenes?latitude={PLACE[0]}&longitude={PLACE[1]}&limit=1").json().get("next"),
            server.get("/api/v1/me/scenes?limit=1", token=person.token).json().get("next"),
        ]
        doc = yaml.safe_load(server.get("/openapi.yaml").body)
        yield server, person, key, scenes, real, doc
    finally:
        server.stop()


@pytest.mark.parametrize("who", ["anonymous", "signed in"])
def test_finding_12_every_query_parameter_and_cursor_fuzzed(fuzz_server, who):
    server, person, key, scenes, real, doc = fuzz_server
    rng = random.Random(SEED)
    cursors = Cursors(real, rng)
    found = operations(doc)
    assert {"/api/v1/photos/nearby", "/api/v1/scenes", "/api/v1/me/scenes"} <= {path for path, _, _ in found}, \
        f"the document lists the cursor searches: {[path for path, _, _ in found]}"
    problems, asked, slowest, statuses = [], 0, (0.0, ""), {}
    for path, parameters, signed in found:
        failures = 0
        for _ in range(PER_OPERATION):
            target = path.replace("{scene_id}", rng.choice(scenes + [str(uuid.uuid4())]))
            target += "?" + query(parameters, rng, cursors)
            headers = {}
            for parameter in parameters:
                if parameter.get("in") == "header" and rng.random() < 0.3:
                    headers[parameter["name"]] = header_value(rng)
            if who == "signed in":
                headers.update(signed_headers(key["key"], key["secret"], "GET", target) if signed else person.bearer)
            asked += 1
            try:
                answer = server.get(target, headers=headers, timeout=1.0)
            except NoAnswer as error:
                problems.append(f"{error} (GET {target[:300]})")
                failures += 1
            else:
                slowest = max(slowest, (answer.elapsed, target[:200]))
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
                if answer.status >= 500 or answer.elapsed > 1.0:
                    problems.append(f"{answer.status} in {answer.elapsed:.2f} s: GET {target[:300]} → {answer.body[:200]!r}")
                    failures += 1
            if failures >= 3:
                problems.append(f"{path}: stopped after 3 failures")
                break
    print(f"{asked} requests; answers {dict(sorted(statuses.items()))}; the slowest in {slowest[0]:.3f} s: GET {slowest[1]}")
    assert problems == [], f"{len(problems)} problems in {asked} requests ({who}):\n" + "\n".join(problems[:40])

"""What the photo tests share: a place of its own for every test, a JPEG made by ImageMagick,
photos put in through the API by another account, and the nearby answer to check what arrived."""
import math
import random
import re
import subprocess
from datetime import datetime

from conftest import username

PASSWORD = "correct horse battery"


def here():
    """Where the emulated phone stands: a place of this test's own, somewhere between 40° and 60°
    north (so every test's distances read the same), because on PostgreSQL the servers of all
    tests share one database and a nearby search must find only this test's photos."""
    return {"latitude": round(random.uniform(40, 60), 6), "longitude": round(random.uniform(-120, 140), 6), "accuracy": 12}


def instant(text):
    """An instant as the API writes it (RFC 3339 in UTC with milliseconds, as JavaScript's
    toISOString) in Unix seconds, read by Python's own ISO 8601 reader."""
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", text), f"not an API instant: {text!r}"
    return datetime.fromisoformat(text).timestamp()


def offset(place, north=0.0, east=0.0):
    """The place `north` and `east` metres from `place` (on the WGS-84 ellipsoid, locally)."""
    phi = math.radians(place["latitude"])
    per_degree_latitude = 111132.954 - 559.822 * math.cos(2 * phi) + 1.175 * math.cos(4 * phi)
    e2 = 0.00669437999014
    per_degree_longitude = math.pi / 180 * 6378137 * math.cos(phi) / math.sqrt(1 - e2 * math.sin(phi) ** 2)
    return {"latitude": place["latitude"] + north / per_degree_latitude, "longitude": place["longitude"] + east / per_degree_longitude}


def make_jpeg(folder, name="photo.jpg", size="1200x900", colours="skyblue-darkgreen"):
    """A real JPEG, as a camera would give one (ImageMagick's gradient, so it is not trivially small)."""
    path = folder / name
    subprocess.run(["convert", "-size", size, f"gradient:{colours}", "-quality", "90", str(path)], check=True)
    return path


def other_person(api):
    """Another account, with its token for the API."""
    answer = api.post("/api/v1/accounts", data={"username": username("olga"), "password": PASSWORD, "displayName": "Olga Other"})
    assert answer.status == 201, answer.text()
    return answer.json()["token"]


def upload_through_api(api, token, path, title, place, visibility="public"):
    with open(path, "rb") as handle:
        data = handle.read()
    answer = api.post("/api/v1/photos", headers={"Authorization": f"Bearer {token}"}, multipart={
        "photo": {"name": path.name, "mimeType": "image/jpeg", "buffer": data},
        "title": title, "latitude": str(place["latitude"]), "longitude": str(place["longitude"]), "visibility": visibility,
    })
    assert answer.status == 201, answer.text()
    return answer.json()


def nearby(api, place, radius=1000):
    answer = api.get(f"/api/v1/photos/nearby?latitude={place['latitude']}&longitude={place['longitude']}&radius={radius}")
    assert answer.status == 200, answer.text()
    return answer.json()["items"]

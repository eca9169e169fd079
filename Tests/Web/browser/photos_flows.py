"""What the photo tests share: a JPEG made by ImageMagick, photos put in through the API by
another account, and the nearby answer to check what arrived."""
import subprocess

from conftest import username

PASSWORD = "correct horse battery"
# The emulated phone stands at the Brandenburg Gate; another person’s photo is about 400 m north.
HERE = {"latitude": 52.516275, "longitude": 13.377704, "accuracy": 12}
NORTH = {"latitude": 52.5199, "longitude": 13.3777}
# Two more of theirs close by (about 30 m east and 45 m west): on the map they and the phone's
# photo make one cluster until zoomed in.
EAST = {"latitude": 52.516275, "longitude": 13.378144}
WEST = {"latitude": 52.516275, "longitude": 13.377044}


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

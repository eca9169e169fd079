"""Finding 3 of #34 (privacy): a private upload takes its place from the photo's own GPS, and
switching it to public later published that exact place without `usePhotoPlace`. A place that
came from the file is published only when the owner says so."""
import pytest

from hostile import jpeg, same_id


def near(place):
    return f"/api/v1/photos/nearby?latitude={place[0]}&longitude={place[1]}&radius=200"


def private_gps_photo(server, owner, place):
    """A private upload with no latitude/longitude fields, its place from the file's GPS tags."""
    photo = server.upload(owner, image=jpeg("Canon", exif_gps=place), visibility="private")
    assert photo["latitude"] == pytest.approx(place[0], abs=1e-5) and photo["longitude"] == pytest.approx(place[1], abs=1e-5), \
        f"the owner sees the place the photo's GPS gave: {photo}"
    return photo


def found_anonymously(server, photo_id, place):
    answer = server.get(near(place))
    assert answer.status == 200, answer
    return any(same_id(item["id"], photo_id) for item in answer.json()["items"])


def test_finding_03_publishing_does_not_publish_the_files_place(module_server):
    server, place = module_server, (47.3769, 8.5417)
    owner = server.account("exif")
    photo = private_gps_photo(server, owner, place)
    answer = server.patch(f"/api/v1/photos/{photo['id']}", json_body={"visibility": "public"}, token=owner.token)
    assert answer.status == 200, answer
    changed = answer.json()
    assert changed["visibility"] == "public", changed
    assert changed["latitude"] is None and changed["longitude"] is None, f"published without its file's place: {changed}"
    anonymous = server.get(f"/api/v1/photos/{photo['id']}")
    assert anonymous.status == 200, anonymous
    assert anonymous.json()["latitude"] is None and anonymous.json()["longitude"] is None, f"read anonymously: {anonymous.json()}"
    assert not found_anonymously(server, photo["id"], place), "an anonymous nearby search at the file's place finds it"


def test_finding_03_use_photo_place_publishes_it(module_server):
    server, place = module_server, (48.2082, 16.3738)
    owner = server.account("exif")
    photo = private_gps_photo(server, owner, place)
    answer = server.patch(f"/api/v1/photos/{photo['id']}", json_body={"visibility": "public", "usePhotoPlace": True}, token=owner.token)
    assert answer.status == 200, answer
    changed = answer.json()
    assert changed["latitude"] == pytest.approx(place[0], abs=1e-5) and changed["longitude"] == pytest.approx(place[1], abs=1e-5), changed
    anonymous = server.get(f"/api/v1/photos/{photo['id']}").json()
    assert anonymous["latitude"] == pytest.approx(place[0], abs=1e-5), f"read anonymously: {anonymous}"
    assert found_anonymously(server, photo["id"], place), "with usePhotoPlace the place is published, and nearby finds it"

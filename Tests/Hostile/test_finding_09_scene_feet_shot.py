"""Finding 9 of #34 (privacy): a scene made private (its reference photo private) left its feet
shot public, found by a nearby search at the scene's place. The feet shot follows the scene."""
import json

from hostile import Multipart, jpeg, same_id

PLACE = (49.19522, 16.60796)


def create_scene(server, owner, place):
    form = Multipart()
    form.field("metadata", json.dumps({"latitude": place[0], "longitude": place[1], "capturedAt": "2020-05-01T10:00:00+02:00",
                                       "attitude": {"w": 1, "x": 0, "y": 0, "z": 0}, "name": "the old mill"}))
    form.file("image", "reference.jpg", jpeg("Canon"))
    form.file("feetShot", "feet.jpg", jpeg("Nikon"))
    answer = server.post("/api/v1/scenes", body=form.body(), headers={"Content-Type": form.content_type, **owner.bearer}, timeout=30)
    assert answer.status == 201, answer
    return answer.json()


def found_nearby(server, photo_id, place):
    answer = server.get(f"/api/v1/photos/nearby?latitude={place[0]}&longitude={place[1]}&radius=100")
    assert answer.status == 200, answer
    return any(same_id(item["id"], photo_id) for item in answer.json()["items"])


def test_finding_09_private_scene_hides_its_feet_shot(module_server):
    server = module_server
    owner = server.account("rephoto")
    scene = create_scene(server, owner, PLACE)
    reference, feet = scene["reference"]["id"], scene["feetShot"]["id"]
    assert server.get(f"/api/v1/photos/{feet}").status == 200, "a public scene's feet shot is public"

    answer = server.patch(f"/api/v1/photos/{reference}", json_body={"visibility": "private"}, token=owner.token)
    assert answer.status == 200, answer
    assert server.get(f"/api/v1/scenes/{scene['id']}").status == 404, "the scene is its owner's alone"

    assert not found_nearby(server, feet, PLACE), "an anonymous nearby search at the scene's place finds its feet shot"
    answer = server.get(f"/api/v1/photos/{feet}")
    assert answer.status == 404, f"the private scene's feet shot read anonymously: {answer}"
    assert server.get(f"/api/v1/photos/{feet}/image/thumb").status == 404, "its image, anonymously"
    assert server.get(f"/api/v1/photos/{feet}", token=owner.token).status == 200, "the owner still sees it"

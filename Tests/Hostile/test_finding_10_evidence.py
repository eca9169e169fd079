"""Finding 10 of #34 (integrity): an evidence photo's place, title and visibility could be changed
after its task was sent (deleting it was refused, editing was not). Once sent it is read-only."""
import pytest

from hostile import Multipart, jpeg


def sent_evidence(server):
    officer = server.account("inspector", role="officer")
    user = server.account("farmer")
    answer = server.post("/api/v1/tasks", token=officer.token,
                         json_body={"assignee": user.username, "name": "Check the hedge", "dueDate": "2030-07-01"})
    assert answer.status == 201, answer
    task = answer.json()["id"]
    assert server.get(f"/api/v1/tasks/{task}", token=user.token).status == 200
    form = Multipart()
    for name, value in {"title": "the hedge", "latitude": "48.8566", "longitude": "2.3522", "visibility": "private"}.items():
        form.field(name, value)
    form.file("photo", "hedge.jpg", jpeg("Pentax"))
    answer = server.post(f"/api/v1/tasks/{task}/photos", body=form.body(), headers={"Content-Type": form.content_type, **user.bearer}, timeout=30)
    assert answer.status == 201, answer
    photo = answer.json()
    answer = server.post(f"/api/v1/tasks/{task}/send", token=user.token)
    assert answer.status == 200, answer
    return user, photo


@pytest.mark.parametrize("change", [
    {"title": "nothing to see"},
    {"visibility": "public"},
    {"latitude": 48.0, "longitude": 2.0},
    {"latitude": None, "longitude": None},
])
def test_finding_10_sent_evidence_photo_is_read_only(module_server, change):
    server = module_server
    user, photo = sent_evidence(server)
    answer = server.patch(f"/api/v1/photos/{photo['id']}", json_body=change, token=user.token)
    assert answer.status == 409 and answer.error == "photo_sent", f"editing {change} of a photo sent with its task: {answer}"
    now = server.get(f"/api/v1/photos/{photo['id']}", token=user.token).json()
    for field in ("title", "visibility", "latitude", "longitude"):
        assert now[field] == photo[field], f"{field} changed from {photo[field]!r} to {now[field]!r}"

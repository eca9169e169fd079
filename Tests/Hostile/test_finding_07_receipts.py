"""Finding 7 of #34 (privacy): an officer read the receipt (title, exact place, owner) of any
private photo, not only of task photos. Receipts follow the photo's own visibility rule."""


def test_finding_07_officer_cannot_read_receipts_of_private_photos_outside_tasks(module_server):
    server = module_server
    owner = server.account("citizen")
    officer = server.account("officer", role="officer")
    private = server.upload(owner, title="my garden", latitude="50.0875", longitude="14.4213", visibility="private")
    public = server.upload(owner, title="the square", latitude="50.0870", longitude="14.4210")

    answer = server.get(f"/api/v1/photos/{private['id']}/receipt", token=officer.token)
    assert answer.status == 404, f"an officer reads the receipt of another user's private photo of no task: {answer}"
    assert b"my garden" not in answer.body and b"50.0875" not in answer.body

    answer = server.get(f"/api/v1/photos/{public['id']}/receipt", token=officer.token)
    assert answer.status == 200, f"an officer reads a public photo's receipt: {answer}"

    answer = server.get(f"/api/v1/photos/{private['id']}/receipt", token=owner.token)
    assert answer.status == 200, f"the owner reads their private photo's receipt: {answer}"

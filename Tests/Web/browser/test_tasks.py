"""Field-inspection tasks (/tasks and /tasks/:id, issue #15 points 1 and 8) on a phone, on the real
server: an officer hands a task to a user in the page (a refusal shows the server's reason); the
user opens it (new → open), writes a note, adds two photos with the camera input, deletes one
(asked first) and sends it; the officer returns it with a reason; the user reads the reason, adds a
photo offline — it waits on the phone, through a reload too — and it arrives once when the network
is back, then sends again offline: the send waits too and goes once the network is back. German labels on the task page; signed out, a sign-in prompt."""
import subprocess

from playwright.sync_api import expect

from conftest import WAYMARK, messages, username, wait_for_service_worker
from flows import sign_in
from photos_flows import PASSWORD, here, make_jpeg


def make_officer(tmp_path, name):
    """An officer account, made as an admin would: `waymark users create NAME --role officer`
    on the server's own data folder (or DATABASE_URL's database)."""
    password_file = tmp_path / "officer-password"
    password_file.write_text(PASSWORD + "\n", encoding="utf-8")
    subprocess.run([WAYMARK, "users", "create", name, "--role", "officer", "--display-name", "Otto Officer",
                    "--password-file", str(password_file), "--data", str(tmp_path / "data")], check=True, capture_output=True, timeout=60)


def make_user(api, name):
    answer = api.post("/api/v1/accounts", data={"username": name, "password": PASSWORD, "displayName": "Ulla User"})
    assert answer.status == 201, answer.text()
    return answer.json()["token"]


def hand_out_task(api, tmp_path, assignee, name="Field 7 hedge", instructions="Photograph the hedge."):
    """An officer (made as an admin would, make_officer) gives `assignee` a task through the API;
    returns the task's id."""
    officer_name = username("otto")
    make_officer(tmp_path, officer_name)
    token = api.post("/api/v1/sessions", data={"username": officer_name, "password": PASSWORD}).json()["token"]
    created = api.post("/api/v1/tasks", headers={"Authorization": f"Bearer {token}"},
                       data={"assignee": assignee, "name": name, "instructions": instructions, "dueDate": "2026-12-15"})
    assert created.status == 201, created.text()
    return created.json()["id"]


def task_through_api(api, token, task_id):
    answer = api.get(f"/api/v1/tasks/{task_id}", headers={"Authorization": f"Bearer {token}"})
    assert answer.status == 200, answer.text()
    return answer.json()


def top(phone, step):
    """A screenshot of the page from its top (Playwright scrolls to what it last touched)."""
    phone.page.evaluate("window.scrollTo(0, 0)")
    phone.shot(step)


def status_text(m, status):
    return m[f"tasks.status.{status}"]


def add_photo(page, m, path):
    with page.expect_response(lambda r: "/photos" in r.url and r.request.method == "POST" and r.status == 201):
        page.get_by_text(m["task.photo.add"], exact=True).locator("..").locator("input[type=file]").set_input_files(str(path))


def test_a_task_is_handed_out_done_returned_and_done_again(phone_for, api, tmp_path):
    m = messages("en")
    officer_name, user_name = username("otto"), username("ulla")
    make_officer(tmp_path, officer_name)
    user_token = make_user(api, user_name)
    first, second, third = (make_jpeg(tmp_path, f"{name}.jpg", size="640x480", colours=colours)
                            for name, colours in (("one", "skyblue-darkgreen"), ("two", "orange-brown"), ("three", "white-navy")))

    # The officer hands the task out in the page; an unknown username is refused, in the app's words.
    officer = phone_for("en-US")
    desk = officer.page
    desk.goto("/account")
    assert sign_in(officer, "en", officer_name, PASSWORD).status == 200
    desk.goto("/tasks")
    expect(desk.get_by_role("heading", level=1)).to_have_text(m["tasks.title"])
    form = desk.locator("form.task-new")
    form.get_by_label(m["tasks.new.assignee"], exact=True).fill("nobody-here")
    form.get_by_label(m["tasks.new.name"], exact=True).fill("Field 7 boundary")
    form.get_by_label(m["tasks.new.instructions"], exact=True).fill("Photograph the north-east corner post.")
    form.get_by_label(m["tasks.new.due"], exact=True).fill("2026-12-01")
    form.get_by_role("button", name=m["tasks.new.submit"]).click()
    expect(form.locator(".form-error")).to_have_text(m["error.unknown_assignee"])
    form.get_by_label(m["tasks.new.assignee"], exact=True).fill(user_name)
    with desk.expect_response(lambda r: r.url.endswith("/api/v1/tasks") and r.request.method == "POST") as created:
        form.get_by_role("button", name=m["tasks.new.submit"]).click()
    assert created.value.status == 201, created.value.text()
    assert created.value.request.header_value("idempotency-key"), "the new task is sent with an Idempotency-Key"
    task_id = created.value.json()["id"]
    row = desk.locator(f".task-item[data-id='{task_id}']")
    expect(row).to_contain_text("Field 7 boundary")
    expect(row.locator(".task-status")).to_have_text(f"✦ {status_text(m, 'new')}")
    expect(row).to_contain_text(user_name)
    expect(row).to_contain_text("Due Dec 1, 2026")
    expect(form.get_by_label(m["tasks.new.name"], exact=True)).to_have_value("")
    # The filter: no task is returned yet, the new one is new.
    desk.get_by_label(m["tasks.filter"]).select_option("returned")
    expect(row).to_have_count(0)
    expect(desk.locator(".task-empty")).to_be_visible()
    desk.get_by_label(m["tasks.filter"]).select_option("new")
    expect(row).to_have_count(1)
    top(officer, "1-officer-new-task")
    desk.locator("#task-list-heading").evaluate("(heading) => heading.scrollIntoView()")
    officer.shot("1-officer-list")

    # The user opens it: open, with the officer's instructions.
    spot = here()
    user = phone_for("en-US", geolocation=spot)
    page = user.page
    page.goto("/account")
    assert sign_in(user, "en", user_name, PASSWORD).status == 200
    page.goto("/tasks")
    mine = page.locator(f".task-item[data-id='{task_id}']")
    expect(mine.locator(".task-status")).to_contain_text(status_text(m, "new"))
    expect(mine).to_contain_text(m["tasks.photoCount"].replace("{count}", "0"))
    top(user, "2-user-list")
    mine.get_by_role("link", name="Field 7 boundary").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Field 7 boundary")
    facts = page.locator(".task-facts")
    expect(facts.locator(".task-status")).to_have_text(f"○ {status_text(m, 'open')}")
    expect(facts).to_contain_text("Photograph the north-east corner post.")
    expect(facts).to_contain_text("Dec 1, 2026")

    # A note, two photos (with the phone's position), one deleted after asking.
    page.get_by_label(m["task.note"], exact=True).fill("Post found, leaning west.")
    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/tasks/{task_id}") and r.request.method == "PATCH" and r.status == 200):
        page.get_by_role("button", name=m["task.note.save"]).click()
    add_photo(page, m, first)
    expect(page.locator(".task-photo img")).to_have_count(1)
    add_photo(page, m, second)
    expect(page.locator(".task-photo img")).to_have_count(2)
    expect(page.get_by_role("heading", name=m["task.photos"].replace("{count}", "2"))).to_be_visible()
    dismissed = []
    page.once("dialog", lambda dialog: (dismissed.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name=m["task.photo.deleteLabel"].replace("{number}", "2")).click()
    expect(page.locator(".task-photo img")).to_have_count(2)
    assert dismissed == [m["task.photo.deleteConfirm"].replace("{number}", "2")], "Delete asks first"
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: "/photos/" in r.url and r.request.method == "DELETE" and r.status == 204):
        page.get_by_role("button", name=m["task.photo.deleteLabel"].replace("{number}", "2")).click()
    expect(page.locator(".task-photo img")).to_have_count(1)
    stored = task_through_api(api, user_token, task_id)
    assert stored["note"] == "Post found, leaning west."
    assert len(stored["photos"]) == 1 and abs(stored["photos"][0]["latitude"] - spot["latitude"]) < 1e-6
    top(user, "3-task-open")
    page.locator(".task-photos-section").evaluate("(section) => section.scrollIntoView()")
    user.shot("3-task-photos")

    # Send (asked first): data provided, nothing to edit.
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: r.url.endswith("/send") and r.status == 200):
        page.get_by_role("button", name=m["task.send"], exact=True).click()
    expect(facts.locator(".task-status")).to_have_text(f"✓ {status_text(m, 'data_provided')}")
    expect(page.get_by_label(m["task.note"], exact=True)).to_be_disabled()
    expect(page.get_by_text(m["task.photo.add"], exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name=m["task.send"], exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name=m["task.photo.deleteLabel"].replace("{number}", "1"))).to_have_count(0)

    # The officer returns it with a reason.
    desk.goto(f"/tasks/{task_id}")
    expect(desk.locator(".task-facts .task-status")).to_contain_text(status_text(m, "data_provided"))
    expect(desk.get_by_label(m["task.note.theirs"])).to_have_value("Post found, leaning west.")
    desk.get_by_role("button", name=m["task.return"], exact=True).click()
    expect(desk.locator("form.task-return .form-error")).to_have_text(m["error.invalid_reason"])
    desk.get_by_label(m["task.return.reason"]).fill("The post is not in the photo; take it from the road.")
    with desk.expect_response(lambda r: r.url.endswith("/return") and r.status == 200):
        desk.get_by_role("button", name=m["task.return"], exact=True).click()
    expect(desk.locator(".task-facts .task-status")).to_have_text(f"↩ {status_text(m, 'returned')}")
    top(officer, "4-officer-returned")

    # The user reads why, and adds a photo offline: it waits, through a reload, and arrives once.
    page.reload()
    expect(page.locator(".task-returned")).to_contain_text("The post is not in the photo; take it from the road.")
    expect(facts.locator(".task-status")).to_contain_text(status_text(m, "returned"))
    expect(page.locator(".task-photo")).to_contain_text(m["task.photo.sent"])
    expect(page.get_by_role("button", name=m["task.photo.deleteLabel"].replace("{number}", "1"))).to_have_count(0)
    wait_for_service_worker(page)
    posts = []
    page.on("request", lambda r: posts.append(r.header_value("idempotency-key")) if r.url.endswith(f"/tasks/{task_id}/photos") and r.method == "POST" else None)
    user.context.set_offline(True)
    page.get_by_text(m["task.photo.add"], exact=True).locator("..").locator("input[type=file]").set_input_files(str(third))
    waiting = page.locator(".task-waiting")
    expect(waiting).to_have_text(m["task.waiting"].replace("{what}", m["task.waiting.photos"].replace("{count}", "1")))
    expect(page.locator(".task-photo-waiting")).to_contain_text(m["task.photo.waiting"])
    page.get_by_label(m["task.note"], exact=True).fill("Post found, leaning west; taken again from the road.")
    page.get_by_role("button", name=m["task.note.save"]).click()
    both = m["task.waiting"].replace("{what}", m["task.waiting.note"] + ", " + m["task.waiting.photos"].replace("{count}", "1"))
    expect(waiting).to_have_text(both)
    top(user, "5-waiting-offline")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Field 7 boundary")
    expect(waiting).to_have_text(both)
    expect(page.get_by_label(m["task.note"], exact=True)).to_have_value("Post found, leaning west; taken again from the road.")
    kept = task_through_api(api, user_token, task_id)
    assert len(kept["photos"]) == 1 and kept["note"] == "Post found, leaning west.", "nothing arrived while offline"
    with page.expect_response(lambda r: r.url.endswith(f"/tasks/{task_id}/photos") and r.request.method == "POST" and r.status == 201):
        user.context.set_offline(False)
    expect(waiting).to_be_hidden()
    expect(page.locator(".task-photo img")).to_have_count(2)
    expect(page.get_by_role("button", name=m["task.photo.deleteLabel"].replace("{number}", "2"))).to_be_visible()
    page.wait_for_timeout(500)
    after = task_through_api(api, user_token, task_id)
    assert len(after["photos"]) == 2, "the offline photo arrived once"
    assert after["note"] == "Post found, leaning west; taken again from the road."
    assert len(posts) == 1 and posts[0], f"one upload with an Idempotency-Key: {posts}"

    # Sent again, offline: the send waits on the phone (through a reload) and goes once when the
    # network is back; the history says who did what, oldest first.
    sends = []
    page.on("request", lambda r: sends.append(r.url) if r.url.endswith(f"/tasks/{task_id}/send") and r.method == "POST" else None)
    user.context.set_offline(True)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=m["task.send"], exact=True).click()
    expect(page.locator(".task-send-section")).to_contain_text(m["task.send.queued"])
    expect(waiting).to_have_text(m["task.waiting"].replace("{what}", m["task.waiting.send"]))
    expect(page.get_by_role("button", name=m["task.send"], exact=True)).to_be_disabled()
    top(user, "6-send-waiting-offline")
    page.reload()
    expect(waiting).to_have_text(m["task.waiting"].replace("{what}", m["task.waiting.send"]))
    assert task_through_api(api, user_token, task_id)["status"] == "returned", "nothing was sent while offline"
    with page.expect_response(lambda r: r.url.endswith(f"/tasks/{task_id}/send") and r.status == 200):
        user.context.set_offline(False)
    expect(facts.locator(".task-status")).to_contain_text(status_text(m, "data_provided"))
    expect(waiting).to_be_hidden()
    assert len(sends) == 1, f"one send: {sends}"
    history = page.locator(".task-history-list li")
    expect(history).to_have_count(5)
    expect(history.nth(0)).to_contain_text(m["task.history.created"])
    expect(history.nth(0)).to_contain_text(officer_name)
    expect(history.nth(1)).to_contain_text(status_text(m, "open"))
    expect(history.nth(3)).to_contain_text(status_text(m, "returned"))
    expect(history.nth(3)).to_contain_text("take it from the road")
    expect(history.nth(4)).to_contain_text(user_name)
    top(user, "7-sent-again")
    assert task_through_api(api, user_token, task_id)["status"] == "data_provided"

    # German labels on the same page.
    de = messages("de")
    page.locator("button[data-language=de]").click()
    expect(page.get_by_role("heading", name=de["task.history"])).to_be_visible()
    expect(facts.locator(".task-status")).to_have_text(f"✓ {de['tasks.status.data_provided']}")
    expect(page.get_by_text(de["task.returnReason"])).to_have_count(0)
    expect(page.get_by_label(de["task.note"], exact=True)).to_have_value("Post found, leaning west; taken again from the road.")
    top(user, "8-german")
    page.goto("/tasks")
    expect(page.get_by_role("heading", level=1)).to_have_text(de["tasks.title"])
    expect(page.locator(f".task-item[data-id='{task_id}']")).to_contain_text(de["tasks.photoCount"].replace("{count}", "2"))


def test_signed_out_the_tasks_ask_to_sign_in(phone_for):
    m = messages("de")
    phone = phone_for("de-DE")
    page = phone.page
    page.goto("/tasks")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["tasks.title"])
    expect(page.get_by_text(m["tasks.signInFirst"])).to_be_visible()
    expect(page.get_by_role("link", name=m["home.signIn"])).to_have_attribute("href", "/account#sign-in")
    top(phone, "signed-out")

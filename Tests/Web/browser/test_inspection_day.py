"""A day of field inspection end to end (issue #15, "Done when"), phone-sized, on the real server,
each step through the pages as the people would do it: an officer hands out a task; the farmer
opens it, turns the centroid on in the inspection settings and goes into the field without a
network: takes two evidence photos (one with the centroid of 10 fixes, one refused because the
phone moved during the countdown) and walks a path round a 100 m × 100 m square (area within
0.5 % of 10,000 m²). Back online, the photo and the path arrive and the task is sent; the officer
returns it; the farmer — now in German — adds a photo and sends again. Screenshots of each step.
The sky map for a given time and place is Tests/Web/browser/test_sky.py."""
import re

from playwright.sync_api import expect

from conftest import messages, username, wait_for_service_worker
from flows import sign_in
from photos_flows import PASSWORD, offset
from test_camera import ALPHA, BETA, GAMMA, camera_browser, camera_direction, camera_phone, fixes_around, missing_text, send_fixes, sensors, true_north  # noqa: F401 (fixtures)
from test_paths import START, geographiclib_area, square_walk, walk
from test_tasks import make_officer, make_user, status_text, task_through_api, top


def test_a_day_in_the_field(camera_phone, api, tmp_path):  # noqa: F811 (the fixture imported above)
    m, de = messages("en"), messages("de")
    officer_name, farmer_name = username("olga"), username("fritz")
    make_officer(tmp_path, officer_name)
    farmer_token = make_user(api, farmer_name)
    field = {"latitude": START[0], "longitude": START[1], "accuracy": 4}

    # 1. The officer hands out the task.
    officer = camera_phone("en-US")
    desk = officer.page
    desk.goto("/account")
    assert sign_in(officer, "en", officer_name, PASSWORD).status == 200
    desk.goto("/tasks")
    form = desk.locator("form.task-new")
    form.get_by_label(m["tasks.new.assignee"], exact=True).fill(farmer_name)
    form.get_by_label(m["tasks.new.name"], exact=True).fill("Field 23, north-west corner")
    form.get_by_label(m["tasks.new.instructions"], exact=True).fill("Photograph the corner stone and walk the field's boundary.")
    form.get_by_label(m["tasks.new.due"], exact=True).fill("2026-12-20")
    with desk.expect_response(lambda r: r.url.endswith("/api/v1/tasks") and r.request.method == "POST") as created:
        form.get_by_role("button", name=m["tasks.new.submit"]).click()
    assert created.value.status == 201, created.value.text()
    task_id = created.value.json()["id"]
    top(officer, "1-officer-hands-out")

    # 2. The farmer, at home with a network: signs in, sees the main screen, turns the centroid on
    #    over 10 fixes and opens the task (new → open), so that it is on the phone.
    farmer = camera_phone("en-US", geolocation=field)
    page = farmer.page
    page.goto("/account")
    assert sign_in(farmer, "en", farmer_name, PASSWORD).status == 200
    page.goto("/inspection")
    expect(page.get_by_role("heading", name=m["inspection.basicInfo"])).to_be_visible()
    wait_for_service_worker(page)
    page.get_by_role("link", name=m["inspection.module.settings"], exact=True).click()
    page.get_by_label(m["inspection.settings.centroid"]).check()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('waymark.inspection.settings') || '{}').centroid === true")
    expect(page.get_by_label(m["inspection.settings.samples"], exact=True)).to_have_value("10")
    top(farmer, "2-settings")
    page.goto("/tasks")
    page.locator(f".task-item[data-id='{task_id}']").get_by_role("link", name="Field 23, north-west corner").click()
    expect(page.locator(".task-facts .task-status")).to_contain_text(status_text(m, "open"))

    # 3. In the field, offline: the evidence camera. The first photo with the centroid of 10 fixes.
    farmer.context.set_offline(True)
    page.get_by_role("link", name=m["task.camera"], exact=True).click()
    expect(page).to_have_url(re.compile(f"/tasks/{task_id}/camera$"))
    sensors(page, on=True)
    fixes = fixes_around(field, 10)
    send_fixes(farmer, fixes)
    expect(page.locator(".camera-centroid .camera-samples")).to_have_text("10/10")
    shutter = page.get_by_role("button", name=m["camera.shutter"], exact=True)
    expect(shutter).to_be_enabled()
    farmer.shot("3-camera-ready-offline")
    shutter.click()
    expect(page.locator(".camera-result")).to_contain_text(m["camera.stored.waiting"], timeout=15000)

    #    The second is refused: the phone moves during the countdown.
    page.get_by_role("button", name=m["camera.another"]).click()
    send_fixes(farmer, [{**offset(field, north=1, east=1), "accuracy": 4}])
    expect(shutter).to_be_enabled()
    shutter.click()
    expect(page.locator(".camera-countdown")).to_be_visible()
    page.wait_for_timeout(1500)
    sensors(page, shake=2.5)
    expect(page.locator(".camera-refusal")).to_have_text(missing_text(m, "camera.refused", reason=m["camera.missing.moving"]))
    farmer.shot("4-refused-moved")
    sensors(page, shake=0.03)
    assert task_through_api(api, farmer_token, task_id)["photos"] == [], "nothing reached the server while offline"

    # 4. Still offline: the boundary, walked round a 100 m × 100 m square, one point a second.
    points = square_walk(side=100.0, per_side=2)
    farmer.context.set_geolocation({"latitude": points[0][0], "longitude": points[0][1], "accuracy": 3})
    page.goto("/paths")
    page.get_by_label(m["paths.name"]).fill("Field 23")
    page.get_by_role("button", name=m["paths.record"], exact=True).click()
    walk(farmer, points, m)
    page.get_by_role("button", name=m["paths.stop"], exact=True).click()
    area, _ = geographiclib_area(points)
    assert abs(area - 10_000) < 0.005 * 10_000, area
    shown = page.locator(".path-result .path-area").text_content() or ""
    square_metres = float(shown.split(" m²")[0].replace(",", ""))
    assert abs(square_metres - 10_000) < 0.005 * 10_000, f"the page shows {shown}"
    expect(page.locator(".path-item .path-badge")).to_have_text(m["paths.state.unsent"])
    farmer.shot("5-path-walked-offline")

    # 5. Back online: the path and the photo arrive, and the task is sent.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/paths") and r.request.method == "POST" and r.status == 201) as sent_path:
        farmer.context.set_offline(False)
    assert abs(sent_path.value.json()["area"] - area) < 1e-6 * area
    expect(page.locator(".path-item .path-badge")).to_have_text(m["paths.state.sent"])
    page.goto(f"/tasks/{task_id}")
    expect(page.locator(".task-photo img")).to_have_count(1)
    expect(page.locator(".task-waiting")).to_be_hidden()
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: r.url.endswith(f"/tasks/{task_id}/send") and r.status == 200):
        page.get_by_role("button", name=m["task.send"], exact=True).click()
    expect(page.locator(".task-facts .task-status")).to_contain_text(status_text(m, "data_provided"))
    top(farmer, "6-sent")
    sent = task_through_api(api, farmer_token, task_id)
    assert len(sent["photos"]) == 1
    photo = sent["photos"][0]
    assert photo["centroid"]["samples"] == 10
    # The azimuth is against true north: the compass plus pygeomag's declination at the field.
    magnetic, tilt = camera_direction(ALPHA, BETA, GAMMA)
    azimuth = true_north(magnetic, field)
    assert abs((photo["azimuth"] - azimuth + 180) % 360 - 180) < 1 and abs(photo["tilt"] - tilt) < 1, (photo, azimuth)
    receipt = page.request.get(f"/api/v1/photos/{photo['id']}/receipt")
    assert receipt.status == 200 and receipt.json()["signature"], receipt.text()

    # 6. The officer returns it.
    desk.goto(f"/tasks/{task_id}")
    expect(desk.locator(".task-facts .task-status")).to_contain_text(status_text(m, "data_provided"))
    desk.get_by_label(m["task.return.reason"]).fill("The stone is hidden by grass; take one more from the west.")
    with desk.expect_response(lambda r: r.url.endswith("/return") and r.status == 200):
        desk.get_by_role("button", name=m["task.return"], exact=True).click()
    top(officer, "7-officer-returns")

    # 7. The farmer, in German now, reads why, adds a photo and sends again.
    page.locator("button[data-language=de]").click()
    page.reload()
    expect(page.locator(".task-returned")).to_contain_text("The stone is hidden by grass")
    expect(page.locator(".task-facts .task-status")).to_contain_text(de["tasks.status.returned"])
    page.get_by_role("link", name=de["task.camera"], exact=True).click()
    sensors(page, on=True)  # the reload started the page's sensors anew
    send_fixes(farmer, fixes_around(offset(field, east=-3), 10), comma=True)
    expect(page.get_by_role("button", name=de["camera.shutter"], exact=True)).to_be_enabled()
    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/tasks/{task_id}/photos") and r.request.method == "POST" and r.status == 201):
        page.get_by_role("button", name=de["camera.shutter"], exact=True).click()
    page.get_by_role("link", name=de["camera.toTask"], exact=True).click()
    expect(page.locator(".task-photo img")).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: r.url.endswith(f"/tasks/{task_id}/send") and r.status == 200):
        page.get_by_role("button", name=de["task.send"], exact=True).click()
    expect(page.locator(".task-facts .task-status")).to_contain_text(de["tasks.status.data_provided"])
    top(farmer, "8-gesendet")
    final = task_through_api(api, farmer_token, task_id)
    assert final["status"] == "data_provided" and len(final["photos"]) == 2
    history = api.get(f"/api/v1/tasks/{task_id}/history", headers={"Authorization": f"Bearer {farmer_token}"}).json()["items"]
    assert [entry["to"] for entry in history] == ["new", "open", "data_provided", "returned", "data_provided"]

"""The phone's routes (seed 000's Home and Route details, issue #13 point 3) on a phone against the
real server: the list newest first with the cloud status, long press to select, "Selected n",
Cancel, Delete with confirmation; a route's details with its tracks on the map, the distance
units toggle, the map type chooser, the Key button that shows the server's id only while held;
the grouped "n routes stored" notice and the remote delete of stored routes; in English and German.
Routes are recorded in the page through the app's own modules (routes_flows.py)."""
import re
import time

import pytest
from playwright.sync_api import expect

from conftest import make_account, messages, username
from flows import sign_up
from routes_flows import begin_route, local_route, long_press, mark_refused, press, touch_long_press, record_route, server_status, sync_now, walk

BERLIN = (52.5163, 13.3777)
DAY = 86_400


def starts(count):
    """`count` start times an hour apart, yesterday, oldest first."""
    base = int(time.time()) - DAY
    base -= base % 3600
    return [base + hour * 3600 for hour in range(count)]


def rows(page):
    return page.locator(".route-list > li")


def heading(page):
    return page.get_by_role("heading", level=1)


def open_routes(phone):
    phone.page.goto(phone.url("/routes"))
    expect(phone.page.locator(".route-list, .route-empty").first).to_be_attached()


def test_list_newest_first_select_cancel_delete(phone):
    m = messages("en")
    page = phone.page
    open_routes(phone)
    expect(heading(page)).to_have_text(m["routes.heading"])
    expect(page.get_by_text(m["routes.empty"])).to_be_visible()
    start_link = page.get_by_role("link", name=m["routes.start"])
    expect(start_link).to_have_attribute("href", "/record")
    phone.shot("1-empty")

    times = starts(3)
    ids = [record_route(page, start, [walk(*BERLIN, 100 * (index + 1), 0, 10)]) for index, start in enumerate(times)]
    open_routes(phone)
    expect(rows(page)).to_have_count(3)
    # Newest first (SHO-01), each with its start time, distance and the Queued icon (not signed in).
    shown = [rows(page).nth(index).get_attribute("data-route") for index in range(3)]
    assert shown == list(reversed(ids))
    stamps = [rows(page).nth(index).locator("time").get_attribute("datetime") for index in range(3)]
    assert stamps == sorted(stamps, reverse=True)
    for index in range(3):
        expect(rows(page).nth(index).get_by_role("img", name=m["routes.status.queued"])).to_be_visible()
    expect(rows(page).nth(0)).to_contain_text(" m")
    # A route the server refused for good says so, in the app's words for the code (never the server's English reason).
    mark_refused(page, ids[0], "invalid_envelope", "The envelope is not valid JSON.")
    page.reload()
    expect(rows(page).nth(2).get_by_role("img", name=m["routes.status.failed"])).to_be_visible()
    refusal = m["routes.failed"].replace("{reason}", m["error.invalid_envelope"])
    expect(rows(page).nth(2)).to_contain_text(refusal)
    expect(rows(page).nth(2)).not_to_contain_text("The envelope is not valid JSON.")
    phone.shot("2-three-routes")
    # Its details say the same and offer another try, which puts it back in the queue.
    rows(page).nth(2).locator(".route-link").click()
    expect(page).to_have_url(re.compile(f"/routes/{ids[0]}$"))
    expect(page.get_by_text(refusal)).to_be_visible()
    phone.shot("2b-refused-details")
    page.get_by_role("button", name=m["route.retry"]).click()
    expect(page.locator("#status")).to_have_text(m["route.retried"])
    expect(page.get_by_text(refusal)).to_have_count(0)
    expect(page.get_by_role("img", name=m["routes.status.queued"])).to_be_visible()
    assert page.evaluate("(id) => import('/recorder/routes.js').then((r) => r.getRoute(id)).then((route) => route.lastError)", ids[0]) is None
    page.get_by_role("link", name=m["route.back"]).click()
    expect(rows(page)).to_have_count(3)
    expect(rows(page).nth(2).get_by_role("img", name=m["routes.status.queued"])).to_be_visible()

    # Long press selects (SHO-03): title, Cancel instead of the menu, Delete.
    long_press(page, rows(page).nth(0).locator(".route-link"))
    expect(heading(page)).to_have_text(m["routes.selected"].replace("{count}", "1"))
    expect(page).to_have_url(re.compile(r"/routes$"))
    cancel = page.get_by_role("button", name=m["routes.cancel"])
    delete = page.get_by_role("button", name=m["routes.delete"])
    expect(cancel).to_be_visible()
    expect(delete).to_be_visible()
    expect(page.get_by_role("link", name=m["routes.menu"])).to_have_count(0)
    # A tap while selecting adds the row (SHO-04), another removes it.
    rows(page).nth(2).locator(".route-link").click()
    expect(heading(page)).to_have_text(m["routes.selected"].replace("{count}", "2"))
    expect(rows(page).nth(2)).to_have_class(re.compile(r"\bselected\b"))
    phone.shot("3-selected-2")
    # Cancel clears it all (SHO-05).
    cancel.click()
    expect(heading(page)).to_have_text(m["routes.heading"])
    expect(delete).to_have_count(0)
    expect(page.locator(".route-row.selected")).to_have_count(0)
    expect(page.get_by_role("link", name=m["routes.menu"])).to_be_visible()

    # The keyboard's way: Shift+Enter on a row selects it; the checkbox too.
    rows(page).nth(0).locator(".route-link").focus()
    page.keyboard.press("Shift+Enter")
    expect(heading(page)).to_have_text(m["routes.selected"].replace("{count}", "1"))
    rows(page).nth(2).locator("input[type=checkbox]").check()
    expect(heading(page)).to_have_text(m["routes.selected"].replace("{count}", "2"))

    # Delete asks first (SHO-06); Keep keeps them.
    delete.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(m["routes.delete.confirmMany"].split("{count}")[0].strip() or "2")
    phone.shot("4-confirm-delete")
    dialog.get_by_role("button", name=m["routes.delete.no"]).click()
    expect(rows(page)).to_have_count(3)
    delete.click()
    page.get_by_role("dialog").get_by_role("button", name=m["routes.delete.yes"]).click()
    expect(rows(page)).to_have_count(1)
    expect(rows(page).first).to_have_attribute("data-route", ids[1])
    expect(heading(page)).to_have_text(m["routes.heading"])
    assert local_route(page, ids[0]) is None and local_route(page, ids[2]) is None
    page.reload()
    expect(rows(page)).to_have_count(1)

    # A tap opens the route (SHO-07); its arrow comes back (SRD-02); Start records (SHO-08).
    rows(page).first.locator(".route-link").click()
    expect(page).to_have_url(re.compile(f"/routes/{ids[1]}$"))
    page.get_by_role("link", name=m["route.back"]).click()
    expect(page).to_have_url(re.compile(r"/routes$"))
    expect(rows(page)).to_have_count(1)
    page.get_by_role("link", name=m["routes.start"]).click()
    expect(page).to_have_url(re.compile(r"/record$"))


# Terrain from another origin than the roadmap (the CSP must allow both); no satellite tiles.
@pytest.mark.serve_args("--terrain-tile-url", "{tiles-alias}/terrain/{z}/{x}/{y}.png", "--terrain-tile-attribution", "Terrain stub")
def test_route_details_map_units_types_key(phone):
    m = messages("en")
    page = phone.page
    open_routes(phone)
    [start] = starts(1)
    # Two tracks with a hole between them (the page was hidden for two minutes).
    first = walk(*BERLIN, 300, 0, 30)
    second = walk(first[-1][0], first[-1][1] + 0.002, 0, 400, 30)
    route_id = record_route(page, start, [first, second], gap_seconds=120)
    page.goto(phone.url(f"/routes/{route_id}"))

    expect(heading(page).locator("time")).to_be_visible()
    expect(page.get_by_role("img", name=m["routes.status.queued"])).to_be_visible()
    expect(page.get_by_role("button", name=m["route.delete"])).to_be_visible()
    # The gap is told in words and drawn dashed between the two tracks.
    expect(page.get_by_text(m["route.gaps.one"])).to_be_visible()
    expect(page.locator("path.route-line")).to_have_count(2)
    expect(page.locator("path.route-join")).to_have_count(1)
    expect(page.locator(".route-map .leaflet-tile-loaded").first).to_be_attached()
    assert any(not path.startswith("/terrain/") for path in phone.server.tile_requests), "no roadmap tile was asked for"

    # The distance panel switches units on a tap (SRD-05): about 700 m, so metres, then yards.
    distance = page.get_by_role("button", name=re.compile(m["route.distance"]))
    metric = distance.locator(".panel-value").inner_text()
    assert re.fullmatch(r"\d+ m", metric), metric
    distance.click()
    expect(distance.locator(".panel-value")).to_have_text(re.compile(r"^\d+ yd$"))
    distance.click()
    expect(distance.locator(".panel-value")).to_have_text(metric)
    expect(page.locator(".route-panel")).to_contain_text(m["route.time"])
    phone.shot("1-route-details")

    # The map type chooser (SRD-06…08): Satellite has no tiles on this server and says so.
    map_button = page.get_by_role("button", name=m["route.map"], exact=True)
    map_button.click()
    chooser = page.get_by_role("group", name=m["route.mapTypes"])
    expect(chooser).to_be_visible()
    expect(chooser.get_by_role("button", name=m["route.type.roadmap"])).to_have_attribute("aria-pressed", "true")
    satellite = chooser.get_by_role("button", name=m["route.type.satellite"])
    expect(satellite).to_be_disabled()
    expect(satellite).to_contain_text(m["route.typeMissing"])
    phone.shot("2-map-types")
    # A tap outside closes it and changes nothing.
    heading(page).click()
    expect(chooser).to_be_hidden()
    expect(page.locator(".route-map")).to_have_attribute("data-map-type", "roadmap")
    # Terrain: the selector closes and the map shows the terrain tiles at once.
    map_button.click()
    before = len([path for path in phone.server.tile_requests if path.startswith("/terrain/")])
    assert before == 0
    chooser.get_by_role("button", name=m["route.type.terrain"]).click()
    expect(chooser).to_be_hidden()
    expect(page.locator(".route-map")).to_have_attribute("data-map-type", "terrain")
    expect(page.locator('.route-map img.leaflet-tile-loaded[src*="localhost"][src*="/terrain/"]').first).to_be_attached()
    expect(page.locator(".leaflet-control-attribution")).to_contain_text("Terrain stub")
    phone.shot("3-terrain")

    # The Key button shows the id only while pressed (SRD-09/10); not stored yet here.
    key = page.get_by_role("button", name=m["route.key"], exact=True)
    note = page.locator(".route-key")
    expect(note).to_be_hidden()
    press(page, key)
    expect(note).to_be_visible()
    expect(note).to_have_text(m["route.keyNone"])
    phone.shot("4-key-held")
    page.mouse.up()
    expect(note).to_be_hidden()
    # Keyboard: while Space is held.
    key.focus()
    page.keyboard.down(" ")
    expect(note).to_be_visible()
    page.keyboard.up(" ")
    expect(note).to_be_hidden()

    # Delete with confirmation (SRD-04) goes back to the list, without the route.
    page.get_by_role("button", name=m["route.delete"]).click()
    page.get_by_role("dialog").get_by_role("button", name=m["routes.delete.yes"]).click()
    expect(page).to_have_url(re.compile(r"/routes$"))
    expect(page.get_by_text(m["routes.empty"])).to_be_visible()


def test_stored_notice_key_and_remote_delete_in_german(phone_for):
    m = messages("de")
    phone = phone_for("de-DE")
    page = phone.page
    page.goto(phone.url("/account"))
    name = username("walker")
    answer = sign_up(phone, "de", name, "correct horse battery", "Walker")
    assert answer.status == 201, answer.text()

    # Two routes stored while another page is open: one grouped notice, "2 Routen gespeichert";
    # a tap opens the list (several routes).
    times = starts(3)
    ids = [record_route(page, start, [walk(*BERLIN, 200, 50 * index, 12)]) for index, start in enumerate(times[:2])]
    sync_now(page)
    notice = page.locator("#route-notice button")
    expect(notice).to_have_text(m["routes.stored.many"].replace("{count}", "2"), timeout=30000)
    expect(notice).to_have_count(1)
    for route_id in ids:
        assert local_route(page, route_id)["status"] == "stored"
    phone.shot("1-stored-notice")
    notice.click()
    expect(page).to_have_url(re.compile(r"/routes$"))
    expect(notice).to_have_count(0)
    expect(rows(page)).to_have_count(2)
    for index in range(2):
        expect(rows(page).nth(index).get_by_role("img", name=m["routes.status.stored"])).to_be_visible()

    # One more, recorded while the list is open: it shows Queued, then Stored by itself, and the
    # notice for one route opens that route.
    ids.append(record_route(page, times[2], [walk(*BERLIN, -150, 80, 12)]))
    sync_now(page)
    expect(notice).to_have_text(m["routes.stored.one"], timeout=30000)
    expect(rows(page)).to_have_count(3)
    expect(rows(page).first).to_have_attribute("data-route", ids[2])
    expect(rows(page).first.get_by_role("img", name=m["routes.status.stored"])).to_be_visible()
    phone.shot("2-stored-list")
    notice.click()
    expect(page).to_have_url(re.compile(f"/routes/{ids[2]}$"))

    # Its details: Gespeichert, and its server id only while Key is held.
    expect(page.get_by_role("button", name=m["route.delete"])).to_be_visible()
    expect(page.get_by_role("img", name=m["routes.status.stored"])).to_be_visible()
    server_ids = [local_route(page, route_id)["serverRouteId"] for route_id in ids]
    assert all(server_ids) and [server_status(page, server_id) for server_id in server_ids] == [200, 200, 200]
    key = page.get_by_role("button", name=m["route.key"], exact=True)
    note = page.locator(".route-key")
    press(page, key)
    expect(note).to_have_text(m["route.keyValue"].replace("{id}", server_ids[2]))
    phone.shot("3-key-held")
    page.mouse.up()
    expect(note).to_be_hidden()
    expect(page.get_by_text(server_ids[2])).to_have_count(0)

    # Delete here: gone from the phone and, once the queue has run, from the server.
    page.get_by_role("button", name=m["route.delete"]).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(m["routes.delete.confirmOne"])
    dialog.get_by_role("button", name=m["routes.delete.yes"]).click()
    expect(page).to_have_url(re.compile(r"/routes$"))
    expect(rows(page)).to_have_count(2)
    # The other two through the list: a finger's long press, a tap, Delete, confirm.
    touch_long_press(phone, rows(page).first.locator(".route-link"))
    expect(heading(page)).to_have_text(m["routes.selected"].replace("{count}", "1"))
    page.wait_for_timeout(300)
    expect(page).to_have_url(re.compile(r"/routes$"))
    rows(page).nth(1).locator(".route-link").tap()
    expect(heading(page)).to_have_text(m["routes.selected"].replace("{count}", "2"))
    page.get_by_role("button", name=m["routes.delete"]).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(m["routes.delete.confirmMany"].replace("{count}", "2"))
    dialog.get_by_role("button", name=m["routes.delete.yes"]).click()
    expect(page.get_by_text(m["routes.empty"])).to_be_visible()
    deadline = time.monotonic() + 30
    while True:
        sync_now(page)
        statuses = [server_status(page, server_id) for server_id in server_ids]
        if statuses == [404, 404, 404]:
            break
        assert time.monotonic() < deadline, f"the server still has the deleted routes: {statuses}"
        page.wait_for_timeout(500)
    phone.shot("4-all-deleted")


def test_while_recording_the_notice_and_the_row_lead_to_the_recorder(phone, api):
    m = messages("en")
    page = phone.page
    walker = username("walker")
    make_account(api, walker)
    page.goto(phone.url("/routes"))
    assert page.request.post("/api/v1/sessions", data={"username": walker, "password": "correct horse battery"}).status == 200
    earlier, now = starts(2)
    # The route API answers nothing until the test's own sync: a drain of the app's (at start, on a
    # network change, the service worker's) could otherwise store the route first, and its notice
    # would be gone (it shows 10 s) before the test looks on a busy machine (CI saw exactly that).
    route_api = re.compile(r"/api/v1/routes")

    def unreachable(route):
        route.abort()

    phone.context.route(route_api, unreachable)
    finished = record_route(page, earlier, [walk(*BERLIN, 100, 0, 8)])
    recording = begin_route(page, now, BERLIN)
    open_routes(phone)
    expect(rows(page)).to_have_count(2)
    expect(rows(page).first).to_have_attribute("data-route", recording)
    expect(rows(page).first.get_by_role("img", name=m["routes.status.recording"])).to_be_visible()
    expect(rows(page).first.locator("a")).to_have_attribute("href", "/record")
    assert local_route(page, finished)["status"] != "stored"
    phone.context.unroute(route_api, unreachable)
    sync_now(page)
    notice = page.locator("#route-notice button")
    expect(notice).to_have_text(m["routes.stored.one"], timeout=30000)
    assert local_route(page, finished)["status"] == "stored"
    phone.shot("1-stored-while-recording")
    # The seed: a stored route's notice opens the recording screen while another route records.
    notice.click()
    expect(page).to_have_url(re.compile(r"/record$"))

"""PhotoShare on a phone (seed 004, issue #12), in English (miles) and German (metres), against
the real server, with the position emulated: sign up, take a photo on /upload, see it first on
/ with its distance, open it, step to the next result, save it, and find it on /map."""
import re

import pytest
from playwright.sync_api import expect

from conftest import messages, username
from flows import sign_up
from photos_flows import PASSWORD, here, instant, make_jpeg, nearby, offset, other_person, upload_through_api

# Another person's photos 30 m east and 45 m west of the phone (on the map they and the phone's
# photo make one cluster until zoomed in) and 420 m north; what the phone shows as the distances
# of its own photo and those.
OTHERS = [("Gate east", {"east": 30}), ("Gate west", {"east": -45}), ("Reichstag lawn", {"north": 420})]
TITLES = [title for title, _ in OTHERS]
LOCALES = [("en-US", "en", ["0 ft", "100 ft", "150 ft", "0.3 mi"]), ("de-DE", "de", ["0 m", "30 m", "45 m", "420 m"])]


def nav(page, m, key):
    page.get_by_role("navigation").get_by_role("link", name=m[key], exact=True).click()


def take_photo(phone, m, path, title):
    """On /upload: choose the camera's photo, see the preview, name it and send it."""
    page = phone.page
    expect(page.get_by_role("heading", level=1)).to_have_text(m["upload.heading"])
    expect(page.locator(".position-line")).to_contain_text(m["upload.positionFound"].split("{")[0].strip())
    camera = page.get_by_label(m["upload.take"])
    assert camera.get_attribute("accept") == "image/*" and camera.get_attribute("capture") == "environment"
    camera.set_input_files(str(path))
    expect(page.get_by_role("img", name=m["upload.previewAlt"])).to_be_visible()
    title_field = page.get_by_label(m["upload.title"], exact=True)
    expect(title_field).to_have_attribute("placeholder", m["upload.titlePlaceholder"])
    title_field.fill(title)
    expect(page.get_by_label(m["upload.place"])).to_be_checked()
    expect(page.get_by_label(m["upload.public"], exact=True)).to_be_checked()


SWIPE_LEFT = """() => {
  const figure = document.querySelector('.photo-view');
  const touch = (x) => new Touch({ identifier: 1, target: figure, clientX: x, clientY: 300 });
  figure.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(320)], changedTouches: [touch(320)], bubbles: true }));
  figure.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(80)], bubbles: true }));
}"""


def open_from_the_map(phone, photo_id):
    """Taps the marker under the crosshair (where the phone is) until the photo's own marker
    shows, then taps that; returns how many clusters were tapped on the way."""
    page = phone.page
    clusters = 0
    for _ in range(8):
        own = page.locator(f'.photo-marker.single[data-photo="{photo_id}" i]')
        if own.count() == 1 and own.is_visible():
            own.click()
            return clusters
        # The markers of the new view may still be drawn: wait until the photo's or a cluster shows.
        expect(own.or_(page.locator(".photo-marker.cluster")).first).to_be_visible()
        if own.count() == 1 and own.is_visible():
            continue
        centre = page.locator(".crosshair").bounding_box()
        cx, cy = centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2
        boxes = [(index, box) for index, box in enumerate(m.bounding_box() for m in page.locator(".photo-marker.cluster").all()) if box]
        assert boxes, "neither the photo nor a cluster is on the map"
        index, _ = min(boxes, key=lambda item: (item[1]["x"] + item[1]["width"] / 2 - cx) ** 2 + (item[1]["y"] + item[1]["height"] / 2 - cy) ** 2)
        before = page.evaluate("() => document.querySelector('.leaflet-proxy')?.style.transform ?? ''")
        page.locator(".photo-marker.cluster").nth(index).click()
        clusters += 1
        # Leaflet's zoom animation, then the clusters of the new view's tiles.
        page.wait_for_function("(before) => (document.querySelector('.leaflet-proxy')?.style.transform ?? '') !== before", arg=before)
        page.wait_for_timeout(400)
        page.wait_for_load_state("networkidle")
        phone.shot(f"8-map-after-cluster-{clusters}")
    raise AssertionError("the photo's marker never showed")


@pytest.mark.parametrize("locale,language,distances", LOCALES, ids=["en", "de"])
def test_upload_browse_open_save(phone_for, api, tmp_path, locale, language, distances):
    m = messages(language)
    other = other_person(api)
    spot = here()
    for (title, metres), colours in zip(OTHERS, ["orange-purple", "yellow-red", "white-navy"]):
        upload_through_api(api, other, make_jpeg(tmp_path, f"{title}.jpg", colours=colours), title, offset(spot, **metres))

    phone = phone_for(locale, geolocation=spot)
    page = phone.page
    page.goto("/account")
    name = username("petra")
    assert sign_up(phone, language, name, PASSWORD, "Petra Photo").status == 201

    nav(page, m, "nav.upload")
    title = f"Brandenburger Tor {language}"
    jpeg = make_jpeg(tmp_path)
    take_photo(phone, m, jpeg, title)
    phone.shot("1-upload-ready")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as posted:
        page.get_by_role("button", name=m["upload.submit"], exact=True).click()
    answer = posted.value
    assert answer.status == 201, answer.text()
    assert answer.request.header_value("idempotency-key"), "every upload carries an Idempotency-Key"
    photo = answer.json()
    assert photo["title"] == title
    assert abs(photo["latitude"] - spot["latitude"]) < 1e-6 and abs(photo["longitude"] - spot["longitude"]) < 1e-6
    assert photo["accuracy"] == pytest.approx(spot["accuracy"], abs=0.5)
    assert instant(photo["capturedAt"]) == pytest.approx(jpeg.stat().st_mtime, abs=2), "just taken: the file's time is the capture time"
    expect(page.get_by_role("status")).to_have_text(m["upload.status.sent"].replace("{title}", title))
    expect(page.get_by_role("link", name=m["upload.sentLink"].replace("{title}", title))).to_be_visible()
    phone.shot("2-uploaded")

    # Near me: the new photo first, at 0 distance; the other person’s after it, nearest first.
    nav(page, m, "nav.home")
    cards = page.locator(".photo-card")
    expect(cards).to_have_count(4)
    for index, (name, distance) in enumerate(zip([title, *TITLES], distances)):
        expect(cards.nth(index).locator(".photo-card-title")).to_have_text(name)
        expect(cards.nth(index).locator(".distance")).to_have_text(distance)
    expect(page.get_by_role("status")).to_have_text(m["near.announce"].replace("{count}", "4"))
    phone.shot("3-near-me")

    # The time filter: nothing was taken before the last day, everything in it.
    page.get_by_label(m["near.time"], exact=True).select_option("day")
    expect(cards).to_have_count(4)
    page.get_by_label(m["near.time"], exact=True).select_option("custom")
    page.get_by_label(m["near.from"], exact=True).fill("2001-01-01")
    page.get_by_label(m["near.to"], exact=True).fill("2001-12-31")
    page.get_by_label(m["near.to"], exact=True).dispatch_event("change")
    expect(cards).to_have_count(0)
    expect(page.locator(".near-message")).to_contain_text(m["near.empty"].split("{")[0].strip())
    phone.shot("4-near-me-nothing-in-2001")
    page.get_by_label(m["near.time"], exact=True).select_option("any")
    expect(cards).to_have_count(4)
    # A smaller page of results than the radius holds: More fetches the next one (cursor).
    # (The page asks for 24 at a time; with four photos there is no next page.)
    expect(page.get_by_role("button", name=m["near.more"])).to_be_hidden()

    # Open it: the large photo, title, owner; Save downloads the large image.
    cards.nth(0).get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/photos/[^/]+$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    expect(page.locator(".photo-meta")).to_contain_text("Petra Photo")
    expect(page.get_by_role("img", name=title)).to_be_visible()
    page.wait_for_function("() => [...document.images].every((image) => image.complete)")
    phone.shot("5-photo")
    with page.expect_download() as saving:
        page.get_by_role("link", name=m["photo.save"], exact=True).click()
    download = saving.value
    assert download.suggested_filename == f"{title}.jpg"
    saved = download.path().read_bytes()
    assert saved[:3] == b"\xff\xd8\xff", "the download is a JPEG"

    # The next result of the search, by arrow key and by link, and back.
    expect(page.get_by_role("navigation", name=m["photo.steps"])).to_contain_text(m["photo.position"].replace("{index}", "1").replace("{count}", "4"))
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("heading", level=1)).to_have_text("Gate east")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("heading", level=1)).to_have_text("Gate west")
    phone.shot("6-next-photo")
    page.get_by_role("link", name=m["photo.previous"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Gate east")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    # A swipe from right to left is the next photo too (touch events, as a phone sends them).
    page.evaluate(SWIPE_LEFT)
    expect(page.get_by_role("heading", level=1)).to_have_text("Gate east")
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)

    # The map: centred on the phone, tiles from the configured (local) tile server, the photos
    # as clustered markers; tapping into the cluster under the crosshair opens the photo.
    nav(page, m, "nav.map")
    expect(page.locator(".leaflet-container")).to_be_visible()
    expect(page.locator(".crosshair")).to_be_visible()
    expect(page.locator(".photo-marker").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert phone.server.tile_requests, "no map tile was asked from the tile server of --tile-url"
    phone.shot("8-map")
    clusters = open_from_the_map(phone, photo["id"])
    expect(page).to_have_url(re.compile(r"/photos/" + photo["id"] + "$", re.IGNORECASE))
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    expect(page).to_have_title(f"{title} · {m['app.name']}")
    phone.shot(f"9-photo-from-the-map-after-{clusters}-clusters")

    # Its owner renames it and makes it private; others no longer find it.
    page.get_by_label(m["photo.edit.title"], exact=True).fill(title + " (mine)")
    page.get_by_label(m["upload.private"], exact=True).check()
    with page.expect_response(lambda r: "/api/v1/photos/" in r.url and r.request.method == "PATCH") as patched:
        page.get_by_role("button", name=m["photo.edit.save"]).click()
    assert patched.value.status == 200, patched.value.text()
    expect(page.get_by_role("heading", level=1)).to_have_text(title + " (mine)")
    expect(page).to_have_title(f"{title} (mine) · {m['app.name']}")
    expect(page.locator(".photo-meta .badge")).to_have_text(m["photo.private"])
    assert [item["title"] for item in nearby(api, spot)] == TITLES, "a private photo is seen by its owner only"
    phone.shot("7-edited")

    # Delete, after saying yes to the question; Cancel first keeps it.
    page.get_by_role("button", name=m["photo.delete"]).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(m["photo.delete.confirm"].replace("{title}", title + " (mine)"))
    phone.shot("10-delete-asks")
    dialog.get_by_role("button", name=m["photo.delete.no"]).click()
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name=m["photo.delete"]).click()
    # Every text the status region shows from here on: the page searches again after the delete,
    # and its count may replace the confirmation before a poll sees it on a busy machine.
    page.evaluate("""() => {
        window.__statuses = [];
        const region = document.getElementById('status');
        new MutationObserver(() => window.__statuses.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
    }""")
    with page.expect_response(lambda r: "/api/v1/photos/" in r.url and r.request.method == "DELETE") as deleted:
        page.get_by_role("dialog").get_by_role("button", name=m["photo.delete.yes"], exact=True).click()
    assert deleted.value.status == 204
    expect(page).to_have_url(phone.url("/"))
    confirmation = m["photo.deleted"].replace("{title}", title + " (mine)")
    page.wait_for_function("text => window.__statuses && window.__statuses.includes(text)", arg=confirmation)
    # Photos near you is searched again: the deleted photo is gone from it.
    expect(page.locator(".photo-card-title")).to_have_text(TITLES)
    assert page.request.get(f"/api/v1/photos/{photo['id']}").status == 404


@pytest.mark.parametrize("locale,language", [("en-US", "en"), ("de-DE", "de")], ids=["en", "de"])
def test_making_a_private_photo_public_asks_before_publishing_its_place(phone_for, api, tmp_path, locale, language):
    """Seed 004's consent on the photo page too (#34): a private photo made public publishes its
    place only when its owner ticks it; unticked, the photo goes public without a place."""
    m = messages(language)
    spot = here()
    phone = phone_for(locale, geolocation=spot)
    page = phone.page
    page.goto("/account")
    signed_up = sign_up(phone, language, username("pia"), PASSWORD, "Pia Private")
    assert signed_up.status == 201
    token = signed_up.json()["token"]
    withdrawn = upload_through_api(api, token, make_jpeg(tmp_path, "a.jpg"), "Garden gate", offset(spot, east=20), visibility="private")
    kept = upload_through_api(api, token, make_jpeg(tmp_path, "b.jpg", colours="white-navy"), "Garden pond", offset(spot, east=-20),
                              visibility="private")

    consent = page.get_by_label(m["upload.place"])
    page.goto(f"/photos/{withdrawn['id']}")
    expect(page.locator(".photo-map")).to_be_visible()
    expect(consent).to_be_hidden()
    page.get_by_label(m["upload.public"], exact=True).check()
    expect(consent).to_be_visible()
    expect(consent).not_to_be_checked()
    expect(page.get_by_text(m["photo.edit.placeHint"])).to_be_visible()
    phone.shot("1-public-asks-for-the-place")
    with page.expect_response(lambda r: "/api/v1/photos/" in r.url and r.request.method == "PATCH") as patched:
        page.get_by_role("button", name=m["photo.edit.save"]).click()
    assert patched.value.status == 200, patched.value.text()
    assert patched.value.request.post_data_json.get("usePhotoPlace") is False
    # Drawn anew: public, and without its place.
    expect(page.get_by_text(m["photo.noPlace"])).to_be_visible()
    expect(page.locator(".photo-map")).to_have_count(0)
    expect(page.locator(".photo-meta .badge")).to_be_hidden()
    phone.shot("2-public-without-its-place")
    assert withdrawn["id"] not in [item["id"] for item in nearby(api, spot)]

    page.goto(f"/photos/{kept['id']}")
    page.get_by_label(m["upload.public"], exact=True).check()
    consent.check()
    with page.expect_response(lambda r: "/api/v1/photos/" in r.url and r.request.method == "PATCH") as patched:
        page.get_by_role("button", name=m["photo.edit.save"]).click()
    assert patched.value.status == 200, patched.value.text()
    expect(page.locator(".photo-meta .badge")).to_be_hidden()
    expect(page.locator(".photo-map")).to_be_visible()
    # Public again: the owner is not asked a second time.
    expect(consent).to_be_hidden()
    assert kept["id"] in [item["id"] for item in nearby(api, spot)], "ticked, the place is published"
    phone.shot("3-public-with-its-place")

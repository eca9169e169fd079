"""The scene pages for browsing (issue #14 point 4: Discover, a scene, my scenes, the first-run
explanation) on a phone, on the real server, in English (feet) and German (metres): scenes put in
through the API around the emulated phone; Discover shows them nearest first with their distances
and pages on with More, its dark map shows one thumbnail marker per scene that opens the scene;
the scene page shows the reference with name and date, Retake (signed out: sign in first), the
address, Navigate's directions link, the distance, the feet shot, the rephotographs in a strip and
the timeline oldest first, and View on map; its creator deletes a rephotograph and a scene, each
asked first; /me/scenes lists the creator's scenes newest first; the explanation of rephotography
shows until dismissed. Screenshots of every screen are kept."""
import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from conftest import messages, username
from flows import sign_in, sign_out
from photos_flows import PASSWORD, here, make_jpeg, offset

PAGE = 20  # Web/scenes/format.js PAGE_SIZE: the grid's first page
COLOURS = ["skyblue-darkgreen", "orange-brown", "white-navy", "gold-firebrick", "plum-indigo"]
# Distances of the two nearest scenes, and the radius Discover searches, as each locale reads them.
LOCALES = [("en-US", "en", ["130 ft", "390 ft", "1.6 mi"]), ("de-DE", "de", ["40 m", "120 m", "2,5 km"])]


def fill(template, **values):
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def account(api, name, display):
    answer = api.post("/api/v1/accounts", data={"username": name, "password": PASSWORD, "displayName": display})
    assert answer.status == 201, answer.text()
    return answer.json()["token"]


def create_scene(api, token, reference, feet, place, captured, name=None):
    metadata = {"latitude": place["latitude"], "longitude": place["longitude"], "capturedAt": captured,
                "attitude": {"w": 1, "x": 0, "y": 0, "z": 0}, "heading": 90}
    if name is not None:
        metadata["name"] = name
    answer = api.post("/api/v1/scenes", headers={"Authorization": f"Bearer {token}"}, multipart={
        "metadata": {"name": "metadata.json", "mimeType": "application/json", "buffer": json.dumps(metadata).encode()},
        "image": {"name": "reference.jpg", "mimeType": "image/jpeg", "buffer": reference.read_bytes()},
        "feetShot": {"name": "feet.jpg", "mimeType": "image/jpeg", "buffer": feet.read_bytes()},
    })
    assert answer.status == 201, answer.text()
    return answer.json()


def add_rephotograph(api, token, scene_id, image, captured):
    metadata = {"capturedAt": captured, "attitude": {"w": 1, "x": 0, "y": 0, "z": 0}}
    answer = api.post(f"/api/v1/scenes/{scene_id}/photos", headers={"Authorization": f"Bearer {token}"}, multipart={
        "metadata": {"name": "metadata.json", "mimeType": "application/json", "buffer": json.dumps(metadata).encode()},
        "image": {"name": "again.jpg", "mimeType": "image/jpeg", "buffer": image.read_bytes()},
    })
    assert answer.status == 201, answer.text()
    return answer.json()


def loose(text):
    """A pattern of `text` that Intl's narrow and no-break spaces match too."""
    return re.compile("^" + re.escape(text).replace("\\ ", "[ \u202f\u00a0]") + "$")


def top(phone, step):
    """A screenshot of the page from its top."""
    phone.page.evaluate("window.scrollTo(0, 0)")
    return phone.shot(step)


def cells(page):
    return page.locator(".scenes-grid .scene-cell a")


@pytest.mark.parametrize("locale,language,distances", LOCALES, ids=["en", "de"])
def test_discover_a_scene_and_my_scenes(phone_for, api, tmp_path, locale, language, distances):
    m = messages(language)
    place = here()
    images = [make_jpeg(tmp_path, f"{index}.jpg", size="480x360", colours=colours) for index, colours in enumerate(COLOURS)]
    feet = make_jpeg(tmp_path, "feet.jpg", size="360x480", colours="gray60-gray30")

    # Celia makes 22 scenes around the phone: "Old mill" 40 m east, an unnamed one 120 m north,
    # twenty more from 200 m to 1.34 km in every direction; the nearest first is their order.
    celia_name = username("celia")
    celia = account(api, celia_name, "Celia Creator")
    spots = [("Old mill", {"east": 40}), (None, {"north": 120})]
    for index in range(20):
        distance = 200 + 60 * index
        direction = [(1, 0), (0, 1), (-1, 0), (0, -1)][index % 4]
        spots.append((f"Scene {index + 1:02d}", {"north": direction[0] * distance, "east": direction[1] * distance}))
    scenes = []
    for index, (name, shift) in enumerate(spots):
        scenes.append(create_scene(api, celia, images[index % len(images)], feet, offset(place, **shift),
                                   f"20{10 + index % 10}-05-{1 + index:02d}T10:00:00+02:00", name))
    mill, unnamed = scenes[0], scenes[1]
    nearest_first = [scene["id"] for scene in scenes]

    # Rhea takes "Old mill" again in 2024; Celia herself in 2022 (added later, but earlier in the timeline).
    rhea_name = username("rhea")
    rhea = account(api, rhea_name, "Rhea Retaker")
    by_rhea = add_rephotograph(api, rhea, mill["id"], images[3], "2024-06-01T09:00:00+02:00")
    by_celia = add_rephotograph(api, celia, mill["id"], images[4], "2022-03-01T09:00:00+01:00")

    phone = phone_for(locale, geolocation={**place, "accuracy": 10})
    page = phone.page

    # Signed out, /me/scenes asks to sign in.
    page.goto("/me/scenes")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["scenes.mine.heading"])
    expect(page.get_by_text(m["scenes.mine.signedOut"])).to_be_visible()
    expect(page.get_by_role("link", name=m["scenes.mine.signIn"])).to_have_attribute("href", "/account#sign-in")
    top(phone, "01-my-scenes-signed-out")

    # Discover: the explanation of rephotography, the grid nearest first with distances.
    page.goto("/scenes")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["scenes.discover.heading"])
    intro = page.get_by_role("region", name=m["scenes.intro.heading"])
    expect(intro).to_be_visible()
    expect(intro).to_contain_text(m["scenes.intro.what"])
    expect(page.get_by_role("link", name=m["scenes.new"])).to_have_attribute("href", "/scenes/new")
    expect(page.get_by_role("tab", name=m["scenes.tab.nearby"])).to_have_attribute("aria-selected", "true")
    expect(cells(page)).to_have_count(PAGE)
    expect(page.locator(".scenes-message")).to_have_text(loose(fill(m["scenes.nearby.found"], count=PAGE, radius=distances[2])))
    assert [cell.get_attribute("data-scene") for cell in cells(page).all()] == nearest_first[:PAGE]
    first, second = cells(page).nth(0), cells(page).nth(1)
    expect(first.locator(".scene-cell-title")).to_have_text("Old mill")
    expect(first.locator(".scene-cell-distance")).to_have_text(loose(distances[0]))
    expect(second.locator(".scene-cell-distance")).to_have_text(loose(distances[1]))
    # A scene without a name is called by its day.
    expect(second.locator(".scene-cell-title")).to_have_text(re.compile(r"2011"))
    # Two square columns on a 390 px phone.
    boxes = [cells(page).nth(index).bounding_box() for index in range(3)]
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 1 and boxes[2]["y"] > boxes[0]["y"] + boxes[0]["height"] - 1
    assert abs(boxes[0]["width"] - boxes[0]["height"]) < 1, boxes[0]
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    top(phone, "02-discover-intro")
    intro.scroll_into_view_if_needed()
    page.locator(".scenes-grid").scroll_into_view_if_needed()
    phone.shot("03-discover-grid")

    # More pages on: the last two scenes, still nearest first, and no More after them.
    more = page.get_by_role("button", name=m["scenes.nearby.more"])
    more.click()
    expect(cells(page)).to_have_count(len(scenes))
    assert [cell.get_attribute("data-scene") for cell in cells(page).all()] == nearest_first
    expect(more).to_be_hidden()
    phone.shot("04-discover-more")

    # The explanation stays away once dismissed, after a reload too.
    intro.get_by_role("button", name=m["scenes.intro.dismiss"]).click()
    expect(page.get_by_role("region", name=m["scenes.intro.heading"])).to_have_count(0)
    expect(page.locator("#status")).to_have_text(m["scenes.intro.dismissed"])
    page.reload()
    expect(cells(page).first).to_be_visible()
    expect(page.get_by_role("region", name=m["scenes.intro.heading"])).to_have_count(0)

    # The map: dark tiles from the configured tile server, one marker per scene with its thumbnail.
    # The tabs as a keyboard uses them: the arrow key moves to Map.
    page.get_by_role("tab", name=m["scenes.tab.nearby"]).focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name=m["scenes.tab.map"])).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tab", name=m["scenes.tab.map"])).to_be_focused()
    expect(page.locator(".scenes-grid")).to_be_hidden()
    markers = page.locator(".scene-marker")
    expect(markers).to_have_count(PAGE)
    marker = page.locator(f'.scene-marker[data-scene="{mill["id"]}"]')
    expect(marker).to_have_attribute("aria-label", "Old mill")
    expect(marker.locator("img")).to_have_attribute("src", mill["reference"]["urls"]["thumb"])
    page.wait_for_load_state("networkidle")
    assert phone.server.tile_requests, "no map tile was asked from the tile server of --tile-url"
    tile_filter = page.locator(".scenes-map .leaflet-tile-pane").evaluate("pane => getComputedStyle(pane).filter")
    assert "invert" in tile_filter, tile_filter
    loaded = page.locator(".scene-marker img").evaluate_all("images => images.filter((image) => image.complete && image.naturalWidth > 0).length")
    assert loaded == PAGE, f"{loaded} of {PAGE} marker thumbnails loaded"
    phone.shot("05-discover-map")
    marker.click()
    expect(page).to_have_url(re.compile(f"/scenes/{mill['id']}$", re.I))

    # The scene, signed out: everything the seed's detail screen shows; Retake asks to sign in.
    expect(page.get_by_role("heading", level=1)).to_have_text("Old mill")
    expect(page.get_by_role("img", name=fill(m["scenes.detail.referenceAlt"], title="Old mill"))).to_be_visible()
    expect(page.locator(".scene-meta")).to_contain_text("2010")
    expect(page.locator(".scene-meta")).to_contain_text("Celia Creator")
    expect(page.get_by_role("link", name=m["scenes.detail.signInToRetake"])).to_have_attribute("href", "/account#sign-in")
    expect(page.get_by_text(m["scenes.detail.signInHint"])).to_be_visible()
    expect(page.get_by_role("link", name=m["scenes.detail.retake"], exact=True)).to_have_count(0)
    detail = api.get(f"/api/v1/scenes/{mill['id']}").json()
    if detail["address"]:
        # The server writes the line in English; the German page words it itself.
        address = detail["address"]
        if language == "en":
            expect(page.locator(".scene-address")).to_contain_text(address["line"])
        elif re.match(r"\d|No town", address["line"]):
            expect(page.locator(".scene-address")).to_contain_text(re.compile(rf"\d.* (N|NO|O|SO|S|SW|W|NW) von {re.escape(address['place'])}, "))
        else:  # at a town: its name alone
            expect(page.locator(".scene-address")).to_contain_text(f"{address['place']}, ")
        if language != "en":
            # No English "of" in the German line (a place's own name may have one: "Isle of North Uist").
            assert " of " not in page.locator(".scene-address").inner_text().replace(address["place"], "")
        source = address["attribution"].removeprefix("Place names: ")
        expect(page.locator(".scene-attribution")).to_have_text(fill(m["scenes.detail.attribution"], source=source))
    else:
        expect(page.locator(".scene-address")).to_contain_text("° N")
    expect(page.locator(".scene-distance")).to_have_text(loose(fill(m["scenes.detail.distance"], distance=distances[0])))
    # Navigate: this browser is neither Android nor iOS, so OpenStreetMap's walking directions from here to the scene.
    navigate = page.get_by_role("link", name=m["scenes.detail.navigate"])
    href = navigate.get_attribute("href")
    link = urlparse(href)
    assert link.scheme == "https" and link.netloc == "www.openstreetmap.org" and link.path == "/directions", href
    start, end = parse_qs(link.query)["route"][0].split(";")
    assert end == f"{mill['latitude']:.6f},{mill['longitude']:.6f}", href
    assert start == f"{place['latitude']:.6f},{place['longitude']:.6f}", href
    expect(page.get_by_role("img", name=m["scenes.detail.feetAlt"])).to_have_attribute("src", mill["feetShot"]["urls"]["medium"])
    strip = page.get_by_role("list", name=m["scenes.detail.rephotographs"])
    expect(strip.get_by_role("listitem")).to_have_count(2)
    expect(page.get_by_role("heading", name=fill(m["scenes.detail.rephotographsCount"], count=2))).to_be_visible()
    # Nobody signed in may remove anything.
    expect(page.get_by_role("button", name=m["scenes.detail.remove"])).to_have_count(0)
    expect(page.get_by_role("button", name=m["scenes.detail.delete"])).to_have_count(0)
    # The timeline, oldest first: the reference (2010), Celia's (2022), Rhea's (2024).
    timeline = page.locator(".scene-timeline-item")
    expect(timeline).to_have_count(3)
    years = [item.locator("time").inner_text() for item in timeline.all()]
    assert [re.search(r"20\d\d", year).group(0) for year in years] == ["2010", "2022", "2024"], years
    expect(timeline.nth(0)).to_contain_text(m["scenes.detail.kindReference"])
    expect(timeline.nth(1)).to_contain_text("Celia Creator")
    expect(timeline.nth(2)).to_contain_text("Rhea Retaker")
    expect(page.get_by_text(fill(m["scenes.detail.timelineCount"], count=3))).to_be_visible()
    top(phone, "06-scene-signed-out")
    page.locator(".scene-strip").scroll_into_view_if_needed()
    phone.shot("07-scene-strip")
    page.locator(".scene-timeline").scroll_into_view_if_needed()
    phone.shot("08-scene-timeline")
    # The same in the phone's dark mode.
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 23, 21)"
    top(phone, "08-scene-dark")
    page.emulate_media(color_scheme="light")
    # View on map: the reference above a small map of the place.
    view = page.get_by_role("button", name=m["scenes.detail.viewOnMap"])
    view.click()
    expect(page.get_by_role("button", name=m["scenes.detail.hideMap"])).to_have_attribute("aria-expanded", "true")
    on_map = page.locator(".scene-on-map")
    expect(on_map.locator(".scene-place-map .leaflet-tile-loaded").first).to_be_visible()
    expect(on_map.locator(".place-dot:not(.me)")).to_be_visible()
    expect(on_map.locator(".place-dot.me")).to_be_visible()  # the phone, 40 m away
    # Measured at one moment (the page scrolls smoothly to the map): the reference above the map,
    # both dots inside the map.
    boxes = on_map.evaluate("""(section) => Object.fromEntries(['.scene-on-map-reference', '.scene-place-map', '.place-dot:not(.me)', '.place-dot.me']
      .map((selector) => { const r = section.querySelector(selector).getBoundingClientRect(); return [selector, {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]; }))""")
    reference, frame = boxes[".scene-on-map-reference"], boxes[".scene-place-map"]
    assert reference["bottom"] <= frame["top"] + 1, boxes
    assert frame["bottom"] - frame["top"] <= 844 / 2, f"the small map takes more than half the screen: {boxes}"
    for dot in (boxes[".place-dot:not(.me)"], boxes[".place-dot.me"]):
        assert frame["left"] <= dot["left"] and dot["right"] <= frame["right"] and frame["top"] <= dot["top"] and dot["bottom"] <= frame["bottom"], boxes
    page.wait_for_timeout(600)
    phone.shot("09-scene-on-map")

    # No such scene.
    page.goto("/scenes/00000000-0000-4000-8000-000000000000")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["scenes.detail.notFound"])
    expect(page.get_by_role("link", name=m["scenes.detail.back"])).to_have_attribute("href", "/scenes")
    top(phone, "10-scene-not-found")

    # Rhea, signed in, may remove her own rephotograph only, and Retake opens the camera.
    page.goto("/account")
    assert sign_in(phone, language, rhea_name, PASSWORD).status == 200
    page.goto(f"/scenes/{mill['id']}")
    expect(page.get_by_role("link", name=m["scenes.detail.retake"], exact=True)).to_have_attribute("href", f"/scenes/{mill['id']}/retake")
    removable = page.get_by_role("button", name=m["scenes.detail.remove"])
    expect(removable).to_have_count(1)
    expect(removable).to_have_attribute("aria-label", re.compile("Rhea Retaker"))
    expect(page.get_by_role("button", name=m["scenes.detail.delete"])).to_have_count(0)
    page.goto("/account")
    sign_out(phone, language)

    # Celia: removes Rhea's rephotograph (asked first; Keep keeps it), then deletes the unnamed scene.
    assert sign_in(phone, language, celia_name, PASSWORD).status == 200
    page.goto(f"/scenes/{mill['id']}")
    removable = page.get_by_role("button", name=m["scenes.detail.remove"])
    expect(removable).to_have_count(2)
    page.get_by_role("button", name=re.compile("Rhea Retaker")).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(fill(m["scenes.detail.removeConfirm"], name="Rhea Retaker"))
    phone.shot("11-scene-remove-asks")
    dialog.get_by_role("button", name=m["scenes.detail.keep"]).click()
    expect(dialog).to_be_hidden()
    assert len(api.get(f"/api/v1/scenes/{mill['id']}").json()["rephotographs"]) == 2
    page.get_by_role("button", name=re.compile("Rhea Retaker")).click()
    with page.expect_response(lambda r: r.request.method == "DELETE" and by_rhea["photo"]["id"].lower() in r.url.lower()) as removed:
        dialog.get_by_role("button", name=m["scenes.detail.removeYes"]).click()
    assert removed.value.status == 204, removed.value.text()
    expect(page.get_by_role("list", name=m["scenes.detail.rephotographs"]).get_by_role("listitem")).to_have_count(1)
    expect(page.locator(".scene-timeline-item")).to_have_count(2)
    left = api.get(f"/api/v1/scenes/{mill['id']}").json()["rephotographs"]
    assert [item["photo"]["id"] for item in left] == [by_celia["photo"]["id"]]

    page.goto(f"/scenes/{unnamed['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"2011"))
    page.get_by_role("button", name=m["scenes.detail.delete"]).click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(re.compile(r"2011"))
    top(phone, "12-scene-delete-asks")
    dialog.get_by_role("button", name=m["scenes.detail.keep"]).click()
    assert api.get(f"/api/v1/scenes/{unnamed['id']}").status == 200
    page.get_by_role("button", name=m["scenes.detail.delete"]).click()
    with page.expect_response(lambda r: r.request.method == "DELETE" and r.url.lower().endswith(unnamed["id"].lower())) as deleted:
        dialog.get_by_role("button", name=m["scenes.detail.deleteYes"]).click()
    assert deleted.value.status == 204, deleted.value.text()
    assert api.get(f"/api/v1/scenes/{unnamed['id']}").status == 404

    # /me/scenes: Celia's scenes, newest first, by pages (the deleted one gone).
    expect(page).to_have_url(re.compile("/me/scenes$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(m["scenes.mine.heading"])
    newest_first = [scene["id"] for scene in reversed(scenes) if scene["id"] != unnamed["id"]]
    expect(cells(page)).to_have_count(PAGE)
    assert [cell.get_attribute("data-scene") for cell in cells(page).all()] == newest_first[:PAGE]
    top(phone, "13-my-scenes")
    page.get_by_role("button", name=m["scenes.nearby.more"]).click()
    expect(cells(page)).to_have_count(len(newest_first))
    assert [cell.get_attribute("data-scene") for cell in cells(page).all()] == newest_first
    cells(page).last.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Old mill")


def test_no_scene_near_says_what_to_do(phone_for, api):
    """Far from every scene: an empty grid that says so and leads to making the first one; on
    the map, the same words."""
    m = messages("de")
    phone = phone_for("de-DE", geolocation={**here(), "accuracy": 10})
    page = phone.page
    page.goto("/scenes")
    expect(page.locator(".scenes-message")).to_contain_text(m["scenes.nearby.empty"].split("{")[0].strip())
    expect(cells(page)).to_have_count(0)
    expect(page.get_by_role("link", name=m["scenes.nearby.makeFirst"])).to_have_attribute("href", "/scenes/new")
    top(phone, "01-empty")
    page.get_by_role("tab", name=m["scenes.tab.map"]).click()
    expect(page.locator(".scenes-map-frame .map-message")).to_contain_text(m["scenes.nearby.empty"].split("{")[0].strip())
    page.wait_for_load_state("networkidle")
    page.locator(".scenes-map-frame").scroll_into_view_if_needed()
    phone.shot("02-empty-map")


ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"


@pytest.mark.parametrize("agent,start", [(ANDROID, "geo:"), (IPHONE, "https://maps.apple.com/?")], ids=["android", "iphone"])
def test_navigate_opens_the_phones_own_map_app(phone_for, api, tmp_path, agent, start):
    """Navigate is a link the phone's map app opens: geo: on Android, Apple Maps on an iPhone."""
    m = messages("en")
    place = here()
    token = account(api, username("nina"), "Nina Navigator")
    image = make_jpeg(tmp_path, "scene.jpg", size="480x360")
    scene = create_scene(api, token, image, image, offset(place, north=300), "2021-07-01T12:00:00+02:00", "Water tower")
    phone = phone_for("en-US", geolocation={**place, "accuracy": 10})
    phone.context.add_init_script(f"Object.defineProperty(Navigator.prototype, 'userAgent', {{ get: () => {json.dumps(agent)} }});")
    phone.page.goto(f"/scenes/{scene['id']}")
    navigate = phone.page.get_by_role("link", name=m["scenes.detail.navigate"])
    expect(navigate).to_have_attribute("href", re.compile("^" + re.escape(start)))
    href = navigate.get_attribute("href")
    assert f"{scene['latitude']:.6f},{scene['longitude']:.6f}" in href.replace("%2C", ","), href
    assert navigate.get_attribute("target") is None, "the map app opens the link, not a new tab"


@pytest.mark.serve_args("--nominatim-url", "{geocoder}")
@pytest.mark.parametrize("locale,language", [("en-US", "en"), ("de-DE", "de")], ids=["en", "de"])
def test_scene_page_shows_the_street_address_from_the_geocoder(phone_for, api, tmp_path, geocoder, locale, language):
    """With `serve --nominatim-url`, a scene's page shows the street address above the
    gazetteer's line, in the page's language, with the credit OpenStreetMap's licence asks for;
    the geocoder is asked for the scene's point only, and lists never ask it."""
    m = messages(language)
    _, asked = geocoder
    place = here()
    token = account(api, username("sami"), "Sami Street")
    image = make_jpeg(tmp_path, "scene.jpg", size="480x360")
    scene = create_scene(api, token, image, image, offset(place, north=200), "2021-07-01T12:00:00+02:00", "Corner shop")
    phone = phone_for(locale, geolocation={**place, "accuracy": 10})
    page = phone.page
    page.goto("/scenes")
    expect(cells(page)).to_have_count(1)
    assert asked == [], "Discover's grid does not ask the geocoder"
    page.goto(f"/scenes/{scene['id']}")
    street = page.locator(".scene-street")
    expect(street).to_have_text(m["scenes.detail.street"] + f"Náměstí Svobody 1, 602 00 Brno ({language})")
    expect(page.locator(".scene-address")).to_be_visible()
    expect(page.locator(".scene-attribution")).to_contain_text(
        fill(m["scenes.detail.streetAttribution"], source="Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright"))
    assert len(asked) == 1, asked
    # The server asks for the point to five decimals (about a metre). Python's
    # "%.5f" and the server's rounding of a tie such as 14.687455 may differ in
    # the last digit, so compare as numbers to half a unit of the fifth decimal.
    for key, value in (("lat", scene["latitude"]), ("lon", scene["longitude"])):
        assert re.fullmatch(r"-?\d+\.\d{5}", asked[0][key]), asked
        assert abs(float(asked[0][key]) - value) <= 0.5e-5 + 1e-9, asked
    assert asked[0]["accept-language"] == language and asked[0]["format"] == "jsonv2", asked
    top(phone, "01-street-address")

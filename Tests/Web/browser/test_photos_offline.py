"""Uploads that cannot go at once (seed 004: "if a file fails to upload, he may choose to try
again or discard the image"): taken offline, the photo waits in IndexedDB — through a reload
of the page too — and arrives once when the network is back; a file the server refuses offers
Try again and Discard. Browsing without an account, and a position that is refused."""
import pytest
from playwright.sync_api import expect

from conftest import messages, username, wait_for_service_worker
from flows import sign_up
from photos_flows import PASSWORD, here, instant, make_jpeg, nearby, offset, other_person, upload_through_api


def test_an_upload_made_offline_arrives_when_the_network_is_back(phone_for, api, tmp_path):
    m = messages("en")
    spot = here()
    phone = phone_for("en-US", geolocation=spot)
    page = phone.page
    page.goto("/account")
    assert sign_up(phone, "en", username("otto"), PASSWORD, "Otto Offline").status == 201
    page.goto("/upload")
    expect(page.locator(".position-line")).to_contain_text(m["upload.positionFound"].split("{")[0].strip())
    wait_for_service_worker(page)

    posts = []
    page.on("request", lambda r: posts.append(r) if r.url.endswith("/api/v1/photos") and r.method == "POST" else None)
    phone.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    jpeg = make_jpeg(tmp_path)
    page.get_by_label(m["upload.take"]).set_input_files(str(jpeg))
    page.get_by_label(m["upload.title"], exact=True).fill("Taken in a tunnel")
    page.get_by_role("button", name=m["upload.submit"], exact=True).click()
    expect(page.get_by_role("status")).to_have_text(m["upload.status.waiting"])
    waiting = page.locator(".upload-item")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Taken in a tunnel")
    expect(waiting).to_contain_text(m["upload.state.waiting"])
    phone.shot("1-waiting-offline")

    # Still offline, the page is opened again (from the service worker's shell): the photo is
    # still waiting, kept in IndexedDB.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["upload.heading"])
    expect(page.locator(".upload-item")).to_contain_text("Taken in a tunnel")
    phone.shot("2-still-waiting-after-reload")
    assert nearby(api, spot) == [], "nothing reached the server while offline"

    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST" and r.status == 201) as sent:
        phone.context.set_offline(False)
    photo = sent.value.json()
    assert photo["title"] == "Taken in a tunnel"
    assert abs(photo["latitude"] - spot["latitude"]) < 1e-6, "the position of when it was taken"
    assert instant(photo["capturedAt"]) == pytest.approx(jpeg.stat().st_mtime, abs=2), "the time it was taken, not the time it arrived"
    expect(page.get_by_role("status")).to_have_text(m["upload.status.sent"].replace("{title}", "Taken in a tunnel"))
    expect(page.locator(".upload-item")).to_have_count(0)
    phone.shot("3-arrived")
    items = nearby(api, spot)
    assert [item["title"] for item in items] == ["Taken in a tunnel"], "it arrived once"
    keys = {request.header_value("idempotency-key") for request in posts if request.header_value("idempotency-key")}
    assert len(keys) == 1, f"every attempt carried the same Idempotency-Key: {keys}"


def test_a_refused_upload_offers_try_again_and_discard(phone_for, tmp_path):
    m = messages("de")
    phone = phone_for("de-DE", geolocation=here())
    page = phone.page
    page.goto("/account")
    assert sign_up(phone, "de", username("rita"), PASSWORD, "Rita Refused").status == 201
    page.goto("/upload")
    fake = tmp_path / "notes.jpg"
    fake.write_text("this is not a photo, only text named .jpg\n")
    page.get_by_label(m["upload.take"]).set_input_files(str(fake))
    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as refused:
        page.get_by_role("button", name=m["upload.submit"], exact=True).click()
    assert refused.value.status == 415
    failed = page.locator(".upload-item.failed")
    expect(failed).to_contain_text(m["upload.error.notAnImage"])
    expect(page.get_by_role("status")).to_have_text(m["upload.status.failed"].replace("{reason}", m["upload.error.notAnImage"]))
    phone.shot("1-refused")

    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as again:
        failed.get_by_role("button", name=m["upload.retryLabel"].replace("{name}", "notes.jpg")).click()
    assert again.value.status == 415
    assert again.value.request.header_value("idempotency-key") == refused.value.request.header_value("idempotency-key")
    expect(page.locator(".upload-item.failed")).to_have_count(1)
    page.locator(".upload-item.failed").get_by_role("button", name=m["upload.discardLabel"].replace("{name}", "notes.jpg")).click()
    expect(page.locator(".upload-item")).to_have_count(0)
    expect(page.get_by_role("status")).to_have_text(m["upload.status.discarded"])
    phone.shot("2-discarded")

    # A real photo with no title, its place not published, only for its owner: the server's
    # PShare title, no place, private.
    page.get_by_label(m["upload.take"]).set_input_files(str(make_jpeg(tmp_path)))
    page.get_by_label(m["upload.place"]).uncheck()
    page.get_by_label(m["upload.private"], exact=True).check()
    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as sent:
        page.get_by_role("button", name=m["upload.submit"], exact=True).click()
    assert sent.value.status == 201, sent.value.text()
    photo = sent.value.json()
    assert photo["title"].startswith("PShare: "), photo["title"]
    assert photo.get("latitude") is None and photo.get("longitude") is None, "the place was not to be published"
    assert photo["visibility"] == "private"
    expect(page.get_by_role("link", name=m["upload.sentLink"].replace("{title}", photo["title"]))).to_be_visible()
    phone.shot("3-no-title-no-place")


@pytest.mark.parametrize("locale,language", [("en-US", "en"), ("de-DE", "de")], ids=["en", "de"])
def test_without_an_account_or_a_position(phone_for, locale, language):
    m = messages(language)
    spot = here()
    phone = phone_for(locale)  # no geolocation permission: the browser refuses the position
    page = phone.page
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["home.heading"])
    expect(page.locator(".near-message")).to_contain_text(m["position.denied"])
    expect(page.locator(".near-message").get_by_role("button", name=m["position.retry"])).to_be_visible()
    phone.shot("1-near-me-refused")

    # Allowed now: Try again finds the position and searches (nothing there yet).
    phone.context.grant_permissions(["geolocation"])
    phone.context.set_geolocation(spot)
    page.locator(".near-message").get_by_role("button", name=m["position.retry"]).click()
    expect(page.locator(".near-message")).to_contain_text(m["near.empty"].split("{")[0].strip())
    phone.shot("2-near-me-empty")

    nav = page.get_by_role("navigation")
    nav.get_by_role("link", name=m["nav.upload"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["upload.heading"])
    expect(page.locator("main")).to_contain_text(m["upload.signInFirst"])
    expect(page.get_by_role("link", name=m["home.signIn"])).to_have_attribute("href", "/account#sign-in")
    phone.shot("3-upload-needs-an-account")

    page.goto("/photos/no-such-photo")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["photo.notFound"])
    phone.shot("4-no-such-photo")


def test_more_pages_through_the_results(phone_for, api, tmp_path):
    """The grid asks for 24 photos at a time; More appends the next page (the server's cursor)."""
    m = messages("en")
    spot = here()
    token = other_person(api)
    small = make_jpeg(tmp_path, "small.jpg", size="64x48")
    for index in range(26):
        # 26 photos a few metres apart going north, so the order is known: nearest first.
        upload_through_api(api, token, small, f"Step {index:02d}", offset(spot, north=2 * index))
    phone = phone_for("en-US", geolocation=spot)
    page = phone.page
    page.goto("/")
    cards = page.locator(".photo-card")
    expect(cards).to_have_count(24)
    more = page.get_by_role("button", name=m["near.more"])
    with page.expect_response(lambda r: "/api/v1/photos/nearby" in r.url and "cursor=" in r.url) as paged:
        more.click()
    assert paged.value.status == 200
    expect(cards).to_have_count(26)
    expect(more).to_be_hidden()
    titles = [title.strip() for title in page.locator(".photo-card-title").all_inner_texts()]
    assert titles == [f"Step {index:02d}" for index in range(26)], titles
    phone.shot("more")

"""Devices: add a key, see its secret once (and copy it), revoke it after confirming."""
import re

from playwright.sync_api import expect

from conftest import messages, username
from flows import sign_up

M = messages("en")


def test_add_a_device_see_the_secret_once_and_revoke_it(phone):
    page = phone.page
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=phone.url(""))
    page.goto("/account")
    assert sign_up(phone, "en", username("frank"), "correct horse battery", "Frank").status == 201
    devices = page.get_by_role("region", name=M["devices.heading"])
    # Signing in gave this browser's recorder its own key for the route API (DESIGN §3.5).
    expect(devices.get_by_role("listitem")).to_have_count(1)
    recorder_key = page.evaluate("import('/recorder/keeper.js').then((keeper) => keeper.deviceKey())")
    assert recorder_key and recorder_key["key"].startswith("wmk_"), recorder_key
    expect(devices.get_by_role("listitem")).to_contain_text([re.compile(r"^Waymark web recorder \(.+\)Key: " + recorder_key["key"])])

    # A name is needed: the server's rule, in the page's words.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/keys") and r.request.method == "POST") as answer:
        devices.get_by_role("button", name=M["devices.add"]).click()
    assert answer.value.status == 400
    expect(page.locator("#device-form").get_by_role("alert")).to_have_text(M["error.invalid_name"])

    devices.get_by_label(M["devices.name"]).fill("Pixel 8")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/keys") and r.request.method == "POST") as answer:
        devices.get_by_role("button", name=M["devices.add"]).click()
    assert answer.value.status == 201, answer.value.text()
    created = answer.value.json()
    assert created["key"].startswith("wmk_") and created["secret"]
    new_key = page.get_by_role("region", name=M["devices.new.heading"].replace("{name}", "Pixel 8"))
    expect(new_key).to_contain_text(created["key"])
    expect(new_key).to_contain_text(created["secret"])
    expect(new_key).to_contain_text(M["devices.secret.warning"])
    expect(page.locator("#device-form").get_by_role("alert")).to_be_hidden()
    new_key.get_by_role("button", name=M["devices.copySecret"]).click()
    expect(page.get_by_role("status")).to_have_text(M["status.copied"])
    assert page.evaluate("navigator.clipboard.readText()") == created["secret"]
    item = devices.get_by_role("listitem").filter(has_text="Pixel 8")
    expect(item).to_contain_text(created["key"])
    phone.shot("1-secret-shown-once")

    new_key.get_by_role("button", name=M["devices.done"]).click()
    expect(page.locator("main")).not_to_contain_text(created["secret"])
    page.reload()
    expect(item).to_contain_text(created["key"])
    expect(item).to_contain_text(re.compile(r"\d{4}"))  # the date it was added
    assert created["secret"] not in page.content(), "the secret is shown again"
    phone.shot("2-listed")

    revoke = devices.get_by_role("button", name=M["devices.revokeLabel"].replace("{name}", "Pixel 8"))
    revoke.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(M["devices.confirm.text"].replace("{name}", "Pixel 8"))
    phone.shot("3-confirm-revoke")
    dialog.get_by_role("button", name=M["devices.confirm.no"]).click()
    expect(dialog).to_be_hidden()
    expect(item).to_be_visible()

    revoke.click()
    with page.expect_response(lambda r: "/api/v1/keys/" in r.url and r.request.method == "DELETE") as answer:
        page.get_by_role("dialog").get_by_role("button", name=M["devices.confirm.yes"]).click()
    assert answer.value.status == 204
    expect(devices.get_by_role("listitem")).to_have_count(1)
    expect(item).to_have_count(0)
    expect(page.get_by_role("status")).to_have_text(M["status.keyRevoked"].replace("{name}", "Pixel 8"))
    assert [key["key"] for key in page.request.get("/api/v1/keys").json()["items"]] == [recorder_key["key"]]
    phone.shot("4-revoked")

"""After one visit the service worker has the shell: it opens with no network at all."""
import pytest
from playwright.sync_api import expect

from conftest import messages, wait_for_service_worker

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
# Needs a secure context (WebCrypto, the service worker, the camera, the position): met as a phone meets it.
pytestmark = [pytest.mark.phone_origin, pytest.mark.database_independent]


def test_the_shell_opens_offline_after_one_visit(phone):
    page = phone.page
    m = messages("en")
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["home.heading"])
    assert wait_for_service_worker(page).endswith("/app/sw.js")
    phone.shot("1-online")

    phone.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("banner")).to_contain_text(m["app.name"])
    expect(page.get_by_role("navigation").get_by_role("link", name=m["nav.account"])).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["home.heading"])
    expect(page.locator("#offline")).to_have_text(m["status.offline"])
    phone.shot("2-offline-home")

    # Another page, opened by its URL while offline, comes from the cached shell too.
    page.goto("/account")
    expect(page.locator("#sign-in-form")).to_be_visible()
    expect(page.get_by_role("heading", level=2).first).to_have_text(m["account.signIn.heading"])
    phone.shot("3-offline-account")

    # Trying to sign in says that there is no connection, in the page's words.
    page.locator("#sign-in-form").get_by_label(m["field.username"]).fill("dave")
    page.locator("#sign-in-form").get_by_label(m["field.password"], exact=True).fill("whatever it is")
    page.locator("#sign-in-form").get_by_role("button", name=m["account.signIn.submit"]).click()
    expect(page.locator("#sign-in-form").get_by_role("alert")).to_have_text(m["error.offline"])
    phone.shot("4-offline-sign-in")
    phone.context.set_offline(False)

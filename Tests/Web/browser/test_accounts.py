"""Signing up, out and in on a phone, in English and German; the language switch; the errors
a person sees for a wrong password and for too many attempts."""
import math
import re

import pytest
from playwright.sync_api import expect

from conftest import make_account, messages, username
from flows import expect_signed_in, form, sign_in, sign_out, sign_up

LOCALES = [("en-US", "en", "de"), ("de-DE", "de", "en")]
PASSWORD = "correct horse battery"


@pytest.mark.parametrize("locale,language,other", LOCALES, ids=["en", "de"])
def test_sign_up_sign_out_sign_in(phone_for, locale, language, other):
    phone = phone_for(locale)
    page = phone.page
    m = messages(language)

    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["home.heading"])
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("button", name=m[f"lang.{language}.name"])).to_have_attribute("aria-pressed", "true")
    phone.shot("1-home")

    page.get_by_role("link", name=m["home.signUp"]).click()
    expect(page).to_have_url(re.compile(r"/account#sign-up$"))
    expect(form(page, "sign-up-form")).to_be_visible()
    phone.shot("2-account-signed-out")

    # The password's show/hide toggle is a real button that says whether it is pressed.
    password = form(page, "sign-up-form").get_by_label(m["field.password"], exact=True)
    toggle = form(page, "sign-up-form").get_by_role("button", name=m["password.toggle"])
    expect(password).to_have_attribute("type", "password")
    toggle.click()
    expect(password).to_have_attribute("type", "text")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(password).to_have_attribute("type", "password")

    alice = username("alice")
    answer = sign_up(phone, language, alice, PASSWORD, "Alice Example", "alice@example.org")
    assert answer.status == 201, answer.text()
    expect_signed_in(phone, language, "Alice Example", alice)
    expect(page.locator("dl.facts").first).to_contain_text("alice@example.org")
    expect(page.get_by_role("status")).to_have_text(m["status.accountCreated"].replace("{name}", "Alice Example"))
    cookie = next(c for c in phone.context.cookies() if c["name"] == "waymark_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    phone.shot("3-signed-up")

    answer = sign_out(phone, language)
    assert answer.status == 204
    expect(page.get_by_role("status")).to_have_text(m["status.signedOut"])
    assert page.request.get("/api/v1/me").status == 401, "the session still works after signing out"
    phone.shot("4-signed-out")

    answer = sign_in(phone, language, alice, PASSWORD)
    assert answer.status == 200, answer.text()
    expect_signed_in(phone, language, "Alice Example", alice)
    expect(page.get_by_role("status")).to_have_text(m["status.signedIn"].replace("{name}", "Alice Example"))
    phone.shot("5-signed-in")

    # Every part of Waymark is one tap away, under More; the inspection opens from there.
    page.get_by_role("navigation", name=m["nav.label"]).get_by_role("button", name=m["nav.more"]).click()
    more = page.get_by_role("dialog", name=m["nav.more.heading"])
    # (A link's name is the module's name and its line: "Tasks" says "inspection tasks".)
    for key in ("scenes", "inspection", "tasks", "paths", "routes", "vault", "sky", "settings"):
        link = more.locator(f'a[data-module="{key}"]')
        expect(link).to_be_visible()
        expect(link.locator(".module-name")).to_have_text(m[f"nav.{key}"])
    phone.shot("5-more")
    more.locator('a[data-module="inspection"]').click()
    expect(page).to_have_url(phone.url("/inspection"))
    expect(more).to_be_hidden()
    page.go_back()
    expect(page.get_by_role("region", name=m["account.job.heading"])).to_be_visible()

    page.get_by_role("navigation", name=m["nav.label"]).get_by_role("link", name=m["nav.home"]).click()
    expect(page).to_have_url(phone.url("/"))
    expect(page.locator("main")).to_contain_text(m["home.signedInAs"].replace("{name}", "Alice Example"))
    expect(page.get_by_role("link", name=m["nav.home"])).to_have_attribute("aria-current", "page")
    phone.shot("6-home-signed-in")

    # The switch flips the language at once and is remembered after a reload.
    o = messages(other)
    page.get_by_role("button", name=o[f"lang.{other}.name"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(o["home.heading"])
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.get_by_role("navigation", name=o["nav.label"]).get_by_role("link", name=o["nav.account"])).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(o["home.heading"])
    expect(page.get_by_role("button", name=o[f"lang.{other}.name"])).to_have_attribute("aria-pressed", "true")
    expect(page.locator("main")).to_contain_text(o["home.signedInAs"].replace("{name}", "Alice Example"))
    phone.shot("7-switched-and-reloaded")
    page.get_by_role("button", name=m[f"lang.{language}.name"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["home.heading"])


@pytest.mark.parametrize("locale,language", [("en-US", "en"), ("de-DE", "de")], ids=["en", "de"])
def test_wrong_password_is_explained_in_the_chosen_language(phone_for, api, locale, language):
    bob = username("bob")
    make_account(api, bob)
    phone = phone_for(locale)
    page = phone.page
    page.goto("/account")
    answer = sign_in(phone, language, bob, "not the password")
    assert answer.status == 401
    assert answer.json()["error"] == "wrong_credentials"
    error = form(page, "sign-in-form").get_by_role("alert")
    expect(error).to_have_text(messages(language)["error.wrong_credentials"])
    if language == "de":
        expect(error).to_have_text("Benutzername oder Passwort ist falsch.")
    # The field keeps what was typed, so a typo can be fixed.
    expect(form(page, "sign-in-form").get_by_label(messages(language)["field.username"])).to_have_value(bob)
    phone.shot("wrong-password")


def test_too_many_attempts_says_how_long_to_wait(phone, api):
    carol = username("carol")
    make_account(api, carol)
    page = phone.page
    m = messages("en")
    page.goto("/account")
    error = form(page, "sign-in-form").get_by_role("alert")
    for attempt in range(1, 11):
        answer = sign_in(phone, "en", carol, f"wrong password {attempt}")
        assert answer.status == 401, f"attempt {attempt}: {answer.status} {answer.text()}"
        expect(error).to_have_text(m["error.wrong_credentials"])
    phone.shot("after-ten")

    answer = sign_in(phone, "en", carol, "wrong password 11")
    assert answer.status == 429, answer.text()
    assert answer.json()["error"] == "too_many_attempts"
    retry_after = answer.headers.get("retry-after")
    assert retry_after is not None and retry_after.isdigit() and 0 < int(retry_after) <= 900, retry_after
    minutes = max(1, math.ceil(int(retry_after) / 60))
    expect(error).to_have_text(m["error.too_many_attempts"].replace("{minutes}", str(minutes)))
    phone.shot("too-many")

    # While locked, even the right password is refused: the wait is what stops guessing.
    answer = sign_in(phone, "en", carol, PASSWORD)
    assert answer.status == 429, answer.text()


def test_sign_up_rules_are_explained_in_german(phone_for, api):
    taken = username("taken")
    make_account(api, taken)
    phone = phone_for("de-DE")
    page = phone.page
    m = messages("de")
    page.goto("/account#sign-up")
    error = form(page, "sign-up-form").get_by_role("alert")

    answer = sign_up(phone, "de", "No Spaces!", PASSWORD, "Heidi")
    assert (answer.status, answer.json()["error"]) == (400, "invalid_username")
    expect(error).to_have_text(m["error.invalid_username"])

    answer = sign_up(phone, "de", username("heidi"), "kurz", "Heidi")
    assert (answer.status, answer.json()["error"]) == (400, "invalid_password")
    expect(error).to_have_text(m["error.invalid_password"])

    answer = sign_up(phone, "de", username("heidi"), PASSWORD, "Heidi", "keine-adresse")
    assert (answer.status, answer.json()["error"]) == (400, "invalid_email")
    expect(error).to_have_text(m["error.invalid_email"])

    answer = sign_up(phone, "de", taken, PASSWORD, "Heidi")
    assert (answer.status, answer.json()["error"]) == (409, "username_taken")
    expect(error).to_have_text(m["error.username_taken"])
    phone.shot("username-taken")


@pytest.mark.serve_args("--registration", "closed")
def test_closed_registration_is_explained(phone):
    page = phone.page
    page.goto("/account")
    answer = sign_up(phone, "en", username("ivan"), PASSWORD, "Ivan")
    assert (answer.status, answer.json()["error"]) == (403, "registration_closed")
    expect(form(page, "sign-up-form").get_by_role("alert")).to_have_text(messages("en")["error.registration_closed"])
    phone.shot("registration-closed")

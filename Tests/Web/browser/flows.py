"""What a person does on the account page, in the language the page shows, found by role and
accessible name (as a screen reader would find the controls)."""
from playwright.sync_api import expect

from conftest import messages


def form(page, form_id):
    return page.locator(f"#{form_id}")


def sign_up(phone, language, username, password, display_name, email=""):
    m = messages(language)
    page = phone.page
    sign_up_form = form(page, "sign-up-form")
    sign_up_form.get_by_label(m["field.username"]).fill(username)
    sign_up_form.get_by_label(m["field.password"], exact=True).fill(password)
    sign_up_form.get_by_label(m["field.displayName"]).fill(display_name)
    sign_up_form.get_by_label(m["field.email"]).fill(email)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/accounts") and r.request.method == "POST") as answer:
        sign_up_form.get_by_role("button", name=m["account.signUp.submit"]).click()
    return answer.value


def sign_in(phone, language, username, password):
    m = messages(language)
    page = phone.page
    sign_in_form = form(page, "sign-in-form")
    sign_in_form.get_by_label(m["field.username"]).fill(username)
    sign_in_form.get_by_label(m["field.password"], exact=True).fill(password)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/sessions") and r.request.method == "POST") as answer:
        sign_in_form.get_by_role("button", name=m["account.signIn.submit"]).click()
    return answer.value


def expect_signed_in(phone, language, display_name, username):
    m = messages(language)
    page = phone.page
    expect(page.get_by_role("heading", level=1)).to_have_text(m["account.heading"])
    facts = page.locator("dl.facts").first
    expect(facts).to_contain_text(display_name)
    expect(facts).to_contain_text(username)
    expect(facts).to_contain_text(m["role.user"])


def sign_out(phone, language):
    m = messages(language)
    page = phone.page
    with page.expect_response(lambda r: r.url.endswith("/api/v1/sessions/current") and r.request.method == "DELETE") as answer:
        page.get_by_role("button", name=m["account.signOut"]).click()
    expect(form(page, "sign-in-form")).to_be_visible()
    return answer.value
